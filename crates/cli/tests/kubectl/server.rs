//! A fake Kubernetes API server on 127.0.0.1 for a real kubectl: std only,
//! one thread per connection, one request per connection (`Connection:
//! close`), GET only. It answers discovery (`/version`, `/api`, `/api/v1`,
//! `/apis`, `/apis/discovery.k8s.io/v1`), one Pod or Service by name, the
//! core/v1 Event list of the namespace filtered by kubectl's
//! `fieldSelector`, and the EndpointSlice list (filtered by a
//! `labelSelector` of `key=value` terms, or as the server-printed Table when
//! kubectl asks for one), apps/v1 lists also by `fieldSelector=metadata.name=`,
//! a watch as an empty stream, and logs every request target so a test can say
//! what kubectl asked for. Everything else is a 404 `Status`.
//!
//! The acting commands change what it holds (`mutate`), as an API server
//! would once the change is done: a pod's DELETE and its eviction POST
//! (`pods/eviction`, policy/v1) remove the pod at once (kubectl then sees
//! it gone and stops waiting), a node's PATCH sets `spec.unschedulable`;
//! a pod's, node's or Deployment's PATCH of `metadata` (`kubectl label`,
//! `annotate`) is merged, its keys checked as the API server checks them.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

use podlab_core::kubectl::selector::{self, Selector};
use serde_json::{json, Value};

/// What the server holds: v1 Pod, Event and Service objects and
/// discovery.k8s.io/v1 EndpointSlices of `default`, and the Table it prints
/// for `kubectl get endpointslices` (`services::table`).
#[derive(Clone, Debug, Default)]
pub struct Objects {
    pub pods: Vec<Value>,
    pub events: Vec<Value>,
    pub services: Vec<Value>,
    pub endpoint_slices: Vec<Value>,
    pub endpoint_slice_table: Option<Value>,
    /// autoscaling/v2 HorizontalPodAutoscalers and the Table printed for
    /// `kubectl get hpa` (`autoscalers::table`).
    pub autoscalers: Vec<Value>,
    pub autoscaler_table: Option<Value>,
    /// apps/v1 Deployments and ReplicaSets (the latter listed by a
    /// `labelSelector`), and the Tables printed for `kubectl get deploy`
    /// and `get rs` (`deployments::deployment_table`, `replica_set_table`).
    pub deployments: Vec<Value>,
    pub deployment_table: Option<Value>,
    pub replica_sets: Vec<Value>,
    pub replica_set_table: Option<Value>,
    /// batch/v1 Jobs and CronJobs, and the Tables printed for `kubectl get
    /// jobs` and `get cronjobs` (`jobs::job_table`, `cron_job_table`).
    pub jobs: Vec<Value>,
    pub job_table: Option<Value>,
    pub cron_jobs: Vec<Value>,
    pub cron_job_table: Option<Value>,
    /// The Tables printed for `kubectl get pods` and `get events`
    /// (`tables::pod_table`, `event_table`: rows carry their objects, so a
    /// name or a field selector picks rows), and v1 Node objects.
    pub pod_table: Option<Value>,
    pub event_table: Option<Value>,
    pub nodes: Vec<Value>,
    /// coordination.k8s.io/v1 Leases in `kube-node-lease`, one per node
    /// (`describe node` reads its node's).
    pub leases: Vec<Value>,
    /// The Table printed for `kubectl get nodes` (`tables::node_table`).
    pub node_table: Option<Value>,
    /// The Table printed for `kubectl get services` (`tables::service_table`).
    pub service_table: Option<Value>,
    /// v1 ConfigMaps and Secrets, and the Tables printed for `kubectl get
    /// configmaps` and `get secrets` (`tables::config_map_table`,
    /// `secret_table`).
    pub config_maps: Vec<Value>,
    pub config_map_table: Option<Value>,
    pub secrets: Vec<Value>,
    pub secret_table: Option<Value>,
    /// The watch events a pods watch streams (`kubectl get pods -w`), each
    /// `{"type", "object"}` with a Table of one row; `None`: an empty
    /// stream, as for every other watch.
    pub pod_watch: Option<Vec<Value>>,
    /// apps/v1 DaemonSets, by name (kubectl drain reads a DaemonSet pod's
    /// owner before it ignores the pod), and StatefulSets; the Tables
    /// printed for `kubectl get daemonsets` and `get statefulsets`
    /// (`tables::daemon_set_table`, `stateful_set_table`).
    pub daemon_sets: Vec<Value>,
    pub daemon_set_table: Option<Value>,
    pub stateful_sets: Vec<Value>,
    pub stateful_set_table: Option<Value>,
}

pub struct ApiServer {
    pub port: u16,
    requests: Arc<Mutex<Vec<String>>>,
}

impl ApiServer {
    /// Serves `objects` on a free port for the rest of the test process.
    pub fn start(objects: Objects) -> ApiServer {
        let listener = TcpListener::bind(("127.0.0.1", 0))
            .unwrap_or_else(|error| panic!("cannot listen on 127.0.0.1: {error}"));
        let port = listener
            .local_addr()
            .expect("invariant: a bound listener has an address")
            .port();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&requests);
        let objects = Arc::new(Mutex::new(objects));
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let objects = Arc::clone(&objects);
                let log = Arc::clone(&log);
                std::thread::spawn(move || {
                    let _ = handle(stream, &objects, &log);
                });
            }
        });
        ApiServer { port, requests }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Every request so far as `METHOD target`, in arrival order.
    pub fn requests(&self) -> Vec<String> {
        self.requests
            .lock()
            .map(|log| log.clone())
            .unwrap_or_default()
    }
}

