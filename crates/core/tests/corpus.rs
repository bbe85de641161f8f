//! Lints every real manifest of the shared corpus (`crates/core/tests/corpus/`, a copy of
//! `../shared/corpus` kept in the repository so CI has it): no panic, every span inside its text and on character
//! boundaries, every line and column inside the file, every message in both
//! languages, and no YAML syntax error in files that are valid YAML.
//!
//! When the corpus is missing the test fails and says so, unless
//! `PODLAB_SKIP_CORPUS=1` is set.

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use podlab_core::diagnostic::Diagnostic;
use podlab_core::i18n::Text;
use podlab_core::lint::{lint, LintReport};

const CORPUS_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus");

/// Fewer files than this means the corpus was not copied completely.
const MIN_FILES: usize = 20;

/// Corpus files (relative paths) that are legitimately not valid YAML, so a
/// PL001 (yaml-syntax) there is expected, each with its reason. Empty today:
/// every file of the corpus is plain YAML (no Helm templates).
const NOT_VALID_YAML: &[(&str, &str)] = &[];

/// Rules that must never fire on a real manifest: PL001 yaml-syntax (these
/// files are valid YAML) and PL005 input-limit (they are far below every limit).
const FORBIDDEN_RULES: &[&str] = &["PL001", "PL005"];

/// The corpus directory, or `None` when the test is told to skip it.
fn corpus_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(CORPUS_DIR);
    if dir.is_dir() {
        return Some(dir);
    }
    if std::env::var("PODLAB_SKIP_CORPUS").as_deref() == Ok("1") {
        eprintln!("corpus: {CORPUS_DIR} not found; skipped because PODLAB_SKIP_CORPUS=1");
        return None;
    }
    panic!(
        "the manifest corpus was not found at {CORPUS_DIR} \
         (a copy of `../shared/corpus/` kept in the repository); \
         set PODLAB_SKIP_CORPUS=1 to skip this test on purpose"
    );
}

