//! Typed Kubernetes objects lowered from the spanned YAML tree, with the API
//! server's defaults applied and every value's position kept.
//!
//! Lowering never fails and never panics: a value of the wrong shape is
//! treated as absent here (the structural check in `validate.rs` has already
//! reported it). A defaulted value carries `span: None`.
//!
//! Defaults follow `kubernetes/kubernetes:pkg/apis/core/v1/defaults.go`
//! (`SetDefaults_Probe`, `SetDefaults_PodSpec`, `SetDefaults_Container`,
//! `SetDefaults_Pod`), `apps/v1` and `batch/v1` (see
//! `shared/reference/scheduler-controllers.md` §4-§5).
//!
//! This file holds the types; `lower.rs` lowers the tree into them.

mod lower;

pub use self::lower::{lower_pod_spec, lower_workload};

use crate::manifest::quantity::Quantity;
use crate::manifest::yaml::Node;
use crate::span::Span;

/// A value with the position it was written at; `span: None` when the API
/// server's default applies.
#[derive(Clone, Debug, PartialEq)]
pub struct Setting<T> {
    pub value: T,
    pub span: Option<Span>,
}

impl<T> Setting<T> {
    fn written(value: T, span: Span) -> Setting<T> {
        Setting {
            value,
            span: Some(span),
        }
    }

    fn default(value: T) -> Setting<T> {
        Setting { value, span: None }
    }

