//! The clock rules on exact timestamps: no sleeping, no timed assertion.

use tabula_clock::{ClockError, Clocks, Snapshot, TimeControl, DAY_MS};

const S: u64 = 1000;
const T0: u64 = 1_700_000_000_000;

fn blitz() -> TimeControl {
    TimeControl::realtime(300, 3).unwrap()
}

/// Two seats past their (untimed) first turns at `T0 + 2 s`, seat 0 to move
/// and not started yet.
fn after_first_turns(control: TimeControl, seats: usize) -> (Clocks, u64) {
    let mut c = Clocks::new(control, seats).unwrap();
    let mut now = T0;
    for seat in 0..seats {
        c.start(seat, now).unwrap();
        assert_eq!(c.deadline(), None, "a first turn is not timed");
        now += S;
        c.end_turn(now).unwrap();
    }
    for seat in 0..seats {
        assert_eq!(c.remaining(seat, now), control.initial_ms());
    }
    (c, now)
}

#[test]
fn first_turn_is_free_then_the_increment_comes_at_the_end_of_each_turn() {
    let mut c = Clocks::new(blitz(), 2).unwrap();
    // A first turn of ten minutes costs nothing and adds nothing.
    c.start(0, T0).unwrap();
    assert_eq!(c.snapshot(T0 + 600 * S).running, None);
    assert_eq!(c.end_turn(T0 + 600 * S), Ok(0));
    assert_eq!(c.remaining(0, T0 + 600 * S), 300 * S);
    let (mut c, now) = after_first_turns(blitz(), 2);
    c.start(0, now).unwrap();
    assert_eq!(c.remaining(0, now + 10 * S), 290 * S);
    assert_eq!(c.end_turn(now + 10 * S), Ok(0));
    assert_eq!(c.remaining(0, now + 99 * S), 293 * S);
    assert_eq!(c.remaining(1, now + 99 * S), 300 * S);
    assert_eq!(c.turns(0), 2);
}

#[test]
fn several_actions_make_one_turn_and_one_increment() {
    // Phylde: up to five actions, the clock only hears of the turn's end.
    let (mut c, now) = after_first_turns(blitz(), 2);
    c.start(0, now).unwrap();
    let actions = [
        now + 2 * S,
        now + 3 * S,
        now + 7 * S,
        now + 8 * S,
        now + 12 * S,
    ];
    for &t in &actions[..4] {
        assert_eq!(c.running(), Some(0), "mid-turn at {t}");
    }
    c.end_turn(actions[4]).unwrap();
    assert_eq!(c.remaining(0, actions[4]), 300 * S - 12 * S + 3 * S);
}

#[test]
fn dice_rolled_by_the_server_cost_nothing() {
    let (mut c, now) = after_first_turns(blitz(), 2);
    // The turn begins at a chance node: the clock waits for the roll.
    c.start(0, now).unwrap();
    c.pause(now).unwrap();
    let rolled = now + 1500;
    assert_eq!(c.remaining(0, rolled), 300 * S);
    assert_eq!(c.snapshot(rolled).running, None);
    c.start(0, rolled).unwrap();
    // Half-way, a re-roll (doubles) the server makes 2 s later.
    c.pause(rolled + 4 * S).unwrap();
    c.start(0, rolled + 6 * S).unwrap();
    c.end_turn(rolled + 7 * S).unwrap();
    // Charged 4 s + 1 s; pauses add no increment, the end adds one.
    assert_eq!(c.remaining(0, rolled + 7 * S), 300 * S - 5 * S + 3 * S);
    assert_eq!(c.turns(0), 2);
}

