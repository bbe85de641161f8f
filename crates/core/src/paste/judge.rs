//! Judging one pod from what a paste showed of it (`read::PodFacts`): the
//! checks in the order `explain::diagnosis::diagnose_pod` makes them
//! (unscheduled, a failed mount, init containers, the image, missing
//! config, then the main containers' exits: /dev/shm, the OOM kill, a
//! probe's kill, CUDA out of memory, the program's own exit; then a
//! readiness probe that never passes), and `healthy` or `unknown` when
//! none holds. Every kind is claimed only on what the paste shows whole:
//! an Events table read from its header to a line after it (or to the
//! paste's end when its last line is whole), the container's mounts and
//! ports, the logs (docs/diagnose.md).

use super::read::{ContainerFacts, EventRow, Line, PodFacts};
use crate::i18n::Text;
use crate::manifest::assumed::Assumption;
use crate::manifest::path::{Path, ProgramField};
use crate::text;

use super::fixes::{create_command, double_quantity, handler_yaml, not_found_object};
use super::{node_state_taint, scheduling_kind};

/// What was judged of one pod.
pub(super) struct Verdict {
    pub(super) kind: &'static str,
    pub(super) container: Option<String>,
    pub(super) evidence: Vec<Line>,
    pub(super) explanation: Text,
    pub(super) fix: Option<String>,
    pub(super) assumed: Vec<Assumption>,
}

impl Verdict {
    fn new(kind: &'static str, explanation: Text) -> Verdict {
        Verdict {
            kind,
            container: None,
            evidence: Vec::new(),
            explanation,
            fix: None,
            assumed: Vec::new(),
        }
    }

    fn with(mut self, lines: impl IntoIterator<Item = Line>) -> Verdict {
        self.evidence.extend(lines);
        self
    }
}

fn waiting_or_status<'p>(pod: &'p PodFacts, reasons: &[&str]) -> Vec<&'p Line> {
    let mut lines: Vec<&Line> = pod
        .containers
        .iter()
        .filter_map(|c| c.waiting_reason.as_ref())
        .filter(|(r, _)| reasons.contains(&r.as_str()))
        .map(|(_, l)| l)
        .collect();
    lines.extend(
        pod.rows
            .iter()
            .filter(|r| reasons.iter().any(|x| r.status.ends_with(x)))
            .map(|r| &r.line),
    );
    lines
}

fn events<'p>(pod: &'p PodFacts, reason: &str, contains: &str) -> Vec<&'p EventRow> {
    pod.events
        .iter()
        .filter(|e| e.reason == reason && e.message.contains(contains))
        .collect()
}

fn cloned<'a>(lines: impl IntoIterator<Item = &'a Line>) -> Vec<Line> {
    lines.into_iter().cloned().collect()
}

/// The probe's line (`Liveness:  http-get http://:8000/health delay=…`) of
/// a container, and whether its port is one the container declares
/// (None: not known).
fn probe_of<'p>(
    container: Option<&'p ContainerFacts>,
    title: &str,
) -> (Option<&'p Line>, Option<bool>) {
    let Some(container) = container else {
        return (None, None);
    };
    let Some((_, port, line)) = container.probes.iter().find(|(t, _, _)| t == title) else {
        return (None, None);
    };
    let declared = match port {
        Some(port) if !container.ports.is_empty() => Some(container.ports.contains(port)),
        _ => None,
    };
    (Some(line), declared)
}

/// A failed probe's message says the program was not listening yet
/// (`connect: connection refused`), as opposed to answering wrong
/// (`statuscode: 404`) or late (`context deadline exceeded`).
fn refused_connection(message: &str) -> bool {
    message.contains("connection refused")
}

/// A failed probe's message says the program answered: a status code, or
/// an answer too late (`HTTP probe failed with statuscode: 404`, `context
/// deadline exceeded`, pkg/probe/http/http.go), or an exec probe's own
/// output. An HTTP or TCP message that says neither (a network error such
/// as `no route to host`, or a line the paste cut: `Get "http://10.0.0.5:8000/he`)
/// is not an answer.
fn answered(message: &str) -> bool {
    if refused_connection(message) {
        return false;
    }
    let network = message.starts_with("Get \"") || message.contains("dial tcp");
    !network
        || ["statuscode", "deadline exceeded", "Timeout", "timeout"]
            .iter()
            .any(|word| message.contains(word))
}

/// The `#failure=N` of a describe probe line.
fn failure_threshold(line: Option<&Line>) -> Option<u64> {
    let text = &line?.text;
    let (_, rest) = text
        .split_once("#failure=")
        .or_else(|| text.split_once("failureThreshold="))?;
    rest.split_whitespace().next()?.parse().ok()
}

/// A program's log line saying the GPU's memory ran out.
const CUDA_OOM: &[&str] = &[
    "CUDA out of memory",
    "OutOfMemoryError",
    "CUDA error: out of memory",
];

/// Whether the pod's log lines say the GPU's memory ran out.
pub(super) fn log_says_cuda_oom(pod: &PodFacts) -> bool {
    pod.logs
        .iter()
        .any(|l| CUDA_OOM.iter().any(|n| l.text.contains(n)))
}

