//! PL205 probe-timeout-too-short.
//!
//! Models `shared/reference/kubelet.md` §2: an HTTP probe's client has
//! `Timeout: timeoutSeconds` (default 1, `SetDefaults_Probe`), and a server
//! that has not answered by then makes the probe fail with
//! `Get "http://<podIP>:8000/health": context deadline exceeded
//! (Client.Timeout exceeded while awaiting headers)`
//! (`kubernetes/kubernetes:pkg/probe/http/http.go` `DoHTTPProbe`); a gRPC
//! probe fails with `timeout: health rpc did not complete within 1s`
//! (`pkg/probe/grpc/grpc.go` `Probe`). Each such failure counts (it is a
//! `probe.Failure`, not an error), so a health endpoint that always answers
//! slower than the timeout fails every probe: readiness never passes,
//! liveness and startup restart the container (kubelet.md §3).
//!
//! The program's answer time is the Scenario's `healthLatency` (default
//! 20ms); only probes that ask the health endpoint are compared (`httpGet`
//! on the Scenario's `healthPath`, and `grpc`). TCP probes complete on the
//! kernel's handshake and exec probes are not modelled.
//!
//! The fix writes `timeoutSeconds: ceil(2 × healthLatency)`: twice the
//! latency leaves room for a slower answer under load, and since the rule
//! fires only when the latency is at least 1 s, that is always at least
//! `latency + 1 s`.

use super::{containers, edit, words, Context, Rule};
use super::{long, long_str};
use crate::diagnostic::{Diagnostic, Fix, Severity};
use crate::manifest::duration;
use crate::manifest::model::{Handler, ProbeKind};
use crate::text;

pub static RULE: Rule = Rule {
    id: "PL205",
    name: "probe-timeout-too-short",
    severity: Severity::Warning,
    scenario_aware: true,
    summary: words!(
        "the health endpoint answers slower than the probe's timeoutSeconds",
        "健康檢查端點的回應比探針的 timeoutSeconds 還慢"
    ),
    what: long!(
        "For each httpGet probe on the program's health path (the Scenario's `healthPath`, default `/health`) and each grpc probe, compares `timeoutSeconds` (default 1) with the time the health endpoint takes to answer (the Scenario's `healthLatency`, default 20ms). When the timeout is not longer than the latency, every probe times out. With only the default latency it is at most info and says so.",
        "對每個探測程式健康檢查路徑（Scenario 的 `healthPath`，預設 `/health`）的 httpGet 探針，以及每個 grpc 探針，比較 `timeoutSeconds`（預設 1）與健康檢查端點的回應時間（Scenario 的 `healthLatency`，預設 20ms）。逾時不比回應時間長時，每次探測都會逾時。只有預設的回應時間時，最多只是資訊，訊息會說明這是假設。"
    ),
    why: long!(
        "An LLM server busy with a full batch, or one whose /health runs a tiny generation to prove the GPU works, can take seconds to answer. The default timeout is 1 second: each probe fails with `context deadline exceeded (Client.Timeout exceeded while awaiting headers)`, the readiness probe pulls the pod out of the Service exactly when it is busiest, and a liveness probe restarts a healthy server — reloading the model and dropping every request in flight.",
        "LLM 伺服器在批次塞滿時，或 /health 會跑一次小生成來確認 GPU 正常時，回應可能要好幾秒。預設逾時只有 1 秒：每次探測都以 `context deadline exceeded (Client.Timeout exceeded while awaiting headers)` 失敗，readiness 探針會在 Pod 最忙的時候把它移出 Service，liveness 探針則會重啟一個其實健康的伺服器——重新載入模型，還丟掉所有處理中的請求。"
    ),
    failing: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: llm-api }\nspec:\n  selector: { matchLabels: { app: llm-api } }\n  template:\n    metadata: { labels: { app: llm-api } }\n    spec:\n      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.6.3\n          ports: [{ containerPort: 8000 }]\n          readinessProbe:\n            httpGet: { path: /health, port: 8000 }\n            periodSeconds: 5\n          lifecycle:\n            preStop:\n              sleep: { seconds: 10 }\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: busy-health }\nspec:\n  workload:\n    - container: vllm\n      healthLatency: 1500ms\n"),
    fixed: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: llm-api }\nspec:\n  selector: { matchLabels: { app: llm-api } }\n  template:\n    metadata: { labels: { app: llm-api } }\n    spec:\n      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.6.3\n          ports: [{ containerPort: 8000 }]\n          readinessProbe:\n            httpGet: { path: /health, port: 8000 }\n            timeoutSeconds: 3\n            periodSeconds: 5\n          lifecycle:\n            preStop:\n              sleep: { seconds: 10 }\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: busy-health }\nspec:\n  workload:\n    - container: vllm\n      healthLatency: 1500ms\n"),
    fix: long!(
        "Raise `timeoutSeconds` above the slowest health answer you expect; the automatic fix writes twice the Scenario's `healthLatency`, rounded up to whole seconds. Keep the health endpoint cheap too: it should say whether the server can take requests, not run the model.",
        "把 `timeoutSeconds` 調高到超過預期最慢的健康檢查回應；自動修正會寫入 Scenario `healthLatency` 的兩倍，無條件進位到整數秒。也要讓健康檢查端點保持輕量：它只需要回答伺服器能不能接請求，不該跑模型。"
    ),
    check: Some(check),
};

