//! A simulated pod at a time T as the API server would return it: a v1 Pod
//! object, and its v1 Events from podlab's event aggregator.
//!
//! What a real cluster invents and the simulator does not know (the node's
//! IP, container and image IDs, the `kube-api-access-*` suffix) comes from
//! the describe renderer's own functions (`explain::describe`), so kubectl
//! and podlab describe the same objects. Everything kubectl derives itself
//! is served raw: quantities as written (kubectl canonicalises them), the
//! tolerations and labels the admission plugins and controllers add, the
//! container states, so the renderer's own derivations are checked.

use podlab_core::explain::describe;
use podlab_core::explain::events::{self, EventObject};
use podlab_core::manifest::duration::Millis;
use podlab_core::manifest::model::{Amount, Container, Handler, PortRef, Probe};
use podlab_core::manifest::quantity::Quantity;
use podlab_core::sim::{init, ContainerRun, ContainerState, ContainerStatus, PodRun, Run, Timing};
use serde_json::{json, Map, Value};

/// Where simulated time 0 lies on the real clock, in whole Unix seconds.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    pub base: i64,
}

/// podlab's fixed epoch, 2026-01-01T00:00:00Z, in Unix seconds.
pub const EPOCH: i64 = events::EPOCH_UNIX_SECONDS as i64;

impl Clock {
    /// `metav1.Time`: RFC 3339 in whole seconds (the API server truncates).
    pub fn time(self, at: Millis) -> String {
        rfc3339(self.base + seconds(at), None)
    }

    /// `metav1.MicroTime`: RFC 3339 with microseconds (events.k8s.io).
    pub fn micro_time(self, at: Millis) -> String {
        let micros = (at.rem_euclid(1000)) * 1000;
        rfc3339(self.base + at.div_euclid(1000) as i64, Some(micros as u32))
    }
}

fn seconds(at: Millis) -> i64 {
    at.div_euclid(1000) as i64
}

/// Days since 1970-01-01 → (year, month, day) (Howard Hinnant's algorithm).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// (year, month, day) → days since 1970-01-01.
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let yoe = year.rem_euclid(400);
    let month = i64::from(month);
    let doy = (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

pub fn rfc3339(unix: i64, micros: Option<u32>) -> String {
    let (year, month, day) = civil(unix.div_euclid(86_400));
    let second_of_day = unix.rem_euclid(86_400);
    let (hour, minute, second) = (
        second_of_day / 3600,
        second_of_day / 60 % 60,
        second_of_day % 60,
    );
    let fraction = micros.map_or(String::new(), |micros| format!(".{micros:06}"));
    format!("{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}{fraction}Z")
}

const WEEKDAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// Go's `time.RFC1123Z` in UTC: `Thu, 01 Jan 2026 00:00:00 +0000`.
pub fn rfc1123z(unix: i64) -> String {
    let days = unix.div_euclid(86_400);
    let (year, month, day) = civil(days);
    let second_of_day = unix.rem_euclid(86_400);
    format!(
        "{}, {day:02} {} {year:04} {:02}:{:02}:{:02} +0000",
        WEEKDAYS[days.rem_euclid(7) as usize],
        MONTHS[(month - 1) as usize],
        second_of_day / 3600,
        second_of_day / 60 % 60,
        second_of_day % 60
    )
}

fn parse_rfc1123z(text: &str) -> Option<i64> {
    // "Thu, 01 Jan 2026 00:00:00 +0000"
    if text.len() != 31 || !text.is_ascii() || &text[3..5] != ", " || &text[25..] != " +0000" {
        return None;
    }
    WEEKDAYS.iter().position(|w| *w == &text[..3])?;
    let day: u32 = text[5..7].parse().ok()?;
    let month = MONTHS.iter().position(|m| *m == &text[8..11])? as u32 + 1;
    let year: i64 = text[12..16].parse().ok()?;
    let hour: i64 = text[17..19].parse().ok()?;
    let minute: i64 = text[20..22].parse().ok()?;
    let second: i64 = text[23..25].parse().ok()?;
    Some(days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second)
}

/// Moves every RFC 1123Z date in `text` by `delta` seconds (kubectl's
/// absolute times, printed from objects on the real clock, back onto
/// podlab's epoch). Nothing else changes: column widths stay the same.
pub fn shift_dates(text: &str, delta: i64) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        let found = rest.char_indices().find_map(|(i, _)| {
            let candidate = rest.get(i..i + 31)?;
            parse_rfc1123z(candidate).map(|unix| (i, unix))
        });
        match found {
            Some((i, unix)) => {
                out.push_str(&rest[..i]);
                out.push_str(&rfc1123z(unix + delta));
                rest = &rest[i + 31..];
            }
            None => {
                out.push_str(rest);
                rest = "";
            }
        }
    }
    out
}

