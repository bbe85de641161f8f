//! PL505 replicas-exceed-gpus.
//!
//! Extended resources cannot be overcommitted and one device goes to one
//! container (`shared/reference/gpu-sharing.md` §1; scheduler-controllers.md
//! §4), so a node holds `floor(allocatable / request)` GPU pods at most. The
//! pods of a Deployment/StatefulSet/ReplicaSet (`replicas`) or a Job
//! (`parallelism`, capped by `completions`) beyond what the cluster's nodes
//! can hold stay Pending with `Insufficient nvidia.com/gpu` — resolvable, so
//! the scheduler tries preemption and finds no victim among equal-priority
//! pods (scheduler-controllers.md §1.3, §11 (b)). Pools whose taints the pod
//! does not tolerate hold none of them. When not even one pod fits, PL501 or
//! PL502 reports it instead.

use super::pl502_gpu_unschedulable::{
    capacity, pods_at_once, requests_text, resource_span, scheduling_message, subject,
};
use super::{edit, pod_gpu_requests, words, Context, Rule};
use super::{long, long_str};
use crate::diagnostic::{Diagnostic, Fix, Severity};
use crate::manifest::model::WorkloadKind;
use crate::text;

pub static RULE: Rule = Rule {
    id: "PL505",
    name: "replicas-exceed-gpus",
    severity: Severity::Warning,
    scenario_aware: true,
    summary: words!(
        "more GPU pods at once than the cluster's GPUs can hold",
        "同時要跑的 GPU Pod 比叢集的 GPU 放得下的還多"
    ),
    what: long!(
        "For Deployments, StatefulSets and ReplicaSets (`replicas`) and Jobs and CronJobs (`parallelism`, at most `completions`), counts how many of its GPU pods the Scenario's node pools can hold at once: on each node, the GPUs it advertises divided by the pod's request, over every node of the pools whose taints the pod tolerates. It warns when more pods are wanted, and says how many stay Pending. It stays quiet when not even one pod fits (PL501, PL502). It runs only when a Scenario states the cluster (`cluster.nodePools`): podlab's default pool and a cluster inferred from the manifests' cloud hints are assumptions, not the user's cluster.",
        "對 Deployment、StatefulSet、ReplicaSet（`replicas`）以及 Job、CronJob（`parallelism`，最多 `completions`），計算 Scenario 的節點池同時放得下幾個這種 GPU Pod：每個節點宣告的 GPU 數除以 Pod 的需求，加總 Pod 能容忍其 taint 的所有節點。要求的 Pod 比這個數多就警告，並說明有幾個會停在 Pending。連一個都放不下時不報（由 PL501、PL502 處理）。只有 Scenario 寫明叢集（`cluster.nodePools`）時才會檢查：podlab 的預設節點池，以及從 manifest 的雲端線索推測出的叢集，都只是假設，不是使用者的叢集。"
    ),
    why: long!(
        "GPUs cannot be overcommitted: the extra replicas wait in Pending while the Deployment reports fewer ready pods than asked, autoscalers keep adding pods that cannot start, and a rolling update can hang. For distributed training with one pod per rank, the ranks that did start wait for the missing ones at the rendezvous and burn GPU hours doing nothing.",
        "GPU 不能超賣：多出來的副本停在 Pending，Deployment 的 Ready 數一直不足，自動擴縮不斷加出無法啟動的 Pod，滾動更新也可能卡住。分散式訓練若是一個 rank 一個 Pod，已經啟動的 rank 會在 rendezvous 等待缺席的 rank，白白燒掉 GPU 時數。"
    ),
    failing: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: vllm }\nspec:\n  replicas: 4\n  selector: { matchLabels: { app: vllm } }\n  template:\n    metadata: { labels: { app: vllm } }\n    spec:\n      containers:\n        - name: server\n          image: vllm/vllm-openai:v0.6.3\n          resources:\n            limits: { nvidia.com/gpu: 1 }\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: two-l4 }\nspec:\n  cluster:\n    nodePools:\n      - name: gpu\n        count: 2\n        gpu: { model: L4, count: 1 }\n"),
    fixed: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: vllm }\nspec:\n  replicas: 2\n  selector: { matchLabels: { app: vllm } }\n  template:\n    metadata: { labels: { app: vllm } }\n    spec:\n      containers:\n        - name: server\n          image: vllm/vllm-openai:v0.6.3\n          resources:\n            limits: { nvidia.com/gpu: 1 }\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: two-l4 }\nspec:\n  cluster:\n    nodePools:\n      - name: gpu\n        count: 2\n        gpu: { model: L4, count: 1 }\n"),
    fix: long!(
        "Lower `replicas` (or `parallelism`) to what the GPUs hold, or give the cluster more GPU nodes; if the model is small, share GPUs with time-slicing, MPS or MIG. When the Scenario describes your cluster, the fix lowers the value to the number of pods that fit.",
        "把 `replicas`（或 `parallelism`）降到 GPU 放得下的數量，或替叢集加 GPU 節點；模型不大的話，可以用 time-slicing、MPS 或 MIG 共享 GPU。Scenario 描述了你的叢集時，修正會把這個值降到放得下的 Pod 數。"
    ),
    check: Some(check),
};

fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    // Issue 14: the default pool and an inferred cluster are assumptions,
    // and a manifest is not wrong for a cluster nobody described.
    if !context.cluster_stated() {
        return;
    }
    let scenario = context.scenario;
    for workload in context.workloads {
        if matches!(workload.kind, WorkloadKind::Pod | WorkloadKind::DaemonSet) {
            continue;
        }
        let requests = pod_gpu_requests(workload);
        if requests.is_empty() {
            continue;
        }
        let (wanted, value_span) = pods_at_once(workload);
        if wanted <= 1 {
            continue;
        }
        let (fit, total) = capacity(scenario, workload, &requests);
        if fit == 0 || wanted <= fit {
            continue;
        }
        let pending = wanted - fit;
        let field = if workload.kind.is_batch() {
            "parallelism"
        } else {
            "replicas"
        };
        let (asked, asked_zh) = requests_text(&requests);
        let (who, who_zh) = subject(workload);
        let (resource, per_pod) = requests
            .first()
            .map_or(("nvidia.com/gpu", 1), |(name, count)| {
                (name.as_str(), *count)
            });
        let plain = requests.len() == 1 && fit == total / per_pod.max(1);
        let pods = if pending == 1 { "pod" } else { "pods" };
        let message = if plain {
            text!(
                "{who}: {field} {wanted} × {asked} but the cluster has {total} {resource}: {pending} {pods} will stay Pending",
                "{who_zh}：{field} {wanted} × {asked_zh}，但叢集只有 {total} 個 {resource}：會有 {pending} 個 Pod 停在 Pending"
            )
        } else {
            text!(
                "{who}: {field} {wanted} × {asked}, but the nodes it can use hold only {fit} such pods at once ({total} {resource} in all, but the GPUs of one pod must be on one node): {pending} {pods} will stay Pending",
                "{who_zh}：{field} {wanted} × {asked_zh}，但它能用的節點同時只放得下 {fit} 個這樣的 Pod（共 {total} 個 {resource}，但同一個 Pod 的 GPU 必須在同一個節點上）：會有 {pending} 個 Pod 停在 Pending"
            )
        };
        let event = scheduling_message(scenario, workload, wanted);
        let help = if workload.kind.is_batch() {
            text!(
                "the extra pods start only when earlier ones finish (a distributed training run whose ranks must all be up never does); `kubectl get pods` shows them Pending and `kubectl describe pod` shows FailedScheduling \"{event}\". Alternatives: more GPU nodes, or sharing (time-slicing, MPS, MIG) in the Scenario",
                "多出來的 Pod 要等前面的結束才會開始（需要所有 rank 同時在線的分散式訓練則永遠不會開始）；`kubectl get pods` 會看到它們是 Pending，`kubectl describe pod` 會看到 FailedScheduling「{event}」。其他做法：增加 GPU 節點，或在 Scenario 使用共享（time-slicing、MPS、MIG）"
            )
        } else {
            text!(
                "`kubectl get pods` shows the extra pods Pending and `kubectl describe pod` shows FailedScheduling \"{event}\". Alternatives: more GPU nodes, or sharing (time-slicing, MPS, MIG) in the Scenario if the model is small",
                "`kubectl get pods` 會看到多出來的 Pod 是 Pending，`kubectl describe pod` 會看到 FailedScheduling「{event}」。其他做法：增加 GPU 節點，或模型不大時在 Scenario 使用共享（time-slicing、MPS、MIG）"
            )
        };
        let span = value_span.unwrap_or_else(|| resource_span(workload, resource));
        let mut diagnostic = RULE.diagnostic(span, message).with_help(help);
        // Lowering the value is the fix only when the Scenario describes the
        // cluster; with the default one-GPU cluster, describing the real
        // cluster is as likely the fix.
        if let (Some(span), true) = (value_span, scenario.pools_written) {
            diagnostic = diagnostic.with_fix(Fix {
                description: text!(
                    "set {field} to {fit}, what the GPUs hold (or add GPU nodes to the Scenario instead)",
                    "把 {field} 改成 {fit}，也就是 GPU 放得下的數量（或改為在 Scenario 增加 GPU 節點）"
                ),
                edits: vec![edit::replace(span, fit.to_string())],
            });
        }
        out.push(diagnostic);
    }
}
