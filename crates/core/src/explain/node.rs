//! A node of the Scenario's pools at a time T: the v1 Node object the API
//! server would return, its Lease, and `kubectl describe node` as kubectl
//! v1.35 prints it (kubectl `pkg/describe/describe.go` `describeNode`,
//! `describeNodeLease`, `describeNodeResource`, read at v0.35.2;
//! `kubectl-output.md` §7). `crates/cli/tests/describe_kubectl.rs` serves
//! [`node_object`] and [`lease_object`] to the real kubectl and compares its
//! text with [`describe`] byte for byte.
//!
//! The Scenario says a pool's CPU, memory, GPUs, labels and taints; what a
//! real node adds is chosen here, the same for every run (docs/kubectl.md,
//! "The Node object"):
//! - the cluster's nodes exist and are Ready from t = 0 (`get nodes` shows
//!   the same AGE): `creationTimestamp` and every condition's
//!   `lastTransitionTime` are t = 0. The kubelet's start-up events
//!   (`Starting`, `NodeHasSufficientMemory`, `RegisteredNode`, ...) are
//!   not modelled, so Events is `<none>`;
//! - labels: the kubelet's `initialNode` (`kubernetes.io/{arch,hostname,os}`
//!   and the deprecated `beta.kubernetes.io/{arch,os}`, still set in 1.35),
//!   then the pool's;
//! - annotations: the kubelet's `volumes.kubernetes.io/controller-managed-
//!   attach-detach: true` and the TTL controller's `node.alpha.kubernetes.io/
//!   ttl: 0` (clusters of up to 100 nodes);
//! - capacity = allocatable (the simulator's scheduler takes the pool's
//!   numbers as allocatable): the pool's cpu and memory, `pods: 110`,
//!   `ephemeral-storage: 100Gi` (a disk podlab does not model),
//!   `hugepages-1Gi`/`hugepages-2Mi: 0` (both listed on a real amd64 GPU
//!   node, kubectl-output.md §8.7), and the device plugin's resources;
//! - conditions in the kubelet's setter order (MemoryPressure, DiskPressure,
//!   PIDPressure, Ready) with their healthy reasons; `lastHeartbeatTime` is
//!   the last status report: with the node Lease in use the kubelet patches
//!   its status only when it changed or every `nodeStatusReportFrequency`
//!   (5 m), so at the last multiple of 5 minutes (a change such as a pulled
//!   image's entry in `status.images` is not modelled);
//! - the Lease (`kube-node-lease/<node>`) is renewed every 10 s (40 s
//!   duration × 0.25; the 4 % jitter is left out): `renewTime` at the last
//!   multiple of 10 s, `holderIdentity` the node, no `acquireTime`;
//! - addresses: InternalIP `172.18.<(n+2)/256>.<(n+2)%256>` for the n-th
//!   node (the pods' hostIP, `describe::host_ip`), Hostname the name;
//!   `podCIDR` `10.244.<n>.0/24` (the simulator's pod IPs);
//! - nodeInfo: machine ID, system UUID and boot ID hashed from the name;
//!   kernel `6.8.0-1021-aws`, `Ubuntu 22.04.5 LTS`, `containerd://1.7.27`
//!   (kubectl-output.md §8.7), kubelet `v1.35.2`; `kubeProxyVersion` empty
//!   (`DisableNodeKubeProxyVersion`, on by default since 1.33);
//! - only podlab's pods run there: no kube-proxy or device-plugin
//!   DaemonSet pods in Non-terminated Pods.

use super::describe::{self, quantity_string, rfc1123z, tabwrite, Text};
use super::human_duration;
use super::pod_object::Clock;
use super::printers::Value;
use crate::manifest::duration::Millis;
use crate::manifest::model::{Container, PodSpec};
use crate::manifest::quantity::Quantity;
use crate::manifest::scenario::{NodePool, Scenario};
use crate::sim::{PodRun, Run};

