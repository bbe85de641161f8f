//! `kubectl describe pod` at a time T, as kubectl v1.35 prints it
//! (`kubectl-output.md` §2-§3; `staging/src/k8s.io/kubectl/pkg/describe/
//! describe.go` `describePod`, read at v0.35.7).
//!
//! The text is built line by line with kubectl's format strings (`\t` marks
//! an alignment cell, each level indents by 2 spaces) and laid out by
//! [`tabwrite`], Go's `text/tabwriter` with kubectl's settings (minwidth 0,
//! padding 2, space padding). Promise: the same (run, pod, T) gives the same
//! bytes; nothing here reads a clock.
//!
//! What the simulator does not know is chosen, deterministically:
//! - t = 0 is 2026-01-01T00:00:00Z ([`super::events::EPOCH_UNIX_SECONDS`]),
//!   printed in kubectl's RFC 1123Z (`Thu, 01 Jan 2026 00:00:02 +0000`, a
//!   UTC machine); API times keep whole seconds, so they are truncated.
//! - the node's InternalIP (hostIP) is `172.18.<(n+2)/256>.<(n+2)%256>` for
//!   the cluster's n-th node (kind's addresses: 172.18.0.2 for the first);
//!   n is the third octet of the pod IP the simulator gave (`10.244.<n>.x`).
//! - `status.startTime` is the kubelet's first sync (`Timing::first_sync`);
//!   the pod IP and `PodReadyToStartContainers=True` appear with the
//!   sandbox, taken to be ready when the kubelet first tries to start a
//!   container (`PodRun::sandbox`, before any image pull).
//! - container IDs are `containerd://` + 64 hex digits hashed from the pod
//!   UID, the container name and the instance (restart) number; image IDs
//!   are `<repository>@sha256:` + 64 hex digits hashed from the image
//!   (Docker Hub names normalised to `docker.io/library/...` as containerd
//!   reports them); the service-account volume is `kube-api-access-` + 5
//!   characters hashed from the pod UID.
//! - quantities print as `Quantity.String()` would; the written suffix is
//!   not kept by the model, so the shortest canonical form is chosen (binary
//!   `Ki..Ei` for byte amounts on a tie): `8Gi`, `4G`, `500m`, `2`.
//! - admission adds what a default cluster adds: priority 0, service account
//!   `default`, the `kube-api-access-*` projected volume and its read-only
//!   mount in every container, the DefaultTolerationSeconds tolerations
//!   (not-ready/unreachable NoExecute for 300s). ExtendedResourceToleration
//!   is off by default (`scheduler-controllers.md` §4); where the Scenario
//!   turns it on (an inferred GKE cluster, `manifest/infer.rs`), the
//!   simulator's pod already carries the added `nvidia.com/gpu` toleration.
//! - not in the model, so not printed or printed as the API default:
//!   annotations (`<none>`),
//!   `readOnly`/`subPath` of mounts (`rw`), `tolerationSeconds` of written
//!   tolerations, `hostPort` (`0`) and protocol (`TCP`) of ports, `sizeLimit`
//!   of emptyDir (`<unset>`), env vars from `fieldRef`/`resourceFieldRef`
//!   (printed with an empty value), volumes other than emptyDir, Secret and
//!   ConfigMap (`<unknown>`), the StatefulSet `controller-revision-hash`
//!   label.
//!
//! `container.rs` writes one container's block, `ids.rs` makes up the
//! identifiers above, `writer.rs` holds kubectl's two writers (the
//! prefixWriter's indented lines and the tabwriter's aligned cells).

mod container;
mod ids;
mod writer;

pub use self::container::{describe_probe, quantity_string};
pub use self::ids::{api_access_volume, container_id, host_ip, image_id};
pub(crate) use self::ids::{fnv1a, hex64, splitmix64, uuid, uuid_of};
pub use self::writer::tabwrite;
pub(crate) use self::writer::Text;

