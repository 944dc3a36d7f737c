//! The protocol loop of GCP/2. You should not need to change this file: your engine goes in
//! game.rs.
//!
//! The harness starts the engine once and writes one JSON request per line on its stdin; the
//! loop writes exactly one JSON answer per line on stdout, flushed, with the request's `id`.
//! stdout carries nothing else (log with `eprintln!`). It exits with status 0 after answering
//! `stop`, and when stdin ends. Nothing a request holds can crash it: a line that is not JSON
//! gets `bad_request` (with `"id": null`), and a panic in the game gets `engine_error` while
//! the loop keeps serving. The reference is docs/checking/protocol.md.
//!
//! The loop also answers the optional command `batch` on top of the game's `apply`, `legal` and
//! `state`, and declares the capability `batch` in hello: an engine written from this kit is
//! compared by `guinote-conformance compare` in one request per hand, with no code of its own
//! (see `batch` below).

use crate::game::{self, Game};
use crate::json::Json;
use crate::messages::{
    Action, Failure, Outcome, Request, BAD_ACTION, BAD_REQUEST, BAD_SETUP, CAP_BATCH, CAP_OBSERVATIONS, CAP_POSITIONS,
    ENGINE_ERROR, PROTOCOL, UNKNOWN_FIELD, UNKNOWN_GAME, UNSUPPORTED_PROTOCOL,
};
use crate::messages::{Deal, Setup};
use std::collections::HashMap;
use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};

/// The games in progress, by the id the engine gave them ("g1", "g2"...).
#[derive(Default)]
pub struct Engine {
    games: HashMap<String, Game>,
    started: u64,
}

/// What one request asks the loop to do after it answers.
#[derive(Debug, PartialEq, Eq)]
pub enum After {
    Continue,
    Exit,
}

impl Engine {
    pub fn new() -> Engine {
        Engine::default()
    }

    /// The answer to one line, and whether to exit after writing it.
    pub fn answer_line(&mut self, line: &str) -> (Json, After) {
        let request = match Json::parse(line) {
            Ok(request) => request,
            Err(error) => {
                return (
                    error_answer(Json::Null, &Failure::new(BAD_REQUEST, format!("not JSON: {}", error))),
                    After::Continue,
                )
            }
        };
        if request.as_object().is_none() {
            return (
                error_answer(Json::Null, &Failure::new(BAD_REQUEST, "a request is a JSON object")),
                After::Continue,
            );
        }
        // The id is echoed as it came; a request without an integer id cannot be answered by id.
        let id = match request.get("id") {
            Some(Json::Int(id)) if *id >= 0 => Json::Int(*id),
            Some(_) => {
                return (
                    error_answer(
                        Json::Null,
                        &Failure::new(BAD_REQUEST, "the id must be a non-negative integer"),
                    ),
                    After::Continue,
                )
            }
            None => {
                return (
                    error_answer(Json::Null, &Failure::new(BAD_REQUEST, "the request has no id")),
                    After::Continue,
                )
            }
        };
        let parsed = match Request::parse(&request) {
            Ok(parsed) => parsed,
            Err(failure) => return (error_answer(id, &failure), After::Continue),
        };
        let after = if parsed == Request::Stop {
            After::Exit
        } else {
            After::Continue
        };
        // A panic in the game (a bug) costs this request only: engine_error, and keep serving.
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| self.handle(parsed)));
        let answer = match outcome {
            Ok(Ok(members)) => success_answer(id, members),
            Ok(Err(failure)) => error_answer(id, &failure),
            Err(payload) => {
                let text = payload
                    .downcast_ref::<&str>()
                    .map(|text| text.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic".to_string());
                error_answer(id, &Failure::new(ENGINE_ERROR, format!("the engine failed: {}", text)))
            }
        };
        (answer, after)
    }

    fn game(&mut self, id: &str) -> Result<&mut Game, Failure> {
        self.games
            .get_mut(id)
            .ok_or_else(|| Failure::new(UNKNOWN_GAME, format!("no game {:?}", id)))
    }

    /// The members of a success answer after `id` and `ok`, or the failure.
    fn handle(&mut self, request: Request) -> Result<Vec<(&'static str, Json)>, Failure> {
        match request {
            Request::Hello { protocol } => {
                if protocol < PROTOCOL {
                    return Err(Failure::new(
                        UNSUPPORTED_PROTOCOL,
                        format!("this engine speaks protocol {}", PROTOCOL),
                    ));
                }
                Ok(vec![("protocol", PROTOCOL.into()), ("engine", engine_info())])
            }
            Request::Start { setup } => {
                check_supported(&setup)?;
                let game = Game::new(&setup)?;
                self.started += 1;
                let id = format!("g{}", self.started);
                self.games.insert(id.clone(), game);
                Ok(vec![("game", id.into())])
            }
            Request::Legal { game } => {
                let actions = self.game(&game)?.legal();
                Ok(vec![(
                    "actions",
                    Json::Array(actions.iter().map(Action::to_json).collect()),
                )])
            }
            Request::Apply { game, action } => {
                let game = self.game(&game)?;
                let outcome = match action {
                    Ok(action) => game.apply(&action),
                    Err(reason) => Outcome::refused(BAD_ACTION, reason),
                };
                Ok(outcome.members())
            }
            Request::State { game, field } => match self.game(&game)?.state(&field) {
                Some(value) => Ok(vec![("value", value)]),
                None => Err(Failure::new(UNKNOWN_FIELD, format!("no state field {:?}", field))),
            },
            Request::Observe { game, seat, field } => {
                let game = self.game(&game)?;
                if !game::CAPABILITIES.contains(&CAP_OBSERVATIONS) {
                    // No error code means "no such capability" here: this is "not implemented".
                    return Err(Failure::new(
                        ENGINE_ERROR,
                        "not implemented: observe (no capability observations)",
                    ));
                }
                let seat = match seat {
                    Json::Int(seat) if seat >= 0 => seat as usize,
                    _ => return Err(Failure::new(UNKNOWN_FIELD, format!("no seat {}", seat))),
                };
                match game.observe(seat, &field) {
                    Some(value) => Ok(vec![("value", value)]),
                    None => Err(Failure::new(
                        UNKNOWN_FIELD,
                        format!("no field {:?} for seat {}", field, seat),
                    )),
                }
            }
            Request::End { game } => {
                self.game(&game)?;
                self.games.remove(&game);
                Ok(Vec::new())
            }
            Request::Batch {
                game,
                actions,
                fields,
                step_fields,
            } => Ok(batch(self.game(&game)?, &actions, &fields, step_fields.as_deref())),
            Request::Stop => Ok(Vec::new()),
        }
    }
}