/// The kubelet version every node reports (`get nodes` VERSION too).
pub const KUBELET_VERSION: &str = "v1.35.2";
const KERNEL: &str = "6.8.0-1021-aws";
const OS_IMAGE: &str = "Ubuntu 22.04.5 LTS";
const RUNTIME: &str = "containerd://1.7.27";
/// `nodeStatusReportFrequency`'s default.
const STATUS_REPORT: Millis = 300_000;
/// The node Lease's renew interval (`nodeLeaseDurationSeconds` 40 × 0.25).
const LEASE_RENEW: Millis = 10_000;
const LEASE_SECONDS: i64 = 40;

/// A node of the cluster: its pool and its place among all nodes.
#[derive(Clone, Copy, Debug)]
pub struct NodeRef<'a> {
    pub pool: &'a NodePool,
    /// Its number within the pool (`<pool>-<i>`).
    pub number: usize,
    /// Its place in the cluster (pools in order): the pod IPs' third octet.
    pub index: usize,
}

impl NodeRef<'_> {
    pub fn name(&self) -> String {
        format!("{}-{}", self.pool.name, self.number)
    }
}

/// Every node of the Scenario, pools in order.
pub fn nodes(scenario: &Scenario) -> Vec<NodeRef<'_>> {
    let mut out = Vec::new();
    for pool in &scenario.node_pools {
        for number in 0..crate::sched::nodes(pool) {
            let index = out.len();
            out.push(NodeRef {
                pool,
                number,
                index,
            });
        }
    }
    out
}

/// The node called `name`.
pub fn find<'a>(scenario: &'a Scenario, name: &str) -> Option<NodeRef<'a>> {
    nodes(scenario).into_iter().find(|node| node.name() == name)
}

/// The node's labels, sorted: the kubelet's, then the pool's others.
pub fn labels(pool: &NodePool, name: &str) -> Vec<(String, String)> {
    let mut labels: Vec<(String, String)> = [
        ("beta.kubernetes.io/arch", "amd64"),
        ("beta.kubernetes.io/os", "linux"),
        ("kubernetes.io/arch", "amd64"),
        ("kubernetes.io/hostname", name),
        ("kubernetes.io/os", "linux"),
    ]
    .iter()
    .map(|(key, value)| (key.to_string(), value.to_string()))
    .collect();
    // The kubelet's own win (`sched::pool_label`).
    for (key, value) in &pool.labels {
        if !labels.iter().any(|(known, _)| known == key) {
            labels.push((key.clone(), value.clone()));
        }
    }
    crate::sort::sort_by(&mut labels, |a, b| a.0.cmp(&b.0));
    labels
}

/// The node's labels at `at`: [`labels`] with the `label` actions up to
/// `at` (`Run::metadata_at`), sorted.
pub fn labels_at(run: &Run, pool: &NodePool, name: &str, at: Millis) -> Vec<(String, String)> {
    use crate::manifest::scenario::MetaTarget;
    let mut labels = run.metadata_at(MetaTarget::Node, name, true, labels(pool, name), at);
    crate::sort::sort_by(&mut labels, |a, b| a.0.cmp(&b.0));
    labels
}

/// The node's annotations at `at`: the kubelet's and the attach-detach
/// controller's, with the `annotate` actions up to `at`.
pub fn annotations_at(run: &Run, name: &str, at: Millis) -> Vec<(String, String)> {
    use crate::manifest::scenario::MetaTarget;
    let base = ANNOTATIONS
        .iter()
        .map(|(key, value)| (key.to_string(), value.to_string()))
        .collect();
    run.metadata_at(MetaTarget::Node, name, false, base, at)
}

const ANNOTATIONS: [(&str, &str); 2] = [
    ("node.alpha.kubernetes.io/ttl", "0"),
    (
        "volumes.kubernetes.io/controller-managed-attach-detach",
        "true",
    ),
];

