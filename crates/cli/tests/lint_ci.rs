//! `podlab lint` the way CI runs it: suppressions (annotation, comment,
//! `--ignore`, `.podlab.yaml`) listed as suppressed in JSON and SARIF,
//! stale ones reported, the config file and its "did you mean", directories
//! and stdin, `--format github`, `--exit-zero`, and a closed pipe.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// Two pods, each with an untagged image (PL301) and a Service (PL004).
const TWO_PODS: &str = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: first\nspec:\n  containers:\n    - name: api\n      image: nginx\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: second\nspec:\n  containers:\n    - name: api\n      image: nginx\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: s}\n";

/// A fresh directory of its own for each test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("podlab-lint-ci-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn write(dir: &Path, name: &str, text: &str) {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().expect("has a parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

fn podlab_in(dir: &Path, args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_podlab"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("podlab runs");
    let mut input = child.stdin.take().expect("stdin");
    input
        .write_all(stdin.unwrap_or("").as_bytes())
        .expect("stdin written");
    drop(input);
    child.wait_with_output().expect("podlab ends")
}

fn json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|error| panic!("{error}: {}", String::from_utf8_lossy(&output.stdout)))
}

/// `(rule, line)` of `diagnostics` or `suppressed`.
fn found(report: &Value, key: &str) -> Vec<(String, u64)> {
    report[key]
        .as_array()
        .map(|items| {
            items
                .iter()
                .map(|d| {
                    (
                        d["rule"].as_str().unwrap_or("").to_string(),
                        d["line"].as_u64().unwrap_or(0),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn each_kind_of_suppression_silences_exactly_its_target_and_says_why() {
    let dir = temp_dir("kinds");
    let annotated = TWO_PODS.replace(
        "  name: first\n",
        "  name: first\n  annotations:\n    ignore-check.podlab.dev/PL301: \"pinned by digest in CD\"\n",
    );
    let commented = TWO_PODS.replace(
        "image: nginx\n---\napiVersion: v1\nkind: ConfigMap",
        "image: nginx # podlab:ignore PL301 mirrored nightly\n---\napiVersion: v1\nkind: ConfigMap",
    );
    write(&dir, "annotated.yaml", &annotated);
    write(&dir, "commented.yaml", &commented);
    write(&dir, "plain.yaml", TWO_PODS);

    // The annotation: the first pod's PL301 only.
    let report = json(&podlab_in(
        &dir,
        &["lint", "annotated.yaml", "--format", "json"],
        None,
    ));
    assert_eq!(found(&report, "diagnostics"), [("PL301".to_string(), 19)]);
    assert_eq!(found(&report, "suppressed"), [("PL301".to_string(), 10)]);
    assert_eq!(report["suppressed"][0]["suppression"]["kind"], "annotation");
    assert_eq!(
        report["suppressed"][0]["suppression"]["justification"],
        "pinned by digest in CD"
    );

    // The comment: the second pod's line only.
    let report = json(&podlab_in(
        &dir,
        &["lint", "commented.yaml", "--format", "json"],
        None,
    ));
    assert_eq!(found(&report, "diagnostics"), [("PL301".to_string(), 8)]);
    assert_eq!(found(&report, "suppressed"), [("PL301".to_string(), 17)]);
    assert_eq!(
        report["suppressed"][0]["suppression"]["justification"],
        "mirrored nightly"
    );

    // SARIF lists silenced results with `suppressions` and the reason.
    let sarif = json(&podlab_in(
        &dir,
        &["lint", "annotated.yaml", "--format", "sarif"],
        None,
    ));
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    assert_eq!(results.len(), 2);
    let silenced: Vec<&Value> = results
        .iter()
        .filter(|r| r.get("suppressions").is_some())
        .collect();
    assert_eq!(silenced.len(), 1);
    assert_eq!(
        silenced[0]["locations"][0]["physicalLocation"]["region"]["startLine"],
        10
    );
    assert_eq!(silenced[0]["suppressions"][0]["kind"], "inSource");
    assert_eq!(
        silenced[0]["suppressions"][0]["justification"],
        "pinned by digest in CD"
    );

    // `--ignore`: every PL301, nothing else (PL004 shows with --verbose).
    let output = podlab_in(
        &dir,
        &[
            "lint",
            "plain.yaml",
            "--format",
            "sarif",
            "--ignore",
            "PL301",
            "--verbose",
        ],
        None,
    );
    let sarif = json(&output);
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    let rules: Vec<(&str, bool)> = results
        .iter()
        .map(|r| {
            (
                r["ruleId"].as_str().unwrap_or(""),
                r.get("suppressions").is_some(),
            )
        })
        .collect();
    assert_eq!(rules, [("PL004", false), ("PL301", true), ("PL301", true)]);
    assert_eq!(results[1]["suppressions"][0]["kind"], "external");
    assert_eq!(
        results[1]["suppressions"][0]["justification"],
        "--ignore PL301"
    );

    // `--select PL2` keeps only the PL2xx family: nothing here.
    let report = json(&podlab_in(
        &dir,
        &["lint", "plain.yaml", "--format", "json", "--select", "PL2"],
        None,
    ));
    assert_eq!(found(&report, "diagnostics"), []);

    // `.podlab.yaml`'s ignore, found from a subdirectory upwards.
    write(&dir, ".podlab.yaml", "ignore: [image-tag-mutable]\n");
    write(&dir, "sub/plain.yaml", TWO_PODS);
    let report = json(&podlab_in(
        &dir.join("sub"),
        &["lint", "plain.yaml", "--format", "json"],
        None,
    ));
    assert_eq!(found(&report, "diagnostics"), []);
    assert_eq!(found(&report, "suppressed").len(), 2);
    let reason = report["suppressed"][0]["suppression"]["justification"]
        .as_str()
        .unwrap_or("");
    assert!(
        reason.starts_with("ignored in ") && reason.ends_with(".podlab.yaml"),
        "{reason}"
    );
}

#[test]
fn a_stale_suppression_is_reported() {
    let dir = temp_dir("stale");
    write(
        &dir,
        "pinned.yaml",
        &TWO_PODS.replace(
            "image: nginx",
            "image: nginx:1.27 # podlab:ignore PL301 pinned",
        ),
    );
    let output = podlab_in(&dir, &["lint", "pinned.yaml", "--format", "json"], None);
    assert_eq!(output.status.code(), Some(0));
    let report = json(&output);
    assert_eq!(
        found(&report, "diagnostics"),
        [("PL006".to_string(), 8), ("PL006".to_string(), 17)]
    );
    assert_eq!(report["diagnostics"][0]["severity"], "info");
}

#[test]
fn a_config_typo_gets_did_you_mean_with_its_position() {
    let dir = temp_dir("typo");
    write(&dir, ".podlab.yaml", "ignore: [PL004]\nexlude: [vendor/]\n");
    write(&dir, "plain.yaml", TWO_PODS);
    let output = podlab_in(&dir, &["lint", "plain.yaml"], None);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(
            ".podlab.yaml:2:1: error[PL002]: unknown setting \"exlude\": did you mean `exclude`?"
        ),
        "{stderr}"
    );
    // `--ignore` with a misspelt rule is a usage error too.
    let output = podlab_in(
        &dir,
        &[
            "lint",
            "plain.yaml",
            "--config",
            "/dev/null",
            "--ignore",
            "PL3O1",
        ],
        None,
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("did you mean `PL301`?"));
}

#[test]
fn a_directory_is_walked_minus_excludes_and_print_config_shows_the_result() {
    let dir = temp_dir("walk");
    write(
        &dir,
        ".podlab.yaml",
        "exclude: [vendor/, \"*.tpl.yaml\"]\nseverity: {PL301: error}\n",
    );
    write(&dir, "apps/b.yml", TWO_PODS);
    write(&dir, "apps/a/deep.yaml", TWO_PODS);
    write(&dir, "apps/skip.tpl.yaml", TWO_PODS);
    write(&dir, "apps/notes.txt", "not yaml");
    write(&dir, "vendor/v.yaml", TWO_PODS);
    write(&dir, ".git/x.yaml", TWO_PODS);
    let output = podlab_in(&dir, &["lint", "."], None);
    assert_eq!(
        output.status.code(),
        Some(1),
        "the severity override makes PL301 an error"
    );
    let output = podlab_in(
        &dir,
        &["lint", ".", "--format", "json", "--exit-zero"],
        None,
    );
    assert_eq!(output.status.code(), Some(0));
    let report = json(&output);
    let files: Vec<&str> = report["diagnostics"]
        .as_array()
        .expect("list")
        .iter()
        .map(|d| d["file"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        files,
        [
            "./apps/a/deep.yaml",
            "./apps/a/deep.yaml",
            "./apps/b.yml",
            "./apps/b.yml"
        ]
    );
    // No PL004 for the Services without --verbose.
    assert!(report["diagnostics"]
        .as_array()
        .expect("list")
        .iter()
        .all(|d| d["rule"] == "PL301" && d["severity"] == "error"));
    let shown = podlab_in(&dir.join("apps"), &["lint", "--print-config"], None);
    let shown = String::from_utf8_lossy(&shown.stdout);
    assert!(shown.contains("severity: {PL301: error}\n"), "{shown}");
    assert!(
        shown.contains("exclude: [vendor/, *.tpl.yaml]\n"),
        "{shown}"
    );
}

#[test]
fn a_config_scenario_applies_to_every_manifest_without_its_own() {
    let dir = temp_dir("scenario");
    write(&dir, ".podlab.yaml", "scenario: cluster.yaml\n");
    // A cluster without GPUs: a pod asking for one can never schedule
    // (PL502), where the default cluster has an A100 for it.
    write(&dir, "cluster.yaml", "apiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: {name: team}\nspec:\n  cluster:\n    nodePools:\n      - name: cpu\n        count: 1\n        cpu: \"8\"\n        memory: 32Gi\n");
    let gpu = "apiVersion: v1\nkind: Pod\nmetadata: {name: g}\nspec:\n  containers:\n    - name: api\n      image: nginx:1.27\n      resources:\n        limits: {nvidia.com/gpu: 1}\n";
    let report = json(&podlab_in(
        &dir,
        &["lint", "-", "--format", "json"],
        Some(gpu),
    ));
    let rules = found(&report, "diagnostics");
    assert!(rules.contains(&("PL502".to_string(), 9)), "{rules:?}");
    assert!(
        rules.iter().all(|(_, line)| *line <= 9),
        "nothing reported inside the appended scenario: {rules:?}"
    );
    let without = json(&podlab_in(
        &dir,
        &["lint", "-", "--format", "json", "--config", "/dev/null"],
        Some(gpu),
    ));
    assert!(!found(&without, "diagnostics")
        .iter()
        .any(|(rule, _)| rule == "PL502"));
}

#[test]
fn stdin_reads_helm_output_and_github_annotations_escape() {
    let dir = temp_dir("stdin");
    let helm = format!("---\n# Source: chart/templates/pods.yaml\n{TWO_PODS}");
    let output = podlab_in(
        &dir,
        &["lint", "-", "--format", "github", "--config", "/dev/null"],
        Some(&helm),
    );
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].starts_with("::warning file=-,line=10,col=14,endLine=10,endColumn=19,title=PL301 image-tag-mutable::container \"api\""), "{text}");
    // The help's line break is escaped, so each annotation stays one line.
    assert!(lines[0].contains("%0Ahelp: pin a version"), "{text}");
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let dir = temp_dir("pipe");
    // Enough findings for far more output than a pipe buffers.
    let many: String = (0..2000).map(|i| format!("---\napiVersion: v1\nkind: Pod\nmetadata: {{name: p{i}}}\nspec:\n  containers:\n    - name: api\n      image: nginx\n")).collect();
    write(&dir, "many.yaml", &many);
    for args in [
        &["lint", "many.yaml", "--config", "/dev/null"][..],
        &["simulate", "many.yaml"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_podlab"))
            .args(args)
            .current_dir(&dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("podlab runs");
        let mut stdout = child.stdout.take().expect("stdout");
        let mut first = [0u8; 64];
        stdout.read_exact(&mut first).expect("some output");
        drop(stdout);
        let output = child.wait_with_output().expect("podlab ends");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            matches!(output.status.code(), Some(0 | 141)),
            "{args:?}: {:?} {stderr}",
            output.status
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