// ---- the Pod ---------------------------------------------------------------------

/// A quantity as written in the manifest (the API server keeps its format,
/// which kubectl's `Quantity.String()` then canonicalises), else the
/// renderer's canonical guess.
fn quantity_text(source: &str, amount: &Amount) -> Option<String> {
    let quantity = amount.quantity?;
    let written = source
        .get(amount.value_span.start..amount.value_span.end)
        .map(|text| text.trim().trim_matches(|c| c == '"' || c == '\''))
        .filter(|text| !text.is_empty());
    Some(written.map_or_else(
        || describe::quantity_string(&amount.name, quantity),
        str::to_owned,
    ))
}

fn port_value(port: &PortRef) -> Value {
    match port {
        PortRef::Number(number) => json!(number),
        PortRef::Name(name) => json!(name),
    }
}

fn handler(handler: &Handler) -> Map<String, Value> {
    let mut out = Map::new();
    match handler {
        Handler::HttpGet {
            path, port, scheme, ..
        } => {
            let mut get = Map::new();
            get.insert("path".into(), json!(path));
            get.insert("port".into(), port.as_ref().map_or(json!(0), port_value));
            get.insert("scheme".into(), json!(scheme));
            out.insert("httpGet".into(), Value::Object(get));
        }
        Handler::TcpSocket { port, .. } => {
            let port = port.as_ref().map_or(json!(0), port_value);
            out.insert("tcpSocket".into(), json!({ "port": port }));
        }
        Handler::Exec { command } => {
            out.insert("exec".into(), json!({ "command": command }));
        }
        Handler::Grpc { port, .. } => {
            out.insert(
                "grpc".into(),
                json!({ "port": port.unwrap_or(0), "service": "" }),
            );
        }
        Handler::Sleep { seconds } => {
            out.insert("sleep".into(), json!({ "seconds": seconds }));
        }
        Handler::Missing => {}
    }
    out
}

fn probe(probe: &Probe) -> Value {
    let mut out = handler(&probe.handler);
    out.insert(
        "initialDelaySeconds".into(),
        json!(probe.initial_delay_seconds.value),
    );
    out.insert("timeoutSeconds".into(), json!(probe.timeout_seconds.value));
    out.insert("periodSeconds".into(), json!(probe.period_seconds.value));
    out.insert(
        "successThreshold".into(),
        json!(probe.success_threshold.value),
    );
    out.insert(
        "failureThreshold".into(),
        json!(probe.failure_threshold.value),
    );
    if let Some(grace) = &probe.termination_grace_period_seconds {
        out.insert("terminationGracePeriodSeconds".into(), json!(grace.value));
    }
    Value::Object(out)
}

