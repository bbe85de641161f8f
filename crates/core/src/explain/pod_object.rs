//! A simulated pod at time T as the API server returns it: the v1 Pod object
//! that `kubectl get pod NAME -o yaml|json` prints, and that the tests'
//! fake API server serves to a real kubectl (`crates/cli/tests/kubectl/`).
//!
//! - metadata: name, `generateName` (a ReplicaSet's or Job's pods),
//!   namespace, uid, resourceVersion, creationTimestamp, the labels with what
//!   the controllers add (`pod-template-hash`, a StatefulSet's pod index and
//!   name), the controller's ownerReference, and once deleted the
//!   `deletionTimestamp` (delete + grace period) and
//!   `deletionGracePeriodSeconds`;
//! - spec with the API server's defaults (`SetDefaults_PodSpec`,
//!   `SetDefaults_Container`, the probes', the ServiceAccount admission
//!   plugin's `kube-api-access-*` projected volume and its mount,
//!   DefaultTolerationSeconds' two tolerations, priority 0 with
//!   `PreemptLowerPriority`), `nodeName` once bound; quantities as the
//!   server writes them back (`Quantity.String()`: canonical, in the
//!   format of the written suffix);
//! - status as the kubelet writes it at T: the conditions, container
//!   statuses (state, lastState, ready, restartCount, started, image,
//!   imageID, containerID), hostIP(s), podIP(s) once the sandbox is up,
//!   phase, qosClass, startTime.
//!
//! What a real cluster invents and the simulator does not know (the node's
//! IP, container and image IDs, the token volume's suffix, owner uids) is
//! made up deterministically by `describe::ids` and here, so `describe` and
//! `get -o yaml` tell the same story.

use crate::explain::describe;
use crate::explain::printers::Value;
use crate::manifest::duration::Millis;
use crate::manifest::model::{Amount, Container, Handler, PortRef, Probe};
use crate::manifest::quantity::Quantity;
use crate::sim::{init, ContainerRun, ContainerState, ContainerStatus, PodRun, Run};

/// Where simulated time 0 lies on the clock, in Unix seconds: podlab's
/// epoch (2026-01-01T00:00:00Z) for kubectl's line, the wall clock less T
/// for the tests that run a real kubectl.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    pub base: i64,
}

impl Clock {
    pub const EPOCH: Clock = Clock {
        base: crate::manifest::duration::EPOCH_UNIX_SECONDS as i64,
    };

    /// `metav1.Time`: RFC 3339 in whole seconds (the API server truncates).
    pub fn time(self, at: Millis) -> String {
        rfc3339(self.base + (at / 1000) as i64)
    }
}

/// RFC 3339 of Unix seconds (`manifest::duration::rfc3339`).
pub use crate::manifest::duration::rfc3339;

fn obj() -> Value {
    Value::object()
}

fn int(number: impl TryInto<i64>) -> Value {
    Value::Int(number.try_into().unwrap_or(i64::MAX))
}

// ---- quantities --------------------------------------------------------------------