use self::container::{container_block, template_container};
use super::events::{self, EventObject, EPOCH_UNIX_SECONDS};
use super::human_duration;
use crate::manifest::duration::Millis;
use crate::manifest::model::{PodSpec, Toleration};
use crate::sim::{ContainerRun, ContainerState, ContainerStatus, PodRun, Run};

/// The text of `kubectl describe pod <pod.name>` at `at`.
pub fn describe_pod(run: &Run, pod: &PodRun, at: Millis) -> String {
    let view = PodView::at(pod, at);
    let mut text = Text::default();
    header(&mut text, pod, &view);
    // `describePod`: `Init Containers:` only when the pod has any, the same
    // block per container (`describeContainers("Init Containers", …)`).
    let sections = [
        (
            "Init Containers:",
            &pod.spec.init_containers,
            &view.init_statuses,
            &pod.init_containers,
        ),
        (
            "Containers:",
            &pod.spec.containers,
            &view.statuses,
            &pod.containers,
        ),
    ];
    for (title, specs, statuses, runs) in sections {
        for (index, container) in specs.iter().enumerate() {
            if index == 0 {
                text.line(0, title);
            }
            let block = Block {
                statuses,
                runs,
                index,
            };
            container_block(&mut text, pod, &view, &block, container);
        }
    }
    if pod.spec.containers.is_empty() {
        text.line(0, "Containers: <none>");
    }
    text.line(0, "Conditions:");
    text.line(1, "Type\tStatus");
    for (condition, status) in conditions(&view) {
        text.line(1, &format!("{condition} \t{} ", title_bool(status)));
    }
    volumes(&mut text, pod);
    text.line(0, &format!("QoS Class:\t{}", qos_class(pod)));
    multiline(
        &mut text,
        "Node-Selectors",
        pod.spec
            .node_selector
            .iter()
            .map(|(key, value)| (key.clone(), format!("{key}={value}")))
            .collect(),
    );
    multiline(&mut text, "Tolerations", tolerations(&pod.spec.tolerations));
    let objects = events::aggregate(run, &format!("Pod/{}", pod.name), at);
    events_section(&mut text, &objects, at);
    tabwrite(&text.0, 2)
}

/// `DescribePodTemplate` (describe.go) of a template with `labels` and
/// `spec`: what a Deployment's `describe` prints under `Pod Template:`.
/// A template is not admitted: no ServiceAccount volume or mount, no
/// default tolerations; only what is written.
pub(crate) fn pod_template(text: &mut Text, labels: &[(String, String)], spec: &PodSpec) {
    text.line(0, "Pod Template:");
    let key_value = |entries: &[(String, String)]| {
        entries
            .iter()
            .map(|(key, value)| (key.clone(), format!("{key}={value}")))
            .collect::<Vec<_>>()
    };
    multiline(text, "  Labels", key_value(labels));
    for (title, containers) in [
        ("Init Containers", &spec.init_containers),
        ("Containers", &spec.containers),
    ] {
        if containers.is_empty() {
            if title == "Containers" {
                text.line(0, "  Containers: <none>");
            }
            continue;
        }
        text.line(0, &format!("  {title}:"));
        for container in containers {
            template_container(text, container);
        }
    }
    if spec.volumes.is_empty() {
        text.line(0, "  Volumes:\t<none>");
    } else {
        text.line(0, "  Volumes:");
        volume_lines(text, &spec.volumes, " ");
    }
    multiline(text, "  Node-Selectors", key_value(&spec.node_selector));
    let tolerations = spec
        .tolerations
        .iter()
        .map(|t| {
            (
                t.key.clone(),
                toleration_text(&t.key, &t.operator, &t.value, &t.effect, None),
            )
        })
        .collect();
    multiline(text, "  Tolerations", tolerations);
}

