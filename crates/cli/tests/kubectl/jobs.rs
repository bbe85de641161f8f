//! The Jobs and CronJobs of a run at a time T as the API server would
//! return them: batch/v1 Job and CronJob objects whose status is derived
//! here from the run (the Job controller's `status.active`, `ready`,
//! `succeeded`, `failed`, `startTime`, `completionTime` and conditions; the
//! CronJob controller's `status.active` and `lastScheduleTime`), their
//! core/v1 Events, and the `meta.k8s.io/v1` Tables the API server prints
//! for `kubectl get jobs` and `get cronjobs`
//! (`pkg/printers/internalversion/printers.go` `printJob`, `printCronJob`,
//! ported here over the JSON objects independently of podlab's renderer).
//!
//! `kubectl describe job` GETs the Job and lists its events; `describe
//! cronjob` the CronJob and its events (kubectl `pkg/describe/describe.go`
//! `JobDescriber`, `CronJobDescriber`): neither lists pods.

use podlab_core::explain::events;
use podlab_core::explain::human_duration;
use podlab_core::manifest::duration::Millis;
use podlab_core::manifest::model::{Workload, WorkloadKind};
use podlab_core::sim::{JobRun, Run};
use serde_json::{json, Map, Value};

use super::deployments::{template, uid};
use super::objects::{rfc3339, Clock, EPOCH};

fn labels(pairs: &[(String, String)]) -> Map<String, Value> {
    pairs
        .iter()
        .map(|(key, value)| (key.clone(), json!(value)))
        .collect()
}

/// The workload a Job was made from.
fn workload<'w>(workloads: &'w [Workload], job: &JobRun) -> Option<&'w Workload> {
    match job
        .owner
        .as_deref()
        .and_then(|o| o.strip_prefix("CronJob/"))
    {
        Some(cron) => workloads
            .iter()
            .find(|w| w.kind == WorkloadKind::CronJob && w.name == cron),
        None => workloads
            .iter()
            .find(|w| w.kind == WorkloadKind::Job && w.name == job.name),
    }
}

/// The Job's uid: what its pods carry in `controller-uid`.
fn job_uid(run: &Run, job: &JobRun) -> String {
    podlab_core::explain::job::uid(run, job)
}

/// The scheduled time of a CronJob's Job (`<cronjob>-<unix minutes>`).
fn scheduled(job: &JobRun) -> Option<i64> {
    let minutes: i64 = job.name.rsplit('-').next()?.parse().ok()?;
    Some(minutes * 60)
}

