//! `kubectl describe node` and `get nodes [-o wide] [--show-labels]`
//! through podlab's line (`podlab_core::kubectl::
//! run`) against the real kubectl given the same objects: the Scenario's
//! nodes as v1 Node objects with their Leases (`explain::node::
//! node_object`, `lease_object`), the pods that exist at T and their
//! events.
//!
//! kubectl asks for the node, the pods bound to it that have not finished
//! (`spec.nodeName=N,status.phase!=Succeeded,status.phase!=Failed`, across
//! namespaces), the node's events twice (by its uid and by its name) and
//! its Lease. The pods' AGE column is kubectl's own clock minus their
//! `creationTimestamp`, so the clocks are made to agree as for `describe
//! pod` (kubectl/mod.rs): the objects' times sit on a base chosen so that
//! kubectl runs within the second of T, and its dates are moved back onto
//! podlab's epoch before the texts are compared.

use podlab_core::explain::node;
use podlab_core::explain::pod_object;
use podlab_core::manifest::duration::Millis;
use podlab_core::manifest::scenario::Scenario;
use podlab_core::sim::Run;
use serde_json::Value;

use super::objects::{self, Clock, EPOCH};
use super::server::{ApiServer, Objects};
use super::{line_diff, next_whole_second, run_kubectl, unix_now, write_kubeconfig, TempDir};

