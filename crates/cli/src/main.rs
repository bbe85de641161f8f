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

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

mod inputs;
mod traffic;

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

use podlab_core::diagnostic::{Diagnostic, Severity};
use podlab_core::i18n::{ui, Lang};
use podlab_core::lint::{lint, LintReport};
use podlab_core::rules;
use serde_json::{json, Value};

const USAGE: &str =
    "usage: podlab lint FILE|DIR|-... [--format text|json|sarif|github] [--lang en|zh-TW]
                   [--config FILE] [--select PL2,..] [--ignore PL004,..] [--exit-zero] [--verbose]
       podlab lint --print-config [--config FILE]
       podlab rules [ID|NAME] [--lang en|zh-TW]
       podlab simulate FILE... [--at DURATION] [--format text|json] [--lang en|zh-TW] [--window SECONDS]
       podlab fmt --reindent FILE [--write] [--lang en|zh-TW]
       podlab share FILE [--base URL] [--embed]
       podlab exercises list [--format text|json] [--lang en|zh-TW]
       podlab exercises check ID FILE [--format text|json] [--lang en|zh-TW]";

/// Where the playground is published unless `--base` says otherwise.
const DEFAULT_BASE: &str = "http://127.0.0.1:8080/";

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
    // `podlab simulate --help` asks for help, not for a file named so.
    if rest.iter().any(|arg| arg == "--help" || arg == "-h") {
        outln!("{USAGE}");
        return Ok(0);
    }
    match command.as_str() {
        "lint" => lint_command(rest),
        "rules" => rules_command(rest),
        "simulate" => simulate_command(rest),
        "share" => share_command(rest),
        "fmt" => fmt_command(rest),
        "exercises" => exercises_command(rest),
        "help" | "--help" | "-h" => {
            outln!("{USAGE}");
            Ok(0)
        }
        _ => Err(format!("unknown command `{command}`\n{USAGE}")),
    }
}

fn rules_command(args: &[String]) -> Result<u8, String> {
    let mut lang = Lang::En;
    let mut wanted = None;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--lang" => lang = lang_value(iter.next())?,
            _ if wanted.is_none() => wanted = Some(arg.clone()),
            _ => return Err(USAGE.into()),
        }
    }
    match wanted {
        None => out!("{}", rules::doc::render_list(lang)),
        Some(id) => {
            let rule = rules::find(&id)
                .ok_or_else(|| format!("no rule `{id}` (`podlab rules` lists them)"))?;
            out!("{}", rules::doc::render(rule, lang));
        }
    }
    Ok(0)
}

/// `podlab exercises list|check`.
fn exercises_command(args: &[String]) -> Result<u8, String> {
    use podlab_core::exercise::{self, goals, library};
    let mut format = "text".to_string();
    let mut lang = Lang::En;
    let mut positional = Vec::new();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--format" => format = iter.next().ok_or("--format needs a value")?.clone(),
            "--lang" => lang = lang_value(iter.next())?,
            _ => positional.push(arg.clone()),
        }
    }
    if !matches!(format.as_str(), "text" | "json") {
        return Err(format!("unknown format `{format}` (text or json)"));
    }
    match positional
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["list"] => {
            let all = library::all();
            if format == "json" {
                let items: Vec<Value> = all
                    .iter()
                    .map(|exercise| {
                        json!({
                            "id": exercise.id,
                            "title": exercise.title.get(lang),
                            "tags": exercise.tags.iter().map(|tag| tag.as_str()).collect::<Vec<_>>(),
                            "goal": exercise.goal.get(lang),
                            "goals": exercise.goals.iter().map(|goal| json!({"goal": goal.key(), "label": goal.label().get(lang)})).collect::<Vec<_>>(),
                        })
                    })
                    .collect();
                outln!(
                    "{}",
                    serde_json::to_string_pretty(&json!({ "exercises": items }))
                        .unwrap_or_default()
                );
            } else {
                let width = all.iter().map(|e| e.id.len()).max().unwrap_or(0);
                for exercise in &all {
                    let tags: Vec<&str> = exercise.tags.iter().map(|tag| tag.as_str()).collect();
                    outln!(
                        "{:<width$}  {:<13}  {}",
                        exercise.id,
                        tags.join(","),
                        exercise.title.get(lang)
                    );
                }
            }
            Ok(0)
        }
        ["check", id, file] => {
            let exercise = library::find(id).ok_or_else(|| {
                format!("no exercise `{id}` (`podlab exercises list` lists them)")
            })?;
            let text = read_input(file)?;
            let results = exercise::check(&exercise, &text);
            let solved = goals::solved(&results);
            if format == "json" {
                let items: Vec<Value> = results
                    .iter()
                    .map(|result| {
                        json!({
                            "goal": result.goal.key(), "label": result.label.get(lang),
                            "passed": result.passed, "why": result.why.get(lang),
                        })
                    })
                    .collect();
                outln!(
                    "{}",
                    serde_json::to_string_pretty(
                        &json!({"exercise": exercise.id, "solved": solved, "goals": items})
                    )
                    .unwrap_or_default()
                );
            } else {
                outln!("{}: {}", exercise.id, exercise.title.get(lang));
                for result in &results {
                    let mark = if result.passed { "✓" } else { "✗" };
                    outln!(
                        "  {mark} {}\n      {}",
                        result.label.get(lang),
                        result.why.get(lang)
                    );
                }
                outln!("{}", goals::summary(&results).get(lang));
            }
            Ok(if solved { 0 } else { 1 })
        }
        _ => Err(USAGE.into()),
    }
}

