//! The diagnosis of a simulated run: for every pod that is not healthy at a
//! time T, the symptom, the most likely root cause, the lines of `kubectl
//! describe pod` / `kubectl logs` that prove it, the next command of the
//! blog's troubleshooting order (排錯三連: describe → logs --previous → exec)
//! and the one-line fix, in English and Traditional Chinese (Taiwan).
//!
//! The cause is read from the run — the container instances, their exits,
//! the kubelet's and the scheduler's event occurrences and the program
//! model each container ran (`ContainerRun::program`) — never by matching
//! the manifest's text. The evidence is then looked up, line by line, in
//! what the renderers print at T (`describe::describe_pod`, `logs::logs`),
//! trimmed of indentation; an event no longer shown (one-hour TTL) is quoted
//! from the run's occurrence instead.
//!
//! Healthy, so no diagnosis: a pod whose containers are all Ready with no
//! restarts; a pod whose containers completed (exit 0) under restartPolicy
//! OnFailure/Never (a finished Job's pod); a pod whose containers are still
//! in their first load with nothing failed yet (it is starting, not broken).

#[path = "diagnosis_init.rs"]
mod init;
#[path = "diagnosis_shm.rs"]
mod shm;

use super::{describe, human_duration, logs};
use crate::i18n::{Lang, Text};
use crate::manifest::duration::{self, Millis};
use crate::manifest::model::{Container, Handler, PortRef, Probe};
use crate::rules::{
    pl104_memory_limit_below_peak as pl104, pl201_liveness_kills_slow_start as pl201,
};
use crate::sim::{ContainerRun, ContainerState, Event, Instance, PodRun, Run};
use crate::text;

/// What went wrong, as recognised from the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Pending: the scheduler found no node (FailedScheduling).
    Unschedulable,
    /// The liveness probe killed the container while the model was loading.
    LivenessDuringLoad,
    /// The startup probe ran out of `failureThreshold × periodSeconds`
    /// before the model had loaded.
    StartupBudgetExhausted,
    /// A liveness or startup probe kills a program that had loaded: the
    /// probe asks the wrong path or port, or times out.
    ProbeKillsServingProgram,
    /// The readiness probe never succeeds although the program is serving.
    ReadinessNeverSucceeds,
    /// The kernel's OOM kill at the loading peak (exit 137, OOMKilled).
    OomKilled,
    /// The program exited by itself with a non-zero code.
    ProgramCrash,
    /// The program finished (exit 0) but restartPolicy Always restarts it.
    CompletedButRestarted,
    /// The image cannot be pulled (ErrImagePull, ImagePullBackOff) or is
    /// absent with `imagePullPolicy: Never` (ErrImageNeverPull).
    ImagePull,
    /// A Secret or ConfigMap the environment needs does not exist
    /// (CreateContainerConfigError).
    MissingConfig,
    /// A Secret or ConfigMap volume cannot be mounted (FailedMount): the
    /// pod waits in ContainerCreating.
    FailedMount,
    /// The API server refused the object at `kubectl apply`: no pod exists.
    Refused,
    /// The program's CUDA allocation failed: device memory ran out (a
    /// time-sliced neighbour, the MPS cap, a MIG slice, the card).
    GpuOutOfMemory,
    /// A DataLoader worker's bus error: /dev/shm is the runtime's 64 MiB
    /// (exit 1; PL106).
    ShmBusError,
    /// A memory emptyDir at /dev/shm plus the process passed the memory
    /// limit when the workers started (137).
    ShmOomKilled,
    /// The pod is still initializing: an init container (a weights
    /// download) is at work and nothing has failed (`Init:N/M`).
    Initializing,
    /// An init container exits non-zero (`Init:CrashLoopBackOff`, or
    /// `Init:Error` and a Failed pod under `restartPolicy: Never`).
    InitContainerFailed,
}

/// One unhealthy pod, explained.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnosis {
    pub pod: String,
    pub kind: Kind,
    pub symptom: Text,
    pub root_cause: Text,
    /// Exact lines (indentation trimmed) from `kubectl describe pod`,
    /// `kubectl logs [--previous]` or the event messages that prove it.
    pub evidence: Vec<String>,
    /// The next command to type, e.g. `kubectl logs <pod> --previous`.
    pub next_command: String,
    pub why_that_command: Text,
    pub fix: Text,
}

/// One diagnosis per pod that is not healthy at `at`, in pod order.
pub fn diagnose(run: &Run, at: Millis) -> Vec<Diagnosis> {
    run.refused
        .iter()
        .map(refused)
        .chain(
            run.pods
                .iter()
                .filter(|pod| pod.exists_at(at))
                .filter_map(|pod| diagnose_pod(run, pod, at)),
        )
        .collect()
}

/// An object the API server refused (PL101/PL102's validation).
fn refused(refused: &crate::sim::Refused) -> Diagnosis {
    let object = &refused.object;
    Diagnosis {
        pod: object.clone(),
        kind: Kind::Refused,
        symptom: text!(
            "kubectl apply fails for {object}; kubectl get pods shows none of its pods",
            "{object} 在 kubectl apply 時就失敗；kubectl get pods 看不到它的任何 Pod"
        ),
        root_cause: text!(
            "the API server rejects the object before anything is scheduled: GPUs are extended resources, counted in whole units, with the request equal to the limit",
            "API server 在排程之前就拒絕了這個物件：GPU 是擴充資源（Extended Resource），只能用整數計算，而且 requests 必須等於 limits"
        ),
        evidence: vec![refused.message.clone()],
        next_command: "kubectl apply -f <file> --dry-run=server".to_string(),
        why_that_command: text!(
            "the server-side dry run prints the same validation error without changing the cluster; the field path in it points at the line to fix",
            "server 端的 dry run 不會改動叢集，但會印出同樣的驗證錯誤；錯誤裡的欄位路徑就指向要改的那一行"
        ),
        fix: text!(
            "ask for whole GPUs in limits (nvidia.com/gpu: 1); to share a GPU, use time-slicing, MPS or a MIG profile on the node side (PL101, PL102)",
            "在 limits 裡要求整數張 GPU（nvidia.com/gpu: 1）；想共用 GPU，請在節點端設定 time-slicing、MPS 或 MIG profile（PL101、PL102）"
        ),
    }
}

/// The diagnoses as the CLI prints them after the kubectl transcript.
pub fn render(diagnoses: &[Diagnosis], lang: Lang) -> String {
    let (colon, title, symptom, cause, evidence, next, fix) = match lang {
        Lang::En => (
            ": ",
            "Diagnosis",
            "Symptom",
            "Most likely root cause",
            "Evidence",
            "Next command",
            "Fix",
        ),
        Lang::ZhTw => (
            "：",
            "診斷",
            "症狀",
            "最可能的根因",
            "證據",
            "下一個指令",
            "修正",
        ),
    };
    let mut out = String::new();
    for diagnosis in diagnoses {
        out.push_str(&format!("\n{title}{colon}{}\n", diagnosis.pod));
        out.push_str(&format!(
            "  {symptom}{colon}{}\n",
            diagnosis.symptom.get(lang)
        ));
        out.push_str(&format!(
            "  {cause}{colon}{}\n",
            diagnosis.root_cause.get(lang)
        ));
        if !diagnosis.evidence.is_empty() {
            out.push_str(&format!("  {evidence}{}\n", colon.trim_end()));
            for line in &diagnosis.evidence {
                out.push_str(&format!("    {line}\n"));
            }
        }
        out.push_str(&format!(
            "  {next}{colon}$ {}\n    {}\n",
            diagnosis.next_command,
            diagnosis.why_that_command.get(lang)
        ));
        out.push_str(&format!("  {fix}{colon}{}\n", diagnosis.fix.get(lang)));
    }
    out
}

