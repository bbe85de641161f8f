//! An exercise's goals, each checked on the simulated run of the learner's
//! text (or on the objects the API server would store), never by matching
//! the text: a goal holds when the cluster behaves as asked.
//!
//! [`check`] simulates the text once over the exercise's own window: the
//! starting file's duration or every goal's deadline plus a minute, whichever
//! is later. The learner's `duration` is not used, so shortening it cannot
//! hide a later crash and lengthening it cannot make a check slow. It
//! returns one [`GoalResult`] per goal, the implicit [`Goal::Accepted`] first.

use crate::diagnostic::{Diagnostic, Severity};
use crate::explain::get_pods;
use crate::i18n::Text;
use crate::lint::{lint, read, Reading};
use crate::manifest::duration::Millis;
use crate::manifest::model::{Workload, WorkloadKind};
use crate::manifest::path::ProgramField;
use crate::manifest::quantity;

use crate::manifest::yaml::Node;
use crate::sim::{self, PodRun, Run};
use crate::text;

mod forbid;

use super::exec::{split_command, ExecContext};
use super::{time, Exercise};

pub use crate::manifest::exercise::Goal;

/// The outcome of one goal.
#[derive(Clone, Debug, PartialEq)]
pub struct GoalResult {
    pub goal: Goal,
    /// The goal in words.
    pub label: Text,
    pub passed: bool,
    /// Why, with the observed value.
    pub why: Text,
}

/// The rules whose errors mean the API server would not store the object.
const REJECTED_BY_API: &[&str] = &["PL001", "PL002", "PL003", "PL005", "PL101", "PL102"];

/// How far the goals need the simulation: the latest `within` plus a
/// minute, and at least the starting Scenario's duration.
pub fn horizon(exercise: &Exercise, start: &Reading) -> Millis {
    exercise
        .goals
        .iter()
        .filter_map(|goal| match goal {
            Goal::AllReady { within } | Goal::JobSucceeded { within, .. } => {
                Some(within.saturating_add(60_000))
            }
            _ => None,
        })
        .chain([start.scenario.duration.value])
        .max()
        .unwrap_or(0)
}

/// Simulates `text` (the learner's whole file; its Exercise document may be
/// absent) and checks every goal of `exercise`.
pub fn check(exercise: &Exercise, text: &str) -> Vec<GoalResult> {
    check_with(exercise, text, None)
}

/// `check`, reusing `run` (the caller's simulation of `text` with
/// `sim::Options::default()`, as the page has one) when it ends where the
/// goals need: the simulation is deterministic, so it is then the very run
/// `check` would make. Simulated anew otherwise.
pub fn check_with(exercise: &Exercise, text: &str, run: Option<&Run>) -> Vec<GoalResult> {
    check_linted(exercise, text, run, &lint(text).diagnostics)
}

/// `check_with`, given the diagnostics of `lint(text)` computed elsewhere
/// (the page's are linted in its worker, and the rules stay out of the
/// page): the [`Goal::Accepted`] goal reads them instead of linting.
pub fn check_linted(
    exercise: &Exercise,
    text: &str,
    run: Option<&Run>,
    diagnostics: &[Diagnostic],
) -> Vec<GoalResult> {
    let reading = read(text);
    let start = read(&exercise.start);
    let horizon = horizon(exercise, &start);
    let own;
    let run = match run {
        Some(run) if run.end == horizon => run,
        _ => {
            own = sim::simulate_reading(
                &reading,
                reading.seed,
                &sim::Options {
                    until: Some(horizon),
                },
            );
            &own
        }
    };
    let world = World {
        text,
        diagnostics,
        reading: &reading,
        start: &start,
        run,
        exec: ExecContext::new(text, run),
    };
    std::iter::once(Goal::Accepted)
        .chain(exercise.goals.iter().cloned())
        .map(|goal| {
            let (passed, why) = world.check(&goal);
            GoalResult {
                label: goal.label(),
                goal,
                passed,
                why,
            }
        })
        .collect()
}

