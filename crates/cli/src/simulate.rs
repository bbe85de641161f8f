//! `podlab simulate`: the state of the simulated cluster at `--at`, as the
//! kubectl commands would print it (or JSON), then the diagnosis.

use podlab_core::diagnostic::Severity;
use podlab_core::i18n::Lang;
use podlab_core::lint::lint;
use serde_json::{json, Value};

use crate::{lang_value, read_input, USAGE};

/// `podlab simulate`: the state at `--at` (default: the Scenario's duration).
/// Several files are read as one text, as `kubectl apply -f a -f b` would.
pub fn simulate_command(args: &[String]) -> Result<u8, String> {
    use podlab_core::manifest::duration;
    use podlab_core::sim;
    let mut format = "text".to_string();
    let mut lang = Lang::En;
    let mut at = None;
    let mut window = 60;
    let mut files = Vec::new();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--format" => format = iter.next().ok_or("--format needs a value")?.clone(),
            "--lang" => lang = lang_value(iter.next())?,
            "--window" => {
                let value = iter.next().ok_or("--window needs seconds (`60`)")?;
                window = value
                    .parse::<u64>()
                    .ok()
                    .filter(|w| *w > 0)
                    .ok_or_else(|| format!("--window: `{value}` is not a number of seconds"))?;
            }
            "--at" => {
                let value = iter.next().ok_or("--at needs a duration (`12m`)")?;
                at = Some(duration::parse(value).map_err(|error| error.message(value).en)?);
            }
            _ if arg.starts_with("--") => return Err(format!("unknown option `{arg}`\n{USAGE}")),
            _ => files.push(arg.clone()),
        }
    }
    if files.is_empty() {
        return Err(USAGE.into());
    }
    if !matches!(format.as_str(), "text" | "json") {
        return Err(format!("unknown format `{format}` (text or json)"));
    }
    let mut text = String::new();
    for file in &files {
        let part = read_input(file)?;
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        if !text.is_empty() {
            text.push_str("---\n");
        }
        text.push_str(&part);
    }
    let report = lint(&text);
    // Reading errors (syntax, unknown fields, invalid values, limits) mean
    // the objects may not be what the author meant; rule findings such as
    // PL201 are what the simulation is there to show.
    let unreadable = report.diagnostics.iter().any(|d| {
        d.severity == Severity::Error && matches!(d.rule, "PL001" | "PL002" | "PL003" | "PL005")
    });
    if unreadable {
        eprintln!("podlab: some objects could not be read as written (`podlab lint` shows where); simulating what could be read");
    }
    let run = sim::simulate(&text, &sim::Options { until: at });
    // Actions naming what does not exist at their time (docs/simulator.md
    // "Actions"): on stderr, with the line and column of the name.
    let action_errors: Vec<(usize, usize, String)> = {
        let index = podlab_core::span::LineIndex::new(&text);
        run.action_errors
            .iter()
            .map(|error| {
                let at = index.line_col(&text, error.span.start);
                let message = podlab_core::explain::actions::message(error);
                (at.line, at.column, message.get(lang).to_string())
            })
            .collect()
    };
    for (line, column, message) in &action_errors {
        eprintln!("podlab: {line}:{column}: {message}");
    }
    let cluster_note = sim::cluster_note(&text);
    let at = run.end;
    let seconds = |ms: u64| ms as f64 / 1000.0;
    if format == "json" {
        let pods: Vec<Value> = run
            .pods
            .iter()
            .filter(|pod| pod.exists_at(at))
            .map(|pod| {
                let row = podlab_core::explain::get_pods::row(pod, at);
                let containers: Vec<Value> = pod
                    .statuses_at(at)
                    .iter()
                    .map(|status| container_json(status, None))
                    .collect();
                // `status.initContainerStatuses`, absent when the pod has no
                // init containers (as the API omits it); a sidecar is marked.
                let init_containers: Vec<Value> = pod
                    .init_statuses_at(at)
                    .iter()
                    .enumerate()
                    .map(|(index, status)| {
                        container_json(status, Some(sim::init::is_sidecar(pod, index)))
                    })
                    .collect();
                let mut item = json!({
                    "name": pod.name, "owner": pod.owner,
                    "node": pod.node.as_ref().filter(|(_, bound)| *bound <= at).map(|(node, _)| node.clone()),
                    "phase": pod.phase_at(at), "status": row.status, "ready": row.ready,
                    "restarts": row.restart_count, "containers": containers,
                });
                if !init_containers.is_empty() {
                    item["initContainers"] = json!(init_containers);
                }
                item
            })
            .collect();
        let events: Vec<Value> = run
            .events
            .iter()
            .filter(|event| event.at <= at)
            .map(|event| {
                json!({
                    "at": seconds(event.at), "object": &*event.object,
                    "type": if event.warning { "Warning" } else { "Normal" },
                    "reason": event.reason, "message": &*event.message,
                })
            })
            .collect();
        let jobs: Vec<Value> = run
            .jobs
            .iter()
            .filter(|job| job.deleted.is_none_or(|gone| gone > at))
            .map(|job| {
                let conditions: Vec<Value> = job
                    .conditions
                    .iter()
                    .filter(|condition| condition.at <= at)
                    .map(|condition| json!({"type": condition.kind, "reason": condition.reason}))
                    .collect();
                json!({
                    "name": job.name, "succeeded": job.succeeded,
                    "failed": job.failed, "conditions": conditions,
                })
            })
            .collect();
        let refused: Vec<Value> = run
            .refused
            .iter()
            .map(|refused| json!({"object": refused.object, "message": refused.message}))
            .collect();
        // What podlab assumed (docs/paths.md): one object per number, always
        // present, empty when the text states everything the run used.
        let assumed: Vec<Value> = run
            .assumed
            .iter()
            .map(|assumption| json!({"path": assumption.path.to_string(), "value": assumption.value}))
            .collect();
        let mut output = json!({"at": seconds(at), "pods": pods, "jobs": jobs, "events": events, "assumed": assumed});
        // Only when the cluster was inferred from the manifests' cloud hints.
        if let Some(note) = &cluster_note {
            output["clusterNote"] = json!(note.get(lang));
        }
        // Only when something was refused, so the contract's shape is unchanged otherwise.
        if !refused.is_empty() {
            output["refused"] = json!(refused);
        }
        // Only when an action could not happen.
        if !action_errors.is_empty() {
            let errors: Vec<Value> = action_errors
                .iter()
                .map(|(line, column, message)| json!({"line": line, "column": column, "message": message}))
                .collect();
            output["actionErrors"] = json!(errors);
        }
        // Only when the Scenario sends traffic.
        if let Some(requests) = &run.traffic {
            output["traffic"] = crate::traffic::json(requests, at, window);
        }
        // Only when the text has HorizontalPodAutoscalers.
        if !run.autoscalers.is_empty() {
            output["autoscalers"] = crate::autoscalers::json(&run.autoscalers, at);
        }
        outln!(
            "{}",
            serde_json::to_string_pretty(&output).unwrap_or_default()
        );
    } else {
        if let Some(note) = &cluster_note {
            // A shell comment, so the transcript still reads as a terminal session.
            outln!("# {}\n", note.get(lang));
        }
        if let Some(summary) = podlab_core::manifest::assumed::summary(&run.assumed) {
            outln!("# {}\n", summary.get(lang));
        }
        out!("{}", kubectl_transcript(&run, at));
        if let Some(requests) = &run.traffic {
            outln!("\n{}", crate::traffic::table(requests, at, lang));
            use podlab_core::explain::traffic::worst_episode;
            if let Some(finding) = worst_episode(requests, &run, at) {
                outln!("{}", crate::traffic::finding(&finding, lang));
            }
        }
        // After the transcript: a diagnosis per unhealthy pod, in `--lang`
        // (kubectl's own output above stays English).
        use podlab_core::explain::diagnosis;
        out!(
            "{}",
            diagnosis::render(&diagnosis::diagnose(&run, at), lang)
        );
    }
    Ok(0)
}

