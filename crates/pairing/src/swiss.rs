//! Swiss pairing for two-player games, an approximation of the FIDE Dutch
//! system (C.04.3) solved exactly as one maximum-weight perfect matching, the
//! way bbpPairings does: every criterion becomes a tier of the edge weight, a
//! higher tier outweighing everything below it, so the matching found is the
//! best pairing in the lexicographic order of the tiers (see
//! `docs/tournaments.md` for the tiers and why they are in this order).
//!
//! "First" and "second" are the seats (white and black in chess terms).

use crate::error::PairingError;
use crate::matching::{max_weight_matching, Weight};
use crate::player::{Player, PlayerId, Roster, RoundSeen};
use crate::score::Score;
use crate::standings::{Ledger, SeatResult, Standing, TieBreak};
use serde::{Deserialize, Serialize};

/// A seat of a two-player game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    First,
    Second,
}

impl Colour {
    pub fn other(self) -> Colour {
        match self {
            Colour::First => Colour::Second,
            Colour::Second => Colour::First,
        }
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameResult {
    FirstWins,
    SecondWins,
    Draw,
}

/// A finished game of a past round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    pub first: PlayerId,
    pub second: PlayerId,
    pub result: GameResult,
}

/// A past round: its games and its byes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    #[serde(default)]
    pub games: Vec<Game>,
    #[serde(default)]
    pub byes: Vec<PlayerId>,
}

/// Scoring and presentation choices of a Swiss tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SwissConfig {
    pub win: Score,
    pub draw: Score,
    pub loss: Score,
    /// What a bye is worth (a win by default, as in FIDE events).
    pub bye: Score,
    /// The seat of the higher-ranked player on board 1 when neither player
    /// has a colour history (the "initial colour"; boards alternate).
    pub top_seat: Colour,
    pub tiebreaks: Vec<TieBreak>,
}

impl Default for SwissConfig {
    fn default() -> Self {
        SwissConfig {
            win: Score::points(1),
            draw: Score::halves(1),
            loss: Score::ZERO,
            bye: Score::points(1),
            top_seat: Colour::First,
            tiebreaks: vec![
                TieBreak::BuchholzCut1,
                TieBreak::Buchholz,
                TieBreak::SonnebornBerger,
            ],
        }
    }
}

/// One game of the new round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    pub first: PlayerId,
    pub second: PlayerId,
}

/// Hard constraints that had to be broken because no pairing keeps them all
/// (all zero whenever a pairing keeping them exists).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Relaxed {
    /// Pairs who had already met.
    pub repeats: u32,
    /// The bye went to a player who already had one.
    pub second_byes: u32,
    /// Pairs whose absolute colour preferences were equal, so one of them
    /// gets a colour difference of 3 or a third colour in a row.
    pub colour_conflicts: u32,
}

/// The next round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissPairing {
    /// Ordered as boards are numbered: by the higher score, the sum of the
    /// scores, then the higher-ranked player's rank.
    pub boards: Vec<Board>,
    pub bye: Option<PlayerId>,
    pub relaxed: Relaxed,
}

/// What the past rounds say about each player.
struct History {
    ledger: Ledger,
    /// `colours[player][round]`, `None` when the player did not play.
    colours: Vec<Vec<Option<Colour>>>,
    /// `met[a * n + b]`: a and b have played each other.
    met: Vec<bool>,
    /// How each player floated in the last round, if he did.
    last_float: Vec<Option<Float>>,
}

/// Playing a lower-scored opponent (or getting the bye) is a downfloat,
/// playing a higher-scored one an upfloat (FIDE A.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Float {
    Down,
    Up,
}

