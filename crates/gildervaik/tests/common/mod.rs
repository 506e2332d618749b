//! Helpers shared by the integration tests.
#![allow(dead_code)]

use gildervaik::Gildervaik;
use tabula_core::{Game, OptionValues, Outcome, Player, RawSpec};

/// Options from a spec string such as `gildervaik(mode=warrior)`.
pub fn options(spec: &str) -> gildervaik::Options {
    let raw = RawSpec::parse(spec).expect("spec parses");
    let values = OptionValues::validate(Gildervaik::NAME, Gildervaik::option_defs(), &raw.pairs)
        .expect("spec validates");
    Gildervaik::options_from(&values).expect("options build")
}

/// A game from a spec string and a position string (`start` for the start).
pub fn game(spec: &str, position: &str) -> Gildervaik {
    let opts = options(spec);
    if position == "start" {
        Gildervaik::new_game(&opts).expect("start position")
    } else {
        Gildervaik::from_position(&opts, position).expect("position parses")
    }
}

/// The legal moves as text, sorted by from-id then path ids (spec §9 order).
pub fn moves(g: &Gildervaik) -> Vec<String> {
    let mut acts = g.actions_here();
    acts.sort_by_key(|m| {
        let mut key: Vec<usize> = m.from().map(|c| c.id()).into_iter().collect();
        key.extend(m.landings().map(|c| c.id()));
        key
    });
    acts.into_iter().map(|m| g.action_text(m)).collect()
}

/// `moves` joined by spaces, to compare with the lists of the spec.
pub fn listed(g: &Gildervaik) -> String {
    moves(g).join(" ")
}

/// Play a move given as text.
pub fn play(g: &mut Gildervaik, text: &str) {
    let m = g
        .parse_action(text)
        .unwrap_or_else(|e| panic!("{e} in {}", g.position()));
    g.apply(m);
}

/// A draw shared by the given seats (0 = A).
pub fn draw(seats: &[u8]) -> Outcome {
    Outcome::Draw(seats.iter().map(|&s| Player(s)).collect())
}
