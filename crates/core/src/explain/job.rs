//! `kubectl get jobs`, `get cronjobs`, `describe job` and `describe cronjob`
//! from a run's Jobs (`sim::JobRun`) and the CronJobs of the text, at a time
//! T: what existed then and its status as the controllers had written it.
//!
//! Columns and texts (docs/kubectl.md): the API server's Tables,
//! `pkg/printers/internalversion/printers.go` `printJob` (NAME STATUS
//! COMPLETIONS DURATION AGE; STATUS `Complete`, `Failed`, `Terminating`,
//! `Suspended`, `FailureTarget` or `Running`, checked in that order;
//! COMPLETIONS `succeeded/completions`, or `succeeded/1 of parallelism`
//! without completions; DURATION empty without a start time, else until
//! `completionTime` or now) and `printCronJob` (NAME SCHEDULE TIMEZONE
//! SUSPEND ACTIVE LAST SCHEDULE AGE); kubectl v0.35.2
//! `pkg/describe/describe.go` `describeJob`, `describeCronJob`,
//! `describeJobTemplate`, `printActiveJobs`.
//!
//! The objects as the API server holds them (checked in the Kubernetes
//! source, docs/kubectl.md): a Job's selector is `matchLabels:
//! {batch.kubernetes.io/controller-uid: <uid>}` and its template gets the
//! four `job-name`/`controller-uid` labels (`pkg/registry/batch/job/
//! strategy.go` `generateSelector`); a Job without labels of its own shows
//! its template's (`SetDefaults_Job`, applied again when the object is read
//! back from storage); a CronJob's Job carries the annotation
//! `batch.kubernetes.io/cronjob-scheduled-timestamp` (RFC 3339 in UTC without
//! `timeZone`; `getJobFromTemplate2`, `CronJobsScheduledAnnotation` GA in
//! 1.32); `completionTime` is set only when the Job completes, so a failed
//! Job's DURATION keeps growing.
//!
//! Not modelled, printed as the API's defaults: labels and annotations
//! written on the Job or CronJob, `timeZone`, `startingDeadlineSeconds` and
//! the history limits (the simulator keeps 3 successful and 1 failed Job).

use super::describe::{
    events_section, multiline, pod_ready_at, pod_template, rfc1123z, tabwrite, Text,
};
use super::events::{self, EPOCH_UNIX_SECONDS};
use super::get_pods::listed_table;
use super::human_duration;
use crate::manifest::duration::Millis;
use crate::manifest::model::{Workload, WorkloadKind};
use crate::manifest::read::Reading;
use crate::sim::{JobRun, PodRun, Run, Timing};

/// A Job's status at a time, as the Job controller had written it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobStatus {
    /// Pods neither finished nor being deleted (`status.active`).
    pub active: usize,
    /// Of those, the Ready ones (`status.ready`).
    pub ready: usize,
    pub succeeded: usize,
    pub failed: usize,
    /// `status.completionTime`: the `Complete` condition's time.
    pub completed: Option<Millis>,
    /// The STATUS column.
    pub status: &'static str,
}

/// Whole seconds, as `metav1.Time` keeps a timestamp.
fn wire(at: Millis) -> Millis {
    at - at % 1000
}

/// `translateTimestampSince` of a stored timestamp at `at`.
fn since(timestamp: Millis, at: Millis) -> String {
    human_duration(at.saturating_sub(wire(timestamp)))
}

/// The Jobs that exist at `at`, by name (the API server's list order).
pub fn jobs_at(run: &Run, at: Millis) -> Vec<&JobRun> {
    let mut jobs: Vec<&JobRun> = run.jobs.iter().filter(|job| job.exists_at(at)).collect();
    crate::sort::sort_by(&mut jobs, |a, b| a.name.cmp(&b.name));
    jobs
}

/// The CronJobs of the text (all created at 0), by name.
pub fn cron_jobs(reading: &Reading) -> Vec<&Workload> {
    let mut crons: Vec<&Workload> = reading
        .workloads
        .iter()
        .filter(|w| w.kind == WorkloadKind::CronJob)
        .collect();
    crate::sort::sort_by(&mut crons, |a, b| a.name.cmp(&b.name));
    crons
}

