//! `kubectl describe service NAME` and `kubectl get endpointslices` at a
//! time T, as kubectl v1.35 prints them: which pods the EndpointSlice
//! controller lists behind each Service of the text, and which of those are
//! ready endpoints (`traffic-autoscaling.md` §4.1; the kubectl and printer
//! sources are cited in `docs/traffic.md`, "kubectl: describe service, get
//! endpointslices"). Promise: the same (run, Service, T) gives the same
//! bytes; nothing here reads a clock or draws on the simulator's generator.
//!
//! What a cluster invents is derived from the run's seed and the Service's
//! name (never drawn from the simulator's generator, whose draws give the
//! pods their names and timings):
//! - the ClusterIP is an address of kubeadm's default service CIDR
//!   `10.96.0.0/12` above its first 256 (the allocator's static band);
//! - node ports are ports of the default range 30000-32767;
//! - EndpointSlice names are `<service>-` + 5 characters of
//!   `rand.String` (the API server's `generateName`);
//! - every Service, like every other object, is created at 0; its first
//!   EndpointSlice (the controller's placeholder, later updated in place)
//!   too.

use super::describe::{fnv1a, multiline, pod_ip_at, pod_ip_since, pod_labels, pod_ready_at};
use super::describe::{splitmix64, tabwrite, Text};
use super::get_pods::table;
use super::human_duration;
use crate::manifest::duration::Millis;
use crate::manifest::model::Container;
use crate::manifest::service::{Service, TargetPort};
use crate::sim::{PodRun, Run};

/// `--max-endpoints-per-slice` of kube-controller-manager (default 100).
pub const MAX_ENDPOINTS_PER_SLICE: usize = 100;

/// A Service as the API server stores it: the written spec with its
/// defaults and allocations (`SetDefaults_Service`; the registry's
/// ClusterIP, IP family and node port allocation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredService {
    /// `spec.clusterIP`: allocated, `None` (headless) or empty
    /// (`ExternalName`).
    pub cluster_ip: String,
    /// `spec.clusterIPs` (empty for `ExternalName`).
    pub cluster_ips: Vec<String>,
    pub ip_family_policy: Option<String>,
    pub ip_families: Vec<String>,
    /// The node port of each `spec.ports[]`, 0 for none.
    pub node_ports: Vec<i64>,
    /// 0 for none.
    pub health_check_node_port: i64,
    pub external_traffic_policy: Option<String>,
    pub internal_traffic_policy: Option<String>,
}

/// One `ports[]` entry of an EndpointSlice: the Service port's name (empty
/// when unnamed) and protocol, and the container port it resolved to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlicePort {
    pub name: String,
    pub port: i64,
    pub protocol: String,
}

/// One endpoint: a pod with its IP and the three conditions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Endpoint {
    pub address: String,
    pub pod: String,
    pub pod_uid: String,
    pub node: Option<String>,
    pub ready: bool,
    pub serving: bool,
    pub terminating: bool,
}

/// One EndpointSlice of a Service (`addressType: IPv4`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndpointSlice {
    pub name: String,
    pub service: String,
    pub created: Millis,
    /// Labelled `service.kubernetes.io/headless` (the Service's ClusterIP
    /// is `None`).
    pub headless: bool,
    pub ports: Vec<SlicePort>,
    pub endpoints: Vec<Endpoint>,
}

/// A number derived from the run's seed and a key, the same on every
/// machine (FNV-1a of the key, mixed with the seed, then splitmix64).
fn draw(run: &Run, key: &str) -> u64 {
    let mut state = fnv1a(key) ^ run.seed;
    splitmix64(&mut state)
}

fn is_headless(service: &Service) -> bool {
    service.cluster_ip.as_deref() == Some("None")
}

fn is_external_name(service: &Service) -> bool {
    service.type_ == "ExternalName"
}

/// The Service as stored once created. Allocation: a ClusterIP of
/// `10.96.0.0/12` from offset 256 on (`ServiceIPStaticSubrange` keeps the
/// first band for addresses written by hand; kubeadm's `--service-cluster-ip-range`),
/// node ports of 30000-32767, each different within the Service. IP
/// families on a single-stack IPv4 cluster: `SingleStack` and `IPv4`,
/// `RequireDualStack` and `IPv4,IPv6` for a headless Service without a
/// selector; none for `ExternalName`.
///
/// Addresses and node ports are unique in a cluster: the Services of the
/// text are created in the order written, each allocation skipping what
/// the ones before hold.
pub fn stored(run: &Run, service: &Service) -> StoredService {
    let mut taken = Taken::default();
    for earlier in run
        .services
        .iter()
        .take_while(|earlier| earlier.name != service.name)
    {
        allocate(run, earlier, &mut taken);
    }
    allocate(run, service, &mut taken)
}

