//! PL603 hpa-cpu-on-gpu.
//!
//! A GPU inference server does its work on the GPU: its CPU stays near idle
//! however long the queue grows, so an HPA on CPU utilization (the API's
//! default when `metrics` is empty, `SetDefaults_HorizontalPodAutoscaler`)
//! never sees the load. metrics-server serves only `cpu` and `memory`
//! (`shared/reference/traffic-autoscaling.md` §2.2): a GPU signal or a queue
//! length reaches the HPA as a `Pods` or `External` metric through an
//! adapter (prometheus-adapter, KEDA). With such a metric beside the CPU one
//! the HPA takes the largest proposal (§1.2), so the rule stays quiet.

use super::{hpa_subject, long, long_str, pod_gpu_requests, words, Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};
use crate::manifest::hpa::MetricSource;
use crate::text;

pub static RULE: Rule = Rule {
    id: "PL603",
    name: "hpa-cpu-on-gpu",
    severity: Severity::Warning,
    scenario_aware: false,
    summary: words!(
        "an HPA scales a GPU workload on CPU utilization, which a GPU-bound server never raises",
        "HPA 以 CPU 使用率擴縮 GPU 工作負載，但 GPU 密集的伺服器 CPU 幾乎不會上升"
    ),
    what: long!(
        "For each HorizontalPodAutoscaler (`autoscaling/v2`) whose `scaleTargetRef` is a workload of the file whose pods ask for a GPU (`nvidia.com/gpu`, a MIG profile, another vendor's GPU), warns when it scales only on resource metrics and one of them is `cpu` (`Resource` or `ContainerResource`), including the CPU at 80 % the API writes when `metrics` is empty. An HPA that also has a `Pods`, `Object` or `External` metric is not reported: it takes the largest of its metrics' proposals.",
        "對每個 HorizontalPodAutoscaler（`autoscaling/v2`），若 `scaleTargetRef` 指向檔案裡一個 Pod 要求 GPU（`nvidia.com/gpu`、MIG profile 或其他廠商的 GPU）的工作負載，且它只用資源指標、其中之一是 `cpu`（`Resource` 或 `ContainerResource`），就發出警告；`metrics` 留空時 API 會補上 CPU 80 %，也算在內。同時還有 `Pods`、`Object` 或 `External` 指標的 HPA 不報：它會取各指標建議值中最大的那個。"
    ),
    why: long!(
        "A model server spends its time on the GPU; its CPU only tokenizes and moves tensors, so it sits at a few percent of its request while requests pile up in the queue. The HPA sees low utilization, never adds a replica, and latency climbs until clients time out. metrics-server serves only CPU and memory, so a GPU-bound server has to be scaled on what it reports itself: its queue length or requests per second, through prometheus-adapter or KEDA.",
        "模型伺服器的時間都花在 GPU 上；CPU 只負責 tokenize 和搬 tensor，所以請求在佇列裡越積越多時，CPU 仍只有 requests 的幾個百分比。HPA 看到的使用率很低，永遠不加副本，延遲一路上升直到客戶端逾時。metrics-server 只提供 CPU 和記憶體，GPU 密集的伺服器要用它自己回報的數字來擴縮：佇列長度或每秒請求數，透過 prometheus-adapter 或 KEDA 提供給 HPA。"
    ),
    failing: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: vllm }\nspec:\n  selector: { matchLabels: { app: vllm } }\n  template:\n    metadata: { labels: { app: vllm } }\n    spec:\n      containers:\n        - name: server\n          image: vllm/vllm-openai:v0.6.3\n          resources:\n            requests: { cpu: \"4\" }\n            limits: { nvidia.com/gpu: 1 }\n---\napiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: { name: vllm }\nspec:\n  scaleTargetRef: { apiVersion: apps/v1, kind: Deployment, name: vllm }\n  minReplicas: 1\n  maxReplicas: 4\n  metrics:\n    - type: Resource\n      resource:\n        name: cpu\n        target: { type: Utilization, averageUtilization: 70 }\n"),
    fixed: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: vllm }\nspec:\n  selector: { matchLabels: { app: vllm } }\n  template:\n    metadata: { labels: { app: vllm } }\n    spec:\n      containers:\n        - name: server\n          image: vllm/vllm-openai:v0.6.3\n          resources:\n            requests: { cpu: \"4\" }\n            limits: { nvidia.com/gpu: 1 }\n---\napiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: { name: vllm }\nspec:\n  scaleTargetRef: { apiVersion: apps/v1, kind: Deployment, name: vllm }\n  minReplicas: 1\n  maxReplicas: 4\n  metrics:\n    - type: Pods\n      pods:\n        metric: { name: requests_in_queue }\n        target: { type: AverageValue, averageValue: \"5\" }\n"),
    fix: long!(
        "Scale on what the server reports about its load: a `Pods` metric such as the requests waiting in its queue (vLLM exports `vllm:num_requests_waiting`, TGI `tgi_queue_size`) or its requests per second, served to the HPA by prometheus-adapter, or an `External` metric through KEDA's Prometheus scaler:\n\n    metrics:\n      - type: Pods\n        pods:\n          metric: { name: requests_in_queue }\n          target: { type: AverageValue, averageValue: \"5\" }",
        "改用伺服器自己回報的負載來擴縮：例如佇列中等待的請求數（vLLM 匯出 `vllm:num_requests_waiting`，TGI 匯出 `tgi_queue_size`）或每秒請求數，由 prometheus-adapter 提供成 `Pods` 指標，或透過 KEDA 的 Prometheus scaler 提供成 `External` 指標：\n\n    metrics:\n      - type: Pods\n        pods:\n          metric: { name: requests_in_queue }\n          target: { type: AverageValue, averageValue: \"5\" }"
    ),
    check: Some(check),
};

fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for (hpa, workload) in context.autoscaled() {
        if pod_gpu_requests(workload).is_empty()
            || hpa
                .metrics
                .iter()
                .any(|metric| !matches!(metric.source, MetricSource::Resource { .. }))
        {
            continue;
        }
        let Some(metric) = hpa.metrics.iter().find(
            |metric| matches!(&metric.source, MetricSource::Resource { name, .. } if name == "cpu"),
        ) else {
            continue;
        };
        let (who, who_zh) = hpa_subject(hpa);
        let (target, target_zh) = super::pl502_gpu_unschedulable::subject(workload);
        let (default, default_zh) = if metric.span.is_none() {
            (
                " (the API's default when `metrics` is empty)",
                "（`metrics` 留空時 API 的預設）",
            )
        } else {
            ("", "")
        };
        let span = metric.span.or(hpa.max_span).unwrap_or(hpa.kind_span);
        out.push(
            RULE.diagnostic(
                span,
                text!(
                    "{who} scales {target} on CPU utilization{default}, but its pods run on a GPU: a GPU-bound server's CPU stays low however long its queue grows, so the HPA never adds replicas",
                    "{who_zh}以 CPU 使用率擴縮 {target_zh}{default_zh}，但它的 Pod 在 GPU 上執行：GPU 密集的伺服器不論佇列多長，CPU 都很低，所以 HPA 永遠不會加副本"
                ),
            )
            .with_help(text!(
                "scale on the server's queue length or requests per second, a `Pods` metric served by prometheus-adapter (or an `External` one through KEDA): `metrics: [{{ type: Pods, pods: {{ metric: {{ name: requests_in_queue }}, target: {{ type: AverageValue, averageValue: \"5\" }} }} }}]`",
                "改用伺服器的佇列長度或每秒請求數擴縮，由 prometheus-adapter 提供成 `Pods` 指標（或透過 KEDA 提供成 `External` 指標）：`metrics: [{{ type: Pods, pods: {{ metric: {{ name: requests_in_queue }}, target: {{ type: AverageValue, averageValue: \"5\" }} }} }}]`"
            )),
        );
    }
}