/// The workload a Job was made from: its own Job document, or the CronJob
/// that owns it.
fn workload_of<'r>(reading: &'r Reading, job: &JobRun) -> Option<&'r Workload> {
    let (kind, name) = match job
        .owner
        .as_deref()
        .and_then(|o| o.strip_prefix("CronJob/"))
    {
        Some(cron) => (WorkloadKind::CronJob, cron),
        None => (WorkloadKind::Job, job.name.as_str()),
    };
    reading
        .workloads
        .iter()
        .find(|w| w.kind == kind && w.name == name)
}

/// The Job's `metadata.uid`: the value of its pods' `controller-uid`
/// label (made up from the name for a Job that has no pod).
pub fn uid(run: &Run, job: &JobRun) -> String {
    let owner = format!("Job/{}", job.name);
    run.pods
        .iter()
        .filter(|pod| pod.owner == owner)
        .find_map(|pod| {
            pod.labels
                .iter()
                .find(|(key, _)| key == "batch.kubernetes.io/controller-uid")
                .map(|(_, uid)| uid.clone())
        })
        .unwrap_or_else(|| {
            let hash = crate::manifest::canonical::fnv64a(owner.as_bytes());
            format!(
                "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
                hash >> 32,
                (hash >> 16) & 0xffff,
                hash & 0xfff,
                (hash >> 4) & 0xfff,
                hash & 0xffff_ffff_ffff
            )
        })
}

/// When the Job controller counted `pod` as finished: at the kubelet's
/// sync after the last of its containers exited (the PLEG relist,
/// `Timing::pleg`), which is when the simulator's kubelet reports the
/// pod Succeeded or Failed and the controller counts it; `None` for a pod
/// not finished then, or deleted first (its deletion counts instead).
pub fn counted_at(pod: &PodRun) -> Option<Millis> {
    let last_exit = pod
        .containers
        .iter()
        .chain(&pod.init_containers)
        .filter_map(|c| c.instances.last()?.exit.as_ref().map(|exit| exit.at))
        .max()?;
    let at = last_exit.saturating_add(Timing::default().pleg);
    let phase = pod.phase_at(at);
    let deleted = pod.deleting.is_some_and(|deleting| deleting <= at);
    (matches!(phase, "Succeeded" | "Failed") && !deleted).then_some(at)
}

fn counted(pod: &PodRun, at: Millis) -> bool {
    counted_at(pod).is_some_and(|when| when <= at)
}

/// `status.succeeded` and `status.failed` at `at`, as the Job controller
/// counted them: each counted pod, succeeded when every container's last
/// run exited 0; and, once the Job is failing (`FailureTarget`), each
/// active pod it deleted then (a deleted pod that has not succeeded
/// counts as failed, `isPodFailed`).
pub fn counts_at(run: &Run, job: &JobRun, at: Millis) -> (usize, usize) {
    let (mut succeeded, mut failed) = (0, 0);
    let owner = format!("Job/{}", job.name);
    let pods = || run.pods.iter().filter(|pod| pod.owner == owner);
    for pod in pods().filter(|pod| counted(pod, at)) {
        let ok = pod.containers.iter().chain(&pod.init_containers).all(|c| {
            c.instances
                .last()
                .and_then(|i| i.exit.as_ref())
                .is_some_and(|exit| exit.code == 0)
        });
        if ok {
            succeeded += 1;
        } else {
            failed += 1;
        }
    }
    if let Some(target) = job.conditions_at(at).find(|c| c.kind == "FailureTarget") {
        failed += pods()
            .filter(|pod| pod.deleting == Some(target.at) && !counted(pod, target.at))
            .count();
    }
    (succeeded, failed)
}

