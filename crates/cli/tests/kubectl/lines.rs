//! `kubectl get pods [-o wide]`, `get pod NAME`, `get events [--sort-by=
//! .lastTimestamp] [--field-selector involvedObject.name=P]` through
//! podlab's line (`podlab_core::kubectl::run`) against the real kubectl
//! given the same objects, with the server-side Tables built by
//! `tables.rs` from the served Pod and Event objects.
//!
//! Nothing kubectl prints here depends on its own clock (the server
//! prints the ages), so the objects carry podlab's epoch and the Tables
//! are printed at the server time `EPOCH + at`.

use podlab_core::manifest::duration::Millis;
use podlab_core::sim::{PodRun, Run};
use serde_json::Value;

use super::objects::{self, Clock, EPOCH};
use super::server::{ApiServer, Objects};
use super::{line_diff, run_kubectl, tables, write_kubeconfig, TempDir};

/// The objects as the API server lists them: the pods that exist at `at`
/// and every pod's events, each list by name, with their Tables.
pub fn served_tables(text: &str, run: &Run, at: Millis) -> Objects {
    served_on(text, run, at, Clock { base: EPOCH })
}

/// [`served_tables`] on `clock` (the Tables printed at `clock`'s `at`).
pub fn served_on(text: &str, run: &Run, at: Millis, clock: Clock) -> Objects {
    let mut existing: Vec<&PodRun> = run.pods.iter().filter(|pod| pod.exists_at(at)).collect();
    existing.sort_by(|a, b| a.name.cmp(&b.name));
    let pods: Vec<Value> = existing
        .iter()
        .map(|pod| objects::pod(run, pod, at, clock, text))
        .collect();
    let mut events: Vec<Value> = run
        .pods
        .iter()
        .flat_map(|pod| objects::events(run, pod, at, clock))
        .collect();
    events.sort_by(|a, b| {
        a["metadata"]["name"]
            .as_str()
            .cmp(&b["metadata"]["name"].as_str())
    });
    let now = clock.base * 1000 + i64::try_from(at).expect("a time in range");
    Objects {
        pod_table: Some(tables::pod_table(&pods, now)),
        event_table: Some(tables::event_table(&events, now)),
        pods,
        events,
        ..Objects::default()
    }
}

/// The names of the pods that exist at `at`, as the API server lists them.
fn existing_names(run: &Run, at: Millis) -> Vec<&str> {
    let mut names: Vec<&str> = run
        .pods
        .iter()
        .filter(|pod| pod.exists_at(at))
        .map(|pod| pod.name.as_str())
        .collect();
    names.sort_unstable();
    names
}

/// The lines compared on a run at `at`.
pub fn table_lines(run: &Run, at: Millis) -> Vec<String> {
    let mut lines = vec![
        "get pods".to_string(),
        "get pods -o wide".to_string(),
        "get events".to_string(),
        "get events --sort-by=.lastTimestamp".to_string(),
    ];
    let names = existing_names(run, at);
    for name in names {
        lines.push(format!("get pod {name}"));
        lines.push(format!("get pod {name} -o wide"));
        lines.push(format!(
            "get events --field-selector involvedObject.name={name}"
        ));
    }
    lines
}

/// Each line of [`table_lines`] through podlab's line and the real
/// kubectl; returns a diff for each line whose stdout, stderr or success
/// differ.
pub fn compare_tables(label: &str, text: &str, run: &Run, at: Millis) -> Vec<String> {
    let context = podlab_core::exercise::exec::ExecContext::new(text, run);
    let server = ApiServer::start(served_tables(text, run, at));
    let dir = TempDir::new("kubectl-tables");
    let kubeconfig = write_kubeconfig(&dir.0, &server);
    let mut failures = Vec::new();
    for line in table_lines(run, at) {
        let args: Vec<&str> = line.split_whitespace().collect();
        let printed = run_kubectl(&dir.0, &kubeconfig, &args);
        let podlab = podlab_core::kubectl::run(&context, &line, at);
        if podlab.stdout != printed.stdout
            || podlab.stderr != printed.stderr
            || (podlab.exit_code == 0) != printed.success
        {
            failures.push(format!(
                "{line} ({label} at {} ms) differs from kubectl v1.35 (- podlab, + kubectl; · is a trailing space):\n{}stderr: podlab {:?}, kubectl {:?}",
                at,
                line_diff(&podlab.stdout, &printed.stdout),
                podlab.stderr,
                printed.stderr,
            ));
        }
    }
    failures
}