/// `resources` after `SetDefaults_Container`: a limit without a request is
/// copied into the request.
fn resources(source: &str, container: &Container) -> Value {
    let amounts = |list: &[Amount]| -> Map<String, Value> {
        list.iter()
            .filter_map(|amount| Some((amount.name.clone(), json!(quantity_text(source, amount)?))))
            .collect()
    };
    let limits = amounts(&container.resources.limits);
    let mut requests = amounts(&container.resources.requests);
    for (name, value) in &limits {
        if !requests.contains_key(name) {
            requests.insert(name.clone(), value.clone());
        }
    }
    let mut out = Map::new();
    if !limits.is_empty() {
        out.insert("limits".into(), Value::Object(limits));
    }
    if !requests.is_empty() {
        out.insert("requests".into(), Value::Object(requests));
    }
    Value::Object(out)
}

fn env(container: &Container) -> Vec<Value> {
    let key_ref = |(name, key, optional): &(String, String, bool)| {
        let mut reference = json!({ "name": name, "key": key });
        if *optional {
            reference["optional"] = json!(true);
        }
        reference
    };
    container
        .env
        .iter()
        .map(|var| {
            if let Some(reference) = &var.secret_ref {
                json!({ "name": var.name, "valueFrom": { "secretKeyRef": key_ref(reference) } })
            } else if let Some(reference) = &var.config_map_ref {
                json!({ "name": var.name, "valueFrom": { "configMapKeyRef": key_ref(reference) } })
            } else {
                let value = var.value.as_ref().map_or("", |v| v.value.as_str());
                json!({ "name": var.name, "value": value })
            }
        })
        .collect()
}

fn env_from(container: &Container) -> Vec<Value> {
    container
        .env_from
        .iter()
        .map(|source| {
            let mut reference = Map::new();
            if let Some(name) = source.config_map.as_ref().or(source.secret.as_ref()) {
                reference.insert("name".into(), json!(name));
            }
            if source.optional {
                reference.insert("optional".into(), json!(true));
            }
            let key = if source.config_map.is_some() || source.secret.is_none() {
                "configMapRef"
            } else {
                "secretRef"
            };
            let mut value = Map::new();
            if !source.prefix.is_empty() {
                value.insert("prefix".into(), json!(source.prefix));
            }
            value.insert(key.into(), Value::Object(reference));
            Value::Object(value)
        })
        .collect()
}