/// Every `.yaml`/`.yml` file under `dir`, sorted, recursively.
fn yaml_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(current) = pending.pop() {
        let entries = std::fs::read_dir(&current)
            .unwrap_or_else(|error| panic!("cannot list {}: {error}", current.display()));
        for entry in entries {
            let path = entry
                .unwrap_or_else(|error| panic!("cannot list {}: {error}", current.display()))
                .path();
            if path.is_dir() {
                pending.push(path);
            } else if matches!(
                path.extension().and_then(|ext| ext.to_str()),
                Some("yaml" | "yml")
            ) {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

fn relative(path: &Path, dir: &Path) -> String {
    path.strip_prefix(dir).unwrap_or(path).display().to_string()
}

/// The problems with one text's report: spans, positions and languages.
fn check_report(text: &str, report: &LintReport) -> Vec<String> {
    let mut problems = Vec::new();
    let line_count = report.index.line_count();
    let lines: Vec<&str> = text.split('\n').collect();
    for diagnostic in &report.diagnostics {
        let what = describe(diagnostic);
        let span = diagnostic.span;
        if span.start > span.end || span.end > text.len() {
            problems.push(format!(
                "{what}: span {}..{} outside the text of {} bytes",
                span.start,
                span.end,
                text.len()
            ));
            continue;
        }
        if !text.is_char_boundary(span.start) || !text.is_char_boundary(span.end) {
            problems.push(format!(
                "{what}: span {}..{} not on character boundaries",
                span.start, span.end
            ));
            continue;
        }
        for offset in [span.start, span.end] {
            let position = report.index.line_col(text, offset);
            if position.line == 0 || position.line > line_count {
                problems.push(format!(
                    "{what}: offset {offset} maps to line {}, the file has {line_count} lines",
                    position.line
                ));
                continue;
            }
            let line_chars = lines
                .get(position.line - 1)
                .map_or(0, |line| line.chars().count());
            if position.column == 0 || position.column > line_chars + 1 {
                problems.push(format!(
                    "{what}: offset {offset} maps to line {} column {}, that line has {line_chars} characters",
                    position.line, position.column
                ));
            }
        }
        check_text(&mut problems, &what, "message", Some(&diagnostic.message));
        check_text(&mut problems, &what, "help", diagnostic.help.as_ref());
        if let Some(fix) = &diagnostic.fix {
            check_text(&mut problems, &what, "fix", Some(&fix.description));
            for edit in &fix.edits {
                let edit_span = edit.span;
                if edit_span.start > edit_span.end
                    || edit_span.end > text.len()
                    || !text.is_char_boundary(edit_span.start)
                    || !text.is_char_boundary(edit_span.end)
                {
                    problems.push(format!(
                        "{what}: fix edit span {}..{} invalid for a text of {} bytes",
                        edit_span.start,
                        edit_span.end,
                        text.len()
                    ));
                }
            }
        }
    }
    problems
}

fn check_text(problems: &mut Vec<String>, what: &str, field: &str, text: Option<&Text>) {
    let Some(text) = text else { return };
    if text.en.trim().is_empty() {
        problems.push(format!("{what}: {field} has no English text"));
    }
    if text.zh_tw.trim().is_empty() {
        problems.push(format!("{what}: {field} has no zh-TW text"));
    }
}

fn describe(diagnostic: &Diagnostic) -> String {
    format!(
        "{} {} at {}..{} ({:?})",
        diagnostic.rule,
        diagnostic.name,
        diagnostic.span.start,
        diagnostic.span.end,
        diagnostic.message.en
    )
}

/// One linted corpus file.
struct Linted {
    name: String,
    text: String,
    report: LintReport,
}

/// Lints every corpus file, each under `catch_unwind`. Returns the reports and
/// the names of the files whose lint panicked, with the panic message.
fn lint_corpus(dir: &Path) -> (Vec<Linted>, Vec<String>) {
    let mut linted = Vec::new();
    let mut panics = Vec::new();
    for path in yaml_files(dir) {
        let name = relative(&path, dir);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|error| panic!("cannot read corpus file {name}: {error}"));
        match catch_unwind(AssertUnwindSafe(|| lint(&text))) {
            Ok(report) => linted.push(Linted { name, text, report }),
            Err(payload) => {
                let message = payload
                    .downcast_ref::<&str>()
                    .map(|message| message.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "(non-string panic payload)".to_string());
                panics.push(format!("{name}: {message}"));
            }
        }
    }
    (linted, panics)
}

#[test]
fn corpus_lints_without_panics_and_every_diagnostic_is_well_formed() {
    let Some(dir) = corpus_dir() else { return };
    let (linted, panics) = lint_corpus(&dir);
    let files = linted.len() + panics.len();
    assert!(
        files >= MIN_FILES,
        "the corpus at {} holds {files} YAML files, expected at least {MIN_FILES}",
        dir.display()
    );

    let mut problems = Vec::new();
    let mut per_rule: BTreeMap<&str, usize> = BTreeMap::new();
    let mut bytes = 0;
    for file in &linted {
        bytes += file.text.len();
        for diagnostic in &file.report.diagnostics {
            *per_rule.entry(diagnostic.rule).or_default() += 1;
        }
        for problem in check_report(&file.text, &file.report) {
            problems.push(format!("{}: {problem}", file.name));
        }
    }

    let total: usize = per_rule.values().sum();
    eprintln!(
        "corpus: {files} files, {bytes} bytes, {total} diagnostics, {} panicked",
        panics.len()
    );
    for (rule, count) in &per_rule {
        eprintln!("corpus:   {rule}: {count}");
    }

    assert!(
        panics.is_empty(),
        "lint panicked on {} corpus file(s):\n{}",
        panics.len(),
        panics.join("\n")
    );
    assert!(
        problems.is_empty(),
        "{} malformed diagnostic(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn real_manifests_have_no_yaml_syntax_or_limit_errors() {
    let Some(dir) = corpus_dir() else { return };
    let (linted, panics) = lint_corpus(&dir);
    // Panics are reported by the test above; here they only must not hide files.
    assert!(
        panics.is_empty(),
        "lint panicked on corpus file(s):\n{}",
        panics.join("\n")
    );
    for (name, reason) in NOT_VALID_YAML {
        assert!(
            !reason.trim().is_empty(),
            "{name} is listed as not valid YAML without a reason"
        );
        assert!(
            linted.iter().any(|file| file.name == *name),
            "{name} is listed as not valid YAML but is not in the corpus"
        );
    }
    let mut unexpected = Vec::new();
    for file in &linted {
        let excused = NOT_VALID_YAML.iter().any(|(name, _)| *name == file.name);
        for diagnostic in &file.report.diagnostics {
            if !FORBIDDEN_RULES.contains(&diagnostic.rule) {
                continue;
            }
            if excused && diagnostic.rule == "PL001" {
                continue;
            }
            let position = file
                .report
                .index
                .line_col(&file.text, diagnostic.span.start);
            unexpected.push(format!(
                "{}:{}:{}: {} {}: {}",
                file.name,
                position.line,
                position.column,
                diagnostic.rule,
                diagnostic.name,
                diagnostic.message.en
            ));
        }
    }
    assert!(
        unexpected.is_empty(),
        "{} unexpected syntax/limit diagnostic(s) in real manifests:\n{}",
        unexpected.len(),
        unexpected.join("\n")
    );
}

#[test]
fn the_checks_catch_bad_spans_and_missing_languages() {
    use podlab_core::diagnostic::Severity;
    use podlab_core::span::{LineIndex, Span};

    let text = "a: 模型\n";
    let diagnostic = |span: Span, message: Text| {
        Diagnostic::new(("PL999", "test"), Severity::Error, span, message)
    };
    let report = LintReport {
        diagnostics: vec![
            diagnostic(Span::new(0, 1), Text::new("fine", "沒問題")),
            diagnostic(Span::new(3, 99), Text::new("past the end", "超出")),
            diagnostic(Span::new(5, 4), Text::new("reversed", "反向")),
            diagnostic(Span::new(4, 6), Text::new("inside 模", "字元中間")),
            diagnostic(Span::new(0, 1), Text::new("English only", "")),
        ],
        suppressed: Vec::new(),
        index: LineIndex::new(text),
    };
    let problems = check_report(text, &report);
    assert_eq!(problems.len(), 4, "{problems:#?}");
    assert!(problems[0].contains("outside the text"), "{problems:#?}");
    assert!(problems[1].contains("outside the text"), "{problems:#?}");
    assert!(
        problems[2].contains("character boundaries"),
        "{problems:#?}"
    );
    assert!(problems[3].contains("no zh-TW text"), "{problems:#?}");
}

/// Every fix offered on a real manifest, once applied, removes a diagnostic
/// of its rule and leaves YAML that still parses with no unknown field —
/// block style, flow style and KYAML alike.
#[test]
fn fixes_on_real_manifests_keep_the_yaml_valid() {
    let Some(dir) = corpus_dir() else { return };
    let (linted, _) = lint_corpus(&dir);
    let mut broken = Vec::new();
    let mut applied = 0;
    for file in &linted {
        for diagnostic in &file.report.diagnostics {
            let Some(fix) = &diagnostic.fix else { continue };
            applied += 1;
            let fixed = podlab_core::diagnostic::apply_edits(&file.text, &fix.edits);
            let after = lint(&fixed);
            let count = |report: &LintReport| {
                report
                    .diagnostics
                    .iter()
                    .filter(|d| d.rule == diagnostic.rule)
                    .count()
            };
            let new_syntax_errors = after
                .diagnostics
                .iter()
                .filter(|d| d.rule == "PL001" || d.rule == "PL002")
                .count()
                > file
                    .report
                    .diagnostics
                    .iter()
                    .filter(|d| d.rule == "PL001" || d.rule == "PL002")
                    .count();
            if new_syntax_errors || count(&after) >= count(&file.report) {
                broken.push(format!("{}: {}", file.name, describe(diagnostic)));
            }
        }
    }
    eprintln!("applied {applied} fixes to corpus files");
    assert!(applied >= 20, "only {applied} fixes in the corpus");
    assert!(
        broken.is_empty(),
        "fixes that broke the file or did nothing:\n{}",
        broken.join("\n")
    );
}

/// Issue 14: none of these files holds a Scenario, so every number a
/// Scenario-dependent rule uses is assumed; assumed numbers and an unstated
/// cluster never make an `error` (nor a `warning`, for the rules that judge
/// them), the cluster rules stay silent, and PL004 is not reported unless
/// asked. Prints the counts by severity and by rule.
#[test]
fn without_a_scenario_the_corpus_has_no_error() {
    use podlab_core::diagnostic::Severity;
    let Some(dir) = corpus_dir() else { return };
    let (linted, _) = lint_corpus(&dir);
    let mut by_severity: BTreeMap<String, usize> = BTreeMap::new();
    let mut by_rule: BTreeMap<(&str, String), usize> = BTreeMap::new();
    let mut errors = Vec::new();
    for file in &linted {
        for diagnostic in &file.report.diagnostics {
            let severity = format!("{:?}", diagnostic.severity);
            *by_severity.entry(severity.clone()).or_default() += 1;
            *by_rule.entry((diagnostic.rule, severity)).or_default() += 1;
            // What rests on assumed numbers is info at most; the cluster
            // rules need a stated cluster.
            let assumed_only = matches!(
                diagnostic.rule,
                "PL104" | "PL105" | "PL201" | "PL202" | "PL205" | "PL602"
            ) && diagnostic.severity > Severity::Info;
            let cluster = diagnostic.rule.starts_with("PL50");
            if diagnostic.severity == Severity::Error || assumed_only || cluster {
                let position = file
                    .report
                    .index
                    .line_col(&file.text, diagnostic.span.start);
                errors.push(format!(
                    "{}:{}: {} {:?} {}",
                    file.name,
                    position.line,
                    diagnostic.rule,
                    diagnostic.severity,
                    diagnostic.message.en
                ));
            }
        }
    }
    eprintln!("corpus by severity: {by_severity:?}");
    for ((rule, severity), count) in &by_rule {
        eprintln!("corpus:   {rule} {severity}: {count}");
    }
    assert!(
        !by_rule.keys().any(|(rule, _)| *rule == "PL004"),
        "PL004 is quiet unless asked"
    );
    assert!(
        errors.is_empty(),
        "{} error(s) or findings beyond what is stated, without a Scenario:\n{}",
        errors.len(),
        errors.join("\n")
    );
}