/// The Job object at `at`.
fn job_object(
    run: &Run,
    workloads: &[Workload],
    source: &str,
    job: &JobRun,
    at: Millis,
    clock: Clock,
) -> Value {
    let workload = workload(workloads, job);
    let job_uid = job_uid(run, job);
    let mut template_labels: Vec<(String, String)> =
        workload.map(|w| w.pod_labels.clone()).unwrap_or_default();
    for (key, value) in [
        ("batch.kubernetes.io/controller-uid", &job_uid),
        ("batch.kubernetes.io/job-name", &job.name),
        ("controller-uid", &job_uid),
        ("job-name", &job.name),
    ] {
        template_labels.push((key.to_string(), value.clone()));
    }
    let template_labels = labels(&template_labels);
    let mut metadata = json!({
        "name": job.name,
        "namespace": "default",
        "uid": job_uid,
        "resourceVersion": "1000",
        "generation": 1,
        "creationTimestamp": clock.time(job.created),
        // SetDefaults_Job: a Job without labels takes its template's.
        "labels": template_labels,
    });
    if let Some(cron) = job
        .owner
        .as_deref()
        .and_then(|o| o.strip_prefix("CronJob/"))
    {
        if let Some(minutes) = scheduled(job) {
            metadata["annotations"] = json!({
                "batch.kubernetes.io/cronjob-scheduled-timestamp": rfc3339(minutes, None),
            });
        }
        metadata["ownerReferences"] = json!([{
            "apiVersion": "batch/v1",
            "kind": "CronJob",
            "name": cron,
            "uid": uid("CronJob", cron),
            "controller": true,
            "blockOwnerDeletion": true,
        }]);
    }
    let spec_of = workload.and_then(|w| w.job.as_ref());
    let mut spec = json!({
        "backoffLimit": spec_of.map_or(6, |s| s.backoff_limit.value),
        "completionMode": "NonIndexed",
        "suspend": false,
        "manualSelector": false,
        "podReplacementPolicy": "TerminatingOrFailed",
        "selector": { "matchLabels": { "batch.kubernetes.io/controller-uid": job_uid } },
    });
    match spec_of {
        // Only parallelism written: completions stay unset.
        Some(s) if s.completions.span.is_none() && s.parallelism.span.is_some() => {
            spec["parallelism"] = json!(s.parallelism.value);
        }
        Some(s) => {
            spec["parallelism"] = json!(s.parallelism.value);
            spec["completions"] = json!(s.completions.value);
        }
        None => {
            spec["parallelism"] = json!(1);
            spec["completions"] = json!(1);
        }
    }
    if let Some(deadline) = spec_of.and_then(|s| s.active_deadline_seconds.as_ref()) {
        spec["activeDeadlineSeconds"] = json!(deadline.value);
    }
    if let Some(workload) = workload {
        spec["template"] = template(source, &workload.pod, template_labels_map(&metadata), &[]);
    }
    // The controller's status: a pod is active until it is counted or
    // being deleted; conditions as set so far.
    let owner = format!("Job/{}", job.name);
    let (mut active, mut ready) = (0, 0);
    for pod in run
        .pods
        .iter()
        .filter(|p| p.owner == owner && p.exists_at(at))
    {
        let counted = podlab_core::explain::job::counted_at(pod).is_some_and(|t| t <= at);
        let deleting = pod.deleting.is_some_and(|d| d <= at);
        if !counted && !deleting {
            active += 1;
            ready += usize::from(podlab_core::explain::describe::pod_ready_at(pod, at));
        }
    }
    let (succeeded, failed) = podlab_core::explain::job::counts_at(run, job, at);
    let conditions: Vec<Value> = job
        .conditions
        .iter()
        .filter(|c| c.at <= at)
        .map(|c| {
            json!({
                "type": c.kind,
                "status": "True",
                "lastProbeTime": clock.time(c.at),
                "lastTransitionTime": clock.time(c.at),
                "reason": c.reason,
                "message": c.message,
            })
        })
        .collect();
    let mut status = json!({
        "startTime": clock.time(job.created),
        "ready": ready,
        "terminating": 0,
        "uncountedTerminatedPods": {},
    });
    for (key, value) in [
        ("active", active),
        ("succeeded", succeeded),
        ("failed", failed),
    ] {
        if value > 0 {
            status[key] = json!(value);
        }
    }
    if !conditions.is_empty() {
        status["conditions"] = json!(conditions);
    }
    if let Some(complete) = job
        .conditions
        .iter()
        .find(|c| c.kind == "Complete" && c.at <= at)
    {
        status["completionTime"] = json!(clock.time(complete.at));
    }
    json!({
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": metadata,
        "spec": spec,
        "status": status,
    })
}

fn template_labels_map(metadata: &Value) -> Map<String, Value> {
    metadata["labels"].as_object().cloned().unwrap_or_default()
}

