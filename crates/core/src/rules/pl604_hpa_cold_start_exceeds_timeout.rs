//! PL604 hpa-cold-start-exceeds-timeout.
//!
//! A pod the HPA adds serves nothing before its model has loaded and its
//! probes let it be Ready; a request that waits for that capacity longer
//! than the client's timeout fails (`shared/reference/traffic-autoscaling.md`
//! §7, "Cold start during a burst"). The lower bound used here: the load
//! time (stated or assumed, `Scenario::program`) and the startup and
//! readiness probes' `initialDelaySeconds`, before which no probe passes.
//! Not counted: the image pull, the HPA's reaction (15–45 s, §2.1), the
//! probes' periods. The client timeout is the Scenario's `traffic.timeout`,
//! judged only when written, and only for the workload that traffic reaches
//! through a Service of the file.

use super::{hpa_subject, long, long_str, on_assumption, words, Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};
use crate::manifest::duration::format;
use crate::text;

pub static RULE: Rule = Rule {
    id: "PL604",
    name: "hpa-cold-start-exceeds-timeout",
    severity: Severity::Warning,
    scenario_aware: true,
    summary: words!(
        "a pod the HPA adds takes longer to serve than the clients wait",
        "HPA 新增的 Pod 要等到能服務的時間，比客戶端願意等的還長"
    ),
    what: long!(
        "For each HorizontalPodAutoscaler whose target the Scenario's traffic reaches through a Service of the file, and whose `maxReplicas` is above `minReplicas`, compares a new pod's cold start with the traffic's client `timeout` (only when the Scenario writes it). The cold start counted is a lower bound: the model's load time (a Scenario `startup` or `podlab.dev/startup`; assumed 40 s otherwise, and the finding is then info) and the `initialDelaySeconds` of the serving container's startup and readiness probes; the image pull and the HPA's own reaction time come on top. It warns when that cold start is longer than the timeout, at `minReplicas`. A KEDA ScaledObject is judged through the HPA it owns, at `minReplicaCount`; with `minReplicaCount: 0` (KEDA's default) it warns whatever the maximum, since from zero every request waits for a whole cold start.",
        "對每個 HorizontalPodAutoscaler，若 Scenario 的流量經由檔案裡的 Service 送到它的目標，且 `maxReplicas` 大於 `minReplicas`，就拿新 Pod 的冷啟動時間和流量的客戶端 `timeout` 比較（只在 Scenario 寫了 timeout 時）。計算的冷啟動是下限：模型載入時間（Scenario 的 `startup` 或 `podlab.dev/startup`；沒寫時假設 40 秒，此時只報資訊），以及提供服務的容器的 startupProbe、readinessProbe 的 `initialDelaySeconds`；拉映像和 HPA 自己的反應時間還要另外加上。冷啟動比逾時長時，在 `minReplicas` 發出警告。KEDA 的 ScaledObject 透過它建立的 HPA 判斷，看的是 `minReplicaCount`；`minReplicaCount: 0`（KEDA 的預設值）時不論上限都會警告，因為從零開始，每個請求都要等完整個冷啟動。"
    ),
    why: long!(
        "Autoscaling helps only the requests that can wait for the new capacity. When a burst exceeds what the `minReplicas` pods serve, requests queue at those pods; the HPA notices after 15–45 s and creates pods, which then pull the image and load the model. If that takes longer than the clients wait, no request that waits for the new capacity survives: the extra requests time out (504 behind a proxy) or are refused by a full queue until new pods are Ready, and client retries add to the load. For a model that loads in minutes, the HPA only rescues the requests that arrive later.",
        "自動擴縮只救得了等得到新容量的請求。流量暴增超過 `minReplicas` 個 Pod 能處理的量時，請求會在這些 Pod 前排隊；HPA 要 15 到 45 秒後才察覺並建立 Pod，新 Pod 接著拉映像、載入模型。如果這段時間比客戶端願意等的還長，沒有任何等待新容量的請求撐得到：多出來的請求在新 Pod Ready 之前不是逾時（經過 proxy 時是 504）就是因佇列已滿被拒絕，客戶端重試又讓負載更高。模型要好幾分鐘才載入完時，HPA 只救得了之後才進來的請求。"
    ),
    failing: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: vllm }\nspec:\n  selector: { matchLabels: { app: vllm } }\n  template:\n    metadata: { labels: { app: vllm } }\n    spec:\n      containers:\n        - name: server\n          image: vllm/vllm-openai:v0.6.3\n          ports: [{ containerPort: 8000 }]\n          readinessProbe: { httpGet: { path: /health, port: 8000 } }\n---\napiVersion: v1\nkind: Service\nmetadata: { name: vllm }\nspec:\n  selector: { app: vllm }\n  ports: [{ port: 80, targetPort: 8000 }]\n---\napiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: { name: vllm }\nspec:\n  scaleTargetRef: { apiVersion: apps/v1, kind: Deployment, name: vllm }\n  minReplicas: 1\n  maxReplicas: 4\n  metrics:\n    - type: Pods\n      pods:\n        metric: { name: requests_in_queue }\n        target: { type: AverageValue, averageValue: \"5\" }\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: burst }\nspec:\n  workload: [{ container: server, startup: 2m }]\n  traffic: { service: vllm, timeout: 30s, rate: [{ at: 0s, rps: 5 }, { at: 5m, rps: 120 }] }\n"),
    fixed: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: vllm }\nspec:\n  selector: { matchLabels: { app: vllm } }\n  template:\n    metadata: { labels: { app: vllm } }\n    spec:\n      containers:\n        - name: server\n          image: vllm/vllm-openai:v0.6.3\n          ports: [{ containerPort: 8000 }]\n          readinessProbe: { httpGet: { path: /health, port: 8000 } }\n---\napiVersion: v1\nkind: Service\nmetadata: { name: vllm }\nspec:\n  selector: { app: vllm }\n  ports: [{ port: 80, targetPort: 8000 }]\n---\napiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: { name: vllm }\nspec:\n  scaleTargetRef: { apiVersion: apps/v1, kind: Deployment, name: vllm }\n  minReplicas: 1\n  maxReplicas: 4\n  metrics:\n    - type: Pods\n      pods:\n        metric: { name: requests_in_queue }\n        target: { type: AverageValue, averageValue: \"5\" }\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: burst }\nspec:\n  workload: [{ container: server, startup: 2m }]\n  traffic: { service: vllm, timeout: 3m, rate: [{ at: 0s, rps: 5 }, { at: 5m, rps: 120 }] }\n"),
    fix: long!(
        "Keep enough pods for the bursts you expect already running (a higher `minReplicas`, or a lower target so the HPA scales earlier), shorten the cold start (weights on a local disk or a cache, the image pre-pulled, a smaller or quantized model), or let clients wait longer than the cold start (their timeout, or a queue in front of the service).",
        "讓預期暴增所需的 Pod 先跑著（調高 `minReplicas`，或調低目標值讓 HPA 早點擴），縮短冷啟動（權重放在本機磁碟或快取、預先拉好映像、換小一點或量化的模型），或讓客戶端等得比冷啟動久（調高它們的逾時，或在服務前面加一個佇列）。"
    ),
    check: Some(check),
};

fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let Some(traffic) = context.scenario.traffic.as_ref() else {
        return;
    };
    let (Some(_), Some(service)) = (traffic.timeout_span, traffic.service.as_ref()) else {
        return;
    };
    let Some(service) = context.services.iter().find(|s| s.name == service.value) else {
        return;
    };
    for (hpa, workload) in context.autoscaled() {
        // A ScaledObject at `minReplicaCount: 0` is judged whatever its
        // maximum: from zero, every request waits for a whole cold start.
        let to_zero = hpa
            .keda
            .as_ref()
            .is_some_and(|keda| keda.min_replica_count == 0);
        if (hpa.max_replicas <= hpa.min_replicas && !to_zero)
            || !service.selects(&workload.pod_labels)
        {
            continue;
        }
        let index = service.serving_container(&workload.pod);
        let Some(container) = workload.pod.containers.get(index) else {
            continue;
        };
        let program = context.scenario.program(container);
        let delay = probe_delay(container);
        let load = program.startup.value;
        let cold = load.max(delay);
        // From zero behind KEDA's HTTP add-on, a request waits at the
        // interceptor for `conditionWait` at most (traffic-autoscaling.md
        // §3.3), and never past the client's timeout.
        let held = traffic
            .interceptor
            .as_ref()
            .filter(|i| to_zero && i.condition_wait < traffic.timeout)
            .map(|i| i.condition_wait);
        let limit = held.unwrap_or(traffic.timeout);
        if cold <= limit {
            continue;
        }
        let (who, who_zh) = hpa_subject(hpa);
        let (target, target_zh) = super::pl502_gpu_unschedulable::subject(workload);
        let (cold_text, timeout, min) = (format(cold), format(traffic.timeout), hpa.min_replicas);
        let field = super::hpa_bound_field(hpa, false);
        let (bound, bound_zh) = match held {
            Some(wait) => {
                let wait = format(wait);
                (
                    format!("the interceptor's {wait} conditionWait"),
                    format!("interceptor 的 conditionWait {wait}"),
                )
            }
            None => (
                format!("the clients' {timeout} timeout"),
                format!("客戶端 {timeout} 的逾時"),
            ),
        };
        let mut diagnostic = if to_zero {
            RULE.diagnostic(
                hpa.min_span.unwrap_or(hpa.kind_span),
                text!(
                    "{who}: minReplicaCount 0 lets KEDA scale {target} to zero when idle, and a new pod serves nothing for at least {cold_text} (model load and probe delays, before the image pull and KEDA's next check), longer than {bound}: every request that arrives while it is at zero fails (refused with no endpoint, a 502 from the interceptor, or timed out) until the first pod is Ready",
                    "{who_zh}：minReplicaCount 0 讓 KEDA 在閒置時把{target_zh}縮到零，而新 Pod 至少有 {cold_text} 無法服務（模型載入與探針延遲，還沒算拉映像和 KEDA 的下一次檢查），比{bound_zh}還長：縮到零期間進來的每個請求都會失敗（沒有端點被拒絕、interceptor 回 502，或逾時），直到第一個 Pod Ready"
                ),
            )
            .with_help(text!(
                "keep a warm replica with `minReplicaCount: 1` (the cost: a GPU paid for while idle), or shorten the cold start below the timeout (cached weights, a pre-pulled image, a smaller model); KEDA's HTTP add-on can hold requests while the first pod starts, but only for its conditionWait and never past the client's timeout",
                "用 `minReplicaCount: 1` 保留一個暖好的 replica（代價：閒置時也要付一張 GPU 的錢），或把冷啟動縮短到逾時以下（快取權重、預先拉映像、換小一點的模型）；KEDA 的 HTTP add-on 可以在第一個 Pod 啟動時讓請求等著，但最多等 conditionWait，也不會超過客戶端的逾時"
            ))
        } else {
            RULE.diagnostic(
                hpa.min_span.unwrap_or(hpa.kind_span),
                text!(
                    "{who}: a new pod of {target} serves nothing for at least {cold_text} (model load and probe delays, before the image pull), longer than the clients' {timeout} timeout: no request can wait for a pod the HPA adds, so in a burst beyond what {field} ({min}) serves the extra requests fail (time out, or are refused by a full queue) until new pods are Ready",
                    "{who_zh}：{target_zh}的新 Pod 至少有 {cold_text} 無法服務（模型載入與探針延遲，還沒算拉映像），比客戶端 {timeout} 的逾時還長：沒有請求等得到 HPA 新增的 Pod，所以流量超過 {field}（{min} 個 Pod）能處理的量時，多出來的請求會失敗（逾時，或因佇列已滿被拒絕），直到新 Pod Ready"
                ),
            )
            .with_help(text!(
                "raise {field} to what the bursts need, shorten the cold start (cached weights, a pre-pulled image, a smaller model), or raise the clients' timeout; `podlab simulate` counts the timed-out requests in its traffic table",
                "把 {field} 調到暴增時需要的數量、縮短冷啟動（快取權重、預先拉映像、換小一點的模型），或調高客戶端的逾時；`podlab simulate` 的流量表會列出逾時的請求數"
            ))
        };
        if program.startup.span.is_none() && delay <= limit {
            let load = format(load);
            diagnostic = on_assumption(
                diagnostic,
                text!("a {load} model load", "模型載入要 {load}"),
                "podlab.dev/startup",
            );
        }
        out.push(diagnostic);
    }
}