/// `status.capacity` (= `allocatable`), sorted by name.
pub fn capacity(pool: &NodePool) -> Vec<(String, Quantity)> {
    let mut capacity: Vec<(String, Quantity)> = vec![
        (
            "cpu".into(),
            Quantity {
                milli: pool.cpu_milli,
            },
        ),
        ("ephemeral-storage".into(), Quantity::from_units(100 << 30)),
        ("hugepages-1Gi".into(), Quantity::from_units(0)),
        ("hugepages-2Mi".into(), Quantity::from_units(0)),
        ("memory".into(), Quantity::from_units(pool.memory_bytes)),
        ("pods".into(), Quantity::from_units(110)),
    ];
    for (name, count) in pool.extended_resources() {
        capacity.push((name, Quantity::from_units(i128::from(count))));
    }
    crate::sort::sort_by(&mut capacity, |a, b| a.0.cmp(&b.0));
    capacity
}

/// `printNode`'s `-o wide` cells: INTERNAL-IP, EXTERNAL-IP (`<none>`: the
/// nodes have no ExternalIP address), OS-IMAGE, KERNEL-VERSION,
/// CONTAINER-RUNTIME.
pub fn wide_cells(node: &NodeRef<'_>) -> [String; 5] {
    [
        internal_ip(node.index as u64),
        "<none>".into(),
        OS_IMAGE.into(),
        KERNEL.into(),
        RUNTIME.into(),
    ]
}

/// The InternalIP of the cluster's `index`-th node (pools in order):
/// `172.18.<(n+2)/256>.<(n+2)%256>`, kind's addresses (172.18.0.2 for the
/// first); the pods' hostIP (`describe::host_ip`).
pub fn internal_ip(index: u64) -> String {
    let n = index + 2;
    format!("172.18.{}.{}", n / 256, n % 256)
}

fn pod_cidr(node: &NodeRef<'_>) -> String {
    format!("10.244.{}.0/24", node.index)
}

/// The last multiple of `every` at or before `at`.
fn last_tick(at: Millis, every: Millis) -> Millis {
    at / every * every
}

/// (machine ID, system UUID, boot ID).
fn ids(name: &str) -> (String, String, String) {
    let machine = describe::hex64(&format!("machine/{name}"));
    (
        machine[..32].to_string(),
        describe::uuid(&format!("system/{name}")),
        describe::uuid(&format!("boot/{name}")),
    )
}

/// The conditions as (type, status, reason, message).
const CONDITIONS: [(&str, &str, &str, &str); 4] = [
    (
        "MemoryPressure",
        "False",
        "KubeletHasSufficientMemory",
        "kubelet has sufficient memory available",
    ),
    (
        "DiskPressure",
        "False",
        "KubeletHasNoDiskPressure",
        "kubelet has no disk pressure",
    ),
    (
        "PIDPressure",
        "False",
        "KubeletHasSufficientPID",
        "kubelet has sufficient PID available",
    ),
    (
        "Ready",
        "True",
        "KubeletReady",
        "kubelet is posting ready status",
    ),
];

/// The pods the API server lists for the node at `at` with kubectl's field
/// selector `spec.nodeName=<node>,status.phase!=Succeeded,status.phase!=
/// Failed`: bound to it by then and not finished, by name.
pub fn pods_on<'r>(run: &'r Run, name: &str, at: Millis) -> Vec<&'r PodRun> {
    let mut pods: Vec<&PodRun> = run
        .pods
        .iter()
        .filter(|pod| {
            pod.exists_at(at)
                && pod
                    .node
                    .as_ref()
                    .is_some_and(|(node, bound)| node == name && *bound <= at)
                && !matches!(pod.phase_at(at), "Succeeded" | "Failed")
        })
        .collect();
    crate::sort::sort_by(&mut pods, |a, b| a.name.cmp(&b.name));
    pods
}

/// One resource's amount in a sum, with the text whose suffix gives its
/// format (Go's `Quantity.Add` keeps the receiver's format, or takes the
/// added one's when the receiver is zero; `maxResourceList` keeps the
/// larger quantity, format and all).
#[derive(Clone, Debug)]
pub struct Amount {
    pub name: String,
    pub milli: i128,
    /// As written in the manifest; `None` where the text is not known.
    pub written: Option<String>,
}