/// True when every goal holds.
pub fn solved(results: &[GoalResult]) -> bool {
    !results.is_empty() && results.iter().all(|result| result.passed)
}

/// One line under the results: solved, or how many goals hold.
pub fn summary(results: &[GoalResult]) -> Text {
    let total = results.len();
    let held = results.iter().filter(|result| result.passed).count();
    if solved(results) {
        text!(
            "Solved: all {total} goals hold.",
            "解開了：{total} 個目標全部達成。"
        )
    } else {
        text!(
            "{held} of {total} goals hold.",
            "{total} 個目標中達成 {held} 個。"
        )
    }
}

struct World<'a> {
    text: &'a str,
    /// `lint(text)`'s diagnostics.
    diagnostics: &'a [Diagnostic],
    reading: &'a Reading,
    start: &'a Reading,
    run: &'a Run,
    exec: ExecContext<'a>,
}

fn is_batch_owner(owner: &str) -> bool {
    owner.starts_with("Job/") || owner.starts_with("CronJob/")
}

fn pod_ready(pod: &PodRun, at: Millis) -> bool {
    let statuses = pod.statuses_at(at);
    !statuses.is_empty() && statuses.iter().all(|status| status.ready)
}

/// Pods the serving workloads of a reading ask for.
fn serving_replicas(workloads: &[Workload]) -> i64 {
    workloads
        .iter()
        .filter(|workload| !workload.kind.is_batch())
        .map(|workload| match workload.kind {
            WorkloadKind::Pod => 1,
            _ => workload.replicas.as_ref().map_or(1, |r| r.value.max(0)),
        })
        .sum()
}

