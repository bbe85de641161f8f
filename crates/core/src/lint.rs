//! The linter's entry point: text in, diagnostics out. Never fails.
//!
//! [`read`] (`manifest/read.rs`, re-exported here) runs the YAML reader (PL001, PL005), the flattened-indentation
//! hint (PL001, its fix rebuilt by `manifest::reindent`), the structural
//! checks against the API's field tables (PL002 unknown-field, PL003
//! invalid-value), marks objects that are not
//! simulated (PL004, info) and lowers the rest to typed workloads and the
//! Scenario; an Exercise document (`manifest::exercise`) is checked the same way and
//! lowered only for its diagnostics. [`lint`] then runs the rule registry on
//! them, and applies the text's own suppressions (`suppress`).

use crate::diagnostic::{Diagnostic, Severity};
use crate::manifest::yaml;
use crate::rules;
use crate::span::{LineIndex, Span};
use crate::text;

pub use crate::manifest::read::{read, Reading, NOT_SIMULATED};

/// The result of linting one file.
#[derive(Clone, Debug)]
pub struct LintReport {
    /// Sorted by position, then rule.
    pub diagnostics: Vec<Diagnostic>,
    /// Findings silenced by an annotation or comment in the text (later by
    /// the CLI's `--ignore` and `.podlab.yaml` too), in the order found.
    pub suppressed: Vec<crate::suppress::Suppressed>,
    pub index: LineIndex,
}

impl LintReport {
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|diagnostic| diagnostic.severity == Severity::Error)
    }
}

/// What a caller asks of [`lint_with`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LintOptions {
    /// Also report PL004 (`not-simulated`) for every document of a kind podlab
    /// does not simulate. Off by default (issue 14): a real repository mixes
    /// Services, ConfigMaps and custom resources with its workloads, and one
    /// `info` line for each buried the findings. The CLI's `--verbose` sets it.
    pub verbose: bool,
}

/// Lints one YAML text (one or more documents, manifests and at most one
/// Scenario) with the default options.
pub fn lint(text: &str) -> LintReport {
    lint_with(text, &LintOptions::default())
}

/// Lints one YAML text as [`lint`] does, with `options`.
pub fn lint_with(text: &str, options: &LintOptions) -> LintReport {
    let Reading {
        workloads,
        scenario,
        services,
        unread_kinds,
        autoscalers,
        mut diagnostics,
        index,
        ..
    } = read(text);
    if !options.verbose {
        // Quiet: a document of a kind podlab skips. Said anyway: a PL004
        // with `help`, about part of a simulated object that podlab skips
        // (an autoscaler on a StatefulSet, `manifest::read`), which changes
        // what the run shows.
        diagnostics
            .retain(|diagnostic| diagnostic.rule != NOT_SIMULATED.0 || diagnostic.help.is_some());
    }
    let context = rules::Context {
        text,
        workloads: &workloads,
        scenario: &scenario,
        services: &services,
        unread_kinds: &unread_kinds,
        autoscalers: &autoscalers,
    };
    rules::run(&context, &mut diagnostics);
    let mut suppressed = Vec::new();
    crate::suppress::apply_in_source(text, &index, &mut diagnostics, &mut suppressed);
    crate::sort::sort_by(&mut diagnostics, |a, b| {
        (a.span.start, a.rule).cmp(&(b.span.start, b.rule))
    });
    if diagnostics.len() > MAX_DIAGNOSTICS {
        let omitted = diagnostics.len() - MAX_DIAGNOSTICS;
        let at = diagnostics[MAX_DIAGNOSTICS].span.start;
        diagnostics.truncate(MAX_DIAGNOSTICS);
        diagnostics.push(Diagnostic::new(
            yaml::RULE_LIMIT,
            Severity::Info,
            Span::new(at, at),
            text!(
                "{omitted} more diagnostics are not shown; podlab shows the first {MAX_DIAGNOSTICS}",
                "還有 {omitted} 則診斷沒有列出；podlab 只列出前 {MAX_DIAGNOSTICS} 則"
            ),
        ));
    }
    LintReport {
        diagnostics,
        suppressed,
        index,
    }
}

