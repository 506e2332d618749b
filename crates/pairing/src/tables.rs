//! Rounds of three-player tables (Gildervaik). Each round splits the active
//! players into tables of three so that, in order of importance, players
//! meet as few past opponents as possible, players of similar score sit
//! together, and within a score group the field is spread top third / middle
//! third / bottom third (the three-player analogue of the Dutch top half
//! against bottom half). Seats are then given so that each player takes the
//! seat he has had least, rotating from his last one. One or two players left
//! over get a table completed by AI seats or a bye, as configured.

use crate::error::PairingError;
use crate::player::{Player, PlayerId, Roster, RoundSeen};
use crate::score::Score;
use crate::standings::{Ledger, SeatResult, Standing, TieBreak};
use serde::{Deserialize, Serialize};

/// Seats at a table; seat 0 moves first.
pub const SEATS: usize = 3;

/// Who sits in a seat.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Seat {
    Player(PlayerId),
    /// A computer opponent of the level the tournament chose.
    Ai {
        level: u8,
    },
}

/// A table of the new round, seats in playing order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    pub seats: Vec<Seat>,
}

/// A finished table: its seats and each seat's place (0 is first). Tied
/// seats share a place and the next place is skipped (`[0, 0, 2]`: two share
/// first; `[0, 1, 1]`: two share second).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayedTable {
    pub seats: Vec<Seat>,
    pub places: Vec<u8>,
}

/// A past round: its tables and its byes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableRound {
    #[serde(default)]
    pub tables: Vec<PlayedTable>,
    #[serde(default)]
    pub byes: Vec<PlayerId>,
}

/// What happens to the one or two players a round cannot seat in threes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Leftover {
    /// They play one table filled up with AI seats of this level.
    Ai { level: u8 },
    /// They sit out and score `TablesConfig::bye`.
    Bye,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TablesConfig {
    /// Points for first, second and third place; tied seats share the
    /// points of the places they cover equally.
    pub points: [Score; SEATS],
    pub leftover: Leftover,
    /// What a bye is worth (by default the second place's points: about
    /// what an average table brings with 3/1/0).
    pub bye: Score,
    pub tiebreaks: Vec<TieBreak>,
}

impl Default for TablesConfig {
    fn default() -> Self {
        TablesConfig {
            points: [Score::points(3), Score::points(1), Score::ZERO],
            leftover: Leftover::Ai { level: 4 },
            bye: Score::points(1),
            tiebreaks: vec![
                TieBreak::BuchholzCut1,
                TieBreak::Buchholz,
                TieBreak::SonnebornBerger,
            ],
        }
    }
}

/// The next round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TablesPairing {
    /// Ordered by the best-ranked player at each table.
    pub tables: Vec<Table>,
    pub byes: Vec<PlayerId>,
    /// Pairs of players at this round's tables who had met before (counted
    /// once per earlier meeting); zero whenever that is achievable.
    pub repeated_pairs: u32,
}

struct History {
    ledger: Ledger,
    /// `met[a * n + b]`: earlier tables shared by a and b.
    met: Vec<u32>,
    /// Times each player sat in each seat, and the last seat taken.
    seat_count: Vec<[u32; SEATS]>,
    last_seat: Vec<Option<usize>>,
    /// Byes plus tables completed by AI seats.
    short_rounds: Vec<u32>,
}

/// The points each seat earns from its place: tied seats share the points of
/// the places they cover.
fn table_points(places: &[u8], points: &[Score; SEATS]) -> Vec<Score> {
    places
        .iter()
        .map(|&p| {
            let tied = places.iter().filter(|&&q| q == p).count();
            let from = usize::from(p);
            Score::mean(&points[from..from + tied])
        })
        .collect()
}

/// Places must be a standard ranking: each is the number of seats ahead.
fn valid_places(places: &[u8]) -> bool {
    places.len() == SEATS
        && places
            .iter()
            .all(|&p| usize::from(p) == places.iter().filter(|&&q| q < p).count())
}