/// The longest `initialDelaySeconds` of the container's startup and
/// readiness probes, in milliseconds: before it no probe passes, so the
/// pod is not Ready, whatever the load time.
pub(super) fn probe_delay(container: &crate::manifest::model::Container) -> u64 {
    [&container.startup, &container.readiness]
        .into_iter()
        .flatten()
        .map(|probe| u64::try_from(probe.initial_delay_seconds.value).unwrap_or(0) * 1000)
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity;

    fn found(text: &str) -> Vec<(Severity, String)> {
        crate::lint::lint(text)
            .diagnostics
            .into_iter()
            .filter(|d| d.rule == "PL604")
            .map(|d| (d.severity, d.message.en))
            .collect()
    }

    #[test]
    fn a_stated_load_warns_and_an_assumed_one_is_info() {
        let stated = found(super::RULE.failing);
        assert_eq!(stated.len(), 1);
        assert_eq!(stated[0].0, Severity::Warning);
        assert!(stated[0].1.contains("at least 2m"), "{}", stated[0].1);
        assert!(stated[0].1.contains("30s timeout"), "{}", stated[0].1);
        let assumed = super::RULE
            .failing
            .replace("  workload: [{ container: server, startup: 2m }]\n", "");
        let assumed = found(&assumed);
        assert_eq!(assumed.len(), 1);
        assert_eq!(assumed[0].0, Severity::Info);
        assert!(
            assumed[0].1.contains("assuming a 40s model load"),
            "{}",
            assumed[0].1
        );
    }

    #[test]
    fn behind_the_interceptor_from_zero_the_bound_is_its_condition_wait() {
        let fixture = |name: &str| {
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/rules/PL604/");
            std::fs::read_to_string(format!("{path}{name}")).expect("the fixture")
        };
        let held = found(&fixture("fail_interceptor_condition_wait_shorter.yaml"));
        assert_eq!(held.len(), 1);
        assert!(
            held[0]
                .1
                .contains("longer than the interceptor's 20s conditionWait"),
            "{}",
            held[0].1
        );
        // Without the interceptor the clients' 3m covers the 1m load.
        let direct = fixture("fail_interceptor_condition_wait_shorter.yaml")
            .replace("    interceptor: { conditionWait: 20s }\n", "");
        assert_eq!(found(&direct), vec![]);
        assert_eq!(
            found(&fixture("pass_interceptor_waits_long_enough.yaml")),
            vec![]
        );
    }

    #[test]
    fn a_probe_delay_longer_than_the_timeout_is_stated() {
        let text = super::RULE
            .failing
            .replace("  workload: [{ container: server, startup: 2m }]\n", "")
            .replace(
                "readinessProbe: { httpGet: { path: /health, port: 8000 } }",
                "readinessProbe: { httpGet: { path: /health, port: 8000 }, initialDelaySeconds: 60 }",
            );
        let found = found(&text);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, Severity::Warning);
        assert!(found[0].1.contains("at least 1m"), "{}", found[0].1);
    }
}
