//! The `meta.k8s.io/v1` Tables the API server prints for `kubectl get
//! pods`, `kubectl get events` and `kubectl get nodes`, built here from the
//! served v1 Pod, Event and Node objects (JSON), independently of podlab's
//! renderers: a port of kubernetes v1.35 `pkg/printers/internalversion/
//! printers.go` `printPod`, `printEvent` and `printNode` (with their column
//! definitions from `AddHandlers`),
//! `translateTimestampSince` and apimachinery's `duration.HumanDuration`.
//!
//! The server prints with `GenerateOptions{Wide: true}` whatever kubectl
//! asked (`pkg/registry/core/pod/storage` → `printerstorage.TableConvertor`),
//! so every Table carries the priority-1 columns and their cells; kubectl
//! hides them unless `-o wide` (cli-runtime `printers/tableprinter.go`).
//! Rows carry the whole object, so kubectl's `--sort-by` (which asks for
//! `includeObject=Object`) can read its fields.
//!
//! The server's clock is `now` (milliseconds on the served objects' clock):
//! ages are `now − timestamp`, the timestamp as it travels (whole seconds
//! for `metav1.Time`, microseconds for `metav1.MicroTime`).

use serde_json::{json, Value};

/// `YYYY-MM-DDTHH:MM:SS[.ffffff]Z` → Unix milliseconds.
pub fn parse_time(text: &str) -> Option<i64> {
    let text = text.strip_suffix('Z')?;
    let (date, time) = text.split_once('T')?;
    let mut date_parts = date.splitn(3, '-').map(str::parse::<i64>);
    let (year, month, day) = (
        date_parts.next()?.ok()?,
        date_parts.next()?.ok()?,
        date_parts.next()?.ok()?,
    );
    let (clock, fraction) = time.split_once('.').unwrap_or((time, ""));
    let mut clock_parts = clock.splitn(3, ':').map(str::parse::<i64>);
    let (hour, minute, second) = (
        clock_parts.next()?.ok()?,
        clock_parts.next()?.ok()?,
        clock_parts.next()?.ok()?,
    );
    let millis = if fraction.is_empty() {
        0
    } else {
        format!("{fraction:0<3}").get(..3)?.parse::<i64>().ok()?
    };
    let days =
        super::objects::days_from_civil(year, u32::try_from(month).ok()?, u32::try_from(day).ok()?);
    Some(((days * 86_400 + hour * 3600 + minute * 60 + second) * 1000) + millis)
}

/// apimachinery `duration.HumanDuration` (`util/duration/duration.go`).
pub fn human_duration(millis: i64) -> String {
    let seconds = millis / 1000;
    if seconds < -1 {
        return "<invalid>".into();
    } else if seconds < 0 {
        return "0s".into();
    } else if seconds < 60 * 2 {
        return format!("{seconds}s");
    }
    let minutes = seconds / 60;
    if minutes < 10 {
        let s = seconds % 60;
        return if s == 0 {
            format!("{minutes}m")
        } else {
            format!("{minutes}m{s}s")
        };
    } else if minutes < 60 * 3 {
        return format!("{minutes}m");
    }
    let hours = seconds / 3600;
    if hours < 8 {
        let m = minutes % 60;
        return if m == 0 {
            format!("{hours}h")
        } else {
            format!("{hours}h{m}m")
        };
    } else if hours < 48 {
        return format!("{hours}h");
    } else if hours < 24 * 8 {
        let h = hours % 24;
        return if h == 0 {
            format!("{}d", hours / 24)
        } else {
            format!("{}d{h}h", hours / 24)
        };
    } else if hours < 24 * 365 * 2 {
        return format!("{}d", hours / 24);
    } else if hours < 24 * 365 * 8 {
        let dy = hours / 24 % 365;
        return if dy == 0 {
            format!("{}y", hours / 24 / 365)
        } else {
            format!("{}y{dy}d", hours / 24 / 365)
        };
    }
    format!("{}y", hours / 24 / 365)
}

/// `translateTimestampSince` (and `translateMicroTimestampSince`).
fn since(timestamp: &Value, now: i64) -> String {
    match timestamp.as_str().and_then(parse_time) {
        None => "<unknown>".into(),
        Some(at) => human_duration(now - at),
    }
}