fn diagnose_pod(run: &Run, pod: &PodRun, at: Millis) -> Option<Diagnosis> {
    let bound = pod.node.as_ref().is_some_and(|(_, bound)| *bound <= at);
    if !bound {
        return unschedulable(run, pod, at);
    }
    if pod.phase_at(at) == "Succeeded" {
        return None;
    }
    if let Some(event) = run.events.iter().rev().find(|event| {
        event.at <= at && event.reason == "FailedMount" && *event.object == *object(pod)
    }) {
        return Some(failed_mount(run, pod, event, at));
    }
    if let Some(diagnosis) = init::diagnose(run, pod, at) {
        return Some(diagnosis);
    }
    let statuses = pod.statuses_at(at);
    for (container, status) in pod.containers.iter().zip(&statuses) {
        let exited: Vec<&Instance> = container
            .instances
            .iter()
            .filter(|i| i.exit.as_ref().is_some_and(|exit| exit.at <= at))
            .collect();
        if let ContainerState::Waiting { reason, message } = &status.state {
            match reason.as_str() {
                "ErrImagePull" | "ImagePullBackOff" | "ErrImageNeverPull" => {
                    return Some(image_pull(run, pod, container, reason, at));
                }
                "CreateContainerConfigError" => {
                    return Some(missing_config(run, pod, container, message, at));
                }
                _ => {}
            }
        }
        let Some(last) = exited.last() else {
            // Never exited: a readiness or startup probe that never passes
            // once the program has loaded.
            if status.ready {
                continue;
            }
            if let Some(diagnosis) = not_ready_while_serving(run, pod, container, at) {
                return Some(diagnosis);
            }
            continue;
        };
        if status.ready && status.restart_count == 0 {
            continue;
        }
        // /dev/shm ended it (a bus error, or an OOM kill of the emptyDir).
        if let Some((instance, failure)) = exited.iter().rev().find_map(|i| {
            let failure = i.exit.as_ref().and_then(|exit| exit.shm.as_ref())?;
            Some((*i, failure))
        }) {
            return Some(shm::shm_failure(run, pod, container, instance, failure, at));
        }
        // An OOM kill earlier in the loop explains the later ones too (the
        // startup probe's streak survives it, kubernetes-behavior.md).
        if let Some(oom) = exited.iter().rev().find(|i| {
            i.exit
                .as_ref()
                .is_some_and(|exit| exit.reason == "OOMKilled")
        }) {
            return Some(oom_killed(run, pod, container, oom, at));
        }
        let exit = last.exit.as_ref()?;
        let killing = killing_event(run, pod, container, last);
        let loaded = last.started + container.program.startup.value;
        if let Some(killing) = killing {
            let liveness = killing.message.contains("failed liveness probe");
            return Some(match (liveness, killing.at < loaded) {
                (true, true) => liveness_during_load(run, pod, container, last, killing, at),
                (false, true) => startup_budget(run, pod, container, last, killing, at),
                (_, false) => probe_kills_serving(run, pod, container, last, liveness, at),
            });
        }
        if let Some(oom) = &exit.gpu_oom {
            return Some(gpu_out_of_memory(run, pod, container, oom, at));
        }
        if exit.code != 0 {
            return Some(program_crash(run, pod, container, exit.code, at));
        }
        if pod.restart_policy == "Always" {
            return Some(completed_but_restarted(run, pod, container, at));
        }
    }
    None
}

// ---------------------------------------------------------------- helpers

fn gpu_out_of_memory(
    run: &Run,
    pod: &PodRun,
    container: &ContainerRun,
    oom: &crate::sim::GpuOom,
    at: Millis,
) -> Diagnosis {
    let name = &container.name;
    let show = pl104::show_bytes;
    let (need, capacity, others) = (show(oom.need), show(oom.capacity), show(oom.others));
    let model = &oom.gpu_model;
    let restarts = restarts_at(container, at);
    let described = describe::describe_pod(run, pod, at);
    let mut evidence = Evidence::new();
    evidence.find(&described, "Exit Code:    1", None);
    evidence.find(&described, "Restart Count:", None);
    if let Ok(log) = logs::logs(run, pod, name, at, has_previous(container, at)) {
        if let Some(line) = log.lines().rev().find(|l| l.contains("CUDA out of memory")) {
            evidence.push(line);
        }
    }
    let node = pod.node.as_ref().map_or("", |(node, _)| node.as_str());
    let symptom = text!(
        "CrashLoopBackOff: container \"{name}\" exits with code 1 while loading the model, {restarts} restarts; its log ends with CUDA out of memory",
        "CrashLoopBackOff：container「{name}」在載入模型時以 exit code 1 結束，已重啟 {restarts} 次；日誌最後一行是 CUDA out of memory"
    );
    let (root_cause, next_command, why, fix) = match oom.mode.as_str() {
        "time-slicing" => {
            let neighbours = oom.neighbours.join(", ");
            let first = oom.neighbours.first().cloned().unwrap_or_else(|| pod.name.clone());
            (
                text!(
                    "time-slicing shares the {model}'s {capacity} of memory with no isolation: the other pods on that GPU ({neighbours}) already hold {others}, this model needs {need}, and the process that allocates last fails",
                    "Time-slicing 讓大家共用 {model} 的 {capacity} 記憶體，沒有記憶體隔離：同一張 GPU 上的其他 Pod（{neighbours}）已經占了 {others}，這個模型還要 {need}，最後配置記憶體的那個行程就會失敗"
                ),
                format!("kubectl exec {first} -- nvidia-smi"),
                text!(
                    "nvidia-smi in the healthy neighbour shows the same physical GPU and how much memory is already used on it; Kubernetes only counted replicas, never memory",
                    "在健康的鄰居 Pod 裡跑 nvidia-smi，會看到同一張實體 GPU，以及上面已經用掉多少記憶體；Kubernetes 只算份數，從來不算記憶體"
                ),
                text!(
                    "give this model its own GPU (time-slicing shares compute time, not memory), use MIG for isolated slices, or lower the replicas per GPU so the models that share a card fit in {capacity} together",
                    "讓這個模型獨占一張 GPU（time-slicing 分的是運算時間，不是記憶體）、改用 MIG 切出互相隔離的區塊，或調低每張 GPU 的 replicas，讓共用一張卡的模型加起來放得進 {capacity}"
                ),
            )
        }
        "MPS" => (
            text!(
                "MPS caps each client at {capacity} (the {model}'s memory divided by the replicas); this model needs {need}, so its own allocation fails whatever the neighbours do",
                "MPS 把每個 client 限制在 {capacity}（{model} 的記憶體除以 replicas）；這個模型需要 {need}，不管鄰居在做什麼，它自己的配置都會失敗"
            ),
            format!("kubectl describe node {node}"),
            text!(
                "the node's nvidia.com/gpu count and its nvidia.com/gpu.replicas label give the replicas, hence the per-client cap",
                "節點上的 nvidia.com/gpu 數量和 nvidia.com/gpu.replicas 標籤就是 replicas，由此可以算出每個 client 的上限"
            ),
            text!(
                "run it on a pool with fewer MPS replicas (the cap is memory / replicas), on a whole GPU or a MIG slice of at least {need}, or load a smaller or quantized model",
                "把它放到 MPS replicas 比較少的節點池（上限是記憶體 ÷ replicas）、放到整張 GPU 或至少 {need} 的 MIG 區塊，或改載入比較小、量化過的模型"
            ),
        ),
        mode if mode.starts_with("MIG") => {
            let profile = mode.trim_start_matches("MIG ").to_string();
            (
                text!(
                    "the MIG device {profile} has only {capacity} of memory (an isolated slice of the {model}); this model needs {need}",
                    "MIG 裝置 {profile} 只有 {capacity} 記憶體（{model} 切出來、互相隔離的一塊）；這個模型需要 {need}"
                ),
                format!("kubectl describe node {node}"),
                text!(
                    "the node's Allocatable lists the MIG profiles it offers (nvidia.com/mig-…): pick one with at least {need}",
                    "節點的 Allocatable 會列出它提供的 MIG profile（nvidia.com/mig-…）：挑一個至少有 {need} 的"
                ),
                text!(
                    "request a larger MIG profile (one with at least {need}) or a whole GPU, or load a smaller or quantized model",
                    "改要求比較大的 MIG profile（至少 {need}）或整張 GPU，或改載入比較小、量化過的模型"
                ),
            )
        }
        _ => (
            text!(
                "the model needs {need} of device memory but the {model} has {capacity}",
                "這個模型需要 {need} 的 GPU 記憶體，但 {model} 只有 {capacity}"
            ),
            format!("kubectl describe node {node}"),
            text!(
                "the node's labels (nvidia.com/gpu.product, nvidia.com/gpu.memory) say which GPU it has",
                "節點的標籤（nvidia.com/gpu.product、nvidia.com/gpu.memory）會寫出它是哪一種 GPU"
            ),
            text!(
                "schedule it on a GPU with more than {need} (nodeSelector on nvidia.com/gpu.product), split the model across several GPUs, or load a smaller or quantized model",
                "把它排到記憶體超過 {need} 的 GPU 上（用 nodeSelector 指定 nvidia.com/gpu.product）、把模型拆到多張 GPU，或改載入比較小、量化過的模型"
            ),
        ),
    };
    Diagnosis {
        pod: pod.name.clone(),
        kind: Kind::GpuOutOfMemory,
        symptom,
        root_cause,
        evidence: evidence.lines,
        next_command,
        why_that_command: why,
        fix,
    }
}