fn history(
    players: &[Player],
    rounds: &[Round],
    config: &SwissConfig,
) -> Result<History, PairingError> {
    let n = players.len();
    let roster = Roster::new(players)?;
    let mut h = History {
        ledger: Ledger::new(n),
        colours: vec![vec![None; rounds.len()]; n],
        met: vec![false; n * n],
        last_float: vec![None; n],
    };
    for (r, round) in rounds.iter().enumerate() {
        let mut seen = RoundSeen::new(n, r);
        h.last_float.fill(None);
        for game in &round.games {
            let a = roster.get(&game.first)?;
            let b = roster.get(&game.second)?;
            seen.mark(a, players)?;
            seen.mark(b, players)?;
            // Scores before this round: each player has one game per round.
            let (sa, sb) = (h.ledger.score[a], h.ledger.score[b]);
            if sa != sb {
                let (hi, lo) = if sa > sb { (a, b) } else { (b, a) };
                h.last_float[hi] = Some(Float::Down);
                h.last_float[lo] = Some(Float::Up);
            }
            let (pa, pb, place) = match game.result {
                GameResult::FirstWins => (config.win, config.loss, [0, 1]),
                GameResult::SecondWins => (config.loss, config.win, [1, 0]),
                GameResult::Draw => (config.draw, config.draw, [0, 0]),
            };
            h.ledger.record_table(&[
                SeatResult {
                    player: Some(a),
                    place: place[0],
                    points: pa,
                },
                SeatResult {
                    player: Some(b),
                    place: place[1],
                    points: pb,
                },
            ]);
            h.colours[a][r] = Some(Colour::First);
            h.colours[b][r] = Some(Colour::Second);
            h.met[a * n + b] = true;
            h.met[b * n + a] = true;
        }
        for id in &round.byes {
            let i = roster.get(id)?;
            seen.mark(i, players)?;
            h.ledger.record_bye(i, config.bye);
            h.last_float[i] = Some(Float::Down);
        }
    }
    Ok(h)
}

/// Strength of a colour preference, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Strength {
    None,
    Mild,
    Strong,
    Absolute,
}

#[derive(Clone, Copy, Debug)]
struct Preference {
    colour: Option<Colour>,
    strength: Strength,
    /// Games as first minus games as second.
    difference: i32,
}

/// FIDE's colour preference: absolute with a difference beyond ±1 or the
/// same colour in the last two games; strong at ±1; mild (alternate) at 0.
fn preference(history: &[Option<Colour>]) -> Preference {
    let played: Vec<Colour> = history.iter().flatten().copied().collect();
    let difference: i32 = played
        .iter()
        .map(|c| if *c == Colour::First { 1 } else { -1 })
        .sum();
    let Some(&last) = played.last() else {
        return Preference {
            colour: None,
            strength: Strength::None,
            difference,
        };
    };
    let twice = played.len() >= 2 && played[played.len() - 2] == last;
    let (colour, strength) = if difference > 1 {
        (Colour::Second, Strength::Absolute)
    } else if difference < -1 {
        (Colour::First, Strength::Absolute)
    } else if twice {
        (last.other(), Strength::Absolute)
    } else if difference == 1 {
        (Colour::Second, Strength::Strong)
    } else if difference == -1 {
        (Colour::First, Strength::Strong)
    } else {
        (last.other(), Strength::Mild)
    };
    Preference {
        colour: Some(colour),
        strength,
        difference,
    }
}

/// The weight tiers, most important first.
const TIERS: usize = 9;
const REPEAT: usize = 0;
const SECOND_BYE: usize = 1;
const ABSOLUTE_COLOUR: usize = 2;
const SCORE_GAP: usize = 3;
const STRONG_COLOUR: usize = 4;
const ANY_COLOUR: usize = 5;
const REPEATED_FLOAT: usize = 6;
const EXCHANGE: usize = 7;
const ORDER: usize = 8;

/// A player as the pairing sees it.
struct Entrant {
    player: usize,
    score: Score,
    group: usize,
    /// Position in the score group and the group's size.
    pos: usize,
    group_size: usize,
    pref: Preference,
}

