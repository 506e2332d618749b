//! End-to-end tests of the `tabula` binary: every command on every
//! registered game, and bad input that must fail with one line on stderr.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn tabula(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(args)
        .output()
        .expect("run tabula")
}

fn tabula_with_input(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tabula");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("wait")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn json(o: &Output) -> serde_json::Value {
    assert!(
        o.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_str(stdout(o).trim()).expect("one JSON object")
}

/// Fails with exactly one line on stderr and a non-zero status.
fn assert_clean_failure(o: &Output, needle: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "should fail");
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "one-line error expected, got:\n{err}"
    );
    assert!(err.contains(needle), "`{needle}` not in: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

fn game_names() -> Vec<String> {
    let v = json(&tabula(&["games", "--json"]));
    v["games"]
        .as_array()
        .expect("games list")
        .iter()
        .map(|g| g["name"].as_str().expect("name").to_string())
        .collect()
}

fn players_of(name: &str) -> usize {
    json(&tabula(&["moves", name, "--json"]))["players"]
        .as_u64()
        .expect("players") as usize
}

#[test]
fn games_lists_the_registry_with_options() {
    let v = json(&tabula(&["games", "--json"]));
    for g in v["games"].as_array().expect("games") {
        assert!(g["name"].is_string() && g["options"].is_array(), "{g}");
    }
    assert!(tabula(&["games"]).status.success());
}

#[test]
fn every_game_answers_every_inspection_command() {
    for name in game_names() {
        let show = tabula(&["show", &name]);
        assert!(show.status.success(), "show {name}");
        assert!(stdout(&show).contains("position: "));
        let moves = json(&tabula(&["moves", &name, "--json"]));
        let n = moves["moves"].as_array().expect("moves").len() as u64;
        assert!(n > 0, "{name} has moves at the start");
        let plain = tabula(&["moves", &name]);
        assert_eq!(stdout(&plain).lines().count() as u64, n);
        let p1 = tabula(&["perft", &name, "1"]);
        assert_eq!(
            stdout(&p1).lines().last(),
            Some(n.to_string().as_str()),
            "perft 1 = move count for {name}"
        );
        let p = json(&tabula(&["perft", &name, "2", "--json"]));
        assert!(
            p["nodes"].as_u64().expect("nodes") > 0
                && p["nodes_per_sec"].is_number()
                && p["seconds"].is_number()
        );
        let div = tabula(&["perft", &name, "2", "--divide"]);
        assert_eq!(
            stdout(&div).lines().last(),
            Some(p["nodes"].to_string().as_str())
        );
        // Two threads: the same output, row for row.
        let div2 = tabula(&["perft", &name, "2", "--divide", "--threads", "2"]);
        assert!(div2.status.success(), "perft --threads 2 {name}");
        assert_eq!(stdout(&div2), stdout(&div), "{name} on two threads");
        // With a table (depth 3, so that it holds subtrees): the same rows.
        let div3 = tabula(&["perft", &name, "3", "--divide"]);
        let hashed = tabula(&[
            "perft",
            &name,
            "3",
            "--divide",
            "--hash",
            "1",
            "--threads",
            "2",
        ]);
        assert!(hashed.status.success(), "perft --hash 1 {name}");
        assert_eq!(stdout(&hashed), stdout(&div3), "{name} with a table");
        let b = json(&tabula(&["bench", &name, "--seconds", "0.2", "--json"]));
        for key in ["playouts_per_sec", "actions_per_sec", "mean_actions"] {
            assert!(b[key].as_f64().expect(key) > 0.0, "{name} {key}");
        }
        // A fixed count plays the same games every run.
        let fixed = ["bench", &name, "--playouts", "3", "--json"];
        let (f1, f2) = (json(&tabula(&fixed)), json(&tabula(&fixed)));
        assert_eq!(f1["playouts"], 3, "{name}");
        assert_eq!(f1["mean_actions"], f2["mean_actions"], "{name}");
        // The position printed by `show` reads back.
        let pos = moves["position"].as_str().expect("position");
        assert!(tabula(&["moves", &name, "--position", pos])
            .status
            .success());
    }
}

#[test]
fn computer_games_are_saved_and_replayed() {
    let dir = std::env::temp_dir().join(format!("tabula-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for name in game_names() {
        let players = players_of(&name);
        let seats = vec!["random"; players].join(",");
        let file = dir.join(format!("{name}.txt"));
        let file = file.to_str().expect("utf-8 path");
        let out = tabula(&[
            "play", &name, "--seats", &seats, "--seed", "7", "--save", file,
        ]);
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(stdout(&out).contains("game over"), "{name} ended");
        let replay = tabula(&["replay", file]);
        assert!(
            replay.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&replay.stderr)
        );
        assert!(stdout(&replay).contains("record OK"));
        // Same seed, same game.
        let again = tabula(&["play", &name, "--seats", &seats, "--seed", "7"]);
        assert_eq!(
            stdout(&again),
            stdout(&out).replace(&format!("record saved to {file}\n"), "")
        );
        // A corrupted action is reported with its line.
        let text = std::fs::read_to_string(file).expect("record");
        let body_line = text
            .lines()
            .position(|l| l.starts_with("1 "))
            .expect("an action of seat 1")
            + 1;
        let broken: Vec<String> = text
            .lines()
            .enumerate()
            .map(|(i, l)| {
                if i + 1 == body_line {
                    "1 zz-top".to_string()
                } else {
                    l.to_string()
                }
            })
            .collect();
        let bad = dir.join(format!("{name}-bad.txt"));
        std::fs::write(&bad, broken.join("\n")).expect("write");
        let out = tabula(&["replay", bad.to_str().expect("path")]);
        assert_clean_failure(&out, &format!("line {body_line}:"));
        // A finished game with another result than the board's.
        let result = text
            .lines()
            .find(|l| l.starts_with("result: "))
            .expect("a finished game has its result");
        let other = if result == "result: win 1" {
            "result: win 2"
        } else {
            "result: win 1"
        };
        std::fs::write(&bad, text.replace(result, other)).expect("write");
        let out = tabula(&["replay", bad.to_str().expect("path")]);
        assert_clean_failure(&out, "result says");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn quit_saves_the_game_as_far_as_it_went() {
    let dir = std::env::temp_dir().join(format!("tabula-cli-quit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("phylde.txt");
    let file = file.to_str().expect("utf-8 path");
    let first = json(&tabula(&["moves", "phylde", "--json"]))["moves"][0]
        .as_str()
        .unwrap_or("")
        .to_string();
    let args = ["play", "phylde", "--seats", "human,human", "--save", file];
    let o = tabula_with_input(&args, &format!("{first}\nquit\n"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(stdout(&o).contains(&format!("record saved to {file}")));
    let text = std::fs::read_to_string(file).expect("the record was saved");
    assert!(text.lines().any(|l| l == format!("1 {first}")), "{text}");
    assert!(
        !text.contains("result:"),
        "an unfinished game has no result: {text}"
    );
    let replay = tabula(&["replay", file]);
    assert!(stdout(&replay).contains("record OK"), "{}", stdout(&replay));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn humans_type_moves_undo_and_quit() {
    for name in game_names() {
        let players = players_of(&name);
        let seats = std::iter::once("human")
            .chain(std::iter::repeat_n("computer", players - 1))
            .collect::<Vec<_>>()
            .join(",");
        let out = tabula(&["moves", &name, "--json"]);
        let v = json(&out);
        let first = v["moves"][0].as_str().unwrap_or("").to_string();
        let input = if v["chance"].is_array() {
            // Dice first: the program rolls, then the human acts.
            "moves\nnonsense\nquit\n".to_string()
        } else {
            format!("moves\nnonsense\n{first}\nundo\n{first}\nquit\n")
        };
        let o = tabula_with_input(&["play", &name, "--seats", &seats, "--seed", "3"], &input);
        assert!(
            o.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let text = stdout(&o);
        assert!(
            text.contains("bad action") || text.contains("illegal action"),
            "{name}: nonsense rejected:\n{text}"
        );
    }
}

#[test]
fn bad_input_fails_with_one_line() {
    assert_clean_failure(&tabula(&["show", "chess"]), "unknown game `chess`");
    assert_clean_failure(&tabula(&["moves", "chess(x=1"]), "missing `)`");
    assert_clean_failure(&tabula(&["replay", "/nonexistent/file.txt"]), "cannot read");
    assert_clean_failure(&tabula(&["perft", "phylde", "deep"]), "invalid value");
    assert_clean_failure(
        &tabula(&["perft", "phylde", "2", "--threads", "0"]),
        "invalid value",
    );
    assert_clean_failure(
        &tabula(&["perft", "phylde", "2", "--hash", "65537"]),
        "invalid value",
    );
    assert_clean_failure(&tabula(&["frobnicate"]), "unrecognized subcommand");
    let dir = std::env::temp_dir().join(format!("tabula-cli-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let f = dir.join("junk.txt");
    std::fs::write(&f, "not a record\n").expect("write");
    assert_clean_failure(&tabula(&["replay", f.to_str().expect("path")]), "line 1");
    let _ = std::fs::remove_dir_all(&dir);
    for name in game_names() {
        assert_clean_failure(
            &tabula(&["show", &name, "--position", "garbage ### !!"]),
            "bad position",
        );
        assert_clean_failure(
            &tabula(&["moves", &format!("{name}(no_such_option=1)")]),
            "valid:",
        );
        assert_clean_failure(&tabula(&["bench", &name, "--seconds=-1"]), "--seconds");
        assert_clean_failure(&tabula(&["bench", &name, "--playouts", "0"]), "--playouts");
        assert_clean_failure(&tabula(&["play", &name, "--seats", "human"]), "seats");
    }
}

#[test]
fn replay_refuses_results_the_moves_do_not_reach_and_bad_text() {
    let dir = std::env::temp_dir().join(format!("tabula-cli-result-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let head = "[Tabula record]\ngame: dragonchess\n";
    for (i, (text, needle)) in [
        (format!("{head}result: win 1\n\n"), "not over"),
        (
            format!("{head}result: win 1\nend: agreement\n\n"),
            "draw 1,2",
        ),
        (
            "[Tabula record]\ngame: gildervaik\nresult: win 1\nend: resign\n\n".into(),
            "two-player",
        ),
        (format!("{head}\n1 S😀\n"), "line 4"),
        (format!("{head}\n1 W2e2-2é3\n"), "line 4"),
    ]
    .into_iter()
    .enumerate()
    {
        let f = dir.join(format!("{i}.txt"));
        std::fs::write(&f, &text).expect("write");
        assert_clean_failure(&tabula(&["replay", f.to_str().expect("path")]), needle);
    }
    // A resignation as Tabula records it is accepted and shown.
    let f = dir.join("resign.txt");
    std::fs::write(&f, format!("{head}result: win 2\nend: resign\n\n")).expect("write");
    let out = tabula(&["replay", f.to_str().expect("path")]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout(&out).contains("result by resign: win 2"),
        "{}",
        stdout(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn arena_plays_every_seating_and_saves_records() {
    let dir = std::env::temp_dir().join(format!("tabula-cli-arena-{}", std::process::id()));
    for name in game_names() {
        let players = players_of(&name);
        // One searcher with its own time, the other seats random.
        let agents = std::iter::once("greedy@0.01")
            .chain(std::iter::repeat_n("random", players - 1))
            .collect::<Vec<_>>()
            .join(",");
        let records = dir.join(&name);
        let out = tabula(&[
            "arena",
            &name,
            "--agents",
            &agents,
            "--games",
            "1",
            "--json",
            "--records",
            records.to_str().expect("path"),
        ]);
        let v = json(&out);
        let seatings: usize = (1..=players).product();
        assert_eq!(
            v["games"].as_u64(),
            Some(seatings as u64),
            "{name}: whole block"
        );
        let rows = v["agents"].as_array().expect("agents");
        assert_eq!(rows[0]["name"], "greedy@0.01");
        let points: f64 = rows
            .iter()
            .map(|r| r["score"].as_f64().expect("score") * seatings as f64)
            .sum();
        assert!((points - seatings as f64).abs() < 1e-9, "{name}: points");
        let saved = std::fs::read_dir(&records).expect("records").count();
        assert_eq!(saved, seatings, "{name}: one record a game");
        for entry in std::fs::read_dir(&records).expect("records") {
            let path = entry.expect("entry").path();
            let replay = tabula(&["replay", path.to_str().expect("path")]);
            assert!(stdout(&replay).contains("record OK"), "{name}: {path:?}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    let two = "dragonchess";
    assert_clean_failure(&tabula(&["arena", two, "--agents", "random"]), "2 seats");
    assert_clean_failure(
        &tabula(&["arena", two, "--agents", "random,mcts@soon"]),
        "seconds",
    );
    assert_clean_failure(
        &tabula(&["arena", two, "--agents", "random,chess"]),
        "unknown agent",
    );
    assert_clean_failure(
        &tabula(&[
            "arena",
            two,
            "--agents",
            "random,level3",
            "--time-scale",
            "0",
        ]),
        "--time-scale",
    );
}

/// Phylde's no-capture count as players see it: completed turns only, with
/// the draw announced for the end of the turn in progress (the position
/// string counts an acted turn already, and keeps doing so).
#[test]
fn phylde_shows_completed_turns_without_capture() {
    let board = "18/8r9/18/18/18/18/18/18/18/18/18/18/18/18/8s9/7S10/18/8R9";
    let start = format!("{board} S - 99 57");
    let warn = "turns without capture: 99/100 \u{2014} a draw if this turn ends without a capture";
    let play = |input: &str| {
        let o = tabula_with_input(
            &[
                "play",
                "phylde",
                "--seats",
                "human,human",
                "--position",
                &start,
            ],
            input,
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        stdout(&o)
    };
    let out = play("h3-h4\nend\n");
    let status: Vec<&str> = out.lines().filter(|l| l.starts_with("Kings:")).collect();
    assert_eq!(status.len(), 3, "{out}");
    assert!(status[0].ends_with(&format!("{warn}.")), "{out}");
    // Mid-turn: still 99 completed turns, not the position string's 100.
    assert!(status[1].contains("turn of S 1/5"), "{out}");
    assert!(status[1].ends_with(&format!("{warn}.")), "{out}");
    assert!(
        status[2].ends_with("turns without capture: 100/100."),
        "{out}"
    );
    assert!(out.contains("game over: draw"), "{out}");
    // A capture later in the turn cancels the threat at once.
    let out = play("h3xi4\nquit\n");
    assert!(
        out.contains("turns without capture: 0/100 (this turn has captured)."),
        "{out}"
    );
    // The position string keeps the spec's mid-turn count.
    let shown = stdout(&tabula(&[
        "show",
        "phylde",
        "--position",
        &format!("{board} S S1:h3 100 57"),
    ]));
    assert!(shown.contains(&format!("{warn}.")), "{shown}");
    assert!(shown.contains("S S1:h3 100 57"), "{shown}");
}

/// A hint while the dice are due says what to give instead, with a
/// position after a roll that works as it is.
#[test]
fn hint_before_a_roll_shows_a_position_after_one() {
    let o = tabula(&["hint", "stelpur"]);
    assert_clean_failure(&o, "give a position after a roll");
    let example = "1,2,3,4,5,6/13,14,15,16,17,18 1 6-1:1,6 0 1";
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(&format!("--position '{example}'")), "{err}");
    let o = tabula(&["hint", "stelpur", "--level", "1", "--position", example]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(stdout(&o).starts_with("best: "), "{}", stdout(&o));
}

/// `tabula hint --nodes` searches a fixed count, so two runs give the same
/// values for every action (what a measurement across loads needs);
/// `--nodes` with `--time` is refused.
#[test]
fn hint_at_fixed_nodes_repeats_itself() {
    let after_roll = "1,2,3,4,5,6/13,14,15,16,17,18 1 6-1:1,6 0 1";
    let args = [
        "hint",
        "stelpur",
        "--position",
        after_roll,
        "--nodes",
        "20000",
        "--multipv",
        "24",
        "--json",
    ];
    let (a, b) = (json(&tabula(&args)), json(&tabula(&args)));
    assert_eq!(a["ranked"], b["ranked"]);
    assert_eq!(a["nodes"], b["nodes"]);
    let ranked = a["ranked"].as_array().expect("ranked actions");
    assert_eq!(ranked.len(), 7, "{a}");
    assert!(ranked.iter().all(|r| r["exact"] == true), "{a}");
    let nodes = a["nodes"].as_u64().expect("nodes");
    assert!(
        (20_000..40_000).contains(&nodes),
        "{nodes} nodes for --nodes 20000"
    );
    let both = tabula(&[
        "hint",
        "stelpur",
        "--position",
        after_roll,
        "--nodes",
        "9",
        "--time",
        "1",
    ]);
    assert!(!both.status.success());
    let err = String::from_utf8_lossy(&both.stderr);
    assert!(err.contains("cannot be used with"), "{err}");
}

/// `tabula perft` counts a game-ending last action, with or without
/// `--divide` (a mate in one: 29 moves, one mates), and times a short run
/// in a readable unit.
#[test]
fn perft_counts_a_mate_in_one_on_every_path() {
    let mate =
        "12/12/12/3r8/12/12/12/12|7k4/12/12/12/4W7/12/2w9/K11|12/12/12/12/12/12/1b10/12 s 0 1";
    let plain = tabula(&["perft", "dragonchess", "1", "--position", mate]);
    assert_eq!(stdout(&plain).lines().last(), Some("29"));
    let div = tabula(&["perft", "dragonchess", "1", "--position", mate, "--divide"]);
    let out = stdout(&div);
    let rows: Vec<&str> = out.lines().filter(|l| l.contains(": ")).collect();
    assert_eq!(rows.len(), 29, "{out}");
    assert!(rows.iter().all(|r| r.ends_with(": 1")), "{out}");
    assert_eq!(out.lines().last(), Some("29"));
    let json = json(&tabula(&[
        "perft",
        "dragonchess",
        "1",
        "--position",
        mate,
        "--json",
    ]));
    assert_eq!(json["nodes"], 29);
    let err = String::from_utf8_lossy(&plain.stderr);
    let unit = err.split(',').next().unwrap_or("");
    assert!(
        [" µs", " ms", " s"].iter().any(|u| unit.ends_with(u)) && !unit.starts_with("0.000"),
        "{err}"
    );
}

#[test]
fn play_names_the_side_once_labels_rolls_and_has_a_legend() {
    for name in game_names() {
        let seats = vec!["human"; players_of(&name)].join(",");
        let o = tabula_with_input(
            &["play", &name, "--seats", &seats, "--seed", "5"],
            "legend\nquit\n",
        );
        assert!(
            o.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let text = stdout(&o);
        // The prompt names the side to move; no status line repeats it.
        assert!(
            !text
                .lines()
                .any(|l| l.ends_with(" to move") && !l.contains('>')),
            "{name}: a status line repeats the side:\n{text}"
        );
        assert!(!text.contains("no legend"), "{name}:\n{text}");
        assert!(
            !text.contains("roll: "),
            "{name}: a roll without its player:\n{text}"
        );
    }
    let o = tabula_with_input(
        &["play", "stelpur", "--seats", "human,human", "--seed", "5"],
        "legend\nquit\n",
    );
    let text = stdout(&o);
    assert!(text.contains("South rolls "), "{text}");
    assert!(text.contains("rune corner"), "{text}");
}