/// The ClusterIPs and node ports Services created earlier hold.
#[derive(Default)]
struct Taken {
    ips: Vec<String>,
    node_ports: Vec<i64>,
}

fn allocate(run: &Run, service: &Service, taken: &mut Taken) -> StoredService {
    let external_name = is_external_name(service);
    let headless = is_headless(service);
    let node_ports_wanted = service.type_ == "NodePort"
        || (service.type_ == "LoadBalancer" && service.allocate_load_balancer_node_ports);
    let external = matches!(service.type_.as_str(), "NodePort" | "LoadBalancer");
    let cluster_ip = if external_name {
        String::new()
    } else {
        match service.cluster_ip.as_deref() {
            Some(ip) if !ip.is_empty() => ip.to_string(),
            _ => (0..)
                .map(|attempt| {
                    let key = format!("Service/{}/clusterIP/{attempt}", service.name);
                    let offset = 256 + draw(run, &key) % ((1 << 20) - 2 - 256);
                    format!(
                        "10.{}.{}.{}",
                        96 + (offset >> 16),
                        (offset >> 8) & 0xff,
                        offset & 0xff
                    )
                })
                .find(|ip| !taken.ips.contains(ip))
                .expect("invariant: the CIDR has a free address for every Service"),
        }
    };
    taken.ips.push(cluster_ip.clone());
    let selectorless = service.selector.as_ref().is_none_or(Vec::is_empty);
    let (ip_family_policy, ip_families) = if external_name {
        (None, Vec::new())
    } else if headless && selectorless {
        (
            Some(
                service
                    .ip_family_policy
                    .clone()
                    .unwrap_or_else(|| "RequireDualStack".into()),
            ),
            vec!["IPv4".to_string(), "IPv6".to_string()],
        )
    } else {
        (
            Some(
                service
                    .ip_family_policy
                    .clone()
                    .unwrap_or_else(|| "SingleStack".into()),
            ),
            vec!["IPv4".to_string()],
        )
    };
    let used = &mut taken.node_ports;
    used.extend(
        service
            .ports
            .iter()
            .filter_map(|port| port.node_port)
            .chain(service.health_check_node_port),
    );
    let mut allocate = |key: String| -> i64 {
        let mut candidate = 30000 + (draw(run, &key) % 2768) as i64;
        while used.contains(&candidate) {
            candidate = if candidate == 32767 {
                30000
            } else {
                candidate + 1
            };
        }
        used.push(candidate);
        candidate
    };
    let node_ports = service
        .ports
        .iter()
        .enumerate()
        .map(|(index, port)| match (node_ports_wanted, port.node_port) {
            (false, _) => 0,
            (true, Some(written)) => written,
            (true, None) => allocate(format!("Service/{}/nodePort/{index}", service.name)),
        })
        .collect();
    let external_traffic_policy = external.then(|| {
        service
            .external_traffic_policy
            .clone()
            .unwrap_or_else(|| "Cluster".into())
    });
    let health_check_node_port =
        if service.type_ == "LoadBalancer" && external_traffic_policy.as_deref() == Some("Local") {
            service.health_check_node_port.unwrap_or_else(|| {
                allocate(format!("Service/{}/healthCheckNodePort", service.name))
            })
        } else {
            0
        };
    StoredService {
        cluster_ips: if cluster_ip.is_empty() {
            Vec::new()
        } else {
            vec![cluster_ip.clone()]
        },
        cluster_ip,
        ip_family_policy,
        ip_families,
        node_ports,
        health_check_node_port,
        external_traffic_policy,
        internal_traffic_policy: (!external_name).then(|| {
            service
                .internal_traffic_policy
                .clone()
                .unwrap_or_else(|| "Cluster".into())
        }),
    }
}

/// `generateName: <service>-` (`getEndpointSlicePrefix`) completed by the
/// API server's `SimpleNameGenerator`: the prefix cut to 58 characters,
/// then 5 characters of `rand.String` (`bcdfghjklmnpqrstvwxz2456789`).
fn slice_name(run: &Run, service: &str, index: usize) -> String {
    const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
    let prefix: String = format!("{service}-").chars().take(58).collect();
    let mut state = fnv1a(&format!("EndpointSlice/{service}/{index}")) ^ run.seed;
    let suffix: String = (0..5)
        .map(|_| {
            let value = splitmix64(&mut state);
            char::from(ALPHABET[(value % ALPHABET.len() as u64) as usize])
        })
        .collect();
    format!("{prefix}{suffix}")
}

