//! What the catalog tells clients: each game's declared type, and an AI at
//! every level for every game.

use tabula_ai::{AgentKind, AiLevel};
use tabula_core::GameType;

#[test]
fn every_game_declares_its_type() {
    let reg = tabula_games::registry();
    let declared: Vec<(&str, GameType)> = reg
        .entries()
        .iter()
        .map(|e| (e.name, e.game_type().unwrap()))
        .collect();
    let ty = |players, chance, multi_action_turns| GameType {
        players,
        chance,
        multi_action_turns,
    };
    assert_eq!(
        declared,
        [
            ("dragonchess", ty(2, false, false)),
            ("gildervaik", ty(3, false, false)),
            ("phylde", ty(2, false, true)),
            ("stelpur", ty(2, true, true)),
        ]
    );
    assert_eq!(
        serde_json::to_string(&declared[3].1).unwrap(),
        r#"{"players":2,"chance":true,"multi_action_turns":true}"#
    );
    // Options that change no declared fact leave it alone.
    let warrior = reg.create("gildervaik(mode=warrior)", None).unwrap();
    assert_eq!(warrior.game_type(), declared[1].1);
}

#[test]
fn every_level_and_agent_builds_for_every_game_that_fits() {
    let reg = tabula_games::registry();
    for entry in reg.entries() {
        let game = reg.create(entry.name, None).unwrap();
        for level in AiLevel::ALL {
            let agent = tabula_games::make_agent(game.as_ref(), level, 1)
                .unwrap_or_else(|e| panic!("{level} for {}: {e}", entry.name));
            assert_eq!(agent.name(), level.name());
        }
        let ty = game.game_type();
        for kind in AgentKind::ALL {
            let fits = match kind {
                AgentKind::AlphaBeta => ty.players == 2 && !ty.chance,
                AgentKind::Expectimax => ty.players == 2,
                _ => true,
            };
            let made = tabula_games::agent(game.as_ref(), kind.name(), 1);
            assert_eq!(made.is_ok(), fits, "{kind} for {}", entry.name);
        }
    }
    let game = reg.create("phylde", None).unwrap();
    let e = tabula_games::agent(game.as_ref(), "level9", 1)
        .err()
        .unwrap();
    assert!(
        e.message
            .starts_with("unknown agent `level9` (valid: random, greedy"),
        "{e}"
    );
}