/// `ends_whole`: the paste's last line is whole, so a table or a log that
/// runs to its end is whole too.
pub(super) fn judge(pod: &PodFacts, ends_whole: bool) -> Verdict {
    // An Events table read from its header to its end: what it does not
    // hold did not happen (within the events' one-hour TTL).
    let events_whole = pod.no_events || (pod.events_header && (pod.events_closed || ends_whole));
    let logs_whole = pod.logs_closed || ends_whole;
    let main: Vec<&ContainerFacts> = pod.containers.iter().filter(|c| !c.init).collect();
    let started_events = !events(pod, "Started", "").is_empty()
        || pod
            .containers
            .iter()
            .any(|c| c.state.as_ref().is_some_and(|(s, _)| s != "Waiting"));

    // 1. Never scheduled.
    let failed_scheduling = events(pod, "FailedScheduling", "");
    let scheduled = !events(pod, "Scheduled", "").is_empty()
        || pod.node.is_some()
        || pod.containers.iter().any(|c| c.state.is_some())
        || pod.rows.iter().any(|r| r.status != "Pending");
    if !scheduled {
        let message = failed_scheduling
            .last()
            .map(|e| (e.message.as_str(), &e.line))
            .or(pod.unschedulable.as_ref().map(|(m, l)| (m.as_str(), l)));
        if let Some((message, line)) = message {
            let kind = scheduling_kind(message);
            // A message cut before its reasons.
            if kind != "unschedulable" || message.trim_end().ends_with('.') {
                return scheduling_verdict(kind, message, line, pod);
            }
            return unknown_events(pod, line);
        }
    }

    // 2. A volume that cannot be mounted.
    if let Some(event) = events(pod, "FailedMount", "")
        .last()
        .filter(|_| !started_events)
    {
        let mut verdict = Verdict::new(
            "failed-mount",
            text!(
                "the pod stays Pending in ContainerCreating: a volume cannot be mounted (the FailedMount event says which and why; a Secret or ConfigMap volume whose object does not exist is the usual cause), and the kubelet sets up every volume before it creates the containers",
                "Pod 一直停在 Pending、ContainerCreating：有一個 volume 掛載不上（FailedMount 事件寫了是哪一個、為什麼；最常見的是 Secret 或 ConfigMap volume 指到不存在的物件），kubelet 要先把所有 volume 準備好，才會建立 container"
            ),
        )
        .with([event.line.clone()]);
        if let Some(object) = not_found_object(&event.message) {
            verdict.fix = Some(create_command(&object));
        }
        return verdict;
    }

    // 3. The image: before the init containers, since an init container
    // can fail so too (`Init:ErrImagePull`).
    let image_states = waiting_or_status(
        pod,
        &[
            "ErrImagePull",
            "ImagePullBackOff",
            "ErrImageNeverPull",
            "InvalidImageName",
        ],
    );
    let pull_failed: Vec<&EventRow> = pod
        .events
        .iter()
        .filter(|e| {
            e.warning
                && ((e.reason == "Failed" && e.message.contains("pull"))
                    || (e.reason == "BackOff" && e.message.starts_with("Back-off pulling image"))
                    || e.reason == "ErrImageNeverPull")
        })
        .collect();
    // The kubelet's message pasted without its event row (image manager:
    // `Failed to pull image "%s": %v`, `Back-off pulling image "%s"`).
    let pull_lines: Vec<&Line> = pod
        .logs
        .iter()
        .filter(|l| {
            l.text.starts_with("Failed to pull image \"")
                || l.text.starts_with("Back-off pulling image \"")
        })
        .collect();
    if !image_states.is_empty()
        || ((!pull_failed.is_empty() || !pull_lines.is_empty()) && !started_events)
    {
        let messages = || {
            pull_failed
                .iter()
                .map(|e| e.message.as_str())
                .chain(pull_lines.iter().map(|l| l.text.as_str()))
        };
        let unauthorized = messages().any(|m| m.contains("unauthorized") || m.contains("denied"));
        // Docker's and containerd's `pull access denied …, repository does
        // not exist or may require 'docker login'|authorization`: the
        // registry answers alike for a repository that does not exist and
        // one the node may not read (keda-example#6: images named
        // `local/…`).
        let absent_or_private = messages().any(|m| m.contains("repository does not exist"));
        let explanation = if absent_or_private {
            text!(
                "the kubelet cannot pull the image: the registry says the repository does not exist or needs credentials (it answers alike for both), so check the image's name first (a typo, an image built on a laptop and pushed nowhere), then imagePullSecrets; the container never starts",
                "kubelet 拉不到映像：registry 回答 repository 不存在或需要憑證（這兩種情況它的回答一樣），所以先檢查映像名稱（打錯字、只在筆電上 build 而沒有推到任何 registry），再檢查 imagePullSecrets；container 一直沒有啟動"
            )
        } else if unauthorized {
            text!(
                "the kubelet cannot pull the image: the registry refuses it (unauthorized or denied), so imagePullSecrets are missing or wrong; the container never starts",
                "kubelet 拉不到映像：registry 拒絕了（unauthorized 或 denied），也就是少了 imagePullSecrets 或設錯了；container 一直沒有啟動"
            )
        } else {
            text!(
                "the kubelet cannot pull the image, so the container never starts and the kubelet keeps retrying with back-off (10 s, 20 s, 40 s … up to 5 min): the tag is wrong or was never pushed (the Failed event ends with \"not found\"), or the registry cannot be reached",
                "kubelet 拉不到映像，所以 container 一直沒有啟動，kubelet 以退避間隔一再重試（10 秒、20 秒、40 秒……最長 5 分鐘）：tag 寫錯了或從來沒有推上去（Failed 事件的結尾是「not found」），或是連不到 registry"
            )
        };
        return Verdict::new("image-pull", explanation)
            .with(cloned(image_states))
            .with(pull_failed.iter().map(|e| e.line.clone()))
            .with(cloned(pull_lines));
    }

    // 4. A Secret or ConfigMap the environment needs (an init container's
    // too: `Init:CreateContainerConfigError`).
    let config_states = waiting_or_status(pod, &["CreateContainerConfigError"]);
    let config_events: Vec<&EventRow> = pod
        .events
        .iter()
        .filter(|e| e.reason == "Failed" && not_found_object(&e.message).is_some())
        .collect();
    if !config_states.is_empty() || (!config_events.is_empty() && !started_events) {
        let object = config_events
            .iter()
            .find_map(|e| not_found_object(&e.message))
            .or_else(|| {
                pod.containers.iter().find_map(|c| {
                    c.waiting_message
                        .as_ref()
                        .and_then(|(m, _)| not_found_object(m))
                })
            });
        let mut verdict = Verdict::new(
            "missing-config",
            text!(
                "CreateContainerConfigError: the container's env needs a Secret or ConfigMap (or a key in one) that does not exist in the namespace, so the kubelet cannot build the container's configuration and retries on every sync; RESTARTS stays 0 and there is no log",
                "CreateContainerConfigError：container 的 env 需要的 Secret 或 ConfigMap（或其中的某個 key）在這個 namespace 裡不存在，kubelet 組不出 container 的設定，每次同步都再試一次；RESTARTS 維持 0，也沒有任何日誌"
            ),
        )
        .with(cloned(config_states))
        .with(config_events.iter().map(|e| e.line.clone()));
        verdict.fix = object.map(|o| create_command(&o));
        return verdict;
    }

    // 5. Init containers.
    let init_failed: Vec<Line> = pod
        .containers
        .iter()
        .filter(|c| c.init)
        .filter_map(|c| {
            c.waiting_reason
                .as_ref()
                .filter(|(r, _)| r == "CrashLoopBackOff")
                .or(c.last_reason.as_ref().filter(|(r, _)| r == "Error"))
                .or(c.terminated_reason.as_ref().filter(|(r, _)| r == "Error"))
                .map(|(_, l)| l.clone())
        })
        .chain(
            pod.rows
                .iter()
                .filter(|r| {
                    r.status.starts_with("Init:") && !r.status["Init:".len()..].contains('/')
                })
                .map(|r| r.line.clone()),
        )
        .collect();
    if !init_failed.is_empty() {
        let backoff = pod
            .events
            .iter()
            .filter(|e| e.reason == "BackOff" && e.message.contains("restarting failed container"))
            .map(|e| e.line.clone());
        return Verdict::new(
            "init-container-failed",
            text!(
                "an init container exits with an error, so the app containers never start: the kubelet runs init containers one by one and restarts the failing one with back-off (Init:CrashLoopBackOff); its logs say why (kubectl logs <pod> -c <init container> --previous)",
                "有一個 Init 容器以錯誤結束，所以應用容器一直沒有啟動：kubelet 依序執行 Init 容器，失敗的那個會被退避重啟（Init:CrashLoopBackOff）；原因要看它的日誌（kubectl logs <pod> -c <Init 容器> --previous）"
            ),
        )
        .with(init_failed)
        .with(backoff);
    }

    let init_running = pod
        .containers
        .iter()
        .find(|c| c.init && c.state.as_ref().is_some_and(|(s, _)| s == "Running"));
    let main_waiting_init = !main.is_empty()
        && main.iter().all(|c| {
            c.waiting_reason
                .as_ref()
                .is_some_and(|(r, _)| r == "PodInitializing")
        });
    if let Some(init) = init_running.filter(|_| main_waiting_init) {
        let mut lines: Vec<Line> = init.state.iter().map(|(_, l)| l.clone()).collect();
        lines.extend(
            pod.rows
                .iter()
                .filter(|r| r.status.starts_with("Init:"))
                .map(|r| r.line.clone()),
        );
        return initializing(lines);
    }

    // 6. The main containers' exits.
    let crash_rows: Vec<&Line> = pod
        .rows
        .iter()
        .filter(|r| {
            r.restarts > 0
                || ["CrashLoopBackOff", "Error", "OOMKilled"].contains(&r.status.as_str())
        })
        .map(|r| &r.line)
        .collect();
    let backoff: Vec<Line> = pod
        .events
        .iter()
        .filter(|e| {
            e.reason == "BackOff"
                && e.message
                    .starts_with("Back-off restarting failed container")
        })
        .map(|e| e.line.clone())
        .collect();
    // `Started  (x2 over 18s)`: a second start is a restart.
    let started_again = {
        let mut per_container: Vec<(String, u64)> = Vec::new();
        for event in pod.events.iter().filter(|e| e.reason == "Started") {
            let key = event
                .container
                .clone()
                .unwrap_or_else(|| event.message.clone());
            match per_container.iter_mut().find(|(k, _)| *k == key) {
                Some((_, n)) => *n += event.count,
                None => per_container.push((key, event.count)),
            }
        }
        per_container.iter().any(|(_, n)| *n > 1)
    };
    let restarted = started_again
        || main.iter().any(|c| {
            c.restarts.as_ref().is_some_and(|(n, _)| *n > 0)
                || c.last_reason.is_some()
                || c.exit_code.as_ref().is_some_and(|(code, _)| *code != 0)
                || c.waiting_reason
                    .as_ref()
                    .is_some_and(|(r, _)| r == "CrashLoopBackOff")
        })
        || !crash_rows.is_empty()
        || !backoff.is_empty()
        || !events(pod, "Killing", "probe").is_empty();
    let logs_text: Vec<&Line> = pod.logs.iter().collect();
    let log_line = |needles: &[&str]| -> Option<Line> {
        logs_text
            .iter()
            .find(|l| needles.iter().any(|n| l.text.contains(n)))
            .map(|l| (*l).clone())
    };
    let restart_lines: Vec<Line> = main
        .iter()
        .filter_map(|c| c.restarts.as_ref().map(|(_, l)| l.clone()))
        .chain(crash_rows.iter().map(|l| (*l).clone()))
        .collect();
    if restarted {
        // /dev/shm.
        if let Some(line) = log_line(&["Bus error", "bus error", "insufficient shared memory"]) {
            let mut verdict = Verdict::new(
                "shm-bus-error",
                text!(
                    "a DataLoader worker died of a bus error: /dev/shm is the container runtime's default 64Mi tmpfs unless a volume is mounted there, and the workers' shared memory does not fit (PL106 shm-too-small)",
                    "DataLoader worker 因 Bus error 死掉：除非在 /dev/shm 掛上 volume，否則它只是 container runtime 預設的 64Mi tmpfs，worker 的共享記憶體放不下（PL106 shm-too-small）"
                ),
            )
            .with([line])
            .with(restart_lines.clone());
            verdict.fix = Some(
                "volumes:\n- name: dshm\n  emptyDir: { medium: Memory, sizeLimit: 2Gi }\n# and in the container:\nvolumeMounts:\n- { name: dshm, mountPath: /dev/shm }"
                    .into(),
            );
            return verdict;
        }
        // The kernel's OOM kill.
        let oom: Vec<Line> = main
            .iter()
            .flat_map(|c| [c.last_reason.as_ref(), c.terminated_reason.as_ref()])
            .flatten()
            .filter(|(r, _)| r == "OOMKilled")
            .map(|(_, l)| l.clone())
            .chain(
                pod.rows
                    .iter()
                    .filter(|r| r.status == "OOMKilled")
                    .map(|r| r.line.clone()),
            )
            .collect();
        if !oom.is_empty() {
            let container = main.iter().find(|c| {
                c.last_reason
                    .as_ref()
                    .is_some_and(|(r, _)| r == "OOMKilled")
                    || c.terminated_reason
                        .as_ref()
                        .is_some_and(|(r, _)| r == "OOMKilled")
            });
            let shm = container.is_some_and(|c| {
                c.shm_mount.as_ref().is_some_and(|v| {
                    pod.memory_volumes
                        .iter()
                        .any(|m| m == v || m.is_empty() || v.is_empty())
                })
            });
            let codes: Vec<Line> = main
                .iter()
                .flat_map(|c| [c.last_exit_code.as_ref(), c.exit_code.as_ref()])
                .flatten()
                .filter(|(code, _)| *code == 137)
                .map(|(_, l)| l.clone())
                .collect();
            let mounts_known = container.is_some_and(|c| {
                c.mounts_seen
                    && c.shm_mount.as_ref().is_none_or(|v| {
                        pod.volumes.contains(v) || (v.is_empty() && pod.status_seen)
                    })
            });
            // Without the mounts, /dev/shm's share is unknown: still an OOM
            // kill (`shm-oom-killed` refines it), said with that caveat.
            if !mounts_known {
                let mut lines = oom;
                lines.extend(codes);
                lines.extend(restart_lines.clone());
                let mut verdict = Verdict::new(
                    "oom-killed",
                    text!(
                        "OOMKilled (exit code 137): the container's memory passed limits.memory and the kernel killed the process. The paste does not show the container's mounts: if a memory-backed emptyDir is mounted at /dev/shm, its pages count too (paste kubectl describe pod whole, its Mounts: and Volumes:, to tell)",
                        "OOMKilled（exit code 137）：container 的記憶體超過 limits.memory，kernel 把行程砍掉。貼上的內容看不到 container 的掛載：如果 /dev/shm 掛的是記憶體型 emptyDir，它的分頁也算在內（要分辨，請貼上完整的 kubectl describe pod，包含 Mounts: 和 Volumes:）"
                    ),
                )
                .with(lines);
                verdict.container = container.map(|c| c.name.clone()).filter(|n| !n.is_empty());
                return verdict;
            }
            if shm {
                let mut verdict = Verdict::new(
                    "shm-oom-killed",
                    text!(
                        "OOMKilled with a memory emptyDir at /dev/shm: its pages are charged to the container, so the process plus what the workers put in /dev/shm passes limits.memory and the kernel kills it",
                        "/dev/shm 掛的是記憶體型 emptyDir 而被 OOMKilled：它的分頁算在 container 頭上，行程本身加上 worker 放進 /dev/shm 的資料超過 limits.memory，kernel 就把它砍掉"
                    ),
                )
                .with(oom)
                .with(codes)
                .with(restart_lines.clone());
                if let Some(c) = container {
                    verdict.container = Some(c.name.clone());
                    verdict.fix = c
                        .limits_memory
                        .as_deref()
                        .and_then(double_quantity)
                        .map(|limit| format!("resources:\n  limits:\n    memory: {limit}\n  requests:\n    memory: {limit}"));
                }
                return verdict;
            }
            let mut verdict = Verdict::new(
                "oom-killed",
                text!(
                    "OOMKilled (exit code 137): the container's memory passed limits.memory and the kernel killed the process; a model server's peak is usually while loading, 1.5 to 2 times its steady state, and no event explains it: only Last State says OOMKilled",
                    "OOMKilled（exit code 137）：container 的記憶體超過 limits.memory，kernel 把行程砍掉；模型服務的記憶體尖峰通常出現在載入時，是穩態的 1.5–2 倍，而且 Events 裡不會有任何說明：只有 Last State 寫著 OOMKilled"
                ),
            )
            .with(oom)
            .with(codes)
            .with(restart_lines.clone());
            if let Some(c) = container {
                verdict.container = Some(c.name.clone());
                if let Some(limit) = c.limits_memory.as_deref().and_then(double_quantity) {
                    verdict.fix = Some(format!(
                        "resources:\n  limits:\n    memory: {limit}\n  requests:\n    memory: {limit}"
                    ));
                    verdict.assumed.push(Assumption {
                        path: Path::program(&c.name, ProgramField::MemoryPeak),
                        value: limit,
                    });
                }
            }
            return verdict;
        }
        // A probe's kill.
        let killings = events(pod, "Killing", " probe");
        if let Some(killing) = killings.last() {
            let liveness = killing.message.contains("liveness");
            let title = if liveness { "Liveness" } else { "Startup" };
            let container = killing
                .container
                .clone()
                .or_else(|| {
                    killing
                        .message
                        .strip_prefix("Container ")
                        .and_then(|m| m.split_whitespace().next())
                        .map(str::to_string)
                })
                .or_else(|| main.first().map(|c| c.name.clone()));
            let facts = main
                .iter()
                .copied()
                .find(|c| Some(&c.name) == container.as_ref());
            let (probe_line, declared) = probe_of(facts, title);
            let prefix = format!("{title} probe failed");
            let unhealthy: Vec<&EventRow> = events(pod, "Unhealthy", &prefix);
            let refused = unhealthy.iter().any(|e| refused_connection(&e.message));
            let answered = unhealthy.iter().any(|e| answered(&e.message));
            let mut lines: Vec<Line> = vec![killing.line.clone()];
            lines.extend(unhealthy.iter().map(|e| e.line.clone()));
            lines.extend(backoff.iter().cloned());
            lines.extend(restart_lines.iter().cloned());
            lines.extend(probe_line.cloned());
            let loading = refused && !answered && declared == Some(true);
            let serving = answered || declared == Some(false);
            let name = container.clone().unwrap_or_else(|| "api".into());
            let mut verdict = match (liveness, loading, serving) {
                (true, true, _) => {
                    let mut v = Verdict::new(
                        "liveness-kills-slow-start",
                        text!(
                            "the livenessProbe kills the container while the model is still loading: its checks are refused (nothing listens yet) and after failureThreshold of them the kubelet restarts it; every restart loads from zero, so it never finishes (CrashLoopBackOff; PL201 liveness-kills-slow-start)",
                            "模型還在載入時，livenessProbe 就把 container 砍掉：探針的連線被拒（還沒有程式在聽），連續失敗 failureThreshold 次後 kubelet 就重啟它；每次重啟都從頭載入，所以永遠載入不完（CrashLoopBackOff；PL201 liveness-kills-slow-start）"
                        ),
                    );
                    v.fix = Some(format!(
                        "startupProbe:\n  {}\n  periodSeconds: 10\n  failureThreshold: 30",
                        handler_yaml(probe_line)
                    ));
                    v.assumed.push(Assumption {
                        path: Path::program(&name, ProgramField::Startup),
                        value: "300s".into(),
                    });
                    v
                }
                (false, true, _) => {
                    let mut v = Verdict::new(
                        "startup-budget-exhausted",
                        text!(
                            "the startupProbe's budget (failureThreshold × periodSeconds) runs out before the model has loaded: its checks are refused (nothing listens yet) and the kubelet kills the container, still loading (PL202 startup-budget-too-short)",
                            "startupProbe 給的時間（failureThreshold × periodSeconds）在模型載入完之前就用完了：探針的連線被拒（還沒有程式在聽），kubelet 把還在載入的 container 砍掉（PL202 startup-budget-too-short）"
                        ),
                    );
                    if let Some(threshold) = failure_threshold(probe_line) {
                        v.fix = Some(format!(
                            "startupProbe:\n  failureThreshold: {}",
                            threshold.saturating_mul(2)
                        ));
                    }
                    v
                }
                (_, false, true) => Verdict::new(
                    if liveness {
                        "liveness-failing"
                    } else {
                        "probe-kills-serving-program"
                    },
                    text!(
                        "the probe kills a program that is serving: it asks a path or port the program does not answer, or waits less than the program takes to answer (the Unhealthy message says which: a status code, a refused port the container does not declare, or a timeout); every kill restarts a working server (PL204, PL205)",
                        "探針把正在服務的程式砍掉：它問的路徑或 port 程式不回應，或是等待的時間比程式回應所需的短（Unhealthy 訊息會說是哪一種：狀態碼、container 沒有宣告的 port 被拒、逾時）；每一次砍掉都重啟了一個正常的服務（PL204、PL205）"
                    ),
                ),
                _ => {
                    return unknown(
                        pod,
                        text!(
                            "a probe kills the container, but the paste does not say whether the program was still loading or already serving: paste the Unhealthy events (kubectl describe pod's Events: section) and the container's Liveness:/Startup: and Port: lines",
                            "探針把 container 砍掉了，但貼上的內容看不出程式當時還在載入、還是已經在服務：請貼上 Unhealthy 事件（kubectl describe pod 的 Events: 段落），以及 container 的 Liveness:／Startup: 和 Port: 這幾行"
                        ),
                        lines,
                    )
                }
            };
            verdict.container = container;
            return verdict.with(lines);
        }
        // CUDA out of memory.
        if let Some(line) = log_line(CUDA_OOM) {
            return Verdict::new(
                "cuda-oom",
                text!(
                    "the program's CUDA allocation failed: the GPU's memory ran out (a time-sliced neighbour, the MPS cap, a MIG slice or the card itself is smaller than the model needs); the process exits and the kubelet restarts it",
                    "程式向 GPU 要記憶體失敗（CUDA out of memory）：GPU 記憶體不夠（Time-slicing 的鄰居、MPS 上限、MIG 切片或整張卡比模型需要的小）；行程結束後被 kubelet 重啟"
                ),
            )
            .with([line])
            .with(restart_lines.clone());
        }
        // The program's own exit.
        let exits: Vec<(i64, Line)> = main
            .iter()
            .flat_map(|c| [c.last_exit_code.as_ref(), c.exit_code.as_ref()])
            .flatten()
            .cloned()
            .collect();
        let code = exits.last().map(|(c, _)| *c);
        let reasons: Vec<Line> = main
            .iter()
            .flat_map(|c| [c.last_reason.as_ref(), c.terminated_reason.as_ref()])
            .flatten()
            .map(|(_, l)| l.clone())
            .collect();
        // No probe kill: only a table read from its header can say so, and
        // in a crash loop its BackOff row comes after any Killing row (rows
        // are by last timestamp), so a paste cut at its end keeps both.
        let restarts = main
            .iter()
            .any(|c| c.restarts.as_ref().is_some_and(|(n, _)| *n > 0))
            || pod.rows.iter().any(|r| r.restarts > 0);
        let table_whole = events_whole && (!restarts || !backoff.is_empty());
        match code {
            Some(0) if table_whole && restarts => {
                return Verdict::new(
                    "completed-but-restarted",
                    text!(
                        "the container finishes (exit code 0) and is started again and again: the program ends, but the pod's restartPolicy Always (a Deployment's) restarts every container that exits, even successfully; a batch program belongs in a Job",
                        "container 正常結束（exit code 0）後又一再被重新啟動：程式會結束，但 Pod 的 restartPolicy Always（Deployment 的）會重啟每個結束的 container，即使成功；批次程式應該放在 Job 裡"
                    ),
                )
                .with(exits.into_iter().map(|(_, l)| l))
                .with(reasons)
                .with(restart_lines.clone());
            }
            Some(code)
                if code != 137
                    && code != 143
                    && !pod.logs.is_empty()
                    && logs_whole
                    && table_whole =>
            {
                let last_log = pod.logs.last().cloned();
                return Verdict::new(
                    "app-crash",
                    text!(
                        "the program exits by itself with a non-zero code (no probe killed it, no OOM kill): its last log lines say why; the kubelet restarts it with back-off (CrashLoopBackOff)",
                        "程式自己以非 0 的 exit code 結束（不是探針砍的，也不是 OOM）：原因在它最後幾行日誌裡；kubelet 以退避間隔重啟它（CrashLoopBackOff）"
                    ),
                )
                .with(exits.into_iter().map(|(_, l)| l))
                .with(reasons)
                .with(last_log)
                .with(backoff.clone())
                .with(restart_lines.clone());
            }
            _ => {}
        }
        let missing = if code.is_some() {
            text!(
                "the container exits and restarts, but the paste does not show why: paste its previous logs (kubectl logs <pod> --previous) and kubectl describe pod's Events: section",
                "container 結束後又重啟，但貼上的內容看不出原因：請貼上上一輪的日誌（kubectl logs <pod> --previous）和 kubectl describe pod 的 Events: 段落"
            )
        } else {
            text!(
                "the container restarts, but the paste does not show how it ended: paste kubectl describe pod (its Last State: and Events: sections) and the previous logs (kubectl logs <pod> --previous)",
                "container 一直重啟，但貼上的內容看不出它是怎麼結束的：請貼上 kubectl describe pod（Last State: 和 Events: 段落）和上一輪的日誌（kubectl logs <pod> --previous）"
            )
        };
        let mut lines = restart_lines;
        lines.extend(backoff);
        return unknown(pod, missing, lines);
    }

    // A program's log pasted alone: nothing else says how the container is,
    // and a CUDA out of memory error that the program does not catch ends
    // the process (PyTorch raises `torch.OutOfMemoryError`).
    let state_shown =
        !main.is_empty() || !pod.rows.is_empty() || !pod.events.is_empty() || pod.phase.is_some();
    if let Some(line) = log_line(CUDA_OOM).filter(|_| !state_shown) {
        return Verdict::new(
            "cuda-oom",
            text!(
                "the program's CUDA allocation failed: the GPU's memory ran out (a time-sliced neighbour, the MPS cap, a MIG slice or the card itself is smaller than the model needs); an error that the program does not catch ends the process and the kubelet restarts it (the paste shows the log alone: kubectl get pod shows the RESTARTS)",
                "程式向 GPU 要記憶體失敗（CUDA out of memory）：GPU 記憶體不夠（Time-slicing 的鄰居、MPS 上限、MIG 切片或整張卡比模型需要的小）；程式沒有接住這個錯誤，行程就會結束、被 kubelet 重啟（貼上的只有日誌：kubectl get pod 會顯示 RESTARTS）"
            ),
        )
        .with([line]);
    }

    // 7. Running, never Ready.
    let readiness: Vec<&EventRow> = events(pod, "Unhealthy", "Readiness probe failed");
    let not_ready = main
        .iter()
        .any(|c| c.ready.as_ref().is_some_and(|(r, _)| !r))
        || pod.rows.iter().any(|r| r.ready.0 < r.ready.1);
    // Events alone, without the container's Ready: a readiness probe whose
    // failures are answers, at least the default failureThreshold (3) of
    // them, in a whole table with no restart: the kubelet marks the
    // container not ready after failureThreshold consecutive failures and
    // before its first success (`pkg/kubelet/prober/worker.go`), and an
    // answer says the program serves.
    let ready_shown = main.iter().any(|c| c.ready.is_some()) || !pod.rows.is_empty();
    let answered_failures: u64 = readiness
        .iter()
        .filter(|e| answered(&e.message))
        .map(|e| e.count)
        .sum();
    let failing_alone = !ready_shown
        && events_whole
        && answered_failures >= 3
        && events(pod, "Killing", "").is_empty()
        && backoff.is_empty();
    if (not_ready || failing_alone) && !readiness.is_empty() {
        let container = readiness
            .iter()
            .find_map(|e| e.container.clone())
            .or_else(|| main.first().map(|c| c.name.clone()));
        let facts = main
            .iter()
            .copied()
            .find(|c| Some(&c.name) == container.as_ref());
        let (probe_line, declared) = probe_of(facts, "Readiness");
        let answered = readiness.iter().any(|e| answered(&e.message));
        if answered || declared == Some(false) {
            let explanation = if not_ready {
                text!(
                    "Running but not Ready: the readinessProbe never passes although the program serves (it asks a path or port the program does not answer, or times out), so the Service sends the pod no traffic",
                    "Running 但沒有 Ready：程式在服務，readinessProbe 卻從來沒有成功（它問的路徑或 port 程式不回應，或是逾時），所以 Service 不會把流量送給這個 Pod"
                )
            } else {
                text!(
                    "the readinessProbe keeps failing although the program serves (it answers, with a status code or too late), so the kubelet keeps the container not Ready and the Service sends the pod no traffic; no probe kills it, so it does not restart (the paste does not show Ready:; kubectl get pod shows READY)",
                    "程式在服務（有回應，只是狀態碼不對或太慢），readinessProbe 卻一直失敗，所以 kubelet 讓 container 維持沒有 Ready，Service 不會把流量送給這個 Pod；沒有探針砍它，所以不會重啟（貼上的內容看不到 Ready:；kubectl get pod 的 READY 欄會顯示）"
                )
            };
            let mut verdict = Verdict::new("readiness-failing", explanation)
                .with(readiness.iter().map(|e| e.line.clone()))
                .with(probe_line.cloned());
            verdict.container = container;
            return verdict;
        }
    }

    // 8. Healthy: Ready with no restart, finished, or still starting.
    let ready_all = (!main.is_empty()
        && main.iter().all(|c| {
            c.ready.as_ref().is_some_and(|(r, _)| *r)
                && c.restarts.as_ref().is_some_and(|(n, _)| *n == 0)
        }))
        || pod
            .rows
            .iter()
            .any(|r| r.ready.1 > 0 && r.ready.0 == r.ready.1 && r.status == "Running");
    let finished = pod.phase.as_ref().is_some_and(|(p, _)| p == "Succeeded")
        || pod.rows.iter().any(|r| r.status == "Completed");
    let warnings = pod.events.iter().any(|e| e.warning);
    let events_shown = events_whole;
    let starting = events_shown
        && !warnings
        && (started_events
            || !events(pod, "Scheduled", "").is_empty()
            || main.iter().any(|c| {
                c.waiting_reason
                    .as_ref()
                    .is_some_and(|(r, _)| r == "ContainerCreating" || r == "PodInitializing")
            })
            || pod.rows.iter().any(|r| {
                ["ContainerCreating", "PodInitializing", "Running"].contains(&r.status.as_str())
            }));
    let loading = events_shown
        && pod.events.iter().filter(|e| e.warning).all(|e| {
            e.reason == "Unhealthy"
                && (e.message.starts_with("Readiness") || e.message.starts_with("Startup"))
                && refused_connection(&e.message)
        });
    let init_running = pod
        .rows
        .iter()
        .find(|r| r.status.starts_with("Init:") && r.status.contains('/'));
    if let Some(row) = init_running {
        return initializing(vec![row.line.clone()]);
    }
    if ready_all || finished || starting || (not_ready && loading && started_events) {
        let lines: Vec<Line> = main
            .iter()
            .filter_map(|c| c.ready.as_ref().map(|(_, l)| l.clone()))
            .chain(pod.rows.iter().map(|r| r.line.clone()))
            .chain(pod.phase.iter().map(|(_, l)| l.clone()))
            .collect();
        return Verdict::new(
            "healthy",
            text!(
                "nothing in the paste shows a failure: the containers are Ready with no restart, finished, or still starting",
                "貼上的內容裡看不到任何失敗：container 已經 Ready 且沒有重啟、已經完成，或還在啟動中"
            ),
        )
        .with(lines);
    }
    let line = pod
        .phase
        .as_ref()
        .map(|(_, l)| l.clone())
        .or_else(|| pod.rows.first().map(|r| r.line.clone()));
    match line {
        Some(line) => unknown_events(pod, &line),
        None => unknown(
            pod,
            text!(
                "the paste does not show the pod's state: paste kubectl describe pod <pod> whole (its State:, Last State: and Events: sections)",
                "貼上的內容看不出 Pod 的狀態：請貼上完整的 kubectl describe pod <pod>（State:、Last State: 和 Events: 段落）"
            ),
            Vec::new(),
        ),
    }
}