/// What the API reports about a pod at T.
struct PodView {
    at: Millis,
    /// The node, once bound.
    node: Option<String>,
    /// The kubelet has reported a status (its first sync is done).
    synced: bool,
    /// The sandbox exists: pod IP set, PodReadyToStartContainers True.
    sandbox: bool,
    statuses: Vec<ContainerStatus>,
    /// `status.initContainerStatuses`.
    init_statuses: Vec<ContainerStatus>,
    /// The `Initialized` condition.
    initialized: bool,
    phase: &'static str,
}

/// Where one container's block reads its status and its instances.
struct Block<'a> {
    statuses: &'a [ContainerStatus],
    runs: &'a [ContainerRun],
    index: usize,
}

impl PodView {
    fn at(pod: &PodRun, at: Millis) -> PodView {
        let node = pod
            .node
            .as_ref()
            .filter(|(_, bound)| *bound <= at)
            .map(|(node, _)| node.clone());
        let synced = node.is_some() && at >= start_time(pod);
        let sandbox = has_ip(pod, at);
        PodView {
            at,
            synced,
            sandbox,
            statuses: if synced {
                pod.statuses_at(at)
            } else {
                Vec::new()
            },
            init_statuses: if synced {
                pod.init_statuses_at(at)
            } else {
                Vec::new()
            },
            initialized: crate::sim::init::initialized_at(pod, at),
            phase: pod.phase_at(at),
            node,
        }
    }
}

/// Since when the API shows the pod's IP (`status.podIP`): the kubelet's
/// first sync after binding, once the sandbox is up.
pub fn pod_ip_since(pod: &PodRun) -> Option<Millis> {
    let (_, bound) = pod.node.as_ref()?;
    Some((*bound).max(start_time(pod)).max(pod.sandbox?))
}

fn has_ip(pod: &PodRun, at: Millis) -> bool {
    pod_ip_since(pod).is_some_and(|since| since <= at)
}

/// `status.podIP` at `at`, `None` before the sandbox (the IP `describe pod`
/// prints, and the address of the pod's EndpointSlice endpoint).
pub fn pod_ip_at(pod: &PodRun, at: Millis) -> Option<&str> {
    has_ip(pod, at).then_some(pod.ip.as_str())
}

/// The pod's `Ready` condition at `at`, as its Conditions show it.
pub fn pod_ready_at(pod: &PodRun, at: Millis) -> bool {
    ready_condition(&PodView::at(pod, at))
}

/// `translateTimestampSince`: `duration.HumanDuration(time.Since(t))`,
/// which truncates to whole seconds and prints `<invalid>` below -1 s and
/// `0s` from there to 0.
fn since(timestamp: Millis, at: Millis) -> String {
    if at >= timestamp {
        human_duration(at - timestamp)
    } else if (timestamp - at) / 1000 >= 2 {
        "<invalid>".to_owned()
    } else {
        "0s".to_owned()
    }
}

/// `status.startTime`: set by the kubelet's first sync of the pod, after
/// the binding (`PodRun::synced_at`).
fn start_time(pod: &PodRun) -> Millis {
    pod.synced_at().unwrap_or(pod.created)
}

