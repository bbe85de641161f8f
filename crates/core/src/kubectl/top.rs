//! `kubectl top pod` and `kubectl top node`: what metrics-server would
//! report at `at`, from the simulator's models.
//!
//! Memory is the simulator's memory model (`ContainerRun::memory_at`: the
//! load ramp, the steady memory, the shared memory charged to the
//! container). CPU is the Scenario's `cpu` model where the file writes one
//! (`loading` until `startup`, then `idle`; the per-request CPU of the
//! traffic is left out), else the container's CPU request; a note says
//! which. A node's usage is the sum of its pods' (no system overhead), its
//! percentages of the node's allocatable, truncated.
//!
//! Printing follows `kubectl top` (`pkg/cmd/top`, `metricsutil`): CPU as
//! `<milli>m`, memory as `<bytes / 2^20>Mi`, a pod's values the sums of its
//! containers', the `get` tabwriter; pods without a running container have
//! no metrics and are not listed. (From the kubectl source as remembered,
//! not compared with a real metrics-server: docs/kubectl.md.)

use crate::exercise::exec::ExecContext;
use crate::explain::get_pods;
use crate::manifest::duration::Millis;
use crate::sim::{ContainerState, PodRun};
use crate::text;

use super::{not_found, parse::Kind, Output};

/// (CPU millicores, memory bytes) of a pod at `at`, and whether a CPU
/// figure came from a request; `None` without a running container.
fn usage(pod: &PodRun, at: Millis) -> Option<(i128, i128, bool)> {
    let mut cpu = 0;
    let mut memory = 0;
    let mut from_requests = false;
    let mut running = false;
    for container in &pod.containers {
        let Some(status) = container.status_at(at) else {
            continue;
        };
        let ContainerState::Running { started } = status.state else {
            continue;
        };
        running = true;
        memory += container.memory_at(at).max(0);
        let model = &container.program.cpu;
        if model.idle.span.is_some() || model.loading.span.is_some() {
            let loaded = started.saturating_add(container.program.startup.value);
            cpu += if at < loaded {
                model.loading.value
            } else {
                model.idle.value
            };
        } else {
            from_requests = true;
            cpu += pod
                .spec
                .containers
                .iter()
                .find(|spec| spec.name == container.name)
                .and_then(|spec| spec.resources.effective_request("cpu"))
                .map_or(0, |quantity| quantity.milli);
        }
    }
    running.then_some((cpu, memory, from_requests))
}

fn cpu_cell(milli: i128) -> String {
    format!("{milli}m")
}

fn memory_cell(bytes: i128) -> String {
    format!("{}Mi", bytes / (1024 * 1024))
}

fn with_note(mut output: Output, from_requests: bool) -> Output {
    output.notes.push(if from_requests {
        text!(
            "CPU is the containers' CPU requests (the file writes no cpu model); memory is the simulated memory",
            "CPU 是容器的 CPU requests（檔案沒有寫 cpu 模型）；記憶體是模擬的用量"
        )
    } else {
        text!(
            "CPU is the Scenario's cpu model (loading, then idle; requests not counted); memory is the simulated memory",
            "CPU 來自 Scenario 的 cpu 模型（載入時、之後閒置；不含請求的 CPU）；記憶體是模擬的用量"
        )
    });
    output
}

/// `kubectl top pod [NAME]`.
pub fn pods(context: &ExecContext, name: Option<&str>, at: Millis) -> Output {
    let mut rows = vec![["NAME", "CPU(cores)", "MEMORY(bytes)"]
        .map(String::from)
        .to_vec()];
    let mut from_requests = false;
    for pod in context.run.pods.iter().filter(|pod| pod.exists_at(at)) {
        if name.is_some_and(|name| name != pod.name) {
            continue;
        }
        match usage(pod, at) {
            Some((cpu, memory, requests)) => {
                from_requests |= requests;
                rows.push(vec![pod.name.clone(), cpu_cell(cpu), memory_cell(memory)]);
            }
            None if name.is_some() => {
                return Output::error(format!(
                    "error: Metrics not available for pod default/{}, age: {}\n",
                    pod.name,
                    go_duration(at.saturating_sub(pod.created))
                ))
            }
            None => {}
        }
    }
    if rows.len() == 1 {
        return match name {
            Some(name) => not_found(Kind::Pod, name),
            None => Output::none_found("default"),
        };
    }
    with_note(Output::out(get_pods::table(&rows)), from_requests)
}

/// `kubectl top node [NAME]`.
pub fn nodes(context: &ExecContext, name: Option<&str>, at: Millis) -> Output {
    let names = super::node_names(context);
    if let Some(name) = name.filter(|name| !names.iter().any(|known| known == name)) {
        return not_found(Kind::Node, name);
    }
    let mut rows = vec![
        ["NAME", "CPU(cores)", "CPU(%)", "MEMORY(bytes)", "MEMORY(%)"]
            .map(String::from)
            .to_vec(),
    ];
    let mut from_requests = false;
    for node in names
        .iter()
        .filter(|node| name.is_none_or(|name| name == *node))
    {
        let Some(pool) = node.rsplit_once('-').and_then(|(pool, _)| {
            context
                .reading
                .scenario
                .node_pools
                .iter()
                .find(|candidate| candidate.name == pool)
        }) else {
            continue;
        };
        let (mut cpu, mut memory) = (0, 0);
        for pod in context.run.pods.iter().filter(|pod| {
            pod.exists_at(at)
                && pod
                    .node
                    .as_ref()
                    .is_some_and(|(bound_to, bound)| bound_to == node && *bound <= at)
        }) {
            if let Some((c, m, requests)) = usage(pod, at) {
                cpu += c;
                memory += m;
                from_requests |= requests;
            }
        }
        let percent = |used: i128, total: i128| {
            if total > 0 {
                format!("{}%", used * 100 / total)
            } else {
                "0%".to_string()
            }
        };
        rows.push(vec![
            node.clone(),
            cpu_cell(cpu),
            percent(cpu, pool.cpu_milli),
            memory_cell(memory),
            percent(memory, pool.memory_bytes),
        ]);
    }
    with_note(Output::out(get_pods::table(&rows)), from_requests)
}

/// Go's `time.Duration.String` of whole seconds (`1m2s`, `2h0m5s`); the
/// real age has nanoseconds.
fn go_duration(ms: Millis) -> String {
    let seconds = ms / 1000;
    let (hours, minutes, seconds) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    if hours > 0 {
        format!("{hours}h{minutes}m{seconds}s")
    } else if minutes > 0 {
        format!("{minutes}m{seconds}s")
    } else {
        format!("{seconds}s")
    }
}