/// `podlab fmt --reindent`: applies the fixes of PL001's flattened-paste
/// diagnostics (the edits the page's Fix button applies) and lints the result.
fn fmt_command(args: &[String]) -> Result<u8, String> {
    let mut lang = Lang::En;
    let (mut reindent, mut write) = (false, false);
    let mut file = None;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--reindent" => reindent = true,
            "--write" => write = true,
            "--lang" => lang = lang_value(iter.next())?,
            _ if arg.starts_with("--") => return Err(format!("unknown option `{arg}`\n{USAGE}")),
            _ if file.is_none() => file = Some(arg.clone()),
            _ => return Err(USAGE.into()),
        }
    }
    let file = file.ok_or(USAGE)?;
    if !reindent {
        return Err(format!(
            "`podlab fmt` needs `--reindent` (the only formatting it does)\n{USAGE}"
        ));
    }
    if write && file == "-" {
        return Err("--write needs a file, not standard input".into());
    }
    let text = read_input(&file)?;
    let report = lint(&text);
    let mut edits = Vec::new();
    for diagnostic in &report.diagnostics {
        let Some(fix) = &diagnostic.fix else { continue };
        if diagnostic.rule == podlab_core::manifest::yaml::RULE_SYNTAX.0 {
            let line = report.index.line_col(&text, diagnostic.span.start).line;
            eprintln!("{file}:{line}: {}", fix.description.get(lang));
            // Each flattened document's fix mends all of them
            // (`reindent::fix_all`): one is enough.
            edits.extend(fix.edits.iter().cloned());
            break;
        }
    }
    if edits.is_empty() {
        eprintln!(
            "{file}: {}",
            podlab_core::text!(
                "no document has lost its indentation; nothing changed",
                "沒有文件遺失縮排；未做任何變更"
            )
            .get(lang)
        );
    }
    let result = podlab_core::diagnostic::apply_edits(&text, &edits);
    if write {
        if result != text {
            std::fs::write(&file, &result)
                .map_err(|error| format!("cannot write {file}: {error}"))?;
        }
    } else {
        out!("{result}");
    }
    Ok(u8::from(lint(&result).has_errors()))
}