fn handle(
    stream: TcpStream,
    objects: &Mutex<Objects>,
    log: &Mutex<Vec<String>>,
) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    // Of the headers, `Accept` says whether kubectl wants a server-printed
    // Table, `Content-Length` how long the body of a change is.
    let mut table = false;
    let mut length = 0usize;
    let mut content_type = String::new();
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header == "\r\n" || header == "\n" {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            if name.eq_ignore_ascii_case("accept") && value.contains("as=Table") {
                table = true;
            }
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().unwrap_or(0);
            }
            if name.eq_ignore_ascii_case("content-type") {
                content_type = value.trim().to_string();
            }
        }
    }
    let mut body = vec![0u8; length];
    std::io::Read::read_exact(&mut reader, &mut body)?;
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let mut parts = request_line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
    if let Ok(mut log) = log.lock() {
        log.push(format!("{method} {target}"));
    }
    let mut held = objects
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let objects = &mut *held;
    let path = target.split('?').next().unwrap_or("");
    let (status, body) = if method == "GET" && target.contains("watch=true") {
        match &objects.pod_watch {
            // `kubectl get pods -w`: the events one after another, then the
            // stream ends (kubectl ignores how its watch ended and exits 0).
            Some(events) if path.ends_with("/pods") => {
                let stream: Vec<String> = events.iter().map(Value::to_string).collect();
                (200, Value::String(stream.join("\n")))
            }
            // A watch (`kubectl rollout status`'s informer after its list):
            // an empty stream that ends at once. `--watch=false` decides on
            // the listed object; client-go may log that the watch was short
            // (a stream held open instead keeps kubectl from exiting until
            // it ends), which the comparison leaves out.
            _ => (200, Value::Null),
        }
    } else if method == "GET" {
        route(target, objects, table)
    } else {
        mutate(method, path, &body, &content_type, objects)
    };
    drop(held);
    let body = match body {
        Value::Null => String::new(),
        // A watch stream, already its own text.
        Value::String(stream) => stream,
        body => body.to_string(),
    };
    let reason = match status {
        200 => "OK",
        201 => "Created",
        400 => "Bad Request",
        404 => "Not Found",
        422 => "Unprocessable Entity",
        _ => "Method Not Allowed",
    };
    let mut stream = stream;
    write!(
        stream,
        "HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    stream.flush()
}