/// The text view of a run (DESIGN.md): what a person would see typing
/// `kubectl get pods`, then for each pod `kubectl describe pod` and
/// `kubectl logs` (and `--previous` when a container has a terminated
/// previous instance), each introduced by its `$ kubectl ...` line; the
/// Services', the HPAs' and the rolled-out Deployments' commands come
/// after `get pods`. Errors
/// kubectl would print on stderr are part of the transcript, in place.
/// One entry of a pod's `containers` or `initContainers` in `--format
/// json`: name, state, ready, restart count, the reason of a waiting or
/// terminated state and the last termination; `sidecar` for an init
/// container (a restartable one, `restartPolicy: Always`).
fn container_json(status: &podlab_core::sim::ContainerStatus, sidecar: Option<bool>) -> Value {
    use podlab_core::sim::ContainerState;
    let seconds = |ms: u64| ms as f64 / 1000.0;
    let (state, reason) = match &status.state {
        ContainerState::Waiting { reason, .. } => ("waiting", Some(reason.clone())),
        ContainerState::Running { .. } => ("running", None),
        ContainerState::Terminated { reason, .. } => ("terminated", Some(reason.clone())),
    };
    let mut item = json!({"name": status.name, "state": state, "ready": status.ready, "restartCount": status.restart_count});
    if let Some(sidecar) = sidecar {
        item["sidecar"] = json!(sidecar);
    }
    if let Some(reason) = reason {
        item["reason"] = json!(reason);
    }
    if let Some(ContainerState::Terminated {
        reason,
        code,
        finished,
        ..
    }) = &status.last_state
    {
        item["lastTermination"] =
            json!({"reason": reason, "exitCode": code, "at": seconds(*finished)});
    }
    item
}