/// `podlab share`: a link (or with `--embed` an iframe) that opens the text.
fn share_command(args: &[String]) -> Result<u8, String> {
    use podlab_core::share::{self, ShareError};
    let mut base = DEFAULT_BASE.to_string();
    let mut embed = false;
    let mut file = None;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--base" => base = iter.next().ok_or("--base needs a URL")?.clone(),
            "--embed" => embed = true,
            _ if file.is_none() => file = Some(arg.clone()),
            _ => return Err(USAGE.into()),
        }
    }
    let file = file.ok_or(USAGE)?;
    let text = read_input(&file)?;
    let fragment = share::encode(&text).map_err(|error| match error {
        ShareError::TooLong { fragment_bytes } => format!(
            "{file} is too long for a link: {fragment_bytes} bytes once compressed (at most {})",
            share::MAX_FRAGMENT_BYTES
        ),
        other => format!("{file}: {other:?}"),
    })?;
    let base = base.split('#').next().unwrap_or(&base).to_string();
    if embed {
        let separator = if base.contains('?') { '&' } else { '?' };
        outln!(
            "<iframe src=\"{base}{separator}embed=1#{fragment}\" width=\"100%\" height=\"720\" style=\"border:0\" loading=\"lazy\" title=\"podlab\"></iframe>"
        );
    } else {
        outln!("{base}#{fragment}");
    }
    Ok(0)
}