fn history(
    players: &[Player],
    rounds: &[TableRound],
    config: &TablesConfig,
) -> Result<History, PairingError> {
    let n = players.len();
    let roster = Roster::new(players)?;
    let mut h = History {
        ledger: Ledger::new(n),
        met: vec![0; n * n],
        seat_count: vec![[0; SEATS]; n],
        last_seat: vec![None; n],
        short_rounds: vec![0; n],
    };
    for (r, round) in rounds.iter().enumerate() {
        let mut seen = RoundSeen::new(n, r);
        for table in &round.tables {
            if table.seats.len() != SEATS || !valid_places(&table.places) {
                return Err(PairingError::BadResult {
                    round: r,
                    detail: format!(
                        "a table needs {SEATS} seats and places like [0, 1, 2], [0, 0, 2] or [0, 1, 1], got {:?}",
                        table.places
                    ),
                });
            }
            let mut seated = Vec::with_capacity(SEATS);
            for seat in &table.seats {
                seated.push(match seat {
                    Seat::Player(id) => {
                        let i = roster.get(id)?;
                        seen.mark(i, players)?;
                        Some(i)
                    }
                    Seat::Ai { .. } => None,
                });
            }
            let points = table_points(&table.places, &config.points);
            let results: Vec<SeatResult> = (0..SEATS)
                .map(|s| SeatResult {
                    player: seated[s],
                    place: table.places[s],
                    points: points[s],
                })
                .collect();
            h.ledger.record_table(&results);
            let has_ai = seated.iter().any(Option::is_none);
            for (s, &a) in seated.iter().enumerate() {
                let Some(a) = a else { continue };
                h.seat_count[a][s] += 1;
                h.last_seat[a] = Some(s);
                h.short_rounds[a] += u32::from(has_ai);
                for &b in seated.iter().flatten() {
                    if a != b {
                        h.met[a * n + b] += 1;
                    }
                }
            }
        }
        for id in &round.byes {
            let i = roster.get(id)?;
            seen.mark(i, players)?;
            h.ledger.record_bye(i, config.bye);
            h.short_rounds[i] += 1;
        }
    }
    Ok(h)
}

/// Cost of a table, compared lexicographically: repeated meetings, the
/// squared score gaps, seats already taken (by the best seating), then the
/// distance from the thirds layout.
type Cost = (u64, u64, u64, u64);

fn add(a: Cost, b: Cost) -> Cost {
    (a.0 + b.0, a.1 + b.1, a.2 + b.2, a.3 + b.3)
}

/// The pairing's view of the ranked active players.
struct Field<'a> {
    h: &'a History,
    n: usize,
    /// Ranked active players (score, rating, registration).
    ranked: Vec<usize>,
    /// Score group and position within it, by ranked position.
    group: Vec<(usize, usize, usize)>,
}

impl Field<'_> {
    fn pair_cost(&self, x: usize, y: usize) -> Cost {
        let (a, b) = (self.ranked[x], self.ranked[y]);
        let met = u64::from(self.h.met[a * self.n + b]);
        let gap = (self.h.ledger.score[a] - self.h.ledger.score[b])
            .0
            .unsigned_abs();
        let (gx, px, size) = self.group[x];
        let (gy, py, _) = self.group[y];
        let spread = if gx == gy {
            // Ideal distance between tablemates: a third or two thirds of the group.
            let d = 3 * px.abs_diff(py) as i64;
            let m = size as i64;
            (d - m).abs().min((d - 2 * m).abs()) as u64
        } else {
            0
        };
        (met, gap * gap, 0, spread)
    }

    fn table_cost(&self, t: [usize; 3]) -> Cost {
        let seats = PERMUTATIONS
            .iter()
            .map(|perm| {
                (0..SEATS)
                    .map(|k| u64::from(self.h.seat_count[self.ranked[t[k]]][perm[k]]))
                    .sum::<u64>()
            })
            .min()
            .unwrap_or(0);
        add(
            add(self.pair_cost(t[0], t[1]), self.pair_cost(t[0], t[2])),
            add(self.pair_cost(t[1], t[2]), (0, 0, seats, 0)),
        )
    }
}

/// Partition search budget, in candidate tables evaluated: the search is
/// exhaustive (with pruning) for small fields, about 15 players and fewer;
/// beyond, the best partition found within the budget is improved by swaps.
const WORK_BUDGET: u64 = 2_000_000;

struct Search<'a> {
    field: &'a Field<'a>,
    used: Vec<bool>,
    current: Vec<[usize; 3]>,
    best: Option<(Cost, Vec<[usize; 3]>)>,
    work: u64,
}

