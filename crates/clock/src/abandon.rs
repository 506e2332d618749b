//! Abandonment and abort, as pure functions over timestamps.
//!
//! - **Abort**: a seat's first move has its own limit ([`first_move_limit_ms`]),
//!   counted from the start of that seat's first turn. Past it the game is
//!   aborted (unrated). 30 s in real time and in games without a clock
//!   (Lichess gives about as much); the days of the control in correspondence.
//! - **Abandonment**: in a game without a clock, or in correspondence, a
//!   player may claim (the win or a draw; what a claim does is the server's
//!   rule) once another player has been disconnected and silent for
//!   [`silence_limit_ms`]: 2 minutes, or the days of the control. A real-time
//!   clocked game needs no such rule: the absent player's clock runs out.
//! - **Abandoned by all**: a real-time game that every player has left
//!   (no live connection) and in which no turn has ended for
//!   [`ALL_AWAY_MS`] ends at once ([`all_away_deadline`]) rather than when
//!   the clocks (up to three hours a seat) run out.
//!
//! As for the flag, a limit ending at `t` has passed at `now_ms >= t`.

use crate::control::TimeControl;

/// First-move limit in real time and in games without a clock.
pub const FIRST_MOVE_MS: u64 = 30_000;
/// Silence after which a disconnected player of a game without a clock has
/// abandoned it.
pub const SILENCE_MS: u64 = 120_000;
/// How long a real-time game may stand with every player away and no turn
/// ended before it is ended (a long clock must not keep it for hours).
pub const ALL_AWAY_MS: u64 = 3_600_000;

/// How long a seat has for its first move (`control` `None`: no clock).
pub fn first_move_limit_ms(control: Option<&TimeControl>) -> u64 {
    match control {
        Some(c @ TimeControl::Correspondence { .. }) => c.initial_ms(),
        _ => FIRST_MOVE_MS,
    }
}

/// How long a disconnected player may stay silent before the others may
/// claim; `None` where the clock decides instead (real time).
pub fn silence_limit_ms(control: Option<&TimeControl>) -> Option<u64> {
    match control {
        None => Some(SILENCE_MS),
        Some(c @ TimeControl::Correspondence { .. }) => Some(c.initial_ms()),
        Some(TimeControl::Realtime { .. }) => None,
    }
}

/// When the seat to move, which has made `moves_made` moves and whose turn
/// began at `turn_started_ms`, makes the game abort if it has not moved:
/// `None` once it has made its first move.
pub fn abort_deadline(
    control: Option<&TimeControl>,
    moves_made: u32,
    turn_started_ms: u64,
) -> Option<u64> {
    (moves_made == 0).then(|| turn_started_ms.saturating_add(first_move_limit_ms(control)))
}

/// Whether the game is aborted at `now_ms` because the seat to move (see
/// [`abort_deadline`]) never made its first move in time.
pub fn abort_due(
    control: Option<&TimeControl>,
    moves_made: u32,
    turn_started_ms: u64,
    now_ms: u64,
) -> bool {
    abort_deadline(control, moves_made, turn_started_ms).is_some_and(|t| now_ms >= t)
}

/// What the server knows of one seat's presence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Presence {
    /// A live connection now (an AI seat is always connected).
    pub connected: bool,
    /// The last instant the seat was heard from (a message, or its disconnection).
    pub last_seen_ms: u64,
}

/// The seats that have abandoned the game at `now_ms`: disconnected and
/// silent for the whole [`silence_limit_ms`]. Empty in real time.
pub fn abandoned(control: Option<&TimeControl>, seats: &[Presence], now_ms: u64) -> Vec<usize> {
    let Some(limit) = silence_limit_ms(control) else {
        return Vec::new();
    };
    seats
        .iter()
        .enumerate()
        .filter(|(_, p)| !p.connected && now_ms >= p.last_seen_ms.saturating_add(limit))
        .map(|(seat, _)| seat)
        .collect()
}

/// Whether `claimant` may claim at `now_ms`: it is connected and another seat
/// has abandoned the game.
pub fn may_claim(
    control: Option<&TimeControl>,
    seats: &[Presence],
    claimant: usize,
    now_ms: u64,
) -> bool {
    seats.get(claimant).is_some_and(|p| p.connected)
        && abandoned(control, seats, now_ms)
            .iter()
            .any(|&seat| seat != claimant)
}

/// When the next seat becomes abandoned (for a sweep), if any can.
pub fn next_abandonment(control: Option<&TimeControl>, seats: &[Presence]) -> Option<u64> {
    let limit = silence_limit_ms(control)?;
    seats
        .iter()
        .filter(|p| !p.connected)
        .map(|p| p.last_seen_ms.saturating_add(limit))
        .min()
}