fn column(name: &str, kind: &str, priority: u8) -> Value {
    json!({
        "name": name,
        "type": kind,
        "format": if name == "Name" { "name" } else { "" },
        "description": "",
        "priority": priority,
    })
}

fn table(columns: Vec<Value>, rows: Vec<Value>) -> Value {
    json!({
        "kind": "Table",
        "apiVersion": "meta.k8s.io/v1",
        "metadata": { "resourceVersion": "1000" },
        "columnDefinitions": columns,
        "rows": rows,
    })
}

fn text<'a>(value: &'a Value, key: &str) -> &'a str {
    value[key].as_str().unwrap_or("")
}

fn restart_count(status: &Value) -> i64 {
    status["restartCount"].as_i64().unwrap_or(0)
}

/// `LastTerminationState.Terminated.FinishedAt`, when set.
fn last_finished(status: &Value) -> Option<i64> {
    status["lastState"]["terminated"]["finishedAt"]
        .as_str()
        .and_then(parse_time)
}

fn condition_true(pod: &Value, kind: &str) -> bool {
    pod["status"]["conditions"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|c| text(c, "type") == kind && text(c, "status") == "True")
}

/// `isPodInitializedConditionTrue`: the first `Initialized` condition.
fn initialized(pod: &Value) -> bool {
    pod["status"]["conditions"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|c| text(c, "type") == "Initialized")
        .is_some_and(|c| text(c, "status") == "True")
}

/// A terminated state's reason: its `reason`, else `Signal:N`, else
/// `ExitCode:N`.
fn terminated_reason(terminated: &Value, prefix: &str) -> String {
    let reason = text(terminated, "reason");
    if !reason.is_empty() {
        return format!("{prefix}{reason}");
    }
    match terminated["signal"].as_i64().unwrap_or(0) {
        0 => format!(
            "{prefix}ExitCode:{}",
            terminated["exitCode"].as_i64().unwrap_or(0)
        ),
        signal => format!("{prefix}Signal:{signal}"),
    }
}

