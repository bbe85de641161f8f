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
use crate::manifest::model::{Container, ProbeKind, Workload};
use crate::manifest::scenario::{Program, Traffic};
use crate::manifest::service::{Service, TargetPort};
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
        "For each container of a Deployment, StatefulSet, ReplicaSet, DaemonSet or Pod that declares a `containerPort` (it serves traffic), reports a missing `readinessProbe`. Containers without ports (sidecars, log shippers) and Job or CronJob pods are not checked. When the Scenario sends traffic through a Service that routes to the container (even one that declares no port) and there is no startupProbe, the message gives the simulated consequence — requests refused from the moment kube-proxy sees the pod until the model has loaded — and the finding is an error when the load time is stated (a Scenario `startup` or a `podlab.dev/startup` annotation).",
        "對 Deployment、StatefulSet、ReplicaSet、DaemonSet 或 Pod 中宣告了 `containerPort`（也就是提供服務）的每個 container，回報缺少 `readinessProbe`。沒有 port 的 container（sidecar、日誌收集器）以及 Job、CronJob 的 Pod 不檢查。當 Scenario 經由某個 Service 把流量送到這個 container（即使它沒有宣告 port）、而且沒有 startupProbe 時，訊息會寫出模擬的後果——從 kube-proxy 看到 Pod 到模型載入完成之間的請求都被拒絕——載入時間有寫明（Scenario 的 `startup` 或 `podlab.dev/startup` annotation）時，這項發現是錯誤。"
    ),
    why: long!(
        "Without a readinessProbe, Ready follows Started: with no startupProbe the pod is Ready the moment the container runs, while the server is still loading weights for tens of seconds. The Service sends requests to it and clients get connection refused or 502 on every rollout, scale-up and restart. With a startupProbe the load is covered, but once started the pod stays behind the Service even when its health endpoint stops answering (overloaded batch queue, hung GPU) until the liveness probe restarts it.",
        "沒有 readinessProbe 時，Ready 跟著 Started 走：沒有 startupProbe 的話，container 一跑起來 Pod 就是 Ready，但伺服器還要花幾十秒載入權重。Service 會把請求送過去，每次滾動更新、擴增 replicas、重啟時客戶端都會收到 connection refused 或 502。有 startupProbe 的話載入期間沒問題，但啟動之後，即使健康檢查端點不再回應（批次佇列塞滿、GPU 卡死），Pod 也會一直留在 Service 後面，直到 liveness 探針把它重啟。"
    ),
    failing: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: llm-api }\nspec:\n  selector: { matchLabels: { app: llm-api } }\n  template:\n    metadata: { labels: { app: llm-api } }\n    spec:\n      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.6.3\n          ports: [{ containerPort: 8000 }]\n          resources:\n            limits: { memory: 24Gi, nvidia.com/gpu: 1 }\n          lifecycle:\n            preStop:\n              sleep: { seconds: 10 }\n"),
    fixed: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: llm-api }\nspec:\n  selector: { matchLabels: { app: llm-api } }\n  template:\n    metadata: { labels: { app: llm-api } }\n    spec:\n      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.6.3\n          ports: [{ containerPort: 8000 }]\n          readinessProbe:\n            httpGet: { path: /health, port: 8000 }\n            periodSeconds: 5\n          resources:\n            limits: { memory: 24Gi, nvidia.com/gpu: 1 }\n          lifecycle:\n            preStop:\n              sleep: { seconds: 10 }\n"),
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
        for (index, container) in workload.pod.containers.iter().enumerate() {
            if container.readiness.is_some() {
                continue;
            }
            let program = context.scenario.program(container);
            // The Scenario's traffic reaches a container a Service routes
            // to, whether or not it declares its port.
            let traffic = traffic_through(context, workload, index, &program);
            if !serves(workload, container) && traffic.is_none() {
                continue;
            }
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
                let startup = crate::manifest::duration::duration_text(program.startup.value);
                let (startup, startup_zh) = (startup.en, startup.zh_tw);
                text!(
                    "container \"{name}\" serves on port {port} without a readinessProbe: it is Ready as soon as it runs, and the Service sends it requests during the {startup} the model takes to load (connection refused / 502 on every rollout and restart)",
                    "container「{name}」在 port {port} 提供服務卻沒有 readinessProbe：一跑起來就是 Ready，Service 會在模型載入的那 {startup_zh}內就把請求送進來（每次滾動更新與重啟都會出現 connection refused／502）"
                )
            };
            let mut diagnostic = RULE.diagnostic(container.name_span, message).with_help(text!(
                "`kubectl get pods` shows READY 1/1 right after the container starts while `kubectl logs` still shows the model loading; `kubectl describe pod` lists no `Readiness:` line",
                "`kubectl get pods` 在 container 啟動後立刻顯示 READY 1/1，但 `kubectl logs` 還在載入模型；`kubectl describe pod` 裡沒有 `Readiness:` 這一行"
            ));
            if let Some(fix) = readiness_fix(context.text, container, &program, None) {
                diagnostic = diagnostic.with_fix(fix);
            }
            if let Some((service, traffic)) = traffic {
                diagnostic = under_traffic(
                    context.text,
                    container,
                    &program,
                    service,
                    traffic,
                    diagnostic,
                );
            }
            out.push(diagnostic);
        }
    }
}