/// `podlab simulate`: the state at `--at` (default: the Scenario's duration).
/// Several files are read as one text, as `kubectl apply -f a -f b` would.
fn simulate_command(args: &[String]) -> Result<u8, String> {
    use podlab_core::manifest::duration;
    use podlab_core::sim::{self, ContainerState};
    let mut format = "text".to_string();
    let mut lang = Lang::En;
    let mut at = None;
    let mut window = 60;
    let mut files = Vec::new();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--format" => format = iter.next().ok_or("--format needs a value")?.clone(),
            "--lang" => lang = lang_value(iter.next())?,
            "--window" => {
                let value = iter.next().ok_or("--window needs seconds (`60`)")?;
                window = value
                    .parse::<u64>()
                    .ok()
                    .filter(|w| *w > 0)
                    .ok_or_else(|| format!("--window: `{value}` is not a number of seconds"))?;
            }
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
    if !matches!(format.as_str(), "text" | "json") {
        return Err(format!("unknown format `{format}` (text or json)"));
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
    let report = lint(&text);
    // Reading errors (syntax, unknown fields, invalid values, limits) mean
    // the objects may not be what the author meant; rule findings such as
    // PL201 are what the simulation is there to show.
    let unreadable = report.diagnostics.iter().any(|d| {
        d.severity == Severity::Error && matches!(d.rule, "PL001" | "PL002" | "PL003" | "PL005")
    });
    if unreadable {
        eprintln!("podlab: some objects could not be read as written (`podlab lint` shows where); simulating what could be read");
    }
    let run = sim::simulate(&text, &sim::Options { until: at });
    let cluster_note = sim::cluster_note(&text);
    let at = run.end;
    let seconds = |ms: u64| ms as f64 / 1000.0;
    if format == "json" {
        let pods: Vec<Value> = run
            .pods
            .iter()
            .filter(|pod| pod.exists_at(at))
            .map(|pod| {
                let row = podlab_core::explain::get_pods::row(pod, at);
                let containers: Vec<Value> = pod
                    .statuses_at(at)
                    .iter()
                    .map(|status| {
                        let (state, reason) = match &status.state {
                            ContainerState::Waiting { reason, .. } => ("waiting", Some(reason.clone())),
                            ContainerState::Running { .. } => ("running", None),
                            ContainerState::Terminated { reason, .. } => ("terminated", Some(reason.clone())),
                        };
                        let mut item = json!({"name": status.name, "state": state, "ready": status.ready, "restartCount": status.restart_count});
                        if let Some(reason) = reason {
                            item["reason"] = json!(reason);
                        }
                        if let Some(ContainerState::Terminated { reason, code, finished, .. }) = &status.last_state {
                            item["lastTermination"] = json!({"reason": reason, "exitCode": code, "at": seconds(*finished)});
                        }
                        item
                    })
                    .collect();
                json!({
                    "name": pod.name, "owner": pod.owner,
                    "node": pod.node.as_ref().filter(|(_, bound)| *bound <= at).map(|(node, _)| node.clone()),
                    "phase": pod.phase_at(at), "status": row.status, "ready": row.ready,
                    "restarts": row.restart_count, "containers": containers,
                })
            })
            .collect();
        let events: Vec<Value> = run
            .events
            .iter()
            .filter(|event| event.at <= at)
            .map(|event| {
                json!({
                    "at": seconds(event.at), "object": &*event.object,
                    "type": if event.warning { "Warning" } else { "Normal" },
                    "reason": event.reason, "message": &*event.message,
                })
            })
            .collect();
        let jobs: Vec<Value> = run
            .jobs
            .iter()
            .filter(|job| job.deleted.is_none_or(|gone| gone > at))
            .map(|job| {
                let conditions: Vec<Value> = job
                    .conditions
                    .iter()
                    .filter(|condition| condition.at <= at)
                    .map(|condition| json!({"type": condition.kind, "reason": condition.reason}))
                    .collect();
                json!({
                    "name": job.name, "succeeded": job.succeeded,
                    "failed": job.failed, "conditions": conditions,
                })
            })
            .collect();
        let refused: Vec<Value> = run
            .refused
            .iter()
            .map(|refused| json!({"object": refused.object, "message": refused.message}))
            .collect();
        let mut output = json!({"at": seconds(at), "pods": pods, "jobs": jobs, "events": events});
        // Only when the cluster was inferred from the manifests' cloud hints.
        if let Some(note) = &cluster_note {
            output["clusterNote"] = json!(note.get(lang));
        }
        // Only when something was refused, so the contract's shape is unchanged otherwise.
        if !refused.is_empty() {
            output["refused"] = json!(refused);
        }
        // Only when the Scenario sends traffic.
        if let Some(requests) = &run.traffic {
            output["traffic"] = traffic::json(requests, at, window);
        }
        outln!(
            "{}",
            serde_json::to_string_pretty(&output).unwrap_or_default()
        );
    } else {
        if let Some(note) = &cluster_note {
            // A shell comment, so the transcript still reads as a terminal session.
            outln!("# {}\n", note.get(lang));
        }
        out!("{}", kubectl_transcript(&run, at));
        if let Some(requests) = &run.traffic {
            outln!("\n{}", traffic::table(requests, at, lang));
        }
        // After the transcript: a diagnosis per unhealthy pod, in `--lang`
        // (kubectl's own output above stays English).
        use podlab_core::explain::diagnosis;
        out!(
            "{}",
            diagnosis::render(&diagnosis::diagnose(&run, at), lang)
        );
    }
    Ok(0)
}

/// The text view of a run (DESIGN.md): what a person would see typing
/// `kubectl get pods`, then for each pod `kubectl describe pod` and
/// `kubectl logs` (and `--previous` when a container has a terminated
/// previous instance), each introduced by its `$ kubectl ...` line. Errors
/// kubectl would print on stderr are part of the transcript, in place.
fn kubectl_transcript(run: &podlab_core::sim::Run, at: u64) -> String {
    use podlab_core::explain::{describe, get_pods, logs};
    use podlab_core::sim::ContainerState;
    let mut out = String::new();
    if !run.refused.is_empty() {
        // `kubectl apply` stops at the API server for these; nothing of them runs.
        out.push_str("$ kubectl apply -f .\n");
        for refused in &run.refused {
            out.push_str(&refused.message);
            out.push('\n');
        }
        out.push('\n');
    }
    out.push_str("$ kubectl get pods\n");
    let table = get_pods::render(run, at);
    if table.is_empty() {
        out.push_str("No resources found in default namespace.\n");
    }
    out.push_str(&table);
    for pod in run.pods.iter().filter(|pod| pod.exists_at(at)) {
        out.push_str(&format!("\n$ kubectl describe pod {}\n", pod.name));
        out.push_str(&describe::describe_pod(run, pod, at));
        let several = pod.containers.len() > 1;
        let statuses = pod.statuses_at(at);
        for container in &pod.containers {
            let target = if several {
                format!("{} -c {}", pod.name, container.name)
            } else {
                pod.name.clone()
            };
            let has_previous = statuses.iter().any(|status| {
                status.name == container.name
                    && matches!(status.last_state, Some(ContainerState::Terminated { .. }))
            });
            let bound = pod.node.as_ref().is_some_and(|(_, bound)| *bound <= at);
            let mut commands = vec![(format!("$ kubectl logs {target}"), false)];
            if has_previous && bound {
                commands.push((format!("$ kubectl logs {target} --previous"), true));
            }
            for (command, previous) in commands {
                out.push_str(&format!("\n{command}\n"));
                match logs::logs(run, pod, &container.name, at, previous) {
                    Ok(text) | Err(text) if text.is_empty() => {}
                    Ok(text) => out.push_str(&text),
                    Err(error) => {
                        out.push_str(&error);
                        out.push('\n');
                    }
                }
            }
        }
    }
    out
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

fn lint_command(rest: &[String]) -> Result<u8, String> {
    use podlab_core::suppress::{check_pattern, Selection};
    let mut format = "text".to_string();
    let mut lang = Lang::En;
    let mut files = Vec::new();
    let (mut config_path, mut print_config, mut exit_zero, mut verbose) =
        (None, false, false, false);
    let (mut select, mut ignore): (Option<Vec<String>>, Vec<String>) = (None, Vec::new());
    let mut iter = rest.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--format" => format = iter.next().ok_or("--format needs a value")?.clone(),
            "--lang" => lang = lang_value(iter.next())?,
            "--config" => {
                config_path = Some(PathBuf::from(iter.next().ok_or("--config needs a file")?))
            }
            "--select" | "--ignore" => {
                let list = iter
                    .next()
                    .ok_or_else(|| format!("{arg} needs rule IDs (`PL004,PL301`, `PL2`)"))?;
                let mut patterns = Vec::new();
                for pattern in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
                    if let Err(meant) = check_pattern(pattern) {
                        let meant = meant
                            .map(|m| format!("; did you mean `{m}`?"))
                            .unwrap_or_default();
                        return Err(format!("{arg}: `{pattern}` names no podlab rule{meant}"));
                    }
                    patterns.push(pattern.to_string());
                }
                if arg == "--select" {
                    select = Some(patterns);
                } else {
                    ignore.extend(patterns);
                }
            }
            "--print-config" => print_config = true,
            "--exit-zero" => exit_zero = true,
            "--verbose" | "-v" => verbose = true,
            _ if arg.starts_with("--") => return Err(format!("unknown option `{arg}`\n{USAGE}")),
            _ => files.push(arg.clone()),
        }
    }
    if !matches!(format.as_str(), "text" | "json" | "sarif" | "github") {
        return Err(format!(
            "unknown format `{format}` (text, json, sarif or github)"
        ));
    }
    let cwd = std::env::current_dir().map_err(|error| format!("no current directory: {error}"))?;
    let config_path = config_path.or_else(|| inputs::discover(&cwd));
    let loaded = inputs::load(config_path, &cwd)?;
    let config = &loaded.config;
    let config_name = loaded.path.as_ref().map_or_else(
        || inputs::CONFIG_NAME.to_string(),
        |p| p.display().to_string(),
    );
    let selection = Selection {
        select: select.unwrap_or_else(|| config.select.clone()),
        ignore: config
            .ignore
            .iter()
            .map(|p| (p.clone(), format!("ignored in {config_name}")))
            .chain(ignore.iter().map(|p| (p.clone(), format!("--ignore {p}"))))
            .collect(),
        severity: config.severity.clone(),
    };
    let scenario_path = config.scenario.as_ref().map(|path| loaded.dir.join(path));
    if print_config {
        print_effective_config(&loaded, &selection, scenario_path.as_deref());
        return Ok(0);
    }
    if files.is_empty() {
        return Err(USAGE.into());
    }
    // The team's cluster, described once: appended to every manifest, so a
    // file's own Scenario (read first) still wins.
    let scenario = match &scenario_path {
        None => None,
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|error| {
                format!(
                    "cannot read the scenario of {config_name}, {}: {error}",
                    path.display()
                )
            })?;
            let report = lint(&text);
            let problems: Vec<Diagnostic> = report
                .diagnostics
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .cloned()
                .collect();
            if !problems.is_empty() {
                return Err(inputs::located(path, &text, &report.index, &problems));
            }
            if podlab_core::lint::read(&text).scenario.kind_span.is_none() {
                return Err(format!(
                    "{}: no `kind: Scenario` document (named by `scenario:` in {config_name})",
                    path.display()
                ));
            }
            Some(text)
        }
    };
    let mut expanded = Vec::new();
    for file in &files {
        if file == "-" {
            expanded.push(file.clone());
        } else {
            if !Path::new(file).exists() {
                return Err(format!("cannot read {file}: no such file or directory"));
            }
            expanded.extend(inputs::expand(file, &loaded, &cwd)?);
        }
    }
    let mut results = Vec::new();
    for file in &expanded {
        let own = read_input(file)?;
        let own_len = own.len();
        let text = match &scenario {
            Some(scenario) => format!(
                "{own}{}---\n{scenario}",
                if own.ends_with('\n') || own.is_empty() {
                    ""
                } else {
                    "\n"
                }
            ),
            None => own,
        };
        // PL004 (a kind podlab does not simulate) only with --verbose, or
        // when --select names it: a Helm chart's output is mostly such kinds.
        let verbose = verbose || selection.selects(podlab_core::lint::NOT_SIMULATED);
        let mut report =
            podlab_core::lint::lint_with(&text, &podlab_core::lint::LintOptions { verbose });
        if scenario.is_some() {
            // What lies past the file's own text concerns the scenario file.
            report.diagnostics.retain(|d| d.span.start <= own_len);
            report
                .suppressed
                .retain(|s| s.diagnostic.span.start <= own_len);
        }
        selection.apply(&mut report.diagnostics, &mut report.suppressed);
        results.push((file.clone(), text, report));
    }
    let failed = results.iter().any(|(_, _, report)| report.has_errors());
    let output = match format.as_str() {
        "json" => serde_json::to_string_pretty(&json_output(&results, lang)).unwrap_or_default(),
        "sarif" => serde_json::to_string_pretty(&sarif_output(&results, lang)).unwrap_or_default(),
        "github" => github_output(&results, lang),
        _ => text_output(&results, lang),
    };
    outln!("{output}");
    Ok(u8::from(failed && !exit_zero))
}