/// A change kubectl asks for: a pod's DELETE or eviction POST (the pod is
/// gone at once), a node's PATCH (`spec.unschedulable` of kubectl cordon's
/// strategic merge patch). Answers as the API server does: the deleted
/// pod, a `Success` Status for an eviction (201), the patched node; a 404
/// `Status` for an object that does not exist.
fn mutate(
    method: &str,
    path: &str,
    body: &Value,
    content_type: &str,
    objects: &mut Objects,
) -> (u16, Value) {
    const PODS: &str = "/api/v1/namespaces/default/pods/";
    let take_pod = |objects: &mut Objects, name: &str| {
        let index = objects
            .pods
            .iter()
            .position(|pod| pod["metadata"]["name"] == name)?;
        if let Some(rows) = objects
            .pod_table
            .as_mut()
            .and_then(|table| table["rows"].as_array_mut())
        {
            rows.retain(|row| row["object"]["metadata"]["name"] != name);
        }
        Some(objects.pods.remove(index))
    };
    // Another namespace holds no pods.
    if let Some(rest) = path.strip_prefix("/api/v1/namespaces/") {
        if let Some((namespace, name)) = rest.split_once("/pods/") {
            if namespace != "default" {
                let name = name.trim_end_matches("/eviction");
                return (404, not_found(&format!("pods \"{name}\" not found")));
            }
        }
    }
    match (method, path.strip_prefix(PODS)) {
        // `kubectl label|annotate pod`: a JSON merge patch of `metadata`.
        ("PATCH", Some(name)) => {
            let Some(pod) = objects
                .pods
                .iter_mut()
                .find(|pod| pod["metadata"]["name"] == name)
            else {
                return (404, not_found(&format!("pods \"{name}\" not found")));
            };
            if let Some(refused) = invalid_metadata("Pod", "", name, body) {
                return (422, refused);
            }
            merge(
                pod,
                body,
                content_type != "application/merge-patch+json",
                "",
            );
            (200, pod.clone())
        }
        ("DELETE", Some(name)) => match take_pod(objects, name) {
            Some(pod) => (200, pod),
            None => (404, not_found(&format!("pods \"{name}\" not found"))),
        },
        ("POST", Some(rest)) if rest.ends_with("/eviction") => {
            let name = rest.trim_end_matches("/eviction");
            match take_pod(objects, name) {
                Some(_) => (
                    201,
                    json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success", "code": 201}),
                ),
                None => (404, not_found(&format!("pods \"{name}\" not found"))),
            }
        }
        // `kubectl scale`: a merge patch of the scale subresource's
        // `spec.replicas`, answered with the autoscaling/v1 Scale.
        ("PATCH" | "PUT", _)
            if path.starts_with("/apis/apps/v1/namespaces/default/")
                && path.ends_with("/scale") =>
        {
            let rest = path
                .trim_start_matches("/apis/apps/v1/namespaces/default/")
                .trim_end_matches("/scale");
            let Some((resource, name)) = rest.split_once('/') else {
                return (404, not_found(&format!("{path} is not served")));
            };
            let items = match resource {
                "deployments" => &mut objects.deployments,
                "replicasets" => &mut objects.replica_sets,
                _ => return (404, not_found(&format!("{path} is not served"))),
            };
            let Some(object) = items
                .iter_mut()
                .find(|item| item["metadata"]["name"] == name)
            else {
                return (
                    404,
                    not_found(&format!("{resource}.apps \"{name}\" not found")),
                );
            };
            let current = object["status"]["replicas"].clone();
            if let Some(replicas) = body["spec"]["replicas"].as_i64() {
                object["spec"]["replicas"] = json!(replicas);
            }
            (
                200,
                json!({
                    "kind": "Scale",
                    "apiVersion": "autoscaling/v1",
                    "metadata": { "name": name, "namespace": "default" },
                    "spec": { "replicas": object["spec"]["replicas"] },
                    "status": { "replicas": current },
                }),
            )
        }
        // `kubectl rollout restart`, `set resources`, `set image`, `patch`:
        // a strategic (or JSON merge) patch; `rollout undo`: a JSON patch
        // (RFC 6902) replacing the template and the annotations. Answered
        // with the patched Deployment.
        ("PATCH", _) if path.starts_with("/apis/apps/v1/namespaces/default/deployments/") => {
            let name = path.trim_start_matches("/apis/apps/v1/namespaces/default/deployments/");
            let Some(object) = objects
                .deployments
                .iter_mut()
                .find(|item| item["metadata"]["name"] == name)
            else {
                return (
                    404,
                    not_found(&format!("deployments.apps \"{name}\" not found")),
                );
            };
            if let Some(refused) = invalid_metadata("Deployment", "apps", name, body) {
                return (422, refused);
            }
            match content_type {
                "application/json-patch+json" => json_patch(object, body),
                "application/merge-patch+json" => merge(object, body, false, ""),
                _ => merge(object, body, true, ""),
            }
            (200, object.clone())
        }
        ("PATCH", _) if path.starts_with("/api/v1/nodes/") => {
            let name = path.trim_start_matches("/api/v1/nodes/");
            let Some(node) = objects
                .nodes
                .iter_mut()
                .find(|node| node["metadata"]["name"] == name)
            else {
                return (404, not_found(&format!("nodes \"{name}\" not found")));
            };
            // `kubectl label|annotate node`: a JSON merge patch of `metadata`.
            if let Some(refused) = invalid_metadata("Node", "", name, body) {
                return (422, refused);
            }
            if let (Some(metadata), Some(_)) = (node.get_mut("metadata"), body.get("metadata")) {
                merge(metadata, &body["metadata"], false, "");
            }
            match body["spec"]["unschedulable"].as_bool() {
                // `omitempty`: false is not written.
                Some(true) => node["spec"]["unschedulable"] = json!(true),
                Some(false) => {
                    if let Some(spec) = node["spec"].as_object_mut() {
                        spec.remove("unschedulable");
                    }
                }
                None => {}
            }
            (200, node.clone())
        }
        _ => (405, not_found(&format!("{method} {path} is not served"))),
    }
}

