//! `podlab share`: the link carries the file's exact text.

use std::path::Path;
use std::process::Command;

fn podlab(args: &[&str]) -> (Option<i32>, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_podlab"))
        .args(args)
        .output()
        .expect("podlab runs");
    (
        output.status.code(),
        String::from_utf8(output.stdout).expect("UTF-8"),
        String::from_utf8(output.stderr).expect("UTF-8"),
    )
}

#[test]
fn the_link_opens_the_same_text_and_the_embed_code_is_an_iframe() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/crash-loop-liveness-40s.yaml");
    let file = path.display().to_string();
    let text = std::fs::read_to_string(&path).expect("golden file");
    let (code, out, _) = podlab(&["share", &file, "--base", "https://blog.example/lab/"]);
    assert_eq!(code, Some(0));
    let link = out.trim();
    let fragment = link
        .strip_prefix("https://blog.example/lab/#")
        .unwrap_or_else(|| panic!("{link}"));
    assert_eq!(
        podlab_core::share::decode(fragment).as_deref(),
        Ok(text.as_str())
    );
    let (code, out, _) = podlab(&[
        "share",
        &file,
        "--embed",
        "--base",
        "https://blog.example/lab/?lang=zh-TW",
    ]);
    assert_eq!(code, Some(0));
    assert!(
        out.starts_with("<iframe src=\"https://blog.example/lab/?lang=zh-TW&embed=1#v1."),
        "{out}"
    );
}

#[test]
fn a_missing_file_is_a_usage_error() {
    let (code, _, err) = podlab(&["share", "/nonexistent/podlab.yaml"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("/nonexistent/podlab.yaml"), "{err}");
}