/// The watch events a real API server would stream for the rows podlab's
/// `get pods [NAME] -w [-o wide]` prints after its table
/// (`podlab_core::kubectl::watch::changes`): each the pod at the event's
/// time as a Table of one row printed by the server then (`tables.rs`,
/// the deleted object's last state for a DELETED event), the column
/// definitions only on the first event (the API server's
/// `watchEmbeddedEncoder` sets `NoHeaders` after it), and for a named
/// pod first the synthetic ADDED event a watch from resourceVersion 0
/// starts with (kubectl does not print it).
fn watch_events(text: &str, run: &Run, at: Millis, name: Option<&str>, wide: bool) -> Vec<Value> {
    use podlab_core::kubectl::watch;
    let clock = Clock { base: EPOCH };
    let watched = watch::watched(run, name);
    let until = run.end.min(at.saturating_add(watch::WATCH_SPAN));
    let (changes, _) = watch::changes(&watched, at, until, wide);
    let now = |t: Millis| EPOCH * 1000 + i64::try_from(t).expect("a time in range");
    let mut events = Vec::new();
    if name.is_some() {
        let pod = watched
            .iter()
            .find(|pod| pod.exists_at(at))
            .expect("the named pod exists");
        let object = objects::pod(run, pod, at, clock, text);
        events.push(serde_json::json!({
            "type": "ADDED",
            "object": tables::pod_table(&[object], now(at)),
        }));
    }
    for change in changes {
        let pod = watched[change.pod];
        let shown_at = if change.deleted {
            change.at.saturating_sub(1)
        } else {
            change.at
        };
        let object = objects::pod(run, pod, shown_at, clock, text);
        let kind = if change.deleted {
            "DELETED"
        } else if pod.created > at
            && !events.iter().any(|e: &Value| {
                e["object"]["rows"][0]["object"]["metadata"]["name"] == pod.name.as_str()
            })
        {
            "ADDED"
        } else {
            "MODIFIED"
        };
        events.push(serde_json::json!({
            "type": kind,
            "object": tables::pod_table(&[object], now(change.at)),
        }));
    }
    for event in events.iter_mut().skip(1) {
        if let Some(table) = event["object"].as_object_mut() {
            table.remove("columnDefinitions");
        }
    }
    events
}

/// `get pods -w`, `get pods -w -o wide` and `get pods NAME -w` for every
/// pod that exists at `at`, through podlab's line and the real kubectl
/// given the same watch stream (`watch_events`); returns a diff for each
/// line whose stdout or success differ (podlab's note on until when it
/// watched is not kubectl's text).
pub fn compare_watch(label: &str, text: &str, run: &Run, at: Millis) -> Vec<String> {
    let context = podlab_core::exercise::exec::ExecContext::new(text, run);
    let dir = TempDir::new("kubectl-watch");
    let mut cases: Vec<(Option<String>, bool)> = vec![(None, false), (None, true)];
    let names = existing_names(run, at);
    cases.extend(
        names
            .into_iter()
            .map(|name| (Some(name.to_string()), false)),
    );
    let mut failures = Vec::new();
    for (name, wide) in cases {
        let mut objects = served_tables(text, run, at);
        objects.pod_watch = Some(watch_events(text, run, at, name.as_deref(), wide));
        let server = ApiServer::start(objects);
        let kubeconfig = write_kubeconfig(&dir.0, &server);
        let line = format!(
            "get pods{}{} -w",
            name.as_deref().map(|n| format!(" {n}")).unwrap_or_default(),
            if wide { " -o wide" } else { "" }
        );
        let args: Vec<&str> = line.split_whitespace().collect();
        let printed = run_kubectl(&dir.0, &kubeconfig, &args);
        let podlab = podlab_core::kubectl::run(&context, &line, at);
        if podlab.stdout != printed.stdout || (podlab.exit_code == 0) != printed.success {
            failures.push(format!(
                "{line} ({label} at {at} ms) differs from kubectl v1.35 (- podlab, + kubectl; · is a trailing space):\n{}stderr: podlab {:?}, kubectl {:?}\nrequests:\n{}",
                line_diff(&podlab.stdout, &printed.stdout),
                podlab.stderr,
                printed.stderr,
                server.requests().join("\n"),
            ));
        }
    }
    failures
}

