//! Every example of `docs/api.md` parses into the type its comment names,
//! and says the same when written back: the docs cannot drift from the
//! protocol.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use tabula_server::bot::{BotEvent, GameEvent, NewToken, TokenCreated, TokenInfo};
use tabula_server::learn::{
    LessonCheck, LessonList, Lines, LinesRequest, PositionRequest, PuzzleAnswer, PuzzleCheck,
};
use tabula_server::protocol::*;

/// Parse `json` as `T`, write it back, and compare (numbers and key order
/// aside, what was read is what is written).
fn round_trip<T: DeserializeOwned + Serialize>(json: &str) -> Result<(), String> {
    let value: T = serde_json::from_str(json).map_err(|e| e.to_string())?;
    let original: Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
    let text = serde_json::to_string(&value).map_err(|e| e.to_string())?;
    let written: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    if without_nulls(&written) != without_nulls(&original) {
        return Err(format!("written back as {written}"));
    }
    Ok(())
}

/// Optional fields left out and written as `null` mean the same.
fn without_nulls(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(_, x)| !x.is_null())
                .map(|(k, x)| (k.clone(), without_nulls(x)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(without_nulls).collect()),
        other => other.clone(),
    }
}

fn check(type_name: &str, json: &str) -> Result<(), String> {
    match type_name {
        "ErrorBody" => round_trip::<ErrorBody>(json),
        "Health" => round_trip::<Health>(json),
        "Metrics" => round_trip::<Metrics>(json),
        "Catalog" => round_trip::<Catalog>(json),
        "RulesPage" => round_trip::<RulesPage>(json),
        "Vec<Summary>" => round_trip::<Vec<Summary>>(json),
        "NewGame" => round_trip::<NewGame>(json),
        "Created" => round_trip::<Created>(json),
        "ImportGame" => round_trip::<ImportGame>(json),
        "GameView" => round_trip::<GameView>(json),
        "ResultInfo" => round_trip::<ResultInfo>(json),
        "MoveRequest" => round_trip::<MoveRequest>(json),
        "PlyAnswer" => round_trip::<PlyAnswer>(json),
        "JoinRequest" => round_trip::<JoinRequest>(json),
        "SeatAnswer" => round_trip::<SeatAnswer>(json),
        "TokenRequest" => round_trip::<TokenRequest>(json),
        "DrawRequest" => round_trip::<DrawRequest>(json),
        "Done" => round_trip::<Done>(json),
        "ClockAdvance" => round_trip::<ClockAdvance>(json),
        "ServerTime" => round_trip::<ServerTime>(json),
        "GameId" => round_trip::<GameId>(json),
        "Hint" => round_trip::<Hint>(json),
        "ServerMessage" => round_trip::<ServerMessage>(json),
        "ClientMessage" => round_trip::<ClientMessage>(json),
        "ChatRequest" => round_trip::<ChatRequest>(json),
        "ClaimRequest" => round_trip::<ClaimRequest>(json),
        "ClockInfo" => round_trip::<ClockInfo>(json),
        "Credentials" => round_trip::<Credentials>(json),
        "PasswordChange" => round_trip::<PasswordChange>(json),
        "AccountDeletion" => round_trip::<AccountDeletion>(json),
        "Me" => round_trip::<Me>(json),
        "SessionInfo" => round_trip::<SessionInfo>(json),
        "MyGames" => round_trip::<MyGames>(json),
        "Profile" => round_trip::<Profile>(json),
        "GamePage" => round_trip::<GamePage>(json),
        "NewSeek" => round_trip::<NewSeek>(json),
        "Vec<Seek>" => round_trip::<Vec<Seek>>(json),
        "SeekId" => round_trip::<SeekId>(json),
        "Accepted" => round_trip::<Accepted>(json),
        "LobbyMessage" => round_trip::<LobbyMessage>(json),
        "Vec<Leader>" => round_trip::<Vec<Leader>>(json),
        "NewToken" => round_trip::<NewToken>(json),
        "TokenCreated" => round_trip::<TokenCreated>(json),
        "Vec<TokenInfo>" => round_trip::<Vec<TokenInfo>>(json),
        "BotEvent" => round_trip::<BotEvent>(json),
        "GameEvent" => round_trip::<GameEvent>(json),
        "NewTournament" => round_trip::<NewTournament>(json),
        "TournamentId" => round_trip::<TournamentId>(json),
        "TournamentList" => round_trip::<TournamentList>(json),
        "TournamentView" => round_trip::<TournamentView>(json),
        "PositionRequest" => round_trip::<PositionRequest>(json),
        "Replayed" => round_trip::<tabula_learn::Replayed>(json),
        "LinesRequest" => round_trip::<LinesRequest>(json),
        "Lines" => round_trip::<Lines>(json),
        "LessonList" => round_trip::<LessonList>(json),
        "LessonCheck" => round_trip::<LessonCheck>(json),
        "Run" => round_trip::<tabula_learn::Run>(json),
        "PuzzleCheck" => round_trip::<PuzzleCheck>(json),
        "PuzzleAnswer" => round_trip::<PuzzleAnswer>(json),
        "AnalysisPending" => round_trip::<tabula_server::analysis::Pending>(json),
        "AnalysisDone" => round_trip::<tabula_server::analysis::Finished>(json),
        "Progress" => round_trip::<tabula_server::learn::progress::Progress>(json),
        other => Err(format!("no type `{other}` in the test's table")),
    }
}

/// `(type, json)` for each `<!-- type: T -->` followed by a json block.
fn examples(doc: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut lines = doc.lines();
    while let Some(line) = lines.next() {
        let Some(name) = line
            .trim()
            .strip_prefix("<!-- type:")
            .and_then(|r| r.strip_suffix("-->"))
        else {
            continue;
        };
        let fence = lines.next().unwrap_or("");
        assert_eq!(fence.trim(), "```json", "a json block after `{line}`");
        let body: Vec<&str> = lines.by_ref().take_while(|l| l.trim() != "```").collect();
        out.push((name.trim().to_string(), body.join("\n")));
    }
    out
}

#[test]
fn every_example_of_the_api_docs_is_a_protocol_value() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/api.md");
    let doc = std::fs::read_to_string(path).expect("docs/api.md");
    let found = examples(&doc);
    assert!(found.len() >= 20, "only {} examples found", found.len());
    let failures: Vec<String> = found
        .iter()
        .filter_map(|(t, json)| check(t, json).err().map(|e| format!("{t}: {e}\n{json}")))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_checker_refuses_an_example_that_does_not_fit() {
    assert!(
        check("MoveRequest", r#"{"token": "t"}"#).is_err(),
        "action is required"
    );
    assert!(check("NewGame", r#"{"spec": "x", "colour": "red"}"#).is_err());
    assert!(check("ServerMessage", r#"{"type": "shout"}"#).is_err());
    assert!(check("Nope", "{}").is_err());
}