/// `printPod`'s cells (Wide): NAME, READY, STATUS, RESTARTS, AGE, IP,
/// NODE, NOMINATED NODE, READINESS GATES.
pub fn pod_cells(pod: &Value, now: i64) -> Vec<Value> {
    let spec = &pod["spec"];
    let status = &pod["status"];
    let empty = Vec::new();
    let containers = spec["containers"].as_array().unwrap_or(&empty);
    let init_containers = spec["initContainers"].as_array().unwrap_or(&empty);
    let restartable = |name: &str| {
        init_containers
            .iter()
            .any(|c| text(c, "name") == name && text(c, "restartPolicy") == "Always")
    };
    let phase = text(status, "phase");
    let mut reason = if text(status, "reason").is_empty() {
        phase.to_string()
    } else {
        text(status, "reason").to_string()
    };
    for condition in status["conditions"].as_array().unwrap_or(&empty) {
        if text(condition, "type") == "PodScheduled"
            && text(condition, "reason") == "SchedulingGated"
        {
            reason = "SchedulingGated".into();
        }
    }
    let mut total = containers.len();
    total += init_containers
        .iter()
        .filter(|c| text(c, "restartPolicy") == "Always")
        .count();
    let mut ready = 0;
    let mut restarts = 0;
    let mut sidecar_restarts = 0;
    let mut last: Option<i64> = None;
    let mut sidecar_last: Option<i64> = None;
    let mut initializing = false;
    let init_statuses = status["initContainerStatuses"].as_array().unwrap_or(&empty);
    for (i, container) in init_statuses.iter().enumerate() {
        restarts += restart_count(container);
        last = last.max(last_finished(container));
        let sidecar = restartable(text(container, "name"));
        if sidecar {
            sidecar_restarts += restart_count(container);
            sidecar_last = sidecar_last.max(last_finished(container));
        }
        let state = &container["state"];
        if state["terminated"].is_object() && state["terminated"]["exitCode"].as_i64() == Some(0) {
            continue;
        }
        if sidecar && container["started"].as_bool() == Some(true) {
            if container["ready"].as_bool() == Some(true) {
                ready += 1;
            }
            continue;
        }
        if state["terminated"].is_object() {
            reason = terminated_reason(&state["terminated"], "Init:");
        } else if state["waiting"].is_object()
            && !text(&state["waiting"], "reason").is_empty()
            && text(&state["waiting"], "reason") != "PodInitializing"
        {
            reason = format!("Init:{}", text(&state["waiting"], "reason"));
        } else {
            reason = format!("Init:{i}/{}", init_containers.len());
        }
        initializing = true;
        break;
    }
    if !initializing || initialized(pod) {
        restarts = sidecar_restarts;
        last = sidecar_last;
        let mut has_running = false;
        for container in status["containerStatuses"]
            .as_array()
            .unwrap_or(&empty)
            .iter()
            .rev()
        {
            restarts += restart_count(container);
            last = last.max(last_finished(container));
            let state = &container["state"];
            if state["waiting"].is_object() && !text(&state["waiting"], "reason").is_empty() {
                reason = text(&state["waiting"], "reason").to_string();
            } else if state["terminated"].is_object() {
                reason = terminated_reason(&state["terminated"], "");
            } else if container["ready"].as_bool() == Some(true) && state["running"].is_object() {
                has_running = true;
                ready += 1;
            }
        }
        if reason == "Completed" && has_running {
            reason = if condition_true(pod, "Ready") {
                "Running"
            } else {
                "NotReady"
            }
            .into();
        }
    }
    let deleting = !pod["metadata"]["deletionTimestamp"].is_null();
    if deleting && text(status, "reason") == "NodeLost" {
        reason = "Unknown".into();
    } else if deleting && phase != "Succeeded" && phase != "Failed" {
        reason = "Terminating".into();
    }
    let restarts_cell = match last {
        Some(finished) if restarts != 0 => {
            format!("{restarts} ({} ago)", human_duration(now - finished))
        }
        _ => restarts.to_string(),
    };
    let none = |value: &str| {
        if value.is_empty() {
            "<none>".to_string()
        } else {
            value.to_string()
        }
    };
    let pod_ip = status["podIPs"]
        .as_array()
        .and_then(|ips| ips.first())
        .map_or("", |ip| text(ip, "ip"));
    let gates = spec["readinessGates"].as_array().unwrap_or(&empty);
    let readiness_gates = if gates.is_empty() {
        "<none>".to_string()
    } else {
        let true_conditions = gates
            .iter()
            .filter(|gate| condition_true(pod, text(gate, "conditionType")))
            .count();
        format!("{true_conditions}/{}", gates.len())
    };
    vec![
        pod["metadata"]["name"].clone(),
        json!(format!("{ready}/{total}")),
        json!(reason),
        json!(restarts_cell),
        json!(since(&pod["metadata"]["creationTimestamp"], now)),
        json!(none(pod_ip)),
        json!(none(text(spec, "nodeName"))),
        json!(none(text(status, "nominatedNodeName"))),
        json!(readiness_gates),
    ]
}

/// The pods' Table (`podColumnDefinitions`), rows in the order given (the
/// API server lists by name).
pub fn pod_table(pods: &[Value], now: i64) -> Value {
    let rows = pods
        .iter()
        .map(|pod| json!({ "cells": pod_cells(pod, now), "object": pod }))
        .collect();
    table(
        vec![
            column("Name", "string", 0),
            column("Ready", "string", 0),
            column("Status", "string", 0),
            column("Restarts", "string", 0),
            column("Age", "string", 0),
            column("IP", "string", 1),
            column("Node", "string", 1),
            column("Nominated Node", "string", 1),
            column("Readiness Gates", "string", 1),
        ],
        rows,
    )
}

/// `formatEventSource`: `component, host`, else the reporting controller
/// and instance.
fn event_source(event: &Value) -> String {
    let source = &event["source"];
    let (component, host) = if text(source, "component").is_empty() {
        (
            text(event, "reportingComponent"),
            text(event, "reportingInstance"),
        )
    } else {
        (text(source, "component"), text(source, "host"))
    };
    if host.is_empty() {
        component.to_string()
    } else {
        format!("{component}, {host}")
    }
}

