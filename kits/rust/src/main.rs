//! A Guiñote engine speaking GCP/2, the Guiñote conformance protocol: JSON lines on
//! stdin and stdout (docs/checking/protocol.md of the conformance suite).
//!
//! src/protocol.rs is the loop (you should not need to change it), src/messages.rs the types
//! of the messages, src/json.rs the JSON reader and writer, and src/game.rs the game: the file
//! you change (search it for TODO(engine) and TODO(rules)).

mod game;
mod json;
mod messages;
mod protocol;

fn main() {
    match protocol::serve() {
        Ok(()) => std::process::exit(0),
        Err(error) => {
            // stdout is gone (the harness closed it) or unreadable stdin: nobody to answer.
            eprintln!("guinote-engine: {}", error);
            std::process::exit(1);
        }
    }
}