/// The read forms people type most (issue 33), as argument lists: label
/// selectors of every form built from the first pod's labels (one that
/// matches, one that does not, one the server refuses), `-A`,
/// `--no-headers`, `--show-labels`, `-o name`, `-o jsonpath=` (fields,
/// `[*]`, an index, a range with `{"\t"}` and `{"\n"}`, a filter, a map
/// printed as JSON, an execution error with the object's dump) and `-o
/// custom-columns=` (`<none>`, several values, a map), `--sort-by` on
/// names, counts, times, quantities and a missing field, on the list and on
/// each pod by name.
pub fn read_form_lines(run: &Run, at: Millis, text: &str) -> Vec<Vec<String>> {
    let names = existing_names(run, at);
    let mut lines: Vec<Vec<&str>> = Vec::new();
    let words = |line: &str| -> Vec<String> { line.split(' ').map(String::from).collect() };
    let mut out: Vec<Vec<String>> = Vec::new();
    // Labels of the first pod, as served.
    let labels: Vec<(String, String)> = names
        .first()
        .and_then(|name| run.pods.iter().find(|pod| pod.name == *name))
        .map(|pod| {
            let object = objects::pod(run, pod, at, Clock { base: EPOCH }, text);
            object["metadata"]["labels"]
                .as_object()
                .map(|labels| {
                    labels
                        .iter()
                        .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
                        .collect()
                })
                .unwrap_or_default()
        })
        .unwrap_or_default();
    let mut selectors: Vec<String> = vec![
        "app=nothing-here".into(),
        "tier notin (web)".into(),
        "!app".into(),
        "app in (".into(),
        "app=a b".into(),
        "-ltier=x".into(),
    ];
    for (key, value) in labels.iter().take(2) {
        selectors.extend([
            format!("{key}={value}"),
            format!("{key}=={value}"),
            format!("{key}!={value}"),
            format!("{key} in ({value}, other)"),
            format!("{key} notin ({value})"),
            key.clone(),
            format!("!{key}"),
        ]);
    }
    for selector in &selectors {
        out.push(vec![
            "get".into(),
            "pods".into(),
            "-l".into(),
            selector.clone(),
        ]);
    }
    if let Some((key, value)) = labels.first() {
        let selector = format!("--selector={key}={value}");
        out.push(words(&format!("get pods {selector} -o name")));
        out.push(words(&format!("get pods {selector} -o wide --show-labels")));
        out.push(vec![
            "get".into(),
            "pods".into(),
            "-l".into(),
            "app in (".into(),
            "-o".into(),
            "name".into(),
        ]);
    }
    lines.extend([
        vec!["get", "pods", "-A"],
        vec!["get", "pods", "--all-namespaces", "-o", "wide"],
        vec!["get", "pods", "--no-headers"],
        vec!["get", "pods", "--show-labels"],
        vec!["get", "pods", "-A", "--no-headers", "--show-labels"],
        vec!["get", "pods", "-o", "name"],
        vec!["get", "pods", "-o", "jsonpath={.items[*].metadata.name}"],
        vec![
            "get",
            "pods",
            "-o",
            "jsonpath={range .items[*]}{.metadata.name}{\"\\t\"}{.status.phase}{\"\\t\"}{.status.containerStatuses[*].restartCount}{\"\\n\"}{end}",
        ],
        vec![
            "get",
            "pods",
            "-o",
            "jsonpath={.items[?(@.status.phase==\"Running\")].metadata.name}",
        ],
        vec!["get", "pods", "-o", "jsonpath={.items[0].metadata.labels}"],
        vec!["get", "pods", "-o", "jsonpath={.items[*].spec.containers[0].resources}"],
        vec!["get", "pods", "-o", "jsonpath={.items[99]}"],
        vec!["get", "pods", "-o", "jsonpath={end}"],
        vec!["get", "pods", "-o", "jsonpath={.items["],
        vec![
            "get",
            "pods",
            "-o",
            "custom-columns=NAME:.metadata.name,STATUS:.status.phase,RESTARTS:.status.containerStatuses[*].restartCount,NODE:.spec.nodeName,LABELS:.metadata.labels",
        ],
        vec![
            "get",
            "pods",
            "--no-headers",
            "-o",
            "custom-columns=N:metadata.name,IMAGES:{.spec.containers[*].image},Started:.status.startTime",
        ],
        vec!["get", "pods", "-o", "custom-columns=A:.x["],
        vec!["get", "pods", "-o", "custom-columns=A"],
        vec!["get", "pod", "x", "-l", "a=b"],
        vec!["get", "pods", "--sort-by=.metadata.name"],
        vec!["get", "pods", "--sort-by=.status.containerStatuses[0].restartCount"],
        vec!["get", "pods", "--sort-by", "metadata.creationTimestamp", "-o", "wide"],
        vec!["get", "pods", "--sort-by=.spec.containers[0].resources.requests.memory"],
        vec!["get", "pods", "--sort-by=.spec.nodeName", "-A"],
        vec!["get", "pods", "--sort-by=.status.podIP", "-o", "name"],
        vec![
            "get",
            "pods",
            "--sort-by={.status.phase}",
            "-o",
            "custom-columns=NAME:.metadata.name,PHASE:.status.phase",
        ],
        vec!["get", "pods", "--sort-by=.nothing"],
        vec!["get", "pods", "--sort-by=.nothing", "-o", "name"],
        vec!["get", "pods", "--sort-by=.items["],
    ]);
    for name in &names {
        lines.push(vec!["get", "pod", name, "-o", "name"]);
        lines.push(vec![
            "get",
            "pod",
            name,
            "-o",
            "jsonpath={.metadata.name} {.spec.nodeName} {.status.containerStatuses[0].lastState}{\"\\n\"}",
        ]);
        lines.push(vec![
            "get",
            "pod",
            name,
            "-o",
            "custom-columns=NAME:.metadata.name,QOS:.status.qosClass,PORTS:.spec.containers[*].ports[*].containerPort,GONE:.status.nothing",
        ]);
    }
    out.extend(
        lines
            .into_iter()
            .map(|line| line.into_iter().map(String::from).collect()),
    );
    out
}