fn image_pull(
    run: &Run,
    pod: &PodRun,
    container: &ContainerRun,
    reason: &str,
    at: Millis,
) -> Diagnosis {
    let name = &container.name;
    let image = spec(pod, container)
        .and_then(|c| c.image.as_ref())
        .map_or_else(String::new, |i| i.value.clone());
    let described = describe::describe_pod(run, pod, at);
    let mut evidence = Evidence::new();
    evidence.find(&described, &format!("Reason:       {reason}"), None);
    let never = reason == "ErrImageNeverPull";
    if never {
        evidence.find(&described, "is not present with pull policy of Never", None);
    } else {
        evidence.find(&described, "Failed to pull image", None);
        evidence.find(&described, "Back-off pulling image", None);
    }
    let full = crate::sim::image::normalized(&image);
    if never {
        return Diagnosis {
            pod: pod.name.clone(),
            kind: Kind::ImagePull,
            symptom: text!(
                "{reason}: container \"{name}\" never starts",
                "{reason}：container「{name}」一直沒有啟動"
            ),
            root_cause: text!(
                "imagePullPolicy is Never and the image {image} is not on the node: the kubelet will not pull it",
                "imagePullPolicy 是 Never，而節點上沒有映像 {image}：kubelet 不會去拉"
            ),
            evidence: evidence.lines,
            next_command: format!("kubectl get pod {} -o jsonpath='{{.spec.nodeName}}'", pod.name),
            why_that_command: text!(
                "find the node, then load the image there (`kind load docker-image {image}`) or let the kubelet pull it",
                "先找出是哪個節點，再把映像放上去（`kind load docker-image {image}`），或讓 kubelet 自己拉"
            ),
            fix: text!(
                "set imagePullPolicy: IfNotPresent (the registry has it), or preload the image on every node",
                "把 imagePullPolicy 改成 IfNotPresent（registry 上有這個映像），或事先把映像放到每個節點上"
            ),
        };
    }
    Diagnosis {
        pod: pod.name.clone(),
        kind: Kind::ImagePull,
        symptom: text!(
            "{reason}: container \"{name}\" never starts; the kubelet keeps trying to pull {image}, backing off 10 s, 20 s, 40 s … up to 5 min",
            "{reason}：container「{name}」一直沒有啟動；kubelet 一再嘗試拉 {image}，間隔 10 秒、20 秒、40 秒……最長 5 分鐘"
        ),
        root_cause: text!(
            "the registry has no image {full}: the tag is wrong or was never pushed (describe's Failed event ends with \"not found\"; an \"unauthorized\" there would mean missing imagePullSecrets instead)",
            "registry 上沒有映像 {full}：tag 寫錯了，或從來沒有推上去（describe 裡 Failed 事件的結尾是「not found」；如果是「unauthorized」，那才是少了 imagePullSecrets）"
        ),
        evidence: evidence.lines,
        next_command: format!("docker manifest inspect {image}"),
        why_that_command: text!(
            "ask the registry directly whether that tag exists, from your own machine; list the repository's tags to find the right one",
            "在自己的電腦上直接問 registry 這個 tag 存不存在；列出 repository 的 tag，找出正確的那一個"
        ),
        fix: text!(
            "correct the image tag in the manifest (or push the image); the pod starts at the next pull, no restart needed",
            "修正 manifest 裡的映像 tag（或把映像推上去）；下一次拉取時 Pod 就會啟動，不需要重啟"
        ),
    }
}

fn missing_config(
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
fn failed_mount(run: &Run, pod: &PodRun, event: &Event, at: Millis) -> Diagnosis {
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

fn object(pod: &PodRun) -> String {
    format!("Pod/{}", pod.name)
}

fn field_path(container: &ContainerRun) -> String {
    format!("spec.containers{{{}}}", container.name)
}

fn spec<'p>(pod: &'p PodRun, container: &ContainerRun) -> Option<&'p Container> {
    pod.spec
        .containers
        .iter()
        .find(|c| c.name == container.name)
}

/// The program's own last words when it exits with `code` as the Scenario
/// planned (`exit.log`'s last non-blank line).
fn planned_last_words(container: &ContainerRun, code: i64) -> Option<&str> {
    container
        .program
        .exit
        .as_ref()
        .filter(|planned| planned.code == code)
        .and_then(|planned| planned.log.lines().rev().find(|l| !l.trim().is_empty()))
}

