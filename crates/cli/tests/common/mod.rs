//! What the CLI's test files share: the built `podlab` run as a user runs
//! it, and the golden files' paths. A test file says `mod common;` (a
//! folder, so Cargo builds no test target of its own from it). Not every
//! file uses every helper.
#![allow(dead_code)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// The path of `tests/golden/<name>`, as a command line names it.
pub fn golden(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name)
        .display()
        .to_string()
}

/// `podlab ARGS`: (exit status, stdout, stderr).
pub fn podlab(args: &[&str]) -> (Option<i32>, String, String) {
    podlab_with(args, None)
}

/// `podlab ARGS` with `stdin` fed to it, from a thread of its own so a
/// large input cannot block against the output: (exit status, stdout,
/// stderr).
pub fn podlab_with(args: &[&str], stdin: Option<&str>) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_podlab"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("podlab runs");
    let input = stdin.unwrap_or("").to_string();
    let mut pipe = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(input.as_bytes());
    });
    let output = child.wait_with_output().expect("podlab ends");
    writer.join().expect("writer");
    (
        output.status.code(),
        String::from_utf8(output.stdout).expect("UTF-8"),
        String::from_utf8(output.stderr).expect("UTF-8"),
    )
}
