//! The diagnosis of a container that /dev/shm ended (`sim::shm`): a bus
//! error in the runtime's 64 MiB (exit 1, PL106), or the OOM kill of a
//! memory emptyDir that, with the process, passes the memory limit (137).

use super::evidence::{
    assumed_in, has_previous, logs_command, oom_evidence, restarts_at, secs, secs_zh, Evidence,
};
use super::{Diagnosis, Kind};
use crate::explain::{describe, logs};
use crate::manifest::duration::Millis;
use crate::manifest::path::ProgramField;
use crate::rules::pl104_memory_limit_below_peak as pl104;
use crate::sim::shm::ShmFailure;
use crate::sim::{ContainerRun, Instance, PodRun, Run};
use crate::text;

pub(super) fn shm_failure(
    run: &Run,
    pod: &PodRun,
    container: &ContainerRun,
    instance: &Instance,
    failure: &ShmFailure,
    at: Millis,
) -> Diagnosis {
    let name = &container.name;
    let show = pl104::show_bytes;
    let workers = failure.workers;
    let per_worker = show(container.program.shm.value.max(0));
    let need = show(failure.need);
    let restarts = restarts_at(container, at);
    let load_ms = instance
        .exit
        .as_ref()
        .map_or(0, |exit| exit.at.saturating_sub(instance.started));
    let (load, load_zh) = (secs(load_ms), secs_zh(load_ms));
    let has_previous = has_previous(container, at);
    let next_command = logs_command(pod, container, at);
    let described = describe::describe_pod(run, pod, at);
    let log = logs::logs(run, pod, name, at, has_previous).unwrap_or_default();
    let mut evidence = Evidence::new();
    if failure.is_bus_error() {
        evidence.find(&described, "Exit Code:    1", None);
        evidence.find(&described, "Restart Count:", None);
        evidence.find(&log, "Unexpected bus error", None);
        evidence.find(&log, "is killed by signal: Bus error", None);
        Diagnosis {
            assumed: Vec::new(),
            pod: pod.name.clone(),
            kind: Kind::ShmBusError,
            symptom: text!(
                "CrashLoopBackOff: container \"{name}\" exits with code 1 {load} after it starts, when its DataLoader workers start, {restarts} restarts; its log ends with a bus error",
                "CrashLoopBackOff：container「{name}」啟動 {load_zh}後、DataLoader worker 開始工作時以 exit code 1 結束，已重啟 {restarts} 次；日誌最後是 Bus error"
            ),
            root_cause: text!(
                "/dev/shm is the container runtime's default 64Mi tmpfs (no volume is mounted there), but the {workers} worker(s) put {per_worker} each, {need} in all, into shared memory: the write past 64Mi gets SIGBUS, the worker dies of it, and PyTorch's main process raises RuntimeError and exits 1 (PL106 shm-too-small)",
                "/dev/shm 是 container runtime 預設的 64Mi tmpfs（那裡沒有掛任何 volume），但 {workers} 個 worker 每個要放 {per_worker}、總共 {need} 到共享記憶體：寫超過 64Mi 的那一刻收到 SIGBUS，worker 因此死掉，PyTorch 主行程拋出 RuntimeError 並以 exit code 1 結束（PL106 shm-too-small）"
            ),
            evidence: evidence.lines,
            next_command,
            why_that_command: text!(
                "describe shows only Exit Code 1 (Error); the log of the run that crashed has PyTorch's bus-error line, which names shared memory",
                "describe 只看得到 Exit Code 1（Error）；當掉那一輪的日誌裡有 PyTorch 的 bus error 訊息，直接點名共享記憶體"
            ),
            fix: text!(
                "mount an emptyDir with `medium: Memory` at /dev/shm (PL106's fix adds it as `dshm`), and keep limits.memory above the process memory plus {need}: the tmpfs pages count against the container's memory",
                "把 `medium: Memory` 的 emptyDir 掛到 /dev/shm（PL106 的修正會加上名為 `dshm` 的 volume），並讓 limits.memory 大於行程記憶體再加 {need}：tmpfs 的分頁會算進 container 的記憶體"
            ),
        }
    } else {
        let process = show(failure.process);
        let total = show(failure.process.saturating_add(failure.need));
        let limit = failure.limit.map_or_else(|| "?".to_string(), show);
        oom_evidence(&mut evidence, &described);
        if let Some(line) = log.lines().rev().find(|line| !line.trim().is_empty()) {
            evidence.push(line);
        }
        Diagnosis {
            assumed: assumed_in(container, &[ProgramField::MemorySteady]),
            pod: pod.name.clone(),
            kind: Kind::ShmOomKilled,
            symptom: text!(
                "CrashLoopBackOff: container \"{name}\" is OOMKilled (exit code 137) {load} after it starts, right when the model has loaded and its workers start, {restarts} restarts",
                "CrashLoopBackOff：container「{name}」啟動 {load_zh}後、模型剛載入完、worker 開始工作時被 OOMKilled（exit code 137），已重啟 {restarts} 次"
            ),
            root_cause: text!(
                "the emptyDir at /dev/shm is RAM (`medium: Memory`) and its pages are charged to the container: the process's {process} plus the {workers} worker(s)' {need} of shared memory is {total}, over limits.memory {limit}, so the kernel kills it as soon as the workers fill /dev/shm",
                "/dev/shm 上的 emptyDir 是 RAM（`medium: Memory`），它的分頁會算在 container 頭上：行程本身的 {process} 加上 {workers} 個 worker 的共享記憶體 {need}，共 {total}，超過 limits.memory {limit}，所以 worker 一把 /dev/shm 填滿，kernel 就把它砍掉"
            ),
            evidence: evidence.lines,
            next_command,
            why_that_command: text!(
                "the log of the killed run stops right after the model loaded, when the workers start: the kill came from shared memory, not from the loading peak",
                "被砍掉那一輪的日誌停在模型剛載入完、worker 開始工作的地方：是共享記憶體造成的，不是載入尖峰"
            ),
            fix: text!(
                "raise resources.limits.memory above {total} (process {process} + shared memory {need}) with headroom, or put less in /dev/shm (fewer DataLoader workers, a smaller prefetch_factor or batch)",
                "把 resources.limits.memory 調到 {total}（行程 {process} + 共享記憶體 {need}）以上並留些餘裕，或減少放進 /dev/shm 的量（減少 DataLoader worker、調小 prefetch_factor 或 batch）"
            ),
        }
    }
}
