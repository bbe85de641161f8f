//! `podlab fmt --reindent`: the article's Deployment pasted flattened comes
//! back indented, lints clean, and `--write` rewrites the file.

mod common;
use common::podlab;

use std::path::Path;

fn flatten(text: &str) -> String {
    text.split_inclusive('\n')
        .map(|line| line.trim_start())
        .collect()
}

#[test]
fn the_flattened_article_deployment_comes_back_and_lints_clean() {
    let original = include_str!("../../../web/src/default.yaml");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fmt-reindent");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("pasted.yaml");
    std::fs::write(&path, flatten(original)).unwrap();
    let file = path.display().to_string();

    let (code, _, _) = podlab(&["lint", &file]);
    assert_eq!(code, Some(1));
    let (code, out, err) = podlab(&["fmt", "--reindent", &file]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("rebuild the indentation"), "{err}");
    // The article's text, with lists indented under their key as it writes them.
    assert_eq!(out, original);

    let (code, _, err) = podlab(&["fmt", "--reindent", "--write", "--lang", "zh-TW", &file]);
    assert_eq!(code, Some(0));
    assert!(err.contains("重建縮排"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), original);
    let (code, _, err) = podlab(&["fmt", "--reindent", &file]);
    assert_eq!(code, Some(0));
    assert!(err.contains("nothing changed"), "{err}");
    let (code, _, _) = podlab(&["lint", &file]);
    assert_eq!(code, Some(0));
}

#[test]
fn fmt_without_reindent_or_with_a_bad_file_is_a_usage_error() {
    assert_eq!(podlab(&["fmt", "x.yaml"]).0, Some(2));
    assert_eq!(
        podlab(&["fmt", "--reindent", "/nonexistent/x.yaml"]).0,
        Some(2)
    );
}
