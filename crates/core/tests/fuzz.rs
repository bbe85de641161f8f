//! Property tests: `lint` never panics and keeps every span inside the text,
//! for arbitrary strings (unicode, YAML-ish alphabets and tokens, deep
//! nesting) and for mutations of real manifests (the shared corpus and the
//! reference Deployment of the benchmark).
//!
//! Case counts are bounded so that the whole file runs in a few seconds in a
//! debug build; failures are not persisted to files (the failing input is in
//! the panic message).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use podlab_core::lint::lint;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// A realistic GPU model-serving Deployment, the benchmark's input too.
const REFERENCE_DEPLOYMENT: &str = include_str!("../benches/deployment.yaml");

const CORPUS_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus");

/// Characters that mean something to YAML, inserted by the mutations.
const YAML_SPECIAL: &[char] = &[
    ':', '-', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '#', '\n', ' ', '\t', ',',
    '?', '%', '@', '`', '~', '\r', '\\', '<', '=', '模', '\u{feff}', '\u{0}',
];

/// Pieces of YAML glued together by the token strategy.
const YAML_TOKENS: &[&str] = &[
    "apiVersion: v1\n",
    "kind: Pod\n",
    "kind: Deployment\n",
    "kind: Scenario\n",
    "metadata:\n",
    "spec:\n",
    "containers:\n",
    "- name: a\n",
    "  ",
    "    ",
    "- ",
    "? ",
    ": ",
    "key: ",
    "image: x\n",
    "resources: {limits: {memory: 8Gi, nvidia.com/gpu: 1}}\n",
    "livenessProbe:\n",
    "httpGet: {path: /, port: 80}\n",
    "replicas: 3\n",
    "&a ",
    "&b ",
    "*a",
    "*b",
    "<<: *a\n",
    "!!str ",
    "!tag ",
    "|\n",
    ">-\n",
    "'quoted'",
    "\"dq\\n\"",
    "'",
    "\"",
    "# comment\n",
    "{",
    "}",
    "[",
    "]",
    ",",
    "\n",
    "\r\n",
    "\t",
    "---\n",
    "--- ",
    "...\n",
    "%YAML 1.2\n",
    "%TAG ! tag:x:\n",
    "模型：",
    "é",
    "🚀",
    "null",
    "~",
    "0x1F",
    "1e400",
    "-1",
    "yes",
];

/// 256 cases per property; `PROPTEST_CASES=N` runs more for a deeper search.
fn proptest_config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|cases| cases.parse().ok())
        .unwrap_or(256);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Checks the span invariants of `lint(text)`; lint itself must not panic
/// (a panic fails the property and proptest shrinks the input).
fn check_lint(text: &str) -> Result<(), TestCaseError> {
    let report = lint(text);
    let line_count = report.index.line_count();
    for diagnostic in &report.diagnostics {
        let span = diagnostic.span;
        prop_assert!(
            span.start <= span.end && span.end <= text.len(),
            "{} span {}..{} outside a text of {} bytes",
            diagnostic.rule,
            span.start,
            span.end,
            text.len()
        );
        prop_assert!(
            text.is_char_boundary(span.start) && text.is_char_boundary(span.end),
            "{} span {}..{} not on character boundaries",
            diagnostic.rule,
            span.start,
            span.end
        );
        let end = report.index.line_col(text, span.end);
        prop_assert!(
            end.line >= 1 && end.line <= line_count,
            "{} span end on line {} of {}",
            diagnostic.rule,
            end.line,
            line_count
        );
        prop_assert!(
            !diagnostic.message.en.is_empty() && !diagnostic.message.zh_tw.is_empty(),
            "{} has a message missing a language",
            diagnostic.rule
        );
        if let Some(fix) = &diagnostic.fix {
            for edit in &fix.edits {
                prop_assert!(
                    edit.span.start <= edit.span.end
                        && edit.span.end <= text.len()
                        && text.is_char_boundary(edit.span.start)
                        && text.is_char_boundary(edit.span.end),
                    "{} fix edit span {}..{} invalid for a text of {} bytes",
                    diagnostic.rule,
                    edit.span.start,
                    edit.span.end,
                    text.len()
                );
            }
        }
    }
    Ok(())
}

