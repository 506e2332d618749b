//! The hash reads what a roll means for play, not its faces: the 21 rolls
//! lead to the ten roll classes of the spec's §7 (none, one 1, one 6, 6-1
//! and each double), so that a search meets each class once.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use stelpur::{Action, Options, Stelpur};
use tabula_core::{Evaluate, Game, OptionValues, Player, RawSpec, Turn};

/// A new game of `spec` (a preset).
fn game(spec: &str) -> Stelpur {
    let raw = RawSpec::parse(spec).unwrap();
    let values = OptionValues::validate(Stelpur::NAME, Stelpur::option_defs(), &raw.pairs).unwrap();
    Stelpur::new_game(&Stelpur::options_from(&values).unwrap()).unwrap()
}

/// The children of chance node `g` grouped by hash: each group's hash,
/// share, rolls and first position.
fn classes(g: &Stelpur) -> Vec<(u64, f64, Vec<Action>, Stelpur)> {
    let mut outs = Vec::new();
    g.chance_outcomes(&mut outs);
    let mut groups: Vec<(u64, f64, Vec<Action>, Stelpur)> = Vec::new();
    for (a, p) in outs {
        let mut child = g.clone();
        child.apply(a);
        let h = child.hash();
        match groups.iter_mut().find(|c| c.0 == h) {
            Some(c) => {
                c.1 += p;
                c.2.push(a);
            }
            None => groups.push((h, p, vec![a], child)),
        }
    }
    groups
}

/// The legal actions of `g`, as text.
fn texts(g: &Stelpur) -> Vec<String> {
    g.actions_here()
        .into_iter()
        .map(|a| g.action_text(a))
        .collect()
}

#[test]
fn the_21_rolls_are_ten_classes_from_the_start() {
    let g = Stelpur::new_game(&Options::default()).unwrap();
    let groups = classes(&g);
    let mut shares: Vec<u32> = groups.iter().map(|c| (c.1 * 36.0).round() as u32).collect();
    shares.sort_unstable();
    assert_eq!(shares, [1, 1, 1, 1, 1, 1, 2, 8, 8, 12]);
    let of = |roll: &str| {
        let rolls = |c: &(u64, f64, Vec<Action>, Stelpur)| -> Vec<String> {
            c.2.iter().map(|&a| g.action_text(a)).collect()
        };
        let group = groups.iter().find(|c| rolls(c).iter().any(|r| r == roll));
        rolls(group.unwrap())
    };
    assert_eq!(of("4-1").len(), 4, "2-1 to 5-1: {:?}", of("4-1"));
    assert_eq!(of("6-3").len(), 4, "6-2 to 6-5: {:?}", of("6-3"));
    assert_eq!(of("4-2").len(), 6, "no 1, no 6, no double: {:?}", of("4-2"));
    assert_eq!(of("6-1").len(), 1);
    assert_eq!(of("3-3").len(), 1);
}

/// Rolls that hash alike play alike: the same legal uses, the same
/// evaluation and the same turn, in positions from random games under
/// every preset.
#[test]
fn rolls_that_hash_alike_play_alike() {
    let mut rng = SmallRng::seed_from_u64(7);
    let mut buf = Vec::new();
    let mut checked = 0;
    let presets = [
        "stelpur",
        "stelpur(preset=tablesites)",
        "stelpur(preset=ludii)",
    ];
    for spec in presets.into_iter().cycle().take(45) {
        let mut g = game(spec);
        while g.turn() != Turn::Over {
            if g.turn() == Turn::Chance {
                let groups = classes(&g);
                assert!(
                    groups.len() <= 10,
                    "{} classes in {}",
                    groups.len(),
                    g.position()
                );
                for (h, _, rolls, first) in &groups {
                    for &a in rolls {
                        let mut c = g.clone();
                        c.apply(a);
                        assert_eq!(c.hash(), *h);
                        assert_eq!(
                            texts(&c),
                            texts(first),
                            "{} / {}",
                            c.position(),
                            first.position()
                        );
                        assert_eq!(c.evaluate(Player(0)), first.evaluate(Player(0)));
                        assert_eq!(c.turn(), first.turn());
                        checked += 1;
                    }
                }
                let a = g.pick_chance_at(rng.gen(), &mut buf).unwrap();
                g.apply(a);
            } else {
                let acts = g.actions_here();
                g.apply(acts[rng.gen_range(0..acts.len())]);
            }
        }
    }
    assert!(checked > 10_000, "{checked} rolls checked");
}