/// A container as served; `api_volume` is the ServiceAccount token's
/// volume admission mounts in a pod's containers (`None` in a template).
pub fn container_spec(source: &str, container: &Container, api_volume: Option<&str>) -> Value {
    let mut out = Map::new();
    out.insert("name".into(), json!(container.name));
    if let Some(image) = &container.image {
        out.insert("image".into(), json!(image.value));
    }
    if !container.command.is_empty() {
        out.insert("command".into(), json!(container.command));
    }
    if !container.args.is_empty() {
        out.insert("args".into(), json!(container.args));
    }
    if !container.ports.is_empty() {
        let ports: Vec<Value> = container
            .ports
            .iter()
            .map(|port| {
                let mut value = Map::new();
                if let Some(name) = &port.name {
                    value.insert("name".into(), json!(name));
                }
                value.insert("containerPort".into(), json!(port.number));
                value.insert("protocol".into(), json!("TCP"));
                Value::Object(value)
            })
            .collect();
        out.insert("ports".into(), json!(ports));
    }
    let env_from = env_from(container);
    if !env_from.is_empty() {
        out.insert("envFrom".into(), json!(env_from));
    }
    let env = env(container);
    if !env.is_empty() {
        out.insert("env".into(), json!(env));
    }
    out.insert("resources".into(), resources(source, container));
    let mut mounts: Vec<Value> = container
        .volume_mounts
        .iter()
        .map(|mount| {
            let mut served = json!({ "name": mount.name, "mountPath": mount.mount_path });
            if mount.read_only {
                served["readOnly"] = json!(true);
            }
            served
        })
        .collect();
    if let Some(api_volume) = api_volume {
        mounts.push(json!({
            "name": api_volume,
            "readOnly": true,
            "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount"
        }));
    }
    if !mounts.is_empty() {
        out.insert("volumeMounts".into(), json!(mounts));
    }
    for (key, spec) in [
        ("livenessProbe", &container.liveness),
        ("readinessProbe", &container.readiness),
        ("startupProbe", &container.startup),
    ] {
        if let Some(spec) = spec {
            out.insert(key.into(), probe(spec));
        }
    }
    if let Some(pre_stop) = &container.pre_stop {
        out.insert(
            "lifecycle".into(),
            json!({ "preStop": Value::Object(handler(pre_stop)) }),
        );
    }
    out.insert(
        "terminationMessagePath".into(),
        json!("/dev/termination-log"),
    );
    out.insert("terminationMessagePolicy".into(), json!("File"));
    out.insert(
        "imagePullPolicy".into(),
        json!(container.image_pull_policy.value),
    );
    // `restartPolicy: Always` on an init container (a sidecar).
    if let Some(policy) = &container.restart_policy {
        out.insert("restartPolicy".into(), json!(policy));
    }
    Value::Object(out)
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
            let optional = |mut source: Value| {
                if volume.optional {
                    source["optional"] = json!(true);
                }
                source
            };
            if let Some(secret) = &volume.secret_name {
                json!({ "name": volume.name, "secret": optional(json!({ "secretName": secret, "defaultMode": 420 })) })
            } else if let Some(config_map) = &volume.config_map_name {
                json!({ "name": volume.name, "configMap": optional(json!({ "name": config_map, "defaultMode": 420 })) })
            } else {
                let mut empty_dir = Map::new();
                if let Some(medium) = &volume.empty_dir_medium {
                    empty_dir.insert("medium".into(), json!(medium));
                }
                json!({ "name": volume.name, "emptyDir": Value::Object(empty_dir) })
            }
        })
        .collect();
    out.push(json!({
        "name": api_volume,
        "projected": {
            "sources": [
                { "serviceAccountToken": { "expirationSeconds": 3607, "path": "token" } },
                { "configMap": {
                    "name": "kube-root-ca.crt",
                    "items": [{ "key": "ca.crt", "path": "ca.crt" }]
                } },
                { "downwardAPI": { "items": [{
                    "path": "namespace",
                    "fieldRef": { "apiVersion": "v1", "fieldPath": "metadata.namespace" }
                }] } }
            ],
            "defaultMode": 420
        }
    }));
    out
}

/// The written tolerations, then DefaultTolerationSeconds' two (unless a
/// written one already tolerates the taint).
fn tolerations(pod: &PodRun) -> Vec<Value> {
    let written = &pod.spec.tolerations;
    let mut out: Vec<Value> = written
        .iter()
        .map(|toleration| {
            let mut value = Map::new();
            if !toleration.key.is_empty() {
                value.insert("key".into(), json!(toleration.key));
            }
            value.insert("operator".into(), json!(toleration.operator));
            if !toleration.value.is_empty() {
                value.insert("value".into(), json!(toleration.value));
            }
            if !toleration.effect.is_empty() {
                value.insert("effect".into(), json!(toleration.effect));
            }
            Value::Object(value)
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
            out.push(json!({
                "key": key,
                "operator": "Exists",
                "effect": "NoExecute",
                "tolerationSeconds": 300
            }));
        }
    }
    out
}

/// `GetPodQOS` over cpu and memory (zero amounts ignored): Guaranteed when
/// every container limits both with requests equal to the limits,
/// BestEffort when nothing is asked for, Burstable otherwise.
fn qos_class(pod: &PodRun) -> &'static str {
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