fn route(target: &str, objects: &Objects, table: bool) -> (u16, Value) {
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    // `kubectl get KIND NAME`: the Table's row of that object, or NotFound.
    if let Some(answer) = table.then(|| named_row(path, objects)).flatten() {
        return answer;
    }
    // A list in another namespace: empty (podlab's objects all live in
    // `default`; a named object there is NotFound, `absent`).
    if let Some((namespace, collection)) = path
        .split_once("/namespaces/")
        .and_then(|(_, rest)| rest.split_once('/'))
    {
        if namespace != "default" && !collection.contains('/') {
            return (200, empty("List", "v1", table));
        }
    }
    // Every namespace exists (kubectl asks for it after a NotFound in it,
    // cli-runtime `Info.Get`, to say when the namespace is what is missing).
    if let Some(namespace) = path
        .strip_prefix("/api/v1/namespaces/")
        .filter(|rest| !rest.is_empty() && !rest.contains('/'))
    {
        return (
            200,
            json!({"kind": "Namespace", "apiVersion": "v1", "metadata": {"name": namespace}, "status": {"phase": "Active"}}),
        );
    }
    match path {
        "/version" => (200, version()),
        "/api" => (
            200,
            json!({
                "kind": "APIVersions",
                "versions": ["v1"],
                "serverAddressByClientCIDRs": [
                    { "clientCIDR": "0.0.0.0/0", "serverAddress": "127.0.0.1:6443" }
                ]
            }),
        ),
        "/apis" => (200, api_groups()),
        "/api/v1" => (200, core_v1_resources()),
        "/apis/discovery.k8s.io/v1" => (200, discovery_v1_resources()),
        "/apis/autoscaling/v2" => (200, autoscaling_v2_resources()),
        "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers" => {
            match (&objects.autoscaler_table, table) {
                (Some(printed), true) => (200, printed.clone()),
                _ => (
                    200,
                    json!({
                        "kind": "HorizontalPodAutoscalerList",
                        "apiVersion": "autoscaling/v2",
                        "metadata": { "resourceVersion": "1000" },
                        "items": objects.autoscalers,
                    }),
                ),
            }
        }
        "/apis/apps/v1" => (200, apps_v1_resources()),
        "/apis/apps/v1/namespaces/default/deployments" => {
            match (&objects.deployment_table, table) {
                (Some(printed), true) => (200, printed.clone()),
                _ => (200, list("DeploymentList", &objects.deployments, query)),
            }
        }
        "/apis/apps/v1/namespaces/default/replicasets" => {
            match (&objects.replica_set_table, table) {
                (Some(printed), true) => (200, printed.clone()),
                _ => (200, list("ReplicaSetList", &objects.replica_sets, query)),
            }
        }
        "/apis/batch/v1" => (200, batch_v1_resources()),
        "/apis/batch/v1/namespaces/default/jobs" => match (&objects.job_table, table) {
            (Some(printed), true) => (200, printed.clone()),
            _ => (200, list_of("JobList", "batch/v1", &objects.jobs, query)),
        },
        "/apis/batch/v1/namespaces/default/cronjobs" => match (&objects.cron_job_table, table) {
            (Some(printed), true) => (200, printed.clone()),
            _ => (
                200,
                list_of("CronJobList", "batch/v1", &objects.cron_jobs, query),
            ),
        },
        "/api/v1/namespaces/default/events" | "/api/v1/events" => match &objects.event_table {
            Some(printed) if table => (200, rows_where(printed, query, |_| true)),
            _ => (200, event_list(objects, query)),
        },
        "/api/v1/nodes" if table && objects.node_table.is_some() => (
            200,
            rows_where(objects.node_table.as_ref().expect("checked"), query, |_| {
                true
            }),
        ),
        "/api/v1/nodes" => (
            200,
            json!({ "kind": "NodeList", "apiVersion": "v1", "metadata": { "resourceVersion": "1000" }, "items": objects.nodes }),
        ),
        // A pods list with a `labelSelector` the API server cannot parse:
        // 400 with `labels.Parse`'s message.
        "/api/v1/namespaces/default/pods" | "/api/v1/pods" if label_selector(query).is_err() => {
            let message = label_selector(query).err().unwrap_or_default();
            (400, bad_request(&message))
        }
        "/api/v1/namespaces/default/pods" | "/api/v1/pods"
            if table && objects.pod_table.is_some() =>
        {
            (
                200,
                rows_where(objects.pod_table.as_ref().expect("checked"), query, |pod| {
                    labels_match(pod, query)
                }),
            )
        }
        // The list `describe` reads for its prefix matching (and `get pods`
        // would, were a Table served).
        "/api/v1/namespaces/default/pods" | "/api/v1/pods" => (
            200,
            json!({
                "kind": "PodList",
                "apiVersion": "v1",
                "metadata": { "resourceVersion": "1000" },
                "items": objects.pods.iter().filter(|pod| fields_match(pod, query) && labels_match(pod, query)).collect::<Vec<_>>(),
            }),
        ),
        "/api/v1/namespaces/default/configmaps" => match (&objects.config_map_table, table) {
            (Some(printed), true) => (200, printed.clone()),
            _ => (
                200,
                list_of("ConfigMapList", "v1", &objects.config_maps, query),
            ),
        },
        "/api/v1/namespaces/default/secrets" => match (&objects.secret_table, table) {
            (Some(printed), true) => (200, printed.clone()),
            _ => (200, list_of("SecretList", "v1", &objects.secrets, query)),
        },
        "/api/v1/namespaces/default/services" => match (&objects.service_table, table) {
            (Some(printed), true) => (200, printed.clone()),
            _ => (
                200,
                json!({
                    "kind": "ServiceList",
                    "apiVersion": "v1",
                    "metadata": { "resourceVersion": "1000" },
                    "items": objects.services,
                }),
            ),
        },
        // A kind podlab does not have (`get all` lists it): none.
        "/api/v1/namespaces/default/replicationcontrollers" => {
            (200, empty("ReplicationControllerList", "v1", table))
        }
        "/apis/apps/v1/namespaces/default/daemonsets" => match (&objects.daemon_set_table, table) {
            (Some(printed), true) => (200, printed.clone()),
            (None, true) => (200, empty("DaemonSetList", "apps/v1", true)),
            _ => (200, list("DaemonSetList", &objects.daemon_sets, query)),
        },
        "/apis/apps/v1/namespaces/default/statefulsets" => {
            match (&objects.stateful_set_table, table) {
                (Some(printed), true) => (200, printed.clone()),
                (None, true) => (200, empty("StatefulSetList", "apps/v1", true)),
                _ => (200, list("StatefulSetList", &objects.stateful_sets, query)),
            }
        }
        "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices" => {
            match (&objects.endpoint_slice_table, table) {
                (Some(printed), true) => (200, printed.clone()),
                _ => (200, endpoint_slice_list(objects, query)),
            }
        }
        _ => {
            let by_name = |prefix: &str, items: &[Value], resource: &str| {
                let name = path.strip_prefix(prefix)?;
                Some(
                    items
                        .iter()
                        .find(|item| item["metadata"]["name"] == name)
                        .map_or_else(
                            || (404, not_found(&format!("{resource} \"{name}\" not found"))),
                            |item| (200, item.clone()),
                        ),
                )
            };
            by_name("/api/v1/namespaces/default/pods/", &objects.pods, "pods")
                .or_else(|| {
                    by_name(
                        "/api/v1/namespaces/default/services/",
                        &objects.services,
                        "services",
                    )
                })
                .or_else(|| {
                    by_name(
                        "/api/v1/namespaces/default/configmaps/",
                        &objects.config_maps,
                        "configmaps",
                    )
                })
                .or_else(|| {
                    by_name(
                        "/api/v1/namespaces/default/secrets/",
                        &objects.secrets,
                        "secrets",
                    )
                })
                .or_else(|| by_name("/api/v1/nodes/", &objects.nodes, "nodes"))
                .or_else(|| {
                    by_name(
                        "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/",
                        &objects.leases,
                        "leases.coordination.k8s.io",
                    )
                })
                .or_else(|| {
                    by_name(
                        "/apis/apps/v1/namespaces/default/deployments/",
                        &objects.deployments,
                        "deployments.apps",
                    )
                })
                .or_else(|| {
                    by_name(
                        "/apis/apps/v1/namespaces/default/daemonsets/",
                        &objects.daemon_sets,
                        "daemonsets.apps",
                    )
                })
                .or_else(|| {
                    by_name(
                        "/apis/apps/v1/namespaces/default/replicasets/",
                        &objects.replica_sets,
                        "replicasets.apps",
                    )
                })
                .or_else(|| {
                    by_name(
                        "/apis/batch/v1/namespaces/default/jobs/",
                        &objects.jobs,
                        "jobs.batch",
                    )
                })
                .or_else(|| {
                    by_name(
                        "/apis/batch/v1/namespaces/default/cronjobs/",
                        &objects.cron_jobs,
                        "cronjobs.batch",
                    )
                })
                .or_else(|| {
                    by_name(
                        "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/",
                        &objects.autoscalers,
                        "horizontalpodautoscalers.autoscaling",
                    )
                })
                .unwrap_or_else(|| absent(path))
        }
    }
}