/// Pairs the next round. Withdrawn players are left out; with an odd number
/// of active players one gets the bye.
pub fn pair(
    players: &[Player],
    rounds: &[Round],
    config: &SwissConfig,
) -> Result<SwissPairing, PairingError> {
    let h = history(players, rounds, config)?;
    let n = players.len();
    let mut active: Vec<usize> = (0..n).filter(|&i| !players[i].withdrawn).collect();
    if active.len() < 2 {
        return Err(PairingError::NotEnoughPlayers);
    }
    // Pairing order: score, then rating, then registration.
    active.sort_by(|&a, &b| {
        h.ledger.score[b]
            .cmp(&h.ledger.score[a])
            .then_with(|| players[b].rating.cmp(&players[a].rating))
            .then_with(|| a.cmp(&b))
    });
    let entrants = entrants(&active, &h);
    let m = entrants.len();
    let vertices = m + m % 2;
    let bye_vertex = if m % 2 == 1 { Some(m) } else { None };
    let lowest = entrants.last().map_or(Score::ZERO, |e| e.score);
    // The bye counts as an opponent one point below the lowest score (FIDE).
    let bye_score = lowest - Score::points(1);

    let mut tiers: Vec<[Weight; TIERS]> = Vec::with_capacity(vertices * vertices);
    for a in 0..vertices {
        for b in 0..vertices {
            let t = if a == b {
                [0; TIERS]
            } else if Some(b) == bye_vertex {
                bye_tiers(&entrants[a], &h, bye_score)
            } else if Some(a) == bye_vertex {
                bye_tiers(&entrants[b], &h, bye_score)
            } else {
                pair_tiers(&entrants[a], &entrants[b], &h, n)
            };
            tiers.push(t);
        }
    }
    let scales = scales(&tiers, vertices / 2)?;
    let weights: Vec<Vec<Option<Weight>>> = (0..vertices)
        .map(|a| {
            (0..vertices)
                .map(|b| {
                    (a != b).then(|| {
                        -(0..TIERS)
                            .map(|k| tiers[a * vertices + b][k] * scales[k])
                            .sum::<Weight>()
                    })
                })
                .collect()
        })
        .collect();
    let mate = max_weight_matching(&weights, true);

    let mut relaxed = Relaxed::default();
    let mut bye = None;
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for a in 0..m {
        let b = mate[a].expect("a complete graph with an even count has a perfect matching");
        let t = &tiers[a * vertices + b];
        if Some(b) == bye_vertex {
            bye = Some(players[entrants[a].player].id.clone());
            relaxed.second_byes += u32::from(t[SECOND_BYE] > 0);
        } else if a < b {
            pairs.push((a, b));
            relaxed.repeats += u32::from(t[REPEAT] > 0);
            relaxed.colour_conflicts += u32::from(t[ABSOLUTE_COLOUR] > 0);
        }
    }
    // Board order: higher score, score sum, then the better rank.
    pairs.sort_by_key(|&(a, b)| {
        let (sa, sb) = (entrants[a].score, entrants[b].score);
        (
            std::cmp::Reverse(sa.max(sb)),
            std::cmp::Reverse(sa + sb),
            a.min(b),
        )
    });
    let boards = pairs
        .iter()
        .enumerate()
        .map(|(k, &(a, b))| {
            let first_is_a = a_gets_first(&entrants[a], &entrants[b], &h, k, config.top_seat);
            let (f, s) = if first_is_a { (a, b) } else { (b, a) };
            Board {
                first: players[entrants[f].player].id.clone(),
                second: players[entrants[s].player].id.clone(),
            }
        })
        .collect();
    Ok(SwissPairing {
        boards,
        bye,
        relaxed,
    })
}

fn entrants(ranked: &[usize], h: &History) -> Vec<Entrant> {
    let mut out: Vec<Entrant> = Vec::with_capacity(ranked.len());
    let mut start = 0;
    let mut group = 0;
    while start < ranked.len() {
        let score = h.ledger.score[ranked[start]];
        let end = start
            + ranked[start..]
                .iter()
                .take_while(|&&i| h.ledger.score[i] == score)
                .count();
        for (pos, &player) in ranked[start..end].iter().enumerate() {
            out.push(Entrant {
                player,
                score,
                group,
                pos,
                group_size: end - start,
                pref: preference(&h.colours[player]),
            });
        }
        start = end;
        group += 1;
    }
    out
}

