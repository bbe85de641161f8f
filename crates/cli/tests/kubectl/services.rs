//! A Service of a run and its EndpointSlices at a time T as the API server
//! would return them: a v1 Service with the defaults and allocations the
//! API server applies (`explain::service::stored`), v1 EndpointSlices from
//! `explain::service::endpoint_slices`, and the `meta.k8s.io/v1` Table the
//! API server prints for `kubectl get endpointslices`.
//!
//! Why a Table: `kubectl get` asks the server to print
//! (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io`), and the
//! EndpointSlice columns are computed in kube-apiserver
//! (`pkg/printers/internalversion/printers.go` `printEndpointSlice`), not in
//! kubectl; given a plain list, kubectl falls back to NAME and AGE only. So
//! the cells come from `table`, a line-by-line port of that Go printer over
//! the JSON objects below (independent of podlab's renderer), and kubectl
//! lays them out. `kubectl describe service` is printed by kubectl itself
//! from the Service and the slices it lists (`describeService`).

use podlab_core::explain::human_duration;
use podlab_core::explain::service::{endpoint_slices, stored, EndpointSlice};
use podlab_core::manifest::duration::Millis;
use podlab_core::manifest::service::{Service, TargetPort};
use podlab_core::sim::Run;
use serde_json::{json, Map, Value};

use super::objects::Clock;

fn string_map(pairs: &[(String, String)]) -> Map<String, Value> {
    pairs
        .iter()
        .map(|(key, value)| (key.clone(), json!(value)))
        .collect()
}

/// A uid for the Service, fixed by its name.
fn uid(name: &str) -> String {
    let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    format!(
        "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
        hash >> 32,
        (hash >> 16) & 0xffff,
        hash & 0xfff,
        (hash >> 4) & 0xfff,
        hash & 0xffff_ffff_ffff
    )
}

/// The v1 Service object, as stored and returned by GET.
pub fn service(run: &Run, service: &Service, clock: Clock) -> Value {
    let stored = stored(run, service);
    let mut metadata = json!({
        "name": service.name,
        "namespace": "default",
        "uid": uid(&service.name),
        "resourceVersion": "100",
        "creationTimestamp": clock.time(0),
    });
    if !service.labels.is_empty() {
        metadata["labels"] = Value::Object(string_map(&service.labels));
    }
    if !service.annotations.is_empty() {
        metadata["annotations"] = Value::Object(string_map(&service.annotations));
    }
    let ports: Vec<Value> = service
        .ports
        .iter()
        .enumerate()
        .map(|(index, port)| {
            let mut out = json!({
                "protocol": port.protocol,
                "port": port.port,
                "targetPort": match &port.target_port {
                    TargetPort::Number(number) => json!(number),
                    TargetPort::Name(name) => json!(name),
                },
            });
            if let Some(name) = &port.name {
                out["name"] = json!(name);
            }
            let node_port = stored.node_ports.get(index).copied().unwrap_or(0);
            if node_port != 0 {
                out["nodePort"] = json!(node_port);
            }
            out
        })
        .collect();
    let mut spec = json!({
        "ports": ports,
        "type": service.type_,
        "sessionAffinity": service.session_affinity,
        "ipFamilies": stored.ip_families,
    });
    if let Some(selector) = service.selector.as_ref().filter(|s| !s.is_empty()) {
        spec["selector"] = Value::Object(string_map(selector));
    }
    if !stored.cluster_ip.is_empty() {
        spec["clusterIP"] = json!(stored.cluster_ip);
        spec["clusterIPs"] = json!(stored.cluster_ips);
    }
    let optional = [
        ("ipFamilyPolicy", stored.ip_family_policy.clone()),
        (
            "internalTrafficPolicy",
            stored.internal_traffic_policy.clone(),
        ),
        (
            "externalTrafficPolicy",
            stored.external_traffic_policy.clone(),
        ),
        ("externalName", service.external_name.clone()),
        ("loadBalancerIP", service.load_balancer_ip.clone()),
        ("trafficDistribution", service.traffic_distribution.clone()),
    ];
    for (key, value) in optional {
        if let Some(value) = value {
            spec[key] = json!(value);
        }
    }
    if !service.external_ips.is_empty() {
        spec["externalIPs"] = json!(service.external_ips);
    }
    if !service.load_balancer_source_ranges.is_empty() {
        spec["loadBalancerSourceRanges"] = json!(service.load_balancer_source_ranges);
    }
    if stored.health_check_node_port != 0 {
        spec["healthCheckNodePort"] = json!(stored.health_check_node_port);
    }
    if service.publish_not_ready_addresses {
        spec["publishNotReadyAddresses"] = json!(true);
    }
    if service.type_ == "LoadBalancer" {
        spec["allocateLoadBalancerNodePorts"] = json!(service.allocate_load_balancer_node_ports);
    }
    json!({
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": metadata,
        "spec": spec,
        "status": { "loadBalancer": {} },
    })
}