fn header(text: &mut Text, pod: &PodRun, view: &PodView) {
    text.line(0, &format!("Name:\t{}", pod.name));
    text.line(0, "Namespace:\tdefault");
    text.line(0, "Priority:\t0");
    text.line(0, "Service Account:\tdefault");
    match &view.node {
        None => text.line(0, "Node:\t<none>"),
        Some(node) => {
            let host_ip = if view.synced {
                host_ip(pod)
            } else {
                String::new()
            };
            text.line(0, &format!("Node:\t{node}/{host_ip}"));
        }
    }
    if view.synced {
        text.line(0, &format!("Start Time:\t{}", rfc1123z(start_time(pod))));
    }
    multiline(text, "Labels", labels(pod, view.at));
    // `printAnnotationsMultiline`, as for a Service.
    crate::explain::service::annotations(text, &pod.annotations_at(view.at));
    // §2.2 (7): a pod being deleted (not Succeeded/Failed) shows
    // `Terminating (lasts <age of deletionTimestamp>)` and its grace period.
    // The API server sets deletionTimestamp to the delete + the grace
    // period, so it lies in the future while the pod stops: `<invalid>`.
    let grace = pod.grace_seconds().max(0);
    match pod.deleting.filter(|deleting| *deleting <= view.at) {
        Some(deleting) if !matches!(view.phase, "Succeeded" | "Failed") => {
            // A metav1.Time: whole seconds on the wire.
            let timestamp = events::to_wire_seconds(
                deleting.saturating_add(grace.unsigned_abs().saturating_mul(1000)),
            );
            text.line(
                0,
                &format!("Status:\tTerminating (lasts {})", since(timestamp, view.at)),
            );
            text.line(0, &format!("Termination Grace Period:\t{grace}s"));
        }
        _ => text.line(0, &format!("Status:\t{}", view.phase)),
    }
    let ip = if view.sandbox { pod.ip.as_str() } else { "" };
    text.line(0, &format!("IP:\t{ip}"));
    if ip.is_empty() {
        text.line(0, "IPs:\t<none>");
    } else {
        text.line(0, "IPs:");
        text.line(1, &format!("IP:\t{ip}"));
    }
    if let Some(controller) = controlled_by(pod).filter(|_| pod.owned_at(view.at)) {
        text.line(0, &format!("Controlled By:\t{controller}"));
    }
}

/// The pod's labels at `at`, with what the controllers add (what a
/// Service's selector is matched against) and the `label` actions
/// (`PodRun::labels_at`).
pub fn pod_labels(pod: &PodRun, at: Millis) -> Vec<(String, String)> {
    pod.labels_at(at)
}

/// The pod's labels as `key=value`.
fn labels(pod: &PodRun, at: Millis) -> Vec<(String, String)> {
    pod_labels(pod, at)
        .into_iter()
        .map(|(key, value)| {
            let line = format!("{key}={value}");
            (key, line)
        })
        .collect()
}

/// `Kind/Name` of the controller ownerReference: a Deployment's pods
/// belong to its ReplicaSet `<name>-<pod-template-hash>`.
fn controlled_by(pod: &PodRun) -> Option<String> {
    let (kind, name) = pod.owner.split_once('/')?;
    match (kind, &pod.template_hash) {
        ("Pod", _) => None,
        ("Deployment", Some(hash)) => Some(format!("ReplicaSet/{name}-{hash}")),
        ("Deployment", None) => Some(format!("ReplicaSet/{name}")),
        _ => Some(pod.owner.clone()),
    }
}

/// `printLabelsMultilineWithIndent` and friends: `Title:\t<first>`, then one
/// `\t<next>` line per entry, sorted by key; `<none>` when empty.
pub(crate) fn multiline(text: &mut Text, title: &str, mut entries: Vec<(String, String)>) {
    // sort.Slice/sort.Strings on at most a dozen entries: insertion sort,
    // stable, as `sort_by` is.
    crate::sort::sort_by(&mut entries, |a, b| a.0.cmp(&b.0));
    if entries.is_empty() {
        text.line(0, &format!("{title}:\t<none>"));
        return;
    }
    for (index, (_, line)) in entries.iter().enumerate() {
        if index == 0 {
            text.line(0, &format!("{title}:\t{line}"));
        } else {
            text.line(0, &format!("\t{line}"));
        }
    }
}

/// Written tolerations plus those of the DefaultTolerationSeconds admission
/// plugin, each as kubectl prints it.
fn tolerations(written: &[Toleration]) -> Vec<(String, String)> {
    let mut lines: Vec<(String, String)> = written
        .iter()
        .map(|t| {
            (
                t.key.clone(),
                toleration_text(&t.key, &t.operator, &t.value, &t.effect, None),
            )
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
            lines.push((
                key.to_string(),
                toleration_text(key, "Exists", "", "NoExecute", Some(300)),
            ));
        }
    }
    lines
}

