//! Re-indentation round trip: every golden scenario and every corpus file,
//! flattened (leading whitespace stripped from every line), comes back from
//! `manifest::reindent` as YAML that parses to the same trees as the
//! original. The article's manifests must pass and lint as before; the pass
//! rate over the corpus must not drop below [`MIN_CORPUS_PASS_PERCENT`].

use std::path::{Path, PathBuf};

use podlab_core::diagnostic::apply_edits;
use podlab_core::lint::lint;
use podlab_core::manifest::reindent::reindent;
use podlab_core::manifest::yaml::{self, Limits, Node, NodeKind};
use podlab_core::span::LineIndex;

const CORPUS_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus");
const GOLDEN_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/golden");
const ARTICLE_DEPLOYMENT: &str = include_str!("../../../web/src/default.yaml");
const ARTICLE_CRASH_LOOP: &str = include_str!("../../../tests/golden/crash-loop-liveness-40s.yaml");

/// The measured rate (docs/lint-decisions.md) rounded down: a change that
/// loses files fails here.
const MIN_CORPUS_PASS_PERCENT: usize = 55;

fn flatten(text: &str) -> String {
    text.split_inclusive('\n')
        .map(|line| line.trim_start_matches([' ', '\t']))
        .collect()
}

/// The documents' trees, spans left out.
fn trees(text: &str) -> Vec<Option<String>> {
    let stream = yaml::parse(text, &LineIndex::new(text), &Limits::default());
    stream
        .documents
        .iter()
        .map(|document| {
            if document.broken {
                return Some("<broken>".to_string());
            }
            document.root.as_ref().map(|root| {
                let mut out = String::new();
                shape(root, &mut out);
                out
            })
        })
        .collect()
}

fn shape(node: &Node, out: &mut String) {
    match &node.kind {
        NodeKind::Scalar { value, style } => out.push_str(&format!("{value:?}/{style:?}")),
        NodeKind::Seq(items) => {
            out.push('[');
            for item in items {
                shape(item, out);
                out.push(',');
            }
            out.push(']');
        }
        NodeKind::Map(entries) => {
            out.push('{');
            for entry in entries {
                shape(&entry.key, out);
                out.push(':');
                shape(&entry.value, out);
                out.push(',');
            }
            out.push('}');
        }
    }
}

/// `Ok(true)` when the flattened text comes back equal, `Ok(false)` when
/// flattening changed nothing to repair, `Err(result)` otherwise.
fn round_trip(original: &str) -> Result<bool, String> {
    let flat = flatten(original);
    let Some(reindented) = reindent(&flat) else {
        return if trees(&flat) == trees(original) {
            Ok(false)
        } else {
            Err("not recognised as flattened".to_string())
        };
    };
    let result = apply_edits(&flat, &reindented.edits);
    if trees(&result) == trees(original) {
        Ok(true)
    } else {
        Err(result)
    }
}

fn yaml_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(current) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&current) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path
                .extension()
                .is_some_and(|ext| ext == "yaml" || ext == "yml")
            {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn the_articles_manifests_come_back_and_lint_as_before() {
    for original in [ARTICLE_DEPLOYMENT, ARTICLE_CRASH_LOOP] {
        let flat = flatten(original);
        assert!(lint(&flat).has_errors());
        let result = match round_trip(original) {
            Ok(true) => apply_edits(&flat, &reindent(&flat).unwrap().edits),
            other => panic!("round trip failed: {other:?}"),
        };
        let rules = |text: &str| -> Vec<&'static str> {
            lint(text).diagnostics.iter().map(|d| d.rule).collect()
        };
        assert_eq!(rules(&result), rules(original), "{result}");
    }
    // The page's default lints clean, so its flattened paste does once fixed.
    assert!(!lint(ARTICLE_DEPLOYMENT).has_errors());
}

#[test]
fn every_golden_scenario_comes_back() {
    let files = yaml_files(Path::new(GOLDEN_DIR));
    assert!(files.len() >= 10, "{GOLDEN_DIR}");
    for file in files {
        let original = std::fs::read_to_string(&file).unwrap();
        if let Err(result) = round_trip(&original) {
            panic!("{}:\n{result}", file.display());
        }
    }
}

#[test]
fn corpus_round_trip_rate_does_not_drop() {
    let files = yaml_files(Path::new(CORPUS_DIR));
    if files.is_empty() && std::env::var("PODLAB_SKIP_CORPUS").as_deref() == Ok("1") {
        return;
    }
    assert!(files.len() >= 20, "the corpus is missing at {CORPUS_DIR}");
    let (mut passed, mut failed) = (Vec::new(), Vec::new());
    for file in &files {
        let original = std::fs::read_to_string(file).unwrap();
        let name = file
            .strip_prefix(CORPUS_DIR)
            .unwrap_or(file)
            .display()
            .to_string();
        match round_trip(&original) {
            Ok(_) => passed.push(name),
            Err(result) => {
                if let Ok(dir) = std::env::var("PODLAB_REINDENT_DUMP") {
                    let out = Path::new(&dir).join(name.replace('/', "__"));
                    let _ = std::fs::write(out, result);
                }
                failed.push(name)
            }
        }
    }
    let percent = passed.len() * 100 / files.len();
    eprintln!(
        "reindent round trip: {} of {} corpus files ({percent} %); failing: {failed:#?}",
        passed.len(),
        files.len()
    );
    assert!(
        percent >= MIN_CORPUS_PASS_PERCENT,
        "{percent} % < {MIN_CORPUS_PASS_PERCENT} %: {failed:#?}"
    );
}