/// The CronJob object at `at`.
fn cron_object(run: &Run, source: &str, cron: &Workload, at: Millis, clock: Clock) -> Value {
    let owner = format!("CronJob/{}", cron.name);
    let mine: Vec<&JobRun> = run
        .jobs
        .iter()
        .filter(|j| j.owner.as_deref() == Some(owner.as_str()) && j.created <= at)
        .collect();
    let active: Vec<Value> = mine
        .iter()
        .filter(|j| {
            j.deleted.is_none_or(|d| d > at)
                && !j
                    .conditions
                    .iter()
                    .any(|c| c.at <= at && (c.kind == "Complete" || c.kind == "Failed"))
        })
        .map(|j| {
            json!({
                "kind": "Job",
                "namespace": "default",
                "name": j.name,
                "uid": job_uid(run, j),
                "apiVersion": "batch/v1",
                "resourceVersion": "1000",
            })
        })
        .collect();
    let spec = cron.cron.as_ref().expect("a CronJob has a cron spec");
    let mut job_spec = Map::new();
    if let Some(job) = &cron.job {
        if job.parallelism.span.is_some() {
            job_spec.insert("parallelism".into(), json!(job.parallelism.value));
        }
        if job.completions.span.is_some() {
            job_spec.insert("completions".into(), json!(job.completions.value));
        }
        if let Some(deadline) = &job.active_deadline_seconds {
            job_spec.insert("activeDeadlineSeconds".into(), json!(deadline.value));
        }
    }
    job_spec.insert(
        "template".into(),
        template(source, &cron.pod, labels(&cron.pod_labels), &[]),
    );
    let mut status = json!({});
    if !active.is_empty() {
        status["active"] = json!(active);
    }
    if let Some(last) = mine.iter().filter_map(|j| scheduled(j)).max() {
        status["lastScheduleTime"] = json!(rfc3339(last - EPOCH + clock.base, None));
    }
    json!({
        "apiVersion": "batch/v1",
        "kind": "CronJob",
        "metadata": {
            "name": cron.name,
            "namespace": "default",
            "uid": uid("CronJob", &cron.name),
            "resourceVersion": "1000",
            "generation": 1,
            "creationTimestamp": clock.time(0),
        },
        "spec": {
            "schedule": spec.schedule.value,
            "concurrencyPolicy": spec.concurrency_policy.value,
            "suspend": spec.suspend,
            "successfulJobsHistoryLimit": 3,
            "failedJobsHistoryLimit": 1,
            "jobTemplate": { "metadata": {}, "spec": job_spec },
        },
        "status": status,
    })
}

/// The core/v1 Events about `object` (`Job/x`, `CronJob/x`,
/// `ReplicaSet/x`) at `at`, from podlab's aggregator.
pub fn events_about(
    run: &Run,
    object: &str,
    api_version: &str,
    uid: &str,
    at: Millis,
    clock: Clock,
) -> Vec<Value> {
    let (kind, name) = object.split_once('/').unwrap_or(("", object));
    events::aggregate(run, object, at)
        .iter()
        .map(|event| {
            json!({
                "kind": "Event",
                "apiVersion": "v1",
                "metadata": {
                    "name": event.name,
                    "namespace": "default",
                    "resourceVersion": "1000",
                    "creationTimestamp": clock.time(event.first),
                },
                "involvedObject": {
                    "kind": kind,
                    "namespace": "default",
                    "name": name,
                    "uid": uid,
                    "apiVersion": api_version,
                    "resourceVersion": "1000",
                },
                "reason": event.reason,
                "message": event.message,
                "type": event.type_name(),
                "source": { "component": event.source },
                "firstTimestamp": clock.time(event.first),
                "lastTimestamp": clock.time(event.last),
                "count": event.count,
                "eventTime": null,
                "reportingComponent": "",
                "reportingInstance": "",
            })
        })
        .collect()
}