fn kubectl_transcript(run: &podlab_core::sim::Run, at: u64) -> String {
    use podlab_core::explain::{describe, get_pods, logs};
    use podlab_core::sim::ContainerState;
    let mut out = String::new();
    if !run.refused.is_empty() {
        // `kubectl apply` stops at the API server for these; nothing of them runs.
        out.push_str("$ kubectl apply -f .\n");
        for refused in &run.refused {
            out.push_str(&refused.message);
            out.push('\n');
        }
        out.push('\n');
    }
    out.push_str("$ kubectl get pods\n");
    let table = get_pods::render(run, at);
    if table.is_empty() {
        out.push_str("No resources found in default namespace.\n");
    }
    out.push_str(&table);
    out.push_str(&podlab_core::explain::service::transcript(run, at));
    out.push_str(&podlab_core::explain::hpa::transcript(run, at));
    out.push_str(&podlab_core::explain::deployment::transcript(run, at));
    for pod in run.pods.iter().filter(|pod| pod.exists_at(at)) {
        out.push_str(&format!("\n$ kubectl describe pod {}\n", pod.name));
        out.push_str(&describe::describe_pod(run, pod, at));
        let several = pod.containers.len() > 1;
        let statuses = pod.statuses_at(at);
        for container in &pod.containers {
            let target = if several {
                format!("{} -c {}", pod.name, container.name)
            } else {
                pod.name.clone()
            };
            let has_previous = statuses.iter().any(|status| {
                status.name == container.name
                    && matches!(status.last_state, Some(ContainerState::Terminated { .. }))
            });
            let bound = pod.node.as_ref().is_some_and(|(_, bound)| *bound <= at);
            let mut commands = vec![(format!("$ kubectl logs {target}"), false)];
            if has_previous && bound {
                commands.push((format!("$ kubectl logs {target} --previous"), true));
            }
            for (command, previous) in commands {
                out.push_str(&format!("\n{command}\n"));
                match logs::logs(run, pod, &container.name, at, previous) {
                    Ok(text) | Err(text) if text.is_empty() => {}
                    Ok(text) => out.push_str(&text),
                    Err(error) => {
                        out.push_str(&error);
                        out.push('\n');
                    }
                }
            }
        }
    }
    out
}
