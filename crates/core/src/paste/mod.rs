//! `podlab diagnose`: what a person pastes from a terminal about a failing
//! pod (`kubectl describe pod`, `get pod -o yaml|json`, `get events`, `get
//! pods`, `logs`, in any mix, cut anywhere) read into facts (`read.rs`) and
//! judged: the failure's kind, the pasted lines that show it, the
//! explanation in both languages, the fix and what podlab had to assume.
//!
//! The kinds are the diagnosis card's (`explain::diagnosis::Kind`), named
//! for the CLI's JSON by [`kind_name`]; a Pending pod's kind is refined by
//! the scheduler's message ([`scheduling_kind`]). A paste that does not
//! show the cause gets `unknown` and what to paste (docs/diagnose.md).

mod describe;
mod fixes;
mod judge;
mod object;
pub mod read;
pub mod replay;
pub mod words;

use crate::explain::diagnosis::Kind;
use crate::i18n::Text;
use crate::manifest::assumed::Assumption;
use crate::text;

use self::judge::{judge, log_says_cuda_oom, Verdict};

pub use read::{read, Line, Paste, PodFacts};

/// The answer for a paste.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// `liveness-kills-slow-start`, …, `healthy`, `unknown`.
    pub kind: &'static str,
    /// The pod the answer is about, when the paste names it.
    pub pod: Option<String>,
    pub container: Option<String>,
    /// The pasted lines that show it, by line number.
    pub evidence: Vec<Line>,
    pub explanation: Text,
    /// A YAML fragment or a kubectl command; None where podlab cannot know it.
    pub fix: Option<String>,
    pub assumed: Vec<Assumption>,
    /// What the paste held, in words.
    pub recognised: Text,
    /// Every pod the paste names, with its kind.
    pub pods: Vec<(String, &'static str)>,
    /// The rebuilt run, where the paste says enough (`replay.rs`).
    pub replay: Option<replay::Replay>,
}

/// The name of a diagnosis kind in `podlab diagnose`'s JSON (issue 31): the
/// issue's names where it gives one, else the kind in kebab case. A Pending
/// pod's is [`scheduling_kind`] of the scheduler's message; `liveness` says
/// whether a probe that kills a serving program is the liveness probe.
pub fn kind_name(kind: Kind, scheduler_message: &str, liveness: bool) -> &'static str {
    match kind {
        Kind::Unschedulable => scheduling_kind(scheduler_message),
        Kind::LivenessDuringLoad => "liveness-kills-slow-start",
        Kind::StartupBudgetExhausted => "startup-budget-exhausted",
        Kind::ProbeKillsServingProgram if liveness => "liveness-failing",
        Kind::ProbeKillsServingProgram => "probe-kills-serving-program",
        Kind::ReadinessNeverSucceeds => "readiness-failing",
        Kind::OomKilled => "oom-killed",
        Kind::ProgramCrash => "app-crash",
        Kind::CompletedButRestarted => "completed-but-restarted",
        Kind::ImagePull => "image-pull",
        Kind::MissingConfig => "missing-config",
        Kind::FailedMount => "failed-mount",
        Kind::Refused => "refused",
        Kind::GpuOutOfMemory => "cuda-oom",
        Kind::ShmBusError => "shm-bus-error",
        Kind::ShmOomKilled => "shm-oom-killed",
        Kind::Initializing => "initializing",
        Kind::InitContainerFailed => "init-container-failed",
    }
}