/// `findPort`: a numbered target port as it is; a named one is looked up
/// in the containers' ports, then in the sidecars' (init containers with
/// `restartPolicy: Always`). The model reads no container port protocol:
/// it is TCP, the API default.
fn find_port(pod: &PodRun, target: &TargetPort, protocol: &str) -> Option<i64> {
    match target {
        TargetPort::Number(number) => Some(*number),
        TargetPort::Name(name) => {
            let sidecars = pod
                .spec
                .init_containers
                .iter()
                .filter(|c| c.restart_policy.as_deref() == Some("Always"));
            let named = |container: &Container| {
                container
                    .ports
                    .iter()
                    .find(|port| port.name.as_deref() == Some(name.as_str()) && protocol == "TCP")
                    .map(|port| port.number)
            };
            pod.spec.containers.iter().chain(sidecars).find_map(named)
        }
    }
}

/// `getEndpointPorts`: the Service's ports resolved on one pod; a port
/// whose target the pod lacks is left out.
fn endpoint_ports(service: &Service, pod: &PodRun) -> Vec<SlicePort> {
    service
        .ports
        .iter()
        .filter_map(|port| {
            Some(SlicePort {
                name: port.name.clone().unwrap_or_default(),
                port: find_port(pod, &port.target_port, &port.protocol)?,
                protocol: port.protocol.clone(),
            })
        })
        .collect()
}

/// The EndpointSlices of `service` at `at`, in the order the API server
/// lists them (by name).
///
/// Reference §4.1 (`ShouldPodBeInEndpoints`, `podToEndpoint`): every pod
/// the selector matches that exists, has an IP and is not `Succeeded` or
/// `Failed` is an endpoint, terminating pods included; `serving` = the
/// pod's `Ready` condition, `terminating` = its `deletionTimestamp` is set,
/// `ready` = `publishNotReadyAddresses || (serving && !terminating)`.
/// A Service without a selector, or of type `ExternalName`, gets none; one
/// whose selector matches no such pod keeps the controller's placeholder
/// (no ports, no endpoints).
///
/// Endpoints of one port mapping share slices of at most 100. Within a
/// slice they are in the order the pods got their IP: the controller keeps
/// the endpoints a slice has and appends new ones (`reconcileByPortMapping`,
/// in random order among those of one sync: podlab takes creation order).
/// The first slice is the placeholder updated in place, created with the
/// Service; further ones (another port mapping, beyond 100) are created
/// when their first endpoint appears. Simplification: the controller's
/// repacking when endpoints leave is not modelled.
pub fn endpoint_slices(run: &Run, service: &Service, at: Millis) -> Vec<EndpointSlice> {
    let selected = service.selector.as_ref().is_some_and(|s| !s.is_empty());
    if !selected || is_external_name(service) {
        return Vec::new();
    }
    let mut members: Vec<(Millis, &PodRun, &str)> = run
        .pods
        .iter()
        .filter(|pod| pod.exists_at(at) && service.selects(&pod_labels(pod, at)))
        .filter(|pod| !matches!(pod.phase_at(at), "Succeeded" | "Failed"))
        .filter_map(|pod| Some((pod_ip_since(pod)?, pod, pod_ip_at(pod, at)?)))
        .collect();
    crate::sort::sort_by_key(&mut members, |(since, _, _)| *since);
    // Port mappings in the order their first endpoint appeared, each with
    // its endpoints and when they got their IP.
    type Group = (Vec<SlicePort>, Vec<(Millis, Endpoint)>);
    let mut groups: Vec<Group> = Vec::new();
    for (since, pod, address) in members {
        let serving = pod_ready_at(pod, at);
        let terminating = pod.deleting.is_some_and(|deleting| deleting <= at);
        let endpoint = Endpoint {
            address: address.to_string(),
            pod: pod.name.clone(),
            pod_uid: pod.uid.clone(),
            node: pod.node.as_ref().map(|(node, _)| node.clone()),
            ready: service.publish_not_ready_addresses || (serving && !terminating),
            serving,
            terminating,
        };
        let ports = endpoint_ports(service, pod);
        match groups.iter_mut().find(|(mapping, _)| *mapping == ports) {
            Some((_, endpoints)) => endpoints.push((since, endpoint)),
            None => groups.push((ports, vec![(since, endpoint)])),
        }
    }
    let headless = is_headless(service);
    let mut slices = Vec::new();
    for (ports, endpoints) in groups {
        for chunk in endpoints.chunks(MAX_ENDPOINTS_PER_SLICE) {
            let index = slices.len();
            slices.push(EndpointSlice {
                name: slice_name(run, &service.name, index),
                service: service.name.clone(),
                created: if index == 0 { 0 } else { chunk[0].0 },
                headless,
                ports: ports.clone(),
                endpoints: chunk.iter().map(|(_, endpoint)| endpoint.clone()).collect(),
            });
        }
    }
    if slices.is_empty() {
        slices.push(EndpointSlice {
            name: slice_name(run, &service.name, 0),
            service: service.name.clone(),
            created: 0,
            headless,
            ports: Vec::new(),
            endpoints: Vec::new(),
        });
    }
    crate::sort::sort_by(&mut slices, |a, b| a.name.cmp(&b.name));
    slices
}

