//! The lint of one text as the page gets it from the kubectl worker
//! (`kubectl_worker::Ask::Lint`): the rules (`podlab_core::rules`, ~80 KB
//! gzip with their messages in both languages) run only in the worker, so
//! the page's first screen does not load them (docs/size.md "Linting in
//! the worker").
//!
//! [`Findings::of`] lints (the worker's side; the page never calls it);
//! [`Findings::push_fields`] and [`Findings::from_fields`] carry the
//! result across as `kubectl_worker::encode`'s fields, no serializer.

use std::cell::RefCell;

use podlab_core::diagnostic::{Diagnostic, Fix, Severity, TextEdit};
use podlab_core::i18n::Text;
use podlab_core::span::Span;

/// What the page shows of `podlab_core::lint::lint(text)`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Findings {
    /// The report's diagnostics, in its order (by position, then rule).
    pub diagnostics: Vec<Diagnostic>,
    /// For each diagnostic, its rule's one-line summary (`rules::find`),
    /// the rule ID's tooltip; `None` for a rule the registry does not list.
    pub summaries: Vec<Option<Text>>,
}

impl Findings {
    /// Lints `text` (`podlab_core::lint::lint`, the same report the page
    /// made before the rules moved to the worker).
    pub fn of(text: &str) -> Findings {
        let report = podlab_core::lint::lint(text);
        let summaries = report
            .diagnostics
            .iter()
            .map(|diagnostic| {
                podlab_core::rules::find(diagnostic.rule).map(|rule| rule.summary.text())
            })
            .collect();
        Findings {
            diagnostics: report.diagnostics,
            summaries,
        }
    }

    /// Appends the fields that [`Findings::from_fields`] reads back.
    pub fn push_fields(&self, out: &mut Vec<String>) {
        out.push(self.diagnostics.len().to_string());
        for (index, diagnostic) in self.diagnostics.iter().enumerate() {
            out.push(diagnostic.rule.to_owned());
            out.push(diagnostic.name.to_owned());
            out.push(diagnostic.severity.as_str().to_owned());
            out.push(diagnostic.span.start.to_string());
            out.push(diagnostic.span.end.to_string());
            push_text(out, &diagnostic.message);
            push_optional(out, diagnostic.help.as_ref());
            match &diagnostic.fix {
                None => out.push(String::new()),
                Some(fix) => {
                    out.push(fix.edits.len().to_string());
                    push_text(out, &fix.description);
                    for edit in &fix.edits {
                        out.push(edit.span.start.to_string());
                        out.push(edit.span.end.to_string());
                        out.push(edit.text.clone());
                    }
                }
            }
            push_optional(out, self.summaries.get(index).and_then(Option::as_ref));
        }
    }

    /// Reads what [`Findings::push_fields`] wrote; `None` for anything else.
    pub fn from_fields<'a>(fields: &mut impl Iterator<Item = &'a str>) -> Option<Findings> {
        let count: usize = fields.next()?.parse().ok()?;
        let mut findings = Findings::default();
        for _ in 0..count {
            let rule = intern(fields.next()?);
            let name = intern(fields.next()?);
            let severity = match fields.next()? {
                "error" => Severity::Error,
                "warning" => Severity::Warning,
                "info" => Severity::Info,
                _ => return None,
            };
            let span = read_span(fields)?;
            let message = read_text(fields)?;
            let help = read_optional(fields)?;
            let fix = match fields.next()? {
                "" => None,
                edits => {
                    let edits: usize = edits.parse().ok()?;
                    let description = read_text(fields)?;
                    let mut fix = Fix {
                        description,
                        edits: Vec::new(),
                    };
                    for _ in 0..edits {
                        let span = read_span(fields)?;
                        let text = fields.next()?.to_owned();
                        fix.edits.push(TextEdit { span, text });
                    }
                    Some(fix)
                }
            };
            findings.diagnostics.push(Diagnostic {
                rule,
                name,
                severity,
                span,
                message,
                help,
                fix,
            });
            findings.summaries.push(read_optional(fields)?);
        }
        Some(findings)
    }
}

fn push_text(out: &mut Vec<String>, text: &Text) {
    out.push(text.en.clone());
    out.push(text.zh_tw.clone());
}

/// A flag field (`1` or empty), then the text when there is one.
fn push_optional(out: &mut Vec<String>, text: Option<&Text>) {
    match text {
        Some(text) => {
            out.push("1".to_owned());
            push_text(out, text);
        }
        None => out.push(String::new()),
    }
}

fn read_text<'a>(fields: &mut impl Iterator<Item = &'a str>) -> Option<Text> {
    Some(Text::new(fields.next()?, fields.next()?))
}

