//! Helpers the core's integration tests share (`controllers.rs`,
//! `actions.rs`): a golden run, an object's events, a generated name.
#![allow(dead_code)]

use std::path::Path;

use podlab_core::sim::{simulate, Options, Run};

/// The text of `tests/golden/<name>`.
pub fn golden(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/golden")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The run of `text` up to `until_s` seconds.
pub fn run_text(text: &str, until_s: u64) -> Run {
    simulate(
        text,
        &Options {
            until: Some(until_s * 1000),
        },
    )
}

/// The run of the golden `name` up to `until_s` seconds.
pub fn run(name: &str, until_s: u64) -> Run {
    run_text(&golden(name), until_s)
}

/// (at, reason, message) of the events on one object.
pub fn events_of<'r>(run: &'r Run, object: &str) -> Vec<(u64, &'r str, &'r str)> {
    run.events
        .iter()
        .filter(|e| *e.object == *object)
        .map(|e| (e.at, e.reason, &*e.message))
        .collect()
}

pub fn is_generated(name: &str, prefix: &str) -> bool {
    name.strip_prefix(prefix).is_some_and(|rest| {
        rest.len() == 5
            && rest
                .bytes()
                .all(|b| b"bcdfghjklmnpqrstvwxz2456789".contains(&b))
    })
}
