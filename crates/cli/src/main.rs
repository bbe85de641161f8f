//! `podlab`: the core on the command line.
//!
//! `podlab lint FILE|DIR|-... [--format text|json|sarif|github] [--lang en|zh-TW]
//! [--config FILE] [--select PL2,...] [--ignore PL004,...] [--exit-zero]
//! [--verbose] [--print-config]`: exit 0 when no error-level diagnostic, 1
//! when there is one (0 with `--exit-zero`), 2 on a usage or I/O problem or a
//! broken `.podlab.yaml`; `-` reads standard input, a directory is walked for
//! `*.yaml`/`*.yml`. The JSON shape is DESIGN.md's contract, plus
//! `suppressed` when something was silenced. Settings come from
//! `.podlab.yaml` (`inputs.rs`). Output to a closed pipe ends with exit 141.
//!
//! `podlab rules [ID|NAME] [--lang en|zh-TW]`: the rule list, or one rule's
//! documentation.
//!
//! `podlab share FILE [--base URL] [--embed]`: the playground link that
//! opens the file (its text in the URL fragment, `podlab_core::share`), or
//! the iframe code that embeds it.
//!
//! `podlab fmt --reindent FILE [--write] [--lang en|zh-TW]`: rebuilds the
//! indentation of documents pasted flattened (PL001's fix), prints the result
//! (or with `--write` rewrites FILE); exit codes as for `lint`, on the result.
//!
//! `podlab exercises list [--format text|json] [--lang en|zh-TW]`: the
//! exercise library. `podlab exercises check ID FILE [--format text|json]
//! [--lang en|zh-TW]`: simulates FILE and checks the exercise's goals; exit 0
//! when every goal holds, 1 when one fails, 2 on a usage or I/O problem.
//!
//! `podlab kubectl FILE... [--at DURATION] [--lang en|zh-TW] -- ARGS...`:
//! what `kubectl ARGS...` prints against the simulated cluster at `--at`
//! (stdout, stderr, kubectl's exit status); podlab's notes on stderr.
//!
//! `podlab diagnose FILE|- [--format text|json] [--lang en|zh-TW] [--replay OUT]`: what
//! kubectl printed about a failing pod, pasted, read and answered: the
//! kind, the pasted lines that show it, the fix (docs/diagnose.md).
//!
//! `podlab map FILE|- [--x AXIS] [--y AXIS] [--steps 32x24] [--format text|json|svg] [--lang en|zh-TW]`:
//! the outcome of the text over two of its numbers, each cell a full
//! simulation, with the rules' lines (docs/map.md).
//!
//! One module per command: `lint.rs` (its settings and files in
//! `inputs.rs`, its four output formats in `lint_output.rs`), `rules.rs`,
//! `simulate.rs`, `kubectl.rs`, `fmt.rs`, `share.rs`, `exercises.rs`, `diagnose.rs` and `map.rs`. This file reads
//! the command line and holds what they share: standard output that ends
//! quietly on a closed pipe, `--lang`, and reading a file or standard input.

use std::io::Read;
use std::process::ExitCode;

/// `print!` that ends the process quietly when standard output is a closed
/// pipe (`podlab simulate FILE | head`), with 141 as a shell reports a
/// process ended by SIGPIPE (128 + 13), instead of std's panic.
macro_rules! out {
    ($($arg:tt)*) => { crate::write_stdout(format_args!($($arg)*)) };
}
/// `println!`, quiet on a closed pipe like [`out!`].
macro_rules! outln {
    ($($arg:tt)*) => { crate::write_stdout(format_args!("{}\n", format_args!($($arg)*))) };
}

fn write_stdout(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    if let Err(error) = stdout.write_fmt(args).and_then(|()| stdout.flush()) {
        if error.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(141);
        }
        eprintln!("podlab: cannot write to standard output: {error}");
        std::process::exit(2);
    }
}

mod autoscalers;
mod diagnose;
mod exercises;
mod fmt;
mod inputs;
mod kubectl;
mod lint;
mod lint_output;
mod map;
mod rules;
mod share;
mod simulate;
mod traffic;

use podlab_core::i18n::Lang;

use diagnose::diagnose_command;
use exercises::exercises_command;
use fmt::fmt_command;
use kubectl::kubectl_command;
use lint::lint_command;
use map::map_command;
use rules::rules_command;
use share::share_command;
use simulate::simulate_command;

const USAGE: &str =
    "usage: podlab lint FILE|DIR|-... [--format text|json|sarif|github] [--lang en|zh-TW]
                   [--config FILE] [--select PL2,..] [--ignore PL004,..] [--exit-zero] [--verbose]
       podlab lint --print-config [--config FILE]
       podlab rules [ID|NAME] [--lang en|zh-TW]
       podlab simulate FILE... [--at DURATION] [--format text|json] [--lang en|zh-TW] [--window SECONDS]
       podlab kubectl FILE... [--at DURATION] [--lang en|zh-TW] [--record] -- KUBECTL-ARGS...
       podlab fmt --reindent FILE [--write] [--lang en|zh-TW]
       podlab share FILE [--base URL] [--embed [--view timeline|yaml|kubectl|diagnosis] [--at T] [--controls A,B] [--lang en|zh-TW] [--autoplay]]
       podlab exercises list [--format text|json] [--lang en|zh-TW]
       podlab exercises check ID FILE [--format text|json] [--lang en|zh-TW]
       podlab diagnose FILE|- [--format text|json] [--lang en|zh-TW] [--replay OUT.yaml]
       podlab map FILE|- [--x startup=0s..300s] [--y memory.peak=1Gi..16Gi] [--steps 32x24] [--format text|json|svg] [--lang en|zh-TW]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(code) => ExitCode::from(code),
        Err(message) => {
            eprintln!("podlab: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<u8, String> {
    let Some((command, rest)) = args.split_first() else {
        return Err(USAGE.into());
    };
    // `podlab simulate --help` asks for help, not for a file named so
    // (what follows `--` is kubectl's, or the container's).
    let ours = rest.split(|arg| arg == "--").next().unwrap_or(&[]);
    if ours.iter().any(|arg| arg == "--help" || arg == "-h") {
        outln!("{USAGE}");
        return Ok(0);
    }
    match command.as_str() {
        "lint" => lint_command(rest),
        "rules" => rules_command(rest),
        "simulate" => simulate_command(rest),
        "kubectl" => kubectl_command(rest),
        "share" => share_command(rest),
        "fmt" => fmt_command(rest),
        "exercises" => exercises_command(rest),
        "diagnose" => diagnose_command(rest),
        "map" => map_command(rest),
        "help" | "--help" | "-h" => {
            outln!("{USAGE}");
            Ok(0)
        }
        _ => Err(format!("unknown command `{command}`\n{USAGE}")),
    }
}

/// The value after `--lang`: `en` or `zh-TW`.
fn lang_value(code: Option<&String>) -> Result<Lang, String> {
    let code = code.ok_or("--lang needs a value")?;
    Lang::parse(code).ok_or_else(|| format!("unknown language `{code}`"))
}

fn read_input(file: &str) -> Result<String, String> {
    if file == "-" {
        let mut buffer = String::new();
        std::io::stdin()
            .read_to_string(&mut buffer)
            .map_err(|error| format!("cannot read standard input: {error}"))?;
        Ok(buffer)
    } else {
        std::fs::read_to_string(file).map_err(|error| format!("cannot read {file}: {error}"))
    }
}
