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
    served_on(text, run, at, Clock { base: EPOCH })
}

/// [`served_tables`] on `clock` (the Tables printed at `clock`'s `at`).
pub fn served_on(text: &str, run: &Run, at: Millis, clock: Clock) -> Objects {
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
    let now = clock.base * 1000 + i64::try_from(at).expect("a time in range");
    Objects {
        pod_table: Some(tables::pod_table(&pods, now)),
        event_table: Some(tables::event_table(&events, now)),
        pods,
        events,
        ..Objects::default()
    }
}

/// The names of the pods that exist at `at`, as the API server lists them.
fn existing_names(run: &Run, at: Millis) -> Vec<&str> {
    let mut names: Vec<&str> = run
        .pods
        .iter()
        .filter(|pod| pod.exists_at(at))
        .map(|pod| pod.name.as_str())
        .collect();
    names.sort_unstable();
    names
}

/// The lines compared on a run at `at`.
pub fn table_lines(run: &Run, at: Millis) -> Vec<String> {
    let mut lines = vec![
        "get pods".to_string(),
        "get pods -o wide".to_string(),
        "get events".to_string(),
        "get events --sort-by=.lastTimestamp".to_string(),
    ];
    let names = existing_names(run, at);
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

/// The watch events a real API server would stream for the rows podlab's
/// `get pods [NAME] -w [-o wide]` prints after its table
/// (`podlab_core::kubectl::watch::changes`): each the pod at the event's
/// time as a Table of one row printed by the server then (`tables.rs`,
/// the deleted object's last state for a DELETED event), the column
/// definitions only on the first event (the API server's
/// `watchEmbeddedEncoder` sets `NoHeaders` after it), and for a named
/// pod first the synthetic ADDED event a watch from resourceVersion 0
/// starts with (kubectl does not print it).
fn watch_events(text: &str, run: &Run, at: Millis, name: Option<&str>, wide: bool) -> Vec<Value> {
    use podlab_core::kubectl::watch;
    let clock = Clock { base: EPOCH };
    let watched = watch::watched(run, name);
    let until = run.end.min(at.saturating_add(watch::WATCH_SPAN));
    let (changes, _) = watch::changes(&watched, at, until, wide);
    let now = |t: Millis| EPOCH * 1000 + i64::try_from(t).expect("a time in range");
    let mut events = Vec::new();
    if name.is_some() {
        let pod = watched
            .iter()
            .find(|pod| pod.exists_at(at))
            .expect("the named pod exists");
        let object = objects::pod(run, pod, at, clock, text);
        events.push(serde_json::json!({
            "type": "ADDED",
            "object": tables::pod_table(&[object], now(at)),
        }));
    }
    for change in changes {
        let pod = watched[change.pod];
        let shown_at = if change.deleted {
            change.at.saturating_sub(1)
        } else {
            change.at
        };
        let object = objects::pod(run, pod, shown_at, clock, text);
        let kind = if change.deleted {
            "DELETED"
        } else if pod.created > at
            && !events.iter().any(|e: &Value| {
                e["object"]["rows"][0]["object"]["metadata"]["name"] == pod.name.as_str()
            })
        {
            "ADDED"
        } else {
            "MODIFIED"
        };
        events.push(serde_json::json!({
            "type": kind,
            "object": tables::pod_table(&[object], now(change.at)),
        }));
    }
    for event in events.iter_mut().skip(1) {
        if let Some(table) = event["object"].as_object_mut() {
            table.remove("columnDefinitions");
        }
    }
    events
}

/// `get pods -w`, `get pods -w -o wide` and `get pods NAME -w` for every
/// pod that exists at `at`, through podlab's line and the real kubectl
/// given the same watch stream (`watch_events`); returns a diff for each
/// line whose stdout or success differ (podlab's note on until when it
/// watched is not kubectl's text).
pub fn compare_watch(label: &str, text: &str, run: &Run, at: Millis) -> Vec<String> {
    let context = podlab_core::exercise::exec::ExecContext::new(text, run);
    let dir = TempDir::new("kubectl-watch");
    let mut cases: Vec<(Option<String>, bool)> = vec![(None, false), (None, true)];
    let names = existing_names(run, at);
    cases.extend(
        names
            .into_iter()
            .map(|name| (Some(name.to_string()), false)),
    );
    let mut failures = Vec::new();
    for (name, wide) in cases {
        let mut objects = served_tables(text, run, at);
        objects.pod_watch = Some(watch_events(text, run, at, name.as_deref(), wide));
        let server = ApiServer::start(objects);
        let kubeconfig = write_kubeconfig(&dir.0, &server);
        let line = format!(
            "get pods{}{} -w",
            name.as_deref().map(|n| format!(" {n}")).unwrap_or_default(),
            if wide { " -o wide" } else { "" }
        );
        let args: Vec<&str> = line.split_whitespace().collect();
        let printed = run_kubectl(&dir.0, &kubeconfig, &args);
        let podlab = podlab_core::kubectl::run(&context, &line, at);
        if podlab.stdout != printed.stdout || (podlab.exit_code == 0) != printed.success {
            failures.push(format!(
                "{line} ({label} at {at} ms) differs from kubectl v1.35 (- podlab, + kubectl; · is a trailing space):\n{}stderr: podlab {:?}, kubectl {:?}\nrequests:\n{}",
                line_diff(&podlab.stdout, &printed.stdout),
                podlab.stderr,
                printed.stderr,
                server.requests().join("\n"),
            ));
        }
    }
    failures
}