impl World<'_> {
    fn check(&self, goal: &Goal) -> (bool, Text) {
        let end = self.run.end;
        match goal {
            Goal::Accepted => self.accepted(),
            Goal::AllReady { within } => self.all_ready(*within, end),
            Goal::MaxRestarts(limit) => {
                let worst = self
                    .run
                    .pods
                    .iter()
                    // Init containers and sidecars restart too (an init
                    // container in `Init:CrashLoopBackOff`).
                    .flat_map(|pod| {
                        pod.init_containers
                            .iter()
                            .chain(&pod.containers)
                            .map(move |c| (pod, c, c.instances.len().saturating_sub(1)))
                    })
                    .max_by_key(|(_, _, restarts)| *restarts);
                match worst {
                    Some((pod, container, restarts))
                        if i64::try_from(restarts).unwrap_or(i64::MAX) > *limit =>
                    {
                        let (pod, container) = (&pod.name, &container.name);
                        (
                            false,
                            text!(
                                "container {container} of {pod} restarted {restarts} times",
                                "{pod} 的容器 {container} 重啟了 {restarts} 次"
                            ),
                        )
                    }
                    Some((_, _, restarts)) => (
                        true,
                        text!(
                            "the most restarts of any container: {restarts}",
                            "重啟最多的容器：{restarts} 次"
                        ),
                    ),
                    None => (false, no_pods()),
                }
            }
            Goal::JobSucceeded { within, name } => self.job_succeeded(*within, name.as_deref()),
            Goal::NoPending => self.no_pending(end),
            Goal::Forbid {
                more_gpus,
                program_changes,
                remove_taints,
            } => self.forbid(*more_gpus, *program_changes, *remove_taints),
            Goal::MaxMemoryLimit { bytes, written } => self.max_memory_limit(*bytes, written),
            Goal::Edge {
                field,
                step,
                written,
            } => self.edge(*field, *step, written, end),
            Goal::Exec {
                container,
                command,
                equals,
            } => self.exec_equals(container, command, equals, end),
            Goal::SeesGpu { container } => self.sees_gpu(container, end),
            Goal::ReadyOnlyWhenLoaded => self.ready_only_when_loaded(),
            Goal::KeepActions => self.keep_actions(),
            Goal::MaxP99(limit) => self.max_p99(*limit),
            Goal::MaxFailedRequests { max, cause } => {
                self.max_failed_requests(*max, cause.as_deref())
            }
            Goal::RolloutComplete { name } => self.rollout_complete(name, end),
        }
    }

    fn accepted(&self) -> (bool, Text) {
        // The Exercise document is podlab's, never sent to the API server.
        let index = crate::span::LineIndex::new(self.text);
        let stream = crate::manifest::yaml::parse(self.text, &index, &Default::default());
        let exercise_documents: Vec<crate::span::Span> = stream
            .documents
            .iter()
            .filter(|document| {
                document
                    .root
                    .as_ref()
                    .and_then(|root| root.get("kind"))
                    .and_then(Node::as_str)
                    == Some("Exercise")
            })
            .map(|document| document.span)
            .collect();
        let rejected = self.diagnostics.iter().find(|diagnostic| {
            diagnostic.severity == Severity::Error
                && REJECTED_BY_API.contains(&diagnostic.rule)
                && !exercise_documents.iter().any(|span| {
                    span.start <= diagnostic.span.start && diagnostic.span.start < span.end
                })
        });
        match rejected {
            Some(diagnostic) => {
                let line = index.line_col(self.text, diagnostic.span.start).line;
                let rule = diagnostic.rule;
                let (en, zh) = (&diagnostic.message.en, &diagnostic.message.zh_tw);
                (
                    false,
                    text!(
                        "line {line}: {en} ({rule}); the API server would reject this object",
                        "第 {line} 行：{zh}（{rule}）；API server 會拒絕這個物件"
                    ),
                )
            }
            None => (
                true,
                Text::new("no YAML, field or value error", "沒有 YAML、欄位或數值錯誤"),
            ),
        }
    }

    fn all_ready(&self, within: Millis, end: Millis) -> (bool, Text) {
        let wanted = serving_replicas(&self.start.workloads);
        for at in [within.min(end), end] {
            let serving: Vec<&PodRun> = self
                .run
                .pods
                .iter()
                .filter(|pod| !is_batch_owner(&pod.owner) && pod.exists_at(at))
                .collect();
            let when = time(at);
            if let Some(pod) = serving.iter().find(|pod| !pod_ready(pod, at)) {
                let row = get_pods::row(pod, at);
                let (name, ready, status) = (&pod.name, &row.ready, &row.status);
                return (
                    false,
                    text!(
                        "at {when}, {name} is not Ready ({ready}, {status})",
                        "在 {when} 時，{name} 沒有 Ready（{ready}，{status}）"
                    ),
                );
            }
            let ready = i64::try_from(serving.len()).unwrap_or(i64::MAX);
            if ready == 0 || ready < wanted {
                return (
                    false,
                    text!(
                        "at {when}, {ready} pod(s) Ready; the exercise's workloads ask for {wanted}",
                        "在 {when} 時只有 {ready} 個 Pod Ready；這題的工作負載需要 {wanted} 個"
                    ),
                );
            }
        }
        let count = self
            .run
            .pods
            .iter()
            .filter(|pod| !is_batch_owner(&pod.owner) && pod.exists_at(end))
            .count();
        let (within, end) = (time(within), time(end));
        (
            true,
            text!(
                "{count} pod(s) Ready at {within} and at {end}",
                "{count} 個 Pod 在 {within} 與 {end} 時都是 Ready"
            ),
        )
    }

    /// `edge`: the learner's value of the first program's `field`, written
    /// into the starting file, keeps it healthy (every serving pod Ready at
    /// the end, no restart), and one `step` more does not: the edge of the
    /// healthy region the outcome map draws (docs/map.md). Two runs of the
    /// starting file, so nothing else the learner changed counts.
    fn edge(&self, field: ProgramField, step: i128, written: &str, end: Millis) -> (bool, Text) {
        let name = field.as_str();
        let first = crate::manifest::path::first_program(&self.start.workloads).unwrap_or("");
        let mut containers = self
            .reading
            .workloads
            .iter()
            .flat_map(|w| &w.pod.containers);
        let Some(learner) = containers.find(|container| container.name == first) else {
            return (false, no_pods());
        };
        let value = self.reading.scenario.program(learner).number(field);
        let healthy_with = |value: i128| {
            let mut start = self.start.clone();
            start.scenario.set_number(first, field, value);
            let run = sim::simulate_reading(&start, start.seed, &sim::Options { until: Some(end) });
            let mut serving = (run.pods.iter())
                .filter(|pod| !is_batch_owner(&pod.owner) && pod.exists_at(run.end))
                .peekable();
            let once = |pod: &PodRun| {
                (pod.containers.iter().chain(&pod.init_containers)).all(|c| c.instances.len() <= 1)
            };
            serving.peek().is_some() && serving.all(|pod| pod_ready(pod, run.end) && once(pod))
        };
        let shown = match field {
            ProgramField::Startup => {
                crate::manifest::duration::format(Millis::try_from(value.max(0)).unwrap_or(0))
            }
            ProgramField::Workers => value.to_string(),
            _ => quantity::format_bytes(value),
        };
        if !healthy_with(value) {
            return (
                false,
                text!(
                    "with `{name}` {shown} the starting file does not end with every pod Ready and no restart: the edge is lower",
                    "`{name}` 設為 {shown} 時，原本的檔案無法讓每個 Pod 都 Ready 且不重啟：邊界更低"
                ),
            );
        }
        if healthy_with(value.saturating_add(step)) {
            return (
                false,
                text!(
                    "with `{name}` {shown} + {written} the starting file is still healthy: the edge is higher",
                    "`{name}` 設為 {shown} + {written} 時，原本的檔案仍然健康：邊界更高"
                ),
            );
        }
        (
            true,
            text!(
                "healthy with `{name}` {shown}, not with {written} more: that is the edge",
                "`{name}` 為 {shown} 時健康，再多 {written} 就不行：這就是邊界"
            ),
        )
    }

    fn job_succeeded(&self, within: Millis, name: Option<&str>) -> (bool, Text) {
        let jobs: Vec<&sim::JobRun> = self
            .run
            .jobs
            .iter()
            .filter(|job| match name {
                Some(name) => {
                    job.name == name || job.owner.as_deref() == Some(&format!("CronJob/{name}"))
                }
                None => true,
            })
            .collect();
        let complete_at = |job: &sim::JobRun| {
            job.conditions
                .iter()
                .find(|condition| condition.kind == "Complete")
                .map(|condition| condition.at)
        };
        let failed = |job: &sim::JobRun| {
            job.conditions
                .iter()
                .find(|condition| condition.kind == "Failed")
                .map(|condition| condition.reason)
        };
        let deadline = time(within);
        if jobs.is_empty() {
            return (false, text!("no Job was created", "沒有建立任何 Job"));
        }
        if let Some(job) = jobs.iter().find(|job| failed(job).is_some()) {
            let (job_name, reason) = (&job.name, failed(job).unwrap_or(""));
            let (succeeded, failed_pods) = (job.succeeded, job.failed);
            return (
                false,
                text!(
                    "Job {job_name} failed ({reason}): {succeeded} succeeded, {failed_pods} failed pod(s)",
                    "Job {job_name} 失敗（{reason}）：成功 {succeeded} 個、失敗 {failed_pods} 個 Pod"
                ),
            );
        }
        // With a name (a CronJob's runs) one Complete run is enough; without
        // one every Job must complete.
        let done: Vec<(&str, Millis)> = jobs
            .iter()
            .filter_map(|job| complete_at(job).map(|at| (job.name.as_str(), at)))
            .filter(|(_, at)| *at <= within)
            .collect();
        let enough = if name.is_some() {
            !done.is_empty()
        } else {
            done.len() == jobs.len()
        };
        match (enough, done.first()) {
            (true, Some((job_name, at))) => {
                let at = time(*at);
                (
                    true,
                    text!(
                        "Job {job_name} Complete at {at}",
                        "Job {job_name} 在 {at} 時 Complete"
                    ),
                )
            }
            _ => {
                let job_name = jobs
                    .iter()
                    .find(|job| complete_at(job).is_none_or(|at| at > within))
                    .or(jobs.first())
                    .map_or("", |job| job.name.as_str());
                (
                    false,
                    text!(
                        "Job {job_name} is not Complete within {deadline}",
                        "Job {job_name} 沒有在 {deadline} 內 Complete"
                    ),
                )
            }
        }
    }

    fn no_pending(&self, end: Millis) -> (bool, Text) {
        for pod in &self.run.pods {
            let waited = match &pod.node {
                Some((_, bound)) => bound.saturating_sub(pod.created),
                None => {
                    let gone = pod.deleted.unwrap_or(end);
                    gone.saturating_sub(pod.created).max(1_000)
                }
            };
            if waited >= 1_000 {
                let name = &pod.name;
                let message = self
                    .run
                    .events
                    .iter()
                    .find(|event| {
                        event.reason == "FailedScheduling"
                            && *event.object == *format!("Pod/{name}")
                    })
                    .map(|event| event.message.clone())
                    .unwrap_or_default();
                let waited = time(waited);
                return (
                    false,
                    match pod.node {
                        Some(_) => text!(
                            "{name} waited {waited} for a node: {message}",
                            "{name} 等了 {waited} 才排程到節點：{message}"
                        ),
                        None => text!(
                            "{name} was never scheduled: {message}",
                            "{name} 一直沒有被排程：{message}"
                        ),
                    },
                );
            }
        }
        let count = self.run.pods.len();
        (
            true,
            text!(
                "all {count} pod(s) were scheduled at once",
                "{count} 個 Pod 都立刻排程成功"
            ),
        )
    }

    fn max_memory_limit(&self, bytes: i128, written: &str) -> (bool, Text) {
        let mut largest: Option<(String, i128)> = None;
        for workload in &self.reading.workloads {
            // Init containers too: each runs with its own limit, and a
            // sidecar for the pod's whole life.
            let pod = &workload.pod;
            for container in pod.init_containers.iter().chain(&pod.containers) {
                let name = &container.name;
                let limit = container
                    .resources
                    .limit("memory")
                    .and_then(|amount| amount.quantity)
                    .map(|quantity| quantity.value());
                let Some(limit) = limit else {
                    return (
                        false,
                        text!(
                            "container {name} has no memory limit",
                            "容器 {name} 沒有記憶體 limit"
                        ),
                    );
                };
                if largest.as_ref().is_none_or(|(_, known)| limit > *known) {
                    largest = Some((name.clone(), limit));
                }
            }
        }
        match largest {
            Some((name, limit)) => {
                let shown = quantity::format_bytes(limit);
                (
                    limit <= bytes,
                    if limit <= bytes {
                        text!(
                            "the largest memory limit is {shown} ({name})",
                            "最大的記憶體 limit 是 {shown}（{name}）"
                        )
                    } else {
                        text!(
                            "container {name} has a memory limit of {shown}, more than {written}",
                            "容器 {name} 的記憶體 limit 是 {shown}，超過 {written}"
                        )
                    },
                )
            }
            None => (false, no_pods()),
        }
    }

    /// Pods with `container` that exist at `at`.
    fn pods_with<'r>(&'r self, container: &'r str, at: Millis) -> impl Iterator<Item = &'r PodRun> {
        self.run.pods.iter().filter(move |pod| {
            pod.exists_at(at) && pod.spec.containers.iter().any(|c| c.name == container)
        })
    }

    fn exec_equals(
        &self,
        container: &str,
        command: &str,
        equals: &str,
        at: Millis,
    ) -> (bool, Text) {
        let argv = split_command(command);
        let mut seen = 0;
        let mut last = String::new();
        for pod in self.pods_with(container, at) {
            seen += 1;
            let output = self.exec.exec(pod, container, &argv, at);
            let printed = output.stdout.trim().to_string();
            let name = &pod.name;
            if output.exit_code != 0 {
                let error = output.stderr.trim().to_string();
                let code = output.exit_code;
                return (
                    false,
                    text!(
                        "in {name}: exit code {code} {error}",
                        "在 {name} 裡：exit code {code} {error}"
                    ),
                );
            }
            if printed != equals.trim() {
                return (
                    false,
                    text!(
                        "in {name} it prints {printed}, not {equals}",
                        "在 {name} 裡印出的是 {printed}，不是 {equals}"
                    ),
                );
            }
            last = printed;
        }
        if seen == 0 {
            return (
                false,
                text!(
                    "no pod with a container {container} at the end",
                    "最後沒有任何 Pod 有容器 {container}"
                ),
            );
        }
        (
            true,
            text!(
                "all {seen} pod(s) print {last}",
                "{seen} 個 Pod 都印出 {last}"
            ),
        )
    }

    fn sees_gpu(&self, container: &str, at: Millis) -> (bool, Text) {
        let mut seen = 0;
        let mut name_seen = String::new();
        for pod in self.pods_with(container, at) {
            seen += 1;
            let output = self
                .exec
                .exec(pod, container, &["nvidia-smi".to_string()], at);
            let name = &pod.name;
            if output.exit_code != 0 {
                let said = output
                    .stdout
                    .lines()
                    .chain(output.stderr.lines())
                    .next()
                    .unwrap_or("")
                    .to_string();
                return (
                    false,
                    text!(
                        "`nvidia-smi` in {name}: {said}",
                        "在 {name} 裡執行 `nvidia-smi`：{said}"
                    ),
                );
            }
            let spec = pod.spec.containers.iter().find(|c| c.name == container);
            if let Some(view) = spec.and_then(|spec| self.exec.gpu_view(pod, spec, at)) {
                name_seen = view.name;
            }
        }
        if seen == 0 {
            return (
                false,
                text!(
                    "no pod with a container {container} at the end",
                    "最後沒有任何 Pod 有容器 {container}"
                ),
            );
        }
        (
            true,
            text!(
                "all {seen} pod(s) see a {name_seen}",
                "{seen} 個 Pod 都看得到 {name_seen}"
            ),
        )
    }

    fn ready_only_when_loaded(&self) -> (bool, Text) {
        for pod in &self.run.pods {
            // A sidecar's readiness counts toward the pod's: it is checked
            // as an app container is (a regular init container loads nothing).
            for container in pod.init_containers.iter().chain(&pod.containers) {
                let startup = container.program.startup.value;
                for instance in &container.instances {
                    let loaded = instance.started.saturating_add(startup);
                    if let Some((from, _)) = instance.ready.iter().find(|(from, _)| *from < loaded)
                    {
                        let (name, ready_at, loaded_at) = (&pod.name, time(*from), time(loaded));
                        return (
                            false,
                            text!(
                                "{name} was Ready at {ready_at}, but its model answers only from {loaded_at}: requests in between fail",
                                "{name} 在 {ready_at} 就 Ready 了，但模型要到 {loaded_at} 才能回應：這段時間的請求都會失敗"
                            ),
                        );
                    }
                }
            }
        }
        (
            true,
            Text::new(
                "every pod became Ready only after its model had loaded",
                "每個 Pod 都是在模型載入完成後才 Ready",
            ),
        )
    }
}

