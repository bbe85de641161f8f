//! `kubectl logs` and `kubectl logs --previous` at a time T
//! (`kubectl-output.md` §5): which container instance the kubelet reads,
//! kubectl's error texts, and what the program inside wrote.
//!
//! The program's log is a small deterministic model in the program's own
//! words (a Python model server that loads its weights, then starts
//! uvicorn; kubernetes-behavior.md decision 6). For an instance started at S
//! with load time L (`startup`):
//! - S: `Loading model weights...`, then every 10 s of the load
//!   `Loading model weights: <p>% (<k>s)`, with p the share of L elapsed
//!   (every 20, 30, … s for loads over 1000 s: at most 100 lines);
//! - S + L: `Model loaded in <L>s` (one decimal); a serving program then
//!   prints uvicorn's startup lines ending with `Uvicorn running on
//!   http://0.0.0.0:<listenPort> (Press CTRL+C to quit)`; a batch program
//!   (`runFor`) prints `Job started` and, when it exits 0 after `runFor`,
//!   `Job finished in <runFor>`;
//! - a self-exit (`exit: {after, code, log}`) prints the Scenario's `log`
//!   line at S + after, then the process exits;
//! - SIGTERM while loading (exit 143): no handler is installed yet, nothing
//!   more is written; SIGTERM while serving: uvicorn's `Shutting down` /
//!   `Waiting for application shutdown.`, and on a clean exit (0)
//!   `Application shutdown complete.` / `Finished server process [1]`; a
//!   SIGKILL after the grace period (137) cuts it short;
//! - the kernel's OOM kill (137, `OOMKilled`): the process just stops, no
//!   line (a `CUDA out of memory` traceback would come from a GPU-memory
//!   failure, which the simulator does not produce yet).
//! - a bus error in /dev/shm (exit 1): PyTorch's worker line and the main
//!   process's `RuntimeError` chain (`sim::shm::bus_error_log`).
//!
//! Health-check requests are not logged (as with `--no-access-log`).
//!
//! Errors are returned as the whole line kubectl prints on stderr (exit
//! code 1); an unscheduled pod gives `Ok("")` (nothing, exit 0).

use crate::manifest::duration::{self, Millis};
use crate::manifest::model::{Container, Handler};
use crate::manifest::scenario::Program;
use crate::sim::{ContainerState, GpuOom, Instance, PodRun, Run};

/// The bytes `kubectl logs <pod> -c <container> [--previous]` prints at `at`,
/// or the error line it prints on stderr.
pub fn logs(
    run: &Run,
    pod: &PodRun,
    container: &str,
    at: Millis,
    previous: bool,
) -> Result<String, String> {
    // `-c` names an app container or an init container.
    let init = !pod.containers.iter().any(|c| c.name == container);
    let runs = if init {
        &pod.init_containers
    } else {
        &pod.containers
    };
    let Some(index) = runs.iter().position(|c| c.name == container) else {
        let names: Vec<&str> = pod.containers.iter().map(|c| c.name.as_str()).collect();
        // Client-side check in kubectl (`logsForObjectWithClient`).
        return Err(format!(
            "error: container {container} is not valid for pod {} out of: {}",
            pod.name,
            names.join(", ")
        ));
    };
    let bad_request = |text: String| Err(format!("Error from server (BadRequest): {text}"));
    let bound = pod.node.as_ref().is_some_and(|(_, bound)| *bound <= at);
    if !bound {
        // `LogLocation` has no node: the API server streams nothing.
        return Ok(String::new());
    }
    if pod.synced_at().is_none_or(|synced| at < synced) {
        return bad_request(format!(
            "container {container:?} in pod {:?} is not available",
            pod.name
        ));
    }
    let Some(container_run) = runs.get(index) else {
        return Ok(String::new());
    };
    let statuses = if init {
        pod.init_statuses_at(at)
    } else {
        pod.statuses_at(at)
    };
    let status = statuses.into_iter().find(|status| status.name == container);
    let Some(status) = status else {
        return bad_request(format!(
            "container {container:?} in pod {:?} is not available",
            pod.name
        ));
    };
    let instance_started = |state: &ContainerState| match state {
        ContainerState::Running { started } | ContainerState::Terminated { started, .. } => {
            Some(*started)
        }
        ContainerState::Waiting { .. } => None,
    };
    // `validateContainerLogStatus`: previous; running; terminated; last
    // terminated; waiting.
    let started = if previous {
        match status.last_state.as_ref().and_then(instance_started) {
            Some(started) => started,
            None => {
                return bad_request(format!(
                    "previous terminated container {container:?} in pod {:?} not found",
                    pod.name
                ))
            }
        }
    } else if let Some(started) = instance_started(&status.state) {
        started
    } else if let Some(started) = status.last_state.as_ref().and_then(instance_started) {
        started
    } else {
        let reason = match &status.state {
            ContainerState::Waiting { reason, .. } => match reason.as_str() {
                "ErrImagePull" => "image can't be pulled".to_string(),
                "ImagePullBackOff" => "trying and failing to pull image".to_string(),
                other => other.to_string(),
            },
            _ => String::new(),
        };
        return bad_request(format!(
            "container {container:?} in pod {:?} is waiting to start: {reason}",
            pod.name
        ));
    };
    let Some(instance) = container_run
        .instances
        .iter()
        .find(|i| i.started == started)
    else {
        return Ok(String::new());
    };
    let spec = pod
        .spec
        .containers
        .iter()
        .chain(&pod.spec.init_containers)
        .find(|c| c.name == container);
    let lines = instance_log(run, pod, container, spec, &container_run.program, instance);
    let mut out = String::new();
    for (time, line) in lines {
        if time <= at {
            out.push_str(&line);
            out.push('\n');
        }
    }
    Ok(out)
}