/// The texts the mutations start from: the reference Deployment, then every
/// corpus file (none when the corpus is missing; `tests/corpus.rs` fails then).
fn seeds() -> &'static [String] {
    static SEEDS: OnceLock<Vec<String>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        let mut seeds = vec![REFERENCE_DEPLOYMENT.to_string()];
        let dir = PathBuf::from(CORPUS_DIR);
        if dir.is_dir() {
            let mut files = Vec::new();
            collect_yaml(&dir, &mut files);
            files.sort();
            for path in files {
                let text = std::fs::read_to_string(&path)
                    .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));
                seeds.push(text);
            }
        } else {
            eprintln!("fuzz: no corpus at {CORPUS_DIR}; mutating the reference Deployment only");
        }
        seeds
    })
}

fn collect_yaml(dir: &Path, files: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir)
        .unwrap_or_else(|error| panic!("cannot list {}: {error}", dir.display()));
    for entry in entries {
        let path = entry
            .unwrap_or_else(|error| panic!("cannot list {}: {error}", dir.display()))
            .path();
        if path.is_dir() {
            collect_yaml(&path, files);
        } else if matches!(
            path.extension().and_then(|ext| ext.to_str()),
            Some("yaml" | "yml")
        ) {
            files.push(path);
        }
    }
}

/// One edit of a text. Positions are raw numbers, mapped onto the text when
/// the mutation is applied (modulo its length, down to a character boundary).
#[derive(Clone, Debug)]
enum Mutation {
    DeleteRange {
        at: usize,
        len: usize,
    },
    DuplicateLine {
        line: usize,
    },
    InsertChar {
        at: usize,
        ch: char,
    },
    Reindent {
        line: usize,
        indent: usize,
        tabs: bool,
    },
    SwapLines {
        first: usize,
        second: usize,
    },
    Truncate {
        at: usize,
    },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 0usize..80).prop_map(|(at, len)| Mutation::DeleteRange { at, len }),
        any::<usize>().prop_map(|line| Mutation::DuplicateLine { line }),
        (any::<usize>(), prop::sample::select(YAML_SPECIAL))
            .prop_map(|(at, ch)| Mutation::InsertChar { at, ch }),
        (any::<usize>(), 0usize..12, prop::bool::weighted(0.1))
            .prop_map(|(line, indent, tabs)| Mutation::Reindent { line, indent, tabs }),
        (any::<usize>(), any::<usize>())
            .prop_map(|(first, second)| Mutation::SwapLines { first, second }),
        any::<usize>().prop_map(|at| Mutation::Truncate { at }),
    ]
}

fn floor_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// A position in `0..=len`, on a character boundary.
fn position(text: &str, raw: usize) -> usize {
    floor_boundary(text, raw % (text.len() + 1))
}

fn apply(text: &mut String, mutation: &Mutation) {
    match *mutation {
        Mutation::DeleteRange { at, len } => {
            let start = position(text, at);
            let end = floor_boundary(text, start.saturating_add(len));
            text.replace_range(start..end, "");
        }
        Mutation::DuplicateLine { line } => {
            let lines: Vec<&str> = text.split_inclusive('\n').collect();
            if lines.is_empty() {
                return;
            }
            let chosen = line % lines.len();
            let mut copy = lines[chosen].to_string();
            if !copy.ends_with('\n') {
                copy.insert(0, '\n');
            }
            let mut out: String = lines[..=chosen].concat();
            out.push_str(&copy);
            out.push_str(&lines[chosen + 1..].concat());
            *text = out;
        }
        Mutation::InsertChar { at, ch } => {
            let at = position(text, at);
            text.insert(at, ch);
        }
        Mutation::Reindent { line, indent, tabs } => {
            let mut lines: Vec<String> = text.split_inclusive('\n').map(str::to_string).collect();
            if lines.is_empty() {
                return;
            }
            let chosen = line % lines.len();
            let body = lines[chosen].trim_start_matches([' ', '\t']).to_string();
            let pad = if tabs { "\t" } else { " " };
            lines[chosen] = format!("{}{body}", pad.repeat(indent));
            *text = lines.concat();
        }
        Mutation::SwapLines { first, second } => {
            let mut lines: Vec<String> = text.split_inclusive('\n').map(str::to_string).collect();
            if lines.is_empty() {
                return;
            }
            let count = lines.len();
            lines.swap(first % count, second % count);
            *text = lines.concat();
        }
        Mutation::Truncate { at } => {
            let at = position(text, at);
            text.truncate(at);
        }
    }
}

/// Strings made of YAML-ish tokens: more likely to reach deep parser states.
fn token_soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(YAML_TOKENS), 0..60)
        .prop_map(|tokens| tokens.concat())
}