/// `Quantity.String()` of a quantity written as `written`: canonical in the
/// format its suffix gives (`CanonicalizeBytes`): BinarySI (`Ki`…`Ei`)
/// unless the value is under 1024 or fractional, DecimalExponent (`e3`),
/// else DecimalSI, the mantissa's exponent a multiple of three.
pub fn canonical_quantity(written: &str, quantity: Quantity) -> String {
    let milli = quantity.milli;
    if milli == 0 {
        return "0".into();
    }
    let binary = ["Ki", "Mi", "Gi", "Ti", "Pi", "Ei"]
        .iter()
        .any(|suffix| written.ends_with(suffix));
    let exponent = written
        .trim_start_matches(['+', '-'])
        .find(['e', 'E'])
        .is_some_and(|at| {
            let rest = &written.trim_start_matches(['+', '-'])[at + 1..];
            !rest.is_empty()
                && rest
                    .trim_start_matches(['+', '-'])
                    .bytes()
                    .all(|b| b.is_ascii_digit())
        });
    let sign = if milli < 0 { "-" } else { "" };
    let magnitude = milli.abs();
    if binary && magnitude >= 1024 * 1000 && magnitude % 1000 == 0 {
        let mut value = magnitude / 1000;
        let mut index = 0;
        let suffixes = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"];
        while index + 1 < suffixes.len() && value % 1024 == 0 {
            value /= 1024;
            index += 1;
        }
        return format!("{sign}{value}{}", suffixes[index]);
    }
    // Decimal: the mantissa and a power of ten (from milli, 10^-3).
    let mut mantissa = magnitude;
    let mut power = -3_i32;
    while mantissa % 1000 == 0 && power < 18 {
        mantissa /= 1000;
        power += 3;
    }
    let suffix = if exponent {
        if power == 0 {
            String::new()
        } else {
            format!("e{power}")
        }
    } else {
        match power {
            -3 => "m",
            0 => "",
            3 => "k",
            6 => "M",
            9 => "G",
            12 => "T",
            15 => "P",
            _ => "E",
        }
        .to_string()
    };
    format!("{sign}{mantissa}{suffix}")
}

fn quantity_text(source: &str, amount: &Amount) -> Option<String> {
    let quantity = amount.quantity?;
    let written = source
        .get(amount.value_span.start..amount.value_span.end)
        .map(|text| text.trim().trim_matches(|c| c == '"' || c == '\''))
        .filter(|text| !text.is_empty());
    Some(match written {
        Some(written) => canonical_quantity(written, quantity),
        None => describe::quantity_string(&amount.name, quantity),
    })
}

// ---- the spec ----------------------------------------------------------------------

fn port_value(port: &PortRef) -> Value {
    match port {
        PortRef::Number(number) => int(*number),
        PortRef::Name(name) => Value::str(name),
    }
}

fn handler(handler: &Handler) -> Value {
    let out = obj();
    match handler {
        Handler::HttpGet {
            path, port, scheme, ..
        } => {
            let mut get = obj();
            if !path.is_empty() {
                get.set("path", Value::str(path));
            }
            get.set("port", port.as_ref().map_or(Value::Int(0), port_value));
            get.set("scheme", Value::str(scheme));
            out.with("httpGet", get)
        }
        Handler::TcpSocket { port, .. } => out.with(
            "tcpSocket",
            obj().with("port", port.as_ref().map_or(Value::Int(0), port_value)),
        ),
        Handler::Exec { command } => out.with(
            "exec",
            obj().with(
                "command",
                command.iter().map(Value::from).collect::<Vec<_>>().into(),
            ),
        ),
        Handler::Grpc { port, .. } => out.with(
            "grpc",
            obj()
                .with("port", int(port.unwrap_or(0)))
                .with("service", Value::str("")),
        ),
        Handler::Sleep { seconds } => out.with("sleep", obj().with("seconds", int(*seconds))),
        Handler::Missing => out,
    }
}

fn probe(probe: &Probe) -> Value {
    let mut out = handler(&probe.handler)
        .with(
            "initialDelaySeconds",
            int(probe.initial_delay_seconds.value),
        )
        .with("timeoutSeconds", int(probe.timeout_seconds.value))
        .with("periodSeconds", int(probe.period_seconds.value))
        .with("successThreshold", int(probe.success_threshold.value))
        .with("failureThreshold", int(probe.failure_threshold.value));
    if let Some(grace) = &probe.termination_grace_period_seconds {
        out.set("terminationGracePeriodSeconds", int(grace.value));
    }
    out
}

/// `resources` after `SetDefaults_Container`: a limit without a request is
/// copied into the request.
fn resources(source: &str, container: &Container) -> Value {
    let amounts = |list: &[Amount]| -> Vec<(String, Value)> {
        list.iter()
            .filter_map(|amount| {
                Some((
                    amount.name.clone(),
                    Value::Str(quantity_text(source, amount)?),
                ))
            })
            .collect()
    };
    let limits = amounts(&container.resources.limits);
    let mut requests = Value::Object(amounts(&container.resources.requests));
    for (name, value) in &limits {
        if requests.get(name).is_none() {
            requests.set(name, value.clone());
        }
    }
    let mut out = obj();
    if !limits.is_empty() {
        out.set("limits", Value::Object(limits));
    }
    if requests != obj() {
        out.set("requests", requests);
    }
    out
}