fn initializing(lines: Vec<Line>) -> Verdict {
    Verdict::new(
        "initializing",
        text!(
            "the pod is still initializing: an init container is at work (a weights download, a migration) and nothing has failed; the app containers start when it ends",
            "Pod 還在初始化：Init 容器正在工作（下載權重、資料遷移），目前沒有任何失敗；它結束後應用容器才會啟動"
        ),
    )
    .with(lines)
}

fn unknown(_pod: &PodFacts, missing: Text, lines: Vec<Line>) -> Verdict {
    Verdict::new("unknown", missing).with(lines)
}

fn unknown_events(pod: &PodFacts, line: &Line) -> Verdict {
    unknown(
        pod,
        text!(
            "the paste shows the pod's state but not its cause: paste the Events: section of kubectl describe pod <pod> (or kubectl get events --field-selector involvedObject.name=<pod>)",
            "貼上的內容看得到 Pod 的狀態，卻看不出原因：請貼上 kubectl describe pod <pod> 的 Events: 段落（或 kubectl get events --field-selector involvedObject.name=<pod>）"
        ),
        vec![line.clone()],
    )
}

fn scheduling_verdict(kind: &'static str, message: &str, line: &Line, pod: &PodFacts) -> Verdict {
    let key = taint_key(message).unwrap_or_default();
    let state_taint = node_state_taint(&key);
    let explanation = match kind {
        "pending-insufficient-gpu" => text!(
            "Pending: no node has the GPUs the pod requests free (Insufficient nvidia.com/gpu): they are all allocated to other pods, or no node has that many; the scheduler retries when something changes",
            "Pending：沒有任何節點還有 Pod 要求的空閒 GPU（Insufficient nvidia.com/gpu）：不是都分配給其他 Pod 了，就是沒有節點有那麼多；有變化時排程器會再試"
        ),
        "pending-insufficient-resources" => text!(
            "Pending: no node has the CPU, memory or pod slots the pod requests free (the scheduler counts requests, not use)",
            "Pending：沒有任何節點還有 Pod 要求的空閒 CPU、記憶體或 Pod 數量（排程器算的是 requests，不是實際用量）"
        ),
        "pending-untolerated-taint" if state_taint => {
            text!(
                "Pending: the nodes carry a taint that says their state ({key}), which the node lifecycle controller or the kubelet puts on a node that is not ready, unreachable, cordoned, or short of disk, memory or PIDs, so that nothing new lands there; a toleration would put the pod on that node: fix the node (kubectl describe node shows its Conditions and Taints), or add one that is healthy",
                "Pending：節點帶著表示自身狀態的 taint（{key}）；節點沒有就緒、失聯、被 cordon，或磁碟、記憶體、PID 不足時，node lifecycle controller 或 kubelet 就會加上它，讓新的 Pod 不要再放上去；加 toleration 只會把 Pod 放到那個節點上：要修的是節點（kubectl describe node 會列出它的 Conditions 和 Taints），或是加一個健康的節點"
            )
        }
        "pending-untolerated-taint" => text!(
            "Pending: the nodes that could run the pod carry a taint it does not tolerate (GPU node pools are usually tainted nvidia.com/gpu): add the toleration",
            "Pending：能跑這個 Pod 的節點帶著它不容忍的 taint（GPU 節點池通常有 nvidia.com/gpu 的 taint）：加上 toleration"
        ),
        "pending-cordoned-node" => text!(
            "Pending: every node that could run the pod is cordoned (spec.unschedulable, set by kubectl cordon or kubectl drain, or by a node upgrade), and the scheduler's first filter, NodeUnschedulable, turns them down; kubectl get nodes shows them Ready,SchedulingDisabled. When the node's maintenance is over, kubectl uncordon lets the pod schedule",
            "Pending：能跑這個 Pod 的節點全都被 cordon 了（spec.unschedulable，由 kubectl cordon、kubectl drain 或節點升級設定），排程器的第一個過濾器 NodeUnschedulable 會把它們排除；kubectl get nodes 會顯示 Ready,SchedulingDisabled。節點維護結束後，kubectl uncordon 就能讓 Pod 排上去"
        ),
        "pending-node-affinity" => text!(
            "Pending: no node matches the pod's nodeSelector or node affinity (a label that no node carries, a GPU type the cluster does not have)",
            "Pending：沒有任何節點符合 Pod 的 nodeSelector 或 node affinity（沒有節點帶那個 label，或叢集裡沒有那種 GPU）"
        ),
        _ => text!(
            "Pending: the scheduler found no node for the pod; its FailedScheduling message lists why, node by node",
            "Pending：排程器找不到能放這個 Pod 的節點；FailedScheduling 訊息逐一列出每個節點不行的原因"
        ),
    };
    let mut verdict = Verdict::new(kind, explanation).with([line.clone()]);
    verdict
        .evidence
        .extend(pod.phase.iter().map(|(_, l)| l.clone()));
    if kind == "pending-cordoned-node" {
        // The message names no node: `kubectl get nodes` does.
        verdict.fix = Some("kubectl uncordon NODE".into());
    }
    if kind == "pending-node-affinity" && !pod.node_selectors.is_empty() {
        // The labels the pasted nodeSelector wants, on a node that has room
        // (`kubectl label`; the scheduler retries on the node update).
        let pairs: Vec<String> = pod
            .node_selectors
            .iter()
            .map(|(key, value)| format!("{key}={value}"))
            .collect();
        verdict.fix = Some(format!("kubectl label node NODE {}", pairs.join(" ")));
    }
    if kind == "pending-untolerated-taint" {
        verdict.fix = Some(key)
            .filter(|key| !key.is_empty() && !state_taint)
            .map(|key| format!("tolerations:\n- key: {key}\n  operator: Exists"));
    }
    verdict
}