/// `--print-config`: the settings in force, as `.podlab.yaml` would say them.
fn print_effective_config(
    loaded: &inputs::Loaded,
    selection: &podlab_core::suppress::Selection,
    scenario: Option<&Path>,
) {
    let list = |items: Vec<&str>| format!("[{}]", items.join(", "));
    let from = loaded.path.as_ref().map_or_else(
        || "none found; defaults".to_string(),
        |p| p.display().to_string(),
    );
    outln!("# config: {from}");
    outln!(
        "select: {}",
        list(selection.select.iter().map(String::as_str).collect())
    );
    outln!(
        "ignore: {}",
        list(selection.ignore.iter().map(|(p, _)| p.as_str()).collect())
    );
    let severity: Vec<String> = selection
        .severity
        .iter()
        .map(|(p, s)| format!("{p}: {}", s.as_str()))
        .collect();
    outln!("severity: {{{}}}", severity.join(", "));
    match scenario {
        Some(path) => outln!("scenario: {}", path.display()),
        None => outln!("scenario: null"),
    }
    outln!(
        "exclude: {}",
        list(loaded.config.exclude.iter().map(String::as_str).collect())
    );
}

/// GitHub Actions workflow commands (`::error file=…,line=…::message`), which
/// Actions shows inline on a pull request's diff.
fn github_output(results: &[(String, String, LintReport)], lang: Lang) -> String {
    // https://github.com/actions/toolkit/blob/main/packages/core/src/command.ts
    let data = |text: &str| {
        text.replace('%', "%25")
            .replace('\r', "%0D")
            .replace('\n', "%0A")
    };
    let property = |text: &str| data(text).replace(':', "%3A").replace(',', "%2C");
    let mut out = String::new();
    for (file, text, report) in results {
        for diagnostic in &report.diagnostics {
            let (line, column, end_line, end_column) = positions(text, report, diagnostic);
            let level = match diagnostic.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "notice",
            };
            let mut message = diagnostic.message.get(lang).to_string();
            if let Some(help) = &diagnostic.help {
                message.push_str(&format!("\n{}: {}", ui::help().get(lang), help.get(lang)));
            }
            out.push_str(&format!(
                "::{level} file={},line={line},col={column},endLine={end_line},endColumn={end_column},title={}::{}\n",
                property(file),
                property(&format!("{} {}", diagnostic.rule, diagnostic.name)),
                data(&message)
            ));
        }
    }
    out.trim_end().to_string()
}