/// Resource amounts by name.
pub type Amounts = Vec<Amount>;

impl Amount {
    /// `Quantity.String()` in the format of the text written.
    pub fn text(&self) -> String {
        let quantity = Quantity { milli: self.milli };
        match &self.written {
            Some(written) => super::pod_object::canonical_quantity(written, quantity),
            None => quantity_string(&self.name, quantity),
        }
    }
}

fn add_all(to: &mut Amounts, from: &[Amount]) {
    for amount in from {
        match to.iter_mut().find(|known| known.name == amount.name) {
            Some(entry) => {
                if entry.milli == 0 {
                    entry.written.clone_from(&amount.written);
                }
                entry.milli += amount.milli;
            }
            None => to.push(amount.clone()),
        }
    }
}

fn max_all(to: &mut Amounts, from: &[Amount]) {
    for amount in from {
        match to.iter_mut().find(|known| known.name == amount.name) {
            Some(entry) if amount.milli > entry.milli => *entry = amount.clone(),
            Some(_) => {}
            None => to.push(amount.clone()),
        }
    }
}

/// kubectl's `resourcehelper.PodRequestsAndLimits` (kubectl
/// `pkg/util/resource/resource.go`, v0.35.2) over the spec: the containers'
/// sum; a restartable init container (sidecar) adds to it and to what the
/// init containers after it run beside; the pod needs the larger of that
/// sum and the largest init container plus the sidecars declared before
/// it. Requests default to limits (`SetDefaults_Pod` copies the limit).
/// No overhead, pod-level resources (not read by kubectl either) or resize
/// status in the model. `source` is the manifest text (for the formats).
pub fn requests_and_limits(spec: &PodSpec, source: &str) -> (Amounts, Amounts) {
    let written = |amount: &crate::manifest::model::Amount| {
        source
            .get(amount.value_span.start..amount.value_span.end)
            .map(|text| text.trim().trim_matches(|c| c == '"' || c == '\''))
            .filter(|text| !text.is_empty())
            .map(str::to_string)
    };
    let amounts = |container: &Container, limits: bool| {
        let resources = &container.resources;
        let mut out: Amounts = Vec::new();
        let lists = if limits {
            vec![&resources.limits]
        } else {
            // A limit without a request is copied into the requests.
            vec![&resources.requests, &resources.limits]
        };
        for list in lists {
            for amount in list {
                if let Some(quantity) = amount.quantity {
                    if !out.iter().any(|known| known.name == amount.name) {
                        out.push(Amount {
                            name: amount.name.clone(),
                            milli: quantity.milli,
                            written: written(amount),
                        });
                    }
                }
            }
        }
        out
    };
    let side = |limits: bool| {
        let mut total = Vec::new();
        for container in &spec.containers {
            add_all(&mut total, &amounts(container, limits));
        }
        let mut sidecars = Vec::new();
        let mut init = Vec::new();
        for container in &spec.init_containers {
            let own = amounts(container, limits);
            let needs = if container.restart_policy.as_deref() == Some("Always") {
                add_all(&mut total, &own);
                add_all(&mut sidecars, &own);
                sidecars.clone()
            } else {
                let mut needs = own;
                add_all(&mut needs, &sidecars);
                needs
            };
            max_all(&mut init, &needs);
        }
        max_all(&mut total, &init);
        total
    };
    (side(false), side(true))
}

/// The amount of `name` (zero, `"0"`, when absent).
fn amount(list: &[Amount], name: &str) -> Amount {
    list.iter()
        .find(|known| known.name == name)
        .cloned()
        .unwrap_or(Amount {
            name: name.to_string(),
            milli: 0,
            written: None,
        })
}

/// `Quantity.Value()`: whole units, rounded up.
fn value(milli: i128) -> i128 {
    milli.div_euclid(1000) + i128::from(milli.rem_euclid(1000) != 0)
}

