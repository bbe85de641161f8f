//! PL103 memory-limit-missing.
//!
//! Models what a container without a memory limit means on a node
//! (`shared/reference/scheduler-controllers.md` §10, `kubelet.md` §6): its
//! memory cgroup has no ceiling, so a model that loads more than expected
//! takes the node's memory until the kernel OOM killer or the kubelet's
//! memory-pressure eviction steps in, and those pick victims by QoS class, not
//! by who caused it. Without a memory limit the pod is never `Guaranteed`: it
//! is `BestEffort` when no container has any cpu or memory request or limit,
//! `Burstable` otherwise (`kubernetes/kubernetes:pkg/apis/core/v1/helper/qos/qos.go`
//! `ComputePodQOS`). A namespace LimitRange may add a default limit at
//! admission (LimitRanger admission plugin); podlab cannot see it and says so
//! in the help.
//!
//! The suggested limit is `pl104_memory_limit_below_peak::fix_limit`: `pl104_memory_limit_below_peak::suggested_limit`
//! (loading peak × workers + 20%, at least 1.5 × steady, rounded up to GiB),
//! raised to the memory request so that the request never exceeds it.

use super::pl101_gpu_limit_required::{add_to_map, insert_at};
use super::pl104_memory_limit_below_peak::{fix_limit, memory_source, show_bytes};
use super::{containers, is_ml_container, words, Context, Rule};
use super::{long, long_str};
use crate::diagnostic::{Diagnostic, Fix, Severity, TextEdit};
use crate::manifest::model::{Container, Workload};
use crate::manifest::quantity;
use crate::text;

pub static RULE: Rule = Rule {
    id: "PL103",
    name: "memory-limit-missing",
    severity: Severity::Warning,
    scenario_aware: true,
    summary: words!(
        "an ML container without a memory limit",
        "ML container 沒有設定記憶體 limit"
    ),
    what: long!(
        "Reports every ML container (it asks for a GPU, the Scenario describes it, or its image is a known ML serving or training image) whose `resources.limits` has no `memory`. The suggested limit is the loading peak × workers plus 20% headroom, rounded up to whole GiB (the Scenario's figures, else 1.75 × the memory request, else 1.75 × 2Gi).",
        "回報 `resources.limits` 沒有 `memory` 的 ML container（要求 GPU、Scenario 有描述，或映像是常見的 ML 推論／訓練映像）。建議的 limit 是載入尖峰 × worker 數再加 20% 餘裕，進位到整數 GiB（用 Scenario 的數字；沒有的話取記憶體 requests 的 1.75 倍，再沒有就是 2Gi 的 1.75 倍）。"
    ),
    why: long!(
        "A model server's memory is not flat: loading the weights peaks at 1.5–2 × the steady state, and a new model version can be twice as big as the last. With no limit nothing stops the container at its own budget: during the loading peak it takes the node's memory, and then the kernel OOM killer or the kubelet's eviction kills whatever its QoS class says — often another team's pod, or the training job that has been running for ten hours. The pod is BestEffort (no requests or limits at all, killed first) or Burstable, never Guaranteed.",
        "模型伺服器的記憶體用量不是一條水平線：載入權重時的尖峰是穩態的 1.5–2 倍，新版模型還可能比舊版大一倍。沒有 limit 就沒有東西把 container 擋在自己的預算內：載入尖峰時它會吃掉節點的記憶體，接著 kernel 的 OOM killer 或 kubelet 的驅逐（eviction）依 QoS 等級挑選受害者——常常是別的團隊的 Pod，或已經跑了十個小時的訓練 Job。這個 Pod 會是 BestEffort（完全沒寫 requests／limits，最先被砍）或 Burstable，永遠不會是 Guaranteed。"
    ),
    failing: long_str!("apiVersion: batch/v1\nkind: Job\nmetadata: { name: finetune }\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n        - name: trainer\n          image: nvcr.io/nvidia/pytorch:24.08-py3\n          command: [\"python\", \"train.py\"]\n          resources:\n            requests:\n              cpu: \"4\"\n              memory: 16Gi\n"),
    fixed: long_str!("apiVersion: batch/v1\nkind: Job\nmetadata: { name: finetune }\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n        - name: trainer\n          image: nvcr.io/nvidia/pytorch:24.08-py3\n          command: [\"python\", \"train.py\"]\n          resources:\n            limits:\n              memory: 34Gi\n            requests:\n              cpu: \"4\"\n              memory: 16Gi\n"),
    fix: long!(
        "Add `memory` under `resources.limits`, sized from the loading peak: peak × workers plus 20% headroom, rounded up to whole GiB (the fix writes that value; measure the real peak with `kubectl top pod` while the model loads and adjust). Keep `requests.memory` at the steady state. For a pod that must not be evicted, set requests equal to limits (Guaranteed).",
        "在 `resources.limits` 加上 `memory`，大小依載入尖峰決定：尖峰 × worker 數再加 20% 餘裕，進位到整數 GiB（修正會寫入這個值；請在模型載入時用 `kubectl top pod` 量測實際尖峰再調整）。`requests.memory` 維持穩態的量。不能被驅逐的 Pod，把 requests 設成等於 limits（Guaranteed）。"
    ),
    check: Some(check),
};