/// Whether the container has a terminated instance before the current
/// one: what `kubectl logs --previous` needs.
fn has_previous(container: &ContainerRun, at: Millis) -> bool {
    container
        .status_at(at)
        .is_some_and(|s| matches!(s.last_state, Some(ContainerState::Terminated { .. })))
}

/// The logs command to run next: `--previous` once there is a terminated
/// instance to read.
fn logs_command(pod: &PodRun, container: &ContainerRun, at: Millis) -> String {
    if has_previous(container, at) {
        format!("kubectl logs {} --previous", target(pod, container))
    } else {
        format!("kubectl logs {}", target(pod, container))
    }
}

/// The describe lines that prove an OOM kill: the reason, the exit code,
/// the restart count and the memory limit.
fn oom_evidence(evidence: &mut Evidence, described: &str) {
    evidence.find(
        described,
        "Reason:       OOMKilled",
        Some("Reason: OOMKilled"),
    );
    evidence.find(described, "Exit Code:    137", None);
    evidence.find(described, "Restart Count:", None);
    evidence.find_after(described, "    Limits:", "memory:");
}

/// `kubectl logs <pod>` or `kubectl logs <pod> -c <container>`.
fn target(pod: &PodRun, container: &ContainerRun) -> String {
    if pod.containers.len() > 1 {
        format!("{} -c {}", pod.name, container.name)
    } else {
        pod.name.clone()
    }
}

/// The `Killing` occurrence that ended `instance`, if a probe killed it.
fn killing_event<'r>(
    run: &'r Run,
    pod: &PodRun,
    container: &ContainerRun,
    instance: &Instance,
) -> Option<&'r Event> {
    let exit = instance.exit.as_ref()?;
    let object = object(pod);
    let field_path = field_path(container);
    run.events.iter().find(|e| {
        e.reason == "Killing"
            && e.at >= instance.started
            && e.at <= exit.at
            && *e.object == *object
            && e.field_path.as_deref() == Some(field_path.as_str())
    })
}

/// The last `Unhealthy` occurrence of a probe (`Liveness`, `Startup`,
/// `Readiness`) of the container in [from, to].
fn last_unhealthy<'r>(
    run: &'r Run,
    pod: &PodRun,
    container: &ContainerRun,
    title: &str,
    from: Millis,
    to: Millis,
) -> Option<&'r Event> {
    let object = object(pod);
    let field_path = field_path(container);
    let prefix = format!("{title} probe");
    run.events.iter().rev().find(|e| {
        e.reason == "Unhealthy"
            && e.at >= from
            && e.at <= to
            && *e.object == *object
            && e.field_path.as_deref() == Some(field_path.as_str())
            && e.message.starts_with(&prefix)
    })
}

/// Collects evidence lines: from a rendered text, the first line containing
/// a needle (trimmed); a needle found nowhere falls back to `fallback`.
struct Evidence {
    lines: Vec<String>,
}

impl Evidence {
    fn new() -> Evidence {
        Evidence { lines: Vec::new() }
    }

    fn push(&mut self, line: &str) {
        let line = line.trim();
        if !line.is_empty() && !self.lines.iter().any(|known| known == line) {
            self.lines.push(line.to_string());
        }
    }

    /// The line of `text` containing `needle`; else `fallback` when given.
    fn find(&mut self, text: &str, needle: &str, fallback: Option<&str>) {
        match text.lines().find(|line| line.contains(needle)) {
            Some(line) => self.push(line),
            None => {
                if let Some(fallback) = fallback {
                    self.push(fallback);
                }
            }
        }
    }

    /// The first line containing `needle` after the line containing `after`.
    fn find_after(&mut self, text: &str, after: &str, needle: &str) {
        let mut seen = false;
        for line in text.lines() {
            if seen && line.trim_start().starts_with(needle) {
                self.push(line);
                return;
            }
            if line.contains(after) {
                seen = true;
            }
        }
    }
}

/// `http-get :8000/health` style description of a probe's check, and its
/// handler as one line of YAML for a fix.
fn handler_yaml(probe: &Probe) -> String {
    let port = |port: &Option<PortRef>| match port {
        Some(PortRef::Number(n)) => n.to_string(),
        Some(PortRef::Name(name)) => name.clone(),
        None => "0".into(),
    };
    match &probe.handler {
        Handler::HttpGet { path, port: p, .. } => {
            format!("httpGet: {{ path: {path}, port: {} }}", port(p))
        }
        Handler::TcpSocket { port: p, .. } => format!("tcpSocket: {{ port: {} }}", port(p)),
        Handler::Grpc { port: p, .. } => format!("grpc: {{ port: {} }}", p.unwrap_or(0)),
        Handler::Exec { command } => format!("exec: {{ command: {command:?} }}"),
        Handler::Sleep { .. } | Handler::Missing => "httpGet: { path: /health, port: 8000 }".into(),
    }
}

/// `initialDelaySeconds 10, periodSeconds 10, failureThreshold 3` (en, zh-TW).
fn probe_settings(probe: &Probe) -> (String, String) {
    let (delay, period, threshold) = (
        probe.initial_delay_seconds.value,
        probe.period_seconds.value,
        probe.failure_threshold.value,
    );
    (
        format!(
            "initialDelaySeconds {delay}, periodSeconds {period}, failureThreshold {threshold}"
        ),
        format!(
            "initialDelaySeconds {delay}、periodSeconds {period}、failureThreshold {threshold}"
        ),
    )
}

/// A duration as the Scenario writes it (`38.5s`, `40s`, `1m30s`) and as
/// the blog writes it in Chinese (`38.5 秒`, `40 秒`, `90 秒`).
fn secs(ms: Millis) -> String {
    duration::format(ms)
}

fn secs_zh(ms: Millis) -> String {
    if ms.is_multiple_of(1000) {
        format!("{} 秒", ms / 1000)
    } else {
        // Integer arithmetic (no float formatting in the wasm): 38.7 秒.
        let fraction = format!("{:03}", ms % 1000);
        format!("{}.{} 秒", ms / 1000, fraction.trim_end_matches('0'))
    }
}

/// RESTARTS at `at`: the instances started by then, less the first.
fn restarts_at(container: &ContainerRun, at: Millis) -> usize {
    container
        .instances
        .iter()
        .filter(|i| i.started <= at)
        .count()
        .saturating_sub(1)
}

fn last_line(text: &str) -> Option<&str> {
    text.lines().rev().find(|line| !line.trim().is_empty())
}

// ------------------------------------------------------------- the causes

