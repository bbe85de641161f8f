//! PL203 readiness-missing.
//!
//! Models `shared/reference/kubelet.md` §1 ("Gating by `Started`"), §5
//! ("Started and Ready") and §8 (pod conditions), summarised in
//! `shared/reference/kubernetes-behavior.md` ("Startup probe gates the
//! others"): without a readinessProbe the kubelet sets `Ready` as soon as the
//! container has `Started` — at once without a startupProbe, when the
//! startupProbe succeeds with one — so the pod joins the Service's endpoints
//! while the server may still be loading its model, and never leaves them
//! while it runs, even when it stops answering
//! (`kubernetes/kubernetes:pkg/kubelet/prober/prober_manager.go`
//! `UpdatePodStatus`; `pkg/kubelet/status/generate.go`
//! `GenerateContainersReadyCondition`).
//!
//! Only serving containers are checked (`super::serves`: a long-running kind
//! and a declared containerPort), so sidecars without ports and batch pods
//! are left alone.

use super::{edit, handler_yaml, serves, words, Context, Rule};
use super::{long, long_str};
use crate::diagnostic::{Diagnostic, Fix, Severity};
use crate::manifest::duration;
use crate::manifest::model::{Container, ProbeKind};
use crate::manifest::scenario::Program;
use crate::text;

pub static RULE: Rule = Rule {
    id: "PL203",
    name: "readiness-missing",
    severity: Severity::Warning,
    scenario_aware: false,
    summary: words!(
        "a serving container has no readinessProbe, so it gets traffic before the model has loaded",
        "提供服務的 container 沒有 readinessProbe，模型還沒載入完就開始接流量"
    ),
    what: long!(
        "For each container of a Deployment, StatefulSet, ReplicaSet, DaemonSet or Pod that declares a `containerPort` (it serves traffic), reports a missing `readinessProbe`. Containers without ports (sidecars, log shippers) and Job or CronJob pods are not checked.",
        "對 Deployment、StatefulSet、ReplicaSet、DaemonSet 或 Pod 中宣告了 `containerPort`（也就是提供服務）的每個 container，回報缺少 `readinessProbe`。沒有 port 的 container（sidecar、日誌收集器）以及 Job、CronJob 的 Pod 不檢查。"
    ),
    why: long!(
        "Without a readinessProbe, Ready follows Started: with no startupProbe the pod is Ready the moment the container runs, while the server is still loading weights for tens of seconds. The Service sends requests to it and clients get connection refused or 502 on every rollout, scale-up and restart. With a startupProbe the load is covered, but once started the pod stays behind the Service even when its health endpoint stops answering (overloaded batch queue, hung GPU) until the liveness probe restarts it.",
        "沒有 readinessProbe 時，Ready 跟著 Started 走：沒有 startupProbe 的話，container 一跑起來 Pod 就是 Ready，但伺服器還要花幾十秒載入權重。Service 會把請求送過去，每次滾動更新、擴增 replicas、重啟時客戶端都會收到 connection refused 或 502。有 startupProbe 的話載入期間沒問題，但啟動之後，即使健康檢查端點不再回應（批次佇列塞滿、GPU 卡死），Pod 也會一直留在 Service 後面，直到 liveness 探針把它重啟。"
    ),
    failing: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: llm-api }\nspec:\n  selector: { matchLabels: { app: llm-api } }\n  template:\n    metadata: { labels: { app: llm-api } }\n    spec:\n      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.6.3\n          ports: [{ containerPort: 8000 }]\n          resources:\n            limits: { memory: 24Gi, nvidia.com/gpu: 1 }\n          lifecycle:\n            preStop:\n              sleep: { seconds: 10 }\n"),
    fixed: "apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: llm-api }\nspec:\n  selector: { matchLabels: { app: llm-api } }\n  template:\n    metadata: { labels: { app: llm-api } }\n    spec:\n      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.6.3\n          ports: [{ containerPort: 8000 }]\n          readinessProbe:\n            httpGet: { path: /health, port: 8000 }\n            periodSeconds: 5\n          resources:\n            limits: { memory: 24Gi, nvidia.com/gpu: 1 }\n          lifecycle:\n            preStop:\n              sleep: { seconds: 10 }\n",
    fix: long!(
        "Add a readinessProbe that asks the server whether it can take a request — usually the same check as the startupProbe or livenessProbe, with a short `periodSeconds` (5) so the pod joins and leaves the Service quickly. The automatic fix copies the startupProbe's (else the livenessProbe's) handler; without either it probes `httpGet` on the program's health path (the Scenario's `healthPath`, default `/health`) and serving port (the Scenario's `listenPort`, else the container's only port).",
        "加上 readinessProbe，問伺服器「現在能不能接請求」——通常和 startupProbe 或 livenessProbe 的檢查相同，`periodSeconds` 設短一點（5），讓 Pod 快速加入或離開 Service。自動修正會複製 startupProbe（沒有的話複製 livenessProbe）的檢查方式；兩者都沒有時，改用 `httpGet` 探測程式的健康檢查路徑（Scenario 的 `healthPath`，預設 `/health`）與服務 port（Scenario 的 `listenPort`，否則用 container 唯一的 port）。"
    ),
    check: Some(check),
};

