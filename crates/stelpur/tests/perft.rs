//! Perft tables in `tests/data/stelpur.perft` (core format), every preset.

const DATA: &str = include_str!("data/stelpur.perft");

#[test]
fn perft_file_matches() {
    let checked = tabula_core::perft_data::check_file::<stelpur::Stelpur>(DATA, 4);
    assert!(checked >= 80, "only {checked} rows x depths checked");
}

/// Prints the rows of the data file with fresh counts (to regenerate it):
/// `cargo test -p tabula-stelpur --test perft -- --ignored --nocapture`.
#[test]
#[ignore]
fn print_perft_rows() {
    for row in tabula_core::perft_data::parse(DATA) {
        let g = tabula_core::perft_data::game_of::<stelpur::Stelpur>(&row);
        let counts: Vec<String> = (1..=4)
            .map(|d| format!("{d}:{}", tabula_core::perft(&g, d)))
            .collect();
        let pos = row.position.as_deref().unwrap_or("start");
        println!("{}; {}; {pos}; {}", row.name, row.spec, counts.join(" "));
    }
}