/// The status of `job` at `at`.
pub fn status_at(run: &Run, job: &JobRun, at: Millis) -> JobStatus {
    let (succeeded, failed) = counts_at(run, job, at);
    let mut active = 0;
    let mut ready = 0;
    let owner = format!("Job/{}", job.name);
    for pod in run.pods.iter() {
        if pod.owner != owner || !pod.exists_at(at) {
            continue;
        }
        // `status.active`: not being deleted, not yet counted as finished
        // by the controller (which sees the kubelet's phase a moment later).
        let deleting = pod.deleting.is_some_and(|deleting| deleting <= at);
        if !deleting && !counted(pod, at) {
            active += 1;
            ready += usize::from(pod_ready_at(pod, at));
        }
    }
    let has = |kind: &str| job.conditions_at(at).any(|c| c.kind == kind);
    let completed = job
        .conditions_at(at)
        .find(|c| c.kind == "Complete")
        .map(|c| c.at);
    let status = if has("Complete") {
        "Complete"
    } else if has("Failed") {
        "Failed"
    } else if has("FailureTarget") {
        "FailureTarget"
    } else {
        "Running"
    };
    JobStatus {
        active,
        ready,
        succeeded,
        failed,
        completed,
        status,
    }
}

/// `spec.completions` and `spec.parallelism` of a Job made from `workload`
/// (`SetDefaults_Job`: both 1 when neither is written, else parallelism 1
/// when unwritten; completions stay unset).
fn completions_parallelism(workload: Option<&Workload>) -> (Option<i64>, i64) {
    match workload.and_then(|w| w.job.as_ref()) {
        Some(spec) if spec.completions.span.is_none() && spec.parallelism.span.is_some() => {
            (None, spec.parallelism.value)
        }
        Some(spec) => (Some(spec.completions.value), spec.parallelism.value),
        None => (Some(1), 1),
    }
}

/// `layoutContainerCells` of the workload's template.
fn container_cells(workload: Option<&Workload>) -> [String; 2] {
    super::get_pods::container_cells(workload.map_or(&[][..], |w| w.pod.containers.as_slice()))
}

const WIDE: [&str; 3] = ["CONTAINERS", "IMAGES", "SELECTOR"];

/// `kubectl get jobs [NAME] [-o wide]`: the header and a row per Job;
/// empty when there is none. `name` keeps only that Job; wide adds the
/// template's containers and images and the selector.
pub fn get_jobs(
    run: &Run,
    reading: &Reading,
    at: Millis,
    name: Option<&str>,
    wide: bool,
) -> String {
    listed_table(&job_rows(run, reading, at, name, wide))
}

/// [`get_jobs`]' header and rows (`get all` names them `job.batch/NAME`).
pub fn job_rows(
    run: &Run,
    reading: &Reading,
    at: Millis,
    name: Option<&str>,
    wide: bool,
) -> Vec<Vec<String>> {
    let mut header = vec!["NAME", "STATUS", "COMPLETIONS", "DURATION", "AGE"];
    if wide {
        header.extend(WIDE);
    }
    let mut rows = vec![header.into_iter().map(String::from).collect::<Vec<_>>()];
    for job in jobs_at(run, at)
        .into_iter()
        .filter(|job| name.is_none_or(|name| job.name == name))
    {
        let status = status_at(run, job, at);
        let workload = workload_of(reading, job);
        let (completions, parallelism) = completions_parallelism(workload);
        let completions = match completions {
            Some(completions) => format!("{}/{completions}", status.succeeded),
            None if parallelism > 1 => format!("{}/1 of {parallelism}", status.succeeded),
            None => format!("{}/1", status.succeeded),
        };
        // status.startTime: the controller's first sync, at creation.
        let duration = match status.completed {
            Some(completed) => human_duration(wire(completed).saturating_sub(wire(job.created))),
            None => since(job.created, at),
        };
        let mut row = vec![
            job.name.clone(),
            status.status.to_string(),
            completions,
            duration,
            since(job.created, at),
        ];
        if wide {
            row.extend(container_cells(workload));
            row.push(format!(
                "batch.kubernetes.io/controller-uid={}",
                uid(run, job)
            ));
        }
        rows.push(row);
    }
    rows
}