/// The Service the Scenario's traffic goes through, when it routes to
/// container `index` of the workload and some of it is refused while the
/// model loads: a rate above zero, a Service of the file that selects the
/// pods and targets the container without publishing not-ready addresses
/// (then a readinessProbe would not help), no startupProbe (which holds
/// Ready back until it succeeds), and a load longer than the propagation.
fn traffic_through<'a>(
    context: &Context<'a>,
    workload: &Workload,
    index: usize,
    program: &Program,
) -> Option<(&'a Service, &'a Traffic)> {
    let traffic = context.scenario.traffic.as_ref()?;
    let name = traffic.service.as_ref()?;
    let service = context
        .services
        .iter()
        .find(|service| service.name == name.value)?;
    let container = workload.pod.containers.get(index)?;
    let reaches = traffic.rate.iter().any(|step| step.milli_rps > 0)
        && !service.publish_not_ready_addresses
        && service.selects(&workload.pod_labels)
        && service.targets_container(&workload.pod, index);
    (reaches && container.startup.is_none() && program.startup.value > traffic.propagation)
        .then_some((service, traffic))
}

/// The simulated consequence (issue 15): when the Scenario sends traffic
/// through a Service that routes to this container, the requests kube-proxy
/// sends it between seeing it Ready (`propagation` after the start: Ready
/// comes with the start, `traffic-autoscaling.md` §4.2, §4.3) and the end of
/// the load are refused, on every start (`sim/traffic.rs`, `NotReady`). A
/// stated load time makes that an error; an assumed one leaves the warning
/// the missing probe earns on its own and names the assumption
/// (`docs/lint-decisions.md`). Without such traffic the finding is
/// unchanged.
fn under_traffic(
    text: &str,
    container: &Container,
    program: &Program,
    service: &Service,
    traffic: &Traffic,
    mut diagnostic: Diagnostic,
) -> Diagnostic {
    let (name, service_name) = (&container.name, &service.name);
    let startup = crate::manifest::duration::duration_text(program.startup.value);
    let propagation = crate::manifest::duration::duration_text(traffic.propagation);
    let (startup, startup_zh) = (startup.en, startup.zh_tw);
    let (propagation, propagation_zh) = (propagation.en, propagation.zh_tw);
    diagnostic.message = text!(
        "container \"{name}\" has no readinessProbe and the Scenario sends traffic to it through Service \"{service_name}\": it is Ready as soon as it runs, so the requests routed to it from {propagation} after the start (when the change reaches kube-proxy) until the model has loaded ({startup}) fail (connection refused; 502 behind an ingress), on every start",
        "container「{name}」沒有 readinessProbe，而 Scenario 經由 Service「{service_name}」把流量送到它：它一跑起來就是 Ready，從啟動後 {propagation_zh}（變更傳到 kube-proxy）到模型載入完成（{startup_zh}）之間，導向它的請求都會失敗（connection refused；經過 ingress 則是 502），每次啟動都一樣"
    );
    diagnostic.help = Some(text!(
        "`podlab simulate` counts these requests as \"not ready\" in its traffic table; in a cluster, `kubectl get endpointslices -l kubernetes.io/service-name={service_name} -o yaml` shows the pod's endpoint `ready: true` while `kubectl logs` still shows the model loading",
        "`podlab simulate` 的流量表把這些請求算在「尚未就緒」；在叢集裡，`kubectl get endpointslices -l kubernetes.io/service-name={service_name} -o yaml` 顯示 Pod 的 endpoint 已經 `ready: true`，但 `kubectl logs` 還在載入模型"
    ));
    if diagnostic.fix.is_none() {
        // The port the Service sends to is where the server listens.
        let target = service
            .ports
            .iter()
            .find_map(|port| match &port.target_port {
                TargetPort::Number(number)
                    if container.ports.is_empty()
                        || container.ports.iter().any(|p| p.number == *number) =>
                {
                    Some(*number)
                }
                TargetPort::Name(port_name) => container
                    .ports
                    .iter()
                    .find(|p| p.name.as_deref() == Some(port_name.as_str()))
                    .map(|p| p.number),
                TargetPort::Number(_) => None,
            });
        diagnostic.fix =
            target.and_then(|port| readiness_fix(text, container, program, Some(port)));
    }
    if program.startup.span.is_some() {
        diagnostic.severity = Severity::Error;
    } else {
        // The missing probe is a fact of the file and stays a warning; only
        // the load time is assumed.
        let severity = diagnostic.severity;
        diagnostic = super::on_assumption(
            diagnostic,
            text!("a {startup} model load", "模型載入要 {startup_zh}"),
            "podlab.dev/startup",
        );
        diagnostic.severity = severity;
    }
    diagnostic
}

