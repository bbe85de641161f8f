//! `podlab kubectl FILE... [--at DURATION] [--lang en|zh-TW] -- ARGS...`:
//! what `kubectl ARGS...` would print against the simulated cluster at
//! `--at` (default: the Scenario's duration), from the same core function
//! the page's terminal calls (`podlab_core::kubectl`): its stdout on
//! stdout, its stderr on stderr, podlab's own notes after it on stderr as
//! `podlab: …` in `--lang`, and kubectl's exit status.

use podlab_core::exercise::exec::ExecContext;
use podlab_core::i18n::Lang;
use podlab_core::{kubectl, sim};

use crate::{lang_value, read_input, USAGE};

pub fn kubectl_command(args: &[String]) -> Result<u8, String> {
    use podlab_core::manifest::duration;
    let (ours, theirs) = match args.iter().position(|arg| arg == "--") {
        Some(dash) => (&args[..dash], &args[dash + 1..]),
        None => {
            return Err(format!(
                "podlab kubectl needs `--` before kubectl's arguments\n{USAGE}"
            ))
        }
    };
    let mut lang = Lang::En;
    let mut at = None;
    let mut files = Vec::new();
    let mut iter = ours.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--lang" => lang = lang_value(iter.next())?,
            "--at" => {
                let value = iter.next().ok_or("--at needs a duration (`12m`)")?;
                at = Some(duration::parse(value).map_err(|error| error.message(value).en)?);
            }
            _ if arg.starts_with("--") => return Err(format!("unknown option `{arg}`\n{USAGE}")),
            _ => files.push(arg.clone()),
        }
    }
    if files.is_empty() {
        return Err(USAGE.into());
    }
    let mut text = String::new();
    for file in &files {
        let part = read_input(file)?;
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        if !text.is_empty() {
            text.push_str("---\n");
        }
        text.push_str(&part);
    }
    let run = sim::simulate(&text, &sim::Options { until: at });
    let context = ExecContext::new(&text, &run);
    let output = kubectl::run_words(&context, theirs.to_vec(), run.end);
    out!("{}", output.stdout);
    eprint!("{}", output.stderr);
    for note in &output.notes {
        eprintln!("podlab: {}", note.get(lang));
    }
    Ok(output.exit_code)
}
