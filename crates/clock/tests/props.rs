//! Properties over random games: a seat's time only goes up by the
//! increment (or the correspondence reset), and what a seat loses is exactly
//! the wall time its clock ran.

use proptest::prelude::*;
use tabula_clock::{ClockError, Clocks, TimeControl};

fn control() -> impl Strategy<Value = TimeControl> {
    prop_oneof![
        (15u32..=600, 0u32..=30).prop_map(|(i, inc)| TimeControl::realtime(i, inc).unwrap()),
        prop::sample::select(vec![1u32, 2, 3])
            .prop_map(|d| TimeControl::correspondence(d).unwrap()),
    ]
}

/// One turn: the stretches the seat's clock runs, the server's dice pauses
/// between them, and whether the store is reloaded before the turn ends.
type Turn = (Vec<(u64, u64)>, bool);

fn turns() -> impl Strategy<Value = Vec<Turn>> {
    let stretch = (0u64..90_000, 0u64..5_000);
    prop::collection::vec((prop::collection::vec(stretch, 1..4), any::<bool>()), 1..40)
}

proptest! {
    #[test]
    fn time_only_rises_by_the_increment_and_losses_equal_running_time(
        control in control(),
        seats in 2usize..=3,
        turns in turns(),
    ) {
        let mut clocks = Clocks::new(control, seats).unwrap();
        let mut now = 1_700_000_000_000u64;
        // Per seat: wall time its clock ran, and time it was given.
        let mut ran = vec![0u64; seats];
        let mut given = vec![0u64; seats];
        'game: for (i, (stretches, reload)) in turns.into_iter().enumerate() {
            let seat = i % seats;
            let timed = clocks.turns(seat) > 0;
            let at_start = clocks.remaining(seat, now);
            clocks.start(seat, now).unwrap();
            for (k, &(run, pause)) in stretches.iter().enumerate() {
                let before = clocks.remaining(seat, now);
                now += run;
                let after = clocks.remaining(seat, now);
                prop_assert!(after <= before, "time rose mid-turn");
                if timed {
                    ran[seat] += run.min(before);
                }
                let flagged = timed && at_start <= ran_this_turn(&stretches[..=k]);
                if k + 1 < stretches.len() {
                    let paused = clocks.pause(now);
                    prop_assert_eq!(paused.is_err(), flagged);
                    if flagged {
                        break 'game;
                    }
                    now += pause;
                    prop_assert_eq!(clocks.remaining(seat, now), after, "a pause costs nothing");
                    clocks.start(seat, now).unwrap();
                } else {
                    if reload {
                        let text = serde_json::to_string(&clocks).unwrap();
                        clocks = serde_json::from_str(&text).unwrap();
                    }
                    let ended = clocks.end_turn(now);
                    prop_assert_eq!(ended.is_err(), flagged);
                    if let Err(e) = ended {
                        prop_assert_eq!(e, ClockError::Flagged { seat, at_ms: clocks.deadline().unwrap() });
                        prop_assert_eq!(clocks.check(now), Some(seat));
                        break 'game;
                    }
                    let new = clocks.remaining(seat, now);
                    if timed {
                        let raise = match control {
                            TimeControl::Realtime { increment_s, .. } => u64::from(increment_s) * 1000,
                            TimeControl::Correspondence { .. } => control.initial_ms() - after,
                        };
                        prop_assert_eq!(new, after + raise);
                        given[seat] += raise;
                    } else {
                        prop_assert_eq!(new, control.initial_ms(), "a first turn is free");
                    }
                }
            }
        }
        for seat in 0..seats {
            let left = clocks.remaining(seat, now);
            prop_assert_eq!(control.initial_ms() + given[seat] - left, ran[seat]);
        }
    }
}

fn ran_this_turn(stretches: &[(u64, u64)]) -> u64 {
    stretches.iter().map(|&(run, _)| run).sum()
}
