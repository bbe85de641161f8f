//! `kind: Service` lowered: what traffic (`sim/traffic.rs`), lint and
//! `kubectl describe service` (`explain/service.rs`) need of it — its
//! selector, ports and `publishNotReadyAddresses`, and the written fields
//! describe prints (type, ClusterIP, node ports, traffic policies, …).
//! Lowering never fails: a value of the wrong shape was reported by
//! `validate.rs` and is absent here.

use crate::manifest::model::{ContainerPort, PodSpec, Workload, WorkloadKind};
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
    /// Where each entry of `selector` is written: its key and its value, in
    /// the same order (for a fix that rewrites one).
    pub selector_spans: Vec<(Span, Span)>,
    pub ports: Vec<ServicePort>,
    /// `spec.type`, default `ClusterIP`.
    pub type_: String,
    /// `spec.clusterIP: None`: a headless Service. kube-proxy programs no
    /// rules for it; clients find the pods' own addresses through DNS.
    pub headless: bool,
    pub session_affinity: String,
    /// `spec.publishNotReadyAddresses`: every endpoint is `ready`.
    pub publish_not_ready_addresses: bool,
    /// `spec.clusterIP` as written: `None` makes it headless; unwritten, the
    /// API server allocates one (`explain::service`).
    pub cluster_ip: Option<String>,
    /// `spec.externalName` (`type: ExternalName`).
    pub external_name: Option<String>,
    pub external_ips: Vec<String>,
    pub load_balancer_ip: Option<String>,
    pub load_balancer_source_ranges: Vec<String>,
    /// `spec.externalTrafficPolicy`, `spec.internalTrafficPolicy` and
    /// `spec.ipFamilyPolicy` as written (the API server's defaults are
    /// applied where the Service is shown).
    pub external_traffic_policy: Option<String>,
    pub internal_traffic_policy: Option<String>,
    pub ip_family_policy: Option<String>,
    pub health_check_node_port: Option<i64>,
    /// `spec.allocateLoadBalancerNodePorts`, default true.
    pub allocate_load_balancer_node_ports: bool,
    pub traffic_distribution: Option<String>,
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
    /// `nodePort` as written.
    pub node_port: Option<i64>,
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

    /// Whether some port of the Service sends its connections to container
    /// `index` of `pod`: a `targetPort` that is one of its declared ports (by
    /// number or name). When no port targets a declared port of any
    /// container (numbers nobody declared), the first container, as
    /// [`Service::serving_container`] decides.
    pub fn targets_container(&self, pod: &PodSpec, index: usize) -> bool {
        let declares = |container: &crate::manifest::model::Container| {
            self.ports.iter().any(|service_port| {
                container
                    .ports
                    .iter()
                    .any(|port| service_port.target_port.is(port))
            })
        };
        match pod.containers.iter().position(declares) {
            Some(_) => pod.containers.get(index).is_some_and(declares),
            None => index == 0,
        }
    }

    /// The container the Service's first port targets (by number or name),
    /// else the first: the one that serves the traffic (`sim/traffic.rs`).
    pub fn serving_container(&self, pod: &PodSpec) -> usize {
        let Some(target) = self.ports.first().map(|port| &port.target_port) else {
            return 0;
        };
        pod.containers
            .iter()
            .position(|container| container.ports.iter().any(|port| target.is(port)))
            .unwrap_or(0)
    }
}

impl TargetPort {
    /// Whether this target is the declared container port.
    pub fn is(&self, port: &ContainerPort) -> bool {
        match self {
            TargetPort::Number(number) => port.number == *number,
            TargetPort::Name(name) => port.name.as_deref() == Some(name.as_str()),
        }
    }
}