/// Each line of [`read_form_lines`] through podlab's line (as words, the
/// way `podlab kubectl FILE -- ARGS` passes them) and the real kubectl;
/// returns a diff for each line whose stdout, stderr or success differ.
pub fn compare_read_forms(label: &str, text: &str, run: &Run, at: Millis) -> Vec<String> {
    let context = podlab_core::exercise::exec::ExecContext::new(text, run);
    let server = ApiServer::start(served_tables(text, run, at));
    let dir = TempDir::new("kubectl-read-forms");
    let kubeconfig = write_kubeconfig(&dir.0, &server);
    let mut failures = Vec::new();
    for words in read_form_lines(run, at, text) {
        let args: Vec<&str> = words.iter().map(String::as_str).collect();
        let printed = run_kubectl(&dir.0, &kubeconfig, &args);
        let podlab = podlab_core::kubectl::run_words(&context, words.clone(), at);
        if podlab.stdout != printed.stdout
            || podlab.stderr != printed.stderr
            || (podlab.exit_code == 0) != printed.success
        {
            failures.push(format!(
                "{words:?} ({label} at {at} ms) differs from kubectl v1.35 (- podlab, + kubectl; · is a trailing space):\n{}stderr:\n- {:?}\n+ {:?}\nexit: podlab {}, kubectl success {}",
                line_diff(&podlab.stdout, &printed.stdout),
                podlab.stderr,
                printed.stderr,
                podlab.exit_code,
                printed.success,
            ));
        }
    }
    failures
}