/// When a real-time game that every player has left ends: [`ALL_AWAY_MS`]
/// after the later of the start of the turn in progress and the last
/// player's departure. `away` holds, per player (AI seats left out), since
/// when it has been away, `None` while connected. `None`: not real time, no
/// player, or someone is connected.
pub fn all_away_deadline(
    control: Option<&TimeControl>,
    turn_started_ms: u64,
    away: &[Option<u64>],
) -> Option<u64> {
    if !matches!(control, Some(TimeControl::Realtime { .. })) || away.is_empty() {
        return None;
    }
    let mut last = turn_started_ms;
    for since in away {
        last = last.max((*since)?);
    }
    Some(last.saturating_add(ALL_AWAY_MS))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DAY_MS;

    const RT: TimeControl = TimeControl::Realtime {
        initial_s: 300,
        increment_s: 3,
    };
    const CORR: TimeControl = TimeControl::Correspondence { days: 3 };

    fn away(last_seen_ms: u64) -> Presence {
        Presence {
            connected: false,
            last_seen_ms,
        }
    }
    const HERE: Presence = Presence {
        connected: true,
        last_seen_ms: 0,
    };

    #[test]
    fn first_move_limits() {
        assert_eq!(first_move_limit_ms(None), 30_000);
        assert_eq!(first_move_limit_ms(Some(&RT)), 30_000);
        assert_eq!(first_move_limit_ms(Some(&CORR)), 3 * DAY_MS);
    }

    #[test]
    fn abort_exactly_at_the_limit() {
        let t0 = 1_000_000;
        assert_eq!(abort_deadline(Some(&RT), 0, t0), Some(t0 + 30_000));
        assert!(!abort_due(Some(&RT), 0, t0, t0 + 29_999));
        assert!(abort_due(Some(&RT), 0, t0, t0 + 30_000));
        // Once the seat has moved, no abort for it.
        assert_eq!(abort_deadline(Some(&RT), 1, t0), None);
        assert!(!abort_due(Some(&RT), 1, t0, t0 + 10 * DAY_MS));
        // Correspondence: the days of the control.
        assert!(!abort_due(Some(&CORR), 0, t0, t0 + 3 * DAY_MS - 1));
        assert!(abort_due(Some(&CORR), 0, t0, t0 + 3 * DAY_MS));
        assert!(abort_due(None, 0, t0, t0 + 30_000));
    }

    #[test]
    fn abandonment_thresholds() {
        let t = 5_000_000;
        let seats = [HERE, away(t)];
        // No clock: two minutes of silence.
        assert!(abandoned(None, &seats, t + 119_999).is_empty());
        assert!(!may_claim(None, &seats, 0, t + 119_999));
        assert_eq!(abandoned(None, &seats, t + 120_000), [1]);
        assert!(may_claim(None, &seats, 0, t + 120_000));
        assert_eq!(next_abandonment(None, &seats), Some(t + 120_000));
        // The absent player cannot claim against the present one.
        assert!(!may_claim(None, &seats, 1, t + 10 * DAY_MS));
        // Correspondence: the days of the control.
        assert!(!may_claim(Some(&CORR), &seats, 0, t + 3 * DAY_MS - 1));
        assert!(may_claim(Some(&CORR), &seats, 0, t + 3 * DAY_MS));
        // Real time: the clock decides, never a claim.
        assert!(abandoned(Some(&RT), &seats, t + 10 * DAY_MS).is_empty());
        assert!(!may_claim(Some(&RT), &seats, 0, t + 10 * DAY_MS));
        assert_eq!(next_abandonment(Some(&RT), &seats), None);
        // A connected seat is never abandoned however long it is silent.
        assert!(abandoned(None, &[HERE, HERE], t + DAY_MS).is_empty());
        assert!(!may_claim(None, &seats, 7, t + DAY_MS));
    }

    #[test]
    fn three_seats_claim_against_whoever_left() {
        let seats = [HERE, away(1_000), away(60_000)];
        assert_eq!(abandoned(None, &seats, 121_000), [1]);
        assert!(may_claim(None, &seats, 0, 121_000));
        // Seat 2 is away as well, so it may not claim.
        assert!(!may_claim(None, &seats, 2, 500_000));
        assert_eq!(abandoned(None, &seats, 180_000), [1, 2]);
        assert_eq!(next_abandonment(None, &seats), Some(121_000));
    }

    #[test]
    fn a_real_time_game_everyone_left_ends_an_hour_later() {
        let turn = 1_000_000;
        // The later of the turn's start and the last departure counts.
        let gone = [Some(turn + 5_000), Some(turn - 9_000)];
        assert_eq!(
            all_away_deadline(Some(&RT), turn, &gone),
            Some(turn + 5_000 + ALL_AWAY_MS)
        );
        assert_eq!(
            all_away_deadline(Some(&RT), turn, &[Some(0), Some(0)]),
            Some(turn + ALL_AWAY_MS)
        );
        // Someone connected, no player, or not real time: no such end.
        assert_eq!(all_away_deadline(Some(&RT), turn, &[Some(0), None]), None);
        assert_eq!(all_away_deadline(Some(&RT), turn, &[]), None);
        assert_eq!(all_away_deadline(Some(&CORR), turn, &gone), None);
        assert_eq!(all_away_deadline(None, turn, &gone), None);
    }
}
