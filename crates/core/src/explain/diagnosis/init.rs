//! The diagnosis of a pod that has not got past its init containers
//! (`sim/init.rs`): still initializing (a download that simply takes its
//! time: nothing is broken, and the probes have not run yet), or an init
//! container that fails (`Init:CrashLoopBackOff`, or `Init:Error` and a
//! Failed pod under `restartPolicy: Never`).

use super::evidence::{has_previous, last_line, planned_last_words, restarts_at, Evidence};
use super::{Diagnosis, Kind};
use crate::explain::{describe, human_duration, logs};
use crate::manifest::duration::Millis;
use crate::sim::{init, ContainerRun, PodRun, Run};
use crate::text;

/// The diagnosis when init container work explains the pod's state at
/// `at`; `None` once the pod is Initialized.
pub(super) fn diagnose(run: &Run, pod: &PodRun, at: Millis) -> Option<Diagnosis> {
    if pod.init_containers.is_empty() || init::initialized_at(pod, at) {
        return None;
    }
    // The blocking init container: the first one not done (printPod's walk).
    let (index, container) = pod
        .init_containers
        .iter()
        .enumerate()
        .find(|(index, container)| !init::done_at(container, init::is_sidecar(pod, *index), at))?;
    let failed = container
        .instances
        .iter()
        .filter_map(|instance| instance.exit.as_ref())
        .rfind(|exit| exit.at <= at && exit.code != 0);
    match failed {
        Some(exit) => Some(failing(run, pod, container, exit.code, at)),
        None => running(run, pod, index, container, at),
    }
}

/// `kubectl logs <pod> -c <init container>`.
fn target(pod: &PodRun, container: &ContainerRun) -> String {
    format!("{} -c {}", pod.name, container.name)
}

/// An init container at work, nothing failed: how long its job takes.
fn running(
    run: &Run,
    pod: &PodRun,
    index: usize,
    container: &ContainerRun,
    at: Millis,
) -> Option<Diagnosis> {
    let instance = container.instances.iter().rfind(|i| i.started <= at)?;
    let name = &container.name;
    let program = &container.program;
    // Its job: `startup` + `runFor`, or until its planned exit.
    let planned = match (&program.run_for, &program.exit) {
        (Some(run_for), _) => Some(program.startup.value + run_for.value),
        (None, Some(exit)) => Some(exit.after),
        (None, None) => None,
    };
    let elapsed = human_duration(at.saturating_sub(instance.started));
    let count = pod.init_containers.len();
    let status = format!("Init:{index}/{count}");
    let apps: Vec<&str> = pod.containers.iter().map(|c| c.name.as_str()).collect();
    let apps = apps.join(", ");
    let root_cause = match planned {
        Some(planned) => {
            let total = human_duration(planned);
            text!(
                "the pod is still initializing: init container \"{name}\" (the weights download) takes {total} and has run {elapsed}; the app containers ({apps}) start only after it exits 0. Nothing is wrong with the probes: they start with the app containers, so the download cannot make them fail",
                "Pod 還在初始化：Init 容器「{name}」（下載權重）要花 {total}，目前跑了 {elapsed}；它以 exit 0 結束之後，應用容器（{apps}）才會啟動。探針沒有問題：探針跟著應用容器一起開始，下載再久也不會讓探針失敗"
            )
        }
        None => text!(
            "the pod is still initializing: init container \"{name}\" has run {elapsed} and has not exited; the app containers ({apps}) start only after it exits 0. Nothing is wrong with the probes: they have not started yet",
            "Pod 還在初始化：Init 容器「{name}」已經跑了 {elapsed}，還沒有結束；它以 exit 0 結束之後，應用容器（{apps}）才會啟動。探針沒有問題：它們還沒開始"
        ),
    };
    let described = describe::describe_pod(run, pod, at);
    let mut evidence = Evidence::new();
    evidence.find(&described, "Initialized ", None);
    evidence.find(&described, "Reason:       PodInitializing", None);
    Some(Diagnosis {
        assumed: Vec::new(),
        pod: pod.name.clone(),
        kind: Kind::Initializing,
        symptom: text!(
            "{status}: init container \"{name}\" is running; the app containers have not started",
            "{status}：Init 容器「{name}」正在執行；應用容器還沒啟動"
        ),
        root_cause,
        evidence: evidence.lines,
        next_command: format!("kubectl logs {} -f", target(pod, container)),
        why_that_command: text!(
            "the init container's own log shows how far the download has got",
            "Init 容器自己的日誌會顯示下載進行到哪裡"
        ),
        fix: text!(
            "nothing to fix: wait for the download. To start faster, keep the weights close to the node (a PersistentVolume or a node-local cache that survives restarts) instead of fetching them for every pod",
            "不用修：等下載完成即可。想啟動得更快，就把權重放在離節點近的地方（PersistentVolume，或重啟後還在的節點本機快取），不要每個 Pod 都重新下載"
        ),
    })
}