/// `get svc [NAME] [-o wide]` and `get pods,svc` (either order, `-o wide`)
/// through podlab's line and the real kubectl, the server serving the
/// pods' and Services' Tables (`tables::service_table`, a port of
/// `printService`); returns a diff for each line that differs.
pub fn compare_services(label: &str, text: &str, run: &Run, at: Millis) -> Vec<String> {
    let context = podlab_core::exercise::exec::ExecContext::new(text, run);
    let clock = Clock { base: EPOCH };
    let mut objects = served_tables(text, run, at);
    let (mut services, _) = super::services::served(run, at, clock);
    services.sort_by(|a, b| {
        a["metadata"]["name"]
            .as_str()
            .cmp(&b["metadata"]["name"].as_str())
    });
    let now = EPOCH * 1000 + i64::try_from(at).expect("a time in range");
    objects.service_table = Some(tables::service_table(&services, now));
    objects.services = services.clone();
    let server = ApiServer::start(objects);
    let dir = TempDir::new("kubectl-services-line");
    let kubeconfig = write_kubeconfig(&dir.0, &server);
    let mut lines: Vec<String> = [
        "get svc",
        "get services -o wide",
        "get svc nope",
        "get pods,svc",
        "get svc,pods",
        "get po,services -o wide",
    ]
    .map(String::from)
    .to_vec();
    for service in &services {
        let name = service["metadata"]["name"].as_str().unwrap_or_default();
        lines.push(format!("get svc {name}"));
        lines.push(format!("get service {name} -o wide"));
    }
    let mut failures = Vec::new();
    for line in lines {
        let args: Vec<&str> = line.split_whitespace().collect();
        let printed = run_kubectl(&dir.0, &kubeconfig, &args);
        let podlab = podlab_core::kubectl::run(&context, &line, at);
        if podlab.stdout != printed.stdout
            || podlab.stderr != printed.stderr
            || (podlab.exit_code == 0) != printed.success
        {
            failures.push(format!(
                "{line} ({label} at {at} ms) differs from kubectl v1.35 (- podlab, + kubectl):\n{}stderr: podlab {:?}, kubectl {:?}",
                line_diff(&podlab.stdout, &printed.stdout),
                podlab.stderr,
                printed.stderr,
            ));
        }
    }
    failures
}

/// The file's ConfigMaps and Secrets as the API server returns them, and
/// the `kube-root-ca.crt` ConfigMap every namespace holds (podlab's
/// `kubectl::config::objects`, its reading of the text): a ConfigMap's
/// `data` as strings and `binaryData` base64-encoded, a Secret's `data`
/// base64-encoded (`stringData` merged in), labels and annotations. The
/// sizes kubectl prints are its own `len` of what it decodes here.
fn config_objects(context: &podlab_core::exercise::exec::ExecContext) -> (Vec<Value>, Vec<Value>) {
    use podlab_core::kubectl::parse::Kind;
    let created = Clock { base: EPOCH }.time(0);
    let map = |pairs: &[(String, String)], encode: bool| -> serde_json::Map<String, Value> {
        pairs
            .iter()
            .map(|(k, v)| {
                let value = if encode {
                    base64(v.as_bytes())
                } else {
                    v.clone()
                };
                (k.clone(), Value::String(value))
            })
            .collect()
    };
    let value = |found: &podlab_core::exercise::exec::ConfigObject| {
        let mut object = serde_json::json!({
            "apiVersion": "v1",
            "kind": found.kind,
            "metadata": {
                "name": found.name,
                "namespace": "default",
                "resourceVersion": "100",
                "creationTimestamp": created,
            },
        });
        if !found.labels.is_empty() {
            object["metadata"]["labels"] = Value::Object(map(&found.labels, false));
        }
        if !found.annotations.is_empty() {
            object["metadata"]["annotations"] = Value::Object(map(&found.annotations, false));
        }
        if found.kind == "Secret" {
            object["type"] = Value::String(found.secret_type.clone());
            object["data"] = Value::Object(map(&found.data, true));
        } else {
            let binary = |key: &str| found.sizes.iter().any(|(k, _)| k == key);
            let (bytes, text): (Vec<_>, Vec<_>) =
                found.data.iter().cloned().partition(|(k, _)| binary(k));
            if !text.is_empty() {
                object["data"] = Value::Object(map(&text, false));
            }
            if !bytes.is_empty() {
                object["binaryData"] = Value::Object(map(&bytes, true));
            }
        }
        object
    };
    let config_maps = podlab_core::kubectl::config::objects(context, Kind::ConfigMap)
        .iter()
        .map(value)
        .collect();
    let secrets = podlab_core::kubectl::config::objects(context, Kind::Secret)
        .iter()
        .map(value)
        .collect();
    (config_maps, secrets)
}