/// Past this many diagnostics a report says how many more there are instead
/// of listing them (a page, not a log file).
pub const MAX_DIAGNOSTICS: usize = 1000;

#[cfg(test)]
mod tests {
    use super::*;

    fn rules_and_lines(text: &str) -> Vec<(&'static str, usize)> {
        let report = lint(text);
        report
            .diagnostics
            .iter()
            .map(|d| (d.rule, report.index.line_col(text, d.span.start).line))
            .collect()
    }

    #[test]
    fn misspelt_probe_field_is_reported_with_the_field_meant() {
        let text = "apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec:\n  containers:\n    - name: api\n      image: nginx:1.27\n      livenesProbe:\n        httpGet: {path: /health, port: 8000}\n";
        assert_eq!(rules_and_lines(text), vec![("PL002", 8)]);
        let report = lint(text);
        assert!(report.diagnostics[0].message.en.contains("livenessProbe"));
        let fixed = crate::diagnostic::apply_edits(
            text,
            &report.diagnostics[0].fix.as_ref().unwrap().edits,
        );
        assert!(!lint(&fixed).diagnostics.iter().any(|d| d.rule == "PL002"));
    }

    #[test]
    fn field_one_level_too_deep_says_where_it_belongs() {
        let text = "apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec:\n  containers:\n    - name: api\n      image: nginx:1.27\n      terminationGracePeriodSeconds: 60\n";
        let report = lint(text);
        assert_eq!(rules_and_lines(text), vec![("PL002", 8)]);
        assert!(report.diagnostics[0]
            .help
            .as_ref()
            .unwrap()
            .en
            .contains("pod spec, one level up"));
    }

    #[test]
    fn bad_quantities_and_unquoted_env_values_are_invalid() {
        let text = "apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec:\n  containers:\n    - name: api\n      image: nginx:1.27\n      env: [{name: DEBUG, value: true}]\n      resources:\n        limits: {memory: 8GB}\n";
        assert_eq!(rules_and_lines(text), vec![("PL003", 8), ("PL003", 10)]);
    }

    #[test]
    fn flattened_paste_gets_one_sentence() {
        let text = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\nname: model-api\nspec:\nreplicas: 2\ntemplate:\nspec:\ncontainers:\n- name: api\nimage: x\n";
        let report = lint(text);
        assert_eq!(report.diagnostics.len(), 1);
        assert!(report.diagnostics[0].message.en.contains("column 1"));
        // Its fix puts the indentation back, and the result reads clean.
        let fix = report.diagnostics[0].fix.as_ref().unwrap();
        let fixed = crate::diagnostic::apply_edits(text, &fix.edits);
        assert!(fixed.contains("\n  template:\n    spec:\n      containers:\n        - name: api\n          image: x\n"), "{fixed}");
        assert!(!lint(&fixed).has_errors(), "{:?}", lint(&fixed).diagnostics);
    }

    #[test]
    fn a_flood_of_diagnostics_is_cut_with_a_count() {
        let text: String = (0..3000).map(|_| "a: 1\n").collect();
        let report = lint(&text);
        assert_eq!(report.diagnostics.len(), MAX_DIAGNOSTICS + 1);
        let last = report.diagnostics.last().unwrap();
        assert_eq!(last.rule, "PL005");
        assert!(
            last.message.en.starts_with("1999 more diagnostics"),
            "{}",
            last.message
        );
    }

    #[test]
    fn other_kinds_are_reported_as_not_simulated_only_when_asked() {
        let text = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {a: b}\n";
        assert_eq!(rules_and_lines(text), vec![]);
        let verbose = lint_with(text, &LintOptions { verbose: true });
        let found: Vec<_> = verbose
            .diagnostics
            .iter()
            .map(|d| (d.rule, verbose.index.line_col(text, d.span.start).line))
            .collect();
        assert_eq!(found, vec![("PL004", 2)]);
    }
}