fn liveness_during_load(
    run: &Run,
    pod: &PodRun,
    container: &ContainerRun,
    instance: &Instance,
    killing: &Event,
    at: Millis,
) -> Diagnosis {
    let name = &container.name;
    let load = secs(container.program.startup.value);
    let load_zh = secs_zh(container.program.startup.value);
    let killed_after = secs(killing.at - instance.started);
    let killed_after_zh = secs_zh(killing.at - instance.started);
    let restarts = restarts_at(container, at);
    let described = describe::describe_pod(run, pod, at);
    let mut evidence = Evidence::new();
    evidence.find(&described, "Restart Count:", None);
    evidence.find(&described, "failed liveness probe", Some(&*killing.message));
    let unhealthy = last_unhealthy(
        run,
        pod,
        container,
        "Liveness",
        instance.started,
        killing.at,
    );
    evidence.find(
        &described,
        "Liveness probe failed",
        unhealthy.map(|e| &*e.message),
    );
    if let Ok(previous) = logs::logs(run, pod, name, at, true) {
        if let Some(line) = last_line(&previous) {
            evidence.push(line);
        }
    }
    let liveness = spec(pod, container).and_then(|c| c.liveness.as_ref());
    let (settings, settings_zh) = liveness.map(probe_settings).unwrap_or_default();
    let (check, threshold) = match liveness {
        Some(probe) => (
            handler_yaml(probe),
            pl201::covering_threshold(container.program.startup.value, 0, 10),
        ),
        None => (String::new(), 6),
    };
    let period = pl201::FIX_PERIOD_SECONDS;
    let covered = threshold * period;
    // Without a readinessProbe a running container counts as Ready (kubelet
    // status manager: no probe means ready once started), so it is Ready
    // between kills although the model never loads.
    let ever_ready = container
        .instances
        .iter()
        .any(|instance| instance.ready.iter().any(|(from, _)| *from <= at));
    let symptom = if ever_ready {
        text!(
            "CrashLoopBackOff: container \"{name}\" restarted {restarts} times; with no readinessProbe it shows Ready while it runs, but the model never finishes loading",
            "CrashLoopBackOff：container「{name}」已重啟 {restarts} 次；沒有 readinessProbe，所以執行期間顯示 Ready，但模型從來沒有載入完"
        )
    } else {
        text!(
            "CrashLoopBackOff: container \"{name}\" restarted {restarts} times, never Ready",
            "CrashLoopBackOff：container「{name}」已重啟 {restarts} 次，從來沒有 Ready"
        )
    };
    Diagnosis {
        pod: pod.name.clone(),
        kind: Kind::LivenessDuringLoad,
        symptom,
        root_cause: text!(
            "the model takes {load} to load, but the livenessProbe ({settings}, no startupProbe) kills the container {killed_after} after it starts, before loading ends; every restart loads from zero, so it never finishes",
            "模型載入要 {load_zh}，但 livenessProbe（{settings_zh}，沒有 startupProbe）在 container 啟動後 {killed_after_zh} 就把它砍掉，那時還沒載入完；每次重啟都從頭載入，所以永遠載入不完"
        ),
        evidence: evidence.lines,
        next_command: format!("kubectl logs {} --previous", target(pod, container)),
        why_that_command: text!(
            "describe's Events already show the kill (Killing: failed liveness probe, after connection refused); the previous run's log shows how far the load got: it stops mid-load, with no \"Model loaded\" line",
            "describe 的 Events 已經看到 kubelet 因 liveness 探針失敗（connection refused）而砍掉 container；上一輪的日誌可以確認模型載入到哪裡：停在載入途中，沒有「Model loaded」那一行"
        ),
        fix: text!(
            "add a startupProbe with the same check — `startupProbe: {{ {check}, periodSeconds: {period}, failureThreshold: {threshold} }}` ({covered}s for the {load} load) — so liveness waits until the model is loaded (PL201 liveness-kills-slow-start)",
            "加上檢查方式相同的 startupProbe——`startupProbe: {{ {check}, periodSeconds: {period}, failureThreshold: {threshold} }}`（給 {load_zh}的載入 {covered} 秒）——liveness 會等模型載入完才開始檢查（PL201 liveness-kills-slow-start）"
        ),
    }
}

fn startup_budget(
    run: &Run,
    pod: &PodRun,
    container: &ContainerRun,
    instance: &Instance,
    killing: &Event,
    at: Millis,
) -> Diagnosis {
    let name = &container.name;
    let load_ms = container.program.startup.value;
    let load = secs(load_ms);
    let load_zh = secs_zh(load_ms);
    let killed_after = secs(killing.at - instance.started);
    let killed_after_zh = secs_zh(killing.at - instance.started);
    let described = describe::describe_pod(run, pod, at);
    let mut evidence = Evidence::new();
    evidence.find(&described, "Restart Count:", None);
    evidence.find(&described, "failed startup probe", Some(&*killing.message));
    let unhealthy = last_unhealthy(run, pod, container, "Startup", instance.started, killing.at);
    evidence.find(
        &described,
        "Startup probe failed",
        unhealthy.map(|e| &*e.message),
    );
    if let Ok(previous) = logs::logs(run, pod, name, at, true) {
        if let Some(line) = last_line(&previous) {
            evidence.push(line);
        }
    }
    let startup = spec(pod, container).and_then(|c| c.startup.as_ref());
    let ((settings, settings_zh), budget, period, threshold) = match startup {
        Some(probe) => {
            let period = probe.period_seconds.value.max(1) as u64;
            let delay = probe.initial_delay_seconds.value.max(0) as u64 * 1000;
            (
                probe_settings(probe),
                probe.failure_budget_seconds(),
                period,
                pl201::covering_threshold(load_ms, delay, period),
            )
        }
        None => (Default::default(), 0, 10, 6),
    };
    Diagnosis {
        pod: pod.name.clone(),
        kind: Kind::StartupBudgetExhausted,
        symptom: text!(
            "CrashLoopBackOff: container \"{name}\" is killed by its startupProbe and never becomes Ready",
            "CrashLoopBackOff：container「{name}」一直被 startupProbe 砍掉，從來沒有 Ready"
        ),
        root_cause: text!(
            "the startupProbe allows about {budget}s ({settings}) but the model takes {load} to load: the kubelet kills the container {killed_after} after it starts, still loading",
            "startupProbe 只給大約 {budget} 秒（{settings_zh}），但模型載入要 {load_zh}：kubelet 在 container 啟動後 {killed_after_zh} 就把還在載入的它砍掉"
        ),
        evidence: evidence.lines,
        next_command: format!("kubectl logs {} --previous", target(pod, container)),
        why_that_command: text!(
            "describe's Events show the kill (Killing: failed startup probe); the previous run's log shows the load was still in progress when it was killed",
            "describe 的 Events 已經看到 startup 探針失敗後被砍掉；上一輪的日誌可以確認被砍的時候模型還在載入"
        ),
        fix: text!(
            "raise the startupProbe's failureThreshold to {threshold} (× periodSeconds {period} covers the {load} load with margin) (PL202 startup-budget-too-short)",
            "把 startupProbe 的 failureThreshold 提高到 {threshold}（× periodSeconds {period} 足以涵蓋 {load_zh}的載入並留有餘裕）（PL202 startup-budget-too-short）"
        ),
    }
}

/// What a probe's failure message says about the check.
enum ProbeProblem {
    WrongPath,
    WrongPort,
    Timeout,
    Other,
}

fn probe_problem(message: &str) -> ProbeProblem {
    if message.contains("statuscode: 404") {
        ProbeProblem::WrongPath
    } else if message.contains("connection refused") || message.contains("errored") {
        ProbeProblem::WrongPort
    } else if message.contains("deadline exceeded") {
        ProbeProblem::Timeout
    } else {
        ProbeProblem::Other
    }
}