fn env(container: &Container) -> Vec<Value> {
    let key_ref = |(name, key, optional): &(String, String, bool)| {
        let reference = obj()
            .with("key", Value::str(key))
            .with("name", Value::str(name));
        if *optional {
            reference.with("optional", Value::Bool(true))
        } else {
            reference
        }
    };
    container
        .env
        .iter()
        .map(|var| {
            let out = obj().with("name", Value::str(&var.name));
            if let Some(reference) = &var.secret_ref {
                out.with("valueFrom", obj().with("secretKeyRef", key_ref(reference)))
            } else if let Some(reference) = &var.config_map_ref {
                out.with(
                    "valueFrom",
                    obj().with("configMapKeyRef", key_ref(reference)),
                )
            } else {
                match var.value.as_ref().map(|v| v.value.as_str()) {
                    // `value` is `omitempty`.
                    Some(value) if !value.is_empty() => out.with("value", Value::str(value)),
                    _ => out,
                }
            }
        })
        .collect()
}

fn env_from(container: &Container) -> Vec<Value> {
    container
        .env_from
        .iter()
        .map(|source| {
            let mut reference = obj();
            if let Some(name) = source.config_map.as_ref().or(source.secret.as_ref()) {
                reference.set("name", Value::str(name));
            }
            if source.optional {
                reference.set("optional", Value::Bool(true));
            }
            let key = if source.config_map.is_some() || source.secret.is_none() {
                "configMapRef"
            } else {
                "secretRef"
            };
            let mut value = obj();
            if !source.prefix.is_empty() {
                value.set("prefix", Value::str(&source.prefix));
            }
            value.with(key, reference)
        })
        .collect()
}

fn strings(list: &[String]) -> Value {
    Value::List(list.iter().map(Value::from).collect())
}

/// A container as served; `api_volume` is the ServiceAccount token's
/// volume admission mounts in a pod's containers (`None` in a template).
pub fn container_spec(source: &str, container: &Container, api_volume: Option<&str>) -> Value {
    let mut out = obj().with("name", Value::str(&container.name));
    if let Some(image) = &container.image {
        out.set("image", Value::str(&image.value));
    }
    if !container.command.is_empty() {
        out.set("command", strings(&container.command));
    }
    if !container.args.is_empty() {
        out.set("args", strings(&container.args));
    }
    if !container.ports.is_empty() {
        let ports = container
            .ports
            .iter()
            .map(|port| {
                let mut value = obj();
                if let Some(name) = &port.name {
                    value.set("name", Value::str(name));
                }
                value
                    .with("containerPort", int(port.number))
                    .with("protocol", Value::str("TCP"))
            })
            .collect::<Vec<_>>();
        out.set("ports", ports.into());
    }
    let env_from = env_from(container);
    if !env_from.is_empty() {
        out.set("envFrom", env_from.into());
    }
    let env = env(container);
    if !env.is_empty() {
        out.set("env", env.into());
    }
    out.set("resources", resources(source, container));
    let mut mounts: Vec<Value> = container
        .volume_mounts
        .iter()
        .map(|mount| {
            let served = obj()
                .with("name", Value::str(&mount.name))
                .with("mountPath", Value::str(&mount.mount_path));
            if mount.read_only {
                served.with("readOnly", Value::Bool(true))
            } else {
                served
            }
        })
        .collect();
    if let Some(api_volume) = api_volume {
        mounts.push(
            obj()
                .with("name", Value::str(api_volume))
                .with("readOnly", Value::Bool(true))
                .with(
                    "mountPath",
                    Value::str("/var/run/secrets/kubernetes.io/serviceaccount"),
                ),
        );
    }
    if !mounts.is_empty() {
        out.set("volumeMounts", mounts.into());
    }
    for (key, spec) in [
        ("livenessProbe", &container.liveness),
        ("readinessProbe", &container.readiness),
        ("startupProbe", &container.startup),
    ] {
        if let Some(spec) = spec {
            out.set(key, probe(spec));
        }
    }
    if let Some(pre_stop) = &container.pre_stop {
        out.set("lifecycle", obj().with("preStop", handler(pre_stop)));
    }
    out.set("terminationMessagePath", Value::str("/dev/termination-log"));
    out.set("terminationMessagePolicy", Value::str("File"));
    out.set(
        "imagePullPolicy",
        Value::str(&container.image_pull_policy.value),
    );
    // `restartPolicy: Always` on an init container (a sidecar).
    if let Some(policy) = &container.restart_policy {
        out.set("restartPolicy", Value::str(policy));
    }
    out
}

