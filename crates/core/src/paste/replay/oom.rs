//! The replay of an OOM kill (`oom-killed`, `shm-oom-killed`), read from a
//! `describe pod`.
//!
//! From the paste: the container's image, `Limits:`/`Requests:` (the limit
//! the kill crossed), `Restart Count:`, the STATUS (the waiting reason, or
//! `OOMKilled` for a pod that ended Failed), who owns the pod (`Controlled
//! By:`), and how long the killed instance ran (`Last State:`'s, or the
//! terminated State's, `Started:` and `Finished:`, whole seconds).
//!
//! podlab's model (docs/simulator.md, kubelet.md §6): memory climbs
//! linearly to `peak × workers` over `startup`, and the kernel kills the
//! container when it crosses the limit, at `startup × limit / peak` after
//! the start. A paste shows the limit and when the kill came, not the peak:
//! any peak above the limit fails the same way if the load time is scaled
//! with it, so the replay takes the middle of the bracket the answer's fix
//! rests on (limit < peak < twice the limit): `peak = 1.5 × limit`,
//! `startup = 1.5 × the instance's run`. With a memory emptyDir at
//! /dev/shm (`shm-oom-killed`) the charge comes when the load ends
//! (`sim/shm.rs`): `startup` = the run, a peak under the limit and
//! `shm` = the limit (steady + shm = 1.5 × limit). Both are stated in
//! `assumed`. The fix is the answer's: twice the memory limit (and
//! request).

use super::{
    cluster_yaml, container_yaml, header, image_of, pod_age, rfc1123_seconds, run, running,
    scenario_yaml, status_and_restarts, Asks, Compared, Pool, Rebuilt, Replay, View, Workload,
};
use crate::manifest::assumed::Assumption;
use crate::manifest::duration::Millis;
use crate::manifest::path::{Path, ProgramField};
use crate::manifest::quantity::{format_bytes, parse};
use crate::paste::read::{ContainerFacts, PodFacts};
use crate::text;

/// The run of the killed instance in whole seconds: `Finished − Started`.
fn instance_run(container: &ContainerFacts) -> Option<i64> {
    let (started, finished) = match (&container.last_started, &container.last_finished) {
        (Some(s), Some(f)) => (s, f),
        _ => (container.started.as_ref()?, container.finished.as_ref()?),
    };
    let run = rfc1123_seconds(finished)? - rfc1123_seconds(started)?;
    (0..=86_400).contains(&run).then_some(run)
}

/// `limits` / `requests` entries with the memory replaced (added when
/// absent).
fn with_memory(entries: &[(String, String)], memory: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = entries
        .iter()
        .filter(|(k, _)| k != "memory")
        .cloned()
        .collect();
    out.insert(0, ("memory".into(), memory.into()));
    out
}

