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