/// `timeoutSeconds` the fix writes for a health answer of `latency_ms`:
/// `ceil(2 × latency)`, and at least `latency + 1 s` (which only matters
/// below 1 s, where the rule does not fire).
pub fn fix_timeout_seconds(latency_ms: u64) -> u64 {
    let doubled = latency_ms.saturating_mul(2).div_ceil(1000);
    let above = latency_ms / 1000 + 1;
    doubled.max(above)
}

fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for (_, container, _) in containers(context.workloads) {
        let program = context.scenario.program(container);
        let latency_ms = program.health_latency.value;
        for probe in container.probes() {
            let asks_health = match &probe.handler {
                Handler::HttpGet { path, .. } => *path == program.health_path.value,
                Handler::Grpc { .. } => true,
                _ => false,
            };
            let timeout = probe.timeout_seconds.value;
            // A negative timeout is rejected by the API server (PL003).
            if !asks_health || timeout < 1 {
                continue;
            }
            let timeout_ms = u64::try_from(timeout)
                .unwrap_or(u64::MAX)
                .saturating_mul(1000);
            if timeout_ms > latency_ms {
                continue;
            }
            let name = &container.name;
            let field = probe.kind.field();
            let title = probe.kind.title();
            let latency = duration::format(latency_ms);
            let consequence = match probe.kind {
                ProbeKind::Readiness => text!(
                    "the pod never becomes Ready",
                    "Pod 永遠不會 Ready"
                ),
                ProbeKind::Liveness => text!(
                    "the kubelet restarts the container after every start (CrashLoopBackOff)",
                    "kubelet 每次啟動後都會重啟 container（CrashLoopBackOff）"
                ),
                ProbeKind::Startup => text!(
                    "the container never counts as started and is restarted at the end of every startup budget (CrashLoopBackOff)",
                    "container 永遠不算啟動完成，每次啟動預算用完就被重啟（CrashLoopBackOff）"
                ),
            };
            let (consequence_en, consequence_zh) = (consequence.en, consequence.zh_tw);
            let message = text!(
                "container \"{name}\": the {field} gives up after timeoutSeconds {timeout}s but the health endpoint takes {latency} to answer: every probe times out and {consequence_en}",
                "container「{name}」：{field} 在 timeoutSeconds {timeout} 秒後就放棄，但健康檢查端點要 {latency} 才回應：每次探測都逾時，{consequence_zh}"
            );
            let output = match &probe.handler {
                Handler::Grpc { .. } => {
                    format!("timeout: health rpc did not complete within {timeout}s")
                }
                Handler::HttpGet {
                    path, scheme, port, ..
                } => {
                    let scheme = scheme.to_ascii_lowercase();
                    let port = match port {
                        Some(crate::manifest::model::PortRef::Number(number)) => number.to_string(),
                        _ => program.listen_port.value.to_string(),
                    };
                    format!("Get \"{scheme}://<podIP>:{port}{path}\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)")
                }
                _ => String::new(),
            };
            let span = probe.timeout_seconds.span.unwrap_or(probe.key_span);
            let path = &program.health_path.value;
            let mut diagnostic = RULE.diagnostic(span, message).with_help(text!(
                "`kubectl describe pod` shows `{title} probe failed: {output}`; time the endpoint from inside the pod with `kubectl exec <pod> -- curl -s -o /dev/null -w '%{{time_total}}' localhost:<port>{path}`",
                "`kubectl describe pod` 會看到 `{title} probe failed: {output}`；可以在 Pod 裡量測端點的回應時間：`kubectl exec <pod> -- curl -s -o /dev/null -w '%{{time_total}}' localhost:<port>{path}`"
            ));
            let needed = fix_timeout_seconds(latency_ms);
            let edit = match probe.timeout_seconds.span {
                Some(value) => Some(edit::replace(value, needed.to_string())),
                None => {
                    let entry = [format!("timeoutSeconds: {needed}")];
                    [&probe.period_seconds, &probe.failure_threshold]
                        .into_iter()
                        .filter_map(|setting| block_key_start(context.text, setting.span?))
                        .chain(edit::first_key(context.text, probe.span))
                        .find_map(|at| edit::insert_entry(context.text, at, &entry))
                }
            };
            if let Some(edit) = edit {
                diagnostic = diagnostic.with_fix(Fix {
                    description: text!(
                        "set timeoutSeconds to {needed} (twice the {latency} health answer, rounded up)",
                        "把 timeoutSeconds 設為 {needed}（{latency} 健康檢查回應時間的兩倍，無條件進位）"
                    ),
                    edits: vec![edit],
                });
            }
            if program.health_latency.span.is_none() {
                diagnostic = super::on_assumption(
                    diagnostic,
                    text!("a {latency} health answer", "健康檢查要 {latency} 才回應"),
                    "podlab.dev/health-latency",
                );
            }
            out.push(diagnostic);
        }
    }
}