/// The optional command `batch` (docs/checking/protocol.md, "batch"), for any game: the legal
/// actions and `fields` before the first action (`before`), then one step per action, in order:
/// what `apply` answers for it, then the legal actions and the fields after it
/// (`step_fields[i]`, else `fields`). A refused action leaves the game as it was and the next one
/// is still applied. A field the game does not know (`state` gives `None`) is left out of every
/// `state` and listed once in `unknown_fields`. A panic part-way fails the whole request
/// (`engine_error`, in `answer_line`): the harness then finds the action by asking one at a time.
fn batch(
    game: &mut Game,
    actions: &[Result<Action, String>],
    fields: &[String],
    step_fields: Option<&[Vec<String>]>,
) -> Vec<(&'static str, Json)> {
    let mut unknown: Vec<String> = Vec::new();
    let mut snapshot = |game: &Game, names: &[String]| -> (Json, Vec<(String, Json)>) {
        let mut state = Vec::with_capacity(names.len());
        for name in names {
            if unknown.contains(name) {
                continue;
            }
            match game.state(name) {
                Some(value) => state.push((name.clone(), value)),
                None => unknown.push(name.clone()),
            }
        }
        (Json::Array(game.legal().iter().map(Action::to_json).collect()), state)
    };
    let before = snapshot(game, fields);
    let mut steps = Vec::with_capacity(actions.len());
    for (number, action) in actions.iter().enumerate() {
        let outcome = match action {
            Ok(action) => game.apply(action),
            Err(reason) => Outcome::refused(BAD_ACTION, reason.clone()),
        };
        let names = step_fields.map_or(fields, |lists| &lists[number]);
        steps.push((outcome.members(), snapshot(game, names)));
    }
    // A field found unknown late is left out everywhere.
    let known = |state: Vec<(String, Json)>| -> Json {
        Json::Object(state.into_iter().filter(|(name, _)| !unknown.contains(name)).collect())
    };
    let snapshot_json = |(legal, state): (Json, Vec<(String, Json)>)| -> Vec<(String, Json)> {
        vec![("legal".to_string(), legal), ("state".to_string(), known(state))]
    };
    let steps = steps
        .into_iter()
        .map(|(members, after)| {
            let mut step: Vec<(String, Json)> = members
                .into_iter()
                .map(|(name, value)| (name.to_string(), value))
                .collect();
            step.extend(snapshot_json(after));
            Json::Object(step)
        })
        .collect();
    let mut answer = vec![
        ("before", Json::Object(snapshot_json(before))),
        ("steps", Json::Array(steps)),
    ];
    if !unknown.is_empty() {
        answer.push((
            "unknown_fields",
            Json::Array(unknown.iter().map(|name| Json::from(name.as_str())).collect()),
        ));
    }
    answer
}