/// One discovery.k8s.io/v1 EndpointSlice, as the controller writes it
/// (`newEndpointSlice`, `podToEndpoint`, `getEndpointPorts`).
pub fn endpoint_slice(service: &Service, slice: &EndpointSlice, clock: Clock) -> Value {
    let mut labels = string_map(&service.labels);
    labels.insert("kubernetes.io/service-name".into(), json!(service.name));
    labels.insert(
        "endpointslice.kubernetes.io/managed-by".into(),
        json!("endpointslice-controller.k8s.io"),
    );
    if slice.headless {
        labels.insert("service.kubernetes.io/headless".into(), json!(""));
    }
    let endpoints: Vec<Value> = slice
        .endpoints
        .iter()
        .map(|endpoint| {
            let mut out = json!({
                "addresses": [endpoint.address],
                "conditions": {
                    "ready": endpoint.ready,
                    "serving": endpoint.serving,
                    "terminating": endpoint.terminating,
                },
                "targetRef": {
                    "kind": "Pod",
                    "namespace": "default",
                    "name": endpoint.pod,
                    "uid": endpoint.pod_uid,
                },
            });
            if let Some(node) = &endpoint.node {
                out["nodeName"] = json!(node);
            }
            out
        })
        .collect();
    let ports: Vec<Value> = slice
        .ports
        .iter()
        .map(|port| json!({ "name": port.name, "port": port.port, "protocol": port.protocol }))
        .collect();
    json!({
        "apiVersion": "discovery.k8s.io/v1",
        "kind": "EndpointSlice",
        "metadata": {
            "name": slice.name,
            "generateName": format!("{}-", service.name),
            "namespace": "default",
            "uid": uid(&slice.name),
            "resourceVersion": "101",
            "creationTimestamp": clock.time(slice.created),
            "labels": labels,
            "ownerReferences": [{
                "apiVersion": "v1",
                "kind": "Service",
                "name": service.name,
                "uid": uid(&service.name),
                "controller": true,
                "blockOwnerDeletion": true,
            }],
        },
        "addressType": "IPv4",
        "endpoints": endpoints,
        "ports": ports,
    })
}

/// Every Service of the run and all their slices at `at`.
pub fn served(run: &Run, at: Millis, clock: Clock) -> (Vec<Value>, Vec<Value>) {
    let services = run
        .services
        .iter()
        .map(|s| service(run, s, clock))
        .collect();
    let slices = run
        .services
        .iter()
        .flat_map(|s| {
            endpoint_slices(run, s, at)
                .into_iter()
                .map(move |slice| endpoint_slice(s, &slice, clock))
        })
        .collect();
    (services, slices)
}

/// `listWithMoreString`.
fn list_with_more(list: &[String], more: bool, count: usize, max: usize) -> String {
    let joined = list.join(",");
    if more {
        return format!("{joined} + {} more...", count - max);
    }
    if joined.is_empty() {
        "<unset>".to_string()
    } else {
        joined
    }
}

/// `formatDiscoveryPorts`.
fn format_ports(ports: &[Value]) -> String {
    let max = 3;
    let (mut list, mut more, mut count) = (Vec::new(), false, 0);
    for port in ports {
        if list.len() < max {
            let number = match (port.get("port").and_then(Value::as_i64), port.get("name")) {
                (Some(number), _) => number.to_string(),
                (None, Some(Value::String(name))) => name.clone(),
                _ => "*".to_string(),
            };
            list.push(number);
        } else if list.len() == max {
            more = true;
        }
        count += 1;
    }
    list_with_more(&list, more, count, max)
}

/// `formatDiscoveryEndpoints`: every address, whatever the conditions.
fn format_endpoints(endpoints: &[Value]) -> String {
    let max = 3;
    let (mut list, mut more, mut count) = (Vec::new(), false, 0);
    for endpoint in endpoints {
        let addresses = endpoint["addresses"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        for address in addresses {
            if list.len() < max {
                list.push(address.as_str().unwrap_or_default().to_string());
            } else if list.len() == max {
                more = true;
            }
            count += 1;
        }
    }
    list_with_more(&list, more, count, max)
}

/// The Table kube-apiserver returns for `kubectl get endpointslices`
/// (`printEndpointSlice`; the columns of `AddHandlers`), its ages at the
/// simulated time `at` (`translateTimestampSince`): the server's clock,
/// here the fake server's.
pub fn table(slices: &[Value], clock: Clock, at: Millis) -> Value {
    let now = clock.base + (at / 1000) as i64;
    let column = |name: &str, format: &str| json!({ "name": name, "type": "string", "format": format, "description": "", "priority": 0 });
    let mut sorted: Vec<&Value> = slices.iter().collect();
    sorted.sort_by(|a, b| {
        a["metadata"]["name"]
            .as_str()
            .cmp(&b["metadata"]["name"].as_str())
    });
    let rows: Vec<Value> = sorted
        .into_iter()
        .map(|slice| {
            let created = slice["metadata"]["creationTimestamp"]
                .as_str()
                .and_then(parse_rfc3339)
                .expect("a creationTimestamp");
            let age =
                human_duration(u64::try_from(now - created).expect("created before now") * 1000);
            json!({
                "cells": [
                    slice["metadata"]["name"],
                    slice["addressType"],
                    format_ports(slice["ports"].as_array().map_or(&[][..], Vec::as_slice)),
                    format_endpoints(slice["endpoints"].as_array().map_or(&[][..], Vec::as_slice)),
                    age,
                ],
                "object": {
                    "kind": "PartialObjectMetadata",
                    "apiVersion": "meta.k8s.io/v1",
                    "metadata": slice["metadata"],
                },
            })
        })
        .collect();
    json!({
        "kind": "Table",
        "apiVersion": "meta.k8s.io/v1",
        "metadata": { "resourceVersion": "1000" },
        "columnDefinitions": [
            column("Name", "name"),
            column("AddressType", ""),
            column("Ports", ""),
            column("Endpoints", ""),
            column("Age", ""),
        ],
        "rows": rows,
    })
}

/// `2026-01-01T00:00:00Z` → Unix seconds (`tables::parse_time`).
fn parse_rfc3339(text: &str) -> Option<i64> {
    super::tables::parse_time(text).map(|millis| millis.div_euclid(1000))
}
