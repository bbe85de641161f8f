//! Diagnostics are data: a rule, a severity, a byte span, a bilingual message,
//! an optional help text and an optional machine-applicable fix.
//!
//! Spans are byte ranges; 1-based lines and columns are computed only when a
//! diagnostic is rendered (see [`crate::span::LineIndex`]).

use crate::i18n::Text;
use crate::span::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    /// The word a reader sees, in both languages (the CLI's `error[PL201]`,
    /// the page's list). Here rather than in `i18n`, which knows no
    /// diagnostic: `i18n` sits below `diagnostic` (ARCHITECTURE.md).
    pub fn word(self) -> Text {
        match self {
            Severity::Error => Text::new("error", "錯誤"),
            Severity::Warning => Text::new("warning", "警告"),
            Severity::Info => Text::new("info", "資訊"),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// Replace the bytes of `span` with `text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextEdit {
    pub span: Span,
    pub text: String,
}

/// A fix a tool may apply without asking: a description and its edits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    pub description: Text,
    pub edits: Vec<TextEdit>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The rule ID, `PL201`.
    pub rule: &'static str,
    /// The rule name, `liveness-kills-slow-start`.
    pub name: &'static str,
    pub severity: Severity,
    pub span: Span,
    pub message: Text,
    pub help: Option<Text>,
    pub fix: Option<Fix>,
}

impl Diagnostic {
    /// A diagnostic of rule `(id, name)` without help or fix.
    pub fn new(
        rule: (&'static str, &'static str),
        severity: Severity,
        span: Span,
        message: Text,
    ) -> Diagnostic {
        Diagnostic {
            rule: rule.0,
            name: rule.1,
            severity,
            span,
            message,
            help: None,
            fix: None,
        }
    }

    pub fn with_help(mut self, help: Text) -> Diagnostic {
        self.help = Some(help);
        self
    }

    pub fn with_fix(mut self, fix: Fix) -> Diagnostic {
        self.fix = Some(fix);
        self
    }
}

/// Applies non-overlapping edits to a text. Edits that overlap an earlier one,
/// or fall outside the text or off a character boundary, are skipped.
pub fn apply_edits(text: &str, edits: &[TextEdit]) -> String {
    let mut sorted: Vec<&TextEdit> = edits.iter().collect();
    crate::sort::sort_by_key(&mut sorted, |edit| (edit.span.start, edit.span.end));
    let mut out = String::with_capacity(text.len() + 64);
    let mut cursor = 0;
    for edit in sorted {
        let (start, end) = (edit.span.start, edit.span.end);
        if start < cursor
            || end > text.len()
            || start > end
            || !text.is_char_boundary(start)
            || !text.is_char_boundary(end)
        {
            continue;
        }
        out.push_str(&text[cursor..start]);
        out.push_str(&edit.text);
        cursor = end;
    }
    out.push_str(&text[cursor..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_apply_in_order_and_skip_overlaps() {
        let edits = vec![
            TextEdit {
                span: Span::new(4, 5),
                text: "X".into(),
            },
            TextEdit {
                span: Span::new(0, 1),
                text: "ab".into(),
            },
            TextEdit {
                span: Span::new(4, 6),
                text: "never".into(),
            },
        ];
        assert_eq!(apply_edits("0123456", &edits), "ab123X56");
    }
}
