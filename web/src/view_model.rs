//! Pure functions from core results to plain display data: no Html, no DOM,
//! so everything here is unit-tested natively.
//!
//! Invariant: every string produced here is taken from a bilingual `Text`
//! (`podlab_core::i18n`, or this crate's `i18n`) in the requested language.

use podlab_core::diagnostic::Severity;
use podlab_core::i18n::{ui, Lang};
use podlab_core::lint::LintReport;

use crate::i18n;

/// One diagnostic as the list shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiagnosticRow {
    /// The diagnostic's position in `LintReport::diagnostics`, which is what
    /// the fix button sends back.
    pub index: usize,
    /// A key for Yew's list diffing, unique within one report.
    pub key: String,
    pub rule: &'static str,
    pub severity: Severity,
    pub severity_word: String,
    pub message: String,
    /// "line 3, column 5", in the chosen language.
    pub position: String,
    /// The help text, with its label ("help") beside it.
    pub help: Option<(String, String)>,
    pub fix: Option<FixButton>,
    /// The rule's name and one-line summary (the rule ID's tooltip).
    pub rule_title: String,
    /// The span as UTF-16 offsets into the text, as a textarea's
    /// `setSelectionRange` counts, and its 1-based line.
    pub selection: Selection,
}

/// Where a diagnostic sits in the editor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selection {
    pub start: u32,
    pub end: u32,
    pub line: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixButton {
    pub label: String,
    /// What the fix does (the button's tooltip).
    pub title: String,
}

/// The rows of the diagnostics list, in the report's order (by position).
/// `text` must be the text the report was made from.
pub fn diagnostic_rows(text: &str, report: &LintReport, lang: Lang) -> Vec<DiagnosticRow> {
    report
        .diagnostics
        .iter()
        .enumerate()
        .map(|(index, diagnostic)| {
            let start = report.index.line_col(text, diagnostic.span.start);
            let rule_title = podlab_core::rules::find(diagnostic.rule)
                .map(|rule| format!("{}: {}", rule.name, rule.summary.get(lang)))
                .unwrap_or_else(|| diagnostic.name.to_owned());
            DiagnosticRow {
                rule_title,
                selection: Selection {
                    start: utf16_offset(text, diagnostic.span.start),
                    end: utf16_offset(text, diagnostic.span.end.max(diagnostic.span.start)),
                    line: start.line,
                },
                index,
                key: format!("{}@{}#{index}", diagnostic.rule, diagnostic.span.start),
                rule: diagnostic.rule,
                severity: diagnostic.severity,
                severity_word: ui::severity(diagnostic.severity).get(lang).to_owned(),
                message: diagnostic.message.get(lang).to_owned(),
                position: ui::line_column(start.line, start.column)
                    .get(lang)
                    .to_owned(),
                help: diagnostic
                    .help
                    .as_ref()
                    .map(|help| (ui::help().get(lang).to_owned(), help.get(lang).to_owned())),
                fix: diagnostic
                    .fix
                    .as_ref()
                    .filter(|fix| !fix.edits.is_empty())
                    .map(|fix| FixButton {
                        label: i18n::fix_button().get(lang).to_owned(),
                        title: i18n::apply_fix(&fix.description).get(lang).to_owned(),
                    }),
            }
        })
        .collect()
}

/// Splits text at backticks into plain and code pieces (`(is_code, piece)`),
/// so `kubectl describe pod` in a message shows as code. An unpaired
/// backtick is kept as written.
pub fn code_spans(text: &str) -> Vec<(bool, String)> {
    let pieces: Vec<&str> = text.split('`').collect();
    if pieces.len().is_multiple_of(2) {
        // Odd number of backticks: nothing is marked.
        return vec![(false, text.to_owned())];
    }
    pieces
        .iter()
        .enumerate()
        .filter(|(_, piece)| !piece.is_empty())
        .map(|(i, piece)| (i % 2 == 1, (*piece).to_owned()))
        .collect()
}

/// A byte offset as a count of UTF-16 code units (what the DOM counts);
/// offsets past the end or inside a character are clamped back.
pub fn utf16_offset(text: &str, byte: usize) -> u32 {
    let mut byte = byte.min(text.len());
    while !text.is_char_boundary(byte) {
        byte -= 1;
    }
    let units: usize = text[..byte].chars().map(char::len_utf16).sum();
    u32::try_from(units).unwrap_or(u32::MAX)
}

/// "1 error(s), 0 warning(s), 0 info", or "No problems found.".
pub fn summary(report: &LintReport, lang: Lang) -> String {
    let count = |severity: Severity| {
        report
            .diagnostics
            .iter()
            .filter(|diagnostic| diagnostic.severity == severity)
            .count()
    };
    if report.diagnostics.is_empty() {
        ui::no_problems().get(lang).to_owned()
    } else {
        ui::summary(
            count(Severity::Error),
            count(Severity::Warning),
            count(Severity::Info),
        )
        .get(lang)
        .to_owned()
    }
}

/// The CSS class that colours a severity.
pub fn severity_class(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "sev-error",
        Severity::Warning => "sev-warning",
        Severity::Info => "sev-info",
    }
}

