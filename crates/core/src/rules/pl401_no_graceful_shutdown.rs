//! PL401 no-graceful-shutdown.
//!
//! Models the pod termination sequence: when a pod is deleted (rollout,
//! scale-down, node drain) the kubelet starts `killContainer` — `Killing`
//! event, then the preStop hook, then SIGTERM with what is left of the grace
//! period (`shared/reference/kubelet.md` §3; `kubernetes/kubernetes:
//! pkg/kubelet/kuberuntime/kuberuntime_container.go` `killContainer`,
//! `executePreStopHook`) — while, in parallel, the EndpointSlice controller
//! marks the endpoint terminating and kube-proxy and ingress controllers
//! reprogram their routes (`kubernetes/website:content/en/docs/concepts/
//! workloads/pods/pod-lifecycle.md` "Termination of Pods";
//! `content/en/docs/tutorials/services/pods-and-endpoint-termination-flow.md`).
//! Without a preStop hook SIGTERM arrives at once, so requests still routed
//! to the pod meet a server that has stopped accepting them. A preStop
//! `sleep` holds SIGTERM back until the routes have caught up.
//!
//! The fix uses the `sleep` lifecycle action (no `sleep` binary needed in the
//! image): feature gate `PodLifecycleSleepAction`, alpha 1.29, beta 1.30, GA
//! and locked on in 1.34 (`kubernetes/kubernetes:pkg/features/
//! kube_features.go`; KEP-3960).

use super::{edit, serves, words, Context, Rule};
use super::{long, long_str};
use crate::diagnostic::{Diagnostic, Fix, Severity, TextEdit};
use crate::manifest::duration::Millis;
use crate::manifest::model::{Container, Workload};
use crate::manifest::service::Service;
use crate::span::Span;
use crate::text;