/// The objects as the API server lists them at `at` on `clock`: the nodes
/// of `scenario` (the run's) and their Leases, with the nodes' Table, and
/// the pods and events of `lines::served_on`.
pub fn served(text: &str, run: &Run, scenario: &Scenario, at: Millis, clock: Clock) -> Objects {
    let core_clock = pod_object::Clock { base: clock.base };
    let mut names: Vec<String> = node::nodes(scenario).iter().map(|n| n.name()).collect();
    names.sort();
    let mut nodes: Vec<Value> = names
        .iter()
        .filter_map(|name| node::node_object(scenario, name, at, core_clock))
        .map(|object| objects::to_json(&object))
        .collect();
    // A node cordoned at `at` (`sim/act.rs`): `spec.unschedulable` and the
    // node lifecycle controller's taint. Its labels and annotations at
    // `at` (`kubectl label|annotate node`, `sim/metadata.rs`).
    for node in &mut nodes {
        let name = node["metadata"]["name"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        if let Some(found) = node::find(scenario, &name) {
            let strings = |pairs: Vec<(String, String)>| {
                Value::Object(
                    pairs
                        .into_iter()
                        .map(|(k, v)| (k, Value::String(v)))
                        .collect(),
                )
            };
            node["metadata"]["labels"] = strings(node::labels_at(run, found.pool, &name, at));
            node["metadata"]["annotations"] = strings(node::annotations_at(run, &name, at));
        }
        let Some(cordon) = run
            .cordons
            .iter()
            .find(|c| c.node == name && c.from <= at && c.until.is_none_or(|until| until > at))
        else {
            continue;
        };
        node["spec"]["unschedulable"] = serde_json::json!(true);
        let taint = serde_json::json!({
            "key": "node.kubernetes.io/unschedulable",
            "effect": "NoSchedule",
            "timeAdded": clock.time(cordon.from),
        });
        match node["spec"]["taints"].as_array_mut() {
            Some(taints) => taints.push(taint),
            None => node["spec"]["taints"] = serde_json::json!([taint]),
        }
    }
    let leases = names
        .iter()
        .filter_map(|name| node::lease_object(scenario, name, at, core_clock))
        .map(|object| objects::to_json(&object))
        .collect();
    let now = clock.base * 1000 + i64::try_from(at).expect("a time in range");
    Objects {
        node_table: Some(super::tables::node_table(&nodes, now)),
        nodes,
        leases,
        ..super::lines::served_on(text, run, at, clock)
    }
}

/// The lines compared at `at`: `get nodes` in each form, every node by
/// name, all of them, and each pool's name as a prefix (kubectl describes
/// every node it starts).
pub fn lines(scenario: &Scenario) -> Vec<String> {
    let mut lines = vec![
        "describe node".to_string(),
        "get nodes".to_string(),
        "get nodes -o wide".to_string(),
        "get nodes --show-labels".to_string(),
        "get nodes -o wide --show-labels".to_string(),
    ];
    for node in node::nodes(scenario) {
        lines.push(format!("describe node {}", node.name()));
        lines.push(format!("get node {}", node.name()));
        lines.push(format!("get node {} -o wide", node.name()));
    }
    for pool in &scenario.node_pools {
        lines.push(format!("describe nodes {}", pool.name));
    }
    lines
}

fn simulated_now(base: i64) -> Millis {
    let millis = i64::try_from(unix_now().as_millis()).expect("a time in range") - base * 1000;
    Millis::try_from(millis).expect("kubectl runs after simulated time 0")
}

/// Each of [`lines`] through podlab's line and the real kubectl at `at`
/// (whole seconds); returns a diff for each line whose stdout, stderr or
/// success differ from podlab's at both ends of kubectl's run.
pub fn compare(label: &str, text: &str, run: &Run, at: Millis) -> Vec<String> {
    assert_eq!(at % 1000, 0, "describe times are whole seconds");
    let at_seconds = i64::try_from(at / 1000).expect("a time in range");
    let context = podlab_core::exercise::exec::ExecContext::new(text, run);
    let scenario = &context.reading.scenario;
    let dir = TempDir::new("kubectl-nodes");
    let mut failures = Vec::new();
    for line in lines(scenario) {
        let args: Vec<&str> = line.split_whitespace().collect();
        let mut compared = false;
        for _attempt in 0..5 {
            let second = i64::try_from(next_whole_second()).expect("a time in range");
            let clock = Clock {
                base: second - at_seconds,
            };
            let server = ApiServer::start(served(text, run, scenario, at, clock));
            let kubeconfig = write_kubeconfig(&dir.0, &server);
            let before = simulated_now(clock.base);
            let printed = run_kubectl(&dir.0, &kubeconfig, &args);
            let after = simulated_now(clock.base);
            if before < at || after >= at + 1000 {
                continue;
            }
            compared = true;
            let stdout = objects::shift_dates(&printed.stdout, EPOCH - clock.base);
            let podlab = [before, after].map(|now| podlab_core::kubectl::run(&context, &line, now));
            let same = podlab.iter().any(|out| {
                out.stdout == stdout
                    && out.stderr == printed.stderr
                    && (out.exit_code == 0) == printed.success
            });
            if !same {
                failures.push(format!(
                    "{line} ({label} at {at} ms) differs from kubectl v1.35 (- podlab, + kubectl; · is a trailing space):\n{}stderr: podlab {:?}, kubectl {:?}\nrequests:\n{}",
                    line_diff(&podlab[0].stdout, &stdout),
                    podlab[0].stderr,
                    printed.stderr,
                    server.requests().join("\n"),
                ));
            }
            break;
        }
        assert!(
            compared,
            "kubectl took a second or more five times in a row; its ages cannot be compared"
        );
    }
    failures
}

/// The requests kubectl made for one `describe node NAME`, for the test
/// that checks what it asked (the Lease, the pods' selector, the events).
pub fn requests_for(text: &str, run: &Run, at: Millis, name: &str) -> Vec<String> {
    let dir = TempDir::new("kubectl-node-requests");
    let context = podlab_core::exercise::exec::ExecContext::new(text, run);
    let scenario = &context.reading.scenario;
    let server = ApiServer::start(served(text, run, scenario, at, Clock { base: EPOCH }));
    let kubeconfig = write_kubeconfig(&dir.0, &server);
    let printed = run_kubectl(&dir.0, &kubeconfig, &["describe", "node", name]);
    assert!(printed.success, "{}", printed.stderr);
    server.requests()
}

/// The JSON of a served node, for assertions on the object itself.
pub fn node_json(text: &str, run: &Run, at: Millis, name: &str) -> Option<Value> {
    let context = podlab_core::exercise::exec::ExecContext::new(text, run);
    served(
        text,
        run,
        &context.reading.scenario,
        at,
        Clock { base: EPOCH },
    )
    .nodes
    .into_iter()
    .find(|node| node["metadata"]["name"] == name)
}
