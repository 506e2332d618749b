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
/// the turns without a capture.
#[test]
fn a_perft_table_keeps_histories_and_counters_apart() {
    use phylde::Options;
    use tabula_core::Game;
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
    tabula_core::perft_data::check_table_tells_apart(&[&fresh, &repeated, &late], 6);
}