/// The readinessProbe period the fix writes.
const FIX_PERIOD_SECONDS: u64 = 5;

fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for workload in context.workloads {
        for container in &workload.pod.containers {
            if !serves(workload, container) || container.readiness.is_some() {
                continue;
            }
            let program = context.scenario.program(container);
            let name = &container.name;
            let port = program.listen_port.value;
            let message = if container.startup.is_some() && container.liveness.is_none() {
                text!(
                    "container \"{name}\" serves on port {port} without a readinessProbe: Ready follows the startupProbe alone, so once started the pod stays behind the Service even when the server stops answering, for as long as it runs",
                    "container「{name}」在 port {port} 提供服務卻沒有 readinessProbe：Ready 只看 startupProbe，啟動後即使伺服器不再回應，Pod 也會一直留在 Service 後面"
                )
            } else if container.startup.is_some() {
                text!(
                    "container \"{name}\" serves on port {port} without a readinessProbe: Ready follows the startupProbe alone, so once started the pod stays behind the Service even when the server stops answering, until the liveness probe restarts it",
                    "container「{name}」在 port {port} 提供服務卻沒有 readinessProbe：Ready 只看 startupProbe，啟動後即使伺服器不再回應，Pod 仍留在 Service 後面，直到 liveness 探針重啟它"
                )
            } else {
                let startup = duration::format(program.startup.value);
                text!(
                    "container \"{name}\" serves on port {port} without a readinessProbe: it is Ready as soon as it runs, and the Service sends it requests during the {startup} the model takes to load (connection refused / 502 on every rollout and restart)",
                    "container「{name}」在 port {port} 提供服務卻沒有 readinessProbe：一跑起來就是 Ready，Service 會在模型載入的那 {startup} 內就把請求送進來（每次滾動更新與重啟都會出現 connection refused／502）"
                )
            };
            let mut diagnostic = RULE.diagnostic(container.name_span, message).with_help(text!(
                "`kubectl get pods` shows READY 1/1 right after the container starts while `kubectl logs` still shows the model loading; `kubectl describe pod` lists no `Readiness:` line",
                "`kubectl get pods` 在 container 啟動後立刻顯示 READY 1/1，但 `kubectl logs` 還在載入模型；`kubectl describe pod` 裡沒有 `Readiness:` 這一行"
            ));
            if let Some(fix) = readiness_fix(context.text, container, &program) {
                diagnostic = diagnostic.with_fix(fix);
            }
            out.push(diagnostic);
        }
    }
}

/// The handler the new readinessProbe uses (flow YAML) and where it comes from.
fn readiness_handler(container: &Container, program: &Program) -> Option<(String, ProbeKind)> {
    for probe in [&container.startup, &container.liveness]
        .into_iter()
        .flatten()
    {
        if let Some(handler) = handler_yaml(&probe.handler) {
            return Some((handler, probe.kind));
        }
    }
    // No probe to copy: the program's health endpoint, when the port is not
    // a guess between several declared ports.
    let port = match (&program.listen_port.span, container.ports.as_slice()) {
        (Some(_), _) => program.listen_port.value,
        (None, [only]) => only.number,
        _ => return None,
    };
    if !(1..=65535).contains(&port) {
        return None;
    }
    let path = edit::yaml_scalar(&program.health_path.value);
    Some((
        format!("httpGet: {{ path: {path}, port: {port} }}"),
        ProbeKind::Readiness,
    ))
}