/// `int64(float64(part) / float64(whole) * 100)` as Go computes it: the
/// float's truncation, and amd64's 0x8000000000000000 for what does not
/// fit (a whole of 0 gives ±Inf or NaN).
fn percent(part: i128, whole: i128) -> i64 {
    let fraction = part as f64 / whole as f64 * 100.0;
    if fraction.is_finite() && fraction.abs() < 9.2e18 {
        fraction.trunc() as i64
    } else {
        i64::MIN
    }
}

/// The text of `kubectl describe node <name>` at `at`; `None` for a node
/// the Scenario does not have. `source` is the manifest text (the formats
/// of the quantities written).
pub fn describe(
    scenario: &Scenario,
    run: &Run,
    source: &str,
    name: &str,
    at: Millis,
) -> Option<String> {
    let node = find(scenario, name)?;
    let pool = node.pool;
    let mut text = Text::default();
    text.line(0, &format!("Name:\t{name}"));
    text.line(0, "Roles:\t<none>");
    let labels = labels_at(run, pool, name, at)
        .into_iter()
        .map(|(key, value)| (key.clone(), format!("{key}={value}")))
        .collect();
    describe::multiline(&mut text, "Labels", labels);
    // `printAnnotationsMultiline`, as for a pod.
    super::service::annotations(&mut text, &annotations_at(run, name, at));
    text.line(0, &format!("CreationTimestamp:\t{}", rfc1123z(0)));
    // `printNodeTaintsMultiline` sorts by effect, then key.
    let mut taints: Vec<(String, String)> = pool
        .taints
        .iter()
        .map(|taint| {
            let value = if taint.value.is_empty() {
                String::new()
            } else {
                format!("={}", taint.value)
            };
            (
                format!("{},{}", taint.effect, taint.key),
                format!("{}{value}:{}", taint.key, taint.effect),
            )
        })
        .collect();
    // A cordoned node: the node lifecycle controller adds
    // `node.kubernetes.io/unschedulable:NoSchedule` while
    // `spec.unschedulable` is set (`doNoScheduleTaintingPass`,
    // `pkg/controller/nodelifecycle/node_lifecycle_controller.go`).
    let cordoned = run.cordoned_at(name, at);
    if cordoned {
        taints.push((
            "NoSchedule,node.kubernetes.io/unschedulable".into(),
            "node.kubernetes.io/unschedulable:NoSchedule".into(),
        ));
    }
    crate::sort::sort_by(&mut taints, |a, b| a.0.cmp(&b.0));
    describe::multiline(&mut text, "Taints", taints);
    text.line(0, &format!("Unschedulable:\t{cordoned}"));
    text.line(0, "Lease:");
    text.line(1, &format!("HolderIdentity:\t{name}"));
    text.line(1, "AcquireTime:\t<unset>");
    text.line(
        1,
        &format!("RenewTime:\t{}", rfc1123z(last_tick(at, LEASE_RENEW))),
    );
    text.line(
        0,
        "Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage",
    );
    text.line(
        1,
        "----\t------\t-----------------\t------------------\t------\t-------",
    );
    let heartbeat = rfc1123z(last_tick(at, STATUS_REPORT));
    for (kind, status, reason, message) in CONDITIONS {
        text.line(
            1,
            &format!(
                "{kind} \t{status} \t{heartbeat} \t{} \t{reason} \t{message}",
                rfc1123z(0)
            ),
        );
    }
    text.line(0, "Addresses:");
    text.line(
        1,
        &format!("InternalIP:\t{}", internal_ip(node.index as u64)),
    );
    text.line(1, &format!("Hostname:\t{name}"));
    let capacity = capacity(pool);
    for title in ["Capacity:", "Allocatable:"] {
        text.line(0, title);
        for (resource, quantity) in &capacity {
            text.line(
                1,
                &format!("{resource}:\t{}", quantity_string(resource, *quantity)),
            );
        }
    }
    let (machine, system, boot) = ids(name);
    text.line(0, "System Info:");
    for (key, value) in [
        ("Machine ID", machine.as_str()),
        ("System UUID", &system),
        ("Boot ID", &boot),
        ("Kernel Version", KERNEL),
        ("OS Image", OS_IMAGE),
        ("Operating System", "linux"),
        ("Architecture", "amd64"),
        ("Container Runtime Version", RUNTIME),
        ("Kubelet Version", KUBELET_VERSION),
        ("Kube-Proxy Version", ""),
    ] {
        text.line(1, &format!("{key}:\t{value}"));
    }
    let cidr = pod_cidr(&node);
    text.line(0, &format!("PodCIDR:\t{cidr}"));
    text.line(0, &format!("PodCIDRs:\t{cidr}"));
    node_resources(&mut text, run, source, name, &capacity, at);
    text.line(0, "Events:\t<none>");
    Some(tabwrite(&text.0, 2))
}

