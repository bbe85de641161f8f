//! Registry tests: every rule is documented in both languages, and its own
//! failing and fixed examples behave as the doc says.

use super::*;
use crate::diagnostic::apply_edits;
use crate::lint::{lint_with, LintOptions};

/// Every rule, PL004 included (it is quiet unless asked).
fn lint(text: &str) -> crate::lint::LintReport {
    lint_with(text, &LintOptions { verbose: true })
}

#[test]
fn ids_and_names_are_unique_and_ordered() {
    for pair in RULES.windows(2) {
        assert!(
            pair[0].id < pair[1].id,
            "{} before {}",
            pair[0].id,
            pair[1].id
        );
    }
    for rule in RULES {
        assert!(
            rule.id.len() == 5 && rule.id.starts_with("PL"),
            "{}",
            rule.id
        );
        assert!(
            rule.name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c == '-'),
            "{} name {}",
            rule.id,
            rule.name
        );
        let same_name = RULES.iter().filter(|other| other.name == rule.name).count();
        assert_eq!(same_name, 1, "{} name not unique", rule.id);
    }
    assert_eq!(find("pl201").map(|rule| rule.id), Some("PL201"));
    assert_eq!(
        find("liveness-kills-slow-start").map(|rule| rule.id),
        Some("PL201")
    );
    assert!(find("PL999").is_none());
}

#[test]
fn every_rule_is_documented_in_both_languages() {
    for rule in RULES {
        for (part, words) in [
            ("summary", rule.summary),
            ("what", rule.what),
            ("why", rule.why),
            ("fix", rule.fix),
        ] {
            assert!(!words.en.trim().is_empty(), "{} {part} en", rule.id);
            assert!(!words.zh_tw.trim().is_empty(), "{} {part} zh-TW", rule.id);
            assert!(
                words
                    .zh_tw
                    .chars()
                    .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "{} {part}: zh-TW text has no Chinese",
                rule.id
            );
        }
        assert!(
            !rule.failing.trim().is_empty(),
            "{} failing example",
            rule.id
        );
        assert!(!rule.fixed.trim().is_empty(), "{} fixed example", rule.id);
    }
}

#[test]
fn failing_examples_fire_and_fixed_examples_do_not() {
    for rule in RULES {
        let failing = lint(rule.failing);
        assert!(
            failing.diagnostics.iter().any(|d| d.rule == rule.id),
            "{}: its failing example does not report it: {:?}",
            rule.id,
            failing
                .diagnostics
                .iter()
                .map(|d| (d.rule, &d.message.en))
                .collect::<Vec<_>>()
        );
        let fixed = lint(rule.fixed);
        let errors: Vec<_> = fixed
            .diagnostics
            .iter()
            .filter(|d| d.rule == rule.id || d.severity == Severity::Error)
            .map(|d| (d.rule, d.message.en.clone()))
            .collect();
        assert!(
            errors.is_empty(),
            "{}: its fixed example still reports {errors:?}",
            rule.id
        );
    }
}

#[test]
fn fixes_in_the_failing_examples_remove_what_they_fix() {
    for rule in RULES {
        let before = lint(rule.failing);
        let count = |report: &crate::lint::LintReport| {
            report
                .diagnostics
                .iter()
                .filter(|d| d.rule == rule.id)
                .count()
        };
        for diagnostic in before.diagnostics.iter().filter(|d| d.rule == rule.id) {
            let Some(fix) = &diagnostic.fix else { continue };
            assert!(!fix.description.en.is_empty() && !fix.description.zh_tw.is_empty());
            let applied = apply_edits(rule.failing, &fix.edits);
            let after = lint(&applied);
            assert!(
                count(&after) < count(&before),
                "{}: applying the fix did not remove it:\n{applied}",
                rule.id
            );
            assert!(
                !after
                    .diagnostics
                    .iter()
                    .any(|d| d.rule == "PL001" || d.rule == "PL002"),
                "{}: the fix broke the YAML:\n{applied}",
                rule.id
            );
        }
    }
}

#[test]
fn startup_threshold_covers_the_load_with_half_again() {
    assert_eq!(
        pl201_liveness_kills_slow_start::covering_threshold(40_000, 0, 10),
        6
    );
    assert_eq!(
        pl201_liveness_kills_slow_start::covering_threshold(120_000, 0, 10),
        18
    );
    // 1.5 × 5 s fits in one period, but a first probe at the start would
    // kill at 0 s: one more.
    assert_eq!(
        pl201_liveness_kills_slow_start::covering_threshold(5_000, 0, 10),
        2
    );
    assert_eq!(
        pl201_liveness_kills_slow_start::covering_threshold(60_000, 30_000, 10),
        6
    );
}
