//! `podlab kubectl FILE... [--at DURATION] [--lang en|zh-TW] -- ARGS...`:
//! what `kubectl ARGS...` would print against the simulated cluster at
//! `--at` (default: the Scenario's duration), from the same core function
//! the page's terminal calls (`podlab_core::kubectl`): its stdout on
//! stdout, its stderr on stderr, podlab's own notes after it on stderr as
//! `podlab: …` in `--lang`, and kubectl's exit status.
//!
//! `--record`: what an acting command did (`Output::acts`: `delete pod`,
//! `cordon`, `uncordon`, `drain`) is written into the file that holds the
//! Scenario (else the first file) as `actions` at `--at`
//! (`podlab_core::controls::record`), so the next `podlab kubectl` or
//! `podlab simulate` runs it (docs/kubectl.md "Commands that act").

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
    let mut record = false;
    let mut files = Vec::new();
    let mut iter = ours.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--lang" => lang = lang_value(iter.next())?,
            "--record" => record = true,
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
    let mut parts = Vec::new();
    for file in &files {
        let part = read_input(file)?;
        parts.push(part.clone());
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
    if record && !output.acts.is_empty() {
        record_acts(&files, &parts, &output.acts, run.end, lang)?;
    }
    Ok(output.exit_code)
}

/// Writes `acts` at `at` into the file holding the Scenario (else the
/// first), and says so on stderr.
fn record_acts(
    files: &[String],
    parts: &[String],
    acts: &[podlab_core::manifest::scenario::Act],
    at: u64,
    lang: Lang,
) -> Result<(), String> {
    use podlab_core::manifest::read::read;
    use podlab_core::manifest::scenario::Action;
    use podlab_core::text;
    let index = parts
        .iter()
        .position(|part| read(part).scenario.is_written())
        .unwrap_or(0);
    let file = &files[index];
    if file == "-" {
        return Err(text!(
            "--record writes into a file: the Scenario is on standard input",
            "--record 會寫入檔案：但 Scenario 來自標準輸入"
        )
        .get(lang)
        .to_string());
    }
    let mut edited = parts[index].clone();
    for act in acts {
        let action = Action {
            at,
            span: podlab_core::span::Span::empty(0),
            act: act.clone(),
        };
        edited = podlab_core::controls::record(&edited, &action)
            .map_err(|error| format!("{file}: {}", error.get(lang)))?;
    }
    std::fs::write(file, &edited).map_err(|error| format!("{file}: {error}"))?;
    let when = podlab_core::manifest::duration::format(at);
    let count = acts.len();
    eprintln!(
        "podlab: {}",
        text!(
            "recorded {count} action(s) at {when} in {file}",
            "已在 {file} 記錄 {count} 個動作（時間 {when}）"
        )
        .get(lang)
    );
    Ok(())
}