/// The key of the untolerated taint to act on: `{nvidia.com/gpu: present}`;
/// the first that someone put there, else the first that says a node's
/// state; never the control plane's.
fn taint_key(message: &str) -> Option<String> {
    let keys: Vec<String> = message
        .split('{')
        .skip(1)
        .filter_map(|part| part.split_once(':').map(|(key, _)| key.trim().to_string()))
        .filter(|key| !key.starts_with("node-role.kubernetes.io/"))
        .collect();
    keys.iter()
        .find(|key| !node_state_taint(key))
        .or(keys.first())
        .cloned()
}

#[cfg(test)]
mod tests {
    use super::answered;

    #[test]
    fn only_a_status_code_a_late_answer_or_an_exec_output_is_an_answer() {
        for said in [
            "HTTP probe failed with statuscode: 404",
            "Get \"http://10.244.0.5:8000/health\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)",
            "cat: /tmp/ready: No such file or directory",
        ] {
            assert!(answered(said), "{said}");
        }
        for not_said in [
            "Get \"http://10.244.0.5:8000/health\": dial tcp 10.244.0.5:8000: connect: connection refused",
            "dial tcp 10.244.0.5:8000: connect: no route to host",
            // A paste cut inside the row: what the program said is lost.
            "Get \"http://10.244.0.5:8000/he",
            "Get \"http://10.244.0.5:8000/health\": dial tc",
        ] {
            assert!(!answered(not_said), "{not_said}");
        }
    }
}