/// Tiers of pairing `a` (ranked higher) with `b`.
fn pair_tiers(a: &Entrant, b: &Entrant, h: &History, n: usize) -> [Weight; TIERS] {
    let (a, b) = if (a.group, a.pos) <= (b.group, b.pos) {
        (a, b)
    } else {
        (b, a)
    };
    let mut t = [0; TIERS];
    t[REPEAT] = Weight::from(h.met[a.player * n + b.player]);
    let same_colour = a.pref.colour.is_some() && a.pref.colour == b.pref.colour;
    let weaker = a.pref.strength.min(b.pref.strength);
    t[ABSOLUTE_COLOUR] = Weight::from(same_colour && weaker == Strength::Absolute);
    let gap = Weight::from((a.score - b.score).0);
    t[SCORE_GAP] = gap * gap;
    t[STRONG_COLOUR] = Weight::from(same_colour && weaker >= Strength::Strong);
    t[ANY_COLOUR] = Weight::from(same_colour);
    if a.score != b.score {
        let f = |e: &Entrant| h.last_float[e.player];
        t[REPEATED_FLOAT] =
            Weight::from(f(a) == Some(Float::Down)) + Weight::from(f(b) == Some(Float::Up));
    }
    t[ORDER] = if a.group == b.group {
        // Top half (S1) against bottom half (S2): 1 v m/2+1, 2 v m/2+2, ...;
        // two players of the same half meeting is an exchange, tried only
        // after every transposition of S2.
        let half = a.group_size / 2;
        if (a.pos < half) == (b.pos < half) {
            t[EXCHANGE] = 1;
            0
        } else {
            (b.pos as Weight - half as Weight - a.pos as Weight).abs()
        }
    } else {
        // The lowest of the higher group floats to the top of the lower one.
        (a.group_size - 1 - a.pos + b.pos) as Weight
    };
    t
}

fn bye_tiers(e: &Entrant, h: &History, bye_score: Score) -> [Weight; TIERS] {
    let mut t = [0; TIERS];
    t[SECOND_BYE] = Weight::from(h.ledger.byes[e.player]);
    let gap = Weight::from((e.score - bye_score).0);
    t[SCORE_GAP] = gap * gap;
    t[REPEATED_FLOAT] = Weight::from(h.last_float[e.player] == Some(Float::Down));
    t[ORDER] = (e.group_size - 1 - e.pos) as Weight;
    t
}

/// Multipliers making each tier outweigh the sum of all lower tiers over a
/// whole matching of `pairs` edges.
fn scales(tiers: &[[Weight; TIERS]], pairs: usize) -> Result<[Weight; TIERS], PairingError> {
    let mut scales = [0; TIERS];
    let mut scale: Weight = 1;
    for k in (0..TIERS).rev() {
        scales[k] = scale;
        let max = tiers.iter().map(|t| t[k]).max().unwrap_or(0);
        let span = max
            .checked_mul(pairs as Weight)
            .and_then(|s| s.checked_add(1))
            .ok_or(PairingError::TooLarge)?;
        scale = scale.checked_mul(span).ok_or(PairingError::TooLarge)?;
    }
    // The total must also fit with room for the matcher's doubled duals.
    scale
        .checked_mul(8 * (pairs as Weight + 1))
        .ok_or(PairingError::TooLarge)?;
    Ok(scales)
}

