//! PL606 scale-to-zero-without-interceptor.
//!
//! A KEDA ScaledObject at `minReplicaCount: 0` (KEDA's default) scales its
//! target to zero replicas when idle. The Service then has no endpoints, and
//! kube-proxy answers a connection to it with a `REJECT` rule
//! (`pkg/proxy/iptables/proxier.go`, `syncProxyRules`: `if !hasEndpoints`,
//! `internalTrafficFilterTarget = "REJECT"`, comment `"%s has no endpoints"`):
//! the client gets `connection refused` at once, whatever its timeout
//! (`shared/reference/traffic-autoscaling.md` §4.3). No request waits for the
//! first pod, however short its cold start; only KEDA's HTTP add-on holds
//! requests while the target is at zero (its interceptor, §3.3). The
//! simulator already refuses them (`sim/traffic`); this rule says so before
//! the run. A cold start longer than a written client timeout is PL604's
//! finding, and this rule stays quiet there.

use super::{hpa_subject, long, long_str, words, Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};
use crate::text;

pub static RULE: Rule = Rule {
    id: "PL606",
    name: "scale-to-zero-without-interceptor",
    severity: Severity::Warning,
    scenario_aware: true,
    summary: words!(
        "a ScaledObject scales a serving workload to zero with nothing to hold the requests: each one is refused until a pod is Ready",
        "ScaledObject 會把提供服務的工作負載縮到零，卻沒有東西讓請求等著：在 Pod Ready 之前，每個請求都會被拒絕"
    ),
    what: long!(
        "For each KEDA ScaledObject at `minReplicaCount: 0` (written, or KEDA's default) whose target's pods a Service of the file selects, warns when nothing holds the requests while the target is at zero: no `HTTPScaledObject` in the file and no `interceptor` in the Scenario's traffic to that Service. It stays quiet when PL604 already reports the ScaledObject (a cold start longer than the clients' written timeout).",
        "對每個 `minReplicaCount: 0`（有寫，或 KEDA 的預設值）的 KEDA ScaledObject，若檔案裡有 Service 選到它目標的 Pod，而目標縮到零時沒有東西讓請求等著（檔案裡沒有 `HTTPScaledObject`，Scenario 送往該 Service 的流量也沒有 `interceptor`），就發出警告。PL604 已經回報這個 ScaledObject（冷啟動比客戶端寫明的逾時還長）時不重複回報。"
    ),
    why: long!(
        "At zero replicas the Service has no endpoints, and kube-proxy rejects every connection to it (an iptables `REJECT` rule commented \"has no endpoints\"): the client gets `connection refused` at once, it does not wait. So a model that loads in 10 s does not help a client that would wait 30 s: every request from the first one after the idle period until the first pod is Ready fails, and KEDA only sees the traffic at its next check (every 30 s by default), if its trigger counts requests that never reached a pod at all. Client retries without back-off make it worse.",
        "副本數為零時，Service 沒有任何端點，kube-proxy 會拒絕每個連到它的連線（一條註解為「has no endpoints」的 iptables `REJECT` 規則）：客戶端立刻拿到 `connection refused`，不會等。所以模型 10 秒就載入好，對願意等 30 秒的客戶端也沒有幫助：閒置後從第一個請求開始，到第一個 Pod Ready 為止，每個請求都失敗；KEDA 要到下一次檢查（預設每 30 秒）才看得到流量，前提還是它的 trigger 數得到這些根本沒送到 Pod 的請求。客戶端不退避地重試只會更糟。"
    ),
    failing: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: embedder }\nspec:\n  selector: { matchLabels: { app: embedder } }\n  template:\n    metadata: { labels: { app: embedder } }\n    spec:\n      containers:\n        - name: server\n          image: ghcr.io/huggingface/text-embeddings-inference:1.5\n          ports: [{ containerPort: 8080 }]\n          readinessProbe: { httpGet: { path: /health, port: 8080 } }\n---\napiVersion: v1\nkind: Service\nmetadata: { name: embedder }\nspec:\n  selector: { app: embedder }\n  ports: [{ port: 80, targetPort: 8080 }]\n---\napiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nmetadata: { name: embedder }\nspec:\n  scaleTargetRef: { name: embedder }\n  minReplicaCount: 0\n  maxReplicaCount: 2\n  triggers:\n    - type: prometheus\n      metadata:\n        serverAddress: http://prometheus.monitoring:9090\n        query: sum(rate(requests_per_second{service=\"embedder\"}[1m]))\n        threshold: \"20\"\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: idle-then-busy }\nspec:\n  workload: [{ container: server, startup: 10s }]\n  traffic: { service: embedder, timeout: 30s, rate: [{ at: 0s, rps: 0 }, { at: 10m, rps: 5 }] }\n"),
    fixed: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: embedder }\nspec:\n  selector: { matchLabels: { app: embedder } }\n  template:\n    metadata: { labels: { app: embedder } }\n    spec:\n      containers:\n        - name: server\n          image: ghcr.io/huggingface/text-embeddings-inference:1.5\n          ports: [{ containerPort: 8080 }]\n          readinessProbe: { httpGet: { path: /health, port: 8080 } }\n---\napiVersion: v1\nkind: Service\nmetadata: { name: embedder }\nspec:\n  selector: { app: embedder }\n  ports: [{ port: 80, targetPort: 8080 }]\n---\napiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nmetadata: { name: embedder }\nspec:\n  scaleTargetRef: { name: embedder }\n  minReplicaCount: 1\n  maxReplicaCount: 2\n  triggers:\n    - type: prometheus\n      metadata:\n        serverAddress: http://prometheus.monitoring:9090\n        query: sum(rate(requests_per_second{service=\"embedder\"}[1m]))\n        threshold: \"20\"\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: idle-then-busy }\nspec:\n  workload: [{ container: server, startup: 10s }]\n  traffic: { service: embedder, timeout: 30s, rate: [{ at: 0s, rps: 0 }, { at: 10m, rps: 5 }] }\n"),
    fix: long!(
        "Keep a warm replica with `minReplicaCount: 1` (the cost: a pod, and its GPU, paid for while idle), or put KEDA's HTTP add-on in front of the Service (an `HTTPScaledObject`; its interceptor holds each request for up to `conditionWait` while the first pod starts, and never longer than the client waits; in a podlab Scenario, `traffic.interceptor`), or make the clients retry refused connections, with back-off, for longer than the cold start. There is no machine fix: each choice has a cost only you can weigh.",
        "用 `minReplicaCount: 1` 保留一個暖好的 replica（代價：閒置時也要付一個 Pod 和它的 GPU 的錢），或在 Service 前面放 KEDA 的 HTTP add-on（`HTTPScaledObject`；它的 interceptor 會在第一個 Pod 啟動時讓每個請求最多等 `conditionWait`，也不會超過客戶端願意等的時間；在 podlab 的 Scenario 裡是 `traffic.interceptor`），或讓客戶端對被拒絕的連線退避重試，重試的時間要比冷啟動長。沒有自動修正：每個選擇都有代價，只有你能衡量。"
    ),
    check: Some(check),
};

fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    // An HTTPScaledObject in the file: the HTTP add-on's interceptor is in
    // front, and holds the requests while the target is at zero.
    if context
        .unread_kinds
        .iter()
        .any(|kind| kind == "HTTPScaledObject")
    {
        return;
    }
    let traffic = context.scenario.traffic.as_ref();
    for (hpa, workload) in context.autoscaled() {
        let Some(keda) = hpa.keda.as_ref() else {
            continue;
        };
        if keda.min_replica_count != 0 {
            continue;
        }
        let Some(service) = context
            .services
            .iter()
            .find(|service| service.selects(&workload.pod_labels))
        else {
            continue;
        };
        // The Scenario's traffic to this Service (`service` unwritten: the
        // first serving workload's pods, taken as this one's).
        let to_this = traffic.filter(|traffic| {
            traffic
                .service
                .as_ref()
                .is_none_or(|name| name.value == service.name)
        });
        if to_this.is_some_and(|traffic| traffic.interceptor.is_some()) {
            continue;
        }
        if pl604_reports(context, to_this, service, workload) {
            continue;
        }
        let (who, who_zh) = hpa_subject(hpa);
        let (target, target_zh) = super::pl502_gpu_unschedulable::subject(workload);
        let name = &service.name;
        let (min, min_zh) = if keda.min_span.is_some() {
            ("minReplicaCount 0", "minReplicaCount 0")
        } else {
            (
                "minReplicaCount 0 (KEDA's default)",
                "minReplicaCount 0（KEDA 的預設值）",
            )
        };
        let mut message_en = format!(
            "{who}: {min} lets KEDA scale {target} to zero when idle, and nothing holds the requests meanwhile: Service \"{name}\" then has no endpoints, so kube-proxy refuses every connection at once (connection refused) until the first pod is Ready, however short its cold start and however long the clients would wait"
        );
        let mut message_zh = format!(
            "{who_zh}：{min_zh} 讓 KEDA 在閒置時把 {target_zh}縮到零，這段期間卻沒有東西讓請求等著：Service「{name}」沒有任何端點，kube-proxy 會立刻拒絕每個連線（connection refused），直到第一個 Pod Ready，不論冷啟動多短、客戶端願意等多久"
        );
        if let Some(traffic) = to_this.filter(|traffic| traffic.timeout_span.is_some()) {
            let timeout = crate::manifest::duration::format(traffic.timeout);
            message_en.push_str(&format!(" (the clients' {timeout} timeout does not apply)"));
            message_zh.push_str(&format!("（客戶端 {timeout} 的逾時派不上用場）"));
        }
        let diagnostic = RULE
            .diagnostic(
                keda.min_span.unwrap_or(hpa.kind_span),
                crate::i18n::Text::new(message_en, message_zh),
            )
            .with_help(text!(
                "keep a warm replica with `minReplicaCount: 1` (the cost: a pod and its GPU paid for while idle), or put KEDA's HTTP add-on in front (an HTTPScaledObject: its interceptor holds requests for up to `conditionWait` while the first pod starts; `traffic.interceptor` in a Scenario), or have the clients retry refused connections with back-off",
                "用 `minReplicaCount: 1` 保留一個暖好的 replica（代價：閒置時也要付一個 Pod 和它的 GPU 的錢），或在前面放 KEDA 的 HTTP add-on（HTTPScaledObject：它的 interceptor 會在第一個 Pod 啟動時讓請求最多等 `conditionWait`；Scenario 裡是 `traffic.interceptor`），或讓客戶端對被拒絕的連線退避重試"
            ));
        out.push(diagnostic);
    }
}