pub static RULE: Rule = Rule {
    id: "PL401",
    name: "no-graceful-shutdown",
    severity: Severity::Warning,
    scenario_aware: false,
    summary: words!(
        "a serving container has no preStop hook, so rollouts cut requests that are still routed to it",
        "提供服務的 container 沒有 preStop hook（沒有優雅關機），滾動更新時仍被導向它的請求會被切斷"
    ),
    what: long!(
        "For each container of a Deployment, StatefulSet, ReplicaSet, DaemonSet or Pod that declares a `containerPort` (it serves traffic), reports a missing `lifecycle.preStop`. Job and CronJob pods are not checked, nor containers without ports unless a Service of the file routes to them (its `targetPort` says where they serve). When a Service of the file routes to the container, the message names it and the window in which its requests fail: the time kube-proxy takes to drop the endpoint (about 1 s; the Scenario's `traffic.propagation`), longer behind an ingress; behind a headless Service (`clusterIP: None`), as long as clients hold the pod's address from DNS.",
        "對 Deployment、StatefulSet、ReplicaSet、DaemonSet 或 Pod 中宣告了 `containerPort`（也就是提供服務）的每個 container，回報缺少 `lifecycle.preStop`。Job、CronJob 的 Pod 不檢查；沒有 port 的 container 也不檢查，除非檔案裡有 Service 把流量導向它（Service 的 `targetPort` 已經說明它在哪裡提供服務）。檔案裡有 Service 把流量導向這個 container 時，訊息會點名這個 Service，並說明請求會失敗的時間窗：kube-proxy 移除 endpoint 所需的時間（大約 1 秒；Scenario 的 `traffic.propagation`），經過 ingress 還會更久；如果是 headless Service（`clusterIP: None`），則是客戶端從 DNS 拿到的 Pod 位址還留著的期間。"
    ),
    why: long!(
        "When a pod is deleted, the kubelet's SIGTERM and the removal of the pod from the Service's endpoints happen at the same time; kube-proxy and the ingress take a few more seconds to stop routing to it. Without a preStop hook there is no graceful shutdown: the server starts shutting down immediately and refuses the requests that still arrive, and an LLM request that was seconds into generating is cut off. Every rollout and every scale-down of the GPU service turns into a burst of 502s.",
        "Pod 被刪除時，kubelet 送出 SIGTERM 和 Pod 從 Service endpoints 移除是同時發生的；kube-proxy 和 ingress 還要再過幾秒才會停止把流量導過來。沒有 preStop hook 就談不上優雅關機：伺服器立刻開始關機，拒絕那些還在送進來的請求，已經生成了好幾秒的 LLM 請求也會被切斷。每次滾動更新、每次縮減 GPU 服務的 replicas，都會變成一波 502。"
    ),
    failing: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: llm-api }\nspec:\n  replicas: 2\n  selector: { matchLabels: { app: llm-api } }\n  template:\n    metadata: { labels: { app: llm-api } }\n    spec:\n      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.6.3\n          ports: [{ containerPort: 8000 }]\n          readinessProbe:\n            httpGet: { path: /health, port: 8000 }\n            periodSeconds: 5\n"),
    fixed: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: llm-api }\nspec:\n  replicas: 2\n  selector: { matchLabels: { app: llm-api } }\n  template:\n    metadata: { labels: { app: llm-api } }\n    spec:\n      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.6.3\n          ports: [{ containerPort: 8000 }]\n          lifecycle:\n            preStop:\n              sleep: { seconds: 10 }\n          readinessProbe:\n            httpGet: { path: /health, port: 8000 }\n            periodSeconds: 5\n"),
    fix: long!(
        "Add `lifecycle: { preStop: { sleep: { seconds: 10 } } }`: the container keeps serving for 10 more seconds while the endpoints, kube-proxy and the ingress stop routing to it, then gets SIGTERM and finishes its in-flight requests. The `sleep` action (GA in Kubernetes 1.34) needs no shell in the image; on older clusters use `exec: { command: [\"sleep\", \"10\"] }`. The sleep counts against `terminationGracePeriodSeconds` (default 30): keep the grace period longer than the sleep plus the server's own shutdown time (PL402).",
        "加上 `lifecycle: { preStop: { sleep: { seconds: 10 } } }`：container 會多服務 10 秒，讓 endpoints、kube-proxy 和 ingress 停止導流，之後才收到 SIGTERM 並把處理中的請求做完。`sleep` 動作（Kubernetes 1.34 GA）不需要映像裡有 shell；較舊的叢集請改用 `exec: { command: [\"sleep\", \"10\"] }`。sleep 的時間會算進 `terminationGracePeriodSeconds`（預設 30）：寬限期要比 sleep 加上伺服器自己的關機時間更長（PL402）。"
    ),
    check: Some(check),
};

/// The preStop sleep the fix writes.
const FIX_SLEEP_SECONDS: u64 = 10;

fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for workload in context.workloads {
        for (index, container) in workload.pod.containers.iter().enumerate() {
            if container.pre_stop.is_some() {
                continue;
            }
            // A Service of the file routing to the container makes it a
            // serving one, whether or not it declares its port.
            let service = routing_service(context, workload, index);
            if !serves(workload, container) && service.is_none() {
                continue;
            }
            let name = &container.name;
            let kind = workload.kind.as_str();
            let port = container.ports.first().map_or(0, |port| port.number);
            let mut diagnostic = RULE
                .diagnostic(
                    container.name_span,
                    text!(
                        "container \"{name}\" of {kind} serves on port {port} without a preStop hook: on every rollout or scale-down it gets SIGTERM while the Service is still routing requests to it, and in-flight requests are cut",
                        "{kind} 的 container「{name}」在 port {port} 提供服務卻沒有 preStop hook：每次滾動更新或縮減 replicas 時，Service 還在把請求導過來它就收到 SIGTERM，處理中的請求會被切斷"
                    ),
                )
                .with_help(text!(
                    "watch `kubectl get endpointslices -w` during `kubectl rollout restart`: the old pod's address is still listed (terminating) for a moment after the `Killing` event in `kubectl describe pod`",
                    "在 `kubectl rollout restart` 時執行 `kubectl get endpointslices -w`：`kubectl describe pod` 出現 `Killing` 事件之後，舊 Pod 的位址還會（以 terminating 狀態）留在清單上一小段時間"
                ));
            if let Some(edit) = pre_stop_edit(context.text, container) {
                diagnostic = diagnostic.with_fix(Fix {
                    description: text!(
                        "add a preStop hook that sleeps {FIX_SLEEP_SECONDS}s before SIGTERM",
                        "加上在 SIGTERM 之前先 sleep {FIX_SLEEP_SECONDS} 秒的 preStop hook"
                    ),
                    edits: vec![edit],
                });
            }
            if let Some((service, propagation)) = service {
                diagnostic = behind_service(service, propagation, workload, container, diagnostic);
            }
            out.push(diagnostic);
        }
    }
}