/// `formatEndpointSlices` (describe.go), for the Service port named `port`:
/// the ready endpoints' `address:port`, at most 3 then ` + N more...`;
/// `<none>` without slices. Its quirks are kept: `more` is set by any
/// endpoint met once 3 are listed, ready or not (so `+ 0 more...` can
/// appear), N counts ready ones only, and slices without ready endpoints
/// give an empty string.
fn format_endpoint_slices(slices: &[EndpointSlice], port: &str) -> String {
    if slices.is_empty() {
        return "<none>".to_string();
    }
    const MAX: usize = 3;
    let mut list: Vec<String> = Vec::new();
    let mut more = false;
    let mut count = 0;
    let mut visit = |endpoint: &Endpoint, text: String| {
        if list.len() == MAX {
            more = true;
        }
        if !endpoint.ready {
            return;
        }
        if !more {
            list.push(text);
        }
        count += 1;
    };
    for slice in slices {
        if slice.ports.is_empty() {
            // A headless Service without ports.
            for endpoint in &slice.endpoints {
                visit(endpoint, endpoint.address.clone());
            }
        } else {
            for slice_port in slice.ports.iter().filter(|p| p.name == port) {
                for endpoint in &slice.endpoints {
                    visit(
                        endpoint,
                        format!("{}:{}", endpoint.address, slice_port.port),
                    );
                }
            }
        }
    }
    let joined = list.join(",");
    if more {
        format!("{joined} + {} more...", count - MAX)
    } else {
        joined
    }
}

/// `kubectl get services`' row (`printService`, `getServiceExternalIP`,
/// `makePortString`, `pkg/printers/internalversion/printers.go`): NAME,
/// TYPE, CLUSTER-IP (the first of `clusterIPs`, `None` when headless,
/// `<none>` without), EXTERNAL-IP (the `externalIPs` of a ClusterIP or
/// NodePort Service, `<none>` without; a LoadBalancer's ingress, which no
/// simulated cloud gives, then its `externalIPs`, else `<pending>`; an
/// ExternalName's name), PORT(S) (`port/PROTOCOL` or
/// `port:nodePort/PROTOCOL`, comma-joined, `<none>` without), AGE (from
/// 0); `-o wide` adds SELECTOR (`labels.FormatLabels` of `spec.selector`).
pub fn service_row(run: &Run, service: &Service, at: Millis, wide: bool) -> Vec<String> {
    let stored = stored(run, service);
    let cluster_ip = stored
        .cluster_ips
        .first()
        .cloned()
        .unwrap_or_else(|| "<none>".into());
    let external = match service.type_.as_str() {
        "ClusterIP" | "NodePort" if !service.external_ips.is_empty() => {
            service.external_ips.join(",")
        }
        "ClusterIP" | "NodePort" => "<none>".into(),
        "LoadBalancer" if !service.external_ips.is_empty() => service.external_ips.join(","),
        "LoadBalancer" => "<pending>".into(),
        "ExternalName" => service.external_name.clone().unwrap_or_default(),
        _ => "<unknown>".into(),
    };
    let ports: Vec<String> = service
        .ports
        .iter()
        .enumerate()
        .map(|(index, port)| match stored.node_ports.get(index) {
            Some(node_port) if *node_port > 0 => {
                format!("{}:{node_port}/{}", port.port, port.protocol)
            }
            _ => format!("{}/{}", port.port, port.protocol),
        })
        .collect();
    let mut row = vec![
        service.name.clone(),
        service.type_.clone(),
        cluster_ip,
        external,
        if ports.is_empty() {
            "<none>".into()
        } else {
            ports.join(",")
        },
        super::human_duration(at),
    ];
    if wide {
        row.push(format_labels(service.selector.as_deref().unwrap_or(&[])));
    }
    row
}

/// `labels.FormatLabels`: `k=v` sorted by key, joined by `,`; `<none>`
/// (also `kubectl get pods --show-labels`' LABELS).
pub fn format_labels(labels: &[(String, String)]) -> String {
    let mut sorted: Vec<&(String, String)> = labels.iter().collect();
    crate::sort::sort_by(&mut sorted, |a, b| a.0.cmp(&b.0));
    let text: Vec<String> = sorted.iter().map(|(k, v)| format!("{k}={v}")).collect();
    if text.is_empty() {
        "<none>".to_string()
    } else {
        text.join(",")
    }
}