/// `printEvent`'s cells (Wide): LAST SEEN, TYPE, REASON, OBJECT,
/// SUBOBJECT, SOURCE, MESSAGE, FIRST SEEN, COUNT, NAME.
pub fn event_cells(event: &Value, now: i64) -> Vec<Value> {
    let first = if event["firstTimestamp"].is_null() {
        since(&event["eventTime"], now)
    } else {
        since(&event["firstTimestamp"], now)
    };
    let mut last = if event["lastTimestamp"].is_null() {
        first.clone()
    } else {
        since(&event["lastTimestamp"], now)
    };
    let mut count = event["count"].as_i64().unwrap_or(0);
    if event["series"].is_object() {
        last = since(&event["series"]["lastObservedTime"], now);
        count = event["series"]["count"].as_i64().unwrap_or(0);
    } else if count == 0 {
        count = 1;
    }
    let involved = &event["involvedObject"];
    let target = if text(involved, "name").is_empty() {
        text(involved, "kind").to_lowercase()
    } else {
        format!(
            "{}/{}",
            text(involved, "kind").to_lowercase(),
            text(involved, "name")
        )
    };
    vec![
        json!(last),
        event["type"].clone(),
        event["reason"].clone(),
        json!(target),
        json!(text(involved, "fieldPath")),
        json!(event_source(event)),
        json!(text(event, "message").trim()),
        json!(first),
        json!(count),
        event["metadata"]["name"].clone(),
    ]
}

/// The events' Table (`eventColumnDefinitions`), rows in the order given.
pub fn event_table(events: &[Value], now: i64) -> Value {
    let rows = events
        .iter()
        .map(|event| json!({ "cells": event_cells(event, now), "object": event }))
        .collect();
    table(
        vec![
            column("Last Seen", "string", 0),
            column("Type", "string", 0),
            column("Reason", "string", 0),
            column("Object", "string", 0),
            column("Subobject", "string", 1),
            column("Source", "string", 1),
            column("Message", "string", 0),
            column("First Seen", "string", 1),
            column("Count", "string", 1),
            column("Name", "string", 1),
        ],
        rows,
    )
}