impl World<'_> {
    /// `rolloutComplete`: read from the run's Deployment record (its
    /// conditions and ReplicaSets, `sim/rollout.rs`), not from the pods.
    fn rollout_complete(&self, name: &str, end: Millis) -> (bool, Text) {
        let Some(deployment) = self.run.deployments.iter().find(|d| d.name == name) else {
            return (
                false,
                text!(
                    "there is no Deployment {name}",
                    "沒有名為 {name} 的 Deployment"
                ),
            );
        };
        let timed_out = deployment.conditions.iter().find_map(|(at, conditions)| {
            conditions
                .iter()
                .find(|c| c.kind == "Progressing" && c.reason == "ProgressDeadlineExceeded")
                .map(|c| (time(*at), &c.message))
        });
        if let Some((at, message)) = timed_out {
            return (
                false,
                text!(
                    "at {at}, Progressing False ProgressDeadlineExceeded: {message}",
                    "在 {at} 時 Progressing 變成 False ProgressDeadlineExceeded：{message}"
                ),
            );
        }
        // The image the starting file's Scenario rolls out to: removing the
        // rollout is not a fix.
        let image = self
            .start
            .scenario
            .rollouts
            .iter()
            .filter(|rollout| rollout.workload == name)
            .max_by_key(|rollout| rollout.at)
            .map(|rollout| rollout.image.as_str());
        let new = deployment.new_replica_set_at(end);
        if let Some(image) = image {
            if !new.is_some_and(|rs| rs.images.iter().any(|(_, written)| written == image)) {
                return (
                    false,
                    text!(
                        "Deployment {name} was never rolled out to {image}",
                        "Deployment {name} 從來沒有 rollout 到 {image}"
                    ),
                );
            }
        }
        let status = crate::explain::deployment::status_at(self.run, deployment, end);
        let (updated, available, desired) = (status.updated, status.available, status.desired);
        let old = status.replicas.saturating_sub(updated);
        match deployment
            .conditions_at(end)
            .iter()
            .find(|c| c.kind == "Progressing" && c.reason == "NewReplicaSetAvailable")
        {
            Some(condition) if desired > 0 => {
                let at = time(condition.last_update);
                (
                    true,
                    text!(
                        "Deployment {name} completed its rollout at {at}: {updated}/{desired} pods updated and available",
                        "Deployment {name} 在 {at} 完成 rollout：{updated}/{desired} 個 Pod 已更新且可用"
                    ),
                )
            }
            _ => (
                false,
                text!(
                    "at the end Deployment {name} has {updated} of {desired} pods updated, {available} available, {old} old ones left",
                    "到最後 Deployment {name} 只有 {updated}/{desired} 個 Pod 已更新、{available} 個可用，還剩 {old} 個舊的"
                ),
            ),
        }
    }

    /// The Scenario's traffic over the whole run (`docs/traffic.md`).
    fn traffic(&self) -> Option<crate::sim::traffic::Stats> {
        let traffic = self.run.traffic.as_ref()?;
        Some(traffic.stats(0, self.run.end))
    }

    fn max_p99(&self, limit: Millis) -> (bool, Text) {
        let Some(stats) = self.traffic() else {
            return (false, no_traffic());
        };
        match stats.p99 {
            None => (
                false,
                Text::new("no request was answered", "沒有任何請求得到回應"),
            ),
            Some(p99) => {
                let shown = crate::explain::traffic::latency(p99);
                (
                    p99 <= limit.saturating_mul(1000),
                    text!("P99 latency: {shown}", "P99 延遲：{shown}"),
                )
            }
        }
    }

    fn max_failed_requests(&self, limit: i64, cause: Option<&str>) -> (bool, Text) {
        use crate::sim::traffic::Failure;
        let Some(stats) = self.traffic() else {
            return (false, no_traffic());
        };
        let arrived = stats.arrived;
        let (failed, word) =
            match cause.and_then(|c| Failure::ALL.into_iter().find(|f| f.key() == c)) {
                Some(failure) => (
                    stats.failed(failure),
                    crate::explain::traffic::failure_word(failure),
                ),
                None => (stats.failed_total(), Text::new("failed", "失敗")),
            };
        let (word_en, word_zh) = (&word.en, &word.zh_tw);
        (
            i64::try_from(failed).unwrap_or(i64::MAX) <= limit,
            text!(
                "{failed} of {arrived} requests: {word_en}",
                "{arrived} 個請求中有 {failed} 個：{word_zh}"
            ),
        )
    }
}

fn no_traffic() -> Text {
    Text::new(
        "the Scenario sends no traffic (`spec.traffic`)",
        "Scenario 沒有送出流量（`spec.traffic`）",
    )
}

fn no_pods() -> Text {
    Text::new("no pod ran", "沒有任何 Pod 執行")
}
