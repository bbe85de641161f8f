//! `podlab lint`: the arguments, the settings in force (`inputs.rs`), the
//! files linted one by one; the output is `lint_output.rs`'s.

use std::path::{Path, PathBuf};

use podlab_core::diagnostic::{Diagnostic, Severity};
use podlab_core::i18n::Lang;
use podlab_core::lint::lint;

use crate::lint_output::{github_output, json_output, sarif_output, text_output};
use crate::{inputs, lang_value, read_input, USAGE};

pub fn lint_command(rest: &[String]) -> Result<u8, String> {
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
