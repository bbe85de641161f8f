//! PL506 hpa-max-exceeds-gpus.
//!
//! PL505 for the replicas an HPA may ask for: `maxReplicas` pods of the
//! target, each with its GPUs, against what the stated cluster holds
//! (`pl502_gpu_unschedulable::capacity`, the scheduler's filters). The HPA
//! counts Pending pods as unready (`groupPods`,
//! `shared/reference/traffic-autoscaling.md` §1.3): under load the target
//! goes up to `maxReplicas` with the extra pods Pending. Cluster-dependent: only with a stated cluster.

use super::pl502_gpu_unschedulable::{capacity, requests_text, scheduling_message, subject};
use super::{edit, hpa_subject, long, long_str, pod_gpu_requests, words, Context, Rule};
use crate::diagnostic::{Diagnostic, Fix, Severity};
use crate::text;

pub static RULE: Rule = Rule {
    id: "PL506",
    name: "hpa-max-exceeds-gpus",
    severity: Severity::Warning,
    scenario_aware: true,
    summary: words!(
        "an HPA's maxReplicas needs more GPUs than the cluster has",
        "HPA 的 maxReplicas 需要的 GPU 比叢集擁有的還多"
    ),
    what: long!(
        "For each HorizontalPodAutoscaler whose target is a workload of the file whose pods ask for GPUs, counts how many of those pods the Scenario's node pools hold at once (as PL505 does: the GPUs each node advertises divided by the pod's request, over the nodes whose taints and labels admit the pod) and warns when `maxReplicas` is more. It stays quiet when not even one pod fits (PL501, PL502). It runs only when a Scenario states the cluster (`cluster.nodePools`). A KEDA ScaledObject is judged the same way by its `maxReplicaCount` (default 100), the `maxReplicas` of the HPA it owns.",
        "對每個 HorizontalPodAutoscaler，若目標是檔案裡 Pod 要求 GPU 的工作負載，就計算 Scenario 的節點池同時放得下幾個這種 Pod（和 PL505 一樣：每個節點宣告的 GPU 數除以 Pod 的需求，加總 taint 和標籤允許這個 Pod 的節點），`maxReplicas` 比這個數多就警告。連一個都放不下時不報（由 PL501、PL502 處理）。只有 Scenario 寫明叢集（`cluster.nodePools`）時才會檢查。KEDA 的 ScaledObject 也用同樣方式判斷，看的是它的 `maxReplicaCount`（預設 100），也就是它建立的 HPA 的 `maxReplicas`。"
    ),
    why: long!(
        "Under a burst the HPA raises the replica count toward `maxReplicas`, but GPUs cannot be overcommitted: the pods past what the nodes hold stay Pending with `Insufficient nvidia.com/gpu`. The HPA counts them as unready, `kubectl get hpa` shows the higher count while the Deployment stays short of ready pods, and the capacity the limit promised never arrives, unless a cluster autoscaler adds GPU nodes (which takes minutes more).",
        "流量暴增時 HPA 會把副本數往 `maxReplicas` 拉，但 GPU 不能超賣：超出節點容量的 Pod 會以 `Insufficient nvidia.com/gpu` 停在 Pending。HPA 把它們算成未就緒，`kubectl get hpa` 顯示較高的副本數，Deployment 的 Ready Pod 卻一直不足，上限承諾的容量永遠不會出現，除非有 cluster autoscaler 加開 GPU 節點（還要再等好幾分鐘）。"
    ),
    failing: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: vllm }\nspec:\n  selector: { matchLabels: { app: vllm } }\n  template:\n    metadata: { labels: { app: vllm } }\n    spec:\n      containers:\n        - name: server\n          image: vllm/vllm-openai:v0.6.3\n          resources:\n            limits: { nvidia.com/gpu: 1 }\n---\napiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: { name: vllm }\nspec:\n  scaleTargetRef: { apiVersion: apps/v1, kind: Deployment, name: vllm }\n  minReplicas: 1\n  maxReplicas: 8\n  metrics:\n    - type: Pods\n      pods:\n        metric: { name: requests_in_queue }\n        target: { type: AverageValue, averageValue: \"5\" }\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: four-l4 }\nspec:\n  cluster:\n    nodePools:\n      - name: gpu\n        count: 4\n        gpu: { model: L4, count: 1 }\n"),
    fixed: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: vllm }\nspec:\n  selector: { matchLabels: { app: vllm } }\n  template:\n    metadata: { labels: { app: vllm } }\n    spec:\n      containers:\n        - name: server\n          image: vllm/vllm-openai:v0.6.3\n          resources:\n            limits: { nvidia.com/gpu: 1 }\n---\napiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: { name: vllm }\nspec:\n  scaleTargetRef: { apiVersion: apps/v1, kind: Deployment, name: vllm }\n  minReplicas: 1\n  maxReplicas: 4\n  metrics:\n    - type: Pods\n      pods:\n        metric: { name: requests_in_queue }\n        target: { type: AverageValue, averageValue: \"5\" }\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: four-l4 }\nspec:\n  cluster:\n    nodePools:\n      - name: gpu\n        count: 4\n        gpu: { model: L4, count: 1 }\n"),
    fix: long!(
        "Lower `maxReplicas` to the pods the GPUs hold (the fix does, when the Scenario describes your cluster), or give the cluster room for it: more GPU nodes, or a cluster autoscaler node pool whose maximum covers `maxReplicas` × the GPUs per pod.",
        "把 `maxReplicas` 降到 GPU 放得下的 Pod 數（Scenario 描述了你的叢集時，修正會這樣做），或讓叢集放得下：增加 GPU 節點，或設定 cluster autoscaler 的節點池，讓它的上限涵蓋 `maxReplicas` × 每個 Pod 的 GPU 數。"
    ),
    check: Some(check),
};

fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    if !context.cluster_stated() {
        return;
    }
    let scenario = context.scenario;
    for (hpa, workload) in context.autoscaled() {
        let requests = pod_gpu_requests(workload);
        if requests.is_empty() {
            continue;
        }
        let (fit, total) = capacity(scenario, workload, &requests);
        let max = i64::from(hpa.max_replicas);
        if fit == 0 || max <= fit {
            continue;
        }
        let (who, who_zh) = hpa_subject(hpa);
        let field = super::hpa_bound_field(hpa, true);
        let (target, target_zh) = subject(workload);
        let (asked, asked_zh) = requests_text(&requests);
        let resource = requests.first().map_or("nvidia.com/gpu", |(name, _)| name);
        let pending = max - fit;
        let event = scheduling_message(scenario, workload, max);
        let span = hpa.max_span.unwrap_or(hpa.kind_span);
        let mut diagnostic = RULE
            .diagnostic(
                span,
                text!(
                    "{who}: {field} {max} × {asked} per pod of {target}, but the cluster holds only {fit} such pods ({total} {resource}): scaled past {fit}, {pending} pods stay Pending",
                    "{who_zh}：{field} {max} × 每個 {target_zh} 的 Pod 要 {asked_zh}，但叢集只放得下 {fit} 個這樣的 Pod（共 {total} 個 {resource}）：擴到 {fit} 個以上時，會有 {pending} 個 Pod 停在 Pending"
                ),
            )
            .with_help(text!(
                "the extra pods get FailedScheduling \"{event}\"; the HPA counts them as unready, so they add nothing. Lower {field} to {fit}, or add GPU nodes (or a cluster autoscaler pool) to the cluster",
                "多出來的 Pod 會收到 FailedScheduling「{event}」；HPA 把它們算成未就緒，它們不提供任何容量。把 {field} 降到 {fit}，或替叢集增加 GPU 節點（或 cluster autoscaler 的節點池）"
            ));
        if let (Some(span), true) = (hpa.max_span, fit >= i64::from(hpa.min_replicas)) {
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