fn read_optional<'a>(fields: &mut impl Iterator<Item = &'a str>) -> Option<Option<Text>> {
    match fields.next()? {
        "" => Some(None),
        "1" => Some(Some(read_text(fields)?)),
        _ => None,
    }
}

fn read_span<'a>(fields: &mut impl Iterator<Item = &'a str>) -> Option<Span> {
    let start = fields.next()?.parse().ok()?;
    let end = fields.next()?.parse().ok()?;
    Some(Span::new(start, end))
}

/// A rule's ID or name as the `&'static str` a `Diagnostic` holds: each
/// distinct word is kept once for the page's lifetime (there are a few
/// dozen rules), so decoding a report allocates nothing that stays.
fn intern(word: &str) -> &'static str {
    thread_local! {
        static WORDS: RefCell<Vec<&'static str>> = const { RefCell::new(Vec::new()) };
    }
    WORDS.with(|words| {
        let mut words = words.borrow_mut();
        if let Some(known) = words.iter().find(|known| **known == word) {
            return *known;
        }
        let kept: &'static str = Box::leak(Box::from(word));
        words.push(kept);
        kept
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(findings: &Findings) -> Option<Findings> {
        let mut fields = Vec::new();
        findings.push_fields(&mut fields);
        let encoded =
            crate::kubectl_worker::encode(&fields.iter().map(String::as_str).collect::<Vec<_>>());
        let decoded = crate::kubectl_worker::decode(&encoded)?;
        let mut fields = decoded.into_iter();
        let back = Findings::from_fields(&mut fields)?;
        fields.next().is_none().then_some(back)
    }

    #[test]
    fn a_report_crosses_the_boundary_unchanged() {
        let text = include_str!("../../tests/golden/crash-loop-liveness-40s.yaml");
        let mut findings = Findings::of(text);
        assert!(
            findings
                .diagnostics
                .iter()
                .any(|d| d.rule == "PL201" && d.fix.is_some()),
            "{:?}",
            findings.diagnostics
        );
        assert!(findings.summaries.iter().all(Option::is_some));
        // Help, fixes with several edits, a rule without a summary, text
        // that looks like the encoding.
        findings.diagnostics.push(Diagnostic {
            rule: "PL999",
            name: "test-only",
            severity: Severity::Info,
            span: Span::new(3, 3),
            message: Text::new("a `b`: 12:x", "中文：「12:x」"),
            help: Some(Text::new("", "")),
            fix: Some(Fix {
                description: Text::new("two edits", "兩處修改"),
                edits: vec![
                    TextEdit {
                        span: Span::new(0, 1),
                        text: "3:abc\n".into(),
                    },
                    TextEdit {
                        span: Span::new(5, 9),
                        text: String::new(),
                    },
                ],
            }),
        });
        findings.summaries.push(None);
        assert_eq!(round_trip(&findings), Some(findings));
        assert_eq!(round_trip(&Findings::default()), Some(Findings::default()));
    }

    #[test]
    fn every_language_and_the_rule_summary_are_carried() {
        let findings = Findings::of("a: [");
        let back = round_trip(&findings).expect("decodes");
        let first = &back.diagnostics[0];
        assert_eq!((first.rule, first.severity), ("PL001", Severity::Error));
        assert!(!first.message.en.is_empty() && !first.message.zh_tw.is_empty());
        assert_ne!(first.message.en, first.message.zh_tw);
        let summary = back.summaries[0].as_ref().expect("PL001 is registered");
        assert_eq!(
            summary,
            &podlab_core::rules::find("PL001").unwrap().summary.text()
        );
    }

    /// The fields of one PL001 diagnostic without help, fix or summary,
    /// after a count of `count` diagnostics, with `severity`.
    fn one_diagnostic(count: &'static str, severity: &'static str) -> [&'static str; 11] {
        [
            count,
            "PL001",
            "yaml-syntax",
            severity,
            "0",
            "1",
            "m",
            "m",
            "",
            "",
            "",
        ]
    }

    #[test]
    fn broken_fields_are_refused() {
        let fields = one_diagnostic("1", "fatal");
        assert_eq!(Findings::from_fields(&mut fields.into_iter()), None);
        let short = one_diagnostic("2", "error");
        assert_eq!(Findings::from_fields(&mut short.into_iter()), None);
        let one = one_diagnostic("1", "error");
        let decoded = Findings::from_fields(&mut one.into_iter()).expect("one");
        assert_eq!(decoded.diagnostics[0].rule, "PL001");
        assert!(std::ptr::eq(
            decoded.diagnostics[0].rule,
            Findings::from_fields(&mut one.into_iter())
                .unwrap()
                .diagnostics[0]
                .rule
        ));
    }
}