/// The handler the new readinessProbe uses (flow YAML) and where it comes from.
fn readiness_handler(
    container: &Container,
    program: &Program,
    service_port: Option<i64>,
) -> Option<(String, ProbeKind)> {
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
    let port = match (
        &program.listen_port.span,
        container.ports.as_slice(),
        service_port,
    ) {
        (Some(_), _, _) => program.listen_port.value,
        (None, [only], _) => only.number,
        // The port a Service sends the Scenario's traffic to.
        (None, _, Some(port)) => port,
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

fn readiness_fix(
    text: &str,
    container: &Container,
    program: &Program,
    service_port: Option<i64>,
) -> Option<Fix> {
    let (handler, source) = readiness_handler(container, program, service_port)?;
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

    const SERVED: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: llm-api }\nspec:\n  selector: { matchLabels: { app: llm-api } }\n  template:\n    metadata: { labels: { app: llm-api } }\n    spec:\n      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.6.3\n          ports: [{ containerPort: 8000 }]\n---\napiVersion: v1\nkind: Service\nmetadata: { name: llm-api }\nspec:\n  selector: { app: llm-api }\n  ports: [{ port: 80, targetPort: 8000 }]\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: s }\nspec:\n  workload: [{ container: vllm, startup: 90s }]\n  traffic: { service: llm-api, rate: [{ at: 0s, rps: 20 }] }\n";

    #[test]
    fn traffic_through_a_service_gives_the_simulated_consequence() {
        use crate::diagnostic::Severity;
        let found = fires(SERVED);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].severity, Severity::Error);
        let message = &found[0].message.en;
        assert!(
            message.contains("the Scenario sends traffic to it through Service \"llm-api\"")
                && message.contains("from 1s after the start (when the change reaches kube-proxy) until the model has loaded (90s)"),
            "{message}"
        );
        assert!(found[0].fix.is_some());
        // The load assumed: the warning the missing probe earns, and the
        // assumption named.
        let assumed = SERVED.replace("{ container: vllm, startup: 90s }", "{ container: vllm }");
        let found = fires(&assumed);
        assert_eq!(found[0].severity, Severity::Warning);
        assert!(
            found[0].message.en.ends_with("(assuming a 40s model load: no Scenario or `podlab.dev/startup` annotation states it)"),
            "{}",
            found[0].message.en
        );
        // A slower kube-proxy than the load: nothing is refused.
        let slow = SERVED.replace("rps: 20 }] }", "rps: 20 }], propagation: 2m }");
        assert!(!fires(&slow)[0]
            .message
            .en
            .contains("Scenario sends traffic"));
    }

    #[test]
    fn a_container_that_declares_no_port_is_checked_when_traffic_reaches_it() {
        // GKE's vLLM Gemma example: no containerPort, the Service sends to 8000.
        let portless = SERVED.replace("          ports: [{ containerPort: 8000 }]\n", "");
        let found = fires(&portless);
        assert_eq!(found.len(), 1);
        assert!(found[0].message.en.contains("through Service \"llm-api\""));
        let fix = found[0].fix.as_ref().expect("a fix on the Service's port");
        let after = apply_edits(&portless, &fix.edits);
        assert!(
            after.contains("readinessProbe:\n            httpGet: { path: /health, port: 8000 }"),
            "{after}"
        );
        assert!(fires(&after).is_empty());
        // Without the traffic it is not a serving container, as before.
        let quiet = portless.replace(
            "  traffic: { service: llm-api, rate: [{ at: 0s, rps: 20 }] }\n",
            "",
        );
        assert!(fires(&quiet).is_empty());
    }

    #[test]
    fn without_traffic_to_a_service_of_the_pods_the_finding_is_unchanged() {
        use crate::diagnostic::Severity;
        let plain = |text: &str| {
            let found = fires(text);
            assert_eq!(found.len(), 1, "{text}");
            assert_eq!(found[0].severity, Severity::Warning);
            assert!(
                found[0]
                    .message
                    .en
                    .ends_with("(connection refused / 502 on every rollout and restart)"),
                "{}",
                found[0].message.en
            );
        };
        // No traffic.
        plain(&SERVED.replace(
            "  traffic: { service: llm-api, rate: [{ at: 0s, rps: 20 }] }\n",
            "",
        ));
        // Traffic to another Service, or to nobody.
        plain(&SERVED.replace("service: llm-api,", "service: other,"));
        plain(&SERVED.replace("rps: 20", "rps: 0"));
        // A Service that selects other pods.
        plain(&SERVED.replace(
            "selector: { app: llm-api }\n  ports",
            "selector: { app: other }\n  ports",
        ));
        // Not-ready addresses published: a readinessProbe would not help.
        plain(&SERVED.replace(
            "  ports: [{ port: 80",
            "  publishNotReadyAddresses: true\n  ports: [{ port: 80",
        ));
        // With a startupProbe the load is covered: the message stays.
        let found = fires(&SERVED.replace(
            "          ports: [{ containerPort: 8000 }]\n",
            "          ports: [{ containerPort: 8000 }]\n          startupProbe: { httpGet: { path: /health, port: 8000 }, failureThreshold: 30 }\n",
        ));
        assert!(found[0]
            .message
            .en
            .contains("Ready follows the startupProbe alone"));
    }

    #[test]
    fn batch_and_portless_containers_are_not_checked() {
        let text = "apiVersion: batch/v1\nkind: Job\nmetadata: { name: eval }\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n        - name: eval\n          image: registry.example.com/eval:1.0\n          ports: [{ containerPort: 8080 }]\n";
        assert!(fires(text).is_empty());
        let text = "apiVersion: v1\nkind: Pod\nmetadata: { name: p }\nspec:\n  containers:\n    - name: log-shipper\n      image: fluent/fluent-bit:3.1\n";
        assert!(fires(text).is_empty());
    }
}