fn positions(
    text: &str,
    report: &LintReport,
    diagnostic: &Diagnostic,
) -> (usize, usize, usize, usize) {
    let start = report.index.line_col(text, diagnostic.span.start);
    let end = report.index.line_col(text, diagnostic.span.end);
    (start.line, start.column, end.line, end.column)
}

/// One diagnostic in DESIGN.md's JSON shape.
fn json_item(
    file: &str,
    text: &str,
    report: &LintReport,
    diagnostic: &Diagnostic,
    lang: Lang,
) -> Value {
    let (line, column, end_line, end_column) = positions(text, report, diagnostic);
    let mut item = json!({
        "rule": diagnostic.rule, "name": diagnostic.name,
        "severity": diagnostic.severity.as_str(),
        "message": diagnostic.message.get(lang), "file": file,
        "line": line, "column": column, "endLine": end_line, "endColumn": end_column,
    });
    if let Some(help) = &diagnostic.help {
        item["help"] = json!(help.get(lang));
    }
    if let Some(fix) = &diagnostic.fix {
        let edits: Vec<Value> = fix
            .edits
            .iter()
            .map(|edit| {
                let start = report.index.line_col(text, edit.span.start);
                let end = report.index.line_col(text, edit.span.end);
                json!({"line": start.line, "column": start.column, "endLine": end.line, "endColumn": end.column, "text": edit.text})
            })
            .collect();
        item["fix"] = json!({"description": fix.description.get(lang), "edits": edits});
    }
    item
}

