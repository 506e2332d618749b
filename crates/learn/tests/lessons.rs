//! Every lesson file of `learn/lessons/`, checked with the engine: it reads,
//! its goal is reachable (solved by search in `par` learner actions, no
//! fewer), its answer is accepted with three stars, and each wrong answer
//! it lists is refused with its own reason.

use tabula_learn::data::library;
use tabula_learn::solve::{solve, SOLVE_NODES};
use tabula_learn::{Status, Why, GAMES};

#[test]
fn every_lesson_file_reads() {
    let lib = library();
    assert!(lib.broken.is_empty(), "{:#?}", lib.broken);
    for game in GAMES {
        let lessons = lib.lessons.get(game).map_or(&[][..], |v| v.as_slice());
        assert!(
            lessons.len() >= 8,
            "{game}: {} lessons, want 8",
            lessons.len()
        );
        for l in lessons {
            assert!(l.spec.starts_with(game), "{}: spec {}", l.id, l.spec);
            for text in [&l.title, &l.text, &l.success].into_iter().chain(&l.hints) {
                assert!(
                    !text.en.trim().is_empty() && !text.fr.trim().is_empty(),
                    "{}",
                    l.id
                );
            }
            assert!(
                l.par >= 1 && l.limit >= l.par,
                "{}: par {} limit {}",
                l.id,
                l.par,
                l.limit
            );
        }
    }
}

#[test]
fn every_lesson_is_solved_by_the_engine() {
    let reg = tabula_games::registry();
    let mut failures = Vec::new();
    for lesson in library().lessons.values().flatten() {
        match solve(lesson, &reg, SOLVE_NODES) {
            Ok(Some(line)) if line.len() as u32 == lesson.par => {}
            Ok(Some(line)) => failures.push(format!(
                "{}: the shortest solution has {} actions, par says {}: {line:?}",
                lesson.id,
                line.len(),
                lesson.par
            )),
            Ok(None) => failures.push(format!("{}: the goal cannot be reached", lesson.id)),
            Err(e) => failures.push(format!("{}: {}", lesson.id, e.message)),
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn every_answer_is_accepted_and_every_listed_wrong_answer_refused() {
    let reg = tabula_games::registry();
    let mut failures = Vec::new();
    for lesson in library().lessons.values().flatten() {
        match lesson.check(&reg, &lesson.answer) {
            Ok(run) if run.status == (Status::Done { stars: 3 }) => {}
            Ok(run) => failures.push(format!(
                "{}: answer gives {:?}; the engine's: {:?}",
                lesson.id,
                run.status,
                solve(lesson, &reg, SOLVE_NODES)
            )),
            Err(e) => failures.push(format!("{}: answer: {}", lesson.id, e.message)),
        }
        for wrong in &lesson.wrong {
            let want = Status::Refused {
                at: wrong.actions.len() - 1,
                why: Why::Text(wrong.reason.clone()),
            };
            match lesson.check(&reg, &wrong.actions) {
                Ok(run) if run.status == want => {}
                Ok(run) => failures.push(format!(
                    "{}: wrong answer {:?} gives {:?}",
                    lesson.id, wrong.actions, run.status
                )),
                Err(e) => {
                    failures.push(format!("{}: {:?}: {}", lesson.id, wrong.actions, e.message))
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn an_unforeseen_wrong_move_gets_the_goals_reason_and_an_illegal_one_its_own() {
    let reg = tabula_games::registry();
    let lesson = library()
        .lessons
        .values()
        .flatten()
        .find(|l| l.limit == 1 && l.wrong.is_empty())
        .expect("a one-move lesson without listed wrong answers");
    let game = lesson.start(&reg).unwrap();
    let other = game
        .legal_actions()
        .into_iter()
        .find(|a| {
            !lesson.answer.contains(a)
                && lesson
                    .check(&reg, std::slice::from_ref(a))
                    .map(|r| matches!(r.status, Status::Refused { .. }))
                    .unwrap_or(false)
        })
        .expect("a wrong move");
    let run = lesson.check(&reg, &[other]).unwrap();
    assert_eq!(
        run.status,
        Status::Refused {
            at: 0,
            why: Why::Key(lesson.goal.why_key().to_string())
        }
    );
    assert_eq!(
        run.state.position,
        game.position(),
        "a refused move is not played"
    );
    let run = lesson.check(&reg, &["nonsense".to_string()]).unwrap();
    assert_eq!(
        run.status,
        Status::Refused {
            at: 0,
            why: Why::Key("learn.why.illegal".into())
        }
    );
}
