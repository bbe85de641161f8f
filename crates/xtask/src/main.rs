//! `cargo xtask serve | test`: the project's two commands.
//!
//! Both install what is missing first (each tool only if it is not there yet,
//! saying what they do), then build. All automation lives here, in Rust
//! (matklad's xtask pattern), so a fresh machine needs only cargo.
//! See README.md for what each command does and ../shared/TOOLCHAIN.md for
//! why each tool is pinned the way it is.

mod install;
mod picture;
mod shell;
mod size;

use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Result};

use crate::shell::{step, Shell};

const USAGE: &str = "\
usage: cargo xtask <command>

commands:
  serve [TRUNK ARGS]  install what is missing, build the web app and serve it on
                      http://127.0.0.1:8080, rebuilding on change (extra arguments
                      go to `trunk serve`, e.g. --release)
  picture             draw the default text's first screen into web/picture/default.html
                      (the page shows it before its engine loads)
  test                install what is missing, then: rustfmt, clippy (host and
                      wasm32), native tests, wasm tests in headless Chromium, the
                      release build with its size budget, end-to-end tests";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("test") if args.len() == 1 => test(),
        Some("serve") => serve(&args[1..]),
        Some("picture") if args.len() == 1 => {
            Shell::new().and_then(|shell| picture::write(&shell.root))
        }
        Some("help" | "-h" | "--help") => {
            println!("{USAGE}");
            Ok(())
        }
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("\nxtask: error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn test() -> Result<()> {
    let started = Instant::now();
    let shell = Shell::new()?;
    install::web_tools(&shell)?;
    install::browser(&shell)?;
    let kubectl = install::kubectl(&shell)?;
    let axe = install::axe(&shell)?;

    step("rustfmt: cargo fmt --check");
    shell.cargo(&["fmt", "--all", "--", "--check"]).run()?;

    step("clippy (host)");
    shell
        .cargo(&[
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ])
        .run()?;

    step("clippy (wasm32, the web crate)");
    shell
        .cargo(&[
            "clippy",
            "-p",
            "podlab-web",
            "--target",
            "wasm32-unknown-unknown",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ])
        .run()?;

    step("native tests");
    shell
        .cargo(&["test", "--workspace", "--exclude", "podlab-e2e"])
        .env("PODLAB_KUBECTL", &kubectl)
        .run()?;

    step("wasm tests in headless Chromium (wasm-bindgen-test)");
    shell
        .cargo(&[
            "test",
            "-p",
            "podlab-web",
            "--target",
            "wasm32-unknown-unknown",
        ])
        .env("CHROMEDRIVER", install::CHROMEDRIVER)
        .run()?;

    step("release build: trunk build --release → dist/");
    shell.trunk(&["build", "--release"]).run()?;

    step("size budget");
    size::check(&shell.root.join("dist"))?;

    step("end-to-end tests: dist/ in headless Chromium");
    shell
        .cargo(&["test", "-p", "podlab-e2e"])
        .env("PODLAB_DIST", shell.root.join("dist"))
        .env("PODLAB_AXE", &axe)
        .run()?;

    println!(
        "\nxtask test: all steps passed in {}",
        shell::format_duration(started.elapsed())
    );
    Ok(())
}

fn serve(trunk_args: &[String]) -> Result<()> {
    let shell = Shell::new()?;
    install::web_tools(&shell)?;
    if trunk_args
        .iter()
        .any(|arg| arg == "--address" || arg == "--port")
    {
        bail!("`cargo xtask serve` always serves on 127.0.0.1:8080; run `trunk serve` yourself for other addresses");
    }
    if picture::check(&shell.root).is_err() {
        step("the default text's picture is stale: cargo xtask picture");
        picture::write(&shell.root)?;
    }
    step("trunk serve");
    println!("Serving podlab on http://127.0.0.1:8080/ (Ctrl-C stops it)");
    // Its own output directory, so a debug build being served never replaces
    // the release build in dist/ that `cargo xtask test` checks.
    let mut args = vec![
        "serve",
        "--address",
        "127.0.0.1",
        "--port",
        "8080",
        "--dist",
        "target/trunk-serve",
    ];
    args.extend(trunk_args.iter().map(String::as_str));
    shell.trunk(&args).run()
}