/// `describeNodeResource`: the pods and what they ask of the node.
fn node_resources(
    text: &mut Text,
    run: &Run,
    source: &str,
    name: &str,
    allocatable: &[(String, Quantity)],
    at: Millis,
) {
    let pods = pods_on(run, name, at);
    let of = |resource: &str| {
        allocatable
            .iter()
            .find(|(known, _)| known == resource)
            .map_or(0, |(_, quantity)| quantity.milli)
    };
    // CPU compares milli-values, the rest whole values.
    let whole = |resource: &str| {
        if resource == "cpu" {
            of(resource)
        } else {
            value(of(resource))
        }
    };
    let part = |amount: &Amount| {
        if amount.name == "cpu" {
            amount.milli
        } else {
            value(amount.milli)
        }
    };
    let show = |amount: &Amount, percent: i64| format!("{} ({percent}%)", amount.text());
    text.line(
        0,
        &format!("Non-terminated Pods:\t({} in total)", pods.len()),
    );
    text.line(
        1,
        "Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge",
    );
    text.line(
        1,
        "---------\t----\t\t------------\t----------\t---------------\t-------------\t---",
    );
    let mut requests = Vec::new();
    let mut limits = Vec::new();
    for pod in &pods {
        let (pod_requests, pod_limits) = requests_and_limits(&pod.spec, source);
        let mut cells = Vec::new();
        for resource in ["cpu", "memory"] {
            for list in [&pod_requests, &pod_limits] {
                let amount = amount(list, resource);
                // Not guarded: a node without CPU prints Go's overflow.
                cells.push(show(&amount, percent(part(&amount), whole(resource))));
            }
        }
        text.line(
            1,
            &format!(
                "default\t{}\t\t{}\t{}",
                pod.name,
                cells.join("\t"),
                // `creationTimestamp` travels in whole seconds.
                human_duration(at.saturating_sub(pod.created / 1000 * 1000))
            ),
        );
        add_all(&mut requests, &pod_requests);
        add_all(&mut limits, &pod_limits);
    }
    text.line(
        0,
        "Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)",
    );
    text.line(1, "Resource\tRequests\tLimits");
    text.line(1, "--------\t--------\t------");
    let guarded = |amount: &Amount| {
        let whole = whole(&amount.name);
        show(
            amount,
            if whole == 0 {
                0
            } else {
                percent(part(amount), whole)
            },
        )
    };
    let hugepages = allocatable
        .iter()
        .map(|(resource, _)| resource.as_str())
        .filter(|resource| resource.starts_with("hugepages-"));
    for resource in ["cpu", "memory", "ephemeral-storage"]
        .into_iter()
        .chain(hugepages)
    {
        let (request, limit) = (amount(&requests, resource), amount(&limits, resource));
        text.line(
            1,
            &format!("{resource}\t{}\t{}", guarded(&request), guarded(&limit)),
        );
    }
    // Extended resources: neither standard (cpu, memory, ephemeral-storage,
    // hugepages-*) nor `pods`; no percentages.
    for (resource, _) in allocatable.iter().filter(|(resource, _)| {
        !matches!(
            resource.as_str(),
            "cpu" | "memory" | "ephemeral-storage" | "pods"
        ) && !resource.starts_with("hugepages-")
    }) {
        text.line(
            1,
            &format!(
                "{resource}\t{}\t{}",
                amount(&requests, resource).text(),
                amount(&limits, resource).text()
            ),
        );
    }
}

