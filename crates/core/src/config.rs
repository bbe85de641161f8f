//! `.podlab.yaml`: a repository's lint settings, read from its text with the
//! core's own YAML reader. Finding the file and reading what it names is the
//! CLI's work; this is a pure function of the text.
//!
//! ```yaml
//! select: [PL1, PL2]              # only these rules (IDs, ID prefixes or names)
//! ignore: [PL004, PL301]          # findings of these are listed as suppressed
//! severity: { PL203: error }      # error | warning | info
//! scenario: cluster/scenario.yaml # applied to every manifest without its own
//! exclude: [charts/, "**/templates/**"]   # paths a directory walk skips
//! ```

use crate::diagnostic::{Diagnostic, Severity};
use crate::manifest::schema::closest;
use crate::manifest::validate::invalid_value;
use crate::manifest::yaml::{self, Limits, Node};
use crate::span::{LineIndex, Span};
use crate::text;

pub const KEYS: [&str; 5] = ["select", "ignore", "severity", "scenario", "exclude"];

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Config {
    pub select: Vec<String>,
    pub ignore: Vec<String>,
    pub severity: Vec<(String, Severity)>,
    /// As written: relative to the config file's directory.
    pub scenario: Option<String>,
    pub exclude: Vec<String>,
}

/// Reads a config text. Every problem is a diagnostic with a span (an
/// unknown key gets PL002's "did you mean"); the parts that could be read
/// are returned all the same.
pub fn parse(text: &str) -> (Config, Vec<Diagnostic>, LineIndex) {
    let index = LineIndex::new(text);
    let stream = yaml::parse(text, &index, &Limits::default());
    let mut problems = stream.diagnostics;
    let mut config = Config::default();
    let root = stream.documents.iter().find_map(|d| d.root.as_ref());
    let Some(root) = root.filter(|root| !root.is_null()) else {
        return (config, problems, index);
    };
    let Some(entries) = root.entries() else {
        problems.push(invalid_value(
            root.span,
            text!(
                "the config must be a mapping of settings",
                "設定檔必須是設定項目的 mapping"
            ),
        ));
        return (config, problems, index);
    };
    for entry in entries {
        let value = &entry.value;
        match entry.key_str() {
            "select" => config.select = patterns(value, &mut problems),
            "ignore" => config.ignore = patterns(value, &mut problems),
            "severity" => {
                for item in value.entries().unwrap_or_default() {
                    let level = match item.value.as_str().unwrap_or("") {
                        "error" => Severity::Error,
                        "warning" => Severity::Warning,
                        "info" => Severity::Info,
                        other => {
                            problems.push(invalid_value(
                                item.value.span,
                                text!(
                                    "severity `{other}` is not one of error, warning, info",
                                    "嚴重程度 `{other}` 不是 error、warning、info 之一"
                                ),
                            ));
                            continue;
                        }
                    };
                    if check(item.key_str(), item.key.span, &mut problems) {
                        config.severity.push((item.key_str().to_string(), level));
                    }
                }
                if value.entries().is_none() {
                    problems.push(expected(value.span, "a mapping", "mapping"));
                }
            }
            "scenario" => match value.as_str().filter(|path| !path.is_empty()) {
                Some(path) => config.scenario = Some(path.to_string()),
                None => problems.push(expected(value.span, "a file path", "檔案路徑")),
            },
            "exclude" => config.exclude = strings(value, &mut problems),
            key => {
                let (meant_en, meant_zh) = match closest(key, KEYS.into_iter()) {
                    Some(meant) => (
                        format!(": did you mean `{meant}`?"),
                        format!("：是不是要寫 `{meant}`？"),
                    ),
                    None => (String::new(), String::new()),
                };
                let keys = KEYS.join(", ");
                problems.push(
                    Diagnostic::new(
                        ("PL002", "unknown-field"),
                        Severity::Error,
                        entry.key.span,
                        text!(
                            "unknown setting \"{key}\"{meant_en}",
                            "不認得的設定 \"{key}\"{meant_zh}"
                        ),
                    )
                    .with_help(text!("the settings are {keys}", "可用的設定有 {keys}")),
                );
            }
        }
    }
    (config, problems, index)
}

