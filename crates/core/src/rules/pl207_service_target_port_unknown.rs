//! PL207 service-target-port-unknown.
//!
//! A Service port forwards to its `targetPort` on each selected pod (by
//! default the same number as `port`). The EndpointSlice controller resolves
//! it per pod (`kubernetes/kubernetes:pkg/api/v1/pod/util.go` `FindPort`,
//! `service::named_port`):
//!
//! - **A name** is looked up among the `ports` of the app containers and of
//!   sidecars (init containers with `restartPolicy: Always`). When no
//!   container declares it, `getEndpointPorts`
//!   (`staging/src/k8s.io/endpointslice/utils.go`) skips that port for the
//!   pod: its endpoint has no such port, and none of the Service port's
//!   connections reach it. With no selected pod of the file declaring it,
//!   the Service port reaches nothing: an error. When another selected
//!   workload does declare it, these pods only miss that port's traffic: a
//!   warning.
//! - **A number** is used as it is: `FindPort` returns it without looking
//!   at the pod, and declaring a port is optional (the `ports` list is
//!   informational; a process listening on another port is reached all the
//!   same). So a number is judged only when the pod declares ports and none
//!   of them is that number, the number appears in no container's command,
//!   args or env (`--port=8080`: the same test as PL204's), and no Scenario
//!   entry states it as a container's `listenPort`; then it is a warning,
//!   since the server may listen there anyway.
//!
//! Only the workloads of the file that the Service selects are looked at;
//! the protocol, which `FindPort` also compares for a name, is not
//! modelled.

use super::{edit, words, Context, Rule};
use super::{long, long_str};
use crate::diagnostic::{Diagnostic, Fix, Severity, TextEdit};
use crate::manifest::model::{Container, ContainerPort, Workload};
use crate::manifest::schema::closest;
use crate::manifest::service::{named_port, Service, ServicePort, TargetPort};
use crate::text;

pub static RULE: Rule = Rule {
    id: "PL207",
    name: "service-target-port-unknown",
    severity: Severity::Error,
    scenario_aware: true,
    summary: words!(
        "a Service's targetPort names a port no selected container declares, or a number other than the ports they declare",
        "Service 的 targetPort 指向被選中的 container 沒有宣告的具名 port，或不在它們宣告的 port 裡的數字"
    ),
    what: long!(
        "For each port of a Service and each workload of the file whose pods it selects: a named `targetPort` must be the `name` of a port of one of the pod's containers (or of a sidecar, an init container with `restartPolicy: Always`) — an error when no selected workload declares it, a warning when another one does. A numeric `targetPort` (by default the Service's `port`) is reported, as a warning, only when the pod declares ports, none of them is that number, the number appears in no container's command, args or env, and no Scenario entry states it as the `listenPort`: Kubernetes does not require a container to declare the port it listens on, so a pod that declares no ports is never judged.",
        "對 Service 的每個 port，以及檔案裡被它選中的每個 workload：具名的 `targetPort` 必須是 Pod 某個 container（或 sidecar，也就是 `restartPolicy: Always` 的 init container）的某個 port 的 `name`——沒有任何被選中的 workload 宣告時是錯誤，另一個 workload 有宣告時是警告。數字的 `targetPort`（預設等於 Service 的 `port`）只有在 Pod 有宣告 port、其中沒有這個數字、這個數字也沒出現在任何 container 的 command、args 或 env 裡，而且沒有 Scenario 把它寫成 `listenPort` 時，才以警告回報：Kubernetes 不要求 container 宣告它監聽的 port，所以沒有宣告任何 port 的 Pod 一律不檢查。"
    ),
    why: long!(
        "Serving images listen on different ports (vLLM 8000, TGI 80, Triton 8000/8001/8002) and name them differently, and a Service copied from another model keeps the old `targetPort`. A name that no container declares is resolved per pod by the EndpointSlice controller, which quietly leaves the port out: the pods are Running and Ready, the Service exists, and every request through it is refused. A number nobody listens on fails the same way, connection refused for every client while the GPU pods sit idle.",
        "各家推論服務映像監聽的 port 不同（vLLM 8000、TGI 80、Triton 8000/8001/8002），命名也不同，從別的模型抄來的 Service 常留著舊的 `targetPort`。沒有任何 container 宣告的名稱，EndpointSlice controller 逐一解析 Pod 時會悄悄把這個 port 略過：Pod 是 Running 也是 Ready，Service 也存在，但經過它的每個請求都被拒絕。打到沒人監聽的數字 port 也一樣：每個客戶端都收到 connection refused，GPU Pod 卻閒在那裡。"
    ),
    failing: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: llm-api }\nspec:\n  selector: { matchLabels: { app: llm-api } }\n  template:\n    metadata: { labels: { app: llm-api } }\n    spec:\n      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.6.3\n          ports: [{ name: http, containerPort: 8000 }]\n---\napiVersion: v1\nkind: Service\nmetadata: { name: llm-api }\nspec:\n  selector: { app: llm-api }\n  ports: [{ port: 80, targetPort: htpp }]\n"),
    fixed: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: llm-api }\nspec:\n  selector: { matchLabels: { app: llm-api } }\n  template:\n    metadata: { labels: { app: llm-api } }\n    spec:\n      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.6.3\n          ports: [{ name: http, containerPort: 8000 }]\n---\napiVersion: v1\nkind: Service\nmetadata: { name: llm-api }\nspec:\n  selector: { app: llm-api }\n  ports: [{ port: 80, targetPort: http }]\n"),
    fix: long!(
        "Point `targetPort` at the port the server listens on: a name declared in the container's `ports`, or the number. The automatic fix writes the declared name closest to a misspelt one; for a number, the declared port with the same name as the Service port (`name: metrics` on both); or, when the pod declares a single port, that port (its name, else its number). A missing `targetPort` is added.",
        "把 `targetPort` 指向伺服器實際監聽的 port：container `ports` 裡宣告的名稱，或直接寫數字。自動修正會寫入和拼錯的名稱最接近的已宣告名稱；數字的話，寫入和 Service port 同名的已宣告 port（兩邊都是 `name: metrics`）；Pod 只宣告一個 port 時，則寫入那個 port（有名稱就用名稱，否則用數字）。沒寫 `targetPort` 時會補上。"
    ),
    check: Some(check),
};