// ---- the objects served to kubectl ---------------------------------------------------

/// The v1 Node object called `name` at `at`, on `clock`.
pub fn node_object(scenario: &Scenario, name: &str, at: Millis, clock: Clock) -> Option<Value> {
    let node = find(scenario, name)?;
    let pool = node.pool;
    let strings = |pairs: Vec<(String, String)>| {
        Value::Object(pairs.into_iter().map(|(k, v)| (k, Value::str(v))).collect())
    };
    let quantities = strings(
        capacity(pool)
            .into_iter()
            .map(|(resource, quantity)| {
                let text = quantity_string(&resource, quantity);
                (resource, text)
            })
            .collect(),
    );
    let taints = pool
        .taints
        .iter()
        .map(|taint| {
            let mut entry = Value::object().with("key", Value::str(&taint.key));
            if !taint.value.is_empty() {
                entry = entry.with("value", Value::str(&taint.value));
            }
            entry.with("effect", Value::str(&taint.effect))
        })
        .collect();
    let conditions = CONDITIONS
        .iter()
        .map(|(kind, status, reason, message)| {
            Value::object()
                .with("type", Value::str(*kind))
                .with("status", Value::str(*status))
                .with(
                    "lastHeartbeatTime",
                    Value::str(clock.time(last_tick(at, STATUS_REPORT))),
                )
                .with("lastTransitionTime", Value::str(clock.time(0)))
                .with("reason", Value::str(*reason))
                .with("message", Value::str(*message))
        })
        .collect();
    let (machine, system, boot) = ids(name);
    let cidr = pod_cidr(&node);
    let mut spec = Value::object()
        .with("podCIDR", Value::str(&cidr))
        .with("podCIDRs", Value::List(vec![Value::str(&cidr)]));
    if !pool.taints.is_empty() {
        spec = spec.with("taints", Value::List(taints));
    }
    Some(
        Value::object()
            .with("kind", Value::str("Node"))
            .with("apiVersion", Value::str("v1"))
            .with(
                "metadata",
                Value::object()
                    .with("name", Value::str(name))
                    .with("uid", Value::str(uid(name)))
                    .with("resourceVersion", Value::str("1000"))
                    .with("creationTimestamp", Value::str(clock.time(0)))
                    .with("labels", strings(labels(pool, name)))
                    .with(
                        "annotations",
                        strings(
                            ANNOTATIONS
                                .iter()
                                .map(|(k, v)| (k.to_string(), v.to_string()))
                                .collect(),
                        ),
                    ),
            )
            .with("spec", spec)
            .with(
                "status",
                Value::object()
                    .with("capacity", quantities.clone())
                    .with("allocatable", quantities)
                    .with("conditions", Value::List(conditions))
                    .with(
                        "addresses",
                        Value::List(vec![
                            Value::object()
                                .with("type", Value::str("InternalIP"))
                                .with("address", Value::str(internal_ip(node.index as u64))),
                            Value::object()
                                .with("type", Value::str("Hostname"))
                                .with("address", Value::str(name)),
                        ]),
                    )
                    .with(
                        "daemonEndpoints",
                        Value::object().with(
                            "kubeletEndpoint",
                            Value::object().with("Port", Value::Int(10250)),
                        ),
                    )
                    .with(
                        "nodeInfo",
                        Value::object()
                            .with("machineID", Value::str(machine))
                            .with("systemUUID", Value::str(system))
                            .with("bootID", Value::str(boot))
                            .with("kernelVersion", Value::str(KERNEL))
                            .with("osImage", Value::str(OS_IMAGE))
                            .with("containerRuntimeVersion", Value::str(RUNTIME))
                            .with("kubeletVersion", Value::str(KUBELET_VERSION))
                            .with("kubeProxyVersion", Value::str(""))
                            .with("operatingSystem", Value::str("linux"))
                            .with("architecture", Value::str("amd64")),
                    ),
            ),
    )
}