/// `printAnnotationsMultiline`: sorted by key, `kubectl apply`'s
/// last-applied configuration skipped; a value longer than 140 bytes with
/// its key, or of several lines, goes under its key, each line cut at 138
/// bytes + `...`.
pub(crate) fn annotations(text: &mut Text, annotations: &[(String, String)]) {
    const MAX: usize = 140;
    let mut entries: Vec<&(String, String)> = annotations
        .iter()
        .filter(|(key, _)| key != "kubectl.kubernetes.io/last-applied-configuration")
        .collect();
    crate::sort::sort_by(&mut entries, |a, b| a.0.cmp(&b.0));
    if entries.is_empty() {
        text.line(0, "Annotations:\t<none>");
        return;
    }
    for (index, (key, value)) in entries.into_iter().enumerate() {
        let lead = if index == 0 { "Annotations:\t" } else { "\t" };
        let value = value.strip_suffix('\n').unwrap_or(value);
        if value.len() + key.len() + 2 > MAX || value.contains('\n') {
            text.line(0, &format!("{lead}{key}:"));
            for line in value.split('\n') {
                text.line(0, &format!("\t  {}", shorten(line, MAX - 2)));
            }
        } else {
            text.line(0, &format!("{lead}{key}: {value}"));
        }
    }
}

/// Go's `s[:max] + "..."` on bytes, kept on a character boundary.
fn shorten(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &text[..end])
}

/// The text of `kubectl describe service <service.name>` at `at`
/// (`describeService`, describe.go at kubectl v1.35.2; laid out by the
/// same tabwriter as `describe pod`).
pub fn describe_service(run: &Run, service: &Service, at: Millis) -> String {
    let stored = stored(run, service);
    let slices = endpoint_slices(run, service, at);
    let mut text = Text::default();
    text.line(0, &format!("Name:\t{}", service.name));
    text.line(0, "Namespace:\tdefault");
    multiline(
        &mut text,
        "Labels",
        service
            .labels
            .iter()
            .map(|(key, value)| (key.clone(), format!("{key}={value}")))
            .collect(),
    );
    annotations(&mut text, &service.annotations);
    text.line(
        0,
        &format!(
            "Selector:\t{}",
            format_labels(service.selector.as_deref().unwrap_or(&[]))
        ),
    );
    text.line(0, &format!("Type:\t{}", service.type_));
    if let Some(policy) = &stored.ip_family_policy {
        text.line(0, &format!("IP Family Policy:\t{policy}"));
    }
    text.line(
        0,
        &format!("IP Families:\t{}", or_none(&stored.ip_families)),
    );
    text.line(0, &format!("IP:\t{}", stored.cluster_ip));
    text.line(0, &format!("IPs:\t{}", or_none(&stored.cluster_ips)));
    if !service.external_ips.is_empty() {
        text.line(
            0,
            &format!("External IPs:\t{}", service.external_ips.join(",")),
        );
    }
    if let Some(ip) = service
        .load_balancer_ip
        .as_deref()
        .filter(|ip| !ip.is_empty())
    {
        text.line(0, &format!("Desired LoadBalancer IP:\t{ip}"));
    }
    if let Some(name) = service.external_name.as_deref().filter(|n| !n.is_empty()) {
        text.line(0, &format!("External Name:\t{name}"));
    }
    // No `LoadBalancer Ingress:` line: no cloud controller gives a
    // LoadBalancer Service an address in podlab's cluster (it stays
    // pending, as on kind).
    for (index, port) in service.ports.iter().enumerate() {
        let name = port.name.as_deref().unwrap_or_default();
        let shown = if name.is_empty() { "<unset>" } else { name };
        let protocol = &port.protocol;
        text.line(0, &format!("Port:\t{shown}\t{}/{protocol}", port.port));
        text.line(0, &format!("TargetPort:\t{}/{protocol}", port.target_port));
        let node_port = stored.node_ports.get(index).copied().unwrap_or(0);
        if node_port != 0 {
            text.line(0, &format!("NodePort:\t{shown}\t{node_port}/{protocol}"));
        }
        text.line(
            0,
            &format!("Endpoints:\t{}", format_endpoint_slices(&slices, name)),
        );
    }
    text.line(
        0,
        &format!("Session Affinity:\t{}", service.session_affinity),
    );
    if let Some(policy) = &stored.external_traffic_policy {
        text.line(0, &format!("External Traffic Policy:\t{policy}"));
    }
    if let Some(policy) = &stored.internal_traffic_policy {
        text.line(0, &format!("Internal Traffic Policy:\t{policy}"));
    }
    if stored.health_check_node_port != 0 {
        text.line(
            0,
            &format!("HealthCheck NodePort:\t{}", stored.health_check_node_port),
        );
    }
    if !service.load_balancer_source_ranges.is_empty() {
        text.line(
            0,
            &format!(
                "LoadBalancer Source Ranges:\t{}",
                service.load_balancer_source_ranges.join(",")
            ),
        );
    }
    if let Some(distribution) = &service.traffic_distribution {
        text.line(0, &format!("Traffic Distribution:\t{distribution}"));
    }
    // No Service events are simulated (a LoadBalancer's
    // `EnsuringLoadBalancer` needs a cloud controller).
    text.line(0, "Events:\t<none>");
    tabwrite(&text.0, 2)
}