/// What a Service port misses on one workload's pods.
enum Miss<'a> {
    /// A named targetPort no container declares; `elsewhere` when another
    /// selected workload resolves it.
    Name { name: &'a str, elsewhere: bool },
    /// A number none of the declared ports is.
    Number(i64),
}

fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for service in context.services {
        if service.type_ == "ExternalName" {
            continue;
        }
        let selected: Vec<&Workload> = service.selected(context.workloads).collect();
        for port in &service.ports {
            for workload in &selected {
                let miss = match &port.target_port {
                    // A quoted number is a name the API server rejects
                    // (it needs a letter): not this rule's business.
                    TargetPort::Name(name) if name.bytes().all(|b| b.is_ascii_digit()) => None,
                    TargetPort::Name(name) => {
                        named_port(&workload.pod, name)
                            .is_none()
                            .then(|| Miss::Name {
                                name,
                                elsewhere: selected
                                    .iter()
                                    .any(|other| named_port(&other.pod, name).is_some()),
                            })
                    }
                    TargetPort::Number(number) => {
                        misses_number(context, workload, *number).then_some(Miss::Number(*number))
                    }
                };
                if let Some(miss) = miss {
                    out.push(report(context.text, service, port, workload, &miss));
                }
            }
        }
    }
}

/// The app containers and the sidecars: whose ports a Service reaches.
fn serving_containers(workload: &Workload) -> impl Iterator<Item = &Container> {
    let sidecars = workload
        .pod
        .init_containers
        .iter()
        .filter(|container| container.restart_policy.as_deref() == Some("Always"));
    workload.pod.containers.iter().chain(sidecars)
}

fn declared(workload: &Workload) -> Vec<&ContainerPort> {
    serving_containers(workload)
        .flat_map(|container| &container.ports)
        .collect()
}