/// The container port a named `targetPort` resolves to in a pod, as the
/// EndpointSlice controller resolves it (`kubernetes/kubernetes:
/// pkg/api/v1/pod/util.go` `FindPort`): the app containers' ports, then
/// those of sidecars (init containers with `restartPolicy: Always`). When
/// none has the name, the pod's endpoint gets no port for that Service port
/// (`staging/src/k8s.io/endpointslice/utils.go` `getEndpointPorts` skips
/// it), so none of that port's connections reach the pod. The protocol,
/// which `FindPort` also compares, is not modelled.
pub fn named_port<'a>(pod: &'a PodSpec, name: &str) -> Option<&'a ContainerPort> {
    let sidecars = pod
        .init_containers
        .iter()
        .filter(|container| container.restart_policy.as_deref() == Some("Always"));
    pod.containers
        .iter()
        .chain(sidecars)
        .flat_map(|container| &container.ports)
        .find(|port| port.name.as_deref() == Some(name))
}

/// The labels the controllers add to the pods of a workload beyond its
/// template's, which a Service may select (`kubernetes/kubernetes:
/// staging/src/k8s.io/api/apps/v1/types.go` `DefaultDeploymentUniqueLabelKey`,
/// `ControllerRevisionHashLabelKey`, `StatefulSetPodNameLabel`,
/// `PodIndexLabel`, `DefaultDaemonSetUniqueLabelKey`;
/// `staging/src/k8s.io/api/batch/v1/types.go` `JobNameLabel`,
/// `ControllerUidLabel`, `JobCompletionIndexAnnotation`, and their legacy
/// unprefixed keys). Whether `value` is one the controller may write: a
/// hash or uid is any value; a StatefulSet's pod name is `<name>-<ordinal>`;
/// a Job's pods carry its name, a CronJob's Jobs are `<name>-<time>`.
pub fn controller_label(workload: &Workload, key: &str, value: &str) -> bool {
    let ordinal = |text: &str| !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    let suffixed = |text: &str| {
        text.strip_prefix(workload.name.as_str())
            .and_then(|rest| rest.strip_prefix('-'))
            .is_some_and(ordinal)
    };
    match (workload.kind, key) {
        (WorkloadKind::Deployment, "pod-template-hash") => true,
        (WorkloadKind::StatefulSet | WorkloadKind::DaemonSet, "controller-revision-hash") => true,
        (WorkloadKind::StatefulSet, "statefulset.kubernetes.io/pod-name") => suffixed(value),
        (WorkloadKind::StatefulSet, "apps.kubernetes.io/pod-index") => ordinal(value),
        (WorkloadKind::DaemonSet, "pod-template-generation") => true,
        (
            WorkloadKind::Job | WorkloadKind::CronJob,
            "controller-uid" | "batch.kubernetes.io/controller-uid",
        ) => true,
        (WorkloadKind::Job, "job-name" | "batch.kubernetes.io/job-name") => value == workload.name,
        (WorkloadKind::CronJob, "job-name" | "batch.kubernetes.io/job-name") => suffixed(value),
        (WorkloadKind::Job | WorkloadKind::CronJob, "batch.kubernetes.io/job-completion-index") => {
            ordinal(value)
        }
        _ => false,
    }
}

/// Whether the pods of `workload` may carry the selector's pair: a label of
/// its template, or one its controller adds ([`controller_label`]).
pub fn may_carry(workload: &Workload, key: &str, value: &str) -> bool {
    workload
        .pod_labels
        .iter()
        .any(|(k, v)| k == key && v == value)
        || controller_label(workload, key, value)
}