/// The API groups besides core, in a real API server's order (its group
/// priorities: apps, autoscaling, batch, …, discovery.k8s.io), which is the
/// order kubectl expands `get all` in: apps (Deployments, ReplicaSets,
/// DaemonSets, StatefulSets), autoscaling (HorizontalPodAutoscalers, v2
/// only), batch (Jobs, CronJobs), discovery.k8s.io (EndpointSlices).
fn api_groups() -> Value {
    let version = json!({ "groupVersion": "discovery.k8s.io/v1", "version": "v1" });
    let autoscaling = json!({ "groupVersion": "autoscaling/v2", "version": "v2" });
    let apps = json!({ "groupVersion": "apps/v1", "version": "v1" });
    let batch = json!({ "groupVersion": "batch/v1", "version": "v1" });
    json!({
        "kind": "APIGroupList",
        "apiVersion": "v1",
        "groups": [{
            "name": "apps",
            "versions": [apps],
            "preferredVersion": apps,
        }, {
            "name": "autoscaling",
            "versions": [autoscaling],
            "preferredVersion": autoscaling,
        }, {
            "name": "batch",
            "versions": [batch],
            "preferredVersion": batch,
        }, {
            "name": "discovery.k8s.io",
            "versions": [version],
            "preferredVersion": version,
        }]
    })
}

fn autoscaling_v2_resources() -> Value {
    json!({
        "kind": "APIResourceList",
        "apiVersion": "v1",
        "groupVersion": "autoscaling/v2",
        "resources": [{
            "name": "horizontalpodautoscalers",
            "singularName": "horizontalpodautoscaler",
            "namespaced": true,
            "kind": "HorizontalPodAutoscaler",
            "verbs": ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"],
            "shortNames": ["hpa"],
            "categories": ["all"]
        }]
    })
}

fn apps_v1_resources() -> Value {
    let verbs = verbs();
    json!({
        "kind": "APIResourceList",
        "apiVersion": "v1",
        "groupVersion": "apps/v1",
        "resources": [{
            "name": "daemonsets",
            "singularName": "daemonset",
            "namespaced": true,
            "kind": "DaemonSet",
            "verbs": verbs,
            "shortNames": ["ds"],
            "categories": ["all"]
        }, {
            "name": "deployments",
            "singularName": "deployment",
            "namespaced": true,
            "kind": "Deployment",
            "verbs": verbs,
            "shortNames": ["deploy"],
            "categories": ["all"]
        }, {
            "name": "replicasets",
            "singularName": "replicaset",
            "namespaced": true,
            "kind": "ReplicaSet",
            "verbs": verbs,
            "shortNames": ["rs"],
            "categories": ["all"]
        }, {
            "name": "deployments/scale",
            "singularName": "",
            "namespaced": true,
            "group": "autoscaling",
            "version": "v1",
            "kind": "Scale",
            "verbs": ["get", "patch", "update"]
        }, {
            "name": "replicasets/scale",
            "singularName": "",
            "namespaced": true,
            "group": "autoscaling",
            "version": "v1",
            "kind": "Scale",
            "verbs": ["get", "patch", "update"]
        }, {
            "name": "statefulsets",
            "singularName": "statefulset",
            "namespaced": true,
            "kind": "StatefulSet",
            "verbs": verbs,
            "shortNames": ["sts"],
            "categories": ["all"]
        }]
    })
}