/// Every line one instance writes, with the time it writes it (see the
/// module doc), up to the instance's exit.
pub fn instance_log(
    run: &Run,
    pod: &PodRun,
    container: &str,
    spec: Option<&Container>,
    program: &Program,
    instance: &Instance,
) -> Vec<(Millis, String)> {
    let start = instance.started;
    let load = program.startup.value;
    let loaded = start + load;
    let mut lines: Vec<(Millis, String)> = vec![(start, "Loading model weights...".into())];
    for (tick, percent) in load_progress(load) {
        lines.push((
            start + tick,
            format!("Loading model weights: {percent}% ({}s)", tick / 1000),
        ));
    }
    lines.push((
        loaded,
        format!("Model loaded in {}", seconds_one_decimal(load)),
    ));
    let batch = program.run_for.as_ref().map(|run_for| run_for.value);
    match batch {
        Some(_) => lines.push((loaded, "Job started".into())),
        None => {
            for line in [
                "INFO:     Started server process [1]".to_string(),
                "INFO:     Waiting for application startup.".to_string(),
                "INFO:     Application startup complete.".to_string(),
                format!(
                    "INFO:     Uvicorn running on http://0.0.0.0:{} (Press CTRL+C to quit)",
                    program.listen_port.value
                ),
            ] {
                lines.push((loaded, line));
            }
        }
    }
    let Some(exit) = &instance.exit else {
        return lines;
    };
    // Nothing is written after the process ended.
    let mut cut = exit.at;
    let object = format!("Pod/{}", pod.name);
    let field_path = format!("spec.containers{{{container}}}");
    let killed_at = run
        .events
        .iter()
        .filter(|e| e.reason == "Killing" && e.at >= start && e.at <= exit.at)
        .find(|e| *e.object == *object && e.field_path.as_deref() == Some(field_path.as_str()))
        .map(|e| e.at);
    let self_exit = program
        .exit
        .as_ref()
        .filter(|planned| start + planned.after == exit.at && planned.code == exit.code);
    if exit.reason == "OOMKilled" {
        // The kernel kills it: no last words.
    } else if let Some(oom) = &exit.gpu_oom {
        lines.push((exit.at, cuda_out_of_memory(oom)));
    } else if exit.shm.as_ref().is_some_and(|shm| shm.is_bus_error()) {
        for line in crate::sim::shm::bus_error_log() {
            lines.push((exit.at, line));
        }
    } else if let Some(killed_at) = killed_at {
        // A clean exit came `shutdown` after SIGTERM; otherwise SIGTERM
        // followed the preStop hook.
        let sigterm = if exit.code == 0 {
            exit.at.saturating_sub(program.shutdown.value)
        } else {
            killed_at + pre_stop_ms(spec, pod)
        };
        if sigterm < loaded || batch.is_some() {
            // No SIGTERM handler yet (or a batch program): it stops there.
            cut = cut.min(sigterm);
        } else {
            lines.push((sigterm, "INFO:     Shutting down".into()));
            lines.push((
                sigterm,
                "INFO:     Waiting for application shutdown.".into(),
            ));
            if exit.code == 0 {
                lines.push((exit.at, "INFO:     Application shutdown complete.".into()));
                lines.push((exit.at, "INFO:     Finished server process [1]".into()));
            }
        }
    } else if let Some(planned) = self_exit {
        for line in planned.log.lines() {
            lines.push((exit.at, line.to_string()));
        }
    } else if let Some(run_for) = batch {
        if exit.code == 0 && exit.at == loaded + run_for {
            lines.push((
                exit.at,
                format!("Job finished in {}", duration::format(run_for)),
            ));
        }
    }
    lines.retain(|(time, _)| *time <= cut);
    lines
}

