//! The linter's entry point: text in, diagnostics out. Never fails.

use crate::diagnostic::Diagnostic;
use crate::manifest::yaml::{self, Limits};
use crate::span::LineIndex;

/// The result of linting one file.
#[derive(Clone, Debug)]
pub struct LintReport {
    /// Sorted by position, then rule.
    pub diagnostics: Vec<Diagnostic>,
    pub index: LineIndex,
}

impl LintReport {
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|diagnostic| diagnostic.severity == crate::diagnostic::Severity::Error)
    }
}

/// Lints one YAML text (one or more documents, manifests and at most one Scenario).
pub fn lint(text: &str) -> LintReport {
    let index = LineIndex::new(text);
    let stream = yaml::parse(text, &index, &Limits::default());
    let mut diagnostics = stream.diagnostics;
    diagnostics.sort_by(|a, b| (a.span.start, a.rule).cmp(&(b.span.start, b.rule)));
    LintReport { diagnostics, index }
}