/// The page's first language: `?lang=en|zh-TW` wins, then the browser's
/// language, then English.
pub fn initial_lang(query: &str, navigator_language: Option<&str>) -> Lang {
    query
        .trim_start_matches('?')
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(key, _)| *key == "lang")
        .and_then(|(_, value)| Lang::parse(value))
        .or_else(|| navigator_language.and_then(Lang::parse))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use podlab_core::lint::lint;

    fn rows(text: &str, lang: Lang) -> Vec<DiagnosticRow> {
        diagnostic_rows(text, &lint(text), lang)
    }

    #[test]
    fn broken_flow_sequence_gives_one_pl001_row_on_line_1() {
        let rows = rows("a: [", Lang::En);
        assert_eq!(rows.len(), 1, "{rows:?}");
        assert_eq!(rows[0].rule, "PL001");
        assert_eq!(rows[0].severity, Severity::Error);
        assert_eq!(rows[0].severity_word, "error");
        assert!(rows[0].position.starts_with("line 1, column "), "{rows:?}");
        assert!(!rows[0].message.is_empty());
    }

    #[test]
    fn rows_speak_chinese_when_asked() {
        let chinese = rows("a: [", Lang::ZhTw);
        assert_eq!(chinese[0].severity_word, "錯誤");
        assert!(
            chinese[0].position.starts_with("第 1 行，第 "),
            "{chinese:?}"
        );
        assert_ne!(chinese[0].message, rows("a: [", Lang::En)[0].message);
    }

    #[test]
    fn default_text_has_no_errors() {
        let text = crate::DEFAULT_TEXT;
        let report = lint(text);
        assert!(!report.has_errors(), "{:?}", report.diagnostics);
    }

    #[test]
    fn a_diagnostic_with_a_fix_gets_a_button_describing_it() {
        use podlab_core::diagnostic::{Diagnostic, Fix, TextEdit};
        use podlab_core::i18n::Text;
        use podlab_core::span::Span;

        let text = "a: 1\nb: 2\n";
        let mut report = lint(text);
        report.diagnostics.push(Diagnostic {
            rule: "PL999",
            name: "test-rule",
            severity: Severity::Warning,
            span: Span::new(5, 6),
            message: Text::new("b is odd", "b 很奇怪"),
            help: Some(Text::new("rename it", "改名")),
            fix: Some(Fix {
                description: Text::new("rename b to c", "把 b 改成 c"),
                edits: vec![TextEdit {
                    span: Span::new(5, 6),
                    text: "c".into(),
                }],
            }),
        });
        let rows = diagnostic_rows(text, &report, Lang::ZhTw);
        let row = rows.last().expect("the added diagnostic");
        assert_eq!(row.position, "第 2 行，第 1 欄");
        assert_eq!(row.help, Some(("建議".to_owned(), "改名".to_owned())));
        assert_eq!(
            row.fix,
            Some(FixButton {
                label: "修正".to_owned(),
                title: "套用修正：把 b 改成 c".to_owned(),
            })
        );
        assert_eq!(
            summary(&report, Lang::En),
            "0 error(s), 1 warning(s), 0 info"
        );
    }

    #[test]
    fn summary_counts_or_says_nothing_found() {
        assert_eq!(summary(&lint("a: 1\n"), Lang::En), "No problems found.");
        assert_eq!(summary(&lint("a: 1\n"), Lang::ZhTw), "沒有發現問題。");
        assert_eq!(
            summary(&lint("a: ["), Lang::En),
            "1 error(s), 0 warning(s), 0 info"
        );
    }

    #[test]
    fn keys_are_unique_within_a_report() {
        let rows = rows("a: [\nb: ]\n", Lang::En);
        let mut keys: Vec<&str> = rows.iter().map(|row| row.key.as_str()).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), rows.len());
    }

    #[test]
    fn selections_count_utf16_units_like_the_dom() {
        // "名" is 3 bytes and 1 UTF-16 unit; "😀" is 4 bytes and 2 units.
        let text = "a: 名😀\nb: [";
        assert_eq!(utf16_offset(text, 3), 3);
        assert_eq!(utf16_offset(text, 6), 4);
        assert_eq!(utf16_offset(text, 10), 6);
        assert_eq!(utf16_offset(text, 4), 3, "inside a character: clamped back");
        assert_eq!(utf16_offset(text, 999), 11);
        let rows = rows(text, Lang::En);
        assert_eq!(rows[0].selection.line, 2);
        assert!(rows[0].selection.start >= 7, "{rows:?}");
    }

    #[test]
    fn backticks_become_code_pieces() {
        assert_eq!(
            code_spans("run `kubectl get pods` now"),
            vec![
                (false, "run ".to_owned()),
                (true, "kubectl get pods".to_owned()),
                (false, " now".to_owned())
            ]
        );
        assert_eq!(code_spans("a ` b"), vec![(false, "a ` b".to_owned())]);
        assert_eq!(code_spans("`x`"), vec![(true, "x".to_owned())]);
    }

    #[test]
    fn rule_ids_carry_their_name_and_summary() {
        let rows = rows("a: [", Lang::ZhTw);
        assert!(
            rows[0].rule_title.starts_with("yaml-syntax: YAML"),
            "{rows:?}"
        );
    }

    #[test]
    fn query_parameter_beats_browser_language() {
        assert_eq!(initial_lang("?lang=zh-TW", Some("en-US")), Lang::ZhTw);
        assert_eq!(initial_lang("?x=1&lang=en", Some("zh-TW")), Lang::En);
        assert_eq!(initial_lang("", Some("zh-Hant-TW")), Lang::ZhTw);
        assert_eq!(initial_lang("?lang=fr", Some("de")), Lang::En);
        assert_eq!(initial_lang("", None), Lang::En);
    }
}