/// The Service routing to container `index` of the workload (a long-running
/// kind): the one the Scenario's traffic names, with its propagation, else
/// the first of the file that selects the pods and targets the container
/// (one with a cluster IP first), with kube-proxy's default. A container
/// that declares no port is routed to only through a Service port.
fn routing_service<'a>(
    context: &Context<'a>,
    workload: &Workload,
    index: usize,
) -> Option<(&'a Service, Millis)> {
    if workload.kind.is_batch() {
        return None;
    }
    let declares = workload
        .pod
        .containers
        .get(index)
        .is_some_and(|container| !container.ports.is_empty());
    let routes = |service: &&Service| {
        (declares || !service.ports.is_empty())
            && service.selects(&workload.pod_labels)
            && service.targets_container(&workload.pod, index)
    };
    let traffic = context.scenario.traffic.as_ref();
    let through_traffic = traffic
        .and_then(|traffic| traffic.service.as_ref())
        .and_then(|name| {
            context
                .services
                .iter()
                .find(|service| service.name == name.value)
        })
        .filter(routes);
    match (through_traffic, traffic) {
        (Some(service), Some(traffic)) => Some((service, traffic.propagation)),
        // Clients use a Service with a cluster IP rather than the headless
        // one a StatefulSet names its pods by, when both select them.
        _ => context
            .services
            .iter()
            .filter(routes)
            .find(|service| !service.headless)
            .or_else(|| context.services.iter().find(routes))
            .map(|service| (service, DEFAULT_PROPAGATION_MS)),
    }
}