/// `printTolerationsMultilineWithIndent` for one toleration.
pub fn toleration_text(
    key: &str,
    operator: &str,
    value: &str,
    effect: &str,
    seconds: Option<i64>,
) -> String {
    let mut out = key.to_string();
    if !value.is_empty() {
        out.push_str(&format!("={value}"));
    }
    if !effect.is_empty() {
        out.push_str(&format!(":{effect}"));
    }
    if operator == "Exists" && value.is_empty() {
        if !key.is_empty() || !effect.is_empty() {
            out.push_str(" op=Exists");
        } else {
            out.push_str("op=Exists");
        }
    }
    if let Some(seconds) = seconds {
        out.push_str(&format!(" for {seconds}s"));
    }
    out
}

/// Conditions in the order the kubelet writes them (`kubelet.md` §8).
fn conditions(view: &PodView) -> Vec<(&'static str, bool)> {
    if view.node.is_none() {
        return vec![("PodScheduled", false)];
    }
    if !view.synced {
        return vec![("PodScheduled", true)];
    }
    let ready = ready_condition(view);
    // A terminal pod's sandbox is torn down.
    let terminal = matches!(view.phase, "Succeeded" | "Failed");
    vec![
        ("PodReadyToStartContainers", view.sandbox && !terminal),
        ("Initialized", view.initialized),
        ("Ready", ready),
        ("ContainersReady", ready),
        ("PodScheduled", true),
    ]
}

/// `Ready` (and `ContainersReady`): every container Ready and running.
fn ready_condition(view: &PodView) -> bool {
    view.synced
        && !view.statuses.is_empty()
        && view
            .statuses
            .iter()
            .all(|s| s.ready && matches!(s.state, ContainerState::Running { .. }))
}

fn volumes(text: &mut Text, pod: &PodRun) {
    text.line(0, "Volumes:");
    volume_lines(text, &pod.spec.volumes, "");
    text.line(1, &format!("{}:", api_access_volume(pod)));
    text.line(
        2,
        "Type:\tProjected (a volume that contains injected data from multiple sources)",
    );
    text.line(2, "TokenExpirationSeconds:\t3607");
    text.line(2, "ConfigMapName:\tkube-root-ca.crt");
    text.line(2, "Optional:\tfalse");
    text.line(2, "DownwardAPI:\ttrue");
}

/// `describeVolumes`' block of each written volume, its name after
/// `indent` (one space in a pod template).
fn volume_lines(text: &mut Text, volumes: &[crate::manifest::model::Volume], indent: &str) {
    for volume in volumes {
        text.line(1, &format!("{indent}{}:", volume.name));
        if let Some(medium) = &volume.empty_dir_medium {
            text.line(
                2,
                "Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)",
            );
            text.line(2, &format!("Medium:\t{medium}"));
            // `SizeLimit: %v` of the *resource.Quantity (its canonical form).
            let limit = volume
                .empty_dir_size_limit
                .map_or("<unset>".to_string(), |bytes| {
                    quantity_string(
                        "memory",
                        crate::manifest::quantity::Quantity {
                            milli: bytes.saturating_mul(1000),
                        },
                    )
                });
            text.line(2, &format!("SizeLimit:\t{limit}"));
        } else if let Some(secret) = &volume.secret_name {
            text.line(2, "Type:\tSecret (a volume populated by a Secret)");
            text.line(2, &format!("SecretName:\t{secret}"));
            text.line(2, &format!("Optional:\t{}", volume.optional));
        } else if let Some(config_map) = &volume.config_map_name {
            text.line(2, "Type:\tConfigMap (a volume populated by a ConfigMap)");
            text.line(2, &format!("Name:\t{config_map}"));
            text.line(2, &format!("Optional:\t{}", volume.optional));
        } else {
            text.line(1, "<unknown>");
        }
    }
}