#[test]
fn flag_at_exactly_zero_has_fallen() {
    let (mut c, now) = after_first_turns(TimeControl::realtime(60, 2).unwrap(), 2);
    c.start(0, now).unwrap();
    let flag = now + 60 * S;
    assert_eq!(c.deadline(), Some(flag));
    assert_eq!(c.check(flag - 1), None);
    assert_eq!(c.remaining(0, flag - 1), 1);
    assert_eq!(c.check(flag), Some(0));
    assert_eq!(c.remaining(0, flag), 0);
    // A move arriving at the flag is refused and changes nothing.
    let before = c.clone();
    assert_eq!(
        c.end_turn(flag),
        Err(ClockError::Flagged {
            seat: 0,
            at_ms: flag
        })
    );
    assert_eq!(
        c.pause(flag),
        Err(ClockError::Flagged {
            seat: 0,
            at_ms: flag
        })
    );
    assert_eq!(c, before);
    assert_eq!(c.check(flag + 5 * S), Some(0));
    // One millisecond earlier it counts, with 1 ms left plus the increment.
    assert_eq!(c.end_turn(flag - 1), Ok(0));
    assert_eq!(c.remaining(0, flag), 1 + 2 * S);
}

#[test]
fn a_move_one_millisecond_late_is_refused() {
    let (mut c, now) = after_first_turns(blitz(), 2);
    c.start(0, now).unwrap();
    let late = now + 300 * S + 1;
    assert_eq!(
        c.end_turn(late),
        Err(ClockError::Flagged {
            seat: 0,
            at_ms: now + 300 * S
        })
    );
}

#[test]
fn restart_in_the_middle_of_a_turn_loses_nothing() {
    let (mut live, now) = after_first_turns(blitz(), 3);
    live.start(1, now).unwrap();
    // The server stops 5 s into seat 1's turn and comes back from the store.
    let stored = serde_json::to_string(&live).unwrap();
    let mut reloaded: Clocks = serde_json::from_str(&stored).unwrap();
    assert_eq!(reloaded, live);
    assert_eq!(reloaded.deadline(), live.deadline());
    assert_eq!(reloaded.remaining(1, now + 5 * S), 295 * S);
    // The move arrives 8 s into the turn: both charge the same 8 s.
    assert_eq!(reloaded.end_turn(now + 8 * S), live.end_turn(now + 8 * S));
    assert_eq!(reloaded, live);
    assert_eq!(reloaded.remaining(1, now + 8 * S), 295 * S);
    // A planned stop may pause instead, sparing the player the downtime.
    reloaded.start(2, now + 8 * S).unwrap();
    reloaded.pause(now + 9 * S).unwrap();
    let mut back: Clocks =
        serde_json::from_str(&serde_json::to_string(&reloaded).unwrap()).unwrap();
    back.start(2, now + 60 * S).unwrap();
    back.end_turn(now + 61 * S).unwrap();
    assert_eq!(back.remaining(2, now + 61 * S), 300 * S - 2 * S + 3 * S);
}

#[test]
fn correspondence_gives_the_full_days_at_each_turn() {
    let control = TimeControl::correspondence(1).unwrap();
    let (mut c, now) = after_first_turns(control, 2);
    c.start(0, now).unwrap();
    assert_eq!(c.deadline(), Some(now + DAY_MS));
    let moved = now + 20 * 3600 * S;
    assert_eq!(c.remaining(0, moved), 4 * 3600 * S);
    c.end_turn(moved).unwrap();
    // Reset, not 4 h plus anything.
    assert_eq!(c.remaining(0, moved), DAY_MS);
    c.start(1, moved).unwrap();
    assert_eq!(c.check(moved + DAY_MS - 1), None);
    assert_eq!(c.check(moved + DAY_MS), Some(1));
    assert!(matches!(
        c.end_turn(moved + DAY_MS),
        Err(ClockError::Flagged { seat: 1, .. })
    ));
}

#[test]
fn three_seats_take_turns_each_on_its_own_clock() {
    let (mut c, mut now) = after_first_turns(TimeControl::realtime(600, 5).unwrap(), 3);
    let used = [[4, 9, 1], [2, 2, 30]];
    for round in used {
        for (seat, secs) in round.into_iter().enumerate() {
            c.start(seat, now).unwrap();
            assert_eq!(c.snapshot(now).running, Some(seat));
            now += secs * S;
            assert_eq!(c.end_turn(now), Ok(seat));
        }
    }
    let left: Vec<u64> = (0..3).map(|s| c.remaining(s, now)).collect();
    assert_eq!(
        left,
        [
            600 * S - 6 * S + 10 * S,
            600 * S - 11 * S + 10 * S,
            600 * S - 31 * S + 10 * S
        ]
    );
}