/// The written volumes, then the ServiceAccount admission plugin's
/// projected `kube-api-access-*` volume.
fn volumes(pod: &PodRun, api_volume: &str) -> Vec<Value> {
    let mut out: Vec<Value> = pod
        .spec
        .volumes
        .iter()
        .map(|volume| {
            // `optional` is a *bool in the API: written only when set.
            let optional = |source: Value| {
                if volume.optional {
                    source.with("optional", Value::Bool(true))
                } else {
                    source
                }
            };
            let named = obj().with("name", Value::str(&volume.name));
            if let Some(secret) = &volume.secret_name {
                let source = obj()
                    .with("secretName", Value::str(secret))
                    .with("defaultMode", int(420));
                named.with("secret", optional(source))
            } else if let Some(config_map) = &volume.config_map_name {
                let source = obj()
                    .with("name", Value::str(config_map))
                    .with("defaultMode", int(420));
                named.with("configMap", optional(source))
            } else {
                let mut empty_dir = obj();
                if let Some(medium) = &volume.empty_dir_medium {
                    empty_dir.set("medium", Value::str(medium));
                }
                if let Some(limit) = volume.empty_dir_size_limit {
                    let quantity = Quantity {
                        milli: limit.saturating_mul(1000),
                    };
                    empty_dir.set(
                        "sizeLimit",
                        Value::Str(describe::quantity_string("memory", quantity)),
                    );
                }
                named.with("emptyDir", empty_dir)
            }
        })
        .collect();
    let item = |key: &str, path: &str| obj().with("key", key.into()).with("path", path.into());
    let namespace = obj().with("path", "namespace".into()).with(
        "fieldRef",
        obj()
            .with("apiVersion", "v1".into())
            .with("fieldPath", "metadata.namespace".into()),
    );
    out.push(
        obj().with("name", Value::str(api_volume)).with(
            "projected",
            obj()
                .with(
                    "sources",
                    Value::List(vec![
                        obj().with(
                            "serviceAccountToken",
                            obj()
                                .with("expirationSeconds", int(3607))
                                .with("path", "token".into()),
                        ),
                        obj().with(
                            "configMap",
                            obj()
                                .with("name", "kube-root-ca.crt".into())
                                .with("items", Value::List(vec![item("ca.crt", "ca.crt")])),
                        ),
                        obj().with(
                            "downwardAPI",
                            obj().with("items", Value::List(vec![namespace])),
                        ),
                    ]),
                )
                .with("defaultMode", int(420)),
        ),
    );
    out
}

