//! Lowering: the spanned YAML tree of a workload document to the typed
//! objects of `model`, the API server's defaults applied (see `model`'s
//! module doc). Never fails, never panics.

use super::{
    default_pull_policy, Amount, Container, ContainerPort, CronSpec, DeploymentSpec, EnvFrom,
    EnvVar, Handler, IntOrPercent, JobSpec, PodSpec, PortRef, Probe, ProbeKind, Requirement,
    Resources, Setting, Toleration, Volume, VolumeMount, Workload, WorkloadKind,
};
use crate::manifest::quantity;
use crate::manifest::yaml::{Node, NodeKind};
use crate::span::Span;

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
    let string_map = |key: &str| -> Vec<(String, String)> {
        template_metadata
            .and_then(|meta| meta.get(key))
            .and_then(Node::entries)
            .unwrap_or(&[])
            .iter()
            .filter_map(|entry| {
                str_of(Some(&entry.value)).map(|value| (entry.key_str().to_string(), value))
            })
            .collect()
    };
    let pod_labels = string_map("labels");
    let pod_annotations = string_map("annotations");
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
    let deployment = (kind == WorkloadKind::Deployment).then(|| lower_deployment(spec));
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
        pod_annotations,
        deployment,
        template: template_node(root, kind).map(crate::manifest::canonical::Canon::of),
    }
}

/// The pod template's node: `spec.template`, a CronJob's
/// `spec.jobTemplate.spec.template`; a Pod has none.
fn template_node(root: &Node, kind: WorkloadKind) -> Option<&Node> {
    let spec = root.get("spec")?;
    match kind {
        WorkloadKind::Pod => None,
        WorkloadKind::CronJob => spec.get("jobTemplate")?.get("spec")?.get("template"),
        _ => spec.get("template"),
    }
}

/// A Deployment's `strategy`, `minReadySeconds` and
/// `progressDeadlineSeconds`, defaulted as `SetDefaults_Deployment`
/// (scheduler-controllers.md §5.2); a value of the wrong type keeps the
/// default (PL002 reports it).
fn lower_deployment(spec: Option<&Node>) -> DeploymentSpec {
    let strategy = spec.and_then(|spec| spec.get("strategy"));
    let rolling = strategy.and_then(|strategy| strategy.get("rollingUpdate"));
    let int_or_percent = |key: &str| {
        let node = rolling.and_then(|rolling| rolling.get(key));
        match node.and_then(|node| int_or_percent(node).map(|value| (value, node.span))) {
            Some((value, span)) => Setting::written(value, span),
            None => Setting::default(IntOrPercent::Percent(25)),
        }
    };
    DeploymentSpec {
        strategy: strategy
            .and_then(|strategy| strategy.get("type"))
            .and_then(|node| str_of(Some(node)).map(|value| Setting::written(value, node.span)))
            .unwrap_or(Setting::default("RollingUpdate".to_string())),
        max_surge: int_or_percent("maxSurge"),
        max_unavailable: int_or_percent("maxUnavailable"),
        min_ready_seconds: spec
            .map(|spec| int_setting(spec, "minReadySeconds", 0))
            .unwrap_or(Setting::default(0)),
        progress_deadline_seconds: spec
            .map(|spec| int_setting(spec, "progressDeadlineSeconds", 600))
            .unwrap_or(Setting::default(600)),
    }
}

/// `1` or `"25%"` (an `IntOrString`); anything else is `None`.
fn int_or_percent(node: &Node) -> Option<IntOrPercent> {
    if let Some(value) = node.as_int() {
        return Some(IntOrPercent::Int(value));
    }
    let text = node.as_str()?.trim();
    let percent = text.strip_suffix('%')?.parse::<i64>().ok()?;
    Some(IntOrPercent::Percent(percent))
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
        host_ipc: spec.get("hostIPC").and_then(Node::as_bool).unwrap_or(false),
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
        empty_dir_size_limit: node
            .get("emptyDir")
            .and_then(|empty_dir| str_of(empty_dir.get("sizeLimit")))
            .and_then(|limit| crate::manifest::quantity::parse(&limit).ok())
            .map(|quantity| quantity.milli / 1000),
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