/// Whether a numeric targetPort is, as far as the file says, not where the
/// pod listens: it declares ports, none is the number, no container is told
/// to listen there, and no Scenario entry states it.
fn misses_number(context: &Context<'_>, workload: &Workload, number: i64) -> bool {
    // Out of range is the API server's business (PL003).
    if !(1..=65535).contains(&number) {
        return false;
    }
    let ports = declared(workload);
    if ports.is_empty() || ports.iter().any(|port| port.number == number) {
        return false;
    }
    !serving_containers(workload).any(|container| {
        let listen = context.scenario.program(container).listen_port;
        configured(container, number) || (listen.span.is_some() && listen.value == number)
    })
}

/// Whether `number` appears in the container's command, args or env values
/// (`--port=8080`, `PORT=8080`): declaring a port is optional, and a server
/// told to listen there does (the same test as PL204's).
fn configured(container: &Container, number: i64) -> bool {
    let wanted = number.to_string();
    container
        .command
        .iter()
        .chain(&container.args)
        .chain(
            container
                .env
                .iter()
                .filter_map(|var| var.value.as_ref().map(|value| &value.value)),
        )
        .any(|word| {
            word.split(|c: char| !c.is_ascii_digit())
                .any(|token| token == wanted)
        })
}

/// The declared ports, for messages: `http=8000, 9090`, or `none`.
fn declared_text(workload: &Workload) -> String {
    let ports = declared(workload);
    if ports.is_empty() {
        return "none".into();
    }
    ports
        .iter()
        .map(|port| match &port.name {
            Some(name) => format!("{name}={}", port.number),
            None => port.number.to_string(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn report(
    text: &str,
    service: &Service,
    port: &ServicePort,
    workload: &Workload,
    miss: &Miss<'_>,
) -> Diagnostic {
    let (service_name, service_port) = (&service.name, port.port);
    let (kind, workload_name) = (workload.kind.as_str(), &workload.name);
    let ports = declared_text(workload);
    let span = port.target_span.unwrap_or(port.span);
    let diagnostic = match miss {
        Miss::Name { name, elsewhere } => {
            let mut diagnostic = RULE
                .diagnostic(
                    span,
                    text!(
                        "Service \"{service_name}\" port {service_port} targets the port named \"{name}\", which no container of {kind} \"{workload_name}\" declares (its ports: {ports}): the EndpointSlice controller gives its pods no port for it, so none of the connections to port {service_port} reach them",
                        "Service「{service_name}」的 port {service_port} 指向名為「{name}」的 port，但 {kind}「{workload_name}」沒有任何 container 宣告這個名稱（它的 ports：{ports}）：EndpointSlice controller 不會替它的 Pod 填上這個 port，連到 port {service_port} 的連線一個都到不了這些 Pod"
                    ),
                )
                .with_help(text!(
                    "`kubectl get endpointslices -l kubernetes.io/service-name={service_name} -o yaml`: the slice holding these pods has no `ports` entry for port {service_port}; name the container port (`ports: [{{ name: {name}, containerPort: … }}]`) or write its number",
                    "`kubectl get endpointslices -l kubernetes.io/service-name={service_name} -o yaml`：放這些 Pod 的 slice 在 `ports` 裡沒有 port {service_port} 這一項；請替 container port 取這個名字（`ports: [{{ name: {name}, containerPort: … }}]`），或直接寫數字"
                ));
            if *elsewhere {
                diagnostic.severity = Severity::Warning;
            }
            diagnostic
        }
        Miss::Number(number) => {
            let message = if port.target_span.is_some() {
                text!(
                    "Service \"{service_name}\" port {service_port} sends to port {number} of {kind} \"{workload_name}\"'s pods, which declare only {ports}: unless the server listens on {number} anyway, every connection through it is refused",
                    "Service「{service_name}」的 port {service_port} 把連線送到 {kind}「{workload_name}」的 Pod 的 port {number}，但這些 Pod 只宣告了 {ports}：除非伺服器其實也在 {number} 監聽，否則經過它的每個連線都會被拒絕"
                )
            } else {
                text!(
                    "Service \"{service_name}\" port {service_port} has no targetPort, so it sends to port {number} of {kind} \"{workload_name}\"'s pods, which declare only {ports}: unless the server listens on {number} anyway, every connection through it is refused",
                    "Service「{service_name}」的 port {service_port} 沒有寫 targetPort，所以會把連線送到 {kind}「{workload_name}」的 Pod 的 port {number}，但這些 Pod 只宣告了 {ports}：除非伺服器其實也在 {number} 監聽，否則經過它的每個連線都會被拒絕"
                )
            };
            let mut diagnostic = RULE.diagnostic(span, message).with_help(text!(
                "`kubectl port-forward service/{service_name} {service_port}` and a request through it: `connection refused` in kubectl's output means nothing listens on {number}. Declaring a port is optional, so if the server is configured to listen there, declare it in the container's `ports` to say so",
                "執行 `kubectl port-forward service/{service_name} {service_port}` 再送一個請求：kubectl 的輸出出現 `connection refused` 就表示沒有程式在 {number} 監聽。宣告 port 不是必要的，如果伺服器確實設定在那裡監聽，請在 container 的 `ports` 裡宣告它，讓別人看得出來"
            ));
            diagnostic.severity = Severity::Warning;
            diagnostic
        }
    };
    match target_fix(text, port, workload, miss) {
        Some(fix) => diagnostic.with_fix(fix),
        None => diagnostic,
    }
}

/// The port meant: the declared name closest to a misspelt one; for a
/// number, the declared port named as the Service port is (`name: metrics`
/// on both sides); else the pod's only declared port (its name, else its
/// number).
fn meant(port: &ServicePort, workload: &Workload, miss: &Miss<'_>) -> Option<String> {
    let ports = declared(workload);
    let names = || ports.iter().filter_map(|port| port.name.as_deref());
    match miss {
        Miss::Name { name, .. } => {
            if let Some(close) = closest(name, names()) {
                return Some(close.to_string());
            }
        }
        Miss::Number(_) => {
            if let Some(same) = names().find(|name| port.name.as_deref() == Some(*name)) {
                return Some(same.to_string());
            }
        }
    }
    match ports.as_slice() {
        [only] => Some(only.name.clone().unwrap_or_else(|| only.number.to_string())),
        _ => None,
    }
}

fn target_fix(text: &str, port: &ServicePort, workload: &Workload, miss: &Miss<'_>) -> Option<Fix> {
    let meant = meant(port, workload, miss)?;
    let value = if meant.bytes().all(|b| b.is_ascii_digit()) {
        meant.clone()
    } else {
        edit::yaml_scalar(&meant)
    };
    let edit: TextEdit = match port.target_span {
        Some(span) => edit::replace(span, value),
        None => {
            let at = edit::first_key(text, port.span)?;
            edit::insert_entry(text, at, &[format!("targetPort: {value}")])?
        }
    };
    Some(Fix {
        description: text!(
            "target port {meant}, which the pod declares",
            "改成指向 Pod 有宣告的 port {meant}"
        ),
        edits: vec![edit],
    })
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::{apply_edits, Severity};
    use crate::lint::lint;

    fn fires(text: &str) -> Vec<crate::diagnostic::Diagnostic> {
        lint(text)
            .diagnostics
            .into_iter()
            .filter(|d| d.rule == "PL207")
            .collect()
    }

    fn file(ports: &str, service_ports: &str) -> String {
        format!("apiVersion: apps/v1\nkind: Deployment\nmetadata: {{ name: triton }}\nspec:\n  selector: {{ matchLabels: {{ app: triton }} }}\n  template:\n    metadata: {{ labels: {{ app: triton }} }}\n    spec:\n      containers:\n        - name: triton\n          image: nvcr.io/nvidia/tritonserver:24.08-py3\n{ports}---\napiVersion: v1\nkind: Service\nmetadata: {{ name: triton }}\nspec:\n  selector: {{ app: triton }}\n  ports:\n{service_ports}")
    }

    #[test]
    fn the_examples_behave() {
        let found = fires(super::RULE.failing);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].severity, Severity::Error);
        let fix = found[0].fix.as_ref().expect("a fix");
        assert_eq!(
            apply_edits(super::RULE.failing, &fix.edits),
            super::RULE.fixed
        );
        assert!(fires(super::RULE.fixed).is_empty());
    }

    #[test]
    fn a_name_without_any_declared_port_is_an_error() {
        let text = file("", "    - port: 80\n      targetPort: http\n");
        let found = fires(&text);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].severity, Severity::Error);
        assert!(found[0].message.en.contains("(its ports: none)"));
        assert!(found[0].fix.is_none());
    }

    #[test]
    fn a_number_is_judged_only_against_declared_ports() {
        let ports = "          ports:\n            - { name: http, containerPort: 8000 }\n            - { name: grpc, containerPort: 8001 }\n";
        // Declared: silent.
        assert!(fires(&file(ports, "    - port: 80\n      targetPort: 8001\n")).is_empty());
        // Not declared: a warning, no fix between two ports.
        let found = fires(&file(ports, "    - port: 80\n      targetPort: 8080\n"));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].severity, Severity::Warning);
        assert!(found[0].fix.is_none());
        // The Service port's name is a declared port's: that is the fix.
        let named = file(ports, "    - name: grpc\n      port: 9000\n");
        let found = fires(&named);
        assert_eq!(found.len(), 1);
        let fixed = apply_edits(&named, &found[0].fix.as_ref().unwrap().edits);
        assert!(
            fixed.contains("    - targetPort: grpc\n      name: grpc\n"),
            "{fixed}"
        );
        assert!(fires(&fixed).is_empty());
        // No ports declared at all: the server may listen anywhere.
        assert!(fires(&file("", "    - port: 80\n      targetPort: 8080\n")).is_empty());
        // Told to listen there in its args.
        let args = format!("{ports}          args: [\"--http-port=8080\"]\n");
        assert!(fires(&file(&args, "    - port: 80\n      targetPort: 8080\n")).is_empty());
    }

    #[test]
    fn a_missing_target_port_defaults_to_the_port_and_the_fix_adds_it() {
        let text = file(
            "          ports: [{ containerPort: 8000 }]\n",
            "    - name: http\n      port: 80\n",
        );
        let found = fires(&text);
        assert_eq!(found.len(), 1);
        assert!(found[0].message.en.contains("has no targetPort"));
        let fixed = apply_edits(&text, &found[0].fix.as_ref().unwrap().edits);
        assert!(
            fixed.contains("    - targetPort: 8000\n      name: http\n      port: 80\n"),
            "{fixed}"
        );
        assert!(fires(&fixed).is_empty());
    }

    #[test]
    fn a_named_port_of_a_sidecar_counts() {
        let text = "apiVersion: v1\nkind: Pod\nmetadata: { name: p, labels: { app: p } }\nspec:\n  initContainers:\n    - name: proxy\n      image: envoyproxy/envoy:v1.31.0\n      restartPolicy: Always\n      ports: [{ name: proxy, containerPort: 9901 }]\n  containers:\n    - name: api\n      image: vllm/vllm-openai:v0.6.3\n      ports: [{ name: http, containerPort: 8000 }]\n---\napiVersion: v1\nkind: Service\nmetadata: { name: p }\nspec:\n  selector: { app: p }\n  ports: [{ port: 80, targetPort: proxy }]\n";
        assert!(fires(text).is_empty());
    }

    #[test]
    fn a_name_one_selected_workload_declares_is_a_warning_for_the_other() {
        let text = "apiVersion: v1\nkind: Pod\nmetadata: { name: a, labels: { app: llm } }\nspec:\n  containers: [{ name: api, image: \"vllm/vllm-openai:v0.6.3\", ports: [{ name: http, containerPort: 8000 }] }]\n---\napiVersion: v1\nkind: Pod\nmetadata: { name: b, labels: { app: llm } }\nspec:\n  containers: [{ name: api, image: \"vllm/vllm-openai:v0.6.3\", ports: [{ containerPort: 8000 }] }]\n---\napiVersion: v1\nkind: Service\nmetadata: { name: llm }\nspec:\n  selector: { app: llm }\n  ports: [{ port: 80, targetPort: http }]\n";
        let found = fires(text);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].severity, Severity::Warning);
        assert!(found[0].message.en.contains("Pod \"b\""));
    }
}
