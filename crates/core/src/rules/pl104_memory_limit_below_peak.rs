//! PL104 memory-limit-below-peak.
//!
//! Models what happens when a container's memory limit is below what the
//! program needs while it loads the model (`shared/reference/kubelet.md` §6,
//! `kubernetes-behavior.md` "OOMKilled has no pod event"): the memory cgroup
//! hits the limit, the kernel OOM killer kills the process, containerd reports
//! reason `OOMKilled` with exit code 137, and the kubelet restarts it with the
//! crash back-off of `kubelet.md` §4 — every start loads again, hits the same
//! peak, and the pod ends in CrashLoopBackOff. No event is emitted for the
//! kill; it shows only in the container's `Last State`
//! (`containerd/containerd:internal/cri/server/helpers.go` `oomExitReason`).
//!
//! The peak is the Scenario's (`scenario.program(container)`): `memory.peak`
//! × `workers`, by default 1.75 × steady where steady is the memory request
//! as written, else half the limit, else 2Gi (`shared/DESIGN.md`). With only a
//! limit written the default peak is 0.875 × limit, so without a Scenario the
//! rule fires only when a request is written and 1.75 × request > limit.
//!
//! Severity: error when the Scenario or a `podlab.dev/memory-peak` /
//! `memory-steady` annotation gives the memory, info (issue 14: stated or
//! assumed) when the peak is only the default estimate
//! (1.75 × the request): a pod with `requests.memory` = `limits.memory`
//! (Guaranteed QoS) is then flagged as likely, not certain.
//!
//! The rule looks at ML containers (`is_ml_container`) and at containers the
//! Scenario describes (by name or `*`): a small sidecar with a tight limit is
//! not a model server, and the default program model does not fit it.
//!
//! [`suggested_limit`] is the limit the memory rules (PL103, PL104, PL105)
//! suggest: the loading peak plus 20% headroom, and at least 1.5 × steady,
//! rounded up to whole GiB.

use super::pl101_gpu_limit_required::{trimmed, written};
use super::{containers, edit, is_ml_container, words, Context, Rule};
use super::{long, long_str};
use crate::diagnostic::{Diagnostic, Fix, Severity};
use crate::manifest::model::Container;
use crate::manifest::quantity;
use crate::manifest::scenario::{Program, Scenario, GIB};
use crate::text;