/// `GetPodQOS` (`scheduler-controllers.md` §10): cpu and memory only; a
/// limit without a request counts as the request.
fn qos_class(pod: &PodRun) -> &'static str {
    let containers = pod
        .spec
        .containers
        .iter()
        .chain(pod.spec.init_containers.iter());
    let mut any = false;
    let mut guaranteed = true;
    for container in containers {
        for resource in ["cpu", "memory"] {
            let limit = container
                .resources
                .limit(resource)
                .and_then(|amount| amount.quantity)
                .filter(|q| q.milli != 0);
            let request = container
                .resources
                .effective_request(resource)
                .filter(|q| q.milli != 0);
            any |= limit.is_some() || request.is_some();
            match (limit, request) {
                (Some(limit), Some(request)) if limit == request => {}
                _ => guaranteed = false,
            }
        }
    }
    if !any {
        "BestEffort"
    } else if guaranteed {
        "Guaranteed"
    } else {
        "Burstable"
    }
}

/// `DescribeEvents`: `<none>`, or the table sorted by lastTimestamp (zero
/// for the scheduler's events.k8s.io objects, so they come first; ties keep
/// the API's order by name, as Go's sort does for up to 12 rows).
pub(crate) fn events_section(text: &mut Text, objects: &[EventObject], at: Millis) {
    if objects.is_empty() {
        text.line(0, "Events:\t<none>");
        return;
    }
    let mut rows: Vec<&EventObject> = objects.iter().collect();
    crate::sort::sort_by_key(&mut rows, |event| last_timestamp_seconds(event));
    text.line(0, "Events:");
    text.line(1, "Type\tReason\tAge\tFrom\tMessage");
    text.line(1, "----\t------\t----\t----\t-------");
    for event in rows {
        let message = event.message.trim();
        let message = match &event.field_path {
            Some(path) if !path.is_empty() => format!("{path}: {message}"),
            _ => message.to_string(),
        };
        text.line(
            1,
            &format!(
                "{}\t{}\t{}\t{}\t{message}",
                event.type_name(),
                event.reason,
                age_column(event, at),
                event.source
            ),
        );
    }
}

/// The deprecated `lastTimestamp` in whole seconds; `None` (zero time)
/// for events.k8s.io objects.
fn last_timestamp_seconds(event: &EventObject) -> Option<Millis> {
    (!event.uses_event_time()).then_some(event.last / 1000)
}

/// The Age column (`kubectl-output.md` §3.2): `<since last> (x<count> over
/// <since first>)`, or `<since first>` for a single occurrence. core/v1
/// timestamps keep whole seconds; eventTime and series keep microseconds.
pub fn age_column(event: &EventObject, at: Millis) -> String {
    let wire = |t: Millis| {
        if event.uses_event_time() {
            t
        } else {
            events::to_wire_seconds(t)
        }
    };
    let since = |t: Millis| human_duration(at.saturating_sub(wire(t)));
    let first = since(event.first);
    if event.count > 1 {
        format!("{} (x{} over {first})", since(event.last), event.count)
    } else {
        first
    }
}

fn title_bool(value: bool) -> &'static str {
    if value {
        "True"
    } else {
        "False"
    }
}

/// Go's `time.RFC1123Z` of simulated time (UTC, whole seconds).
pub fn rfc1123z(at: Millis) -> String {
    const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let seconds = EPOCH_UNIX_SECONDS + at / 1000;
    let days = seconds / 86_400;
    let of_day = seconds % 86_400;
    let (year, month, day) = civil_from_days(days);
    format!(
        "{}, {day:02} {} {year} {:02}:{:02}:{:02} +0000",
        DAYS[(days % 7) as usize],
        MONTHS[(month - 1) as usize],
        of_day / 3600,
        of_day / 60 % 60,
        of_day % 60
    )
}