/// Whether PL604 reports this ScaledObject already: traffic written to this
/// Service with a written client timeout shorter than the cold start (no
/// interceptor here), the same test as PL604's from zero.
fn pl604_reports(
    context: &Context<'_>,
    traffic: Option<&crate::manifest::scenario::Traffic>,
    service: &crate::manifest::service::Service,
    workload: &crate::manifest::model::Workload,
) -> bool {
    let Some(traffic) = traffic else {
        return false;
    };
    if traffic.timeout_span.is_none() || traffic.service.is_none() {
        return false;
    }
    let index = service.serving_container(&workload.pod);
    let Some(container) = workload.pod.containers.get(index) else {
        return false;
    };
    let load = context.scenario.program(container).startup.value;
    let cold = load.max(super::pl604_hpa_cold_start_exceeds_timeout::probe_delay(
        container,
    ));
    cold > traffic.timeout
}

#[cfg(test)]
mod tests {
    fn found(text: &str) -> Vec<(usize, String, String)> {
        let report = crate::lint::lint(text);
        report
            .diagnostics
            .iter()
            .filter(|d| d.rule == "PL606")
            .map(|d| {
                (
                    report.index.line_col(text, d.span.start).line,
                    d.message.en.clone(),
                    d.message.zh_tw.clone(),
                )
            })
            .collect()
    }

    #[test]
    fn a_ten_second_load_behind_a_30s_timeout_is_still_refused_at_zero() {
        let found = found(super::RULE.failing);
        assert_eq!(found.len(), 1);
        // `minReplicaCount: 0` is line 27 of the failing example.
        assert_eq!(found[0].0, 27);
        insta::assert_snapshot!(
            "pl606_failing_example",
            format!("{}\n{}", found[0].1, found[0].2)
        );
    }

    #[test]
    fn the_default_min_replica_count_is_named_as_keda_s_default() {
        let text = super::RULE.failing.replace("  minReplicaCount: 0\n", "");
        let found = found(&text);
        assert_eq!(found.len(), 1);
        assert!(
            found[0].1.contains("minReplicaCount 0 (KEDA's default)"),
            "{}",
            found[0].1
        );
    }

    #[test]
    fn an_interceptor_or_an_http_scaled_object_holds_the_requests() {
        let held = super::RULE.failing.replace(
            "timeout: 30s,",
            "timeout: 30s, interceptor: { conditionWait: 20s },",
        );
        assert_eq!(found(&held), vec![]);
        let http = format!(
            "{}---\napiVersion: http.keda.sh/v1alpha1\nkind: HTTPScaledObject\nmetadata: {{ name: embedder }}\nspec: {{}}\n",
            super::RULE.failing
        );
        assert_eq!(found(&http), vec![]);
    }

    #[test]
    fn a_cold_start_past_the_timeout_is_left_to_pl604() {
        let slow = super::RULE.failing.replace("startup: 10s", "startup: 2m");
        assert_eq!(found(&slow), vec![]);
        let report = crate::lint::lint(&slow);
        assert!(report.diagnostics.iter().any(|d| d.rule == "PL604"));
    }
    /// What the rule predicts, on the simulator's timeline: the failing
    /// example's 10 s load, its 30 s timeout, 5 requests/s from 10:00 after
    /// the idle period. No request times out (none waits); every failure is
    /// a refused connection (`Failure::NoEndpoints`, kube-proxy's `REJECT`),
    /// and they end once the first pod is Ready.
    #[test]
    fn the_simulator_refuses_the_requests_at_zero_and_times_none_out() {
        use crate::sim::traffic::Failure;
        let run = crate::sim::simulate(super::RULE.failing, &crate::sim::Options::default());
        let traffic = run.traffic.as_ref().expect("the Scenario sends traffic");
        let whole = traffic.stats(0, 20 * 60_000);
        assert!(whole.failed(Failure::NoEndpoints) > 0, "{whole:?}");
        assert_eq!(whole.failed(Failure::Timeout), 0);
        assert_eq!(whole.failed_total(), whole.failed(Failure::NoEndpoints));
        assert!(whole.served > 0);
    }
}