/// `engine` of the hello answer, from game.rs.
fn engine_info() -> Json {
    let profiles = game::profiles()
        .into_iter()
        .map(|(name, flags)| {
            let values = flags
                .into_iter()
                .map(|(flag, value)| (flag.to_string(), Json::from(value)))
                .collect();
            (name.to_string(), Json::Object(values))
        })
        .collect();
    let flags = game::FLAGS
        .iter()
        .map(|(flag, values)| {
            (
                flag.to_string(),
                Json::Array(values.iter().map(|value| Json::from(*value)).collect()),
            )
        })
        .collect();
    // `batch` is answered by this loop for any game: declared whether game.rs lists it or not.
    let mut capabilities: Vec<Json> = game::CAPABILITIES.iter().map(|name| Json::from(*name)).collect();
    if !game::CAPABILITIES.contains(&CAP_BATCH) {
        capabilities.push(CAP_BATCH.into());
    }
    Json::object(vec![
        ("name", game::ENGINE_NAME.into()),
        ("version", game::ENGINE_VERSION.into()),
        ("language", game::ENGINE_LANGUAGE.into()),
        ("profiles", Json::Object(profiles)),
        ("flags", Json::Object(flags)),
        ("capabilities", Json::Array(capabilities)),
    ])
}

/// Refuse, as `unsupported`, a setup with flag values the engine does not declare, or a
/// position without the capability: those scenarios are then not applicable, not failed.
fn check_supported(setup: &Setup) -> Result<(), Failure> {
    let mut missing: Vec<String> = setup
        .flags
        .iter()
        .filter(|(flag, value)| {
            !game::FLAGS
                .iter()
                .any(|(known, values)| known == flag && values.contains(&value.as_str()))
        })
        .map(|(flag, value)| format!("{}={}", flag, value))
        .collect();
    if let Deal::Position(_) = setup.deal {
        if !game::CAPABILITIES.contains(&CAP_POSITIONS) {
            missing.push(CAP_POSITIONS.to_string());
        }
    }
    if missing.is_empty() {
        Ok(())
    } else {
        Err(Failure::unsupported(
            format!("this engine does not play {}", missing.join(", ")),
            missing,
        ))
    }
}