/// A FailedScheduling message's kind: `0/3 nodes are available: 1
/// Insufficient nvidia.com/gpu, 2 node(s) had untolerated taint {…}.`
/// (kube-scheduler's `FitError.Error`; kubectl-output.md §3.6). A taint
/// other than the control plane's wins (the nodes with GPUs are the tainted
/// ones), then a GPU shortage, then another resource, then node affinity;
/// a taint that says a node's state (`node_state_taint`) only when the
/// message lists nothing else; cordoned nodes (`node(s) were
/// unschedulable`, NodeUnschedulable: `kubectl cordon`/`drain`) when every
/// node is (nothing else is listed).
pub fn scheduling_kind(message: &str) -> &'static str {
    let reasons = message
        .split(" preemption:")
        .next()
        .unwrap_or(message)
        .split_once("nodes are available: ")
        .map(|(_, r)| r)
        .unwrap_or(message);
    let mut found = [false; 6];
    for item in reasons.split(", ") {
        let item = item.trim().trim_end_matches('.');
        // ≤ 1.2x: `3 node(s) had taint {k: v}, that the pod didn't tolerate`.
        let taint = item.contains("untolerated taint")
            || (item.contains("had taint") && message.contains("didn't tolerate"));
        let state = item
            .split_once('{')
            .and_then(|(_, key)| key.split_once(':'))
            .is_some_and(|(key, _)| node_state_taint(key.trim()));
        if taint && state {
            found[4] = true;
        } else if taint && !item.contains("node-role.kubernetes.io/") {
            found[0] = true;
        } else if item.contains("Insufficient") && is_gpu(item) {
            found[1] = true;
        } else if item.contains("Insufficient") || item.contains("Too many pods") {
            found[2] = true;
        } else if item.contains("node affinity") || item.contains("node selector") {
            found[3] = true;
        } else if item.contains(crate::sched::NODE_UNSCHEDULABLE) {
            found[5] = true;
        }
    }
    const NAMES: [&str; 6] = [
        "pending-untolerated-taint",
        "pending-insufficient-gpu",
        "pending-insufficient-resources",
        "pending-node-affinity",
        "pending-untolerated-taint",
        "pending-cordoned-node",
    ];
    found
        .iter()
        .position(|f| *f)
        .map_or("unschedulable", |i| NAMES[i])
}

/// A taint the cluster puts on a node to say its state, not one a person
/// puts to reserve it: the node lifecycle controller's and the kubelet's
/// `node.kubernetes.io/not-ready`, `unreachable`, `unschedulable`,
/// `memory-pressure`, `disk-pressure`, `pid-pressure`,
/// `network-unavailable`, `out-of-service`, and the cloud provider's
/// `node.cloudprovider.kubernetes.io/uninitialized`
/// (`staging/src/k8s.io/api/core/v1/well_known_taints.go`). Tolerating one
/// would place the pod on a node that is broken or full; the node is what
/// to fix.
fn node_state_taint(key: &str) -> bool {
    key.starts_with("node.kubernetes.io/")
        || key == "node.cloudprovider.kubernetes.io/uninitialized"
}

/// `Insufficient <resource>` names an accelerator: a vendor's device-plugin
/// resource (`nvidia.com/gpu`, `nvidia.com/mig-1g.5gb`, `amd.com/gpu`,
/// `gpu.intel.com/i915`, `google.com/tpu`), or another extended resource
/// (a name with a domain) that says what it shares: a GPU-sharing
/// scheduler's `aliyun.com/gpu-mem`, `tencent.com/vcuda-core`, the device
/// plugins' `aws.amazon.com/neuron`, `habana.ai/gaudi`, 1.9's
/// `alpha.kubernetes.io/nvidia-gpu`.
fn is_gpu(item: &str) -> bool {
    let resource = item
        .split_once("Insufficient ")
        .map(|(_, r)| r)
        .unwrap_or(item)
        .split_whitespace()
        .next()
        .unwrap_or("");
    let vendor = [
        "nvidia.com/",
        "amd.com/gpu",
        "gpu.intel.com/",
        "google.com/tpu",
    ]
    .iter()
    .any(|r| resource.contains(r));
    let extended = resource.split_once('/').is_some_and(|(_, name)| {
        let name = name.to_ascii_lowercase();
        ["gpu", "cuda", "tpu", "neuron", "gaudi"]
            .iter()
            .any(|word| name.contains(word))
    });
    vendor || extended
}

