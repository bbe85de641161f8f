//! One scheduler: the FailedScheduling text a lint rule quotes (PL501,
//! PL502, PL505) is the text the simulator's scheduler writes for the same
//! file, over every real manifest of the corpus (`tests/corpus/`), every
//! golden scenario (`tests/golden/`) and every rule fixture
//! (`tests/fixtures/rules/PL50*/`). Both come from `podlab_core::sched`; this test
//! keeps them from drifting apart again.
//!
//! A rule's quote is compared with the first FailedScheduling event of the
//! pods of the workload it names (`Deployment "vllm"` at the start of the
//! message): PL501 and PL502 describe a pod no node takes, PL505 the first
//! pod beyond what the nodes hold, which is the first of that workload's
//! pods to fail in the simulation as well.

use std::path::{Path, PathBuf};

use podlab_core::lint::lint;
use podlab_core::sim::{simulate, Options};

fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            yaml_files(&path, out);
        } else if matches!(
            path.extension().and_then(|ext| ext.to_str()),
            Some("yaml" | "yml")
        ) {
            out.push(path);
        }
    }
}

fn inputs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    yaml_files(&root.join("tests/corpus"), &mut files);
    yaml_files(&root.join("../../tests/golden"), &mut files);
    for rule in ["PL501", "PL502", "PL504", "PL505"] {
        yaml_files(&root.join("tests/fixtures/rules").join(rule), &mut files);
    }
    files.sort();
    files
}

/// `Deployment "vllm"` at the start of a message: ("Deployment", "vllm").
fn subject(message: &str) -> Option<(&str, &str)> {
    let (kind, rest) = message.split_once(" \"")?;
    let (name, _) = rest.split_once('"')?;
    Some((kind, name))
}

/// The event a message or help quotes: `FailedScheduling "<event>"`.
fn quoted_event(text: &str) -> Option<&str> {
    let (_, rest) = text.split_once("FailedScheduling \"")?;
    // The event itself never holds `"`; the quote ends at the next one.
    rest.split_once('"').map(|(event, _)| event)
}

/// Whether a pod of the run (its owner `Kind/name`) belongs to the workload.
fn owned_by(owner: &str, kind: &str, name: &str) -> bool {
    match kind {
        // A CronJob's pods belong to its Jobs `<name>-<minutes>`.
        "CronJob" => owner
            .strip_prefix("Job/")
            .and_then(|job| job.strip_prefix(name))
            .is_some_and(|rest| rest.starts_with('-')),
        _ => owner == format!("{kind}/{name}"),
    }
}

#[test]
fn lint_quotes_the_simulators_failed_scheduling_text() {
    let files = inputs();
    assert!(
        files.len() > 30,
        "expected the corpus, goldens and fixtures, found {} files",
        files.len()
    );
    let mut compared = 0usize;
    let mut problems = Vec::new();
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let report = lint(&text);
        let quotes: Vec<(&str, String, String, String)> = report
            .diagnostics
            .iter()
            .filter(|d| matches!(d.rule, "PL501" | "PL502" | "PL505"))
            .filter_map(|d| {
                let (kind, name) = subject(&d.message.en)?;
                let event = quoted_event(&d.message.en)
                    .or_else(|| d.help.as_ref().and_then(|help| quoted_event(&help.en)))?;
                Some((
                    d.rule,
                    kind.to_string(),
                    name.to_string(),
                    event.to_string(),
                ))
            })
            .collect();
        if quotes.is_empty() {
            continue;
        }
        let run = simulate(&text, &Options::default());
        // A CronJob's first Job may come after the Scenario's duration (a
        // nightly schedule): run those files for two days.
        let long_run = quotes
            .iter()
            .any(|(_, kind, _, _)| kind == "CronJob")
            .then(|| {
                simulate(
                    &text,
                    &Options {
                        until: Some(48 * 3600 * 1000),
                    },
                )
            });
        for (rule, kind, name, event) in quotes {
            compared += 1;
            let run = long_run
                .as_ref()
                .filter(|_| kind == "CronJob")
                .unwrap_or(&run);
            let first = run.events.iter().find(|e| {
                e.reason == "FailedScheduling"
                    && run.pods.iter().any(|pod| {
                        *e.object == *format!("Pod/{}", pod.name)
                            && owned_by(&pod.owner, &kind, &name)
                    })
            });
            match first {
                Some(simulated) if *simulated.message == *event => {}
                Some(simulated) => problems.push(format!(
                    "{}: {rule} on {kind} \"{name}\" quotes\n  {event}\nthe simulator writes\n  {}",
                    path.display(),
                    simulated.message
                )),
                None => problems.push(format!(
                    "{}: {rule} on {kind} \"{name}\" quotes a FailedScheduling the simulator never writes:\n  {event}",
                    path.display()
                )),
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} of {compared} quotes differ:\n{}",
        problems.len(),
        problems.join("\n")
    );
    // The fixtures alone hold more than a dozen such quotes; a test that
    // compared nothing would prove nothing.
    assert!(compared >= 10, "only {compared} quotes compared");
}

/// PL502 used to build its own text and left out the NodeAffinity filter.
/// Three nodes: `cpu-0` (label pool=cpu, no GPU) and `gpu-0`, `gpu-1` (pool=gpu,
/// one L4 each); the pod selects pool=gpu and asks for 2 GPUs. cpu-0 fails
/// NodeAffinity (before NodeResourcesFit looks at its missing GPU); each GPU
/// node fails `Insufficient nvidia.com/gpu` with 2 > 1 allocatable, which is
/// unresolvable in v1.34+; so no node is a preemption candidate: 3 × not
/// helpful. Histogram entries sort as strings: "1 node(s)…" < "2 Insufficient…".
#[test]
fn pl502_quotes_the_node_affinity_rejection() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/rules/PL502/fail_selector_and_too_few_gpus.yaml");
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let expected = "0/3 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 2 Insufficient nvidia.com/gpu. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.";
    let report = lint(&text);
    let pl502 = report
        .diagnostics
        .iter()
        .find(|d| d.rule == "PL502")
        .map(|d| d.message.en.clone())
        .unwrap_or_default();
    assert_eq!(quoted_event(&pl502), Some(expected), "{pl502}");
    let run = simulate(&text, &Options::default());
    let simulated = run
        .events
        .iter()
        .find(|e| e.reason == "FailedScheduling")
        .map(|e| &*e.message);
    assert_eq!(simulated, Some(expected));
}