/// SARIF's suppression kind: written in the file, or outside it.
fn sarif_suppression(suppressed: &podlab_core::suppress::Suppressed) -> Value {
    use podlab_core::suppress::Source;
    let kind = if suppressed.source == Source::External {
        "external"
    } else {
        "inSource"
    };
    json!({"kind": kind, "justification": suppressed.reason})
}

/// DESIGN.md's `{"diagnostics": [...]}`, and, when some were silenced,
/// `"suppressed": [...]` in the same shape with a `suppression` (where it
/// was written and why), so `diagnostics` still holds what counts.
fn json_output(results: &[(String, String, LintReport)], lang: Lang) -> Value {
    let mut diagnostics = Vec::new();
    let mut suppressed = Vec::new();
    for (file, text, report) in results {
        for diagnostic in &report.diagnostics {
            diagnostics.push(json_item(file, text, report, diagnostic, lang));
        }
        for silenced in &report.suppressed {
            let mut item = json_item(file, text, report, &silenced.diagnostic, lang);
            item["suppression"] =
                json!({"kind": silenced.source.as_str(), "justification": silenced.reason});
            suppressed.push(item);
        }
    }
    let mut output = json!({ "diagnostics": diagnostics });
    if !suppressed.is_empty() {
        output["suppressed"] = json!(suppressed);
    }
    output
}

fn sarif_output(results: &[(String, String, LintReport)], lang: Lang) -> Value {
    let mut sarif_results = Vec::new();
    for (file, text, report) in results {
        let silenced = report
            .suppressed
            .iter()
            .map(|s| (&s.diagnostic, Some(sarif_suppression(s))));
        for (diagnostic, suppression) in
            report.diagnostics.iter().map(|d| (d, None)).chain(silenced)
        {
            let (line, column, end_line, end_column) = positions(text, report, diagnostic);
            let level = match diagnostic.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "note",
            };
            let rule_index = rules::RULES
                .iter()
                .position(|rule| rule.id == diagnostic.rule)
                .unwrap_or(0);
            let mut result = json!({
                "ruleId": diagnostic.rule, "ruleIndex": rule_index, "level": level,
                "message": {"text": diagnostic.message.get(lang)},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": file},
                    "region": {"startLine": line, "startColumn": column, "endLine": end_line, "endColumn": end_column}
                }}]
            });
            if let Some(suppression) = suppression {
                result["suppressions"] = json!([suppression]);
            }
            sarif_results.push(result);
        }
    }
    let sarif_rules: Vec<Value> = rules::RULES
        .iter()
        .map(|rule| {
            let level = match rule.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "note",
            };
            json!({
                "id": rule.id, "name": rule.name,
                "shortDescription": {"text": rule.summary.get(lang)},
                "fullDescription": {"text": rule.what.get(lang)},
                "help": {"text": rules::doc::render(rule, lang)},
                "defaultConfiguration": {"level": level}
            })
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "podlab", "informationUri": "https://podlab.dev", "rules": sarif_rules}},
            "columnKind": "unicodeCodePoints",
            "results": sarif_results
        }]
    })
}