fn state(state: &ContainerState, clock: Clock, id: &str) -> Value {
    match state {
        ContainerState::Waiting { reason, message } => {
            let mut waiting = json!({ "reason": reason });
            if !message.is_empty() {
                waiting["message"] = json!(message);
            }
            json!({ "waiting": waiting })
        }
        ContainerState::Running { started } => {
            json!({ "running": { "startedAt": clock.time(*started) } })
        }
        ContainerState::Terminated {
            reason,
            code,
            started,
            finished,
        } => json!({ "terminated": {
            "exitCode": code,
            "reason": reason,
            "startedAt": clock.time(*started),
            "finishedAt": clock.time(*finished),
            "containerID": id
        } }),
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
    let newest = container.instances.iter().rposition(|i| i.started <= at);
    let Some(newest) = newest else {
        return json!({
            "name": container.name,
            "state": state(&status.state, clock, ""),
            "lastState": {},
            "ready": false,
            "restartCount": status.restart_count,
            "image": image,
            "imageID": "",
            "started": false
        });
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
        .map_or(json!({}), |last| state(last, clock, &last_id));
    let started = matches!(status.state, ContainerState::Running { .. })
        && container.instances[newest]
            .started_ok
            .is_some_and(|ok| ok <= at);
    json!({
        "name": container.name,
        "state": state(&status.state, clock, &id),
        "lastState": last_state,
        "ready": status.ready,
        "restartCount": status.restart_count,
        "image": image,
        "imageID": describe::image_id(image),
        "containerID": id,
        "started": started
    })
}

fn condition(kind: &str, status: bool, since: Millis, clock: Clock) -> Value {
    json!({
        "type": kind,
        "status": if status { "True" } else { "False" },
        "lastProbeTime": null,
        "lastTransitionTime": clock.time(since)
    })
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

fn labels(pod: &PodRun) -> Map<String, Value> {
    let mut labels = pod.labels.clone();
    if let Some(hash) = &pod.template_hash {
        labels.push(("pod-template-hash".into(), hash.clone()));
    }
    if let Some(set) = pod.owner.strip_prefix("StatefulSet/") {
        let ordinal = pod
            .name
            .strip_prefix(set)
            .and_then(|rest| rest.strip_prefix('-'))
            .unwrap_or_default();
        labels.push(("apps.kubernetes.io/pod-index".into(), ordinal.into()));
        labels.push((
            "statefulset.kubernetes.io/pod-name".into(),
            pod.name.clone(),
        ));
    }
    labels
        .into_iter()
        .map(|(key, value)| (key, json!(value)))
        .collect()
}

/// The controller's ownerReference: a Deployment's pods belong to its
/// ReplicaSet `<name>-<pod-template-hash>`.
fn owner_references(pod: &PodRun) -> Option<Value> {
    let (kind, name) = pod.owner.split_once('/')?;
    let (kind, name) = match (kind, &pod.template_hash) {
        ("Pod", _) => return None,
        ("Deployment", Some(hash)) => ("ReplicaSet", format!("{name}-{hash}")),
        ("Deployment", None) => ("ReplicaSet", name.to_owned()),
        _ => (kind, name.to_owned()),
    };
    let api_version = if matches!(kind, "Job" | "CronJob") {
        "batch/v1"
    } else {
        "apps/v1"
    };
    Some(json!([{
        "apiVersion": api_version,
        "kind": kind,
        "name": name,
        "uid": owner_uid(&format!("{kind}/{name}")),
        "controller": true,
        "blockOwnerDeletion": true
    }]))
}

/// A uid for the owner, from its name (describe prints only Kind/Name).
fn owner_uid(owner: &str) -> String {
    let hash = owner.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    let hex = format!(
        "{hash:016x}{:016x}",
        hash.rotate_left(29) ^ 0x9e37_79b9_7f4a_7c15
    );
    format!(
        "{}-{}-4{}-8{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[13..16],
        &hex[17..20],
        &hex[20..32]
    )
}

/// The v1 Pod object of `pod` at `at`. `source` is the manifest text the
/// run was simulated from (for quantities as written).
pub fn pod(run: &Run, pod: &PodRun, at: Millis, clock: Clock, source: &str) -> Value {
    let api_volume = describe::api_access_volume(pod);
    let mut metadata = json!({
        "name": pod.name,
        "namespace": "default",
        "uid": pod.uid,
        "resourceVersion": "1000",
        "creationTimestamp": clock.time(pod.created),
        "labels": labels(pod)
    });
    if let Some(owners) = owner_references(pod) {
        metadata["ownerReferences"] = owners;
    }
    // Being deleted: the API server sets deletionTimestamp to the delete
    // plus the grace period, and deletionGracePeriodSeconds.
    if let Some(deleting) = pod.deleting.filter(|deleting| *deleting <= at) {
        let grace = pod.spec.termination_grace_period_seconds.value.max(0);
        metadata["deletionTimestamp"] = json!(clock.time(deleting + grace.unsigned_abs() * 1000));
        metadata["deletionGracePeriodSeconds"] = json!(grace);
    }
    let containers: Vec<Value> = pod
        .spec
        .containers
        .iter()
        .map(|container| container_spec(source, container, Some(&api_volume)))
        .collect();
    let mut spec = json!({
        "volumes": volumes(pod, &api_volume),
        "containers": containers,
        "restartPolicy": pod.spec.restart_policy.value,
        "terminationGracePeriodSeconds": pod.spec.termination_grace_period_seconds.value,
        "dnsPolicy": "ClusterFirst",
        "serviceAccountName": "default",
        "serviceAccount": "default",
        "securityContext": {},
        "schedulerName": "default-scheduler",
        "tolerations": tolerations(pod),
        "priority": 0,
        "enableServiceLinks": true,
        "preemptionPolicy": "PreemptLowerPriority"
    });
    if !pod.spec.init_containers.is_empty() {
        let init: Vec<Value> = pod
            .spec
            .init_containers
            .iter()
            .map(|container| container_spec(source, container, Some(&api_volume)))
            .collect();
        spec["initContainers"] = json!(init);
    }
    if !pod.spec.node_selector.is_empty() {
        let selector: Map<String, Value> = pod
            .spec
            .node_selector
            .iter()
            .map(|(key, value)| (key.clone(), json!(value)))
            .collect();
        spec["nodeSelector"] = Value::Object(selector);
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
            json!({
                "phase": "Pending",
                "conditions": [{
                    "type": "PodScheduled",
                    "status": "False",
                    "lastProbeTime": null,
                    "lastTransitionTime": clock.time(pod.created),
                    "reason": "Unschedulable",
                    "message": message
                }],
                "qosClass": qos
            })
        }
        Some((node, bound_at)) => {
            spec["nodeName"] = json!(node);
            pod_status(pod, *bound_at, at, clock, qos)
        }
    };
    json!({
        "kind": "Pod",
        "apiVersion": "v1",
        "metadata": metadata,
        "spec": spec,
        "status": status
    })
}

/// The status of a bound pod. Before the kubelet's first sync only the
/// scheduler's condition exists; `startTime`, `hostIP` and the container
/// statuses come with that sync, the pod IP with the sandbox (`PodRun::sandbox`),
/// as podlab's describe renderer models them.
fn pod_status(pod: &PodRun, bound_at: Millis, at: Millis, clock: Clock, qos: &str) -> Value {
    let start_time = pod.created + Timing::default().first_sync;
    if at < start_time {
        return json!({
            "phase": "Pending",
            "conditions": [condition("PodScheduled", true, bound_at, clock)],
            "qosClass": qos
        });
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
    let container_statuses: Vec<Value> = pod
        .containers
        .iter()
        .zip(&pod.spec.containers)
        .zip(&statuses)
        .map(|((container, spec), status)| {
            let image = spec.image.as_ref().map_or("", |image| image.value.as_str());
            container_status(pod, container, status, image, at, clock)
        })
        .collect();
    let init_statuses: Vec<Value> = pod
        .init_containers
        .iter()
        .zip(&pod.spec.init_containers)
        .zip(pod.init_statuses_at(at))
        .map(|((container, spec), status)| {
            let image = spec.image.as_ref().map_or("", |image| image.value.as_str());
            container_status(pod, container, &status, image, at, clock)
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
        initialized_condition["reason"] = json!("ContainersNotInitialized");
        initialized_condition["message"] = json!(format!(
            "containers with incomplete status: [{}]",
            init::incomplete_at(pod, at).join(" ")
        ));
    }
    let host_ip = describe::host_ip(pod);
    let mut status = json!({
        "phase": phase,
        "conditions": [
            condition(
                "PodReadyToStartContainers",
                sandbox.is_some() && !terminal,
                sandbox.unwrap_or(start_time),
                clock
            ),
            initialized_condition,
            condition("Ready", ready, ready_at, clock),
            condition("ContainersReady", ready, ready_at, clock),
            condition("PodScheduled", true, bound_at, clock)
        ],
        "hostIP": host_ip,
        "hostIPs": [{ "ip": host_ip }],
        "startTime": clock.time(start_time),
        "containerStatuses": container_statuses,
        "qosClass": qos
    });
    if !init_statuses.is_empty() {
        status["initContainerStatuses"] = json!(init_statuses);
    }
    if sandbox.is_some() {
        status["podIP"] = json!(pod.ip);
        status["podIPs"] = json!([{ "ip": pod.ip }]);
    }
    status
}

// ---- the Events ------------------------------------------------------------------

/// The v1 Event objects about `pod` that exist at `at`, from podlab's event
/// aggregator, in its (API list) order. The scheduler's are events.k8s.io
/// objects seen through core/v1: `eventTime` and `series`, no first/last
/// timestamps, no count, `reportingComponent` instead of `source`.
pub fn events(run: &Run, pod: &PodRun, at: Millis, clock: Clock) -> Vec<Value> {
    let node = pod.node.as_ref().map_or("", |(node, _)| node.as_str());
    events::aggregate(run, &format!("Pod/{}", pod.name), at)
        .iter()
        .map(|event| event_object(pod, node, event, clock))
        .collect()
}

fn event_object(pod: &PodRun, node: &str, event: &EventObject, clock: Clock) -> Value {
    let mut involved = json!({
        "kind": "Pod",
        "namespace": "default",
        "name": pod.name,
        "uid": pod.uid,
        "apiVersion": "v1",
        "resourceVersion": "1000"
    });
    if let Some(path) = &event.field_path {
        involved["fieldPath"] = json!(path);
    }
    let mut object = json!({
        "kind": "Event",
        "apiVersion": "v1",
        "metadata": {
            "name": event.name,
            "namespace": "default",
            "resourceVersion": "1000",
            "creationTimestamp": clock.time(event.first)
        },
        "involvedObject": involved,
        "reason": event.reason,
        "message": event.message,
        "type": event.type_name()
    });
    if event.uses_event_time() {
        object["source"] = json!({});
        object["firstTimestamp"] = Value::Null;
        object["lastTimestamp"] = Value::Null;
        object["eventTime"] = json!(clock.micro_time(event.first));
        if let Some((count, last)) = event.series() {
            object["series"] =
                json!({ "count": count, "lastObservedTime": clock.micro_time(last) });
        }
        object["action"] = json!(if event.reason == "Scheduled" {
            "Binding"
        } else {
            "Scheduling"
        });
        object["reportingComponent"] = json!(event.source);
        object["reportingInstance"] = json!(format!("{}-control-plane", event.source));
    } else {
        object["source"] = json!({ "component": event.source, "host": node });
        object["firstTimestamp"] = json!(clock.time(event.first));
        object["lastTimestamp"] = json!(clock.time(event.last));
        object["count"] = json!(event.count);
        object["eventTime"] = Value::Null;
        object["reportingComponent"] = json!(event.source);
        object["reportingInstance"] = json!(node);
    }
    object
}