/// What the server holds of the run's Jobs and CronJobs at `at`: the Job
/// objects that exist, the CronJobs, and their events.
pub fn served(
    run: &Run,
    workloads: &[Workload],
    source: &str,
    at: Millis,
    clock: Clock,
) -> (Vec<Value>, Vec<Value>, Vec<Value>) {
    let mut jobs = Vec::new();
    let mut crons = Vec::new();
    let mut all_events = Vec::new();
    for job in run.jobs.iter().filter(|j| j.exists_at(at)) {
        jobs.push(job_object(run, workloads, source, job, at, clock));
        all_events.extend(events_about(
            run,
            &format!("Job/{}", job.name),
            "batch/v1",
            &job_uid(run, job),
            at,
            clock,
        ));
    }
    for cron in workloads.iter().filter(|w| w.kind == WorkloadKind::CronJob) {
        crons.push(cron_object(run, source, cron, at, clock));
        all_events.extend(events_about(
            run,
            &format!("CronJob/{}", cron.name),
            "batch/v1",
            &uid("CronJob", &cron.name),
            at,
            clock,
        ));
    }
    // The API server lists by name (etcd's key order).
    for list in [&mut jobs, &mut crons] {
        list.sort_by(|a, b| {
            a["metadata"]["name"]
                .as_str()
                .cmp(&b["metadata"]["name"].as_str())
        });
    }
    (jobs, crons, all_events)
}

/// Seconds of an RFC 3339 time (`2026-01-01T00:00:00Z`) since the Unix
/// epoch, for the Tables' ages (`tables::parse_time`).
fn unix(text: &str) -> Option<i64> {
    super::tables::parse_time(text).map(|millis| millis.div_euclid(1000))
}

/// `translateTimestampSince` on the server's clock at `at`.
fn since(timestamp: &Value, at: Millis, clock: Clock) -> String {
    let now = clock.base * 1000 + i64::try_from(at).expect("a time in range");
    let then = timestamp.as_str().and_then(unix).unwrap_or(0) * 1000;
    human_duration(Millis::try_from(now - then).unwrap_or(0))
}

fn has_condition(job: &Value, kind: &str) -> bool {
    job["status"]["conditions"].as_array().is_some_and(|list| {
        list.iter()
            .any(|c| c["type"] == kind && c["status"] == "True")
    })
}

/// A Table with `columns` and, at priority 1 (shown by `-o wide`), the
/// template's Containers, Images and the Selector: the server always
/// prints them (`GenerateOptions{Wide: true}`), kubectl hides them.
fn table(columns: &[(&str, &str)], rows: Vec<Value>) -> Value {
    let mut definitions: Vec<Value> = columns
        .iter()
        .map(|(name, kind)| {
            json!({
                "name": name,
                "type": kind,
                "format": if *name == "Name" { "name" } else { "" },
                "description": "",
                "priority": 0,
            })
        })
        .collect();
    for name in ["Containers", "Images", "Selector"] {
        definitions.push(json!({
            "name": name, "type": "string", "format": "", "description": "", "priority": 1,
        }));
    }
    json!({
        "kind": "Table",
        "apiVersion": "meta.k8s.io/v1",
        "metadata": { "resourceVersion": "1000" },
        "columnDefinitions": definitions,
        "rows": rows,
    })
}

