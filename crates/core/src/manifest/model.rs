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

use crate::manifest::quantity::{self, Quantity};
use crate::manifest::yaml::{Node, NodeKind};
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

// ---- lowering ------------------------------------------------------------------

fn str_of(node: Option<&Node>) -> Option<String> {
    let node = node?;
    if node.is_null() || !matches!(node.kind, NodeKind::Scalar { .. }) {
        return None;
    }
    node.as_str().map(str::to_string)
}

fn int_setting(parent: &Node, key: &str, default: i64) -> Setting<i64> {
    match parent.get(key) {
        Some(node) => match node.as_int() {
            Some(value) => Setting::written(value, node.span),
            None => Setting::default(default),
        },
        None => Setting::default(default),
    }
}

fn opt_int_setting(parent: &Node, key: &str) -> Option<Setting<i64>> {
    let node = parent.get(key)?;
    node.as_int()
        .map(|value| Setting::written(value, node.span))
}

fn str_list(node: Option<&Node>) -> Vec<String> {
    node.and_then(Node::items)
        .map(|items| {
            items
                .iter()
                .filter_map(|item| item.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn key_spans(node: &Node) -> Vec<(String, Span)> {
    node.entries()
        .unwrap_or(&[])
        .iter()
        .map(|entry| (entry.key_str().to_string(), entry.key.span))
        .collect()
}

fn items(node: Option<&Node>) -> &[Node] {
    node.and_then(Node::items).unwrap_or(&[])
}

/// Lowers a workload document (its root mapping) of a known kind.
pub fn lower_workload(root: &Node, kind: WorkloadKind, kind_span: Span, span: Span) -> Workload {
    let metadata = root.get("metadata");
    let name_node = metadata.and_then(|meta| meta.get("name"));
    let name = str_of(name_node).unwrap_or_default();
    let name_span = name_node
        .filter(|node| !node.is_null())
        .map(|node| node.span)
        .unwrap_or(kind_span);
    let spec = root.get("spec");
    let spec_key = root
        .entry("spec")
        .map(|entry| entry.key.span)
        .unwrap_or(kind_span);

    let template_metadata = match kind {
        WorkloadKind::Pod => metadata,
        WorkloadKind::CronJob => spec
            .and_then(|spec| spec.get("jobTemplate"))
            .and_then(|template| template.get("spec"))
            .and_then(|spec| spec.get("template"))
            .and_then(|template| template.get("metadata")),
        _ => spec
            .and_then(|spec| spec.get("template"))
            .and_then(|template| template.get("metadata")),
    };
    let pod_labels = template_metadata
        .and_then(|meta| meta.get("labels"))
        .and_then(Node::entries)
        .unwrap_or(&[])
        .iter()
        .filter_map(|entry| {
            str_of(Some(&entry.value)).map(|value| (entry.key_str().to_string(), value))
        })
        .collect();
    let (replicas, pod, job, cron) = match kind {
        WorkloadKind::Pod => (None, lower_pod_spec(spec, spec_key), None, None),
        WorkloadKind::Deployment | WorkloadKind::ReplicaSet | WorkloadKind::StatefulSet => {
            let replicas = spec
                .map(|spec| int_setting(spec, "replicas", 1))
                .unwrap_or(Setting::default(1));
            let (pod, _) = template_pod(spec, spec_key);
            (Some(replicas), pod, None, None)
        }
        WorkloadKind::DaemonSet => (None, template_pod(spec, spec_key).0, None, None),
        WorkloadKind::Job => {
            let job = lower_job(spec);
            (None, template_pod(spec, spec_key).0, Some(job), None)
        }
        WorkloadKind::CronJob => {
            let job_template = spec.and_then(|spec| spec.get("jobTemplate"));
            let job_spec = job_template.and_then(|template| template.get("spec"));
            let job_spec_key = job_template
                .and_then(|template| template.entry("spec"))
                .map(|entry| entry.key.span)
                .unwrap_or(spec_key);
            let cron = spec.map(lower_cron).unwrap_or(CronSpec {
                span: None,
                schedule: Setting::default(String::new()),
                concurrency_policy: Setting::default("Allow".into()),
                suspend: false,
            });
            let (pod, _) = template_pod(job_spec, job_spec_key);
            (None, pod, Some(lower_job(job_spec)), Some(cron))
        }
    };
    let mut pod = pod;
    let annotated = crate::manifest::annotations::read(root, kind);
    for container in pod.containers.iter_mut().chain(&mut pod.init_containers) {
        container.annotated = annotated.for_container(&container.name);
    }
    Workload {
        kind,
        kind_span,
        name,
        name_span,
        span,
        replicas,
        pod,
        job,
        cron,
        pod_labels,
    }
}

fn template_pod(spec: Option<&Node>, spec_key: Span) -> (PodSpec, Option<Span>) {
    let template = spec.and_then(|spec| spec.get("template"));
    let pod_spec = template.and_then(|template| template.get("spec"));
    let key = template
        .and_then(|template| template.entry("spec"))
        .map(|entry| entry.key.span)
        .unwrap_or(spec_key);
    (
        lower_pod_spec(pod_spec, key),
        template.map(|node| node.span),
    )
}

fn lower_job(spec: Option<&Node>) -> JobSpec {
    let Some(spec) = spec else {
        return JobSpec {
            completions: Setting::default(1),
            parallelism: Setting::default(1),
            backoff_limit: Setting::default(6),
            active_deadline_seconds: None,
        };
    };
    JobSpec {
        completions: int_setting(spec, "completions", 1),
        parallelism: int_setting(spec, "parallelism", 1),
        backoff_limit: int_setting(spec, "backoffLimit", 6),
        active_deadline_seconds: opt_int_setting(spec, "activeDeadlineSeconds"),
    }
}

fn lower_cron(spec: &Node) -> CronSpec {
    let schedule = match spec.get("schedule") {
        Some(node) => Setting::written(node.as_str().unwrap_or("").to_string(), node.span),
        None => Setting::default(String::new()),
    };
    let concurrency_policy = match spec.get("concurrencyPolicy") {
        Some(node) if !node.is_null() => {
            Setting::written(node.as_str().unwrap_or("Allow").to_string(), node.span)
        }
        _ => Setting::default("Allow".into()),
    };
    CronSpec {
        span: Some(spec.span),
        schedule,
        concurrency_policy,
        suspend: spec.get("suspend").and_then(Node::as_bool).unwrap_or(false),
    }
}

/// Lowers a pod spec; an absent spec gives an empty one (no containers).
pub fn lower_pod_spec(spec: Option<&Node>, key_span: Span) -> PodSpec {
    let empty = Node {
        kind: NodeKind::Map(Vec::new()),
        span: Span::empty(key_span.end),
    };
    let spec = spec
        .filter(|node| node.entries().is_some())
        .unwrap_or(&empty);
    let restart_policy = match spec.get("restartPolicy") {
        Some(node) if !node.is_null() => {
            Setting::written(node.as_str().unwrap_or("").to_string(), node.span)
        }
        _ => Setting::default("Always".into()),
    };
    let tolerations_entry = spec.entry("tolerations");
    PodSpec {
        keys: key_spans(spec),
        span: spec.span,
        key_span,
        containers: items(spec.get("containers"))
            .iter()
            .map(lower_container)
            .collect(),
        init_containers: items(spec.get("initContainers"))
            .iter()
            .map(lower_container)
            .collect(),
        restart_policy,
        termination_grace_period_seconds: int_setting(spec, "terminationGracePeriodSeconds", 30),
        tolerations: items(spec.get("tolerations"))
            .iter()
            .map(lower_toleration)
            .collect(),
        tolerations_key: tolerations_entry.map(|entry| entry.key.span),
        tolerations_value: tolerations_entry.map(|entry| entry.value.span),
        node_selector: spec
            .get("nodeSelector")
            .and_then(Node::entries)
            .map(|entries| {
                entries
                    .iter()
                    .map(|entry| {
                        (
                            entry.key_str().to_string(),
                            entry.value.as_str().unwrap_or("").to_string(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default(),
        node_affinity: lower_node_affinity(spec.get("affinity")),
        volumes: items(spec.get("volumes"))
            .iter()
            .map(lower_volume)
            .collect(),
    }
}

fn lower_toleration(node: &Node) -> Toleration {
    Toleration {
        key: str_of(node.get("key")).unwrap_or_default(),
        operator: str_of(node.get("operator")).unwrap_or_else(|| "Equal".into()),
        value: str_of(node.get("value")).unwrap_or_default(),
        effect: str_of(node.get("effect")).unwrap_or_default(),
        span: node.span,
    }
}

fn lower_node_affinity(affinity: Option<&Node>) -> Vec<Vec<Requirement>> {
    let terms = affinity
        .and_then(|node| node.get("nodeAffinity"))
        .and_then(|node| node.get("requiredDuringSchedulingIgnoredDuringExecution"))
        .and_then(|node| node.get("nodeSelectorTerms"));
    items(terms)
        .iter()
        .map(|term| {
            items(term.get("matchExpressions"))
                .iter()
                .map(|expression| Requirement {
                    key: str_of(expression.get("key")).unwrap_or_default(),
                    operator: str_of(expression.get("operator")).unwrap_or_default(),
                    values: str_list(expression.get("values")),
                })
                .collect()
        })
        .collect()
}

fn lower_volume(node: &Node) -> Volume {
    Volume {
        name: str_of(node.get("name")).unwrap_or_default(),
        empty_dir_medium: node
            .get("emptyDir")
            .map(|empty_dir| str_of(empty_dir.get("medium")).unwrap_or_default()),
        secret_name: node
            .get("secret")
            .and_then(|secret| str_of(secret.get("secretName"))),
        config_map_name: node
            .get("configMap")
            .and_then(|config_map| str_of(config_map.get("name"))),
        optional: ["secret", "configMap"]
            .into_iter()
            .filter_map(|source| node.get(source)?.get("optional")?.as_bool())
            .any(|optional| optional),
        span: node.span,
    }
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

fn lower_container(node: &Node) -> Container {
    let name_node = node.get("name");
    let image = node
        .get("image")
        .filter(|image| !image.is_null())
        .and_then(|image| {
            image
                .as_str()
                .map(|text| Setting::written(text.to_string(), image.span))
        });
    let image_pull_policy = match node.get("imagePullPolicy") {
        Some(policy) if !policy.is_null() => {
            Setting::written(policy.as_str().unwrap_or("").to_string(), policy.span)
        }
        _ => Setting::default(
            default_pull_policy(
                image
                    .as_ref()
                    .map(|image| image.value.as_str())
                    .unwrap_or(""),
            )
            .to_string(),
        ),
    };
    let lifecycle = node.get("lifecycle");
    let pre_stop_entry = lifecycle.and_then(|lifecycle| lifecycle.entry("preStop"));
    Container {
        keys: key_spans(node),
        annotated: crate::manifest::scenario::ProgramSpec::default(),
        name: str_of(name_node).unwrap_or_default(),
        name_span: name_node.map(|name| name.span).unwrap_or(node.span),
        span: node.span,
        image,
        image_pull_policy,
        command: str_list(node.get("command")),
        args: str_list(node.get("args")),
        ports: items(node.get("ports"))
            .iter()
            .filter_map(|port| {
                let number_node = port.get("containerPort")?;
                Some(ContainerPort {
                    number: number_node.as_int()?,
                    name: str_of(port.get("name")),
                    span: port.span,
                })
            })
            .collect(),
        resources: lower_resources(node),
        liveness: lower_probe(node, ProbeKind::Liveness),
        readiness: lower_probe(node, ProbeKind::Readiness),
        startup: lower_probe(node, ProbeKind::Startup),
        env: items(node.get("env")).iter().map(lower_env).collect(),
        env_from: items(node.get("envFrom"))
            .iter()
            .map(|source| EnvFrom {
                secret: source
                    .get("secretRef")
                    .and_then(|reference| str_of(reference.get("name"))),
                config_map: source
                    .get("configMapRef")
                    .and_then(|reference| str_of(reference.get("name"))),
                prefix: str_of(source.get("prefix")).unwrap_or_default(),
                optional: source
                    .get("secretRef")
                    .or_else(|| source.get("configMapRef"))
                    .and_then(|reference| reference.get("optional"))
                    .and_then(Node::as_bool)
                    .unwrap_or(false),
            })
            .collect(),
        pre_stop: pre_stop_entry.map(|entry| lower_handler(&entry.value).0),
        pre_stop_span: pre_stop_entry.map(|entry| entry.key.span),
        volume_mounts: items(node.get("volumeMounts"))
            .iter()
            .map(|mount| VolumeMount {
                name: str_of(mount.get("name")).unwrap_or_default(),
                mount_path: str_of(mount.get("mountPath")).unwrap_or_default(),
                read_only: mount
                    .get("readOnly")
                    .and_then(Node::as_bool)
                    .unwrap_or(false),
                span: mount.span,
            })
            .collect(),
        restart_policy: str_of(node.get("restartPolicy")),
    }
}

fn lower_amounts(node: Option<&Node>) -> Vec<Amount> {
    node.and_then(Node::entries)
        .map(|entries| {
            entries
                .iter()
                .map(|entry| Amount {
                    name: entry.key_str().to_string(),
                    quantity: entry
                        .value
                        .as_str()
                        .filter(|_| !entry.value.is_null())
                        .and_then(|text| quantity::parse(text).ok()),
                    key_span: entry.key.span,
                    value_span: entry.value.span,
                })
                .collect()
        })
        .unwrap_or_default()
}

fn lower_resources(container: &Node) -> Resources {
    let Some(entry) = container.entry("resources") else {
        return Resources::default();
    };
    let resources = &entry.value;
    let requests_entry = resources.entry("requests");
    let limits_entry = resources.entry("limits");
    Resources {
        requests: lower_amounts(resources.get("requests")),
        limits: lower_amounts(resources.get("limits")),
        key_span: Some(entry.key.span),
        span: Some(resources.span),
        requests_key: requests_entry.map(|entry| entry.key.span),
        limits_key: limits_entry.map(|entry| entry.key.span),
        limits_span: limits_entry.map(|entry| entry.value.span),
    }
}

fn lower_probe(container: &Node, kind: ProbeKind) -> Option<Probe> {
    let entry = container.entry(kind.field())?;
    let probe = &entry.value;
    probe.entries()?;
    let (handler, handler_key, handler_node) = lower_handler(probe);
    Some(Probe {
        kind,
        key_span: entry.key.span,
        span: probe.span,
        handler,
        handler_key,
        handler_node,
        // SetDefaults_Probe.
        initial_delay_seconds: int_setting(probe, "initialDelaySeconds", 0),
        timeout_seconds: positive_or_default(int_setting(probe, "timeoutSeconds", 1), 1),
        period_seconds: positive_or_default(int_setting(probe, "periodSeconds", 10), 10),
        success_threshold: positive_or_default(int_setting(probe, "successThreshold", 1), 1),
        failure_threshold: positive_or_default(int_setting(probe, "failureThreshold", 3), 3),
        termination_grace_period_seconds: opt_int_setting(probe, "terminationGracePeriodSeconds"),
    })
}

/// The defaulting functions replace a zero with the default (`if obj.X == 0`).
fn positive_or_default(setting: Setting<i64>, default: i64) -> Setting<i64> {
    if setting.value == 0 {
        Setting {
            value: default,
            span: setting.span,
        }
    } else {
        setting
    }
}

fn port_ref(node: Option<&Node>) -> (Option<PortRef>, Option<Span>) {
    let Some(node) = node.filter(|node| !node.is_null()) else {
        return (None, None);
    };
    let port = match node.as_int() {
        Some(number) => Some(PortRef::Number(number)),
        // A quoted number is a string in the API, read as a port name.
        None => node.as_str().map(|name| PortRef::Name(name.to_string())),
    };
    (port, Some(node.span))
}

fn lower_handler(node: &Node) -> (Handler, Option<Span>, Option<Node>) {
    let Some(entries) = node.entries() else {
        return (Handler::Missing, None, None);
    };
    for entry in entries {
        let value = &entry.value;
        let handler = match entry.key_str() {
            "httpGet" => {
                let (port, port_span) = port_ref(value.get("port"));
                Handler::HttpGet {
                    path: str_of(value.get("path")).unwrap_or_else(|| "/".into()),
                    port,
                    port_span,
                    scheme: str_of(value.get("scheme")).unwrap_or_else(|| "HTTP".into()),
                }
            }
            "tcpSocket" => {
                let (port, port_span) = port_ref(value.get("port"));
                Handler::TcpSocket { port, port_span }
            }
            "exec" => Handler::Exec {
                command: str_list(value.get("command")),
            },
            "grpc" => {
                let port_node = value.get("port");
                Handler::Grpc {
                    port: port_node.and_then(Node::as_int),
                    port_span: port_node.map(|port| port.span),
                }
            }
            "sleep" => Handler::Sleep {
                seconds: value.get("seconds").and_then(Node::as_int).unwrap_or(0),
            },
            _ => continue,
        };
        return (handler, Some(entry.key.span), Some(value.clone()));
    }
    (Handler::Missing, None, None)
}

fn lower_env(node: &Node) -> EnvVar {
    let value = node
        .get("value")
        .filter(|value| !value.is_null())
        .and_then(|value| {
            value
                .as_str()
                .map(|text| Setting::written(text.to_string(), value.span))
        });
    let value_from = node.get("valueFrom");
    let key_ref = |field: &str| {
        let reference = value_from?.get(field)?;
        Some((
            str_of(reference.get("name")).unwrap_or_default(),
            str_of(reference.get("key")).unwrap_or_default(),
            reference
                .get("optional")
                .and_then(Node::as_bool)
                .unwrap_or(false),
        ))
    };
    EnvVar {
        name: str_of(node.get("name")).unwrap_or_default(),
        value,
        secret_ref: key_ref("secretKeyRef"),
        config_map_ref: key_ref("configMapKeyRef"),
        span: node.span,
        name_span: node.get("name").map(|name| name.span),
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