impl Search<'_> {
    fn run(&mut self, cost: Cost) {
        if self.best.as_ref().is_some_and(|(b, _)| cost >= *b) {
            return;
        }
        let Some(first) = self.used.iter().position(|u| !u) else {
            self.best = Some((cost, self.current.clone()));
            return;
        };
        if self.work >= WORK_BUDGET {
            return;
        }
        let free: Vec<usize> = (first + 1..self.used.len())
            .filter(|&i| !self.used[i])
            .collect();
        self.work += (free.len() * free.len() / 2) as u64 + 1;
        let mut options: Vec<(Cost, usize, usize)> = Vec::new();
        for (k, &b) in free.iter().enumerate() {
            for &c in &free[k + 1..] {
                options.push((self.field.table_cost([first, b, c]), b, c));
            }
        }
        options.sort();
        for (table, b, c) in options {
            for i in [first, b, c] {
                self.used[i] = true;
            }
            self.current.push([first, b, c]);
            self.run(add(cost, table));
            self.current.pop();
            for i in [first, b, c] {
                self.used[i] = false;
            }
        }
    }
}

/// Improves a partition by swapping players between two tables until no
/// swap helps (for fields too large for the exhaustive search).
fn improve(field: &Field, tables: &mut [[usize; 3]]) {
    let mut improved = true;
    while improved {
        improved = false;
        for x in 0..tables.len() {
            for y in x + 1..tables.len() {
                for i in 0..3 {
                    for j in 0..3 {
                        let before = add(field.table_cost(tables[x]), field.table_cost(tables[y]));
                        let (mut tx, mut ty) = (tables[x], tables[y]);
                        std::mem::swap(&mut tx[i], &mut ty[j]);
                        if add(field.table_cost(tx), field.table_cost(ty)) < before {
                            tables[x] = tx;
                            tables[y] = ty;
                            improved = true;
                        }
                    }
                }
            }
        }
    }
}

/// Pairs the next round of tables.
pub fn pair(
    players: &[Player],
    rounds: &[TableRound],
    config: &TablesConfig,
) -> Result<TablesPairing, PairingError> {
    if let Leftover::Ai { level } = config.leftover {
        if level == 0 {
            return Err(PairingError::BadConfig(
                "AI level must be at least 1".into(),
            ));
        }
    }
    let h = history(players, rounds, config)?;
    let n = players.len();
    let mut ranked: Vec<usize> = (0..n).filter(|&i| !players[i].withdrawn).collect();
    let needed = match config.leftover {
        Leftover::Ai { .. } => 2,
        Leftover::Bye => SEATS,
    };
    if ranked.len() < needed {
        return Err(PairingError::NotEnoughPlayers);
    }
    ranked.sort_by(|&a, &b| {
        h.ledger.score[b]
            .cmp(&h.ledger.score[a])
            .then_with(|| players[b].rating.cmp(&players[a].rating))
            .then_with(|| a.cmp(&b))
    });
    // Leftovers: fewest short rounds so far, then the lowest ranked.
    let short = ranked.len() % SEATS;
    let mut by_need: Vec<usize> = (0..ranked.len()).collect();
    by_need.sort_by_key(|&x| (h.short_rounds[ranked[x]], std::cmp::Reverse(x)));
    let mut leftover: Vec<usize> = by_need[..short].to_vec();
    leftover.sort();
    let seated: Vec<usize> = (0..ranked.len())
        .filter(|x| !leftover.contains(x))
        .map(|x| ranked[x])
        .collect();

    let field = field(&h, n, seated);
    let mut search = Search {
        field: &field,
        used: vec![false; field.ranked.len()],
        current: Vec::new(),
        best: None,
        work: 0,
    };
    search.run((0, 0, 0, 0));
    let mut triples = search.best.map(|(_, t)| t).unwrap_or_default();
    improve(&field, &mut triples);

    // Each table keyed by the overall rank of its best player.
    let mut repeated_pairs = 0;
    let mut groups: Vec<(usize, Vec<Option<usize>>)> = Vec::new();
    for t in &triples {
        repeated_pairs += field.table_cost(*t).0 as u32;
        let top = t.iter().copied().min().unwrap_or(0);
        groups.push((
            position(&ranked, field.ranked[top]),
            t.iter().map(|&x| Some(field.ranked[x])).collect(),
        ));
    }
    let mut byes = Vec::new();
    match config.leftover {
        Leftover::Ai { .. } if !leftover.is_empty() => {
            let mut occupants: Vec<Option<usize>> =
                leftover.iter().map(|&x| Some(ranked[x])).collect();
            if let [a, b] = occupants[..] {
                repeated_pairs += a.zip(b).map_or(0, |(a, b)| h.met[a * n + b]);
            }
            occupants.resize(SEATS, None);
            groups.push((leftover[0], occupants));
        }
        _ => {
            byes = leftover
                .iter()
                .map(|&x| players[ranked[x]].id.clone())
                .collect();
        }
    }
    groups.sort_by_key(|g| g.0);
    let level = match config.leftover {
        Leftover::Ai { level } => level,
        Leftover::Bye => 0,
    };
    let tables = groups
        .into_iter()
        .map(|(_, occupants)| Table {
            seats: seat_order(&h, &occupants)
                .into_iter()
                .map(|o| match o {
                    Some(i) => Seat::Player(players[i].id.clone()),
                    None => Seat::Ai { level },
                })
                .collect(),
        })
        .collect();
    Ok(TablesPairing {
        tables,
        byes,
        repeated_pairs,
    })
}

