//! `podlab simulate --format json`: DESIGN.md's `"jobs"` array.

use std::path::Path;
use std::process::Command;

use serde_json::{json, Value};

fn simulate_json(name: &str, at: &str) -> Value {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    let output = Command::new(env!("CARGO_BIN_EXE_podlab"))
        .args(["simulate", &file.display().to_string(), "--at", at])
        .args(["--format", "json"])
        .output()
        .expect("podlab runs");
    assert_eq!(output.status.code(), Some(0));
    serde_json::from_slice(&output.stdout).expect("JSON")
}

/// `crates/core/tests/controllers.rs`: three failed pods, the Job Failed
/// at 52 s with BackoffLimitExceeded.
#[test]
fn a_failed_job_as_design_md_shows_it() {
    let json = simulate_json("job-never-backoff.yaml", "5m");
    assert_eq!(
        json["jobs"],
        json!([{"name": "train", "succeeded": 0, "failed": 3, "conditions": [
            {"type": "FailureTarget", "reason": "BackoffLimitExceeded"},
            {"type": "Failed", "reason": "BackoffLimitExceeded"},
        ]}])
    );
    let phases: Vec<&str> = json["pods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["phase"].as_str().unwrap())
        .collect();
    assert_eq!(phases, vec!["Failed"; 3]);
    // At 20 s: pod 1 failed (seen at 8 s), pod 2 (created 17 s) still running.
    let json = simulate_json("job-never-backoff.yaml", "20s");
    assert_eq!(
        json["jobs"],
        json!([{"name": "train", "succeeded": 0, "failed": 1, "conditions": []}])
    );
}

/// A pod deleted by a Replace CronJob is gone from `pods`, and its Job from
/// `jobs`.
#[test]
fn replaced_jobs_and_their_pods_are_gone() {
    let json = simulate_json("cronjob-policies.yaml", "150s");
    let jobs: Vec<&str> = json["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["name"].as_str().unwrap())
        .collect();
    assert!(jobs.contains(&"replace-29453762"), "{jobs:?}");
    assert!(!jobs.contains(&"replace-29453761"), "{jobs:?}");
    assert!(json["pods"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| !p["name"].as_str().unwrap().starts_with("replace-29453761-")));
}