#[test]
fn an_untimed_seat_never_loses_time() {
    let mut c = Clocks::new(blitz(), 2).unwrap();
    c.set_untimed(1).unwrap();
    let mut now = T0;
    for _ in 0..3 {
        for seat in 0..2 {
            c.start(seat, now).unwrap();
            now += if seat == 1 { 3600 * S } else { S };
            c.end_turn(now).unwrap();
        }
    }
    assert_eq!(c.remaining(1, now), 300 * S);
    c.start(1, now).unwrap();
    assert_eq!((c.deadline(), c.check(now + DAY_MS)), (None, None));
    assert_eq!(
        c.snapshot(now),
        Snapshot {
            remaining_ms: vec![Some(300 * S - 2 * S + 6 * S), None],
            running: None
        }
    );
    assert_eq!(
        serde_json::to_string(&c.snapshot(now)).unwrap(),
        r#"{"remaining_ms":[304000,null],"running":null}"#
    );
}

#[test]
fn a_clock_read_behind_the_start_charges_nothing() {
    // Another instance's clock 40 ms behind the one that started the turn.
    let (mut c, now) = after_first_turns(blitz(), 2);
    c.start(0, now).unwrap();
    c.end_turn(now - 40).unwrap();
    assert_eq!(c.remaining(0, now), 303 * S);
}

#[test]
fn misuse_is_refused_and_changes_nothing() {
    assert_eq!(Clocks::new(blitz(), 1), Err(ClockError::Seats(1)));
    assert_eq!(Clocks::new(blitz(), 9), Err(ClockError::Seats(9)));
    let mut c = Clocks::new(blitz(), 2).unwrap();
    let fresh = c.clone();
    assert_eq!(c.end_turn(T0), Err(ClockError::NotRunning));
    assert_eq!(c.pause(T0), Err(ClockError::NotRunning));
    assert_eq!(
        c.start(2, T0),
        Err(ClockError::NoSeat { seat: 2, seats: 2 })
    );
    assert_eq!(
        c.set_untimed(5),
        Err(ClockError::NoSeat { seat: 5, seats: 2 })
    );
    assert_eq!(c, fresh);
    c.start(0, T0).unwrap();
    let started = c.clone();
    assert_eq!(c.start(1, T0), Err(ClockError::AlreadyRunning { seat: 0 }));
    assert_eq!(c, started);
    assert_eq!(c.remaining(7, T0), 0);
    assert_eq!(
        ClockError::Flagged { seat: 1, at_ms: 5 }.to_string(),
        "seat 1 ran out of time at 5 ms"
    );
}

#[test]
fn stored_state_is_checked_when_read() {
    let c = Clocks::new(blitz(), 2).unwrap();
    let json = serde_json::to_string(&c).unwrap();
    assert_eq!(
        json,
        r#"{"control":{"initial_s":300,"increment_s":3},"remaining_ms":[300000,300000],"untimed":[false,false],"turns":[0,0],"running":null}"#
    );
    let bad = |text: &str| {
        serde_json::from_str::<Clocks>(text)
            .unwrap_err()
            .to_string()
    };
    assert!(bad(&json.replace("[0,0]", "[0]")).contains("one entry per seat"));
    assert!(bad(&json.replace("\"running\":null", "\"running\":[2,0]")).contains("running seat"));
    assert!(bad(&json.replace("[300000,300000]", "[1]")).contains("2..=8 seats"));
    assert!(bad(&json.replace("300,", "3,")).contains("15..=10800"));
    let running = json.replace("\"running\":null", "\"running\":[1,1700000000000]");
    let c: Clocks = serde_json::from_str(&running).unwrap();
    assert_eq!(c.running(), Some(1));
}