/// The written tolerations, then DefaultTolerationSeconds' two (unless a
/// written one already tolerates the taint).
fn tolerations(pod: &PodRun) -> Vec<Value> {
    let written = &pod.spec.tolerations;
    let mut out: Vec<Value> = written
        .iter()
        .map(|toleration| {
            let mut value = obj();
            if !toleration.key.is_empty() {
                value.set("key", Value::str(&toleration.key));
            }
            value.set("operator", Value::str(&toleration.operator));
            if !toleration.value.is_empty() {
                value.set("value", Value::str(&toleration.value));
            }
            if !toleration.effect.is_empty() {
                value.set("effect", Value::str(&toleration.effect));
            }
            value
        })
        .collect();
    for key in [
        "node.kubernetes.io/not-ready",
        "node.kubernetes.io/unreachable",
    ] {
        let tolerated = written.iter().any(|t| {
            (t.key == key || t.key.is_empty()) && (t.effect == "NoExecute" || t.effect.is_empty())
        });
        if !tolerated {
            out.push(
                obj()
                    .with("key", key.into())
                    .with("operator", "Exists".into())
                    .with("effect", "NoExecute".into())
                    .with("tolerationSeconds", int(300)),
            );
        }
    }
    out
}

/// `GetPodQOS` over cpu and memory (zero amounts ignored): Guaranteed when
/// every container limits both with requests equal to the limits,
/// BestEffort when nothing is asked for, Burstable otherwise.
pub fn qos_class(pod: &PodRun) -> &'static str {
    let mut any = false;
    let mut guaranteed = true;
    for container in pod.spec.containers.iter().chain(&pod.spec.init_containers) {
        for name in ["cpu", "memory"] {
            let nonzero = |q: Option<Quantity>| q.filter(|q| q.milli != 0);
            let limit = nonzero(container.resources.limit(name).and_then(|a| a.quantity));
            let request = nonzero(container.resources.effective_request(name));
            any |= limit.is_some() || request.is_some();
            guaranteed &= limit.is_some() && limit == request;
        }
    }
    match (any, guaranteed) {
        (false, _) => "BestEffort",
        (true, true) => "Guaranteed",
        (true, false) => "Burstable",
    }
}

// ---- the status --------------------------------------------------------------------

fn state(state: &ContainerState, clock: Clock, id: &str) -> Value {
    match state {
        ContainerState::Waiting { reason, message } => {
            let mut waiting = obj().with("reason", Value::str(reason));
            if !message.is_empty() {
                waiting.set("message", Value::str(message));
            }
            obj().with("waiting", waiting)
        }
        ContainerState::Running { started } => obj().with(
            "running",
            obj().with("startedAt", clock.time(*started).into()),
        ),
        ContainerState::Terminated {
            reason,
            code,
            started,
            finished,
        } => obj().with(
            "terminated",
            obj()
                .with("exitCode", int(*code))
                .with("reason", Value::str(reason))
                .with("startedAt", clock.time(*started).into())
                .with("finishedAt", clock.time(*finished).into())
                .with("containerID", Value::str(id)),
        ),
    }
}

/// One `containerStatuses` entry. The status names the newest instance
/// that started: its ID is the status's `containerID` (also while waiting
/// in back-off, when that instance is the terminated Last State).
fn container_status(
    pod: &PodRun,
    container: &ContainerRun,
    status: &ContainerStatus,
    image: &str,
    at: Millis,
    clock: Clock,
) -> Value {
    let base = obj().with("name", Value::str(&container.name));
    let newest = container.instances.iter().rposition(|i| i.started <= at);
    let Some(newest) = newest else {
        return base
            .with("state", state(&status.state, clock, ""))
            .with("lastState", obj())
            .with("ready", Value::Bool(false))
            .with("restartCount", int(status.restart_count))
            .with("image", Value::str(image))
            .with("imageID", Value::str(""))
            .with("started", Value::Bool(false));
    };
    let id = describe::container_id(pod, &container.name, newest);
    let last_id = match &status.state {
        ContainerState::Waiting { .. } => id.clone(),
        _ => newest.checked_sub(1).map_or(String::new(), |i| {
            describe::container_id(pod, &container.name, i)
        }),
    };
    let last_state = status
        .last_state
        .as_ref()
        .map_or(obj(), |last| state(last, clock, &last_id));
    let started = matches!(status.state, ContainerState::Running { .. })
        && container.instances[newest]
            .started_ok
            .is_some_and(|ok| ok <= at);
    base.with("state", state(&status.state, clock, &id))
        .with("lastState", last_state)
        .with("ready", Value::Bool(status.ready))
        .with("restartCount", int(status.restart_count))
        .with("image", Value::str(image))
        .with("imageID", describe::image_id(image).into())
        .with("containerID", id.into())
        .with("started", Value::Bool(started))
}

