//! `legend` in `tabula play`: what the letters and marks of each game's
//! board drawing stand for (the drawings are the games' own `render`).

/// The legend of the game registered as `name`, if it has one.
pub fn legend(name: &str) -> Option<&'static str> {
    Some(match name {
        "dragonchess" => {
            "Upper case Gold, lower case Scarlet; squares are level, file, rank (2e4).\n\
             S Sylph  G Griffin  R Dragon     (Sky)\n\
             W Warrior  O Oliphant  U Unicorn  H Hero  T Thief  C Cleric  M Mage\n\
             K King  P Paladin                (Ground)\n\
             D Dwarf  B Basilisk  E Elemental  (Underworld)\n\
             Moves: W2e2-2e3, x captures, =H promotes; + check, # mate."
        }
        "gildervaik" => {
            "A B C: the three players' pawns.  ':' an empty cell of a zone (Territory),\n\
             '.' an empty cell of the minefield. Cells are row a-j and number from the\n\
             left (e5). Moves: d7-e8 (a step or a jump), e5xe7xf9 (warrior captures), pass."
        }
        "phylde" => {
            "Upper case South, lower case North.  S soldier  A archer  C cavalier\n\
             R King (drawn under its point)  # a square of a King's quad (always empty).\n\
             Points: i1+ is the corner north-east of square i1. Moves: e5-e6, e5xe6\n\
             (capture), c3*c5 (an archer shoots), i1+-i2+ (King), end (ends a turn early)."
        }
        "stelpur" => {
            "X South (player 1), O North (player 2); cells 1-24 in the direction of travel.\n\
             A rune marks a rune corner (1 6 7 12 13 18 19 24): a pawn there between two\n\
             enemies is protected, and a last pawn moves from corner to corner.\n\
             Moves: die first, 6:6-12, 1:9x13 (capture); pass."
        }
        _ => return None,
    })
}