/// Standard base64 with padding (RFC 4648), as Go's JSON encodes `[]byte`.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// `get configmaps|cm|secrets [NAME]` through podlab's line and the real
/// kubectl given the file's ConfigMaps and Secrets and their Tables
/// (`tables::config_map_table`, `secret_table`); returns a diff for each
/// line that differs.
pub fn compare_config_objects(label: &str, text: &str, run: &Run, at: Millis) -> Vec<String> {
    let context = podlab_core::exercise::exec::ExecContext::new(text, run);
    let mut objects = served_tables(text, run, at);
    let (config_maps, secrets) = config_objects(&context);
    let now = EPOCH * 1000 + i64::try_from(at).expect("a time in range");
    objects.config_map_table = Some(tables::config_map_table(&config_maps, now));
    objects.secret_table = Some(tables::secret_table(&secrets, now));
    objects.config_maps = config_maps.clone();
    objects.secrets = secrets.clone();
    let server = ApiServer::start(objects);
    let dir = TempDir::new("kubectl-config-line");
    let kubeconfig = write_kubeconfig(&dir.0, &server);
    let mut lines: Vec<String> = [
        "get configmaps",
        "get cm nope",
        "get secrets",
        "get secret nope",
        "describe configmaps",
        "describe cm nope",
        "describe secrets",
        "describe secret nope",
        "describe configmap -n other",
    ]
    .map(String::from)
    .to_vec();
    for object in config_maps.iter().chain(&secrets) {
        let name = object["metadata"]["name"].as_str().unwrap_or_default();
        let kind = if object["kind"] == "Secret" {
            "secret"
        } else {
            "cm"
        };
        lines.push(format!("get {kind} {name}"));
        lines.push(format!("describe {kind} {name}"));
        // A prefix: every object whose name starts with it.
        if let Some(prefix) = name.get(..2) {
            lines.push(format!("describe {kind} {prefix}"));
        }
    }
    let mut failures = Vec::new();
    for line in lines {
        let args: Vec<&str> = line.split_whitespace().collect();
        let printed = run_kubectl(&dir.0, &kubeconfig, &args);
        let podlab = podlab_core::kubectl::run(&context, &line, at);
        if podlab.stdout != printed.stdout
            || podlab.stderr != printed.stderr
            || (podlab.exit_code == 0) != printed.success
        {
            failures.push(format!(
                "{line} ({label} at {at} ms) differs from kubectl v1.35 (- podlab, + kubectl):\n{}stderr: podlab {:?}, kubectl {:?}",
                line_diff(&podlab.stdout, &printed.stdout),
                podlab.stderr,
                printed.stderr,
            ));
        }
    }
    failures
}

