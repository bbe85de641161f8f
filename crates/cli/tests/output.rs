//! The command line as a user sees it: snapshots of the text output in both
//! languages and of the JSON, the rule list and a rule's doc; the SARIF
//! structure code-scanning tools rely on; exit codes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/core/tests/fixtures/rules")
}

/// Runs `podlab` in the fixtures directory (so file names print relative).
fn podlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_podlab"))
        .args(args)
        .current_dir(fixtures())
        .output()
        .expect("podlab runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

const ARTICLE: &str = "PL201/fail_article_without_startup_probe.yaml";

#[test]
fn text_output_shows_the_line_and_a_caret_in_english() {
    let output = podlab(&["lint", ARTICLE]);
    let text = stdout(&output);
    assert!(
        text.contains("error[PL201]") || text.contains("warning[PL201]"),
        "{text}"
    );
    insta::assert_snapshot!("article_text_en", text);
}

#[test]
fn text_output_in_chinese() {
    let output = podlab(&["lint", ARTICLE, "--lang", "zh-TW"]);
    insta::assert_snapshot!("article_text_zh_tw", stdout(&output));
}

#[test]
fn json_output_follows_the_contract() {
    let output = podlab(&["lint", ARTICLE, "--format", "json"]);
    let json: Value = serde_json::from_str(&stdout(&output)).expect("valid JSON");
    let diagnostics = json["diagnostics"].as_array().expect("a diagnostics array");
    let pl201 = diagnostics
        .iter()
        .find(|d| d["rule"] == "PL201")
        .expect("PL201 reported");
    for key in [
        "name",
        "severity",
        "message",
        "file",
        "line",
        "column",
        "endLine",
        "endColumn",
    ] {
        assert!(!pl201[key].is_null(), "{key} missing in {pl201}");
    }
    assert_eq!(pl201["name"], "liveness-kills-slow-start");
    assert_eq!(pl201["file"], ARTICLE);
    let edit = &pl201["fix"]["edits"][0];
    assert_eq!(
        edit["line"], pl201["line"],
        "the startupProbe goes right above livenessProbe"
    );
    assert!(edit["text"]
        .as_str()
        .unwrap_or_default()
        .starts_with("startupProbe:\n"));
    insta::assert_json_snapshot!("article_json", json);
}

#[test]
fn sarif_lists_the_rules_and_points_results_at_them() {
    let output = podlab(&["lint", ARTICLE, "--format", "sarif"]);
    let sarif: Value = serde_json::from_str(&stdout(&output)).expect("valid JSON");
    assert_eq!(sarif["version"], "2.1.0");
    let run = &sarif["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
    assert_eq!(rules.len(), podlab_core::rules::RULES.len());
    let results = run["results"].as_array().expect("results");
    assert!(!results.is_empty());
    for result in results {
        let index = result["ruleIndex"].as_u64().expect("ruleIndex") as usize;
        assert_eq!(rules[index]["id"], result["ruleId"], "{result}");
        let region = &result["locations"][0]["physicalLocation"]["region"];
        assert!(region["startLine"].as_u64().unwrap_or(0) >= 1, "{result}");
    }
}

#[test]
fn exit_codes_are_0_clean_1_error_2_usage() {
    assert_eq!(
        podlab(&["lint", "PL201/pass_article_deployment.yaml"])
            .status
            .code(),
        Some(0)
    );
    assert_eq!(
        podlab(&[
            "lint",
            "PL003/fail_request_over_limit_and_success_threshold.yaml"
        ])
        .status
        .code(),
        Some(1)
    );
    assert_eq!(
        podlab(&["lint", "no/such/file.yaml"]).status.code(),
        Some(2)
    );
    assert_eq!(podlab(&["lint"]).status.code(), Some(2));
    assert_eq!(podlab(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(podlab(&["rules", "PL999"]).status.code(), Some(2));
    // Help after a command is help, not a file called `--help`.
    let help = podlab(&["simulate", "--help"]);
    assert_eq!(help.status.code(), Some(0));
    assert!(stdout(&help).starts_with("usage: podlab lint"));
    let unknown = podlab(&["lint", "--strict", "PL201/pass_article_deployment.yaml"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("unknown option `--strict`"));
}

#[test]
fn rules_lists_every_rule_and_prints_one_rules_doc() {
    let list = podlab(&["rules"]);
    assert_eq!(list.status.code(), Some(0));
    let list = stdout(&list);
    assert_eq!(list.lines().count(), podlab_core::rules::RULES.len());
    insta::assert_snapshot!("rules_list_en", list);

    let doc = podlab(&["rules", "PL201"]);
    assert_eq!(doc.status.code(), Some(0));
    insta::assert_snapshot!("rules_pl201_en", stdout(&doc));
    let doc = podlab(&["rules", "liveness-kills-slow-start", "--lang", "zh-TW"]);
    insta::assert_snapshot!("rules_pl201_zh_tw", stdout(&doc));
}