/// FIDE's colour allocation: grant both preferences; else the stronger one
/// (the wider difference between two absolute ones); else alternate from the
/// last round in which they had different colours; else the higher-ranked
/// player's preference. Neither with a preference: the higher-ranked player
/// takes `top_seat` on odd boards and the other seat on even ones.
fn a_gets_first(a: &Entrant, b: &Entrant, h: &History, board: usize, top_seat: Colour) -> bool {
    let (hi, lo, hi_is_a) = if (a.group, a.pos) <= (b.group, b.pos) {
        (a, b, true)
    } else {
        (b, a, false)
    };
    let hi_colour = match (hi.pref.colour, lo.pref.colour) {
        (None, None) => {
            if board.is_multiple_of(2) {
                top_seat
            } else {
                top_seat.other()
            }
        }
        (Some(x), None) => x,
        (None, Some(y)) => y.other(),
        (Some(x), Some(y)) if x != y => x,
        (Some(x), Some(_)) => {
            let (hs, ls) = (hi.pref.strength, lo.pref.strength);
            let (hd, ld) = (hi.pref.difference.abs(), lo.pref.difference.abs());
            if hs != ls {
                if hs > ls {
                    x
                } else {
                    x.other()
                }
            } else if hs == Strength::Absolute && hd != ld {
                if hd > ld {
                    x
                } else {
                    x.other()
                }
            } else {
                let (ch, cl) = (&h.colours[hi.player], &h.colours[lo.player]);
                let last_differing = (0..ch.len()).rev().find_map(|r| match (ch[r], cl[r]) {
                    (Some(p), Some(q)) if p != q => Some(p),
                    _ => None,
                });
                last_differing.map_or(x, Colour::other)
            }
        }
    };
    (hi_colour == Colour::First) == hi_is_a
}

/// Standings after `rounds`, with the configured tie-breaks.
pub fn standings(
    players: &[Player],
    rounds: &[Round],
    config: &SwissConfig,
) -> Result<Vec<Standing>, PairingError> {
    let h = history(players, rounds, config)?;
    Ok(h.ledger.standings(players, &config.tiebreaks, 2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preference_rules() {
        use Colour::*;
        let p = preference(&[Some(First), Some(First)]);
        assert_eq!((p.colour, p.strength), (Some(Second), Strength::Absolute));
        let p = preference(&[Some(First), None, Some(Second), Some(First)]);
        assert_eq!((p.colour, p.strength), (Some(Second), Strength::Strong));
        let p = preference(&[Some(Second), Some(First)]);
        assert_eq!((p.colour, p.strength), (Some(Second), Strength::Mild));
        let p = preference(&[Some(First), Some(Second), Some(Second)]);
        assert_eq!((p.colour, p.strength), (Some(First), Strength::Absolute));
        assert_eq!(preference(&[None]).strength, Strength::None);
    }

    #[test]
    fn floats_of_the_last_round_are_remembered() {
        let players: Vec<Player> = (0..5).map(|i| Player::new(format!("p{i}"), 1500)).collect();
        let id = |i: usize| PlayerId::new(format!("p{i}"));
        let game = |a, b, result| Game {
            first: id(a),
            second: id(b),
            result,
        };
        let config = SwissConfig::default();
        let r1 = Round {
            games: vec![
                game(0, 1, GameResult::FirstWins),
                game(2, 3, GameResult::Draw),
            ],
            byes: vec![id(4)],
        };
        // Round 2: p0 (1) v p2 (½) is a float; p4 (1) v p1 (0) too.
        let r2 = Round {
            games: vec![
                game(0, 2, GameResult::Draw),
                game(4, 1, GameResult::FirstWins),
            ],
            byes: vec![id(3)],
        };
        let h = history(&players, std::slice::from_ref(&r1), &config).unwrap();
        assert_eq!(h.last_float[4], Some(Float::Down), "a bye is a downfloat");
        let h = history(&players, &[r1, r2], &config).unwrap();
        assert_eq!(h.last_float[0], Some(Float::Down));
        assert_eq!(h.last_float[2], Some(Float::Up));
        assert_eq!(h.last_float[4], Some(Float::Down));
        assert_eq!(h.last_float[1], Some(Float::Up));
        assert_eq!(h.last_float[3], Some(Float::Down));
        let ranked: Vec<usize> = (0..5).collect();
        let e = entrants(&ranked, &h);
        let (p0, p1) = (&e[0], &e[1]);
        assert!(p0.score > p1.score);
        assert_eq!(pair_tiers(p0, p1, &h, 5)[REPEATED_FLOAT], 2);
    }
}