fn or_none(items: &[String]) -> String {
    if items.is_empty() {
        "<none>".to_string()
    } else {
        items.join(",")
    }
}

/// `listWithMoreString` over at most 3 items: ` + N more...` past them,
/// `<unset>` for none.
fn list_with_more(items: &[String]) -> String {
    const MAX: usize = 3;
    let shown: Vec<&str> = items.iter().take(MAX).map(String::as_str).collect();
    let joined = shown.join(",");
    if items.len() > MAX {
        format!("{joined} + {} more...", items.len() - MAX)
    } else if joined.is_empty() {
        "<unset>".to_string()
    } else {
        joined
    }
}

/// The row of one slice (`printEndpointSlice`): PORTS the port numbers
/// (`formatDiscoveryPorts`), ENDPOINTS every endpoint's address whatever
/// its conditions (`formatDiscoveryEndpoints`), AGE since creation.
fn slice_row(slice: &EndpointSlice, at: Millis) -> Vec<String> {
    let ports: Vec<String> = slice.ports.iter().map(|p| p.port.to_string()).collect();
    let addresses: Vec<String> = slice.endpoints.iter().map(|e| e.address.clone()).collect();
    vec![
        slice.name.clone(),
        "IPv4".to_string(),
        list_with_more(&ports),
        list_with_more(&addresses),
        human_duration(at.saturating_sub(slice.created)),
    ]
}

/// `kubectl get endpointslices` at `at`: the slices of `services`, by name
/// as the API server lists them; empty when there is none (kubectl then
/// prints `No resources found in default namespace.` on stderr).
///
/// A real `default` namespace also holds the `kubernetes` Service and its
/// slice `kubernetes` (the API servers' addresses, port 6443), as old as
/// the cluster; podlab lists the text's objects only.
pub fn get_endpointslices(run: &Run, services: &[Service], at: Millis) -> String {
    let mut slices: Vec<EndpointSlice> = services
        .iter()
        .flat_map(|service| endpoint_slices(run, service, at))
        .collect();
    if slices.is_empty() {
        return String::new();
    }
    crate::sort::sort_by(&mut slices, |a, b| a.name.cmp(&b.name));
    let header = ["NAME", "ADDRESSTYPE", "PORTS", "ENDPOINTS", "AGE"].map(String::from);
    let rows: Vec<Vec<String>> = std::iter::once(header.to_vec())
        .chain(slices.iter().map(|slice| slice_row(slice, at)))
        .collect();
    table(&rows)
}