pub static RULE: Rule = Rule {
    id: "PL104",
    name: "memory-limit-below-peak",
    severity: Severity::Error,
    scenario_aware: true,
    summary: words!(
        "the memory limit is below the loading peak: OOMKilled at every start",
        "記憶體 limit 低於載入尖峰：每次啟動都會 OOMKilled"
    ),
    what: long!(
        "For each ML container (or container the Scenario describes) with a memory limit, compares the limit with the memory needed at the loading peak: the Scenario's `memory.peak` × `workers`. Without a Scenario value the peak is 1.75 × steady, where steady is the memory request as written (else half the limit, else 2Gi). Reports when the limit is below the peak: an error when the Scenario (or a `podlab.dev/memory-peak` annotation) gives the memory, only info when the peak is that estimate.",
        "對每個有記憶體 limit 的 ML container（或 Scenario 有描述的 container），比較 limit 與載入尖峰所需的記憶體：Scenario 的 `memory.peak` × `workers`。Scenario 沒寫時，尖峰取穩態的 1.75 倍，穩態是 manifest 寫的記憶體 requests（沒有就取 limits 的一半，再沒有就是 2Gi）。limit 低於尖峰就回報：Scenario（或 `podlab.dev/memory-peak` annotation）有給記憶體數字時是錯誤，只是上述估計時只是資訊。"
    ),
    why: long!(
        "Loading weights needs more memory than serving them: the file is read, deserialized and copied to the GPU, and for a moment both copies live in RAM (the blog measures the peak at 1.5–2 × steady). Each worker (gunicorn, uvicorn --workers, DataLoader) loads its own copy. A limit sized from the steady state is hit at the peak: the kernel kills the process (`OOMKilled`, exit code 137), the kubelet restarts it, it loads again and is killed again — CrashLoopBackOff, with no event in `kubectl describe pod` to say why, only `Last State: Terminated, Reason: OOMKilled`.",
        "載入權重比提供服務更吃記憶體：檔案要讀進來、反序列化、再複製到 GPU，有一段時間兩份資料同時在 RAM 裡（部落格量到尖峰通常是穩態的 1.5–2 倍）。每個 worker（gunicorn、uvicorn --workers、DataLoader）都會各自載入一份。照穩態設定的 limit 會在尖峰被撞到：kernel 砍掉程式（`OOMKilled`，exit code 137），kubelet 重啟，重新載入，再被砍——CrashLoopBackOff，而且 `kubectl describe pod` 的 Events 裡沒有任何事件說明原因，只有 `Last State: Terminated, Reason: OOMKilled`。"
    ),
    failing: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: model-api }\nspec:\n  selector: { matchLabels: { app: model-api } }\n  template:\n    metadata: { labels: { app: model-api } }\n    spec:\n      containers:\n        - name: api\n          image: registry.example.com/model-api:0.3.1\n          resources:\n            requests: { memory: 6Gi }\n            limits: { memory: 8Gi }\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: oom-at-load }\nspec:\n  workload:\n    - container: api\n      memory: { steady: 6Gi, peak: 11Gi }\n"),
    fixed: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: model-api }\nspec:\n  selector: { matchLabels: { app: model-api } }\n  template:\n    metadata: { labels: { app: model-api } }\n    spec:\n      containers:\n        - name: api\n          image: registry.example.com/model-api:0.3.1\n          resources:\n            requests: { memory: 6Gi }\n            limits: { memory: 14Gi }\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: oom-at-load }\nspec:\n  workload:\n    - container: api\n      memory: { steady: 6Gi, peak: 11Gi }\n"),
    fix: long!(
        "Set the memory limit to the loading peak × workers plus 20% headroom, rounded up to whole GiB (and at least 1.5 × steady); the fix writes that value. Keep the request at the steady state: it is what the scheduler reserves. If the node cannot hold the peak, load fewer workers, load with `mmap`/safetensors to avoid the double copy, or move to a larger node.",
        "把記憶體 limit 設成載入尖峰 × worker 數再加 20% 餘裕，無條件進位到整數 GiB（且至少是穩態的 1.5 倍）；修正會寫入這個值。requests 維持穩態的量：那是排程器保留的量。節點放不下這個尖峰的話，就減少 worker 數、用 `mmap`／safetensors 載入避免兩份複本，或換更大的節點。"
    ),
    check: Some(check),
};

/// Headroom above the loading peak in the suggested limit, in percent.
pub const HEADROOM_PERCENT: i128 = 20;

/// The memory limit the rules suggest for a program: the loading peak × workers
/// plus [`HEADROOM_PERCENT`], and at least 1.5 × steady (PL105), rounded up to
/// whole GiB; at least 1Gi.
pub fn suggested_limit(program: &Program) -> i128 {
    let peak = program.peak_total();
    let with_headroom = peak
        .saturating_mul(100 + HEADROOM_PERCENT)
        .saturating_add(99)
        / 100;
    let steady = program.steady_total().saturating_mul(3).saturating_add(1) / 2;
    quantity::round_up_gib(with_headroom.max(steady)).max(GIB)
}

/// The limit a fix writes: [`suggested_limit`], raised to the memory request
/// (rounded up to GiB) so that the request never exceeds the new limit.
pub fn fix_limit(program: &Program, container: &Container) -> i128 {
    let request = container
        .resources
        .request("memory")
        .and_then(|amount| amount.quantity)
        .map_or(0, |request| quantity::round_up_gib(request.value().max(0)));
    suggested_limit(program).max(request)
}

/// Whether the memory rules look at this container: ML work, or a program the
/// Scenario describes.
pub fn applies(container: &Container, scenario: &Scenario) -> bool {
    is_ml_container(container, scenario)
        || scenario.program_spec(&container.name).is_some()
        || container.annotated.states_anything()
}

/// A byte count for a message: in the largest binary unit it reaches, exact
/// (`9Gi`, `512Mi`) or with one decimal (`9.8Gi`).
pub fn show_bytes(bytes: i128) -> String {
    for (suffix, shift) in [("Ti", 40), ("Gi", 30), ("Mi", 20), ("Ki", 10)] {
        let unit = 1i128 << shift;
        if bytes >= unit {
            if bytes % unit == 0 {
                return format!("{}{suffix}", bytes / unit);
            }
            // Tenths, rounded half up, in integers (no float formatting).
            let tenths = (bytes * 10 + unit / 2) / unit;
            if tenths % 10 == 0 {
                return format!("{}{suffix}", tenths / 10);
            }
            return format!("{}.{}{suffix}", tenths / 10, tenths % 10);
        }
    }
    bytes.to_string()
}