fn condition(kind: &str, status: bool, since: Millis, clock: Clock) -> Value {
    obj()
        .with("type", kind.into())
        .with("status", if status { "True" } else { "False" }.into())
        .with("lastProbeTime", Value::Null)
        .with("lastTransitionTime", clock.time(since).into())
}

/// The latest change of any container's readiness up to `at` (the Ready
/// condition's lastTransitionTime; describe does not print it).
fn ready_changed(pod: &PodRun, at: Millis, since: Millis) -> Millis {
    let mut changed = since;
    for instance in pod
        .containers
        .iter()
        .flat_map(|c| &c.instances)
        .filter(|i| i.started <= at)
    {
        for (from, to) in &instance.ready {
            for edge in std::iter::once(*from).chain(*to) {
                if edge <= at {
                    changed = changed.max(edge);
                }
            }
        }
        if let Some(exit) = instance.exit.as_ref().filter(|e| e.at <= at) {
            if !instance.ready.is_empty() {
                changed = changed.max(exit.at);
            }
        }
    }
    changed
}

// ---- metadata ----------------------------------------------------------------------

/// The controller that owns the pod: a Deployment's pods belong to its
/// ReplicaSet `<name>-<pod-template-hash>`. `None` for a bare pod.
fn controller(pod: &PodRun) -> Option<(&str, String)> {
    let (kind, name) = pod.owner.split_once('/')?;
    Some(match (kind, &pod.template_hash) {
        ("Pod", _) => return None,
        ("Deployment", Some(hash)) => ("ReplicaSet", format!("{name}-{hash}")),
        ("Deployment", None) => ("ReplicaSet", name.to_owned()),
        _ => (kind, name.to_owned()),
    })
}

fn owner_references(pod: &PodRun) -> Option<Value> {
    let (kind, name) = controller(pod)?;
    let api_version = if matches!(kind, "Job" | "CronJob") {
        "batch/v1"
    } else {
        "apps/v1"
    };
    // A Job's uid is the one its pods carry in `controller-uid`.
    let uid = match pod
        .labels
        .iter()
        .find(|(key, _)| kind == "Job" && key == "batch.kubernetes.io/controller-uid")
    {
        Some((_, uid)) => uid.clone(),
        None => owner_uid(&format!("{kind}/{name}")),
    };
    Some(Value::List(vec![obj()
        .with("apiVersion", api_version.into())
        .with("kind", kind.into())
        .with("name", name.into())
        .with("uid", uid.into())
        .with("controller", Value::Bool(true))
        .with("blockOwnerDeletion", Value::Bool(true))]))
}

/// `generateName`: the ReplicaSet and Job controllers name their pods
/// `<owner>-` + a random suffix; a StatefulSet's pods have fixed names.
fn generate_name(pod: &PodRun) -> Option<String> {
    let (kind, name) = controller(pod)?;
    let prefix = format!("{name}-");
    (matches!(kind, "ReplicaSet" | "Job") && pod.name.starts_with(&prefix)).then_some(prefix)
}

/// A uid for the owner, from its name (describe prints only Kind/Name).
fn owner_uid(owner: &str) -> String {
    let hash = owner.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    describe::uuid_of(&format!(
        "{hash:016x}{:016x}",
        hash.rotate_left(29) ^ 0x9e37_79b9_7f4a_7c15
    ))
}

// ---- the Pod -----------------------------------------------------------------------