/// Kinds whose objects make no pods: the built-in kinds that are not
/// workloads, and custom resources of well-known projects that only point
/// at pods or Services (monitoring, certificates, routes, autoscalers).
/// Any other kind, a custom resource above all (a RayCluster, a
/// LeaderWorkerSet, an InferenceService), may have an operator make pods
/// from it that podlab does not see.
pub fn makes_no_pods(kind: &str) -> bool {
    const KINDS: &[&str] = &[
        // Built-in.
        "Service",
        "Endpoints",
        "EndpointSlice",
        "ConfigMap",
        "Secret",
        "ServiceAccount",
        "Namespace",
        "Role",
        "ClusterRole",
        "RoleBinding",
        "ClusterRoleBinding",
        "PersistentVolume",
        "PersistentVolumeClaim",
        "StorageClass",
        "Ingress",
        "IngressClass",
        "NetworkPolicy",
        "HorizontalPodAutoscaler",
        "PodDisruptionBudget",
        "PriorityClass",
        "RuntimeClass",
        "LimitRange",
        "ResourceQuota",
        "CustomResourceDefinition",
        "ValidatingWebhookConfiguration",
        "MutatingWebhookConfiguration",
        "ValidatingAdmissionPolicy",
        "ValidatingAdmissionPolicyBinding",
        "APIService",
        "Lease",
        "CSIDriver",
        "VolumeAttributesClass",
        "ResourceClaim",
        "ResourceClaimTemplate",
        "DeviceClass",
        // podlab's own.
        "Scenario",
        "Exercise",
        // Well-known custom resources that make no pods.
        "ServiceMonitor",
        "PodMonitor",
        "PrometheusRule",
        "PodMonitoring",
        "Certificate",
        "Issuer",
        "ClusterIssuer",
        "ManagedCertificate",
        "BackendConfig",
        "FrontendConfig",
        "HealthCheckPolicy",
        "GCPBackendPolicy",
        "HTTPRoute",
        "GRPCRoute",
        "VirtualService",
        "DestinationRule",
        "PeerAuthentication",
        "AuthorizationPolicy",
        // Read as the HPA it owns (`manifest::keda`); it makes no pods.
        "ScaledObject",
        "VerticalPodAutoscaler",
        "ExternalSecret",
        "SealedSecret",
        "InferencePool",
        "InferenceModel",
        "InferenceObjective",
    ];
    KINDS.contains(&kind)
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
    let selector_entries: Vec<_> = selector_node
        .and_then(Node::entries)
        .unwrap_or(&[])
        .iter()
        .filter(|entry| entry.value.as_str().is_some())
        .collect();
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
                node_port: item.get("nodePort").and_then(Node::as_int),
            })
        })
        .collect();
    let text_at = |key: &str, default: &str| {
        spec.and_then(|spec| spec.get(key))
            .and_then(Node::as_str)
            .unwrap_or(default)
            .to_string()
    };
    let written = |key: &str| {
        spec.and_then(|spec| spec.get(key))
            .and_then(Node::as_str)
            .map(str::to_string)
    };
    let list = |key: &str| {
        spec.and_then(|spec| spec.get(key))
            .and_then(Node::items)
            .unwrap_or(&[])
            .iter()
            .filter_map(|item| item.as_str().map(str::to_string))
            .collect::<Vec<String>>()
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
        selector_spans: selector_entries
            .iter()
            .map(|entry| (entry.key.span, entry.value.span))
            .collect(),
        ports,
        type_: text_at("type", "ClusterIP"),
        headless: text_at("clusterIP", "") == "None",
        session_affinity: text_at("sessionAffinity", "None"),
        publish_not_ready_addresses: spec
            .and_then(|spec| spec.get("publishNotReadyAddresses"))
            .and_then(Node::as_bool)
            .unwrap_or(false),
        cluster_ip: written("clusterIP"),
        external_name: written("externalName"),
        external_ips: list("externalIPs"),
        load_balancer_ip: written("loadBalancerIP"),
        load_balancer_source_ranges: list("loadBalancerSourceRanges"),
        external_traffic_policy: written("externalTrafficPolicy"),
        internal_traffic_policy: written("internalTrafficPolicy"),
        ip_family_policy: written("ipFamilyPolicy"),
        health_check_node_port: spec
            .and_then(|spec| spec.get("healthCheckNodePort"))
            .and_then(Node::as_int),
        allocate_load_balancer_node_ports: spec
            .and_then(|spec| spec.get("allocateLoadBalancerNodePorts"))
            .and_then(Node::as_bool)
            .unwrap_or(true),
        traffic_distribution: written("trafficDistribution"),
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
