//! `kubectl get pods [-o wide]`, `get pod NAME`, `get events [--sort-by=
//! .lastTimestamp] [--field-selector involvedObject.name=P]` through
//! podlab's line (`podlab_core::kubectl::run`) against the real kubectl
//! given the same objects, with the server-side Tables built by
//! `tables.rs` from the served Pod and Event objects.
//!
//! Nothing kubectl prints here depends on its own clock (the server
//! prints the ages), so the objects carry podlab's epoch and the Tables
//! are printed at the server time `EPOCH + at`.

use podlab_core::manifest::duration::Millis;
use podlab_core::sim::{PodRun, Run};
use serde_json::Value;

use super::objects::{self, Clock, EPOCH};
use super::server::{ApiServer, Objects};
use super::{line_diff, run_kubectl, tables, write_kubeconfig, TempDir};

/// The objects as the API server lists them: the pods that exist at `at`
/// and every pod's events, each list by name, with their Tables.
pub fn served_tables(text: &str, run: &Run, at: Millis) -> Objects {
    let clock = Clock { base: EPOCH };
    let mut existing: Vec<&PodRun> = run.pods.iter().filter(|pod| pod.exists_at(at)).collect();
    existing.sort_by(|a, b| a.name.cmp(&b.name));
    let pods: Vec<Value> = existing
        .iter()
        .map(|pod| objects::pod(run, pod, at, clock, text))
        .collect();
    let mut events: Vec<Value> = run
        .pods
        .iter()
        .flat_map(|pod| objects::events(run, pod, at, clock))
        .collect();
    events.sort_by(|a, b| {
        a["metadata"]["name"]
            .as_str()
            .cmp(&b["metadata"]["name"].as_str())
    });
    let now = EPOCH * 1000 + i64::try_from(at).expect("a time in range");
    Objects {
        pod_table: Some(tables::pod_table(&pods, now)),
        event_table: Some(tables::event_table(&events, now)),
        pods,
        events,
        ..Objects::default()
    }
}

/// The lines compared on a run at `at`.
pub fn table_lines(run: &Run, at: Millis) -> Vec<String> {
    let mut lines = vec![
        "get pods".to_string(),
        "get pods -o wide".to_string(),
        "get events".to_string(),
        "get events --sort-by=.lastTimestamp".to_string(),
    ];
    let mut names: Vec<&str> = run
        .pods
        .iter()
        .filter(|pod| pod.exists_at(at))
        .map(|pod| pod.name.as_str())
        .collect();
    names.sort_unstable();
    for name in names {
        lines.push(format!("get pod {name}"));
        lines.push(format!("get pod {name} -o wide"));
        lines.push(format!(
            "get events --field-selector involvedObject.name={name}"
        ));
    }
    lines
}

/// Each line of [`table_lines`] through podlab's line and the real
/// kubectl; returns a diff for each line whose stdout, stderr or success
/// differ.
pub fn compare_tables(label: &str, text: &str, run: &Run, at: Millis) -> Vec<String> {
    let context = podlab_core::exercise::exec::ExecContext::new(text, run);
    let server = ApiServer::start(served_tables(text, run, at));
    let dir = TempDir::new("kubectl-tables");
    let kubeconfig = write_kubeconfig(&dir.0, &server);
    let mut failures = Vec::new();
    for line in table_lines(run, at) {
        let args: Vec<&str> = line.split_whitespace().collect();
        let printed = run_kubectl(&dir.0, &kubeconfig, &args);
        let podlab = podlab_core::kubectl::run(&context, &line, at);
        if podlab.stdout != printed.stdout
            || podlab.stderr != printed.stderr
            || (podlab.exit_code == 0) != printed.success
        {
            failures.push(format!(
                "{line} ({label} at {} ms) differs from kubectl v1.35 (- podlab, + kubectl; · is a trailing space):\n{}stderr: podlab {:?}, kubectl {:?}",
                at,
                line_diff(&podlab.stdout, &printed.stdout),
                podlab.stderr,
                printed.stderr,
            ));
        }
    }
    failures
}