/// Cause and fix for a probe that fails against a serving program.
fn probe_cause(
    container: &ContainerRun,
    probe: Option<&Probe>,
    field: &str,
    message: &str,
) -> (Text, Text) {
    let program = &container.program;
    let serves = &program.health_path.value;
    let listens = program.listen_port.value;
    let latency = secs(program.health_latency.value);
    let latency_zh = secs_zh(program.health_latency.value);
    let (asked_path, asked_port) = match probe.map(|p| &p.handler) {
        Some(Handler::HttpGet { path, port, .. }) => (
            path.clone(),
            match port {
                Some(PortRef::Number(n)) => n.to_string(),
                Some(PortRef::Name(name)) => name.clone(),
                None => String::new(),
            },
        ),
        Some(Handler::TcpSocket {
            port: Some(PortRef::Number(n)),
            ..
        }) => (String::new(), n.to_string()),
        Some(Handler::TcpSocket {
            port: Some(PortRef::Name(name)),
            ..
        }) => (String::new(), name.clone()),
        _ => (String::new(), String::new()),
    };
    let timeout = probe.map_or(1, |p| p.timeout_seconds.value);
    match probe_problem(message) {
        ProbeProblem::WrongPath => (
            text!(
                "the {field} asks {asked_path}, which the server answers with 404; its health endpoint is {serves}",
                "{field} 檢查的是 {asked_path}，伺服器回 404；它的健康檢查端點是 {serves}"
            ),
            text!(
                "set the {field}'s httpGet.path to {serves}",
                "把 {field} 的 httpGet.path 改成 {serves}"
            ),
        ),
        ProbeProblem::WrongPort => (
            text!(
                "the {field} knocks on port {asked_port}, but the server listens on {listens}: connection refused even after the model has loaded",
                "{field} 打的是 port {asked_port}，但伺服器監聽的是 {listens}：模型載入完之後仍然 connection refused"
            ),
            text!(
                "set the {field}'s port to {listens} (or the name of a declared containerPort) (PL204 probe-port-unknown)",
                "把 {field} 的 port 改成 {listens}（或是有宣告的 containerPort 名稱）（PL204 probe-port-unknown）"
            ),
        ),
        ProbeProblem::Timeout => (
            text!(
                "the health endpoint takes {latency} to answer, longer than the {field}'s timeoutSeconds {timeout}: every check ends in context deadline exceeded",
                "健康檢查端點要 {latency_zh}才回應，超過 {field} 的 timeoutSeconds {timeout}：每次檢查都 context deadline exceeded（逾時）"
            ),
            text!(
                "raise the {field}'s timeoutSeconds above the endpoint's {latency} (PL205 probe-timeout-too-short)",
                "把 {field} 的 timeoutSeconds 調到比端點的 {latency_zh}更長（PL205 probe-timeout-too-short）"
            ),
        ),
        ProbeProblem::Other => (
            text!(
                "the {field} keeps failing after the model has loaded: {message}",
                "模型載入完之後 {field} 仍然一直失敗：{message}"
            ),
            text!(
                "make the {field} check what the server actually serves",
                "讓 {field} 檢查伺服器實際提供的端點"
            ),
        ),
    }
}

/// `kubectl exec` that asks the server from inside what the probe gets.
fn exec_command(pod: &PodRun, container: &ContainerRun, probe: Option<&Probe>) -> String {
    let port = container.program.listen_port.value;
    let (path, asked_port) = match probe.map(|p| &p.handler) {
        Some(Handler::HttpGet {
            path,
            port: Some(PortRef::Number(n)),
            ..
        }) => (path.clone(), *n),
        Some(Handler::HttpGet { path, .. }) => (path.clone(), port),
        _ => (container.program.health_path.value.clone(), port),
    };
    let c = if pod.containers.len() > 1 {
        format!(" -c {}", container.name)
    } else {
        String::new()
    };
    format!(
        "kubectl exec {}{c} -- curl -sS -i http://localhost:{asked_port}{path}",
        pod.name
    )
}

fn probe_kills_serving(
    run: &Run,
    pod: &PodRun,
    container: &ContainerRun,
    instance: &Instance,
    liveness: bool,
    at: Millis,
) -> Diagnosis {
    let name = &container.name;
    let (title, field) = if liveness {
        ("Liveness", "livenessProbe")
    } else {
        ("Startup", "startupProbe")
    };
    let exit_at = instance.exit.as_ref().map_or(at, |e| e.at);
    let unhealthy = last_unhealthy(run, pod, container, title, instance.started, exit_at);
    let message = unhealthy.map(|e| e.message.clone()).unwrap_or_default();
    let probe = spec(pod, container).and_then(|c| {
        if liveness {
            c.liveness.as_ref()
        } else {
            c.startup.as_ref()
        }
    });
    let (root_cause, fix) = probe_cause(container, probe, field, &message);
    let described = describe::describe_pod(run, pod, at);
    let mut evidence = Evidence::new();
    evidence.find(&described, "Restart Count:", None);
    evidence.find(
        &described,
        &format!("failed {} probe", title.to_ascii_lowercase()),
        None,
    );
    evidence.find(
        &described,
        &format!("{title} probe"),
        unhealthy.map(|e| &*e.message),
    );
    if let Ok(previous) = logs::logs(run, pod, name, at, true) {
        evidence.find(&previous, "Uvicorn running on", None);
    }
    Diagnosis {
        pod: pod.name.clone(),
        kind: Kind::ProbeKillsServingProgram,
        symptom: text!(
            "container \"{name}\" keeps restarting: the {field} kills it although the model has loaded",
            "container「{name}」一直重啟：模型已經載入完，{field} 還是把它砍掉"
        ),
        root_cause,
        evidence: evidence.lines,
        next_command: exec_command(pod, container, probe),
        why_that_command: text!(
            "describe shows the probe failures and the kill, and the previous run's log shows the server was up; ask the server from inside the container exactly what the probe asks",
            "describe 已經看到探針失敗與被砍，上一輪的日誌也顯示伺服器有起來；進到 container 裡，用跟探針一樣的方式問伺服器"
        ),
        fix,
    }
}

fn not_ready_while_serving(
    run: &Run,
    pod: &PodRun,
    container: &ContainerRun,
    at: Millis,
) -> Option<Diagnosis> {
    let instance = container.instances.iter().rev().find(|i| i.started <= at)?;
    let loaded = instance.started + container.program.startup.value;
    let name = &container.name;
    // Which probe holds it back: the startup probe (not Started) or readiness.
    let (title, field, probe) = if instance.started_ok.is_none_or(|ok| ok > at) {
        (
            "Startup",
            "startupProbe",
            spec(pod, container).and_then(|c| c.startup.as_ref()),
        )
    } else {
        (
            "Readiness",
            "readinessProbe",
            spec(pod, container).and_then(|c| c.readiness.as_ref()),
        )
    };
    let unhealthy = last_unhealthy(run, pod, container, title, loaded, at)?;
    let (root_cause, fix) = probe_cause(container, probe, field, &unhealthy.message);
    let described = describe::describe_pod(run, pod, at);
    let mut evidence = Evidence::new();
    evidence.find(&described, "Ready:", None);
    evidence.find(
        &described,
        &format!("{title} probe"),
        Some(&*unhealthy.message),
    );
    if let Ok(current) = logs::logs(run, pod, name, at, false) {
        evidence.find(&current, "Uvicorn running on", None);
    }
    Some(Diagnosis {
        pod: pod.name.clone(),
        kind: Kind::ReadinessNeverSucceeds,
        symptom: text!(
            "Running but 0 Ready: container \"{name}\" never passes its {field}, so the Service sends it no traffic",
            "Running 但沒有 Ready：container「{name}」的 {field} 從來沒有成功，Service 不會把流量送給它"
        ),
        root_cause,
        evidence: evidence.lines,
        next_command: exec_command(pod, container, probe),
        why_that_command: text!(
            "describe shows the probe failing and the log shows the server running, so nothing restarted and logs --previous has nothing to add; ask the server from inside the container what the probe asks",
            "describe 看到探針一直失敗，日誌顯示伺服器已經在跑，沒有重啟過，logs --previous 也看不到更多；直接進 container 用跟探針一樣的方式問伺服器"
        ),
        fix,
    })
}