/// The node's uid (kubectl searches its events by it).
pub fn uid(name: &str) -> String {
    describe::uuid(&format!("Node/{name}"))
}

/// The node's Lease in `kube-node-lease` at `at`, on `clock`
/// (`metav1.MicroTime`: microseconds).
pub fn lease_object(scenario: &Scenario, name: &str, at: Millis, clock: Clock) -> Option<Value> {
    find(scenario, name)?;
    let renew = clock
        .time(last_tick(at, LEASE_RENEW))
        .replace('Z', ".000000Z");
    Some(
        Value::object()
            .with("kind", Value::str("Lease"))
            .with("apiVersion", Value::str("coordination.k8s.io/v1"))
            .with(
                "metadata",
                Value::object()
                    .with("name", Value::str(name))
                    .with("namespace", Value::str("kube-node-lease"))
                    .with("resourceVersion", Value::str("1000")),
            )
            .with(
                "spec",
                Value::object()
                    .with("holderIdentity", Value::str(name))
                    .with("leaseDurationSeconds", Value::Int(LEASE_SECONDS))
                    .with("renewTime", Value::str(renew)),
            ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_truncates_the_float_percentage() {
        // 29 / 100 * 100 is 28.999999999999996 in float64: kubectl prints 28.
        assert_eq!(percent(29, 100), 28);
        assert_eq!(percent(500, 16_000), 3);
        assert_eq!(percent(1, 0), i64::MIN);
    }

    #[test]
    fn a_quantity_value_rounds_up() {
        assert_eq!(value(1_000), 1);
        assert_eq!(value(1_001), 2);
        assert_eq!(value(0), 0);
    }

    #[test]
    fn ticks_are_the_last_multiple() {
        assert_eq!(last_tick(299_999, STATUS_REPORT), 0);
        assert_eq!(last_tick(300_000, STATUS_REPORT), 300_000);
        assert_eq!(last_tick(12_345, LEASE_RENEW), 10_000);
    }

    /// The labels `describe node` shows are the ones the scheduler matches
    /// a `nodeSelector` against: a pod selecting the kubelet's deprecated
    /// `beta.kubernetes.io/arch` is bound (the kubelet still sets it), and
    /// a pool cannot override a kubelet label.
    #[test]
    fn the_scheduler_matches_the_labels_describe_shows() {
        let text = "apiVersion: v1\nkind: Pod\nmetadata: { name: legacy }\nspec:\n  nodeSelector: { beta.kubernetes.io/arch: amd64, pool: a }\n  containers:\n    - name: app\n      image: nginx:1.27\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: labels }\nspec:\n  duration: 1m\n  cluster:\n    nodePools:\n      - name: a\n        cpu: \"4\"\n        memory: 16Gi\n        labels: { pool: a, kubernetes.io/os: windows }\n";
        let run = crate::sim::simulate(text, &crate::sim::Options::default());
        let pod = &run.pods[0];
        assert!(
            pod.node
                .as_ref()
                .is_some_and(|(node, bound)| node == "a-0" && *bound < 5_000),
            "{:?}",
            pod.node
        );
        let reading = crate::manifest::read::read(text);
        let pool = &reading.scenario.node_pools[0];
        let shown = labels(pool, "a-0");
        assert!(shown.contains(&("kubernetes.io/os".into(), "linux".into())));
        for (key, value) in &shown {
            assert_eq!(
                crate::sched::pool_label(pool, "a-0", key),
                Some(value.as_str()),
                "{key}"
            );
        }
    }
}