/// `kubectl get job|cronjob|pod|node NAME` asks for the object by name as a
/// Table: the server prints that one row, or answers NotFound.
fn named_row(path: &str, objects: &Objects) -> Option<(u16, Value)> {
    let (table, name, resource) = [
        (
            "/apis/batch/v1/namespaces/default/jobs/",
            &objects.job_table,
            "jobs.batch",
        ),
        (
            "/apis/batch/v1/namespaces/default/cronjobs/",
            &objects.cron_job_table,
            "cronjobs.batch",
        ),
        (
            "/api/v1/namespaces/default/pods/",
            &objects.pod_table,
            "pods",
        ),
        (
            "/api/v1/namespaces/default/services/",
            &objects.service_table,
            "services",
        ),
        (
            "/api/v1/namespaces/default/configmaps/",
            &objects.config_map_table,
            "configmaps",
        ),
        (
            "/apis/apps/v1/namespaces/default/daemonsets/",
            &objects.daemon_set_table,
            "daemonsets.apps",
        ),
        (
            "/apis/apps/v1/namespaces/default/statefulsets/",
            &objects.stateful_set_table,
            "statefulsets.apps",
        ),
        (
            "/api/v1/namespaces/default/secrets/",
            &objects.secret_table,
            "secrets",
        ),
        ("/api/v1/nodes/", &objects.node_table, "nodes"),
    ]
    .into_iter()
    .find_map(|(prefix, table, resource)| {
        Some((table.as_ref()?, path.strip_prefix(prefix)?, resource))
    })?;
    let mut one = table.clone();
    let rows: Vec<Value> = table["rows"]
        .as_array()
        .map(|rows| {
            rows.iter()
                .filter(|row| row["object"]["metadata"]["name"] == name)
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    if rows.is_empty() {
        return Some((404, not_found(&format!("{resource} \"{name}\" not found"))));
    }
    one["rows"] = Value::Array(rows);
    Some((200, one))
}

/// The batch/v1 resources (`kubectl get jobs`, `get cronjobs`, `describe`).
fn batch_v1_resources() -> Value {
    let verbs = verbs();
    json!({
        "kind": "APIResourceList",
        "apiVersion": "v1",
        "groupVersion": "batch/v1",
        "resources": [{
            "name": "cronjobs",
            "singularName": "cronjob",
            "namespaced": true,
            "kind": "CronJob",
            "verbs": verbs,
            "shortNames": ["cj"],
            "categories": ["all"]
        }, {
            "name": "jobs",
            "singularName": "job",
            "namespaced": true,
            "kind": "Job",
            "verbs": verbs,
            "categories": ["all"]
        }]
    })
}

/// A list of `items` whose labels match every `key=value` of the query's
/// `labelSelector`.
fn list(kind: &str, items: &[Value], query: &str) -> Value {
    list_of(kind, "apps/v1", items, query)
}

/// [`list`] of an `api_version`'s objects.
fn list_of(kind: &str, api_version: &str, items: &[Value], query: &str) -> Value {
    let wanted = selector_terms(query, "labelSelector");
    // `metadata.name=NAME`, the one field selector kubectl sends here (the
    // ListWatch of `rollout status`).
    let named = selector_terms(query, "fieldSelector");
    let items: Vec<Value> = items
        .iter()
        .filter(|item| {
            wanted.iter().all(|(key, value)| {
                item["metadata"]["labels"][key.as_str()].as_str() == Some(value.as_str())
            }) && named.iter().all(|(key, value)| {
                key == "metadata.name" && item["metadata"]["name"].as_str() == Some(value.as_str())
            })
        })
        .cloned()
        .collect();
    json!({
        "kind": kind,
        "apiVersion": api_version,
        "metadata": { "resourceVersion": "1000" },
        "items": items
    })
}

fn discovery_v1_resources() -> Value {
    json!({
        "kind": "APIResourceList",
        "apiVersion": "v1",
        "groupVersion": "discovery.k8s.io/v1",
        "resources": [{
            "name": "endpointslices",
            "singularName": "endpointslice",
            "namespaced": true,
            "kind": "EndpointSlice",
            "verbs": ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"]
        }]
    })
}

/// The slices whose labels match every `key=value` of the label selector.
fn endpoint_slice_list(objects: &Objects, query: &str) -> Value {
    let wanted = selector_terms(query, "labelSelector");
    let items: Vec<Value> = objects
        .endpoint_slices
        .iter()
        .filter(|slice| {
            wanted.iter().all(|(key, value)| {
                slice["metadata"]["labels"][key.as_str()].as_str() == Some(value.as_str())
            })
        })
        .cloned()
        .collect();
    json!({
        "kind": "EndpointSliceList",
        "apiVersion": "discovery.k8s.io/v1",
        "metadata": { "resourceVersion": "1000" },
        "items": items
    })
}

/// The `key=value` terms of a selector parameter of the query.
fn selector_terms(query: &str, parameter: &str) -> Vec<(String, String)> {
    let selector = query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(key, _)| *key == parameter)
        .map(|(_, value)| percent_decode(value))
        .unwrap_or_default();
    selector
        .split(',')
        .filter_map(|term| term.split_once('='))
        .map(|(key, value)| (key.to_owned(), value.to_owned()))
        .collect()
}

fn version() -> Value {
    json!({
        "major": "1",
        "minor": "35",
        "emulationMajor": "1",
        "emulationMinor": "35",
        "minCompatibilityMajor": "1",
        "minCompatibilityMinor": "34",
        "gitVersion": "v1.35.2",
        "gitCommit": "0000000000000000000000000000000000000000",
        "gitTreeState": "clean",
        "buildDate": "2026-01-01T00:00:00Z",
        "goVersion": "go1.25.0",
        "compiler": "gc",
        "platform": "linux/amd64"
    })
}

/// The core resources kubectl uses here, by name as a real API server
/// lists them (so `get all` expands to pods, replicationcontrollers,
/// services in that order: the resources with `categories: ["all"]`).
fn core_v1_resources() -> Value {
    let verbs = verbs();
    let resource = |name: &str, singular: &str, kind: &str, short: &[&str], all: bool| {
        let mut entry = json!({
            "name": name,
            "singularName": singular,
            "namespaced": kind != "Node",
            "kind": kind,
            "verbs": verbs,
        });
        if !short.is_empty() {
            entry["shortNames"] = json!(short);
        }
        if all {
            entry["categories"] = json!(["all"]);
        }
        entry
    };
    json!({
        "kind": "APIResourceList",
        "groupVersion": "v1",
        "resources": [
            resource("configmaps", "configmap", "ConfigMap", &["cm"], false),
            resource("events", "event", "Event", &["ev"], false),
            resource("nodes", "node", "Node", &["no"], false),
            resource("pods", "pod", "Pod", &["po"], true),
            {
                "name": "pods/eviction",
                "singularName": "",
                "namespaced": true,
                "group": "policy",
                "version": "v1",
                "kind": "Eviction",
                "verbs": ["create"]
            },
            resource("replicationcontrollers", "replicationcontroller", "ReplicationController", &["rc"], true),
            resource("secrets", "secret", "Secret", &[], false),
            resource("services", "service", "Service", &["svc"], true),
        ]
    })
}

/// The namespace's events that match every `key=value` of the field selector.
fn event_list(objects: &Objects, query: &str) -> Value {
    let wanted = selector_terms(query, "fieldSelector");
    let items: Vec<Value> = objects
        .events
        .iter()
        .filter(|event| {
            wanted
                .iter()
                .all(|(key, value)| field(event, key).is_some_and(|found| found == value))
        })
        .cloned()
        .collect();
    json!({
        "kind": "EventList",
        "apiVersion": "v1",
        "metadata": { "resourceVersion": "1000" },
        "items": items
    })
}

/// Whether `object` matches every term of the query's `fieldSelector`:
/// `key=value`, `key==value` or `key!=value`, a missing field reading as
/// `""` (the API server's field sets hold every selectable field).
fn fields_match(object: &Value, query: &str) -> bool {
    let selector = query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(key, _)| *key == "fieldSelector")
        .map(|(_, value)| percent_decode(value))
        .unwrap_or_default();
    selector
        .split(',')
        .filter(|term| !term.is_empty())
        .all(|term| {
            let (key, value, equal) = match term.split_once("!=") {
                Some((key, value)) => (key, value, false),
                None => match term.split_once('=') {
                    Some((key, value)) => (key, value.trim_start_matches('='), true),
                    None => return false,
                },
            };
            (field(object, key).unwrap_or("") == value) == equal
        })
}

