//! The root `Cargo.toml` is the `podlab` package as well as the workspace:
//! pre-commit installs a `language: rust` hook with `cargo install --path .`
//! in the hook repository's root, which works only if the root manifest has a
//! package with the `podlab` binary (docs/lint-decisions.md, "The pre-commit
//! hook"). Its targets are listed by hand (the root's `tests/` belongs to
//! podlab-e2e), so a test file added under `crates/cli/tests/` and not listed
//! would never run: this test fails instead.
//!
//! Reads `cargo metadata --no-deps --offline`: no download, no build.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn metadata() -> Value {
    let output = Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(root())
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("cargo metadata prints JSON")
}

/// The package whose manifest is the workspace root's `Cargo.toml`.
fn root_package(metadata: &Value) -> &Value {
    let workspace_root = metadata["workspace_root"].as_str().expect("workspace_root");
    let manifest = Path::new(workspace_root).join("Cargo.toml");
    metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .find(|package| package["manifest_path"].as_str().map(Path::new) == Some(&manifest))
        .expect("the root Cargo.toml holds a [package] (pre-commit runs `cargo install --path .` there)")
}

/// The targets of `package` of one kind (`bin`, `test`), as (name, path).
fn targets(package: &Value, kind: &str) -> Vec<(String, PathBuf)> {
    package["targets"]
        .as_array()
        .expect("targets")
        .iter()
        .filter(|target| {
            target["kind"]
                .as_array()
                .is_some_and(|kinds| kinds.iter().any(|k| k == kind))
        })
        .map(|target| {
            (
                target["name"].as_str().expect("name").to_string(),
                PathBuf::from(target["src_path"].as_str().expect("src_path")),
            )
        })
        .collect()
}

#[test]
fn the_root_manifest_is_the_podlab_package_with_the_podlab_binary() {
    let metadata = metadata();
    let package = root_package(&metadata);
    assert_eq!(package["name"], "podlab");
    assert_eq!(
        targets(package, "bin"),
        vec![("podlab".to_string(), root().join("crates/cli/src/main.rs"))],
        "`cargo install --path .` must install exactly the `podlab` binary"
    );
}

#[test]
fn every_test_file_of_the_cli_is_a_test_target() {
    let metadata = metadata();
    let listed: Vec<PathBuf> = targets(root_package(&metadata), "test")
        .into_iter()
        .map(|(_, path)| path)
        .collect();
    let tests_dir = root().join("crates/cli/tests");
    let mut unlisted = Vec::new();
    for entry in std::fs::read_dir(&tests_dir).expect("crates/cli/tests") {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_some_and(|ext| ext == "rs") && !listed.contains(&path) {
            unlisted.push(path);
        }
    }
    assert!(
        unlisted.is_empty(),
        "add a [[test]] entry to the root Cargo.toml for {unlisted:?}"
    );
}