/// The consequence when a Service of the file routes to the container
/// (issue 15; `shared/reference/traffic-autoscaling.md` §5.1, §5.2): the
/// endpoint turns not-ready when the pod is deleted, but kube-proxy sees it
/// only `propagation` later (its 1 s minimum sync; the Scenario's
/// `traffic.propagation` when its traffic goes through this Service) and an
/// ingress later still, while without a preStop sleep SIGTERM comes at once:
/// the requests routed in between meet a server that no longer accepts
/// (`sim/traffic.rs`, `Terminating`). A headless Service (`clusterIP:
/// None`) has no kube-proxy rules: its clients hold the pod's address from
/// DNS, for as long as their answer is cached.
fn behind_service(
    service: &Service,
    propagation: Millis,
    workload: &Workload,
    container: &Container,
    mut diagnostic: Diagnostic,
) -> Diagnostic {
    let propagation = crate::manifest::duration::format(propagation);
    let (name, service_name, kind) = (&container.name, &service.name, workload.kind.as_str());
    // The declared port, else the one the Service sends to.
    let port = container
        .ports
        .first()
        .map(|port| port.number.to_string())
        .or_else(|| {
            service
                .ports
                .first()
                .map(|port| port.target_port.to_string())
        })
        .unwrap_or_default();
    diagnostic.message = if service.headless {
        // No kube-proxy rules: clients connect to the addresses the
        // Service's DNS gave them, for as long as they hold the answer.
        text!(
            "container \"{name}\" of {kind} serves on port {port} behind headless Service \"{service_name}\" without a preStop hook: when a pod is deleted (rollout, scale-down) it gets SIGTERM at once, while clients that found it through the Service's DNS keep connecting to its address for as long as they hold the answer (the DNS caches and the client's own), so those requests meet a server that no longer accepts (connection refused), and in-flight requests are cut",
            "{kind} 的 container「{name}」在 port {port} 經由 headless Service「{service_name}」提供服務卻沒有 preStop hook：Pod 被刪除（滾動更新、縮減 replicas）時它立刻收到 SIGTERM，但透過 Service 的 DNS 找到它的客戶端，在 DNS 答案還留著的期間（DNS 快取和客戶端自己的快取）都會繼續連到它的位址，這些請求會碰到已經不再接受連線的伺服器（connection refused），處理中的請求也會被切斷"
        )
    } else {
        text!(
            "container \"{name}\" of {kind} serves on port {port} behind Service \"{service_name}\" without a preStop hook: when a pod is deleted (rollout, scale-down) it gets SIGTERM at once, while kube-proxy needs about {propagation} to stop routing to it (an ingress longer), so the requests routed in that window meet a server that no longer accepts (connection refused; 502 behind an ingress), and in-flight requests are cut",
            "{kind} 的 container「{name}」在 port {port} 經由 Service「{service_name}」提供服務卻沒有 preStop hook：Pod 被刪除（滾動更新、縮減 replicas）時它立刻收到 SIGTERM，但 kube-proxy 要大約 {propagation} 才會停止把請求導過來（ingress 更久），這段時間導向它的請求會碰到已經不再接受連線的伺服器（connection refused；經過 ingress 則是 502），處理中的請求也會被切斷"
        )
    };
    diagnostic
}

/// kube-proxy's `--iptables-min-sync-period` (traffic-autoscaling.md §4.3),
/// the Scenario's default `traffic.propagation`.
const DEFAULT_PROPAGATION_MS: u64 = 1000;

/// Inserts the preStop hook: a whole `lifecycle` entry when there is none,
/// else a `preStop` entry inside the written `lifecycle` mapping.
fn pre_stop_edit(text: &str, container: &Container) -> Option<TextEdit> {
    let sleep = format!("sleep: {{ seconds: {FIX_SLEEP_SECONDS} }}");
    match container.key("lifecycle") {
        None => {
            let at = after_anchor(container).or_else(|| container.insertion_point())?;
            let block = [
                "lifecycle:".to_string(),
                "  preStop:".to_string(),
                format!("    {sleep}"),
            ];
            let flow = [format!("lifecycle: {{ preStop: {{ {sleep} }} }}")];
            edit::insert_entry(text, at, &block).or_else(|| edit::insert_entry(text, at, &flow))
        }
        Some(key) => {
            let at = first_key_of_value(text, key, container.span)?;
            let block = ["preStop:".to_string(), format!("  {sleep}")];
            let flow = [format!("preStop: {{ {sleep} }}")];
            edit::insert_entry(text, at, &block).or_else(|| edit::insert_entry(text, at, &flow))
        }
    }
}

/// Where a new `lifecycle` reads well: before the key that follows the last
/// of `ports`, `resources` or a probe (when one follows).
fn after_anchor(container: &Container) -> Option<usize> {
    const ANCHORS: &[&str] = &[
        "ports",
        "resources",
        "startupProbe",
        "readinessProbe",
        "livenessProbe",
    ];
    let keys = &container.keys;
    (0..keys.len().saturating_sub(1))
        .rev()
        .find(|&i| {
            keys.get(i)
                .is_some_and(|(key, _)| ANCHORS.contains(&key.as_str()))
        })
        .and_then(|i| keys.get(i + 1))
        .map(|(_, span)| span.start)
}