/// The v1 Pod object of `pod` at `at`. `source` is the manifest text the
/// run was simulated from (for quantities in their written format).
pub fn pod(run: &Run, pod: &PodRun, at: Millis, source: &str, clock: Clock) -> Value {
    let api_volume = describe::api_access_volume(pod);
    let labels: Vec<(String, Value)> = describe::pod_labels(pod, at)
        .into_iter()
        .map(|(key, value)| (key, Value::Str(value)))
        .collect();
    let mut metadata = obj().with("name", Value::str(&pod.name));
    if let Some(prefix) = generate_name(pod) {
        metadata.set("generateName", prefix.into());
    }
    metadata = metadata
        .with("namespace", "default".into())
        .with("uid", Value::str(&pod.uid))
        .with("resourceVersion", "1000".into())
        .with("creationTimestamp", clock.time(pod.created).into());
    // `labels,omitempty`: a pod without labels has none on the wire.
    if !labels.is_empty() {
        metadata.set("labels", Value::Object(labels));
    }
    let annotations = pod.annotations_at(at);
    if !annotations.is_empty() {
        let annotations = annotations
            .iter()
            .map(|(key, value)| (key.clone(), Value::str(value)))
            .collect();
        metadata.set("annotations", Value::Object(annotations));
    }
    if let Some(owners) = owner_references(pod).filter(|_| pod.owned_at(at)) {
        metadata.set("ownerReferences", owners);
    }
    // Being deleted: the API server sets deletionTimestamp to the delete
    // plus the grace period, and deletionGracePeriodSeconds.
    if let Some(deleting) = pod.deleting.filter(|deleting| *deleting <= at) {
        let grace = pod.grace_seconds().max(0);
        metadata.set(
            "deletionTimestamp",
            clock.time(deleting + grace.unsigned_abs() * 1000).into(),
        );
        metadata.set("deletionGracePeriodSeconds", int(grace));
    }
    let containers = |list: &[Container]| -> Value {
        Value::List(
            list.iter()
                .map(|container| container_spec(source, container, Some(&api_volume)))
                .collect(),
        )
    };
    let mut spec = obj()
        .with("volumes", volumes(pod, &api_volume).into())
        .with("containers", containers(&pod.spec.containers))
        .with("restartPolicy", Value::str(&pod.spec.restart_policy.value))
        .with(
            "terminationGracePeriodSeconds",
            int(pod.spec.termination_grace_period_seconds.value),
        )
        .with("dnsPolicy", "ClusterFirst".into())
        .with("serviceAccountName", "default".into())
        .with("serviceAccount", "default".into())
        .with("securityContext", obj())
        .with("schedulerName", "default-scheduler".into())
        .with("tolerations", tolerations(pod).into())
        .with("priority", int(0))
        .with("enableServiceLinks", Value::Bool(true))
        .with("preemptionPolicy", "PreemptLowerPriority".into());
    if !pod.spec.init_containers.is_empty() {
        spec.set("initContainers", containers(&pod.spec.init_containers));
    }
    if !pod.spec.node_selector.is_empty() {
        let selector = pod
            .spec
            .node_selector
            .iter()
            .map(|(key, value)| (key.clone(), Value::str(value)))
            .collect();
        spec.set("nodeSelector", Value::Object(selector));
    }
    let qos = qos_class(pod);
    let bound = pod.node.as_ref().filter(|(_, bound)| *bound <= at);
    let status = match bound {
        None => {
            let object = format!("Pod/{}", pod.name);
            let message = run
                .events
                .iter()
                .rev()
                .find(|e| *e.object == *object && e.reason == "FailedScheduling" && e.at <= at)
                .map_or("", |e| &*e.message);
            let unschedulable = condition("PodScheduled", false, pod.created, clock)
                .with("reason", "Unschedulable".into())
                .with("message", message.into());
            obj()
                .with("phase", "Pending".into())
                .with("conditions", Value::List(vec![unschedulable]))
                .with("qosClass", qos.into())
        }
        Some((node, bound_at)) => {
            spec.set("nodeName", Value::str(node));
            pod_status(pod, *bound_at, at, clock, qos)
        }
    };
    obj()
        .with("kind", "Pod".into())
        .with("apiVersion", "v1".into())
        .with("metadata", metadata)
        .with("spec", spec)
        .with("status", status)
}