/// The start of the key that follows `ports:`, where a probe reads well.
fn after_ports(container: &Container) -> Option<usize> {
    let ports = container.keys.iter().position(|(key, _)| key == "ports")?;
    container.keys.get(ports + 1).map(|(_, span)| span.start)
}

fn readiness_fix(text: &str, container: &Container, program: &Program) -> Option<Fix> {
    let (handler, source) = readiness_handler(container, program)?;
    let at = container
        .liveness
        .as_ref()
        .or(container.startup.as_ref())
        .map(|probe| probe.key_span.start)
        .or_else(|| after_ports(container))
        .or_else(|| container.insertion_point())?;
    let block = [
        "readinessProbe:".to_string(),
        format!("  {handler}"),
        format!("  periodSeconds: {FIX_PERIOD_SECONDS}"),
    ];
    let flow = [format!(
        "readinessProbe: {{ {handler}, periodSeconds: {FIX_PERIOD_SECONDS} }}"
    )];
    let edit =
        edit::insert_entry(text, at, &block).or_else(|| edit::insert_entry(text, at, &flow))?;
    let description = match source {
        ProbeKind::Readiness => text!(
            "add a readinessProbe on the program's health endpoint ({handler}, every {FIX_PERIOD_SECONDS}s)",
            "加上探測程式健康檢查端點的 readinessProbe（{handler}，每 {FIX_PERIOD_SECONDS} 秒）"
        ),
        kind => {
            let field = kind.field();
            text!(
                "add a readinessProbe with the {field}'s check ({handler}, every {FIX_PERIOD_SECONDS}s)",
                "加上檢查方式與 {field} 相同的 readinessProbe（{handler}，每 {FIX_PERIOD_SECONDS} 秒）"
            )
        }
    };
    Some(Fix {
        description,
        edits: vec![edit],
    })
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::apply_edits;
    use crate::lint::lint;

    fn fires(text: &str) -> Vec<crate::diagnostic::Diagnostic> {
        lint(text)
            .diagnostics
            .into_iter()
            .filter(|d| d.rule == "PL203")
            .collect()
    }

    fn fixed(text: &str) -> String {
        let found = fires(text);
        let fix = found[0].fix.as_ref().expect("a fix");
        let after = apply_edits(text, &fix.edits);
        assert!(fires(&after).is_empty(), "{after}");
        assert!(
            !lint(&after)
                .diagnostics
                .iter()
                .any(|d| d.rule == "PL001" || d.rule == "PL002"),
            "{after}"
        );
        after
    }

    #[test]
    fn the_examples_behave() {
        assert_eq!(fires(super::RULE.failing).len(), 1);
        assert!(fires(super::RULE.fixed).is_empty());
        assert_eq!(fixed(super::RULE.failing), super::RULE.fixed);
    }

    #[test]
    fn copies_the_startup_probe_in_flow_style() {
        let text = "apiVersion: v1\nkind: Pod\nmetadata: { name: tgi }\nspec:\n  containers: [{ name: tgi, image: \"ghcr.io/huggingface/text-generation-inference:2.4.0\", ports: [{ containerPort: 80 }], startupProbe: { tcpSocket: { port: 80 }, failureThreshold: 30 } }]\n";
        let after = fixed(text);
        assert!(
            after.contains(
                "readinessProbe: { tcpSocket: { port: 80 }, periodSeconds: 5 }, startupProbe"
            ),
            "{after}"
        );
    }

    #[test]
    fn no_fix_when_the_port_is_a_guess() {
        let text = "apiVersion: v1\nkind: Pod\nmetadata: { name: triton }\nspec:\n  containers:\n    - name: triton\n      image: nvcr.io/nvidia/tritonserver:24.08-py3\n      ports: [{ containerPort: 8000 }, { containerPort: 8001 }]\n";
        let found = fires(text);
        assert_eq!(found.len(), 1);
        assert!(found[0].fix.is_none());
    }

    #[test]
    fn batch_and_portless_containers_are_not_checked() {
        let text = "apiVersion: batch/v1\nkind: Job\nmetadata: { name: eval }\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n        - name: eval\n          image: registry.example.com/eval:1.0\n          ports: [{ containerPort: 8080 }]\n";
        assert!(fires(text).is_empty());
        let text = "apiVersion: v1\nkind: Pod\nmetadata: { name: p }\nspec:\n  containers:\n    - name: log-shipper\n      image: fluent/fluent-bit:3.1\n";
        assert!(fires(text).is_empty());
    }
}
