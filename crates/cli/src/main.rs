//! `podlab`: the core on the command line.
//!
//! `podlab lint FILE... [--format text|json|sarif] [--lang en|zh-TW]`: exit 0
//! when no error-level diagnostic, 1 when there is one, 2 on a usage or I/O
//! problem; `-` reads standard input. The JSON shape is DESIGN.md's contract.

use std::io::Read;
use std::process::ExitCode;

use podlab_core::diagnostic::{Diagnostic, Severity};
use podlab_core::i18n::{ui, Lang};
use podlab_core::lint::{lint, LintReport};
use serde_json::{json, Value};

const USAGE: &str = "usage: podlab lint FILE... [--format text|json|sarif] [--lang en|zh-TW]";

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
    if command != "lint" {
        return Err(format!("unknown command `{command}`\n{USAGE}"));
    }
    let mut format = "text".to_string();
    let mut lang = Lang::En;
    let mut files = Vec::new();
    let mut iter = rest.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--format" => format = iter.next().ok_or("--format needs a value")?.clone(),
            "--lang" => {
                let code = iter.next().ok_or("--lang needs a value")?;
                lang = Lang::parse(code).ok_or_else(|| format!("unknown language `{code}`"))?;
            }
            _ => files.push(arg.clone()),
        }
    }
    if files.is_empty() {
        return Err(USAGE.into());
    }
    if !matches!(format.as_str(), "text" | "json" | "sarif") {
        return Err(format!("unknown format `{format}` (text, json or sarif)"));
    }
    let mut results = Vec::new();
    for file in &files {
        let text = if file == "-" {
            let mut buffer = String::new();
            std::io::stdin()
                .read_to_string(&mut buffer)
                .map_err(|error| format!("cannot read standard input: {error}"))?;
            buffer
        } else {
            std::fs::read_to_string(file).map_err(|error| format!("cannot read {file}: {error}"))?
        };
        let report = lint(&text);
        results.push((file.clone(), text, report));
    }
    let failed = results.iter().any(|(_, _, report)| report.has_errors());
    let output = match format.as_str() {
        "json" => serde_json::to_string_pretty(&json_output(&results, lang)).unwrap_or_default(),
        "sarif" => serde_json::to_string_pretty(&sarif_output(&results, lang)).unwrap_or_default(),
        _ => text_output(&results, lang),
    };
    println!("{output}");
    Ok(u8::from(failed))
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

fn json_output(results: &[(String, String, LintReport)], lang: Lang) -> Value {
    let mut diagnostics = Vec::new();
    for (file, text, report) in results {
        for diagnostic in &report.diagnostics {
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
            diagnostics.push(item);
        }
    }
    json!({ "diagnostics": diagnostics })
}

fn sarif_output(results: &[(String, String, LintReport)], lang: Lang) -> Value {
    let mut sarif_results = Vec::new();
    for (file, text, report) in results {
        for diagnostic in &report.diagnostics {
            let (line, column, end_line, end_column) = positions(text, report, diagnostic);
            let level = match diagnostic.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "note",
            };
            sarif_results.push(json!({
                "ruleId": diagnostic.rule, "level": level,
                "message": {"text": diagnostic.message.get(lang)},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": file},
                    "region": {"startLine": line, "startColumn": column, "endLine": end_line, "endColumn": end_column}
                }}]
            }));
        }
    }
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "podlab", "informationUri": "https://podlab.dev", "rules": []}},
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
    for (file, text, report) in results {
        for diagnostic in &report.diagnostics {
            match diagnostic.severity {
                Severity::Error => errors += 1,
                Severity::Warning => warnings += 1,
                Severity::Info => infos += 1,
            }
            let (line, column, end_line, end_column) = positions(text, report, diagnostic);
            let severity = ui::severity(diagnostic.severity);
            out.push_str(&format!(
                "{}[{}]: {}\n  --> {file}:{line}:{column}\n",
                severity.get(lang),
                diagnostic.rule,
                diagnostic.message.get(lang)
            ));
            let line_span = report.index.line_span(text, line);
            let source = text.get(line_span.start..line_span.end).unwrap_or("");
            let gutter = " ".repeat(line.to_string().len());
            let width = if end_line == line && end_column > column {
                end_column - column
            } else {
                1
            };
            out.push_str(&format!(
                "{gutter} |\n{line} | {source}\n{gutter} | {}{}\n",
                " ".repeat(column.saturating_sub(1)),
                "^".repeat(width)
            ));
            if let Some(help) = &diagnostic.help {
                out.push_str(&format!(
                    "{gutter} = {}: {}\n",
                    ui::help().get(lang),
                    help.get(lang)
                ));
            }
            if let Some(fix) = &diagnostic.fix {
                out.push_str(&format!(
                    "{gutter} = {}: {}\n",
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
    out
}