/// `printed` with only the rows whose object matches the query's field
/// selector and `keep`.
fn rows_where(printed: &Value, query: &str, keep: impl Fn(&Value) -> bool) -> Value {
    let mut out = printed.clone();
    if let Some(rows) = out["rows"].as_array_mut() {
        rows.retain(|row| fields_match(&row["object"], query) && keep(&row["object"]));
    }
    out
}

/// A field selector's dotted path in an object (`involvedObject.name`).
fn field<'a>(object: &'a Value, path: &str) -> Option<&'a str> {
    path.split('.')
        .try_fold(object, |value, key| value.get(key))
        .and_then(Value::as_str)
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|pair| std::str::from_utf8(pair).ok())
            .and_then(|pair| u8::from_str_radix(pair, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (b'+', _) => {
                out.push(b' ');
                i += 1;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The query's `labelSelector`, parsed as the API server parses it
/// (`labels.Parse`; podlab's port, `podlab_core::kubectl::selector`, whose
/// grammar and messages its unit tests check against the source); the
/// error is the message of the server's 400.
fn label_selector(query: &str) -> Result<Option<Selector>, String> {
    query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(key, _)| *key == "labelSelector")
        .map(|(_, value)| selector::parse(&percent_decode(value)))
        .transpose()
}

/// Whether `object`'s labels match the query's `labelSelector` (every
/// object when there is none or it does not parse).
fn labels_match(object: &Value, query: &str) -> bool {
    let Ok(Some(selector)) = label_selector(query) else {
        return true;
    };
    let labels: Vec<(String, String)> = object["metadata"]["labels"]
        .as_object()
        .map(|labels| {
            labels
                .iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
                .collect()
        })
        .unwrap_or_default();
    selector.matches(&labels)
}

/// An empty list of `kind`, or as the Table kubectl asks for: one column
/// and no rows, which kubectl prints as nothing.
fn empty(kind: &str, api_version: &str, table: bool) -> Value {
    if table {
        return json!({
            "kind": "Table",
            "apiVersion": "meta.k8s.io/v1",
            "metadata": { "resourceVersion": "1000" },
            "columnDefinitions": [{
                "name": "Name", "type": "string", "format": "name", "description": "", "priority": 0
            }],
            "rows": [],
        });
    }
    json!({
        "kind": kind,
        "apiVersion": api_version,
        "metadata": { "resourceVersion": "1000" },
        "items": [],
    })
}

/// A GET nothing here answers: a named pod, node or Deployment of another
/// namespace is NotFound as the API server says it; anything else is
/// reported as not served.
fn absent(path: &str) -> (u16, Value) {
    let named = path
        .split_once("/namespaces/")
        .and_then(|(_, rest)| rest.split_once('/'))
        .and_then(|(namespace, rest)| Some((namespace, rest.split_once('/')?)));
    match named {
        Some((namespace, (resource, name))) if namespace != "default" && !name.contains('/') => {
            let group = if path.starts_with("/apis/apps/") {
                ".apps"
            } else {
                ""
            };
            (
                404,
                not_found(&format!("{resource}{group} \"{name}\" not found")),
            )
        }
        _ => (404, not_found(&format!("{path} is not served"))),
    }
}

/// The API server's `ValidateObjectMeta` of a patched object's label and
/// annotation keys (apimachinery `ValidateLabels`, `ValidateAnnotations`,
/// which lower-cases the key; each message of `IsQualifiedName` one
/// `field.Invalid`): the `Invalid` Status `errors.NewInvalid` makes, keys in
/// the patch's (sorted) order.
fn invalid_metadata(kind: &str, group: &str, name: &str, patch: &Value) -> Option<Value> {
    let mut causes = Vec::new();
    for (field, lower) in [("labels", false), ("annotations", true)] {
        let Some(map) = patch["metadata"][field].as_object() else {
            continue;
        };
        for (key, value) in map {
            if value.is_null() {
                continue;
            }
            let checked = if lower {
                key.to_lowercase()
            } else {
                key.clone()
            };
            for message in selector::qualified_name_errors(&checked) {
                causes.push(json!({
                    "reason": "FieldValueInvalid",
                    "message": format!("Invalid value: {}: {message}", serde_json::to_string(key).unwrap_or_default()),
                    "field": format!("metadata.{field}"),
                }));
            }
        }
    }
    if causes.is_empty() {
        return None;
    }
    let qualified = if group.is_empty() {
        kind.to_string()
    } else {
        format!("{kind}.{group}")
    };
    let listed: Vec<String> = causes
        .iter()
        .map(|c| {
            format!(
                "{}: {}",
                c["field"].as_str().unwrap_or(""),
                c["message"].as_str().unwrap_or("")
            )
        })
        .collect();
    let aggregate = if listed.len() == 1 {
        listed[0].clone()
    } else {
        format!("[{}]", listed.join(", "))
    };
    Some(json!({
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": format!("{qualified} \"{name}\" is invalid: {aggregate}"),
        "reason": "Invalid",
        "details": { "name": name, "group": group, "kind": kind, "causes": causes },
        "code": 422
    }))
}

fn bad_request(message: &str) -> Value {
    json!({
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": message,
        "reason": "BadRequest",
        "code": 400
    })
}

fn not_found(message: &str) -> Value {
    json!({
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": message,
        "reason": "NotFound",
        "code": 404
    })
}

/// The API server's patch of a stored object, as much of it as kubectl's
/// commands here send: a strategic merge patch
/// (`k8s.io/apimachinery/pkg/util/strategicpatch`: maps merged key by key,
/// `null` deletes, the lists of a pod template with a `patchMergeKey`
/// merged by it, the `$setElementOrder/…` directives only ordering, other
/// lists replaced) or a JSON merge patch (RFC 7386: every list replaced).
fn merge(target: &mut Value, patch: &Value, strategic: bool, field: &str) {
    let key = match field {
        "containers" | "initContainers" | "env" | "volumes" | "imagePullSecrets" => Some("name"),
        "ports" => Some("containerPort"),
        "volumeMounts" => Some("mountPath"),
        _ => None,
    };
    match (target, patch) {
        (Value::Object(old), Value::Object(new)) => {
            for (name, value) in new {
                if name.starts_with("$setElementOrder/") || name == "$retainKeys" {
                    continue;
                }
                if value.is_null() {
                    old.remove(name);
                } else if let Some(existing) = old.get_mut(name) {
                    merge(existing, value, strategic, name);
                } else {
                    old.insert(name.clone(), value.clone());
                }
            }
        }
        (Value::Array(old), Value::Array(new)) if strategic && key.is_some() => {
            let key = key.unwrap_or("name");
            for item in new {
                match old.iter_mut().find(|o| o[key] == item[key]) {
                    Some(existing) => merge(existing, item, strategic, ""),
                    None => old.push(item.clone()),
                }
            }
        }
        (target, patch) => *target = patch.clone(),
    }
}

/// A JSON patch's `add` and `replace` operations (RFC 6902), all kubectl's
/// rollback sends (`rollback.go`: `/spec/template`, `/metadata/annotations`).
fn json_patch(target: &mut Value, operations: &Value) {
    for operation in operations.as_array().into_iter().flatten() {
        let (Some(op), Some(path)) = (operation["op"].as_str(), operation["path"].as_str()) else {
            continue;
        };
        if !matches!(op, "add" | "replace") {
            continue;
        }
        let Some((parent, key)) = path.rsplit_once('/') else {
            continue;
        };
        if let Some(Value::Object(fields)) = target.pointer_mut(parent) {
            fields.insert(key.to_string(), operation["value"].clone());
        }
    }
}

/// The verbs a discovery entry lists for every resource served here.
fn verbs() -> Value {
    json!([
        "create",
        "delete",
        "deletecollection",
        "get",
        "list",
        "patch",
        "update",
        "watch"
    ])
}