/// PyTorch's error when a CUDA allocation fails (the form PyTorch 2.x
/// prints, `torch.OutOfMemoryError`), with what the simulator knows: the
/// device's capacity, what is left, what this process holds. The
/// allocation that failed is the next tenth of the model's device memory.
pub fn cuda_out_of_memory(oom: &GpuOom) -> String {
    let chunk = (oom.need / 10).max(2 << 20);
    let free = (oom.capacity - oom.own - oom.others).max(0);
    format!(
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate {}. GPU 0 has a total capacity of {} of which {} is free. Including non-PyTorch memory, this process has {} memory in use.",
        torch_size(chunk),
        torch_size(oom.capacity),
        torch_size(free),
        torch_size(oom.own)
    )
}

/// `format_size` of PyTorch's caching allocator: bytes, then KiB, MiB and
/// GiB with two decimals.
fn torch_size(bytes: i128) -> String {
    let bytes = bytes.max(0);
    let unit = if bytes <= 1024 {
        return format!("{bytes} bytes");
    } else if bytes <= 1 << 20 {
        ("KiB", 1i128 << 10)
    } else if bytes <= 1 << 30 {
        ("MiB", 1 << 20)
    } else {
        ("GiB", 1 << 30)
    };
    // Hundredths, rounded half up, in integers (no float formatting).
    let hundredths = (bytes * 100 + unit.1 / 2) / unit.1;
    format!("{}.{:02} {}", hundredths / 100, hundredths % 100, unit.0)
}

/// (offset into the load, percent done) every 10 s before the load ends;
/// a load longer than 1000 s reports every 20, 30, … s (at most 100 lines).
fn load_progress(load: Millis) -> Vec<(Millis, u64)> {
    let step = 10_000 * load.div_ceil(1_000_000).max(1);
    (1..)
        .map(|k: u64| k * step)
        .take_while(|tick| *tick < load)
        .map(|tick| (tick, tick * 100 / load.max(1)))
        .collect()
}

/// `40.0s`, `12.5s`.
fn seconds_one_decimal(ms: Millis) -> String {
    format!("{}.{}s", ms / 1000, ms % 1000 / 100)
}

/// How long the preStop hook runs (`sleep N`), at most the pod's grace
/// period: SIGTERM comes after it (`kubelet.md` §3).
fn pre_stop_ms(spec: Option<&Container>, pod: &PodRun) -> Millis {
    let seconds = match spec.and_then(|c| c.pre_stop.as_ref()) {
        Some(Handler::Sleep { seconds }) => *seconds,
        Some(Handler::Exec { command }) => {
            // As `sim/lifecycle.rs` (`pre_stop_seconds`) reads it: the number
            // after a `sleep` word.
            let words: Vec<&str> = command.iter().flat_map(|w| w.split_whitespace()).collect();
            words
                .windows(2)
                .find_map(|pair| match pair {
                    [word, number] if word.ends_with("sleep") => {
                        number.trim_end_matches(['s', ';']).parse::<i64>().ok()
                    }
                    _ => None,
                })
                .unwrap_or(0)
        }
        _ => 0,
    };
    let grace = pod.grace_seconds();
    (seconds.clamp(0, grace.max(0)) as Millis) * 1000
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_every_ten_seconds_of_the_load() {
        assert_eq!(
            load_progress(40_000),
            vec![(10_000, 25), (20_000, 50), (30_000, 75)]
        );
        assert_eq!(load_progress(10_000), vec![]);
        assert_eq!(load_progress(0), vec![]);
        let hour = load_progress(3_600_000);
        assert_eq!(hour.first(), Some(&(40_000, 1)));
        assert_eq!(hour.len(), 89);
        assert_eq!(seconds_one_decimal(40_000), "40.0s");
        assert_eq!(seconds_one_decimal(12_550), "12.5s");
    }
}