/// Reads and judges a paste.
pub fn diagnose(text: &str) -> Answer {
    let paste = read(text);
    let recognised = recognised(&paste);
    let judged: Vec<(String, Verdict)> = paste
        .pods
        .iter()
        .filter(|pod| !pod.name.is_empty() || has_any(pod))
        .map(|pod| (pod.name.clone(), judge(pod, paste.seen.ends_whole)))
        .collect();
    let pods = judged
        .iter()
        .map(|(name, v)| (name.clone(), v.kind))
        .collect();
    // The first failing pod; else the first unknown; else the first (healthy).
    let chosen = judged
        .iter()
        .position(|(_, v)| v.kind != "healthy" && v.kind != "unknown")
        .or_else(|| judged.iter().position(|(_, v)| v.kind == "unknown"))
        .or(if judged.is_empty() { None } else { Some(0) });
    match chosen {
        Some(i) => {
            let (name, verdict) = judged.into_iter().nth(i).expect("index from position");
            let facts = paste.pods.iter().find(|p| p.name == name);
            // The verdict's container (an OOM kill's, a probe's), else the
            // first app container; a Pending pod's replay needs none (its
            // events rebuild the nodes).
            let unnamed = read::ContainerFacts {
                name: "app".into(),
                ..read::ContainerFacts::default()
            };
            let replay = facts.and_then(|pod| {
                let c = pod
                    .containers
                    .iter()
                    .find(|c| !c.init && Some(&c.name) == verdict.container.as_ref())
                    .or_else(|| pod.containers.iter().find(|c| !c.init))
                    .or_else(|| verdict.kind.starts_with("pending-").then_some(&unnamed))?;
                replay::replay(verdict.kind, pod, c)
            });
            // What the replay assumed replaces the verdict's guess of the
            // same number (the liveness replay's load time, the OOM's peak).
            let mut assumed = verdict.assumed;
            if let Some(replay) = &replay {
                assumed.retain(|a| replay.assumed.iter().all(|r| r.path != a.path));
                assumed.extend(replay.assumed.iter().cloned());
            }
            let mut evidence = verdict.evidence;
            evidence.sort_by_key(|line| line.number);
            evidence.dedup_by_key(|line| line.number);
            Answer {
                kind: verdict.kind,
                pod: (!name.is_empty()).then_some(name),
                container: verdict.container,
                evidence,
                explanation: verdict.explanation,
                fix: verdict.fix,
                assumed,
                recognised,
                pods,
                replay,
            }
        }
        None => Answer {
            kind: "unknown",
            pod: None,
            container: None,
            evidence: Vec::new(),
            explanation: text!(
                "nothing in the paste is kubectl output about a pod: paste what `kubectl describe pod <pod>` prints (with its Events: section), or `kubectl get pod <pod> -o yaml`",
                "貼上的內容裡沒有關於 Pod 的 kubectl 輸出：請貼上 `kubectl describe pod <pod>` 的輸出（包含 Events: 段落），或 `kubectl get pod <pod> -o yaml`"
            ),
            fix: None,
            assumed: Vec::new(),
            recognised,
            pods,
            replay: None,
        },
    }
}

fn has_any(pod: &PodFacts) -> bool {
    pod.phase.is_some()
        || !pod.containers.is_empty()
        || !pod.events.is_empty()
        || !pod.rows.is_empty()
        || pod.unschedulable.is_some()
        // A kubelet message pasted alone.
        || pod.logs.iter().any(|l| l.text.starts_with("Failed to pull image \""))
        // A program's log alone that says how it ended.
        || log_says_cuda_oom(pod)
}