fn oom_killed(
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

fn program_crash(
    run: &Run,
    pod: &PodRun,
    container: &ContainerRun,
    code: i64,
    at: Millis,
) -> Diagnosis {
    let name = &container.name;
    let log = logs::logs(run, pod, name, at, has_previous(container, at)).unwrap_or_default();
    // The program's own last words (the Scenario's `exit.log`), when it wrote any.
    let said = planned_last_words(container, code)
        .filter(|line| log.lines().any(|l| l == *line))
        .map(str::to_string);
    let last = last_line(&log).unwrap_or("").to_string();
    let described = describe::describe_pod(run, pod, at);
    let mut evidence = Evidence::new();
    evidence.find(&described, &format!("Exit Code:    {code}"), None);
    evidence.find(&described, "Restart Count:", None);
    evidence.push(said.as_deref().unwrap_or(&last));
    let next_command = logs_command(pod, container, at);
    let policy = &pod.restart_policy;
    Diagnosis {
        pod: pod.name.clone(),
        kind: Kind::ProgramCrash,
        symptom: if policy == "Never" {
            text!(
                "Failed: container \"{name}\" exited with code {code}",
                "Failed：container「{name}」以 exit code {code} 結束"
            )
        } else {
            text!(
                "CrashLoopBackOff: container \"{name}\" exits with code {code} and is restarted",
                "CrashLoopBackOff：container「{name}」以 exit code {code} 結束後一再重啟"
            )
        },
        root_cause: match &said {
            Some(said) => text!(
                "the program itself fails — no probe or limit killed it; its last words: {said}",
                "是程式自己出錯——不是探針或 limit 砍掉它；它最後印出的是：{said}"
            ),
            None => text!(
                "the program itself exits with code {code} — no probe or limit killed it — without writing an error (its log ends with: {last}); look for the code in the program's documentation",
                "是程式自己以 exit code {code} 結束——不是探針或 limit 砍掉它——而且沒有印出錯誤訊息（日誌最後一行是：{last}）；請查程式文件裡這個 exit code 的意思"
            ),
        },
        evidence: evidence.lines,
        next_command,
        why_that_command: text!(
            "describe shows only the exit code; the program's own log (of the run that crashed) says why",
            "describe 只看得到 exit code；當掉那一輪程式自己的日誌才會說明原因"
        ),
        fix: text!(
            "fix what the log line reports (configuration, a missing file or credential, a bug); restarting will not help",
            "修正日誌裡回報的問題（設定、缺少的檔案或憑證、程式錯誤）；一直重啟沒有幫助"
        ),
    }
}

fn completed_but_restarted(
    run: &Run,
    pod: &PodRun,
    container: &ContainerRun,
    at: Millis,
) -> Diagnosis {
    let name = &container.name;
    let owner = &pod.owner;
    let described = describe::describe_pod(run, pod, at);
    let mut evidence = Evidence::new();
    evidence.find(&described, "Reason:       Completed", None);
    evidence.find(&described, "Exit Code:    0", None);
    evidence.find(&described, "Restart Count:", None);
    if let Ok(previous) = logs::logs(run, pod, name, at, true) {
        if let Some(line) = last_line(&previous) {
            evidence.push(line);
        }
    }
    Diagnosis {
        pod: pod.name.clone(),
        kind: Kind::CompletedButRestarted,
        symptom: text!(
            "container \"{name}\" finishes (exit code 0) and is started again and again",
            "container「{name}」正常結束（exit code 0）後又一再被重新啟動"
        ),
        root_cause: text!(
            "the program is a batch job that ends, but {owner} runs it with restartPolicy Always, which restarts every container that exits, even successfully",
            "這個程式是會結束的批次工作，但 {owner} 用 restartPolicy Always 執行它，container 一結束（即使成功）就會被重啟"
        ),
        evidence: evidence.lines,
        next_command: format!("kubectl logs {} --previous", target(pod, container)),
        why_that_command: text!(
            "describe shows Completed / Exit Code 0; the previous run's log confirms the work finished",
            "describe 看到 Completed／Exit Code 0；上一輪的日誌可以確認工作已經完成"
        ),
        fix: text!(
            "run it as a Job (restartPolicy OnFailure or Never) instead of a Deployment",
            "改用 Job（restartPolicy OnFailure 或 Never）執行，不要用 Deployment"
        ),
    }
}

// ------------------------------------------------------------- scheduling

fn unschedulable(run: &Run, pod: &PodRun, at: Millis) -> Option<Diagnosis> {
    let object = object(pod);
    let event = run
        .events
        .iter()
        .rev()
        .find(|e| e.reason == "FailedScheduling" && *e.object == *object && e.at <= at)?;
    let message = &event.message;
    let described = describe::describe_pod(run, pod, at);
    let mut evidence = Evidence::new();
    evidence.find(&described, "FailedScheduling", Some(&**message));
    evidence.find(&described, "PodScheduled", None);
    let reasons = message
        .split(". ")
        .next()
        .and_then(|head| head.split(": ").nth(1))
        .unwrap_or("");
    let not_helpful = message.contains("Preemption is not helpful");
    let insufficient: Vec<&str> = reasons
        .split(", ")
        .filter_map(|reason| reason.split_once(" Insufficient "))
        .map(|(_, resource)| resource)
        .collect();
    let extended = insufficient
        .iter()
        .find(|resource| resource.contains('/'))
        .copied();
    if let Some(resource) = extended {
        evidence.find_after(&described, "    Requests:", &format!("{resource}:"));
    }
    let mut causes: Vec<Text> = Vec::new();
    let mut fixes: Vec<Text> = Vec::new();
    if reasons.contains("untolerated taint") {
        causes.push(text!(
            "`node(s) had untolerated taint(s)`: the nodes carry a NoSchedule taint (GPU nodes are usually tainted nvidia.com/gpu) that the pod does not tolerate; the ExtendedResourceToleration admission plugin that would add it is off by default",
            "`node(s) had untolerated taint(s)`：節點有 NoSchedule 的 taint（GPU 節點通常帶有 nvidia.com/gpu），Pod 沒有對應的 toleration；會自動加上它的 ExtendedResourceToleration admission plugin 預設是關閉的"
        ));
        fixes.push(text!(
            "add a toleration for the node's taint to the pod template — for the usual GPU taint `tolerations: [{{ key: nvidia.com/gpu, operator: Exists, effect: NoSchedule }}]` (PL501 gpu-taint-not-tolerated)",
            "在 Pod template 加上容忍節點 taint 的 toleration——常見的 GPU taint 就是 `tolerations: [{{ key: nvidia.com/gpu, operator: Exists, effect: NoSchedule }}]`（PL501 gpu-taint-not-tolerated）"
        ));
    }
    if reasons.contains("node affinity/selector") {
        causes.push(text!(
            "`didn't match Pod's node affinity/selector`: no node has the labels the pod's nodeSelector or required node affinity asks for",
            "`didn't match Pod's node affinity/selector`：沒有任何節點有 Pod 的 nodeSelector 或必要 node affinity 要求的標籤"
        ));
        fixes.push(text!(
            "make the nodeSelector/affinity match a label the nodes really have (`kubectl get nodes --show-labels`)",
            "讓 nodeSelector／affinity 對上節點真的有的標籤（`kubectl get nodes --show-labels`）"
        ));
    }
    if reasons.contains("were unschedulable") {
        causes.push(text!(
            "`node(s) were unschedulable`: the nodes are cordoned",
            "`node(s) were unschedulable`：節點被 cordon 了"
        ));
        fixes.push(text!(
            "`kubectl uncordon <node>` once its maintenance is over",
            "維護結束後 `kubectl uncordon <node>`"
        ));
    }
    if let Some(resource) = extended {
        let holders: Vec<&str> = run
            .pods
            .iter()
            .filter(|other| other.node.as_ref().is_some_and(|(_, bound)| *bound <= at))
            .filter(|other| {
                other.spec.containers.iter().any(|c| {
                    c.resources
                        .limit(resource)
                        .or_else(|| c.resources.request(resource))
                        .is_some()
                })
            })
            .map(|other| other.name.as_str())
            .collect();
        let mig = resource.starts_with("nvidia.com/mig-");
        if mig && not_helpful {
            causes.push(text!(
                "`Insufficient {resource}`: no node advertises this MIG profile (the GPUs are not partitioned that way, the strategy is single, or the GPU has no MIG)",
                "`Insufficient {resource}`：沒有任何節點宣告這個 MIG profile（GPU 沒有這樣切、策略是 single，或這張 GPU 不支援 MIG）"
            ));
            fixes.push(text!(
                "ask for a MIG profile the nodes advertise, or change the nodes' MIG layout (PL503 mig-unsupported, PL502 gpu-unschedulable)",
                "改成要求節點有宣告的 MIG profile，或修改節點的 MIG layout（PL503 mig-unsupported、PL502 gpu-unschedulable）"
            ));
        } else if not_helpful {
            causes.push(text!(
                "`Insufficient {resource}` with `Preemption is not helpful`: the request is above what any node advertises at all — the NVIDIA device plugin is not running or has not registered the GPUs (allocatable 0), or the pod asks for more than one node has",
                "`Insufficient {resource}` 加上 `Preemption is not helpful`：要求量超過任何節點宣告的總量——NVIDIA device plugin 沒有執行或沒有註冊 GPU（allocatable 是 0），或是 Pod 要的比單一節點有的還多"
            ));
            fixes.push(text!(
                "install the NVIDIA device plugin (or GPU Operator) so the nodes register {resource}, or ask for no more than one node has (PL502 gpu-unschedulable)",
                "安裝 NVIDIA device plugin（或 GPU Operator）讓節點註冊 {resource}，或要求量不要超過單一節點的數量（PL502 gpu-unschedulable）"
            ));
        } else {
            let count = holders.len();
            let shown = holders
                .iter()
                .take(3)
                .copied()
                .collect::<Vec<_>>()
                .join(", ");
            let more = if count > 3 { ", …" } else { "" };
            causes.push(text!(
                "`Insufficient {resource}` with `No preemption victims found`: the nodes do advertise {resource}, but every one is already allocated ({count} running pod(s) hold them: {shown}{more}) and extended resources are never shared or overcommitted",
                "`Insufficient {resource}` 加上 `No preemption victims found`：節點確實有宣告 {resource}，但已經全部被分配出去（{count} 個執行中的 Pod 占著：{shown}{more}），擴充資源（Extended Resource）不能共用也不能超賣"
            ));
            fixes.push(text!(
                "lower replicas to the number of GPUs, add GPU nodes, or share GPUs (time-slicing, MPS or a MIG profile) (PL505 replicas-exceed-gpus)",
                "把 replicas 降到 GPU 的數量、增加 GPU 節點，或共享 GPU（Time-slicing、MPS 或 MIG profile）（PL505 replicas-exceed-gpus）"
            ));
        }
    }
    for resource in insufficient.iter().filter(|r| !r.contains('/')) {
        causes.push(text!(
            "`Insufficient {resource}`: the pod's {resource} requests do not fit in what is left on any node",
            "`Insufficient {resource}`：Pod 的 {resource} requests 在任何節點剩下的容量裡都放不下"
        ));
        fixes.push(text!(
            "lower the {resource} requests to what the program needs at steady state, or add nodes",
            "把 {resource} requests 降到程式穩態實際需要的量，或增加節點"
        ));
    }
    if causes.is_empty() {
        causes.push(text!(
            "no node passes the scheduler's filters",
            "沒有任何節點通過排程器的篩選"
        ));
        fixes.push(text!(
            "compare the pod's requests, tolerations and nodeSelector with the nodes",
            "比對 Pod 的 requests、tolerations、nodeSelector 與節點"
        ));
    }
    let join = |texts: &[Text]| {
        Text::new(
            texts
                .iter()
                .map(|t| t.en.clone())
                .collect::<Vec<_>>()
                .join("; "),
            texts
                .iter()
                .map(|t| t.zh_tw.clone())
                .collect::<Vec<_>>()
                .join("；"),
        )
    };
    let cause = join(&causes);
    let fix = join(&fixes);
    let (cause_en, cause_zh) = (&cause.en, &cause.zh_tw);
    let root_cause = text!(
        "the scheduler says \"{message}\" — {cause_en}",
        "排程器說「{message}」——{cause_zh}",
    );
    Some(Diagnosis {
        pod: pod.name.clone(),
        kind: Kind::Unschedulable,
        symptom: text!(
            "Pending: the pod was never scheduled to a node, no container started",
            "Pending：Pod 一直沒有被排程到任何節點，container 一個都沒啟動"
        ),
        root_cause,
        evidence: evidence.lines,
        next_command: "kubectl describe node".into(),
        why_that_command: text!(
            "describe pod's Events already quote the scheduler (FailedScheduling), and a pod that never started has no logs to read; describe node shows each node's Taints, Allocatable (is the GPU there at all?) and Allocated resources (is it all taken?)",
            "describe pod 的 Events 已經引用了排程器的訊息（FailedScheduling），沒啟動過的 Pod 也沒有日誌可看；describe node 會列出每個節點的 Taints、Allocatable（GPU 到底有沒有被註冊）和 Allocated resources（是不是已經被用光）"
        ),
        fix,
    })
}