/// (year, month 1-12, day 1-31) of a day count since 1970-01-01, by the
/// proleptic Gregorian calendar (era arithmetic: 400-year cycles of 146097
/// days starting on March 1st).
pub(crate) fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let day_of_era = z % 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153; // March = 0
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(first: Millis, last: Millis, count: u32, source: &'static str) -> EventObject {
        EventObject {
            name: String::new(),
            reason: "Pulled",
            message: String::new(),
            warning: false,
            source,
            field_path: None,
            first,
            last,
            count,
            object: "Pod/p".into(),
        }
    }

    /// kubectl-output.md §8.2: now = T + 720.6 s.
    #[test]
    fn age_column_matches_the_worked_example() {
        let now = 720_600;
        for (first, last, count, source, expected) in [
            // Pulled/Created: T+1 … T+570, ×7.
            (1_000, 570_000, 7, "kubelet", "2m30s (x7 over 11m)"),
            // Started (spam-filtered): last written T+236, ×6.
            (1_000, 236_000, 6, "kubelet", "8m4s (x6 over 11m)"),
            // Unhealthy: T+11 … T+266, ×18.
            (11_000, 266_000, 18, "kubelet", "7m34s (x18 over 11m)"),
            // BackOff: T+155 … T+620, ×23: 100.6 s is still `100s`.
            (155_000, 620_000, 23, "kubelet", "100s (x23 over 9m25s)"),
            // Scheduled: eventTime T+0.02, no series.
            (20, 20, 1, "default-scheduler", "12m"),
        ] {
            assert_eq!(
                age_column(&event(first, last, count, source), now),
                expected
            );
        }
    }

    /// §8.3: FailedScheduling at T+0, and a series T+300 … T+600, now T+720.
    #[test]
    fn age_column_of_a_scheduler_series() {
        assert_eq!(
            age_column(&event(0, 0, 1, "default-scheduler"), 720_000),
            "12m"
        );
        assert_eq!(
            age_column(&event(300_000, 600_000, 2, "default-scheduler"), 720_000),
            "2m (x2 over 7m)"
        );
    }

    /// lastTimestamp keeps whole seconds: an occurrence at 241.5 s seen at
    /// 720 s is 479 s old, not 478.5.
    #[test]
    fn core_timestamps_are_truncated_to_seconds() {
        assert_eq!(
            age_column(&event(241_500, 622_500, 10, "kubelet"), 720_000),
            "98s (x10 over 7m59s)"
        );
    }

    #[test]
    fn rfc1123z_of_the_epoch_and_later_days() {
        assert_eq!(rfc1123z(0), "Thu, 01 Jan 2026 00:00:00 +0000");
        assert_eq!(rfc1123z(2_999), "Thu, 01 Jan 2026 00:00:02 +0000");
        assert_eq!(rfc1123z(561_500), "Thu, 01 Jan 2026 00:09:21 +0000");
        assert_eq!(
            rfc1123z((31 + 28) * 86_400_000 + 3_723_000),
            "Sun, 01 Mar 2026 01:02:03 +0000"
        );
        assert_eq!(
            rfc1123z(365 * 86_400_000),
            "Fri, 01 Jan 2027 00:00:00 +0000"
        );
    }

    #[test]
    fn tolerations_print_as_kubectl_does() {
        assert_eq!(
            toleration_text(
                "node.kubernetes.io/not-ready",
                "Exists",
                "",
                "NoExecute",
                Some(300)
            ),
            "node.kubernetes.io/not-ready:NoExecute op=Exists for 300s"
        );
        assert_eq!(
            toleration_text("nvidia.com/gpu", "Equal", "present", "NoSchedule", None),
            "nvidia.com/gpu=present:NoSchedule"
        );
        assert_eq!(toleration_text("", "Exists", "", "", None), "op=Exists");
    }
}