pub(super) fn replay(
    kind: &'static str,
    pod: &PodFacts,
    container: &ContainerFacts,
) -> Option<Replay> {
    let shm = kind == "shm-oom-killed";
    let limit_text = container.limits_memory.as_deref()?;
    let limit = parse(limit_text).ok()?.value();
    if limit <= 0 {
        return None;
    }
    let asks = Asks::of(container)?;
    if asks.other_devices() || asks.extended.iter().any(|(k, _)| k != "nvidia.com/gpu") {
        return None;
    }
    let age = pod_age(pod)?;
    let status = super::pasted_status(pod, container)?;
    let restarts = container.restarts.as_ref().map(|(n, _)| *n);
    let workload = Workload::of(pod);
    let name = super::dns_name(&container.name, "app");
    let image =
        image_of(container).unwrap_or_else(|| "registry.example.com/app:pasted".to_string());
    let pasted_run = instance_run(container);
    let fixed_memory = format_bytes(limit.saturating_mul(2));
    let steady = format_bytes(limit / 2);
    let pool = Pool::fitting(
        "node",
        1,
        &Asks {
            memory: asks.memory.max(limit),
            ..asks.clone()
        },
    );
    // The pasted probes: their failures while loading are events too.
    let (probes, target) = super::probes_yaml(container, &[]);
    let shm_volume = "volumes:\n  - name: dshm\n    emptyDir: { medium: Memory }\n";
    let shm_mount = "volumeMounts: [{ name: dshm, mountPath: /dev/shm }]\n";
    let build = |memory: Option<&str>, run_ms: Millis| -> Option<String> {
        let mut c = container.clone();
        if let Some(memory) = memory {
            c.limits = with_memory(&c.limits, memory);
            c.requests = with_memory(&c.requests, memory);
        }
        let mut keys = super::ports_yaml(container);
        keys.push_str(&super::resources_yaml(&c, None)?);
        keys.push_str(&probes);
        if shm {
            keys.push_str(shm_mount);
        }
        let mut pod_lines = container_yaml(&name, &image, &keys);
        if shm {
            pod_lines.push_str(shm_volume);
        }
        let (startup, memory_line) = if shm {
            (
                run_ms,
                format!(
                    "memory: {{ steady: {steady}, peak: {} }}\nshm: {}\n",
                    format_bytes(limit * 3 / 4),
                    format_bytes(limit)
                ),
            )
        } else {
            (
                run_ms * 3 / 2,
                format!(
                    "memory: {{ steady: {steady}, peak: {} }}\n",
                    format_bytes(limit * 3 / 2)
                ),
            )
        };
        let mut body = format!("workload:\n  - container: {name}\n    startup: {startup}ms\n");
        if let Some((port, path)) = &target {
            if port.chars().all(|c| c.is_ascii_digit()) {
                body.push_str(&format!("    listenPort: {port}\n"));
            }
            if let Some(path) = path {
                body.push_str(&format!("    healthPath: {path}\n"));
            }
        }
        for line in memory_line.lines() {
            body.push_str(&format!("    {line}\n"));
        }
        body.push_str(&cluster_yaml(std::slice::from_ref(&pool), &[]));
        Some(format!(
            "{}{}{}",
            header(if shm {
                "the container, its limits and /dev/shm as pasted; the load time and the memory are assumed."
            } else {
                "the container and its limits as pasted; the load time and the memory peak are assumed."
            }),
            workload.yaml(&pod_lines),
            scenario_yaml(age.1, &body)
        ))
    };
    // The instance's run is known to the second (both times are
    // truncated): try within it, the middle first.
    let candidates: Vec<Millis> = match pasted_run {
        Some(run_s) => {
            // The middle of [run, run + 1) first, then the rest of the
            // second and the one before, by tenths (Started and Finished
            // are both truncated).
            let base = Millis::try_from(run_s.max(1)).ok()? * 1000;
            let mut tenths: Vec<Millis> = (0..10).map(|i| base + i * 100).collect();
            tenths.sort_by_key(|t| t.abs_diff(base + 500));
            tenths.extend((1..10).map(|i| base.saturating_sub(i * 100)));
            tenths
        }
        None => vec![30_000],
    };
    let compare =
        |view: &View<'_>| -> Vec<Compared> { status_and_restarts(&status, restarts, view) };
    let mut best: Option<Replay> = None;
    for run_ms in candidates.into_iter().filter(|ms| *ms > 0) {
        let text = build(None, run_ms)?;
        let fixed_text = build(Some(&fixed_memory), run_ms)?;
        let startup_ms = if shm { run_ms } else { run_ms * 3 / 2 };
        let mut assumed = vec![Assumption {
            path: Path::program(&container.name, ProgramField::Startup),
            value: format!("{startup_ms}ms"),
        }];
        assumed.push(Assumption {
            path: Path::program(&container.name, ProgramField::MemoryPeak),
            value: format_bytes(if shm { limit * 3 / 4 } else { limit * 3 / 2 }),
        });
        assumed.push(Assumption {
            path: Path::program(&container.name, ProgramField::MemorySteady),
            value: steady.clone(),
        });
        assumed.push(super::cluster_assumed(std::slice::from_ref(&pool)));
        let fix_note = if shm {
            text!(
                "the fix doubles limits.memory and requests.memory to {fixed_memory}: the model's memory plus what the workers put in the memory-backed /dev/shm ({limit_text}, assumed) fits under it",
                "修正把 limits.memory 和 requests.memory 加倍到 {fixed_memory}：模型的記憶體加上 worker 放進記憶體型 /dev/shm 的資料（假設為 {limit_text}）放得下"
            )
        } else {
            text!(
                "the fix doubles limits.memory and requests.memory to {fixed_memory}, above the assumed loading peak",
                "修正把 limits.memory 和 requests.memory 加倍到 {fixed_memory}，高於假設的載入尖峰"
            )
        };
        let replay = run(
            Rebuilt {
                kind,
                text,
                fixed_text: Some(fixed_text),
                workload: workload.clone(),
                age,
                startup_s: startup_ms / 1000,
                compare,
                recovers: running,
                assumed,
                fix_note,
            },
            pod,
        );
        let done = replay.matches;
        if best.as_ref().is_none_or(|b| !b.matches) {
            best = Some(replay);
        }
        if done {
            break;
        }
    }
    best
}