/// The start of the key of a block-style entry whose value is at `value`
/// (`    periodSeconds: 5` → the `p`), so a new entry can go before it.
fn block_key_start(text: &str, value: crate::span::Span) -> Option<usize> {
    let before = text.get(..value.start)?;
    let line_start = before.rfind('\n').map_or(0, |newline| newline + 1);
    let line = &before[line_start..];
    let key = line.trim_start_matches(' ');
    let name = key.trim_end().strip_suffix(':')?;
    let plain = !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric())
        && !key.starts_with('-');
    plain.then_some(line_start + (line.len() - key.len()))
}

#[cfg(test)]
mod tests {
    use super::fix_timeout_seconds;
    use crate::diagnostic::apply_edits;
    use crate::lint::lint;

    fn fires(text: &str) -> Vec<crate::diagnostic::Diagnostic> {
        lint(text)
            .diagnostics
            .into_iter()
            .filter(|d| d.rule == "PL205")
            .collect()
    }

    #[test]
    fn timeout_is_twice_the_latency_rounded_up() {
        assert_eq!(fix_timeout_seconds(1000), 2);
        assert_eq!(fix_timeout_seconds(1500), 3);
        assert_eq!(fix_timeout_seconds(5000), 10);
        assert_eq!(fix_timeout_seconds(400), 1);
        assert_eq!(fix_timeout_seconds(u64::MAX), u64::MAX / 1000 + 1);
    }

    #[test]
    fn the_examples_behave() {
        let found = fires(super::RULE.failing);
        assert_eq!(found.len(), 1);
        assert!(fires(super::RULE.fixed).is_empty());
        let fix = found[0].fix.as_ref().expect("a fix");
        assert_eq!(
            apply_edits(super::RULE.failing, &fix.edits),
            super::RULE.fixed
        );
    }

    #[test]
    fn other_paths_and_tcp_are_not_compared() {
        let text = "apiVersion: v1\nkind: Pod\nmetadata: { name: p }\nspec:\n  containers:\n    - name: api\n      image: registry.example.com/api:1.0\n      ports: [{ containerPort: 8000 }]\n      readinessProbe: { httpGet: { path: /ready, port: 8000 } }\n      livenessProbe: { tcpSocket: { port: 8000 } }\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: s }\nspec:\n  workload: [{ container: api, healthLatency: 3s, startup: 5s }]\n";
        assert!(fires(text).is_empty());
    }

    #[test]
    fn flow_probe_gets_a_flow_entry() {
        let text = "apiVersion: v1\nkind: Pod\nmetadata: { name: p }\nspec:\n  containers:\n    - name: api\n      image: registry.example.com/api:1.0\n      ports: [{ containerPort: 8001 }]\n      readinessProbe: { grpc: { port: 8001 }, timeoutSeconds: 2 }\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: s }\nspec:\n  workload: [{ container: api, healthLatency: 2s }]\n";
        let found = fires(text);
        assert_eq!(found.len(), 1);
        let fix = found[0].fix.as_ref().expect("a fix");
        let after = apply_edits(text, &fix.edits);
        assert!(after.contains("timeoutSeconds: 4 }"), "{after}");
        assert!(fires(&after).is_empty());
    }
}