/// `printNode`: the Ready condition (`Ready`, `NotReady`, else `Unknown`),
/// `SchedulingDisabled` when unschedulable, the roles from the
/// `node-role.kubernetes.io/<role>` and `kubernetes.io/role` labels, the
/// age, the kubelet's version; wide: the first InternalIP and ExternalIP
/// (`<none>`), the OS image, kernel and runtime (`<unknown>` when empty).
pub fn node_cells(node: &Value, now: i64) -> Vec<Value> {
    let mut status: Vec<String> = node["status"]["conditions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|condition| condition["type"] == "Ready")
        .map(|condition| {
            if condition["status"] == "True" {
                "Ready".to_string()
            } else {
                "NotReady".to_string()
            }
        })
        .take(1)
        .collect();
    if status.is_empty() {
        status.push("Unknown".into());
    }
    if node["spec"]["unschedulable"] == true {
        status.push("SchedulingDisabled".into());
    }
    let mut roles: Vec<String> = node["metadata"]["labels"]
        .as_object()
        .into_iter()
        .flatten()
        .filter_map(
            |(key, value)| match key.strip_prefix("node-role.kubernetes.io/") {
                Some(role) if !role.is_empty() => Some(role.to_string()),
                Some(_) => None,
                None => (key == "kubernetes.io/role")
                    .then(|| value.as_str().unwrap_or("").to_string())
                    .filter(|role| !role.is_empty()),
            },
        )
        .collect();
    roles.sort();
    roles.dedup();
    let roles = if roles.is_empty() {
        "<none>".to_string()
    } else {
        roles.join(",")
    };
    let info = &node["status"]["nodeInfo"];
    let address = |kind: &str| {
        node["status"]["addresses"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|address| address["type"] == kind)
            .map_or("<none>".to_string(), |address| {
                text(address, "address").to_string()
            })
    };
    let or_unknown = |key: &str| match text(info, key) {
        "" => "<unknown>".to_string(),
        known => known.to_string(),
    };
    vec![
        json!(text(&node["metadata"], "name")),
        json!(status.join(",")),
        json!(roles),
        json!(since(&node["metadata"]["creationTimestamp"], now)),
        json!(text(info, "kubeletVersion")),
        json!(address("InternalIP")),
        json!(address("ExternalIP")),
        json!(or_unknown("osImage")),
        json!(or_unknown("kernelVersion")),
        json!(or_unknown("containerRuntimeVersion")),
    ]
}

/// The nodes' Table (`nodeColumnDefinitions`), rows in the order given.
pub fn node_table(nodes: &[Value], now: i64) -> Value {
    let rows = nodes
        .iter()
        .map(|node| json!({ "cells": node_cells(node, now), "object": node }))
        .collect();
    table(
        vec![
            column("Name", "string", 0),
            column("Status", "string", 0),
            column("Roles", "string", 0),
            column("Age", "string", 0),
            column("Version", "string", 0),
            column("Internal-IP", "string", 1),
            column("External-IP", "string", 1),
            column("OS-Image", "string", 1),
            column("Kernel-Version", "string", 1),
            column("Container-Runtime", "string", 1),
        ],
        rows,
    )
}

/// `printService`'s cells from a served v1 Service (`getServiceExternalIP`,
/// `makePortString`): the first `clusterIPs` entry or `<none>`, the
/// external IPs by type (`<pending>` for a LoadBalancer without ingress),
/// `port[:nodePort]/PROTOCOL`, the age, and the selector (priority 1).
pub fn service_cells(service: &Value, now: i64) -> Vec<Value> {
    let spec = &service["spec"];
    let kind = text(spec, "type");
    let cluster_ip = spec["clusterIPs"]
        .as_array()
        .and_then(|ips| ips.first())
        .and_then(Value::as_str)
        .unwrap_or("<none>")
        .to_string();
    let external_ips: Vec<&str> = spec["externalIPs"]
        .as_array()
        .map(|ips| ips.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let external = match kind {
        "ClusterIP" | "NodePort" if !external_ips.is_empty() => external_ips.join(","),
        "ClusterIP" | "NodePort" => "<none>".to_string(),
        "LoadBalancer" if !external_ips.is_empty() => external_ips.join(","),
        "LoadBalancer" => "<pending>".to_string(),
        "ExternalName" => text(spec, "externalName").to_string(),
        _ => "<unknown>".to_string(),
    };
    let ports: Vec<String> = spec["ports"]
        .as_array()
        .map(|ports| {
            ports
                .iter()
                .map(|port| {
                    let node_port = port["nodePort"].as_i64().unwrap_or(0);
                    if node_port > 0 {
                        format!("{}:{node_port}/{}", port["port"], text(port, "protocol"))
                    } else {
                        format!("{}/{}", port["port"], text(port, "protocol"))
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    let mut selector: Vec<String> = spec["selector"]
        .as_object()
        .map(|pairs| {
            pairs
                .iter()
                .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or_default()))
                .collect()
        })
        .unwrap_or_default();
    selector.sort();
    vec![
        json!(text(&service["metadata"], "name")),
        json!(kind),
        json!(cluster_ip),
        json!(external),
        json!(if ports.is_empty() {
            "<none>".to_string()
        } else {
            ports.join(",")
        }),
        json!(since(&service["metadata"]["creationTimestamp"], now)),
        json!(if selector.is_empty() {
            "<none>".to_string()
        } else {
            selector.join(",")
        }),
    ]
}

/// The Table the API server prints for `kubectl get services`.
pub fn service_table(services: &[Value], now: i64) -> Value {
    let rows = services
        .iter()
        .map(|service| json!({ "cells": service_cells(service, now), "object": service }))
        .collect();
    table(
        vec![
            column("Name", "string", 0),
            column("Type", "string", 0),
            column("Cluster-IP", "string", 0),
            column("External-IP", "string", 0),
            column("Port(s)", "string", 0),
            column("Age", "string", 0),
            column("Selector", "string", 1),
        ],
        rows,
    )
}

/// The number of keys `printConfigMap` and `printSecret` count:
/// `len(data) + len(binaryData)` (a Secret has only `data`).
fn data_count(object: &Value) -> usize {
    ["data", "binaryData"]
        .iter()
        .map(|key| object[*key].as_object().map_or(0, |map| map.len()))
        .sum()
}

/// The Table the API server prints for `kubectl get configmaps`
/// (`printConfigMap`: Name, Data, Age).
pub fn config_map_table(config_maps: &[Value], now: i64) -> Value {
    let rows = config_maps
        .iter()
        .map(|object| {
            json!({
                "cells": [
                    text(&object["metadata"], "name"),
                    data_count(object),
                    since(&object["metadata"]["creationTimestamp"], now),
                ],
                "object": object,
            })
        })
        .collect();
    table(
        vec![
            column("Name", "string", 0),
            column("Data", "string", 0),
            column("Age", "string", 0),
        ],
        rows,
    )
}

/// The Table the API server prints for `kubectl get secrets`
/// (`printSecret`: Name, Type, Data, Age).
pub fn secret_table(secrets: &[Value], now: i64) -> Value {
    let rows = secrets
        .iter()
        .map(|object| {
            json!({
                "cells": [
                    text(&object["metadata"], "name"),
                    text(object, "type"),
                    data_count(object),
                    since(&object["metadata"]["creationTimestamp"], now),
                ],
                "object": object,
            })
        })
        .collect();
    table(
        vec![
            column("Name", "string", 0),
            column("Type", "string", 0),
            column("Data", "string", 0),
            column("Age", "string", 0),
        ],
        rows,
    )
}

/// `metav1.FormatLabelSelector` of a `matchLabels` selector and
/// `labels.FormatLabels` of a map: `k=v` sorted by key, joined by commas,
/// `<none>` when empty.
pub fn format_labels(labels: &Value) -> String {
    let mut terms: Vec<String> = labels
        .as_object()
        .map(|map| {
            map.iter()
                .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or_default()))
                .collect()
        })
        .unwrap_or_default();
    terms.sort();
    if terms.is_empty() {
        "<none>".into()
    } else {
        terms.join(",")
    }
}

/// `layoutContainerCells` of an object's pod template: the containers'
/// names and images, each joined by commas.
pub fn container_cells(object: &Value) -> [Value; 2] {
    let containers = object["spec"]["template"]["spec"]["containers"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let join = |field: &str| {
        containers
            .iter()
            .map(|c| c[field].as_str().unwrap_or_default().to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    [json!(join("name")), json!(join("image"))]
}

/// The Table the API server prints for `kubectl get statefulsets`
/// (`printStatefulSet`: Name, Ready `readyReplicas/replicas`, Age; wide
/// Containers, Images at priority 1).
pub fn stateful_set_table(sets: &[Value], now: i64) -> Value {
    let rows = sets
        .iter()
        .map(|object| {
            let mut cells = vec![
                json!(text(&object["metadata"], "name")),
                json!(format!(
                    "{}/{}",
                    object["status"]["readyReplicas"].as_i64().unwrap_or(0),
                    object["spec"]["replicas"].as_i64().unwrap_or(0)
                )),
                json!(since(&object["metadata"]["creationTimestamp"], now)),
            ];
            cells.extend(container_cells(object));
            json!({ "cells": cells, "object": object })
        })
        .collect();
    table(
        vec![
            column("Name", "string", 0),
            column("Ready", "string", 0),
            column("Age", "string", 0),
            column("Containers", "string", 1),
            column("Images", "string", 1),
        ],
        rows,
    )
}

/// The Table the API server prints for `kubectl get daemonsets`
/// (`printDaemonSet`: Name, Desired, Current, Ready, Up-to-date,
/// Available from the status, Node Selector the template's
/// `nodeSelector`, Age; wide Containers, Images, Selector at priority 1).
pub fn daemon_set_table(sets: &[Value], now: i64) -> Value {
    let rows = sets
        .iter()
        .map(|object| {
            let status = &object["status"];
            let count = |key: &str| json!(status[key].as_i64().unwrap_or(0));
            let mut cells = vec![
                json!(text(&object["metadata"], "name")),
                count("desiredNumberScheduled"),
                count("currentNumberScheduled"),
                count("numberReady"),
                count("updatedNumberScheduled"),
                count("numberAvailable"),
                json!(format_labels(
                    &object["spec"]["template"]["spec"]["nodeSelector"]
                )),
                json!(since(&object["metadata"]["creationTimestamp"], now)),
            ];
            cells.extend(container_cells(object));
            cells.push(json!(format_labels(
                &object["spec"]["selector"]["matchLabels"]
            )));
            json!({ "cells": cells, "object": object })
        })
        .collect();
    table(
        vec![
            column("Name", "string", 0),
            column("Desired", "integer", 0),
            column("Current", "integer", 0),
            column("Ready", "integer", 0),
            column("Up-to-date", "integer", 0),
            column("Available", "integer", 0),
            column("Node Selector", "string", 0),
            column("Age", "string", 0),
            column("Containers", "string", 1),
            column("Images", "string", 1),
            column("Selector", "string", 1),
        ],
        rows,
    )
}
