//! The kernel's OOM kill at the loading peak (exit 137, OOMKilled, PL104).

use super::evidence::{
    assumed_in, last_line, oom_evidence, restarts_at, secs, secs_zh, spec, Evidence,
};
use super::{Diagnosis, Kind};
use crate::explain::{describe, logs};
use crate::manifest::duration::Millis;
use crate::manifest::path::ProgramField;
use crate::rules::pl104_memory_limit_below_peak as pl104;
use crate::sim::{ContainerRun, Instance, PodRun, Run};
use crate::text;

pub(super) fn oom_killed(
    run: &Run,
    pod: &PodRun,
    container: &ContainerRun,
    instance: &Instance,
    at: Millis,
) -> Diagnosis {
    let name = &container.name;
    let program = &container.program;
    let workers = program.workers.value.max(1);
    let per_worker = pl104::show_bytes(program.memory_peak.value.max(0));
    let peak = pl104::show_bytes(program.peak_total());
    let limit_bytes = spec(pod, container)
        .and_then(|c| c.resources.limit("memory"))
        .and_then(|amount| amount.quantity)
        .map(|q| q.value());
    let limit = limit_bytes.map_or_else(|| "?".to_string(), pl104::show_bytes);
    let oom_ms = instance.exit.as_ref().map_or(0, |e| e.at) - instance.started;
    let oom_after = secs(oom_ms);
    let oom_after_zh = secs_zh(oom_ms);
    let load = secs(program.startup.value);
    let load_zh = secs_zh(program.startup.value);
    let new_limit = spec(pod, container).map_or_else(
        || pl104::suggested_limit(program),
        |c| pl104::fix_limit(program, c),
    );
    let new_limit = pl104::show_bytes(new_limit);
    let restarts = restarts_at(container, at);
    let described = describe::describe_pod(run, pod, at);
    let mut evidence = Evidence::new();
    oom_evidence(&mut evidence, &described);
    if let Ok(previous) = logs::logs(run, pod, name, at, true) {
        if let Some(line) = last_line(&previous) {
            evidence.push(line);
        }
    }
    Diagnosis {
        assumed: assumed_in(container, &[ProgramField::MemoryPeak]),
        pod: pod.name.clone(),
        kind: Kind::OomKilled,
        symptom: text!(
            "CrashLoopBackOff: container \"{name}\" is OOMKilled (exit code 137) while loading, {restarts} restarts, no event explains it",
            "CrashLoopBackOff：container「{name}」在載入時被 OOMKilled（exit code 137），已重啟 {restarts} 次，Events 裡卻沒有任何說明"
        ),
        root_cause: text!(
            "loading the model needs its memory peak, {per_worker} × {workers} worker(s) = {peak}, but limits.memory is {limit}: the kernel kills the process {oom_after} into the {load} load",
            "載入模型需要記憶體尖峰 {per_worker} × {workers} 個 worker = {peak}，但 limits.memory 只有 {limit}：在 {load_zh}的載入進行到 {oom_after_zh}時，kernel 就把行程砍掉"
        ),
        evidence: evidence.lines,
        next_command: format!("kubectl top pod {} --containers", pod.name),
        why_that_command: text!(
            "describe's Last State already says OOMKilled / Exit Code 137 (an OOM kill has no event, and the log just stops mid-load); watch the memory climb toward the {limit} limit while the next instance loads",
            "describe 的 Last State 已經寫著 OOMKilled／Exit Code 137（OOM 不會產生事件，日誌也只是停在載入途中）；在下一次載入時看記憶體一路爬向 {limit} 的 limit"
        ),
        fix: text!(
            "set resources.limits.memory to {new_limit} (the loading peak {peak} plus headroom; keep requests at the steady state) (PL104 memory-limit-below-peak)",
            "把 resources.limits.memory 設成 {new_limit}（載入尖峰 {peak} 再加餘裕；requests 維持穩態的量）（PL104 memory-limit-below-peak）"
        ),
    }
}