/// An init container that exits non-zero: the app never starts.
fn failing(run: &Run, pod: &PodRun, container: &ContainerRun, code: i64, at: Millis) -> Diagnosis {
    let name = &container.name;
    let restarts = restarts_at(container, at);
    let log = logs::logs(run, pod, name, at, false).unwrap_or_default();
    let said = planned_last_words(container, code)
        .map(str::to_string)
        .or_else(|| last_line(&log).map(str::to_string))
        .unwrap_or_default();
    let described = describe::describe_pod(run, pod, at);
    let mut evidence = Evidence::new();
    evidence.find(&described, &format!("Exit Code:    {code}"), None);
    evidence.push(&said);
    let never = pod.restart_policy == "Never";
    // Its own `target`: an init container always needs `-c`.
    let next_command = if has_previous(container, at) {
        format!("kubectl logs {} --previous", target(pod, container))
    } else {
        format!("kubectl logs {}", target(pod, container))
    };
    let (symptom, root_cause) = if never {
        (
            text!(
                "Init:Error: init container \"{name}\" exited with code {code}; the pod is Failed and its app containers never started",
                "Init:Error：Init 容器「{name}」以 exit code {code} 結束；Pod 已經 Failed，應用容器從來沒有啟動"
            ),
            text!(
                "the init container itself fails (its last words: {said}); with restartPolicy Never one failed init container fails the whole pod — nothing is retried",
                "是 Init 容器自己失敗（它最後印出的是：{said}）；restartPolicy 是 Never 時，一個 Init 容器失敗就讓整個 Pod 失敗，不會重試"
            ),
        )
    } else {
        (
            text!(
                "Init:CrashLoopBackOff: init container \"{name}\" exits with code {code}, {restarts} restarts; the app containers never start",
                "Init:CrashLoopBackOff：Init 容器「{name}」以 exit code {code} 結束，已重啟 {restarts} 次；應用容器一直沒有啟動"
            ),
            text!(
                "the init container itself fails (its last words: {said}); the app containers start only after every init container exits 0, and the kubelet retries this one with the crash-loop back-off (10 s doubling to 5 min). The app's probes never ran, so they are not the problem",
                "是 Init 容器自己失敗（它最後印出的是：{said}）；所有 Init 容器都以 exit 0 結束後應用容器才會啟動，kubelet 會用 crash-loop back-off（10 秒起、加倍到 5 分鐘）重試它。應用容器的探針從來沒有執行，問題不在探針"
            ),
        )
    };
    Diagnosis {
        assumed: Vec::new(),
        pod: pod.name.clone(),
        kind: Kind::InitContainerFailed,
        symptom,
        root_cause,
        evidence: evidence.lines,
        next_command,
        why_that_command: text!(
            "kubectl logs needs -c for an init container; its log says why the download or setup failed",
            "Init 容器要用 -c 指定才看得到日誌；日誌會說明下載或設定為什麼失敗"
        ),
        fix: text!(
            "fix what the init container needs (credentials for the bucket, the storage URI, network access to object storage); restarting will not help",
            "修正 Init 容器需要的東西（存取 bucket 的憑證、storage URI、連到物件儲存的網路）；一直重啟沒有幫助"
        ),
    }
}