fn success_answer(id: Json, members: Vec<(&'static str, Json)>) -> Json {
    let mut answer = vec![("id", id), ("ok", true.into())];
    answer.extend(members);
    Json::object(answer)
}

fn error_answer(id: Json, failure: &Failure) -> Json {
    let mut answer = vec![
        ("id", id),
        ("ok", false.into()),
        ("error", failure.code.into()),
        ("message", failure.message.clone().into()),
    ];
    if !failure.unsupported.is_empty() {
        answer.push(("unsupported", failure.unsupported.clone().into()));
    }
    debug_assert!(failure.code != BAD_SETUP || failure.unsupported.is_empty());
    Json::object(answer)
}

/// Serve stdin until `stop` or its end. Lines have no length limit; a line that is not UTF-8
/// is not JSON either. Returns when the engine should exit with status 0.
pub fn serve() -> io::Result<()> {
    // No stdin lock held across a panic: catch_unwind already keeps panics inside answer_line.
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let stdout = io::stdout();
    let mut output = stdout.lock();
    let mut engine = Engine::new();
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        if input.read_until(b'\n', &mut buffer)? == 0 {
            return Ok(()); // end of stdin: the harness is gone
        }
        let (answer, after) = match std::str::from_utf8(&buffer) {
            Ok(line) if line.trim().is_empty() => continue, // a blank line asks nothing
            Ok(line) => engine.answer_line(line),
            Err(error) => (
                error_answer(
                    Json::Null,
                    &Failure::new(BAD_REQUEST, format!("not JSON: not UTF-8 ({})", error)),
                ),
                After::Continue,
            ),
        };
        let mut text = answer.to_string();
        text.push('\n');
        output.write_all(text.as_bytes())?;
        output.flush()?;
        if after == After::Exit {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(engine: &mut Engine, line: &str) -> Json {
        engine.answer_line(line).0
    }

    #[test]
    fn not_json_gets_bad_request_with_id_null() {
        let mut engine = Engine::new();
        let answer = ask(&mut engine, "{not json");
        assert_eq!(answer.get("id"), Some(&Json::Null));
        assert_eq!(answer.get("error").and_then(Json::as_str), Some(BAD_REQUEST));
        let answer = ask(&mut engine, "[1, 2]");
        assert_eq!(answer.get("error").and_then(Json::as_str), Some(BAD_REQUEST));
        let answer = ask(&mut engine, r#"{"cmd": "legal", "game": "g1"}"#);
        assert_eq!(answer.get("id"), Some(&Json::Null));
    }

    #[test]
    fn hello_and_stop() {
        let mut engine = Engine::new();
        let answer = ask(&mut engine, r#"{"id": 1, "cmd": "hello", "protocol": 2}"#);
        assert_eq!(answer.get("protocol"), Some(&Json::Int(2)));
        let language = answer
            .get("engine")
            .and_then(|engine| engine.get("language"))
            .and_then(Json::as_str);
        assert_eq!(language, Some("rust"));
        let answer = ask(&mut engine, r#"{"id": 2, "cmd": "hello", "protocol": 1}"#);
        assert_eq!(answer.get("error").and_then(Json::as_str), Some(UNSUPPORTED_PROTOCOL));
        assert_eq!(
            engine.answer_line(r#"{"id": 3, "cmd": "stop"}"#),
            (Json::parse(r#"{"id":3,"ok":true}"#).unwrap(), After::Exit)
        );
    }

    #[test]
    fn batch_is_declared_and_checks_its_request() {
        let mut engine = Engine::new();
        let answer = ask(&mut engine, r#"{"id": 1, "cmd": "hello", "protocol": 2}"#);
        let capabilities = answer
            .get("engine")
            .and_then(|engine| engine.get("capabilities"))
            .unwrap();
        assert!(capabilities.as_array().unwrap().contains(&Json::from(CAP_BATCH)));
        let answer = ask(
            &mut engine,
            r#"{"id": 2, "cmd": "batch", "game": "g1", "actions": [], "fields": []}"#,
        );
        assert_eq!(answer.get("error").and_then(Json::as_str), Some(UNKNOWN_GAME));
        for members in [
            r#""actions": [1], "fields": []"#,
            r#""actions": [], "fields": ["phase", 2]"#,
            r#""actions": [{"type": "draw"}], "fields": [], "step_fields": []"#,
        ] {
            let line = format!(r#"{{"id": 3, "cmd": "batch", "game": "g1", {}}}"#, members);
            let answer = ask(&mut engine, &line);
            assert_eq!(
                answer.get("error").and_then(Json::as_str),
                Some(BAD_REQUEST),
                "{}",
                members
            );
        }
    }

    #[test]
    fn unknown_command_and_game() {
        let mut engine = Engine::new();
        let answer = ask(&mut engine, r#"{"id": 5, "cmd": "frobnicate"}"#);
        assert_eq!(answer.get("id"), Some(&Json::Int(5)));
        assert_eq!(answer.get("error").and_then(Json::as_str), Some(BAD_REQUEST));
        let answer = ask(&mut engine, r#"{"id": 6, "cmd": "legal", "game": "nope"}"#);
        assert_eq!(answer.get("error").and_then(Json::as_str), Some(UNKNOWN_GAME));
    }

    #[test]
    fn a_deck_order_is_unsupported() {
        let mut engine = Engine::new();
        let answer = ask(
            &mut engine,
            r#"{"id": 7, "cmd": "start", "setup": {"flags": {"players": "4"}, "dealer": 0, "deck": []}}"#,
        );
        assert_eq!(answer.get("error").and_then(Json::as_str), Some("unsupported"));
        assert_eq!(answer.get("unsupported").unwrap().to_string(), r#"["deal=deck order"]"#);
        let answer = ask(
            &mut engine,
            r#"{"id": 8, "cmd": "start", "setup": {"flags": {"players": "2"}, "dealer": 0, "deck": []}}"#,
        );
        assert_eq!(answer.get("unsupported").unwrap().to_string(), r#"["players=2"]"#);
    }
}
