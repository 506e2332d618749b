//! `tabula puzzles`: generate writes puzzles the engine checks again, and
//! check fails a file whose answer is not the engine's.

use std::process::Command;

fn tabula(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(args)
        .output()
        .expect("run tabula")
}

#[test]
fn generated_puzzles_check_and_a_tampered_one_fails() {
    let out = tabula(&[
        "puzzles",
        "generate",
        "stelpur",
        "--count",
        "3",
        "--seconds",
        "30",
        "--prefix",
        "t",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(text.lines().count(), 3, "{text}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("3 puzzles from"));
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let good = dir.join(format!("puzzles-{}.jsonl", std::process::id()));
    std::fs::write(&good, &text).unwrap();
    let checked = tabula(&["puzzles", "check", good.to_str().unwrap()]);
    assert!(
        checked.status.success(),
        "{}",
        String::from_utf8_lossy(&checked.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&checked.stdout).trim(),
        "3 puzzles, 0 failed"
    );
    // The first puzzle's answer replaced by another use of its roll.
    let mut first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    first["line"] = serde_json::json!(["pass"]);
    let bad = dir.join(format!("puzzles-bad-{}.jsonl", std::process::id()));
    std::fs::write(&bad, format!("{first}\n")).unwrap();
    let refused = tabula(&["puzzles", "check", bad.to_str().unwrap()]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("t-0001"));
    let _ = std::fs::remove_file(good);
    let _ = std::fs::remove_file(bad);
}