fn position(ranked: &[usize], player: usize) -> usize {
    ranked
        .iter()
        .position(|&p| p == player)
        .unwrap_or(usize::MAX)
}

fn field(h: &History, n: usize, ranked: Vec<usize>) -> Field<'_> {
    let mut group = Vec::with_capacity(ranked.len());
    let mut start = 0;
    let mut g = 0;
    while start < ranked.len() {
        let score = h.ledger.score[ranked[start]];
        let size = ranked[start..]
            .iter()
            .take_while(|&&i| h.ledger.score[i] == score)
            .count();
        group.extend((0..size).map(|p| (g, p, size)));
        start += size;
        g += 1;
    }
    Field {
        h,
        n,
        ranked,
        group,
    }
}

/// The six orders of three seats.
const PERMUTATIONS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// Seats the occupants (`None` = AI): each player takes the seat he has had
/// least, then the seat after his last one, then the first such order.
fn seat_order(h: &History, occupants: &[Option<usize>]) -> Vec<Option<usize>> {
    let cost = |perm: &[usize; 3]| {
        let mut used = 0;
        let mut off_rotation = 0;
        for (k, occupant) in occupants.iter().enumerate() {
            if let Some(p) = *occupant {
                let seat = perm[k];
                used += h.seat_count[p][seat];
                if let Some(last) = h.last_seat[p] {
                    off_rotation += u32::from(seat != (last + 1) % SEATS);
                }
            }
        }
        (used, off_rotation)
    };
    let best = PERMUTATIONS
        .iter()
        .min_by_key(|perm| cost(perm))
        .unwrap_or(&PERMUTATIONS[0]);
    let mut seats = vec![None; SEATS];
    for (k, occupant) in occupants.iter().enumerate() {
        seats[best[k]] = *occupant;
    }
    seats
}

/// Standings after `rounds`, with the configured tie-breaks (computed over
/// both opponents at each table; see `TieBreak`).
pub fn standings(
    players: &[Player],
    rounds: &[TableRound],
    config: &TablesConfig,
) -> Result<Vec<Standing>, PairingError> {
    let h = history(players, rounds, config)?;
    Ok(h.ledger.standings(players, &config.tiebreaks, SEATS))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tied_places_share_points() {
        let pts = [Score::points(3), Score::points(1), Score::ZERO];
        assert_eq!(
            table_points(&[0, 1, 2], &pts),
            vec![Score::points(3), Score::points(1), Score::ZERO]
        );
        assert_eq!(
            table_points(&[0, 0, 2], &pts),
            vec![Score::points(2), Score::points(2), Score::ZERO]
        );
        assert_eq!(
            table_points(&[1, 0, 1], &pts),
            vec![Score::halves(1), Score::points(3), Score::halves(1)]
        );
        let third = Score::mean(&pts);
        assert_eq!(table_points(&[0, 0, 0], &pts), vec![third; 3]);
        assert!(valid_places(&[0, 1, 1]));
        assert!(!valid_places(&[0, 1, 3]));
        assert!(!valid_places(&[1, 1, 2]));
        assert!(!valid_places(&[0, 2, 1, 3]));
    }
}