/// Deep nesting (flow or block), around the depth limit of 128.
fn deep_nesting() -> impl Strategy<Value = String> {
    (
        prop::sample::select(&["[", "{", "- ", "a:\n ", "[{", "? "][..]),
        100usize..300,
        "[a-z\\]\\}:, \n-]{0,20}",
    )
        .prop_map(|(opener, depth, tail)| {
            let mut text = String::new();
            for level in 0..depth {
                if opener == "a:\n " {
                    text.push_str(&" ".repeat(level));
                    text.push_str("a:\n");
                } else {
                    text.push_str(opener);
                }
            }
            text.push_str(&tail);
            text
        })
}

proptest! {
    #![proptest_config(proptest_config())]

    #[test]
    fn arbitrary_unicode_strings_never_panic(text in any::<String>()) {
        check_lint(&text)?;
    }

    #[test]
    fn yaml_alphabet_strings_never_panic(
        text in "[:\\-\\[\\]{}&*!|>'\"#\n a-z0-9.,?%@`~\t\r模型é🚀]{0,300}"
    ) {
        check_lint(&text)?;
    }

    #[test]
    fn yaml_token_soup_never_panics(text in token_soup()) {
        check_lint(&text)?;
    }

    #[test]
    fn deep_nesting_never_panics(text in deep_nesting()) {
        check_lint(&text)?;
    }

    #[test]
    fn mutated_manifests_never_panic(
        seed in any::<prop::sample::Index>(),
        mutations in prop::collection::vec(mutation(), 1..6),
    ) {
        let seeds = seeds();
        let mut text = seeds[seed.index(seeds.len())].clone();
        for mutation in &mutations {
            apply(&mut text, mutation);
        }
        check_lint(&text)?;
    }

    #[test]
    fn mutated_reference_deployment_never_panics(
        mutations in prop::collection::vec(mutation(), 1..10),
    ) {
        let mut text = REFERENCE_DEPLOYMENT.to_string();
        for mutation in &mutations {
            apply(&mut text, mutation);
        }
        check_lint(&text)?;
    }
}

#[test]
fn reference_deployment_is_valid_yaml() {
    let report = lint(REFERENCE_DEPLOYMENT);
    let syntax: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|diagnostic| matches!(diagnostic.rule, "PL001" | "PL005"))
        .map(|diagnostic| (diagnostic.rule, diagnostic.message.en.clone()))
        .collect();
    assert!(syntax.is_empty(), "benches/deployment.yaml: {syntax:?}");
    check_lint(REFERENCE_DEPLOYMENT)
        .expect("the reference Deployment's diagnostics are well-formed");
}

#[test]
fn mutation_helpers_handle_edge_cases() {
    // The mutation helpers themselves: every kind applies to the empty text,
    // a text without a final newline and a non-ASCII text without panicking.
    let all = [
        Mutation::DeleteRange { at: 5, len: 7 },
        Mutation::DuplicateLine { line: 3 },
        Mutation::InsertChar { at: 4, ch: '模' },
        Mutation::Reindent {
            line: 1,
            indent: 3,
            tabs: true,
        },
        Mutation::SwapLines {
            first: 0,
            second: 1,
        },
        Mutation::Truncate { at: 9 },
    ];
    for start in ["", "a: 1", "名稱: 模型\nb: [x]\n", REFERENCE_DEPLOYMENT] {
        for mutation in &all {
            let mut text = start.to_string();
            apply(&mut text, mutation);
            check_lint(&text).expect("diagnostics of a mutated text are well-formed");
        }
    }
    let mut text = "a: 1\nb: 2\n".to_string();
    apply(&mut text, &Mutation::DuplicateLine { line: 1 });
    assert_eq!(text, "a: 1\nb: 2\nb: 2\n");
    apply(
        &mut text,
        &Mutation::Reindent {
            line: 2,
            indent: 2,
            tabs: false,
        },
    );
    assert_eq!(text, "a: 1\nb: 2\n  b: 2\n");
}

#[test]
fn deep_nesting_stops_at_the_depth_limit() {
    for text in ["[".repeat(200), "{a: ".repeat(200), "- ".repeat(200)] {
        let report = lint(&text);
        assert!(
            report.diagnostics.iter().any(|d| d.rule == "PL005"),
            "no PL005 for {:?}...: {:?}",
            &text[..12],
            report.diagnostics
        );
        check_lint(&text).expect("diagnostics of deep nesting are well-formed");
    }
}
