//! The replay of a liveness probe that kills a model still loading
//! (`liveness-kills-slow-start`), read from a `describe pod`.
//!
//! From the paste: the container's name, image, port and its `Liveness:`
//! line (an `http-get` probe: path, port, delay, timeout, period,
//! thresholds), `Restart Count:`, the waiting reason, and the pod's age. The
//! load time is not in a describe: any load longer than the probe's kill
//! point (`initialDelaySeconds + periodSeconds × failureThreshold`) fails the
//! same way, so the replay assumes twice that and says so in `assumed`. The
//! fix is the answer's startupProbe.

use super::{
    dns_name, pod_age, run, running, status_and_restarts, Owner, Rebuilt, Replay, Workload,
};
use crate::manifest::assumed::Assumption;
use crate::manifest::path::{Path, ProgramField};
use crate::paste::read::{ContainerFacts, PodFacts};
use crate::text;

/// `http-get http://:8000/health delay=10s timeout=1s period=10s
/// #success=1 #failure=3` → (path, port, delay, timeout, period, success,
/// failure).
fn http_probe(line: &str) -> Option<(String, String, u64, u64, u64, u64, u64)> {
    let value = line.split_once(':').map(|(_, v)| v.trim())?;
    let mut words = value.split_whitespace();
    if words.next()? != "http-get" {
        return None;
    }
    let url = words.next()?;
    let rest = url.split_once("://").map(|(_, r)| r).unwrap_or(url);
    let (hostport, path) = rest.split_once('/').unwrap_or((rest, ""));
    let (_, port) = hostport.rsplit_once(':')?;
    let number = |key: &str| -> Option<u64> {
        value
            .split_whitespace()
            .find_map(|w| w.strip_prefix(key))
            .map(|v| v.trim_end_matches('s'))
            .and_then(|v| v.parse().ok())
    };
    Some((
        format!("/{path}"),
        port.to_string(),
        number("delay=")?,
        number("timeout=")?,
        number("period=")?,
        number("#success=").or_else(|| number("successThreshold="))?,
        number("#failure=").or_else(|| number("failureThreshold="))?,
    ))
}

pub(super) fn replay(pod: &PodFacts, container: &ContainerFacts) -> Option<Replay> {
    let (_, _, probe_line) = container.probes.iter().find(|(t, _, _)| t == "Liveness")?;
    let (path, port, delay, timeout, period, success, failure) = http_probe(&probe_line.text)?;
    // The Scheduled row's age: the pod was bound when it was created.
    pod.events.iter().find(|e| e.reason == "Scheduled")?;
    let age = pod_age(pod)?;
    let (restarts, _) = container.restarts.as_ref()?;
    let status = match (&container.waiting_reason, &container.state) {
        (Some((reason, _)), _) => reason.clone(),
        (None, Some((state, _))) if state == "Running" => "Running".to_string(),
        _ => return None,
    };
    let name = dns_name(&container.name, "app");
    let workload = Workload {
        owner: Owner::Deployment,
        name: dns_name(&super::deployment_name(&pod.name), "app"),
    };
    let deployment = workload.name.clone();
    let image =
        super::image_of(container).unwrap_or_else(|| "registry.example.com/app:pasted".to_string());
    let kill_s = delay + period * failure;
    let startup_s = (kill_s * 2).max(30);
    let port_yaml = if port.chars().all(|c| c.is_ascii_digit()) {
        port.clone()
    } else {
        format!("{port:?}")
    };
    let probe = format!(
        "httpGet: {{ path: {path}, port: {port_yaml} }}\n            initialDelaySeconds: {delay}\n            timeoutSeconds: {timeout}\n            periodSeconds: {period}\n            successThreshold: {success}\n            failureThreshold: {failure}"
    );
    // The container's other probes (a readinessProbe's failures while
    // loading are events too).
    let others: String = super::probes_yaml(container, &["Liveness"])
        .0
        .lines()
        .map(|l| format!("          {l}\n"))
        .collect();
    let build = |startup_probe: &str| {
        format!(
            "# Rebuilt by `podlab diagnose` from a pasted `kubectl describe pod` (docs/diagnose.md):\n\
             # the container, its port and livenessProbe as pasted; the load time is assumed.\n\
             apiVersion: apps/v1\n\
             kind: Deployment\n\
             metadata:\n  name: {deployment}\n\
             spec:\n  replicas: 1\n  selector:\n    matchLabels: {{ app: {deployment} }}\n  template:\n    metadata:\n      labels: {{ app: {deployment} }}\n    spec:\n      containers:\n\
             \x20       - name: {name}\n\
             \x20         image: {image}\n\
             \x20         ports: [{{ containerPort: {port_yaml} }}]\n\
             \x20         livenessProbe:\n            {probe}\n{others}{startup_probe}\
             ---\n\
             apiVersion: podlab.dev/v1alpha1\n\
             kind: Scenario\n\
             metadata: {{ name: replay }}\n\
             spec:\n  workload:\n    - container: {name}\n      startup: {startup_s}s\n"
        )
    };
    let text = build("");
    let fixed_text = build(&format!(
        "          startupProbe:\n            httpGet: {{ path: {path}, port: {port_yaml} }}\n            periodSeconds: 10\n            failureThreshold: 30\n"
    ));
    let restarts = *restarts;
    Some(run(Rebuilt {
        kind: "liveness-kills-slow-start",
        text,
        fixed_text: Some(fixed_text),
        workload,
        age,
        startup_s,
        compare: move |view: &super::View<'_>| {
            status_and_restarts(&status, Some(restarts), view)
        },
        recovers: running,
        assumed: vec![Assumption {
            path: Path::program(&container.name, ProgramField::Startup),
            value: format!("{startup_s}s"),
        }],
        fix_note: text!(
            "the fix adds the startupProbe of the answer's fix (failureThreshold 30 × periodSeconds 10: up to 300 s of load)",
            "修正加上答案裡的 startupProbe（failureThreshold 30 × periodSeconds 10：最多 300 秒的載入時間）"
        ),
    }, pod))
}