/// `layoutContainerCells` and `FormatLabelSelector` (`<none>` for none).
fn wide_cells(template: &Value, selector: &Value) -> [Value; 3] {
    let containers = template["spec"]["containers"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let join = |key: &str| {
        containers
            .iter()
            .map(|c| c[key].as_str().unwrap_or("").to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut terms: Vec<String> = selector["matchLabels"]
        .as_object()
        .map(|labels| {
            labels
                .iter()
                .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or("")))
                .collect()
        })
        .unwrap_or_default();
    terms.sort();
    let selector = if terms.is_empty() {
        "<none>".to_string()
    } else {
        terms.join(",")
    };
    [json!(join("name")), json!(join("image")), json!(selector)]
}

fn row(object: &Value, cells: Vec<Value>) -> Value {
    json!({
        "cells": cells,
        "object": {
            "kind": "PartialObjectMetadata",
            "apiVersion": "meta.k8s.io/v1",
            "metadata": object["metadata"],
        },
    })
}

fn by_name(objects: &[Value]) -> Vec<&Value> {
    let mut sorted: Vec<&Value> = objects.iter().collect();
    sorted.sort_by(|a, b| {
        a["metadata"]["name"]
            .as_str()
            .cmp(&b["metadata"]["name"].as_str())
    });
    sorted
}

/// `printJob` over the served Jobs, by name.
pub fn job_table(jobs: &[Value], at: Millis, clock: Clock) -> Value {
    let rows = by_name(jobs)
        .into_iter()
        .map(|job| {
            let succeeded = job["status"]["succeeded"].as_i64().unwrap_or(0);
            let completions = match job["spec"]["completions"].as_i64() {
                Some(completions) => format!("{succeeded}/{completions}"),
                None => match job["spec"]["parallelism"].as_i64().unwrap_or(0) {
                    parallelism if parallelism > 1 => format!("{succeeded}/1 of {parallelism}"),
                    _ => format!("{succeeded}/1"),
                },
            };
            let start = &job["status"]["startTime"];
            let duration = match (&job["status"]["completionTime"], start.is_null()) {
                (_, true) => String::new(),
                (Value::Null, false) => since(start, at, clock),
                (done, false) => {
                    let from = start.as_str().and_then(unix).unwrap_or(0);
                    let to = done.as_str().and_then(unix).unwrap_or(0);
                    human_duration(Millis::try_from((to - from) * 1000).unwrap_or(0))
                }
            };
            let status = if has_condition(job, "Complete") {
                "Complete"
            } else if has_condition(job, "Failed") {
                "Failed"
            } else if !job["metadata"]["deletionTimestamp"].is_null() {
                "Terminating"
            } else if has_condition(job, "Suspended") {
                "Suspended"
            } else if has_condition(job, "FailureTarget") {
                "FailureTarget"
            } else {
                "Running"
            };
            let mut cells = vec![
                job["metadata"]["name"].clone(),
                json!(status),
                json!(completions),
                json!(duration),
                json!(since(&job["metadata"]["creationTimestamp"], at, clock)),
            ];
            cells.extend(wide_cells(
                &job["spec"]["template"],
                &job["spec"]["selector"],
            ));
            row(job, cells)
        })
        .collect();
    table(
        &[
            ("Name", "string"),
            ("Status", "string"),
            ("Completions", "string"),
            ("Duration", "string"),
            ("Age", "string"),
        ],
        rows,
    )
}

/// `printCronJob` over the served CronJobs, by name.
pub fn cron_job_table(crons: &[Value], at: Millis, clock: Clock) -> Value {
    let rows = by_name(crons)
        .into_iter()
        .map(|cron| {
            let last = &cron["status"]["lastScheduleTime"];
            let last = if last.is_null() {
                "<none>".to_string()
            } else {
                since(last, at, clock)
            };
            let suspend = match cron["spec"]["suspend"].as_bool() {
                Some(true) => "True",
                Some(false) => "False",
                None => "<unset>",
            };
            let timezone = cron["spec"]["timeZone"].as_str().unwrap_or("<none>");
            let mut cells = vec![
                cron["metadata"]["name"].clone(),
                cron["spec"]["schedule"].clone(),
                json!(timezone),
                json!(suspend),
                json!(cron["status"]["active"].as_array().map_or(0, Vec::len)),
                json!(last),
                json!(since(&cron["metadata"]["creationTimestamp"], at, clock)),
            ];
            let template = &cron["spec"]["jobTemplate"]["spec"];
            cells.extend(wide_cells(&template["template"], &template["selector"]));
            row(cron, cells)
        })
        .collect();
    table(
        &[
            ("Name", "string"),
            ("Schedule", "string"),
            ("Timezone", "string"),
            ("Suspend", "boolean"),
            ("Active", "integer"),
            ("Last Schedule", "string"),
            ("Age", "string"),
        ],
        rows,
    )
}
