//! `podlab lint`'s output: rustc-style text, DESIGN.md's JSON, SARIF and
//! GitHub Actions annotations. Serialization lives here, at the edge.

use podlab_core::diagnostic::{Diagnostic, Severity};
use podlab_core::i18n::{ui, Lang};
use podlab_core::lint::LintReport;
use podlab_core::rules;
use serde_json::{json, Value};

/// GitHub Actions workflow commands (`::error file=…,line=…::message`), which
/// Actions shows inline on a pull request's diff.
pub fn github_output(results: &[(String, String, LintReport)], lang: Lang) -> String {
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
pub fn json_output(results: &[(String, String, LintReport)], lang: Lang) -> Value {
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

pub fn sarif_output(results: &[(String, String, LintReport)], lang: Lang) -> Value {
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
pub fn text_output(results: &[(String, String, LintReport)], lang: Lang) -> String {
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
