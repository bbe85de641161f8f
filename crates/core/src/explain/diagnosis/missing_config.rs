//! A Secret or ConfigMap that does not exist in the namespace: named by the
//! environment (CreateContainerConfigError, the container is never created)
//! or by a volume (FailedMount, the pod waits in ContainerCreating).

use super::evidence::Evidence;
use super::{Diagnosis, Kind};
use crate::explain::describe;
use crate::manifest::duration::Millis;
use crate::sim::{ContainerRun, Event, PodRun, Run};
use crate::text;

pub(super) fn missing_config(
    run: &Run,
    pod: &PodRun,
    container: &ContainerRun,
    message: &str,
    at: Millis,
) -> Diagnosis {
    let name = &container.name;
    let described = describe::describe_pod(run, pod, at);
    let mut evidence = Evidence::new();
    evidence.find(&described, "Reason:       CreateContainerConfigError", None);
    evidence.find(&described, &format!("Error: {message}"), None);
    // `secret "mlflow-secret" not found` → (secret, mlflow-secret).
    let mut parts = message.splitn(3, '"');
    let kind = parts.next().unwrap_or("").trim().to_string();
    let object = parts.next().unwrap_or("").to_string();
    let (get, create) = if kind == "configmap" {
        (
            format!("kubectl get configmap {object}"),
            format!("kubectl create configmap {object} --from-literal=KEY=VALUE"),
        )
    } else {
        (
            format!("kubectl get secret {object}"),
            format!("kubectl create secret generic {object} --from-literal=KEY=VALUE"),
        )
    };
    Diagnosis {
        assumed: Vec::new(),
        pod: pod.name.clone(),
        kind: Kind::MissingConfig,
        symptom: text!(
            "CreateContainerConfigError: container \"{name}\" is never created; RESTARTS stays 0 and there is no log",
            "CreateContainerConfigError：container「{name}」一直沒有被建立；RESTARTS 維持 0，也沒有任何日誌"
        ),
        root_cause: text!(
            "the container's env needs {kind} \"{object}\", which does not exist in the namespace: the kubelet cannot build the container's configuration and retries on every sync",
            "container 的 env 需要 {kind}「{object}」，但這個 namespace 裡沒有：kubelet 組不出 container 的設定，每次同步都再試一次"
        ),
        evidence: evidence.lines,
        next_command: get,
        why_that_command: text!(
            "confirm it is missing (NotFound) or lives in another namespace; `kubectl logs` has nothing to show, the container never ran",
            "確認它真的不存在（NotFound），或是建在別的 namespace；`kubectl logs` 看不到東西，因為 container 從來沒跑過"
        ),
        fix: text!(
            "create it in the Pod's namespace (`{create}`), or mark the reference `optional: true` if the program can run without it",
            "在 Pod 的 namespace 裡建立它（`{create}`）；如果程式沒有它也能跑，就把引用標成 `optional: true`"
        ),
    }
}

/// `MountVolume.SetUp failed for volume "hf-token" : secret "hf-token" not
/// found`: the volume manager's FailedMount (sim/volumes.rs).
pub(super) fn failed_mount(run: &Run, pod: &PodRun, event: &Event, at: Millis) -> Diagnosis {
    let described = describe::describe_pod(run, pod, at);
    let mut evidence = Evidence::new();
    evidence.find(&described, "Reason:       ContainerCreating", None);
    evidence.find(&described, "FailedMount", Some(&event.message));
    // `… for volume "hf-token" : secret "hf-token" not found` → the volume,
    // then (secret, hf-token).
    let mut quoted = event.message.split('"');
    let volume = quoted.nth(1).unwrap_or("").to_string();
    let kind = quoted
        .next()
        .unwrap_or("")
        .trim_start_matches(" : ")
        .trim()
        .to_string();
    let object = quoted.next().unwrap_or("").to_string();
    let (get, create) = if kind == "configmap" {
        (
            format!("kubectl get configmap {object}"),
            format!("kubectl create configmap {object} --from-file=<file>"),
        )
    } else {
        (
            format!("kubectl get secret {object}"),
            format!("kubectl create secret generic {object} --from-literal=KEY=VALUE"),
        )
    };
    Diagnosis {
        assumed: Vec::new(),
        pod: pod.name.clone(),
        kind: Kind::FailedMount,
        symptom: text!(
            "the pod stays Pending in ContainerCreating: no image pull, no container, no pod IP, and kubectl logs has nothing to show",
            "Pod 一直停在 Pending、ContainerCreating：沒有拉映像、沒有 container、沒有 Pod IP，kubectl logs 也看不到東西"
        ),
        root_cause: text!(
            "volume \"{volume}\" needs {kind} \"{object}\", which does not exist in the namespace: the kubelet sets up every volume before it creates the sandbox and the containers, and its volume manager retries the mount after 0.5 s, 1 s, 2 s … up to every 2 m 2 s (FailedMount each time)",
            "volume「{volume}」需要 {kind}「{object}」，但這個 namespace 裡沒有：kubelet 要先把所有 volume 準備好，才會建立 sandbox 和 container；volume manager 會在 0.5 秒、1 秒、2 秒……之後重試掛載，最長每 2 分 2 秒一次（每次都有一筆 FailedMount）"
        ),
        evidence: evidence.lines,
        next_command: get,
        why_that_command: text!(
            "confirm it is missing (NotFound) or lives in another namespace; the FailedMount events are the only trace, the container never ran",
            "確認它真的不存在（NotFound），或是建在別的 namespace；FailedMount 事件是唯一的線索，因為 container 從來沒跑過"
        ),
        fix: text!(
            "create it in the Pod's namespace (`{create}`): the next retry mounts it and the pod starts without being recreated; or mark the volume `optional: true` if the program can run without it",
            "在 Pod 的 namespace 裡建立它（`{create}`）：下一次重試就會掛上，Pod 不必重建就會啟動；如果程式沒有它也能跑，就把 volume 標成 `optional: true`"
        ),
    }
}