/// `status.lastScheduleTime` of the CronJob `name` at `at`: the scheduled
/// time of its newest Job, read back from the Job's name
/// (`<cronjob>-<minutes since the Unix epoch>`, `getJobName`).
fn last_schedule(run: &Run, name: &str, at: Millis) -> Option<Millis> {
    let owner = format!("CronJob/{name}");
    run.jobs
        .iter()
        .filter(|job| job.owner.as_deref() == Some(owner.as_str()) && job.created <= at)
        .filter_map(scheduled_time)
        .max()
}

/// `status.active` of the CronJob `name` at `at`: its Jobs that exist and
/// have not finished, in the order they were created.
fn active_jobs<'r>(run: &'r Run, name: &str, at: Millis) -> Vec<&'r JobRun> {
    let owner = format!("CronJob/{name}");
    run.jobs
        .iter()
        .filter(|job| {
            job.owner.as_deref() == Some(owner.as_str())
                && job.exists_at(at)
                && !job
                    .conditions_at(at)
                    .any(|c| matches!(c.kind, "Complete" | "Failed"))
        })
        .collect()
}

/// `kubectl get cronjobs [NAME] [-o wide]`; empty when there is none.
/// Wide's SELECTOR is the job template's, unset (`<none>`).
pub fn get_cron_jobs(
    run: &Run,
    reading: &Reading,
    at: Millis,
    name: Option<&str>,
    wide: bool,
) -> String {
    listed_table(&cron_job_rows(run, reading, at, name, wide))
}

/// [`get_cron_jobs`]' header and rows (`get all` names them
/// `cronjob.batch/NAME`).
pub fn cron_job_rows(
    run: &Run,
    reading: &Reading,
    at: Millis,
    name: Option<&str>,
    wide: bool,
) -> Vec<Vec<String>> {
    let mut header = vec![
        "NAME",
        "SCHEDULE",
        "TIMEZONE",
        "SUSPEND",
        "ACTIVE",
        "LAST SCHEDULE",
        "AGE",
    ];
    if wide {
        header.extend(WIDE);
    }
    let mut rows = vec![header.into_iter().map(String::from).collect::<Vec<_>>()];
    for cron in cron_jobs(reading)
        .into_iter()
        .filter(|cron| name.is_none_or(|name| cron.name == name))
    {
        let Some(spec) = &cron.cron else { continue };
        let mut row = vec![
            cron.name.clone(),
            spec.schedule.value.clone(),
            "<none>".to_string(),
            title_bool(spec.suspend).to_string(),
            active_jobs(run, &cron.name, at).len().to_string(),
            last_schedule(run, &cron.name, at).map_or("<none>".to_string(), |t| since(t, at)),
            since(0, at),
        ];
        if wide {
            row.extend(container_cells(Some(cron)));
            row.push("<none>".to_string());
        }
        rows.push(row);
    }
    rows
}

fn title_bool(value: bool) -> &'static str {
    if value {
        "True"
    } else {
        "False"
    }
}

/// The labels of a Job's pod template: the written ones and the four the
/// API server adds (`generateSelector`).
fn job_template_labels(
    workload: Option<&Workload>,
    job: &JobRun,
    uid: &str,
) -> Vec<(String, String)> {
    let mut labels: Vec<(String, String)> =
        workload.map(|w| w.pod_labels.clone()).unwrap_or_default();
    for (key, value) in [
        ("batch.kubernetes.io/controller-uid", uid),
        ("batch.kubernetes.io/job-name", &job.name),
        ("controller-uid", uid),
        ("job-name", &job.name),
    ] {
        if !labels.iter().any(|(k, _)| k == key) {
            labels.push((key.to_string(), value.to_string()));
        }
    }
    labels
}

fn key_value(labels: &[(String, String)]) -> Vec<(String, String)> {
    labels
        .iter()
        .map(|(key, value)| (key.clone(), format!("{key}={value}")))
        .collect()
}

/// RFC 3339 of simulated time in UTC, whole seconds.
fn rfc3339(at: Millis) -> String {
    let unix = EPOCH_UNIX_SECONDS + at / 1000;
    let (year, month, day) = super::describe::civil_from_days(unix / 86_400);
    let of_day = unix % 86_400;
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        of_day / 3600,
        of_day / 60 % 60,
        of_day % 60
    )
}

