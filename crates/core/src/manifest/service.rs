//! `kind: Service` lowered: what traffic (`sim/traffic.rs`), lint and
//! `kubectl describe service` need of it — its selector, ports and
//! `publishNotReadyAddresses`. Lowering never fails: a value of the wrong
//! shape was reported by `validate.rs` and is absent here.

use crate::manifest::model::Workload;
use crate::manifest::yaml::Node;
use crate::span::Span;

/// One Service document.
#[derive(Clone, Debug, PartialEq)]
pub struct Service {
    pub name: String,
    /// Where the name is written (the `kind` value when there is none).
    pub name_span: Span,
    /// The whole document.
    pub span: Span,
    pub labels: Vec<(String, String)>,
    pub annotations: Vec<(String, String)>,
    /// `spec.selector`; `None` when not written (a Service without a
    /// selector gets no EndpointSlices from the controller).
    pub selector: Option<Vec<(String, String)>>,
    pub selector_span: Option<Span>,
    pub ports: Vec<ServicePort>,
    /// `spec.type`, default `ClusterIP`.
    pub type_: String,
    pub session_affinity: String,
    /// `spec.publishNotReadyAddresses`: every endpoint is `ready`.
    pub publish_not_ready_addresses: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ServicePort {
    pub name: Option<String>,
    pub protocol: String,
    pub port: i64,
    /// `targetPort`; by default the same number as `port`.
    pub target_port: TargetPort,
    pub span: Span,
    pub target_span: Option<Span>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TargetPort {
    Number(i64),
    /// A named container port.
    Name(String),
}

impl std::fmt::Display for TargetPort {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TargetPort::Number(number) => write!(f, "{number}"),
            TargetPort::Name(name) => f.write_str(name),
        }
    }
}

impl Service {
    /// Whether the Service selects pods with these labels: every key of a
    /// written, non-empty selector has the same value (a Service's selector
    /// is a plain map, `labels.SelectorFromSet`).
    pub fn selects(&self, labels: &[(String, String)]) -> bool {
        match &self.selector {
            Some(selector) if !selector.is_empty() => selector
                .iter()
                .all(|(key, value)| labels.iter().any(|(k, v)| k == key && v == value)),
            _ => false,
        }
    }

    /// The workloads whose pods it selects.
    pub fn selected<'a>(&'a self, workloads: &'a [Workload]) -> impl Iterator<Item = &'a Workload> {
        workloads
            .iter()
            .filter(|workload| self.selects(&workload.pod_labels))
    }
}

fn string_map(node: Option<&Node>) -> Vec<(String, String)> {
    node.and_then(Node::entries)
        .unwrap_or(&[])
        .iter()
        .filter_map(|entry| {
            let value = entry.value.as_str()?;
            Some((entry.key_str().to_string(), value.to_string()))
        })
        .collect()
}

/// Lowers a Service document (its root mapping).
pub fn lower_service(root: &Node, kind_span: Span, span: Span) -> Service {
    let meta = root.get("metadata");
    let name_node = meta.and_then(|meta| meta.get("name"));
    let spec = root.get("spec");
    let selector_node = spec
        .and_then(|spec| spec.get("selector"))
        .filter(|node| !node.is_null());
    let ports = spec
        .and_then(|spec| spec.get("ports"))
        .and_then(Node::items)
        .unwrap_or(&[])
        .iter()
        .filter_map(|item| {
            let port = item.get("port")?.as_int()?;
            let target = item.get("targetPort").filter(|node| !node.is_null());
            let target_port = match target {
                Some(node) => match node.as_int() {
                    Some(number) => TargetPort::Number(number),
                    None => TargetPort::Name(node.as_str()?.to_string()),
                },
                None => TargetPort::Number(port),
            };
            Some(ServicePort {
                name: item.get("name").and_then(Node::as_str).map(str::to_string),
                protocol: item
                    .get("protocol")
                    .and_then(Node::as_str)
                    .unwrap_or("TCP")
                    .to_string(),
                port,
                target_port,
                span: item.span,
                target_span: target.map(|node| node.span),
            })
        })
        .collect();
    let text_at = |key: &str, default: &str| {
        spec.and_then(|spec| spec.get(key))
            .and_then(Node::as_str)
            .unwrap_or(default)
            .to_string()
    };
    Service {
        name: name_node
            .and_then(Node::as_str)
            .unwrap_or_default()
            .to_string(),
        name_span: name_node.map_or(kind_span, |node| node.span),
        span,
        labels: string_map(meta.and_then(|meta| meta.get("labels"))),
        annotations: string_map(meta.and_then(|meta| meta.get("annotations"))),
        selector: selector_node.map(|node| string_map(Some(node))),
        selector_span: selector_node.map(|node| node.span),
        ports,
        type_: text_at("type", "ClusterIP"),
        session_affinity: text_at("sessionAffinity", "None"),
        publish_not_ready_addresses: spec
            .and_then(|spec| spec.get("publishNotReadyAddresses"))
            .and_then(Node::as_bool)
            .unwrap_or(false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::read::read;

    const TEXT: &str = "\
apiVersion: v1
kind: Service
metadata:
  name: model-api
  labels: {app: model-api}
spec:
  selector: {app: model-api}
  ports:
    - name: http
      port: 80
      targetPort: 8000
    - port: 9090
      targetPort: metrics
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: model-api}
spec:
  selector: {matchLabels: {app: model-api}}
  template:
    metadata: {labels: {app: model-api, tier: gpu}}
    spec:
      containers: [{name: api, image: vllm/vllm-openai:v0.6.3}]
";

    #[test]
    fn a_service_is_read_with_its_selector_and_ports() {
        let reading = read(TEXT);
        assert_eq!(reading.services.len(), 1);
        let service = &reading.services[0];
        assert_eq!(service.name, "model-api");
        assert_eq!(
            service.selector,
            Some(vec![("app".to_string(), "model-api".to_string())])
        );
        assert_eq!(service.ports.len(), 2);
        assert_eq!(service.ports[0].target_port, TargetPort::Number(8000));
        assert_eq!(
            service.ports[1].target_port,
            TargetPort::Name("metrics".into())
        );
        assert_eq!(service.type_, "ClusterIP");
        // It selects the Deployment's pods: the selector is a subset of
        // the template's labels.
        assert_eq!(
            service
                .selected(&reading.workloads)
                .map(|w| w.name.as_str())
                .collect::<Vec<_>>(),
            ["model-api"]
        );
        // Read, not skipped: no PL004 for it.
        assert!(reading.diagnostics.iter().all(|d| d.rule != "PL004"));
    }

    #[test]
    fn a_service_without_selector_or_with_another_selects_nothing() {
        let reading = read(&TEXT.replace("selector: {app: model-api}", "selector: {app: other}"));
        assert_eq!(reading.services[0].selected(&reading.workloads).count(), 0);
        let reading = read(&TEXT.replace("  selector: {app: model-api}\n", ""));
        assert_eq!(reading.services[0].selector, None);
        assert_eq!(reading.services[0].selected(&reading.workloads).count(), 0);
    }

    #[test]
    fn a_service_field_of_another_object_is_reported() {
        let reading = read(&TEXT.replace(
            "  selector: {app: model-api}\n",
            "  selectr: {app: model-api}\n",
        ));
        assert!(reading
            .diagnostics
            .iter()
            .any(|d| d.rule == "PL002" && d.message.en.contains("selectr")));
    }
}
