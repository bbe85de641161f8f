//! Fixture tests: `tests/fixtures/rules/<ID>/{fail,pass}_*.yaml`.
//!
//! Each fixture says what it expects in a comment at its top:
//! `# expect: PL201@14` (the rule of its directory at line 14; several are
//! separated by commas) or `# expect: none`. The test lints the file and
//! compares the lines at which that rule fires with the expectation. Every
//! rule with a check needs at least one failing and one passing fixture.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use podlab_core::diagnostic::apply_edits;
use podlab_core::lint::lint;
use podlab_core::rules::RULES;

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rules")
}

/// `(file name, text, expected lines)` for each fixture of a rule.
fn fixtures(rule: &str) -> Vec<(String, String, Vec<usize>)> {
    let dir = fixtures_dir().join(rule);
    let Ok(entries) = fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for entry in entries {
        let path = entry.expect("directory entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("yaml") {
            continue;
        }
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        let text = fs::read_to_string(&path).expect("fixture is UTF-8");
        let expect = text
            .lines()
            .find_map(|line| line.strip_prefix("# expect:"))
            .unwrap_or_else(|| panic!("{rule}/{name}: no `# expect:` line"))
            .trim();
        let lines = if expect == "none" {
            Vec::new()
        } else {
            expect
                .split(',')
                .map(|item| {
                    let (id, line) = item
                        .trim()
                        .split_once('@')
                        .unwrap_or_else(|| panic!("{rule}/{name}: bad expectation {item:?}"));
                    assert_eq!(id, rule, "{rule}/{name}: expectation for another rule");
                    line.parse()
                        .unwrap_or_else(|_| panic!("{rule}/{name}: bad line {line:?}"))
                })
                .collect()
        };
        out.push((name, text, lines));
    }
    out.sort();
    out
}

#[test]
fn every_fixture_reports_its_rule_at_the_expected_lines() {
    let mut failures = Vec::new();
    let mut counted: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for rule in RULES {
        for (name, text, expected) in fixtures(rule.id) {
            let report = lint(&text);
            let mut got: Vec<usize> = report
                .diagnostics
                .iter()
                .filter(|d| d.rule == rule.id)
                .map(|d| report.index.line_col(&text, d.span.start).line)
                .collect();
            got.sort_unstable();
            let mut want = expected.clone();
            want.sort_unstable();
            if got != want {
                failures.push(format!(
                    "{}/{name}: expected lines {want:?}, got {got:?}; all: {:?}",
                    rule.id,
                    report
                        .diagnostics
                        .iter()
                        .map(|d| format!(
                            "{}@{} {}",
                            d.rule,
                            report.index.line_col(&text, d.span.start).line,
                            d.message.en
                        ))
                        .collect::<Vec<_>>()
                ));
            }
            let entry = counted.entry(rule.id).or_default();
            if name.starts_with("fail") {
                assert!(
                    !want.is_empty(),
                    "{}/{name}: a fail_ fixture expects none",
                    rule.id
                );
                entry.0 += 1;
            } else if name.starts_with("pass") {
                assert!(
                    want.is_empty(),
                    "{}/{name}: a pass_ fixture expects some",
                    rule.id
                );
                entry.1 += 1;
            }
            // A fix must remove the diagnostic it is attached to and keep the YAML valid.
            for diagnostic in report.diagnostics.iter().filter(|d| d.rule == rule.id) {
                let Some(fix) = &diagnostic.fix else { continue };
                let fixed = apply_edits(&text, &fix.edits);
                let after = lint(&fixed);
                let before_count = report
                    .diagnostics
                    .iter()
                    .filter(|d| d.rule == rule.id)
                    .count();
                let after_count = after
                    .diagnostics
                    .iter()
                    .filter(|d| d.rule == rule.id)
                    .count();
                if after_count >= before_count
                    || after
                        .diagnostics
                        .iter()
                        .any(|d| d.rule == "PL001" || d.rule == "PL002")
                {
                    failures.push(format!(
                        "{}/{name}: fix `{}` did not remove the diagnostic or broke the YAML:\n{fixed}",
                        rule.id, fix.description.en
                    ));
                }
            }
        }
    }
    for rule in RULES.iter().filter(|rule| rule.check.is_some()) {
        let (fail, pass) = counted.get(rule.id).copied().unwrap_or_default();
        if fail == 0 || pass == 0 {
            failures.push(format!(
                "{}: needs at least one fail_ and one pass_ fixture (has {fail} and {pass})",
                rule.id
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