/// rustc/ruff-style text: the message, the location, the source line and a
/// caret under the span, then the help.
fn text_output(results: &[(String, String, LintReport)], lang: Lang) -> String {
    let mut out = String::new();
    let (mut errors, mut warnings, mut infos) = (0, 0, 0);
    let colon = match lang {
        Lang::En => ": ",
        Lang::ZhTw => "：",
    };
    for (file, text, report) in results {
        let gutter_width = report
            .diagnostics
            .iter()
            .map(|d| {
                report
                    .index
                    .line_col(text, d.span.start)
                    .line
                    .to_string()
                    .len()
            })
            .max()
            .unwrap_or(1);
        let gutter = " ".repeat(gutter_width);
        for diagnostic in &report.diagnostics {
            match diagnostic.severity {
                Severity::Error => errors += 1,
                Severity::Warning => warnings += 1,
                Severity::Info => infos += 1,
            }
            let (line, column, end_line, end_column) = positions(text, report, diagnostic);
            let severity = diagnostic.severity.word();
            out.push_str(&format!(
                "{}[{}]: {}\n  --> {file}:{line}:{column}\n",
                severity.get(lang),
                diagnostic.rule,
                diagnostic.message.get(lang)
            ));
            let line_span = report.index.line_span(text, line);
            let source = text.get(line_span.start..line_span.end).unwrap_or("");
            let before: String = source.chars().take(column.saturating_sub(1)).collect();
            let marked: String = if end_line == line && end_column > column {
                source
                    .chars()
                    .skip(column.saturating_sub(1))
                    .take(end_column - column)
                    .collect()
            } else {
                String::new()
            };
            out.push_str(&format!(
                "{gutter} |\n{line:>gutter_width$} | {source}\n{gutter} | {}{}\n",
                " ".repeat(display_width(&before)),
                "^".repeat(display_width(&marked).max(1))
            ));
            if let Some(help) = &diagnostic.help {
                out.push_str(&format!(
                    "{gutter} = {}{colon}{}\n",
                    ui::help().get(lang),
                    help.get(lang)
                ));
            }
            if let Some(fix) = &diagnostic.fix {
                out.push_str(&format!(
                    "{gutter} = {}{colon}{}\n",
                    ui::fix().get(lang),
                    fix.description.get(lang)
                ));
            }
            out.push('\n');
        }
    }
    if errors + warnings + infos == 0 {
        out.push_str(ui::no_problems().get(lang));
    } else {
        out.push_str(ui::summary(errors, warnings, infos).get(lang));
    }
    let suppressed: usize = results
        .iter()
        .map(|(_, _, report)| report.suppressed.len())
        .sum();
    if suppressed > 0 {
        let note = podlab_core::text!(
            " ({suppressed} suppressed: `--format json` lists them with their reasons)",
            "（{suppressed} 項已抑制：`--format json` 會列出它們和理由）"
        );
        out.push_str(note.get(lang));
    }
    out
}

/// Terminal columns a string takes: East Asian wide and fullwidth characters
/// take two (so the caret stays under a Chinese value), tabs count as one.
fn display_width(text: &str) -> usize {
    text.chars()
        .map(|c| {
            let code = c as u32;
            let wide = matches!(code,
                0x1100..=0x115F | 0x2E80..=0x303E | 0x3041..=0x33FF | 0x3400..=0x4DBF
                | 0x4E00..=0x9FFF | 0xA000..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF
                | 0xFE30..=0xFE4F | 0xFF00..=0xFF60 | 0xFFE0..=0xFFE6 | 0x1F300..=0x1F64F
                | 0x1F900..=0x1F9FF | 0x20000..=0x3FFFD);
            if wide {
                2
            } else {
                1
            }
        })
        .sum()
}