/// `14Gi (2 workers × 7Gi)`, or `9Gi` for one worker.
pub fn show_total(per_worker: i128, workers: i64, total: i128) -> (String, String) {
    let total_shown = show_bytes(total);
    let each = show_bytes(per_worker.max(0));
    if workers > 1 {
        (
            format!("{total_shown} ({workers} workers × {each})"),
            format!("{total_shown}（{workers} 個 worker × {each}）"),
        )
    } else {
        (total_shown.clone(), total_shown)
    }
}

/// Where the program's memory figures come from, for the help text.
pub fn memory_source(program: &Program, container: &Container) -> (String, String) {
    let steady = show_bytes(program.memory_steady.value);
    if program.memory_peak.span.is_some() {
        let peak = show_bytes(program.memory_peak.value);
        (
            format!("the peak is the stated {peak} per worker (Scenario `memory.peak` or `podlab.dev/memory-peak`)"),
            format!("尖峰取自明寫的數字，每個 worker {peak}（Scenario 的 `memory.peak` 或 `podlab.dev/memory-peak`）"),
        )
    } else if program.memory_steady.span.is_some() {
        (
            format!("the peak is 1.75 × the stated steady {steady}"),
            format!("尖峰取明寫的穩態 {steady} 的 1.75 倍"),
        )
    } else if container.resources.request("memory").is_some() {
        (
            format!("no Scenario gives the memory, so podlab assumes steady = the memory request ({steady}) and a loading peak of 1.75 × steady; measure the real peak (`kubectl top pod` while it loads) and write it in a Scenario (`memory: {{ steady, peak }}`) or the annotation `podlab.dev/memory-peak`"),
            format!("沒有 Scenario 提供記憶體數字，podlab 假設穩態 = 記憶體 requests（{steady}），載入尖峰是穩態的 1.75 倍；請量測實際尖峰（載入時跑 `kubectl top pod`），寫進 Scenario（`memory: {{ steady, peak }}`）或 annotation `podlab.dev/memory-peak`"),
        )
    } else {
        (
            format!("no Scenario gives the memory, so podlab assumes steady {steady} and a loading peak of 1.75 × steady"),
            format!("沒有 Scenario 提供記憶體數字，podlab 假設穩態 {steady}，載入尖峰是穩態的 1.75 倍"),
        )
    }
}

/// Whether the loading peak of all workers passes the memory limit: the
/// rule's own test, which `map` draws as PL104's line.
pub fn exceeds(program: &Program, limit_bytes: i128) -> bool {
    program.peak_total() > limit_bytes
}

fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let scenario = context.scenario;
    for (workload, container, _) in containers(context.workloads) {
        if !applies(container, scenario) {
            continue;
        }
        let Some(limit) = container.resources.limit("memory") else {
            continue;
        };
        let Some(limit_bytes) = limit
            .quantity
            .filter(|quantity| !quantity.is_negative())
            .map(|quantity| quantity.value())
        else {
            continue;
        };
        let program = scenario.program(container);
        let peak = program.peak_total();
        if !exceeds(&program, limit_bytes) {
            continue;
        }
        let name = &container.name;
        let limit_text = written(context.text, limit.value_span);
        let workers = program.workers.value.max(1);
        let (peak_en, peak_zh) = show_total(program.memory_peak.value, workers, peak);
        // Figures the author gave (Scenario) make the kill certain; the
        // default 1.75 × request is an estimate: info (issue 14).
        let assumed = program.memory_peak.span.is_none() && program.memory_steady.span.is_none();
        let (label_en, label_zh, severity) = if assumed {
            ("estimated loading peak", "估計的載入尖峰", Severity::Info)
        } else {
            ("loading peak", "載入尖峰", Severity::Error)
        };
        let message = if workload.pod.restart_policy.value == "Never" {
            text!(
                "container \"{name}\": memory limit {limit_text} < {label_en} {peak_en}: OOMKilled (exit code 137) while the model loads; with restartPolicy Never the pod fails (a Job retries in new pods until backoffLimit)",
                "container「{name}」：記憶體 limit {limit_text} < {label_zh} {peak_zh}：模型載入時會被 OOMKilled（exit code 137）；restartPolicy 是 Never，Pod 直接失敗（Job 會開新 Pod 重試，直到 backoffLimit）"
            )
        } else {
            text!(
                "container \"{name}\": memory limit {limit_text} < {label_en} {peak_en}: OOMKilled (exit code 137) at every load, then CrashLoopBackOff",
                "container「{name}」：記憶體 limit {limit_text} < {label_zh} {peak_zh}：每次載入都會被 OOMKilled（exit code 137），接著 CrashLoopBackOff"
            )
        };
        let (source_en, source_zh) = memory_source(&program, container);
        let new_limit = fix_limit(&program, container);
        let new_text = quantity::format_bytes(new_limit);
        let percent = HEADROOM_PERCENT;
        let peak_shown = show_bytes(peak);
        let mut diagnostic = Diagnostic::new(
                RULE.key(),
                severity,
                trimmed(context.text, limit.value_span),
                message,
            )
                .with_help(text!(
                    "{source_en}. On a cluster, `kubectl describe pod` shows `Last State: Terminated`, `Reason: OOMKilled`, `Exit Code: 137` (there is no event for it) and `kubectl get pods` shows RESTARTS growing",
                    "{source_zh}。在叢集上，`kubectl describe pod` 會看到 `Last State: Terminated`、`Reason: OOMKilled`、`Exit Code: 137`（不會有對應的事件），`kubectl get pods` 的 RESTARTS 會一直增加"
                ))
                .with_fix(Fix {
                    description: text!(
                        "set the memory limit to {new_text}: the loading peak {peak_shown} plus at least {percent}% headroom, rounded up to whole GiB",
                        "把記憶體 limit 設為 {new_text}：載入尖峰 {peak_shown} 再加至少 {percent}% 餘裕，進位到整數 GiB"
                    ),
                    edits: vec![edit::replace(trimmed(context.text, limit.value_span), new_text.clone())],
                });
        if assumed {
            let steady = show_bytes(program.memory_steady.value);
            diagnostic = super::on_assumption(
                diagnostic,
                text!(
                    "a loading peak of 1.75 × the steady {steady}",
                    "載入尖峰是穩態 {steady} 的 1.75 倍"
                ),
                "podlab.dev/memory-peak",
            );
        }
        out.push(diagnostic);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::model::Setting;

    fn program(steady_gib: i128, peak_gib: i128, workers: i64) -> Program {
        let text = "apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec:\n  containers:\n    - name: api\n      image: model:1\n";
        let reading = crate::lint::read(text);
        let mut program = Scenario::default().program(&reading.workloads[0].pod.containers[0]);
        program.memory_steady = Setting {
            value: steady_gib.saturating_mul(GIB),
            span: None,
        };
        program.memory_peak = Setting {
            value: peak_gib.saturating_mul(GIB),
            span: None,
        };
        program.workers = Setting {
            value: workers,
            span: None,
        };
        program
    }

    #[test]
    fn suggested_limit_adds_a_fifth_and_rounds_up_to_gib() {
        // 7Gi × 1.2 = 8.4Gi → 9Gi.
        assert_eq!(suggested_limit(&program(4, 7, 1)), 9 * GIB);
        // 2 workers × 7Gi = 14Gi × 1.2 = 16.8Gi → 17Gi.
        assert_eq!(suggested_limit(&program(4, 7, 2)), 17 * GIB);
        // A flat load (peak = steady = 8Gi): 1.5 × 8 = 12Gi beats 9.6Gi.
        assert_eq!(suggested_limit(&program(8, 8, 1)), 12 * GIB);
        // Absurd sizes saturate instead of overflowing.
        assert!(suggested_limit(&program(i128::MAX / GIB, i128::MAX / GIB, i64::MAX)) > 0);
    }

    #[test]
    fn bytes_are_shown_exactly_or_with_one_decimal() {
        assert_eq!(show_bytes(9 * GIB), "9Gi");
        assert_eq!(show_bytes(5_250_000_000), "4.9Gi");
        assert_eq!(show_bytes(GIB * 7 / 4), "1.8Gi");
        assert_eq!(show_bytes(10_000 << 20), "9.8Gi");
        assert_eq!(show_bytes(512 << 20), "512Mi");
        assert_eq!(show_bytes(512), "512");
    }
}