/// Everything the API server holds of a run at `at` for `kubectl get all`:
/// the pods and events ([`served_tables`]), the Services, the Deployments
/// and their ReplicaSets, the HPAs, the Jobs and CronJobs, each kind with
/// the Table the server prints for it (the other tests' ports of the
/// printers: `tables.rs`, `deployments.rs`, `autoscalers.rs`, `jobs.rs`),
/// the DaemonSets and StatefulSets (`sets.rs`). ReplicationControllers are
/// served as an empty list.
pub fn served_all(text: &str, run: &Run, at: Millis) -> Objects {
    let clock = Clock { base: EPOCH };
    let now = EPOCH * 1000 + i64::try_from(at).expect("a time in range");
    let mut objects = served_tables(text, run, at);
    let (mut services, _) = super::services::served(run, at, clock);
    services.sort_by(|a, b| {
        a["metadata"]["name"]
            .as_str()
            .cmp(&b["metadata"]["name"].as_str())
    });
    objects.service_table = Some(tables::service_table(&services, now));
    objects.services = services;
    let (deployments, replica_sets, _) = super::deployments::served(run, text, at, clock);
    objects.deployment_table = Some(super::deployments::deployment_table(run, &deployments, at));
    objects.replica_set_table = Some(super::deployments::replica_set_table(
        run,
        &replica_sets,
        at,
    ));
    objects.deployments = deployments;
    objects.replica_sets = replica_sets;
    let (autoscalers, _) = super::autoscalers::served(run, at, clock);
    objects.autoscaler_table = Some(super::autoscalers::table(&autoscalers, at));
    objects.autoscalers = autoscalers;
    let workloads = podlab_core::manifest::read::read(text).workloads;
    let (jobs, cron_jobs, _) = super::jobs::served(run, &workloads, text, at, clock);
    objects.job_table = Some(super::jobs::job_table(&jobs, at, clock));
    objects.cron_job_table = Some(super::jobs::cron_job_table(&cron_jobs, at, clock));
    objects.jobs = jobs;
    objects.cron_jobs = cron_jobs;
    let (daemon_sets, stateful_sets) = super::sets::served(text, run, at, clock);
    objects.daemon_set_table = Some(tables::daemon_set_table(&daemon_sets, now));
    objects.stateful_set_table = Some(tables::stateful_set_table(&stateful_sets, now));
    objects.daemon_sets = daemon_sets;
    objects.stateful_sets = stateful_sets;
    objects
}

/// `get all` (and `-o wide`, `-n other`, `-w`), `get pods,svc -w` and
/// `get deploy|rs -o wide` through podlab's line and the real kubectl given
/// [`served_all`]; returns a diff for each line that differs, and the
/// number of lines compared.
pub fn compare_all(label: &str, text: &str, run: &Run, at: Millis) -> (Vec<String>, usize) {
    let context = podlab_core::exercise::exec::ExecContext::new(text, run);
    let server = ApiServer::start(served_all(text, run, at));
    let dir = TempDir::new("kubectl-all");
    let kubeconfig = write_kubeconfig(&dir.0, &server);
    let lines = [
        "get all",
        "get all -o wide",
        "get all -n other",
        "get all -w",
        "get pods,svc -w",
        "get deploy -o wide",
        "get rs -o wide",
        "get ds",
        "get sts -o wide",
    ];
    let mut failures = Vec::new();
    for line in &lines {
        let args: Vec<&str> = line.split_whitespace().collect();
        let printed = run_kubectl(&dir.0, &kubeconfig, &args);
        let podlab = podlab_core::kubectl::run(&context, line, at);
        if podlab.stdout != printed.stdout
            || podlab.stderr != printed.stderr
            || (podlab.exit_code == 0) != printed.success
            || !podlab.notes.is_empty()
        {
            failures.push(format!(
                "{line} ({label} at {at} ms) differs from kubectl v1.35 (- podlab, + kubectl):\n{}stderr: podlab {:?}, kubectl {:?}; podlab's notes: {}",
                line_diff(&podlab.stdout, &printed.stdout),
                podlab.stderr,
                printed.stderr,
                podlab.notes.len(),
            ));
        }
    }
    (failures, lines.len())
}