fn expected(span: Span, en: &str, zh: &str) -> Diagnostic {
    invalid_value(span, text!("expected {en} here", "這裡應該是{zh}"))
}

/// A list of strings (a lone string is a list of one).
fn strings(value: &Node, problems: &mut Vec<Diagnostic>) -> Vec<String> {
    let items = match value.items() {
        Some(items) => items,
        None => std::slice::from_ref(value),
    };
    let mut out = Vec::new();
    for item in items {
        match item.as_str().filter(|s| !s.is_empty()) {
            Some(s) => out.push(s.to_string()),
            None => problems.push(expected(item.span, "a string", "字串")),
        }
    }
    out
}

fn patterns(value: &Node, problems: &mut Vec<Diagnostic>) -> Vec<String> {
    let mut out = strings(value, problems);
    let spans: Vec<Span> = value.items().map_or(vec![value.span], |items| {
        items.iter().map(|i| i.span).collect()
    });
    let mut index = 0;
    out.retain(|pattern| {
        let span = spans.get(index).copied().unwrap_or(value.span);
        index += 1;
        check(pattern, span, problems)
    });
    out
}

/// Whether a rule pattern names some rule; else a diagnostic at `span`.
fn check(pattern: &str, span: Span, problems: &mut Vec<Diagnostic>) -> bool {
    match crate::suppress::check_pattern(pattern) {
        Ok(()) => true,
        Err(meant) => {
            let (meant_en, meant_zh) = match meant {
                Some(meant) => (
                    format!(": did you mean `{meant}`?"),
                    format!("：是不是要寫 `{meant}`？"),
                ),
                None => (String::new(), String::new()),
            };
            problems.push(invalid_value(
                span,
                text!(
                    "`{pattern}` names no podlab rule{meant_en}",
                    "`{pattern}` 不是 podlab 的規則{meant_zh}"
                ),
            ));
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_config_reads() {
        let text = "select: [PL1, PL2]\nignore: PL004\nseverity: {PL203: error}\nscenario: cluster.yaml\nexclude: [charts/]\n";
        let (config, problems, _) = parse(text);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(config.select, ["PL1", "PL2"]);
        assert_eq!(config.ignore, ["PL004"]);
        assert_eq!(config.severity, [("PL203".to_string(), Severity::Error)]);
        assert_eq!(config.scenario.as_deref(), Some("cluster.yaml"));
        assert_eq!(config.exclude, ["charts/"]);
    }

    #[test]
    fn typos_get_did_you_mean_at_their_line_and_column() {
        let text =
            "ignore: [PL004]\nexlude: [vendor/]\nselect: [PL2O1]\nseverity: {PL201: fatal}\n";
        let (config, problems, index) = parse(text);
        let found: Vec<(usize, usize, String)> = problems
            .iter()
            .map(|d| {
                let at = index.line_col(text, d.span.start);
                (at.line, at.column, d.message.en.clone())
            })
            .collect();
        assert_eq!(
            found[0],
            (
                2,
                1,
                "unknown setting \"exlude\": did you mean `exclude`?".into()
            )
        );
        assert_eq!(
            found[1],
            (
                3,
                10,
                "`PL2O1` names no podlab rule: did you mean `PL201`?".into()
            )
        );
        assert!(found[2].2.contains("`fatal`"), "{found:?}");
        assert_eq!(found[2].0, 4);
        assert_eq!(config.ignore, ["PL004"]);
        assert!(config.select.is_empty());
        // Broken YAML is a PL001 with a position, never a panic.
        let (_, problems, _) = parse("ignore: [PL004\n");
        assert_eq!(problems[0].rule, "PL001");
    }
}