/// The text of `kubectl describe job <job.name>` at `at` (`describeJob`).
pub fn describe_job(run: &Run, reading: &Reading, job: &JobRun, at: Millis) -> String {
    let workload = workload_of(reading, job);
    let status = status_at(run, job, at);
    let uid = uid(run, job);
    let labels = job_template_labels(workload, job, &uid);
    let mut text = Text::default();
    text.line(0, &format!("Name:\t{}", job.name));
    text.line(0, "Namespace:\tdefault");
    text.line(
        0,
        &format!("Selector:\tbatch.kubernetes.io/controller-uid={uid}"),
    );
    multiline(&mut text, "Labels", key_value(&labels));
    let cron = job.owner.as_deref().filter(|o| o.starts_with("CronJob/"));
    let annotations = match (cron, scheduled_time(job)) {
        (Some(_), Some(scheduled)) => vec![(
            "batch.kubernetes.io/cronjob-scheduled-timestamp".to_string(),
            format!(
                "batch.kubernetes.io/cronjob-scheduled-timestamp: {}",
                rfc3339(scheduled)
            ),
        )],
        _ => Vec::new(),
    };
    multiline(&mut text, "Annotations", annotations);
    if let Some(owner) = cron {
        text.line(0, &format!("Controlled By:\t{owner}"));
    }
    let (completions, parallelism) = completions_parallelism(workload);
    text.line(0, &format!("Parallelism:\t{parallelism}"));
    text.line(
        0,
        &format!(
            "Completions:\t{}",
            completions.map_or("<unset>".to_string(), |c| c.to_string())
        ),
    );
    text.line(0, "Completion Mode:\tNonIndexed");
    text.line(0, "Suspend:\tfalse");
    let spec = workload.and_then(|w| w.job.as_ref());
    text.line(
        0,
        &format!(
            "Backoff Limit:\t{}",
            spec.map_or(6, |spec| spec.backoff_limit.value)
        ),
    );
    text.line(0, &format!("Start Time:\t{}", rfc1123z(job.created)));
    if let Some(completed) = status.completed {
        text.line(0, &format!("Completed At:\t{}", rfc1123z(completed)));
        text.line(
            0,
            &format!(
                "Duration:\t{}",
                human_duration(wire(completed).saturating_sub(wire(job.created)))
            ),
        );
    }
    if let Some(deadline) = spec.and_then(|spec| spec.active_deadline_seconds.as_ref()) {
        text.line(0, &format!("Active Deadline Seconds:\t{}s", deadline.value));
    }
    text.line(
        0,
        &format!(
            "Pods Statuses:\t{} Active ({} Ready) / {} Succeeded / {} Failed",
            status.active, status.ready, status.succeeded, status.failed
        ),
    );
    if let Some(workload) = workload {
        pod_template(&mut text, &labels, &workload.pod);
    }
    let object = format!("Job/{}", job.name);
    events_section(&mut text, &events::aggregate(run, &object, at), at);
    tabwrite(&text.0, 2)
}

/// The scheduled time of a CronJob's Job, from its name.
fn scheduled_time(job: &JobRun) -> Option<Millis> {
    let minutes: u64 = job.name.rsplit_once('-')?.1.parse().ok()?;
    minutes
        .checked_mul(60)?
        .checked_sub(EPOCH_UNIX_SECONDS)?
        .checked_mul(1000)
}