/// The Services' part of `podlab simulate`'s transcript at `at`: for each
/// Service of the text, `$ kubectl describe service NAME` and its text,
/// then `$ kubectl get endpointslices`; each block starts with an empty
/// line. Empty when the text has no Service.
pub fn transcript(run: &Run, at: Millis) -> String {
    let services: Vec<&Service> = run
        .services
        .iter()
        .filter(|service| !service.name.is_empty())
        .collect();
    if services.is_empty() {
        return String::new();
    }
    let mut out = String::new();
    for service in &services {
        out.push_str(&format!("\n$ kubectl describe service {}\n", service.name));
        out.push_str(&describe_service(run, service, at));
    }
    out.push_str("\n$ kubectl get endpointslices\n");
    let owned: Vec<Service> = services.into_iter().cloned().collect();
    let table = get_endpointslices(run, &owned, at);
    if table.is_empty() {
        out.push_str("No resources found in default namespace.\n");
    }
    out.push_str(&table);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{simulate, Options};

    const REFERENCE: &str = include_str!("../../../../tests/golden/service-endpoints.yaml");
    const CRON: &str = include_str!("../../../../tests/golden/cronjob-policies.yaml");

    fn run_at(text: &str, at: Millis) -> Run {
        simulate(text, &Options { until: Some(at) })
    }

    /// `tests/golden/service-endpoints.yaml`: the first pod's startup probe
    /// passes at 100.5 s (server up at 100.3 s), the second's fails then
    /// (up at 100.8 s) and passes at 110.5 s. At 105 s both pods are
    /// endpoints (IP, not terminal), one `ready`: describe lists it alone,
    /// get lists both addresses (its ENDPOINTS ignore conditions).
    #[test]
    fn at_105_s_one_endpoint_of_the_reference_deployment_is_ready() {
        let at = 105_000;
        let run = run_at(REFERENCE, at);
        let service = &run.services[0];
        let slices = endpoint_slices(&run, service, at);
        assert_eq!(slices.len(), 1);
        let conditions: Vec<(&str, bool, bool, bool)> = slices[0]
            .endpoints
            .iter()
            .map(|e| (e.address.as_str(), e.ready, e.serving, e.terminating))
            .collect();
        assert_eq!(
            conditions,
            [
                ("10.244.0.5", true, true, false),
                ("10.244.0.6", false, false, false)
            ]
        );
        assert_eq!(
            describe_service(&run, service, at),
            "\
Name:                     model-api
Namespace:                default
Labels:                   app=model-api
Annotations:              <none>
Selector:                 app=model-api
Type:                     ClusterIP
IP Family Policy:         SingleStack
IP Families:              IPv4
IP:                       10.100.114.40
IPs:                      10.100.114.40
Port:                     http  80/TCP
TargetPort:               8000/TCP
Endpoints:                10.244.0.5:8000
Session Affinity:         None
Internal Traffic Policy:  Cluster
Events:                   <none>
"
        );
        assert_eq!(
            get_endpointslices(&run, &run.services, at),
            "\
NAME              ADDRESSTYPE   PORTS   ENDPOINTS               AGE
model-api-jmdqg   IPv4          8000    10.244.0.5,10.244.0.6   105s
"
        );
        // The startup probe at 100.5 s answers 20 ms later (the default
        // `healthLatency`); the readiness probe, run at once, answers at
        // 100.54 s: the first endpoint turns ready. The second: 110.54 s.
        let ready = |at: Millis| -> Vec<bool> {
            let run = run_at(REFERENCE, at);
            endpoint_slices(&run, &run.services[0], at)[0]
                .endpoints
                .iter()
                .map(|e| e.ready)
                .collect()
        };
        assert_eq!(ready(100_539), [false, false]);
        assert_eq!(ready(100_540), [true, false]);
        assert_eq!(ready(110_539), [true, false]);
        assert_eq!(ready(110_540), [true, true]);
    }

    /// Before the pods have IPs the Service keeps the controller's
    /// placeholder slice: no ports, no endpoints (`<unset>` twice), and
    /// describe's `Endpoints:` is empty, padded like every cell.
    #[test]
    fn before_any_pod_ip_the_placeholder_slice_is_listed() {
        let run = run_at(REFERENCE, 1_000);
        let slices = endpoint_slices(&run, &run.services[0], 1_000);
        assert_eq!(slices.len(), 1);
        assert!(slices[0].ports.is_empty() && slices[0].endpoints.is_empty());
        assert_eq!(
            get_endpointslices(&run, &run.services, 1_000),
            "\
NAME              ADDRESSTYPE   PORTS     ENDPOINTS   AGE
model-api-jmdqg   IPv4          <unset>   <unset>     1s
"
        );
        assert!(describe_service(&run, &run.services[0], 1_000)
            .contains("\nEndpoints:                \n"));
    }

    /// A pod being deleted stays an endpoint: `ready: false` at once,
    /// `serving` as its readiness, `terminating: true` (reference §4.1;
    /// `cronjob-policies.yaml` at 121 s, Replace deleting the running Job).
    /// The pods of a Job that has finished are terminal: not endpoints.
    #[test]
    fn a_terminating_pod_stays_an_endpoint_that_is_not_ready() {
        let text = format!(
            "{CRON}---\napiVersion: v1\nkind: Service\nmetadata: {{ name: jobs }}\n\
             spec:\n  selector: {{ job-name: replace-29453761 }}\n  ports: [{{ port: 8080 }}]\n"
        );
        let run = run_at(&text, 121_000);
        let slices = endpoint_slices(&run, &run.services[0], 121_000);
        let endpoint = &slices[0].endpoints[0];
        assert!(endpoint.pod.starts_with("replace-29453761-"));
        assert_eq!(
            (endpoint.ready, endpoint.serving, endpoint.terminating),
            (false, true, true)
        );
        // Once gone (its containers stopped), the placeholder is back.
        let later = run_at(&text, 200_000);
        assert!(endpoint_slices(&later, &later.services[0], 200_000)[0]
            .endpoints
            .is_empty());
    }

    /// `publishNotReadyAddresses`: every endpoint `ready`, `serving` still
    /// the pod's readiness.
    #[test]
    fn publish_not_ready_addresses_makes_every_endpoint_ready() {
        let text = REFERENCE.replace(
            "  selector: { app: model-api }\n  ports:",
            "  selector: { app: model-api }\n  publishNotReadyAddresses: true\n  ports:",
        );
        let run = run_at(&text, 105_000);
        let slices = endpoint_slices(&run, &run.services[0], 105_000);
        let flags: Vec<(bool, bool)> = slices[0]
            .endpoints
            .iter()
            .map(|e| (e.ready, e.serving))
            .collect();
        assert_eq!(flags, [(true, true), (true, false)]);
    }

    fn endpoint(address: &str, ready: bool) -> Endpoint {
        Endpoint {
            address: address.into(),
            pod: String::new(),
            pod_uid: String::new(),
            node: None,
            ready,
            serving: ready,
            terminating: false,
        }
    }

    fn slice(endpoints: Vec<Endpoint>) -> EndpointSlice {
        EndpointSlice {
            name: "s".into(),
            service: "s".into(),
            created: 0,
            headless: false,
            ports: vec![SlicePort {
                name: "http".into(),
                port: 8000,
                protocol: "TCP".into(),
            }],
            endpoints,
        }
    }

    /// `formatEndpointSlices` as describe.go has it: ready endpoints only,
    /// 3 then `+ N more...`, N counting ready ones; `more` set by any
    /// endpoint met after the third, ready or not (`+ 0 more...`).
    #[test]
    fn describe_lists_three_ready_endpoints_then_counts_the_rest() {
        let ips = |ready: &[bool]| {
            let endpoints = ready
                .iter()
                .enumerate()
                .map(|(i, ready)| endpoint(&format!("10.0.0.{i}"), *ready))
                .collect();
            format_endpoint_slices(&[slice(endpoints)], "http")
        };
        assert_eq!(format_endpoint_slices(&[], "http"), "<none>");
        assert_eq!(ips(&[]), "");
        assert_eq!(ips(&[false, false]), "");
        assert_eq!(ips(&[true, false, true]), "10.0.0.0:8000,10.0.0.2:8000");
        assert_eq!(
            ips(&[true; 5]),
            "10.0.0.0:8000,10.0.0.1:8000,10.0.0.2:8000 + 2 more..."
        );
        assert_eq!(
            ips(&[true, true, true, false]),
            "10.0.0.0:8000,10.0.0.1:8000,10.0.0.2:8000 + 0 more..."
        );
        assert_eq!(format_endpoint_slices(&[slice(Vec::new())], "metrics"), "");
    }

    /// `listWithMoreString` (get): `<unset>` for none, 3 then `+ N more...`.
    #[test]
    fn get_lists_three_items_then_counts_the_rest() {
        let list = |n: usize| list_with_more(&(0..n).map(|i| i.to_string()).collect::<Vec<_>>());
        assert_eq!(list(0), "<unset>");
        assert_eq!(list(3), "0,1,2");
        assert_eq!(list(4), "0,1,2 + 1 more...");
    }

    /// The invented values: a ClusterIP of 10.96.0.0/12 past its first 256
    /// addresses, node ports of 30000-32767, slice names `<service>-` + 5
    /// characters, all fixed by the seed and the name.
    #[test]
    fn invented_addresses_and_names_are_in_range_and_fixed_by_seed_and_name() {
        let mut run = run_at(REFERENCE, 0);
        let mut service = run.services[0].clone();
        service.type_ = "NodePort".into();
        let mut seen = Vec::new();
        for seed in 0..200u64 {
            run.seed = seed;
            let stored = stored(&run, &service);
            let octets: Vec<u64> = stored
                .cluster_ip
                .split('.')
                .map(|o| o.parse().expect("a number"))
                .collect();
            let offset = ((octets[1] - 96) << 16) | (octets[2] << 8) | octets[3];
            assert_eq!(octets[0], 10);
            assert!(
                (256..(1 << 20) - 1).contains(&offset),
                "{}",
                stored.cluster_ip
            );
            assert!((30000..=32767).contains(&stored.node_ports[0]));
            let name = slice_name(&run, "model-api", 0);
            assert!(name.starts_with("model-api-") && name.len() == "model-api-".len() + 5);
            assert_eq!(stored, super::stored(&run, &service));
            seen.push(stored.cluster_ip);
        }
        seen.sort();
        seen.dedup();
        assert!(seen.len() > 190, "{}", seen.len());
        let long = "a".repeat(63);
        assert_eq!(slice_name(&run, &long, 0).len(), 58 + 5);
    }
}