/// "describe pod (1 pod), an Events table, …" in both languages.
fn recognised(paste: &Paste) -> Text {
    let seen = &paste.seen;
    let named = paste.pods.iter().filter(|p| !p.name.is_empty()).count();
    let mut en = Vec::new();
    let mut zh = Vec::new();
    let mut add = |on: bool, e: String, z: String| {
        if on {
            en.push(e);
            zh.push(z);
        }
    };
    add(
        seen.describe,
        "kubectl describe pod".into(),
        "kubectl describe pod".into(),
    );
    add(
        seen.events_table,
        "an Events table".into(),
        "Events 表格".into(),
    );
    add(
        seen.get_events,
        "kubectl get events".into(),
        "kubectl get events".into(),
    );
    add(
        seen.get_pods,
        "kubectl get pods".into(),
        "kubectl get pods".into(),
    );
    add(
        seen.object,
        "a Pod object (-o yaml|json)".into(),
        "Pod 物件（-o yaml|json）".into(),
    );
    let lines = seen.lines;
    let (logs_en, logs_zh) = if seen.logs {
        (
            "; other lines read as a program's log",
            "；其他行當作程式的日誌讀",
        )
    } else {
        ("", "")
    };
    let (mut e, mut z) = if en.is_empty() {
        (
            format!("{lines} line(s), none of them recognised as kubectl output{logs_en}"),
            format!("{lines} 行，沒有一行認得出是 kubectl 的輸出{logs_zh}"),
        )
    } else {
        (
            format!(
                "{lines} line(s): {}{logs_en}; {named} pod(s) named",
                en.join(", ")
            ),
            format!(
                "{lines} 行：{}{logs_zh}；提到 {named} 個 Pod",
                zh.join("、")
            ),
        )
    };
    if seen.truncated {
        e.push_str(&format!(
            "; only the first {} bytes and {} lines are read",
            read::MAX_BYTES,
            read::MAX_LINES
        ));
        z.push_str(&format!(
            "；只讀前 {} 個位元組、{} 行",
            read::MAX_BYTES,
            read::MAX_LINES
        ));
    }
    Text { en: e, zh_tw: z }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scheduling_kinds() {
        assert_eq!(
            scheduling_kind("0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."),
            "pending-insufficient-gpu"
        );
        assert_eq!(
            scheduling_kind("0/3 nodes are available: 1 node(s) had untolerated taint {nvidia.com/gpu: present}, 2 Insufficient nvidia.com/gpu."),
            "pending-untolerated-taint"
        );
        assert_eq!(
            scheduling_kind("0/3 nodes are available: 3 node(s) had taint {node.kubernetes.io/disk-pressure: }, that the pod didn't tolerate."),
            "pending-untolerated-taint"
        );
        assert_eq!(
            scheduling_kind("0/2 nodes are available: 1 Insufficient memory, 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }."),
            "pending-insufficient-resources"
        );
        // A GPU-sharing scheduler's extended resource is a GPU too
        // (gpushare-scheduler-extender#59).
        assert_eq!(
            scheduling_kind("0/2 nodes are available: 2 Insufficient aliyun.com/gpu-mem."),
            "pending-insufficient-gpu"
        );
        assert_eq!(
            scheduling_kind("0/1 nodes are available: 1 Insufficient tencent.com/vcuda-core, 1 Insufficient tencent.com/vcuda-memory."),
            "pending-insufficient-gpu"
        );
        assert_eq!(
            scheduling_kind("0/3 nodes are available: 3 Insufficient example.com/licenses."),
            "pending-insufficient-resources"
        );
        // A node's state does not win over what the other nodes lack.
        assert_eq!(
            scheduling_kind("0/3 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, 2 Insufficient nvidia.com/gpu."),
            "pending-insufficient-gpu"
        );
        assert_eq!(
            scheduling_kind("0/3 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }, 2 node(s) had untolerated taint {nvidia.com/gpu: present}."),
            "pending-untolerated-taint"
        );
        assert_eq!(
            scheduling_kind(
                "0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector."
            ),
            "pending-node-affinity"
        );
        // Cordoned nodes: their own kind when every node is; what the
        // others lack wins otherwise (the message cannot say whether the
        // cordoned node had it).
        assert_eq!(
            scheduling_kind("0/2 nodes are available: 2 node(s) were unschedulable. no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."),
            "pending-cordoned-node"
        );
        assert_eq!(
            scheduling_kind("0/2 nodes are available: 1 Insufficient nvidia.com/gpu, 1 node(s) were unschedulable."),
            "pending-insufficient-gpu"
        );
    }

    #[test]
    fn old_from_column_and_no_prefix() {
        let paste = "Containers:\n  api:\n    Port:  8000/TCP\n    Liveness:  http-get http://:8000/health delay=10s timeout=1s period=10s #success=1 #failure=3\nEvents:\n  Type     Reason     Age                From               Message\n  ----     ------     ----               ----               -------\n  Warning  Unhealthy  7m (x18 over 11m)  kubelet, node-1    Liveness probe failed: Get http://10.0.0.1:8000/health: dial tcp 10.0.0.1:8000: connect: connection refused\n  Normal   Killing    7m (x6 over 11m)   kubelet, node-1    Container api failed liveness probe, will be restarted\n  Warning  BackOff    <invalid> (x23 over 9m)  kubelet, node-1  Back-off restarting failed container\n";
        let answer = diagnose(paste);
        assert_eq!(answer.kind, "liveness-kills-slow-start", "{answer:?}");
        assert!(answer
            .evidence
            .iter()
            .any(|l| l.text.contains("Back-off restarting failed container")));
    }

    /// A taint that says a node's state (kuscia#45's disk-pressure,
    /// optscale#568's unreachable) gets no toleration; a GPU pool's does.
    #[test]
    fn node_state_taints_get_no_toleration() {
        let row = |message: &str| {
            format!("Events:\n  Type     Reason            Age   From               Message\n  ----     ------            ----  ----               -------\n  Warning  FailedScheduling  1m    default-scheduler  {message}\n")
        };
        let answer = diagnose(&row("0/2 nodes are available: 2 node(s) had untolerated taint {node.kubernetes.io/disk-pressure: }. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."));
        assert_eq!(answer.kind, "pending-untolerated-taint", "{answer:?}");
        assert_eq!(answer.fix, None);
        assert!(answer
            .explanation
            .en
            .contains("node.kubernetes.io/disk-pressure"));
        assert!(answer
            .explanation
            .zh_tw
            .contains("node.kubernetes.io/disk-pressure"));
        // Beside a taint someone put on the GPU nodes, that one is the fix.
        let answer = diagnose(&row("0/3 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }, 2 node(s) had untolerated taint {nvidia.com/gpu: present}."));
        assert_eq!(answer.kind, "pending-untolerated-taint", "{answer:?}");
        assert_eq!(
            answer.fix.as_deref(),
            Some("tolerations:\n- key: nvidia.com/gpu\n  operator: Exists")
        );
    }

    /// A program's log pasted alone (llm-d-infra#195) says how it ended; the
    /// same log beside a container that is Ready with no restart does not.
    #[test]
    fn cuda_oom_from_a_log_alone() {
        let log = "ERROR 08-25 22:00:44 [core.py:632] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 330.00 MiB.\n";
        let answer = diagnose(log);
        assert_eq!(answer.kind, "cuda-oom", "{answer:?}");
        assert_eq!(answer.evidence.first().map(|l| l.number), Some(1));
        let ready = format!("{log}Name:  p\nContainers:\n  api:\n    State:          Running\n    Ready:          True\n    Restart Count:  0\n");
        assert_eq!(diagnose(&ready).kind, "healthy");
    }

    /// Events alone (gravity#1335): readiness failures that are answers, at
    /// least failureThreshold's default 3 of them, in a whole table with no
    /// kill; fewer, a cut table, or a kill beside them say too little.
    #[test]
    fn readiness_failing_from_events_alone() {
        let table = |rows: &str| {
            format!("Events:\n  Type     Reason     Age   From     Message\n  ----     ------     ----  ----     -------\n{rows}")
        };
        let failing = "  Warning  Unhealthy  86s (x25710 over 2d23h)  kubelet, ip.ec2.internal  Readiness probe failed: HTTP probe failed with statuscode: 503\n";
        let answer = diagnose(&table(failing));
        assert_eq!(answer.kind, "readiness-failing", "{answer:?}");
        assert!(answer.explanation.en.contains("does not show Ready:"));
        let once = "  Warning  Unhealthy  86s   kubelet  Readiness probe failed: HTTP probe failed with statuscode: 503\n";
        assert_eq!(diagnose(&table(once)).kind, "unknown");
        assert_eq!(diagnose(table(failing).trim_end()).kind, "unknown");
        let killed = format!("{failing}  Normal   Killing    80s   kubelet  Container api failed liveness probe, will be restarted\n");
        assert_ne!(diagnose(&table(&killed)).kind, "readiness-failing");
    }

    /// keda-example#6: `pull access denied …, repository does not exist or
    /// may require 'docker login'` is said as the registry words it (absent
    /// or private), not as missing credentials only.
    #[test]
    fn pull_access_denied_names_both_causes() {
        let paste = "Events:\n  Type     Reason     Age                  From               Message\n  ----     ------     ----                 ----               -------\n  Warning  Failed     49s (x4 over 2m27s)  kubelet            Failed to pull image \"local/dummy\": rpc error: code = Unknown desc = Error response from daemon: pull access denied for local/dummy, repository does not exist or may require 'docker login': denied: requested access to the resource is denied\n";
        let answer = diagnose(paste);
        assert_eq!(answer.kind, "image-pull", "{answer:?}");
        assert!(answer
            .explanation
            .en
            .contains("does not exist or needs credentials"));
        let private = paste.replace(
            "pull access denied for local/dummy, repository does not exist or may require 'docker login': denied",
            "unauthorized: authentication required",
        );
        assert!(diagnose(&private)
            .explanation
            .en
            .contains("imagePullSecrets are missing"));
    }

    #[test]
    fn nothing_recognised() {
        let answer = diagnose("hello\nworld");
        assert_eq!(answer.kind, "unknown");
        assert!(answer.recognised.en.contains("2 line"), "{answer:?}");
    }
}