/// The text of `kubectl describe cronjob <cron.name>` at `at`
/// (`describeCronJob`).
pub fn describe_cron_job(run: &Run, cron: &Workload, at: Millis) -> String {
    let mut text = Text::default();
    text.line(0, &format!("Name:\t{}", cron.name));
    text.line(0, "Namespace:\tdefault");
    text.line(0, "Labels:\t<none>");
    text.line(0, "Annotations:\t<none>");
    if let Some(spec) = &cron.cron {
        text.line(0, &format!("Schedule:\t{}", spec.schedule.value));
        text.line(
            0,
            &format!("Concurrency Policy:\t{}", spec.concurrency_policy.value),
        );
        text.line(0, &format!("Suspend:\t{}", title_bool(spec.suspend)));
    }
    text.line(0, "Successful Job History Limit:\t3");
    text.line(0, "Failed Job History Limit:\t1");
    text.line(0, "Starting Deadline Seconds:\t<unset>");
    // `describeJobTemplate`: the template's spec is not defaulted.
    text.line(0, "Selector:\t<unset>");
    let written = |setting: Option<&crate::manifest::model::Setting<i64>>| {
        setting
            .filter(|s| s.span.is_some())
            .map_or("<unset>".to_string(), |s| s.value.to_string())
    };
    let job = cron.job.as_ref();
    text.line(
        0,
        &format!("Parallelism:\t{}", written(job.map(|j| &j.parallelism))),
    );
    text.line(
        0,
        &format!("Completions:\t{}", written(job.map(|j| &j.completions))),
    );
    if let Some(deadline) = job.and_then(|j| j.active_deadline_seconds.as_ref()) {
        text.line(0, &format!("Active Deadline Seconds:\t{}s", deadline.value));
    }
    pod_template(&mut text, &cron.pod_labels, &cron.pod);
    text.line(
        0,
        &format!(
            "Last Schedule Time:\t{}",
            last_schedule(run, &cron.name, at).map_or("<unset>".to_string(), rfc1123z)
        ),
    );
    let active: Vec<&str> = active_jobs(run, &cron.name, at)
        .iter()
        .map(|job| job.name.as_str())
        .collect();
    text.line(
        0,
        &format!(
            "Active Jobs:\t{}",
            if active.is_empty() {
                "<none>".to_string()
            } else {
                active.join(", ")
            }
        ),
    );
    let object = format!("CronJob/{}", cron.name);
    events_section(&mut text, &events::aggregate(run, &object, at), at);
    tabwrite(&text.0, 2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exercise::exec::ExecContext;
    use crate::kubectl;
    use crate::manifest::read::read;
    use crate::sim::{simulate, Options};

    const JOBS: &str = include_str!("../../../../tests/golden/job-completions-deadline.yaml");
    const CRONS: &str = include_str!("../../../../tests/golden/cronjob-policies.yaml");

    fn jobs_table(text: &str, at: Millis) -> String {
        let run = simulate(text, &Options { until: Some(at) });
        get_jobs(&run, &read(text), at, None, false)
    }

    /// `batch` (3 completions, 2 at a time, 10 s pods): two pods from 0 s,
    /// counted at 13 s when the third starts, complete at 26 s; `slow`
    /// fails at its 30 s deadline and, having no completionTime, its
    /// DURATION keeps growing.
    #[test]
    fn job_rows_follow_the_controller_over_time() {
        assert_eq!(
            jobs_table(JOBS, 5_000),
            "NAME    STATUS    COMPLETIONS   DURATION   AGE\n\
             batch   Running   0/3           5s         5s\n\
             slow    Running   0/1           5s         5s\n"
        );
        assert_eq!(
            jobs_table(JOBS, 13_000),
            "NAME    STATUS    COMPLETIONS   DURATION   AGE\n\
             batch   Running   2/3           13s        13s\n\
             slow    Running   0/1           13s        13s\n"
        );
        assert_eq!(
            jobs_table(JOBS, 60_000),
            "NAME    STATUS     COMPLETIONS   DURATION   AGE\n\
             batch   Complete   3/3           26s        60s\n\
             slow    Failed     0/1           60s        60s\n"
        );
    }

    /// `status.active` drops when the controller counts a pod, not when
    /// its container exits (12 s: both pods done, none counted yet).
    #[test]
    fn pods_statuses_count_what_the_controller_counted() {
        let line = |at: Millis| {
            let run = simulate(JOBS, &Options { until: Some(at) });
            let job = run.jobs.iter().find(|j| j.name == "batch").expect("batch");
            let text = describe_job(&run, &read(JOBS), job, at);
            text.lines()
                .find(|l| l.starts_with("Pods Statuses:"))
                .unwrap_or_default()
                .to_string()
        };
        assert_eq!(
            line(5_000),
            "Pods Statuses:    2 Active (2 Ready) / 0 Succeeded / 0 Failed"
        );
        assert_eq!(
            line(12_000),
            "Pods Statuses:    2 Active (0 Ready) / 0 Succeeded / 0 Failed"
        );
        assert_eq!(
            line(13_000),
            "Pods Statuses:    1 Active (0 Ready) / 2 Succeeded / 0 Failed"
        );
        assert_eq!(
            line(40_000),
            "Pods Statuses:    0 Active (0 Ready) / 3 Succeeded / 0 Failed"
        );
    }

    /// Four CronJobs every minute, Jobs of 90 s, at 200 s: Allow runs two
    /// at once, Forbid one, Replace has deleted its first two Jobs (gone
    /// from `get jobs`), the suspended one never ran.
    #[test]
    fn cron_jobs_at_200_seconds() {
        let at = 200_000;
        let run = simulate(CRONS, &Options { until: Some(at) });
        let reading = read(CRONS);
        assert_eq!(
            get_cron_jobs(&run, &reading, at, None, false),
            "NAME      SCHEDULE    TIMEZONE   SUSPEND   ACTIVE   LAST SCHEDULE   AGE\n\
             allow     * * * * *   <none>     False     2        20s             3m20s\n\
             forbid    * * * * *   <none>     False     1        80s             3m20s\n\
             paused    * * * * *   <none>     True      0        <none>          3m20s\n\
             replace   * * * * *   <none>     False     1        20s             3m20s\n"
        );
        let jobs = get_jobs(&run, &reading, at, None, false);
        assert!(jobs.contains("replace-29453763   Running"), "{jobs}");
        assert!(!jobs.contains("replace-29453761"), "{jobs}");
        assert!(!jobs.contains("replace-29453762"), "{jobs}");
        let replace = cron_jobs(&reading)
            .into_iter()
            .find(|c| c.name == "replace")
            .expect("replace");
        let text = describe_cron_job(&run, replace, at);
        for line in [
            "Concurrency Policy:            Replace\n",
            "Last Schedule Time:  Thu, 01 Jan 2026 00:03:00 +0000\n",
            "Active Jobs:         replace-29453763\n",
            "  Normal  SuccessfulDelete  20s    cronjob-controller  Deleted job replace-29453762\n",
        ] {
            assert!(text.contains(line), "{line:?} in\n{text}");
        }
        let job = run
            .jobs
            .iter()
            .find(|j| j.name == "allow-29453762")
            .expect("allow's second Job");
        let text = describe_job(&run, &reading, job, at);
        for line in [
            "Annotations:      batch.kubernetes.io/cronjob-scheduled-timestamp: 2026-01-01T00:02:00Z\n",
            "Controlled By:    CronJob/allow\n",
        ] {
            assert!(text.contains(line), "{line:?} in\n{text}");
        }
    }

    /// The terminal's lines: aliases, exact names, prefixes, NotFound.
    #[test]
    fn job_lines_resolve_names_as_kubectl_does() {
        let at = 200_000;
        let run = simulate(CRONS, &Options { until: Some(at) });
        let context = ExecContext::new(CRONS, &run);
        let line = |line: &str| kubectl::run(&context, line, at);
        let all = line("get cronjobs").stdout;
        for alias in [
            "get cj",
            "get cronjob",
            "get cronjobs.batch",
            "get CronJobs",
        ] {
            assert_eq!(line(alias).stdout, all, "{alias}");
        }
        let jobs = line("get jobs").stdout;
        for alias in ["get job", "get jobs.batch"] {
            assert_eq!(line(alias).stdout, jobs, "{alias}");
        }
        let one = line("get job allow-29453762");
        assert_eq!(one.stdout.lines().count(), 2, "{}", one.stdout);
        let exact = line("describe cronjob replace").stdout;
        assert_eq!(line("describe cj/replace").stdout, exact);
        assert_eq!(line("describe cj rep").stdout, format!("{exact}\n"));
        for (input, error) in [
            (
                "get jobs nope",
                "Error from server (NotFound): jobs.batch \"nope\" not found\n",
            ),
            (
                "describe job nope",
                "Error from server (NotFound): jobs.batch \"nope\" not found\n",
            ),
            (
                "get cj nope",
                "Error from server (NotFound): cronjobs.batch \"nope\" not found\n",
            ),
            (
                "describe rs nope",
                "Error from server (NotFound): replicasets.apps \"nope\" not found\n",
            ),
        ] {
            let out = line(input);
            assert_eq!(
                (out.stdout.as_str(), out.stderr.as_str(), out.exit_code),
                ("", error, 1),
                "{input}"
            );
        }
        let other = kubectl::run(&context, "get jobs -n other", at);
        assert_eq!(other.stderr, "No resources found in other namespace.\n");
    }

    /// Tab offers the Jobs that exist at the cursor and the CronJobs.
    #[test]
    fn tab_offers_job_and_cronjob_names() {
        let at = 200_000;
        let run = simulate(CRONS, &Options { until: Some(at) });
        let context = ExecContext::new(CRONS, &run);
        let offer = |line: &str| kubectl::session::complete(&context, line, at, false).candidates;
        assert_eq!(offer("kubectl describe cr"), ["cronjob"]);
        assert_eq!(offer("kubectl get cr"), ["cronjobs"]);
        assert_eq!(offer("kubectl get cronjobs r"), ["replace"]);
        assert_eq!(offer("kubectl describe job replace"), ["replace-29453763"]);
    }

    /// The counts derived at the end of a run are the controller's own
    /// (`JobRun::succeeded`, `failed`), on every golden file with Jobs.
    #[test]
    fn derived_counts_agree_with_the_controller_at_the_end() {
        for text in [
            JOBS,
            CRONS,
            include_str!("../../../../tests/golden/job-never-backoff.yaml"),
            include_str!("../../../../tests/golden/job-onfailure-restarts.yaml"),
            include_str!("../../../../tests/golden/gpu-job-frees-capacity.yaml"),
        ] {
            let run = simulate(text, &Options::default());
            assert!(!run.jobs.is_empty());
            for job in run.jobs.iter().filter(|job| job.deleted.is_none()) {
                assert_eq!(
                    counts_at(&run, job, run.end),
                    (job.succeeded, job.failed),
                    "{}",
                    job.name
                );
                // The controller decided on these counts at the instant it
                // set SuccessCriteriaMet or FailureTarget: the derived
                // counting time is not later than its own.
                if let Some(decided) = job.conditions.first() {
                    assert_eq!(
                        counts_at(&run, job, decided.at),
                        (job.succeeded, job.failed),
                        "{} at {}",
                        job.name,
                        decided.at
                    );
                }
            }
        }
    }

    /// `-o wide`: the template's containers and images, the selector (the
    /// Job's generated one; a CronJob's template has none).
    #[test]
    fn wide_adds_containers_images_and_the_selector() {
        let at = 20_000;
        let run = simulate(JOBS, &Options { until: Some(at) });
        let reading = read(JOBS);
        let batch = run.jobs.iter().find(|j| j.name == "batch").expect("batch");
        let table = get_jobs(&run, &reading, at, Some("batch"), true);
        assert_eq!(
            table,
            format!(
                "NAME    STATUS    COMPLETIONS   DURATION   AGE   CONTAINERS   IMAGES                           SELECTOR\n\
                 batch   Running   2/3           20s        20s   work         registry.example.com/batch:1.0   batch.kubernetes.io/controller-uid={}\n",
                uid(&run, batch)
            )
        );
        let run = simulate(CRONS, &Options { until: Some(at) });
        let table = get_cron_jobs(&run, &read(CRONS), at, Some("paused"), true);
        assert!(
            table.ends_with("main         registry.example.com/report:1.0   <none>\n"),
            "{table}"
        );
    }
}