    pub fn is_default(&self) -> bool {
        self.span.is_none()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum WorkloadKind {
    Pod,
    Deployment,
    ReplicaSet,
    StatefulSet,
    DaemonSet,
    Job,
    CronJob,
}

impl WorkloadKind {
    pub fn parse(kind: &str) -> Option<WorkloadKind> {
        Some(match kind {
            "Pod" => WorkloadKind::Pod,
            "Deployment" => WorkloadKind::Deployment,
            "ReplicaSet" => WorkloadKind::ReplicaSet,
            "StatefulSet" => WorkloadKind::StatefulSet,
            "DaemonSet" => WorkloadKind::DaemonSet,
            "Job" => WorkloadKind::Job,
            "CronJob" => WorkloadKind::CronJob,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            WorkloadKind::Pod => "Pod",
            WorkloadKind::Deployment => "Deployment",
            WorkloadKind::ReplicaSet => "ReplicaSet",
            WorkloadKind::StatefulSet => "StatefulSet",
            WorkloadKind::DaemonSet => "DaemonSet",
            WorkloadKind::Job => "Job",
            WorkloadKind::CronJob => "CronJob",
        }
    }

    /// Runs to completion rather than serving.
    pub fn is_batch(self) -> bool {
        matches!(self, WorkloadKind::Job | WorkloadKind::CronJob)
    }
}

/// A workload object and the pod template it stamps out.
#[derive(Clone, Debug, PartialEq)]
pub struct Workload {
    pub kind: WorkloadKind,
    pub kind_span: Span,
    pub name: String,
    /// Where the name is written (the `kind` value when there is no name).
    pub name_span: Span,
    /// The whole document.
    pub span: Span,
    /// `spec.replicas`, defaulted to 1 (Deployment, ReplicaSet, StatefulSet).
    pub replicas: Option<Setting<i64>>,
    pub pod: PodSpec,
    pub job: Option<JobSpec>,
    pub cron: Option<CronSpec>,
    /// The pod's labels: `metadata.labels` of a Pod, the template's otherwise.
    pub pod_labels: Vec<(String, String)>,
    /// The pod's annotations, taken as the labels are (a restarted
    /// Deployment's pods carry `kubectl.kubernetes.io/restartedAt`).
    pub pod_annotations: Vec<(String, String)>,
    /// A Deployment's rollout settings (`strategy`, `minReadySeconds`,
    /// `progressDeadlineSeconds`), with the API's defaults.
    pub deployment: Option<DeploymentSpec>,
    /// The pod template in canonical form (`canonical.rs`): `spec.template`,
    /// a CronJob's `spec.jobTemplate.spec.template`; `None` for a Pod. A
    /// Deployment's `pod-template-hash` is computed from it.
    pub template: Option<crate::manifest::canonical::Canon>,
}

/// What a Deployment says about replacing its pods, defaulted as
/// `SetDefaults_Deployment` does (`pkg/apis/apps/v1/defaults.go`,
/// scheduler-controllers.md §5.2): `RollingUpdate` with `maxSurge` and
/// `maxUnavailable` 25 %, `minReadySeconds` 0, `progressDeadlineSeconds` 600.
#[derive(Clone, Debug, PartialEq)]
pub struct DeploymentSpec {
    /// `RollingUpdate` or `Recreate`.
    pub strategy: Setting<String>,
    /// As written (`1`, `25%`); `IntOrString` in the API.
    pub max_surge: Setting<IntOrPercent>,
    pub max_unavailable: Setting<IntOrPercent>,
    pub min_ready_seconds: Setting<i64>,
    pub progress_deadline_seconds: Setting<i64>,
}

/// An `intstr.IntOrString` of a rolling update: a count or a percentage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntOrPercent {
    Int(i64),
    Percent(i64),
}

impl IntOrPercent {
    /// `intstr.GetScaledValueFromIntOrPercent(value, total, round_up)`
    /// (`staging/src/k8s.io/apimachinery/pkg/util/intstr/intstr.go`): a
    /// percentage of `total`, rounded up (`math.Ceil`) or down (`math.Floor`);
    /// integer arithmetic, so no float reaches the result.
    pub fn scaled(self, total: i64, round_up: bool) -> i64 {
        match self {
            IntOrPercent::Int(value) => value,
            IntOrPercent::Percent(percent) => {
                let product = percent.saturating_mul(total);
                if round_up {
                    product.saturating_add(99).div_euclid(100)
                } else {
                    product.div_euclid(100)
                }
            }
        }
    }

    /// As kubectl prints it: `1`, `25%`.
    pub fn text(self) -> String {
        match self {
            IntOrPercent::Int(value) => value.to_string(),
            IntOrPercent::Percent(percent) => format!("{percent}%"),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct JobSpec {
    pub completions: Setting<i64>,
    pub parallelism: Setting<i64>,
    /// Default 6 (`SetDefaults_Job`).
    pub backoff_limit: Setting<i64>,
    pub active_deadline_seconds: Option<Setting<i64>>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CronSpec {
    /// The CronJob's `spec` mapping (where a missing field is inserted).
    pub span: Option<Span>,
    pub schedule: Setting<String>,
    /// Default `Allow` (`SetDefaults_CronJob`).
    pub concurrency_policy: Setting<String>,
    pub suspend: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PodSpec {
    /// The pod spec mapping (`spec` of a Pod, `spec.template.spec` otherwise).
    pub span: Span,
    /// Its `spec:` key.
    pub key_span: Span,
    pub containers: Vec<Container>,
    pub init_containers: Vec<Container>,
    /// Default `Always`.
    pub restart_policy: Setting<String>,
    /// Default 30.
    pub termination_grace_period_seconds: Setting<i64>,
    pub tolerations: Vec<Toleration>,
    /// The `tolerations:` entry's key, when written.
    pub tolerations_key: Option<Span>,
    pub tolerations_value: Option<Span>,
    pub node_selector: Vec<(String, String)>,
    /// Required node affinity: terms are ORed, the requirements of a term ANDed.
    pub node_affinity: Vec<Vec<Requirement>>,
    pub volumes: Vec<Volume>,
    /// `hostIPC: true`: the pod shares the node's IPC namespace, and its
    /// containers the node's /dev/shm (`sim::shm`).
    pub host_ipc: bool,
    /// The pod spec's keys in the order written, with their spans.
    pub keys: Vec<(String, Span)>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Toleration {
    pub key: String,
    /// `Equal` (default) or `Exists`.
    pub operator: String,
    pub value: String,
    /// Empty matches every effect.
    pub effect: String,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Requirement {
    pub key: String,
    pub operator: String,
    pub values: Vec<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Volume {
    pub name: String,
    /// `emptyDir.medium`, when the volume is an emptyDir.
    pub empty_dir_medium: Option<String>,
    /// `emptyDir.sizeLimit` in bytes, when written and valid.
    pub empty_dir_size_limit: Option<i128>,
    pub secret_name: Option<String>,
    pub config_map_name: Option<String>,
    /// `secret.optional` / `configMap.optional`: a missing object mounts as
    /// an empty directory instead of failing.
    pub optional: bool,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Container {
    pub name: String,
    pub name_span: Span,
    /// The container's mapping in the list.
    pub span: Span,
    pub image: Option<Setting<String>>,
    /// Default `Always` for `:latest` or no tag, `IfNotPresent` otherwise.
    pub image_pull_policy: Setting<String>,
    pub command: Vec<String>,
    pub args: Vec<String>,
    pub ports: Vec<ContainerPort>,
    pub resources: Resources,
    pub liveness: Option<Probe>,
    pub readiness: Option<Probe>,
    pub startup: Option<Probe>,
    pub env: Vec<EnvVar>,
    pub env_from: Vec<EnvFrom>,
    pub pre_stop: Option<Handler>,
    pub pre_stop_span: Option<Span>,
    pub volume_mounts: Vec<VolumeMount>,
    /// `restartPolicy: Always` on an init container makes it a sidecar.
    pub restart_policy: Option<String>,
    /// The container's keys in the order written, with their spans (where a
    /// fix inserts a missing field).
    pub keys: Vec<(String, Span)>,
    /// What the workload's `podlab.dev/` annotations state for this
    /// container (`annotations.rs`); a Scenario entry wins over it.
    pub annotated: crate::manifest::scenario::ProgramSpec,
}

/// The span of `name` among `keys`.
fn key_in(keys: &[(String, Span)], name: &str) -> Option<Span> {
    keys.iter()
        .find(|(key, _)| key == name)
        .map(|(_, span)| *span)
}

/// Where a fix inserts a new field: before the key that follows `name:` (so
/// the name stays first), else before the first key.
fn insertion_point(keys: &[(String, Span)]) -> Option<usize> {
    match keys {
        [] => None,
        // Only `name:`: there is no key to insert before without moving it.
        [(first, _)] if first == "name" => None,
        [(first, _), (_, second), ..] if first == "name" => Some(second.start),
        [(_, span), ..] => Some(span.start),
    }
}

impl PodSpec {
    pub fn key(&self, name: &str) -> Option<Span> {
        key_in(&self.keys, name)
    }

    /// Where a fix inserts a new pod-spec field.
    pub fn insertion_point(&self) -> Option<usize> {
        insertion_point(&self.keys)
    }
}

impl Container {
    pub fn key(&self, name: &str) -> Option<Span> {
        key_in(&self.keys, name)
    }

    /// Where a fix inserts a new container field (after `name`).
    pub fn insertion_point(&self) -> Option<usize> {
        insertion_point(&self.keys)
    }

    pub fn probes(&self) -> impl Iterator<Item = &Probe> {
        [&self.startup, &self.liveness, &self.readiness]
            .into_iter()
            .flatten()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct ContainerPort {
    pub number: i64,
    pub name: Option<String>,
    pub span: Span,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Resources {
    pub requests: Vec<Amount>,
    pub limits: Vec<Amount>,
    /// The `resources:` key, when written.
    pub key_span: Option<Span>,
    /// The `resources:` value, when written.
    pub span: Option<Span>,
    pub requests_key: Option<Span>,
    pub limits_key: Option<Span>,
    pub limits_span: Option<Span>,
}

impl Resources {
    pub fn request(&self, name: &str) -> Option<&Amount> {
        self.requests.iter().find(|amount| amount.name == name)
    }

    pub fn limit(&self, name: &str) -> Option<&Amount> {
        self.limits.iter().find(|amount| amount.name == name)
    }

    /// The request the scheduler sees: the request, or the limit copied into
    /// it by `SetDefaults_Pod` when no request is written.
    pub fn effective_request(&self, name: &str) -> Option<Quantity> {
        self.request(name)
            .and_then(|amount| amount.quantity)
            .or_else(|| self.limit(name).and_then(|amount| amount.quantity))
    }
}

/// One resource amount: `memory: 8Gi`.
#[derive(Clone, Debug, PartialEq)]
pub struct Amount {
    pub name: String,
    /// `None` when the value is not a valid quantity (reported as PL003).
    pub quantity: Option<Quantity>,
    pub key_span: Span,
    pub value_span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProbeKind {
    Startup,
    Liveness,
    Readiness,
}

impl ProbeKind {
    pub fn field(self) -> &'static str {
        match self {
            ProbeKind::Startup => "startupProbe",
            ProbeKind::Liveness => "livenessProbe",
            ProbeKind::Readiness => "readinessProbe",
        }
    }

    /// As the kubelet writes it in events: `Liveness probe failed: ...`.
    pub fn title(self) -> &'static str {
        match self {
            ProbeKind::Startup => "Startup",
            ProbeKind::Liveness => "Liveness",
            ProbeKind::Readiness => "Readiness",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Probe {
    pub kind: ProbeKind,
    pub key_span: Span,
    pub span: Span,
    pub handler: Handler,
    /// The handler's key (`httpGet`), when written.
    pub handler_key: Option<Span>,
    pub handler_node: Option<Node>,
    pub initial_delay_seconds: Setting<i64>,
    pub timeout_seconds: Setting<i64>,
    pub period_seconds: Setting<i64>,
    pub success_threshold: Setting<i64>,
    pub failure_threshold: Setting<i64>,
    pub termination_grace_period_seconds: Option<Setting<i64>>,
}

impl Probe {
    /// Seconds from container start until the probe has failed
    /// `failureThreshold` times in a row, if the program never answers:
    /// `initialDelaySeconds + failureThreshold × periodSeconds`, the budget the
    /// rules compare with the model's load time (the kubelet's grid may add up
    /// to one period, `shared/reference/kubelet.md` §1).
    pub fn failure_budget_seconds(&self) -> i64 {
        self.initial_delay_seconds.value.max(0)
            + self.failure_threshold.value.max(1) * self.period_seconds.value.max(1)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum PortRef {
    Number(i64),
    Name(String),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Handler {
    HttpGet {
        path: String,
        port: Option<PortRef>,
        port_span: Option<Span>,
        scheme: String,
    },
    TcpSocket {
        port: Option<PortRef>,
        port_span: Option<Span>,
    },
    Exec {
        command: Vec<String>,
    },
    Grpc {
        port: Option<i64>,
        port_span: Option<Span>,
    },
    Sleep {
        seconds: i64,
    },
    /// No handler written (the API server rejects such a probe).
    Missing,
}

impl Handler {
    pub fn port(&self) -> Option<(&PortRef, Span)> {
        match self {
            Handler::HttpGet {
                port: Some(port),
                port_span: Some(span),
                ..
            }
            | Handler::TcpSocket {
                port: Some(port),
                port_span: Some(span),
            } => Some((port, *span)),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct EnvVar {
    pub name: String,
    pub value: Option<Setting<String>>,
    pub secret_ref: Option<(String, String, bool)>,
    pub config_map_ref: Option<(String, String, bool)>,
    pub span: Span,
    /// Where the `name` value is written (PL302 points there rather than at
    /// the secret itself, so the source line it prints does not show it).
    pub name_span: Option<Span>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct EnvFrom {
    pub secret: Option<String>,
    pub config_map: Option<String>,
    pub prefix: String,
    pub optional: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct VolumeMount {
    pub name: String,
    pub mount_path: String,
    pub read_only: bool,
    pub span: Span,
}

/// `SetDefaults_Container`: `Always` when the tag is `latest` or missing
/// (and there is no digest), else `IfNotPresent` (`parsers.ParseImageName`).
pub fn default_pull_policy(image: &str) -> &'static str {
    match image_tag(image) {
        ImageTag::Digest => "IfNotPresent",
        ImageTag::Latest | ImageTag::Missing => "Always",
        ImageTag::Tag(_) => "IfNotPresent",
    }
}

#[derive(Debug, PartialEq, Eq)]
pub enum ImageTag<'a> {
    Missing,
    Latest,
    Digest,
    Tag(&'a str),
}

/// The tag of an image reference; a `:` before the last `/` is a registry port.
pub fn image_tag(image: &str) -> ImageTag<'_> {
    if image.contains('@') {
        return ImageTag::Digest;
    }
    let last_component = image.rsplit('/').next().unwrap_or(image);
    match last_component.split_once(':') {
        None => ImageTag::Missing,
        Some((_, "latest")) => ImageTag::Latest,
        Some((_, tag)) => ImageTag::Tag(tag),
    }
}

impl Toleration {
    /// Whether this toleration tolerates a taint, as
    /// `k8s.io/api/core/v1.(*Toleration).ToleratesTaint` decides: effects
    /// match when the toleration's effect is empty or equal; keys match when
    /// equal, or when the key is empty and the operator `Exists`; `Exists`
    /// matches any value, `Equal` (the default) needs the same value.
    pub fn tolerates(&self, key: &str, value: &str, effect: &str) -> bool {
        if !self.effect.is_empty() && self.effect != effect {
            return false;
        }
        if !self.key.is_empty() && self.key != key {
            return false;
        }
        match self.operator.as_str() {
            "Exists" => true,
            "" | "Equal" => self.value == value,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn image_tags_and_pull_policy_defaults() {
        assert_eq!(image_tag("vllm/vllm-openai"), ImageTag::Missing);
        assert_eq!(image_tag("registry:5000/model"), ImageTag::Missing);
        assert_eq!(image_tag("registry:5000/model:1.2"), ImageTag::Tag("1.2"));
        assert_eq!(image_tag("model:latest"), ImageTag::Latest);
        assert_eq!(image_tag("model@sha256:abc"), ImageTag::Digest);
        assert_eq!(default_pull_policy("model"), "Always");
        assert_eq!(default_pull_policy("model:0.3.1"), "IfNotPresent");
    }
}