/// Where the first key of the mapping written after `key:` starts, when that
/// value is a non-empty mapping: past `{` for a flow mapping; the next
/// content line, indented deeper than `key`, for a block mapping. `None` for
/// anything else (an empty or null value, a comment-only value, a tag).
fn first_key_of_value(text: &str, key: Span, container: Span) -> Option<usize> {
    let end = container.end.min(text.len());
    let after_key = text.get(key.end..end)?;
    let colon = after_key
        .trim_start_matches([' ', '\t'])
        .strip_prefix(':')?;
    let value_start = end - colon.len();
    let rest_of_line = colon.split('\n').next().unwrap_or_default();
    let inline = rest_of_line.trim_start_matches([' ', '\t']);
    if inline.starts_with('{') {
        let open = value_start + (rest_of_line.len() - inline.len());
        return edit::first_key(text, Span::new(open, end));
    }
    if !(inline.is_empty() || inline.starts_with('#')) {
        return None;
    }
    // A block mapping: the next line with content, deeper than the key.
    let key_column = key.start - text.get(..key.start)?.rfind('\n').map_or(0, |at| at + 1);
    let mut line_start = value_start + rest_of_line.len() + 1;
    while line_start < end {
        let line = text
            .get(line_start..end)?
            .split('\n')
            .next()
            .unwrap_or_default();
        let content = line.trim_start_matches(' ');
        if content.is_empty() || content.starts_with('#') {
            line_start += line.len() + 1;
            continue;
        }
        let column = line.len() - content.len();
        return (column > key_column && !content.starts_with('-')).then_some(line_start + column);
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::apply_edits;
    use crate::lint::lint;

    fn fires(text: &str) -> Vec<crate::diagnostic::Diagnostic> {
        lint(text)
            .diagnostics
            .into_iter()
            .filter(|d| d.rule == "PL401")
            .collect()
    }

    fn fixed(text: &str) -> String {
        let found = fires(text);
        assert_eq!(found.len(), 1, "{text}");
        let fix = found[0].fix.as_ref().expect("a fix");
        let after = apply_edits(text, &fix.edits);
        assert!(fires(&after).is_empty(), "{after}");
        assert!(
            !lint(&after)
                .diagnostics
                .iter()
                .any(|d| d.rule == "PL001" || d.rule == "PL002" || d.rule == "PL003"),
            "{after}"
        );
        after
    }

    #[test]
    fn the_examples_behave() {
        assert_eq!(fixed(super::RULE.failing), super::RULE.fixed);
        assert!(fires(super::RULE.fixed).is_empty());
    }

    #[test]
    fn flow_containers_get_a_flow_lifecycle() {
        let text = "apiVersion: v1\nkind: Pod\nmetadata: { name: p }\nspec:\n  containers: [{ name: api, image: \"vllm/vllm-openai:v0.6.3\", ports: [{ containerPort: 8000 }] }]\n";
        let after = fixed(text);
        assert!(
            after.contains("lifecycle: { preStop: { sleep: { seconds: 10 } } }, image"),
            "{after}"
        );
    }

    #[test]
    fn pre_stop_goes_into_an_existing_lifecycle() {
        let block = "apiVersion: v1\nkind: Pod\nmetadata: { name: p }\nspec:\n  containers:\n    - name: api\n      image: vllm/vllm-openai:v0.6.3\n      ports: [{ containerPort: 8000 }]\n      lifecycle:\n        # warm the cache\n        postStart:\n          exec: { command: [\"/warmup.sh\"] }\n";
        let after = fixed(block);
        assert!(
            after.contains("      lifecycle:\n        # warm the cache\n        preStop:\n          sleep: { seconds: 10 }\n        postStart:"),
            "{after}"
        );
        let flow = "apiVersion: v1\nkind: Pod\nmetadata: { name: p }\nspec:\n  containers:\n    - name: api\n      image: vllm/vllm-openai:v0.6.3\n      ports: [{ containerPort: 8000 }]\n      lifecycle: { postStart: { exec: { command: [\"/warmup.sh\"] } } }\n";
        let after = fixed(flow);
        assert!(
            after.contains("lifecycle: { preStop: { sleep: { seconds: 10 } }, postStart"),
            "{after}"
        );
    }

    #[test]
    fn no_fix_into_an_empty_lifecycle() {
        let text = "apiVersion: v1\nkind: Pod\nmetadata: { name: p }\nspec:\n  containers:\n    - name: api\n      image: vllm/vllm-openai:v0.6.3\n      lifecycle:\n      ports: [{ containerPort: 8000 }]\n";
        let found = fires(text);
        assert_eq!(found.len(), 1);
        assert!(found[0].fix.is_none());
    }

    #[test]
    fn a_service_of_the_pods_is_named_with_the_propagation_window() {
        let service = "---\napiVersion: v1\nkind: Service\nmetadata: { name: llm-api }\nspec:\n  selector: { app: llm-api }\n  ports: [{ port: 80, targetPort: 8000 }]\n";
        let text = format!("{}{service}", super::RULE.failing);
        let found = fires(&text);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].severity, crate::diagnostic::Severity::Warning);
        let message = &found[0].message.en;
        assert!(
            message.contains("behind Service \"llm-api\" without a preStop hook")
                && message.contains("kube-proxy needs about 1s to stop routing to it"),
            "{message}"
        );
        assert!(found[0].fix.is_some());
        // The Scenario's traffic through it states the propagation.
        let traffic = "---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: s }\nspec:\n  traffic: { service: llm-api, rate: [{ at: 0s, rps: 20 }], propagation: 3s }\n";
        let found = fires(&format!("{text}{traffic}"));
        assert!(
            found[0].message.en.contains("about 3s"),
            "{}",
            found[0].message.en
        );
        // Headless: no kube-proxy rules, the clients' DNS answers.
        let headless = text.replace(
            "spec:\n  selector: { app: llm-api }\n  ports",
            "spec:\n  clusterIP: None\n  selector: { app: llm-api }\n  ports",
        );
        let message = &fires(&headless)[0].message.en;
        assert!(
            message.contains("behind headless Service \"llm-api\"")
                && !message.contains("kube-proxy"),
            "{message}"
        );
        // A container that declares no port, behind a Service: checked.
        let portless = text.replace("          ports: [{ containerPort: 8000 }]\n", "");
        let found = fires(&portless);
        assert_eq!(found.len(), 1, "{portless}");
        assert!(found[0]
            .message
            .en
            .contains("serves on port 8000 behind Service"));
        // Without the Service it is not a serving container, as before.
        assert!(fires(
            &super::RULE
                .failing
                .replace("          ports: [{ containerPort: 8000 }]\n", "")
        )
        .is_empty());
        // A Service of other pods: the message of old.
        let other = text.replace(
            "selector: { app: llm-api }\n  ports",
            "selector: { app: other }\n  ports",
        );
        assert!(fires(&other)[0]
            .message
            .en
            .contains("while the Service is still routing requests to it"));
    }

    #[test]
    fn batch_pods_and_portless_sidecars_are_not_checked() {
        let text = "apiVersion: batch/v1\nkind: CronJob\nmetadata: { name: nightly }\nspec:\n  schedule: \"0 2 * * *\"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: OnFailure\n          containers:\n            - name: batch\n              image: registry.example.com/batch-infer:1.0\n              ports: [{ containerPort: 8080 }]\n";
        assert!(fires(text).is_empty());
        let text = "apiVersion: v1\nkind: Pod\nmetadata: { name: p }\nspec:\n  containers:\n    - name: log-shipper\n      image: fluent/fluent-bit:3.1\n";
        assert!(fires(text).is_empty());
    }
}