/// The pod's QoS class as `ComputePodQOS` decides it, for a pod with at least
/// one container without a memory limit (so never Guaranteed).
fn qos_class(workload: &Workload) -> &'static str {
    let any = workload
        .pod
        .containers
        .iter()
        .chain(&workload.pod.init_containers)
        .any(|container| {
            container
                .resources
                .requests
                .iter()
                .chain(&container.resources.limits)
                .any(|amount| {
                    matches!(amount.name.as_str(), "cpu" | "memory")
                        && amount.quantity.is_some_and(|quantity| quantity.milli > 0)
                })
        });
    if any {
        "Burstable"
    } else {
        "BestEffort"
    }
}

fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let scenario = context.scenario;
    for (workload, container, _) in containers(context.workloads) {
        if !is_ml_container(container, scenario) {
            continue;
        }
        if container.resources.limit("memory").is_some() {
            continue;
        }
        let name = &container.name;
        let qos = qos_class(workload);
        let program = scenario.program(container);
        let suggested = show_bytes(fix_limit(&program, container));
        let (source_en, source_zh) = memory_source(&program, container);
        let mut diagnostic = RULE
            .diagnostic(
                container.name_span,
                text!(
                    "container \"{name}\" has no memory limit (pod QoS class {qos}): at the loading peak it can take the node's memory, and the OOM killer or the kubelet's eviction then hits this pod or its neighbours",
                    "container「{name}」沒有記憶體 limit（Pod 的 QoS 等級是 {qos}）：載入尖峰時它可能吃掉節點的記憶體，接著 OOM killer 或 kubelet 的驅逐會打到這個 Pod 或旁邊的 Pod"
                ),
            )
            .with_help(text!(
                "suggested limit {suggested} ({source_en}). A LimitRange in the namespace may add a default limit: check with `kubectl describe limitrange` and `kubectl get pod <pod> -o jsonpath='{{.status.qosClass}}'`",
                "建議的 limit 是 {suggested}（{source_zh}）。命名空間的 LimitRange 可能會補上預設 limit：用 `kubectl describe limitrange` 和 `kubectl get pod <pod> -o jsonpath='{{.status.qosClass}}'` 確認"
            ));
        let limit = fix_limit(&program, container);
        let value = quantity::format_bytes(limit);
        if let Some(edit) = add_memory_limit(context.text, container, &value) {
            diagnostic = diagnostic.with_fix(Fix {
                description: text!(
                    "add `memory: {value}` under limits: the estimated loading peak plus 20% headroom, rounded up to whole GiB (adjust it to your model)",
                    "在 limits 加上 `memory: {value}`：估計的載入尖峰再加 20% 餘裕，進位到整數 GiB（請依模型調整）"
                ),
                edits: vec![edit],
            });
        }
        out.push(diagnostic);
    }
}

/// Adds `memory: <value>` to the container's limits, creating `limits:` or
/// `resources:` when absent.
fn add_memory_limit(text: &str, container: &Container, value: &str) -> Option<TextEdit> {
    let resources = &container.resources;
    let entry = format!("memory: {value}");
    match (resources.key_span, resources.span) {
        (Some(_), Some(map)) => match (resources.limits_key, resources.limits_span) {
            (Some(_), Some(limits)) => {
                add_to_map(text, limits, std::slice::from_ref(&entry), &entry)
            }
            (None, _) => add_to_map(
                text,
                map,
                &["limits:".to_string(), format!("  {entry}")],
                &format!("limits: {{ {entry} }}"),
            ),
            _ => None,
        },
        (None, _) => {
            let at = container.insertion_point()?;
            insert_at(
                text,
                at,
                &[
                    "resources:".to_string(),
                    "  limits:".to_string(),
                    format!("    {entry}"),
                ],
                &format!("resources: {{ limits: {{ {entry} }} }}"),
            )
        }
        _ => None,
    }
}