/// The status of a bound pod. Before the kubelet's first sync only the
/// scheduler's condition exists; `startTime`, `hostIP` and the container
/// statuses come with that sync, the pod IP with the sandbox (`PodRun::sandbox`),
/// as podlab's describe renderer models them.
fn pod_status(pod: &PodRun, bound_at: Millis, at: Millis, clock: Clock, qos: &str) -> Value {
    let start_time = pod.synced_at().unwrap_or(pod.created);
    if at < start_time {
        return obj()
            .with("phase", "Pending".into())
            .with(
                "conditions",
                Value::List(vec![condition("PodScheduled", true, bound_at, clock)]),
            )
            .with("qosClass", qos.into());
    }
    let sandbox = pod.sandbox.filter(|ready| *ready <= at);
    let phase = pod.phase_at(at);
    let statuses = pod.statuses_at(at);
    let ready = !statuses.is_empty()
        && statuses
            .iter()
            .all(|s| s.ready && matches!(s.state, ContainerState::Running { .. }));
    let ready_at = ready_changed(pod, at, start_time);
    let terminal = matches!(phase, "Succeeded" | "Failed");
    let image_of = |spec: &Container| {
        spec.image
            .as_ref()
            .map_or(String::new(), |image| image.value.clone())
    };
    let container_statuses: Vec<Value> = pod
        .containers
        .iter()
        .zip(&pod.spec.containers)
        .zip(&statuses)
        .map(|((container, spec), status)| {
            container_status(pod, container, status, &image_of(spec), at, clock)
        })
        .collect();
    let init_statuses: Vec<Value> = pod
        .init_containers
        .iter()
        .zip(&pod.spec.init_containers)
        .zip(pod.init_statuses_at(at))
        .map(|((container, spec), status)| {
            container_status(pod, container, &status, &image_of(spec), at, clock)
        })
        .collect();
    let initialized = init::initialized_since(pod, at);
    let mut initialized_condition = condition(
        "Initialized",
        initialized.is_some(),
        initialized.unwrap_or(start_time).max(start_time),
        clock,
    );
    if initialized.is_none() {
        initialized_condition.set("reason", "ContainersNotInitialized".into());
        initialized_condition.set(
            "message",
            format!(
                "containers with incomplete status: [{}]",
                init::incomplete_at(pod, at).join(" ")
            )
            .into(),
        );
    }
    let host_ip = describe::host_ip(pod);
    let mut status = obj()
        .with("phase", phase.into())
        .with(
            "conditions",
            Value::List(vec![
                condition(
                    "PodReadyToStartContainers",
                    sandbox.is_some() && !terminal,
                    sandbox.unwrap_or(start_time),
                    clock,
                ),
                initialized_condition,
                condition("Ready", ready, ready_at, clock),
                condition("ContainersReady", ready, ready_at, clock),
                condition("PodScheduled", true, bound_at, clock),
            ]),
        )
        .with("hostIP", Value::str(&host_ip))
        .with(
            "hostIPs",
            Value::List(vec![obj().with("ip", Value::str(&host_ip))]),
        );
    if sandbox.is_some() {
        status.set("podIP", Value::str(&pod.ip));
        status.set(
            "podIPs",
            Value::List(vec![obj().with("ip", Value::str(&pod.ip))]),
        );
    }
    status.set("startTime", clock.time(start_time).into());
    if !init_statuses.is_empty() {
        status.set("initContainerStatuses", init_statuses.into());
    }
    status.set("containerStatuses", container_statuses.into());
    status.set("qosClass", qos.into());
    status
}

/// `kubectl get pods -o yaml|json`'s object: kubectl's own `v1` `List`
/// (`GetOptions.printGeneric`) with an empty `resourceVersion`.
pub fn list(items: Vec<Value>) -> Value {
    obj()
        .with("apiVersion", "v1".into())
        .with("items", Value::List(items))
        .with("kind", "List".into())
        .with("metadata", obj().with("resourceVersion", "".into()))
}
