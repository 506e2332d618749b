//! The perft table `tests/data/phylde.perft`: presets, worked examples,
//! mid-turn and mid-game positions.

use phylde::Phylde;
use tabula_core::perft_data::check_file;

const TABLE: &str = include_str!("data/phylde.perft");

#[test]
fn perft_table_to_depth_3() {
    assert!(check_file::<Phylde>(TABLE, 3) >= 26 * 3);
}

/// About 15 s in release: `cargo test --release -p tabula-phylde --test perft -- --ignored`.
#[test]
#[ignore]
fn perft_table_to_depth_4() {
    assert!(check_file::<Phylde>(TABLE, 4) >= 26 * 4);
}

/// A perft table must tell apart positions that differ only in what the
/// draw rules read: the turn-boundary positions since the last capture, and
/// the turns without a capture. One table serves all three positions below,
/// which share their board and side to move; each count must be its own.
#[test]
fn a_perft_table_keeps_histories_and_counters_apart() {
    use phylde::Options;
    use tabula_core::{perft, perft_hashed, Game, PerftTable};
    let options = Options {
        material_draw: false,
        ..Options::default()
    };
    let at = |counters: &str| {
        let fen = format!("18/8r9/18/18/18/18/18/18/18/18/18/18/18/18/18/18/8R9/18 S {counters}");
        Phylde::from_position(&options, &fen).expect("position")
    };
    let fresh = at("- 4 5");
    // The same board after both Kings stepped out and back: it has now
    // occurred twice, and the next return to it draws by repetition.
    let mut repeated = at("- 0 1");
    for m in ["i2+-i3+", "i17+-i16+", "i3+-i2+", "i16+-i17+"] {
        let action = repeated.parse_action(m).expect("legal");
        repeated.apply(action);
    }
    assert_eq!(repeated.position(), fresh.position());
    // Two turns from the no-capture draw.
    let late = at(&format!("- {} 1", options.no_capture_turns - 2));
    let plain: Vec<u64> = [&fresh, &repeated, &late]
        .iter()
        .map(|g| perft(*g, 6))
        .collect();
    assert_ne!(plain[0], plain[1], "the history changes the count");
    assert_ne!(plain[0], plain[2], "the counter changes the count");
    let table = PerftTable::with_mb(1).expect("table");
    for (g, expected) in [&fresh, &repeated, &late, &fresh].iter().zip([0, 1, 2, 0]) {
        assert_eq!(
            perft_hashed(*g, 6, 2, &table),
            plain[expected],
            "{}",
            g.position()
        );
    }
}
