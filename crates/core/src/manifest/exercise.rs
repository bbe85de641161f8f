//! The `kind: Exercise` document (`podlab.dev/v1alpha1`), lowered to
//! [`Exercise`]: its texts, tags, goals and interview, as data. The schema
//! it was checked against is `schema::EXERCISE_SPEC`, beside it; `lint`
//! lowers an Exercise document found in a file with [`lower`], and
//! `exercise/` (above the linter and the simulator) checks the goals, runs
//! the interview and embeds the library, re-exporting these types.
//!
//! Like the rest of the core, lowering never fails: fields of the wrong
//! shape were reported by `manifest/validate.rs` (PL002/PL003 against
//! `schema::EXERCISE_SPEC`); what the schema cannot say (a text in one
//! language only, an unknown tag, a goal with two keys) is reported here as
//! PL003 at the offending node, and the exercise is returned only when
//! nothing required is missing.

use crate::diagnostic::Diagnostic;
use crate::i18n::Text;
use crate::manifest::duration::{self, Millis};
use crate::manifest::path::ProgramField;
use crate::manifest::quantity::{self, Quantity};
use crate::manifest::validate::invalid_value;
use crate::manifest::yaml::Node;
use crate::span::Span;
use crate::text;

/// The filters of the exercise index (issue 5, item 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Tag {
    Probes,
    Memory,
    Gpu,
    Jobs,
    Silent,
    /// Requests through a Service (docs/traffic.md).
    Traffic,
}

impl Tag {
    pub const ALL: [Tag; 6] = [
        Tag::Probes,
        Tag::Memory,
        Tag::Gpu,
        Tag::Jobs,
        Tag::Silent,
        Tag::Traffic,
    ];

    pub fn parse(written: &str) -> Option<Tag> {
        Tag::ALL.into_iter().find(|tag| tag.as_str() == written)
    }

    /// As written in the file and in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Tag::Probes => "probes",
            Tag::Memory => "memory",
            Tag::Gpu => "gpu",
            Tag::Jobs => "jobs",
            Tag::Silent => "silent",
            Tag::Traffic => "traffic",
        }
    }

    /// The filter's label.
    pub fn label(self) -> Text {
        match self {
            Tag::Probes => Text::new("probes", "探針"),
            Tag::Memory => Text::new("memory", "記憶體"),
            Tag::Gpu => Text::new("GPU", "GPU"),
            Tag::Jobs => Text::new("jobs", "Job"),
            Tag::Silent => Text::new("silent failures", "無聲壞掉"),
            Tag::Traffic => Text::new("traffic", "流量"),
        }
    }
}

/// One exercise, lowered from its `kind: Exercise` document.
#[derive(Clone, Debug)]
pub struct Exercise {
    /// `metadata.name`: the id of `podlab exercises check ID` and `?exercise=`.
    pub id: String,
    pub title: Text,
    pub story: Text,
    /// The goal in words (the checked goals are [`Exercise::goals`]).
    pub goal: Text,
    pub hints: Vec<Text>,
    pub explanation: Text,
    pub tags: Vec<Tag>,
    /// In the order written; `exercise::check` adds the implicit [`Goal::Accepted`] first.
    pub goals: Vec<Goal>,
    pub interview: Option<Interview>,
    /// The starting file (manifests, Scenario and this Exercise), which
    /// `forbid` goals compare against.
    pub start: String,
    /// The reference solution, for exercises of the library.
    pub solution: Option<String>,
}

/// Lowers one Exercise document; `start` is the whole file it came from.
pub fn lower(root: &Node, start: &str) -> (Option<Exercise>, Vec<Diagnostic>) {
    let mut out = Vec::new();
    let doc_span = Span::new(root.span.start, root.span.start);
    let id = root
        .get("metadata")
        .and_then(|metadata| metadata.get("name"))
        .and_then(Node::as_str)
        .filter(|name| !name.is_empty())
        .map(str::to_string);
    if id.is_none() {
        out.push(invalid_value(
            doc_span,
            text!(
                "an Exercise needs `metadata.name`: it is the exercise's id",
                "Exercise 需要 `metadata.name`：那是練習題的 id"
            ),
        ));
    }
    let spec = root.get("spec");
    let spec_span = spec.map_or(doc_span, |node| Span::new(node.span.start, node.span.start));
    let field = |name: &str| spec.and_then(|spec| spec.get(name));
    let required = |name: &str, out: &mut Vec<Diagnostic>| -> Option<Text> {
        match field(name) {
            Some(node) => localized(node, name, out),
            None => {
                out.push(invalid_value(
                    spec_span,
                    text!(
                        "an Exercise needs `spec.{name}` in en and zh-TW",
                        "Exercise 需要 `spec.{name}`（en 與 zh-TW）"
                    ),
                ));
                None
            }
        }
    };
    let title = required("title", &mut out);
    let story = required("story", &mut out);
    let goal = required("goal", &mut out);
    let explanation = required("explanation", &mut out);
    let hints: Vec<Text> = field("hints")
        .and_then(Node::items)
        .unwrap_or(&[])
        .iter()
        .filter_map(|hint| localized(hint, "hints", &mut out))
        .collect();
    let mut tags = Vec::new();
    for tag in field("tags").and_then(Node::items).unwrap_or(&[]) {
        let written = tag.as_str().unwrap_or("");
        match Tag::parse(written) {
            Some(parsed) if !tags.contains(&parsed) => tags.push(parsed),
            Some(_) => {}
            None => out.push(invalid_value(
                tag.span,
                text!(
                    "\"spec.tags\": Unsupported value: \"{written}\": supported values: \"probes\", \"memory\", \"gpu\", \"jobs\", \"silent\"",
                    "「spec.tags」不支援的值 \"{written}\"：可用的值為 \"probes\"、\"memory\"、\"gpu\"、\"jobs\"、\"silent\""
                ),
            )),
        }
    }
    let goals = match field("goals").and_then(Node::items) {
        Some(items) if !items.is_empty() => lower_goals(items, &mut out),
        _ => {
            out.push(invalid_value(
                spec_span,
                text!(
                    "an Exercise needs at least one entry in `spec.goals`",
                    "Exercise 的 `spec.goals` 至少要有一個目標"
                ),
            ));
            Vec::new()
        }
    };
    let interview = field("interview").and_then(|node| lower_interview(node, &mut out));
    let exercise = match (id, title, story, goal, explanation) {
        (Some(id), Some(title), Some(story), Some(goal), Some(explanation))
            if !goals.is_empty() =>
        {
            Some(Exercise {
                id,
                title,
                story,
                goal,
                hints,
                explanation,
                tags,
                goals,
                interview,
                start: start.to_string(),
                solution: None,
            })
        }
        _ => None,
    };
    (exercise, out)
}

/// One checked goal.
#[derive(Clone, Debug, PartialEq)]
pub enum Goal {
    /// Implicit, always first: the API server would store every object
    /// (no YAML, unknown-field or invalid-value error, no GPU amount it
    /// rejects: PL001, PL002, PL003, PL005, PL101, PL102).
    Accepted,
    /// `allReady: { within: 5m }`: every serving pod (not a Job's) is Ready
    /// at `within` and at the end, and at least as many as the starting
    /// file's replicas are.
    AllReady { within: Millis },
    /// `maxRestarts: 0`: no container restarts more often over the run.
    MaxRestarts(i64),
    /// `jobSucceeded: { within: 30m, name: train }`: the Job (any Job of
    /// the CronJob `name`, or every Job when no name) is Complete by then.
    JobSucceeded {
        within: Millis,
        name: Option<String>,
    },
    /// `noPending`: every pod is bound to a node within a second of its
    /// creation (no FailedScheduling wait).
    NoPending,
    /// `forbid: { moreGpus, programChanges, removeTaints }`: what the fix
    /// may not change compared with the starting file.
    Forbid {
        more_gpus: bool,
        program_changes: bool,
        remove_taints: bool,
    },
    /// `maxMemoryLimit: 16Gi`: every container has a memory limit, at most this.
    MaxMemoryLimit { bytes: i128, written: String },
    /// `exec: { container, command, equals }`: in every pod with that
    /// container, at the end of the run, the command's output (trimmed)
    /// equals the value (`exec.rs`).
    Exec {
        container: String,
        command: String,
        equals: String,
    },
    /// `seesGpu: { container }`: `nvidia-smi` in that container, in every
    /// pod at the end, finds a device.
    SeesGpu { container: String },
    /// `readyOnlyWhenLoaded`: no container is Ready (in the Service's
    /// endpoints) before its program has loaded and answers.
    ReadyOnlyWhenLoaded,
    /// `keepActions`: every action of the starting file's Scenario (a
    /// `drain` for maintenance) is still there, at its time: the fix acts
    /// after it rather than removing it.
    KeepActions,
    /// `maxP99: 1s`: the Scenario's traffic is answered with a P99 (over
    /// the whole run) at most this (`docs/traffic.md`).
    MaxP99(Millis),
    /// `maxFailedRequests: 0`: at most this many of the Scenario's requests
    /// fail, whatever the cause; `{max: 0, cause: notReady}` counts one
    /// cause (its JSON key, `docs/traffic.md`).
    MaxFailedRequests { max: i64, cause: Option<String> },
    /// `rolloutComplete: model-api`: the Deployment's rollout completed
    /// (Progressing `NewReplicaSetAvailable` at the end, never
    /// `ProgressDeadlineExceeded`), to the image of the starting file's
    /// Scenario `rollout` when it has one (docs/rollouts.md).
    RolloutComplete { name: String },
    /// `edge: { number: startup, step: 1s }`: the value the learner's
    /// Scenario states for the first program's number (`manifest::path`'s
    /// short form), put into the starting file, is the edge of the healthy
    /// region there: with it every serving pod ends Ready without a
    /// restart, with one `step` more it does not. A "find the number"
    /// exercise, the outcome map's question (docs/map.md).
    Edge {
        field: ProgramField,
        /// In the number's unit: ms, bytes or a count.
        step: i128,
        written: String,
    },
}

impl Goal {
    /// The goal's key as written (`allReady`), `accepted` for the implicit one.
    pub fn key(&self) -> &'static str {
        match self {
            Goal::Accepted => "accepted",
            Goal::AllReady { .. } => "allReady",
            Goal::MaxRestarts(_) => "maxRestarts",
            Goal::JobSucceeded { .. } => "jobSucceeded",
            Goal::NoPending => "noPending",
            Goal::Forbid { .. } => "forbid",
            Goal::MaxMemoryLimit { .. } => "maxMemoryLimit",
            Goal::Exec { .. } => "exec",
            Goal::SeesGpu { .. } => "seesGpu",
            Goal::ReadyOnlyWhenLoaded => "readyOnlyWhenLoaded",
            Goal::KeepActions => "keepActions",
            Goal::MaxP99(_) => "maxP99",
            Goal::MaxFailedRequests { .. } => "maxFailedRequests",
            Goal::RolloutComplete { .. } => "rolloutComplete",
            Goal::Edge { .. } => "edge",
        }
    }

    /// The goal in words.
    pub fn label(&self) -> Text {
        match self {
            Goal::Accepted => Text::new(
                "the API server accepts every object",
                "API server 接受每一個物件",
            ),
            Goal::AllReady { within } => {
                let within = time(*within);
                text!(
                    "every pod Ready within {within} and still Ready at the end",
                    "每個 Pod 在 {within} 內 Ready，而且到最後都還是 Ready"
                )
            }
            Goal::MaxRestarts(0) => Text::new("zero restarts", "零次重啟"),
            Goal::MaxRestarts(n) => text!("at most {n} restarts", "最多重啟 {n} 次"),
            Goal::JobSucceeded { within, name } => {
                let within = time(*within);
                match name {
                    Some(name) => text!(
                        "Job {name} succeeds within {within}",
                        "Job {name} 在 {within} 內成功"
                    ),
                    None => text!(
                        "every Job succeeds within {within}",
                        "每個 Job 都在 {within} 內成功"
                    ),
                }
            }
            Goal::NoPending => Text::new(
                "no pod waits Pending for a node",
                "沒有 Pod 卡在 Pending 等節點",
            ),
            Goal::Forbid {
                more_gpus,
                program_changes,
                remove_taints,
            } => {
                let mut en = Vec::new();
                let mut zh = Vec::new();
                if *more_gpus {
                    en.push("adding GPUs");
                    zh.push("增加 GPU");
                }
                if *program_changes {
                    en.push("changing how the program behaves (Scenario workload)");
                    zh.push("改變程式本身的行為（Scenario workload）");
                }
                if *remove_taints {
                    en.push("removing node taints");
                    zh.push("移除節點的 taint");
                }
                let (en, zh) = (en.join(", "), zh.join("、"));
                text!("without {en}", "不可以{zh}")
            }
            Goal::MaxMemoryLimit { written, .. } => text!(
                "every memory limit at most {written}",
                "每個記憶體 limit 最多 {written}"
            ),
            Goal::Edge { field, written, .. } => {
                let field = field.as_str();
                text!(
                    "the Scenario's `{field}` is the largest the starting file stays healthy with (to within {written})",
                    "Scenario 的 `{field}` 是原本的檔案還能保持健康的最大值（誤差在 {written} 以內）"
                )
            }
            Goal::Exec {
                container,
                command,
                equals,
            } => text!(
                "`kubectl exec -c {container} -- {command}` prints {equals}",
                "`kubectl exec -c {container} -- {command}` 印出 {equals}"
            ),
            Goal::SeesGpu { container } => text!(
                "container {container} sees a GPU (`nvidia-smi`)",
                "容器 {container} 看得到 GPU（`nvidia-smi`）"
            ),
            Goal::ReadyOnlyWhenLoaded => Text::new(
                "no pod receives traffic before its model has loaded",
                "模型載入完成之前，沒有 Pod 接到流量",
            ),
            Goal::KeepActions => Text::new(
                "the starting file's actions still happen, at their times",
                "起始檔案裡的動作（actions）照樣在原本的時間發生",
            ),
            Goal::MaxP99(limit) => {
                let limit = crate::manifest::duration::latency(limit.saturating_mul(1000));
                text!(
                    "the requests' P99 latency at most {limit}",
                    "請求的 P99 延遲不超過 {limit}"
                )
            }
            Goal::MaxFailedRequests { max, cause: None } => {
                text!("at most {max} requests fail", "最多 {max} 個請求失敗")
            }
            Goal::MaxFailedRequests {
                max,
                cause: Some(cause),
            } => text!(
                "at most {max} requests fail as `{cause}`",
                "最多 {max} 個請求以 `{cause}` 失敗"
            ),
            Goal::RolloutComplete { name } => text!(
                "the rollout of Deployment {name} completes, without ProgressDeadlineExceeded",
                "Deployment {name} 的 rollout 完成，沒有 ProgressDeadlineExceeded"
            ),
        }
    }
}

/// Lowers `spec.goals`; each entry is a mapping with exactly one key.
fn lower_goals(items: &[Node], out: &mut Vec<Diagnostic>) -> Vec<Goal> {
    let mut goals = Vec::new();
    for item in items {
        let Some(entries) = item.entries() else {
            // A bare word: `- noPending`.
            match item.as_str() {
                Some("noPending") => goals.push(Goal::NoPending),
                Some("readyOnlyWhenLoaded") => goals.push(Goal::ReadyOnlyWhenLoaded),
                Some("keepActions") => goals.push(Goal::KeepActions),
                _ => out.push(invalid_value(
                    item.span,
                    text!(
                        "a goal is a mapping with one key, like `allReady: {{ within: 5m }}`",
                        "每個目標是只有一個 key 的 mapping，例如 `allReady: {{ within: 5m }}`"
                    ),
                )),
            }
            continue;
        };
        if entries.len() != 1 {
            out.push(invalid_value(
                item.span,
                text!(
                    "a goal has exactly one key; write each goal as its own list item",
                    "一個目標只能有一個 key；每個目標請寫成清單裡的一項"
                ),
            ));
            continue;
        }
        let Some(entry) = entries.first() else {
            continue;
        };
        let value = &entry.value;
        let key = entry.key_str();
        let missing = |field: &str, out: &mut Vec<Diagnostic>| {
            out.push(invalid_value(
                value.span,
                text!(
                    "goal `{key}` needs `{field}`",
                    "目標 `{key}` 需要 `{field}`"
                ),
            ))
        };
        let string = |field: &str| value.get(field).and_then(Node::as_str).map(str::to_string);
        let goal = match key {
            "allReady" => match duration_of(value.get("within")) {
                Some(within) => Some(Goal::AllReady { within }),
                None => {
                    missing("within", out);
                    None
                }
            },
            "maxRestarts" => value.as_int().map(Goal::MaxRestarts),
            "jobSucceeded" => match duration_of(value.get("within")) {
                Some(within) => Some(Goal::JobSucceeded {
                    within,
                    name: string("name"),
                }),
                None => {
                    missing("within", out);
                    None
                }
            },
            "noPending" => Some(Goal::NoPending),
            "readyOnlyWhenLoaded" => Some(Goal::ReadyOnlyWhenLoaded),
            "keepActions" => Some(Goal::KeepActions),
            "maxP99" => duration_of(Some(value)).map(Goal::MaxP99),
            "maxFailedRequests" => match value.as_int() {
                Some(max) => Some(Goal::MaxFailedRequests { max, cause: None }),
                None => match value.get("max").and_then(Node::as_int) {
                    Some(max) => Some(Goal::MaxFailedRequests {
                        max,
                        cause: string("cause"),
                    }),
                    None => {
                        missing("max", out);
                        None
                    }
                },
            },
            "forbid" => {
                let flag = |field: &str| value.get(field).and_then(Node::as_bool).unwrap_or(false);
                let goal = Goal::Forbid {
                    more_gpus: flag("moreGpus"),
                    program_changes: flag("programChanges"),
                    remove_taints: flag("removeTaints"),
                };
                if goal
                    == (Goal::Forbid {
                        more_gpus: false,
                        program_changes: false,
                        remove_taints: false,
                    })
                {
                    missing("moreGpus: true", out);
                    None
                } else {
                    Some(goal)
                }
            }
            "edge" => {
                let field = string("number").and_then(|number| ProgramField::parse(&number));
                let step_node = value.get("step");
                let step = match field {
                    Some(ProgramField::Startup) => duration_of(step_node).map(i128::from),
                    Some(ProgramField::Workers) => step_node.and_then(Node::as_int).map(i128::from),
                    Some(_) => step_node.and_then(quantity_of).map(|q: Quantity| q.value()),
                    None => None,
                };
                match (field, step) {
                    (Some(field), Some(step)) if step > 0 => Some(Goal::Edge {
                        field,
                        step,
                        written: step_node
                            .and_then(|node| node.as_str().map(str::to_string))
                            .unwrap_or_default(),
                    }),
                    _ => {
                        missing(
                            "number (startup, memory.steady, memory.peak, workers, gpuMemory) and a positive step in its unit",
                            out,
                        );
                        None
                    }
                }
            }
            "maxMemoryLimit" => quantity_of(value).map(|limit: Quantity| Goal::MaxMemoryLimit {
                bytes: limit.value(),
                written: value.as_str().unwrap_or("").to_string(),
            }),
            "exec" => match (string("container"), string("command"), string("equals")) {
                (Some(container), Some(command), Some(equals)) if !command.trim().is_empty() => {
                    Some(Goal::Exec {
                        container,
                        command,
                        equals,
                    })
                }
                _ => {
                    missing("container, command, equals", out);
                    None
                }
            },
            "seesGpu" => match string("container") {
                Some(container) => Some(Goal::SeesGpu { container }),
                None => {
                    missing("container", out);
                    None
                }
            },
            "rolloutComplete" => match value.as_str().map(str::trim) {
                Some(name) if !name.is_empty() && !value.is_null() => Some(Goal::RolloutComplete {
                    name: name.to_string(),
                }),
                // A mapping or a list was reported by validate.rs (PL003).
                None => None,
                Some(_) => {
                    out.push(invalid_value(
                        value.span,
                        text!(
                            "goal `rolloutComplete` needs a Deployment's name, like `rolloutComplete: model-api`",
                            "目標 `rolloutComplete` 需要一個 Deployment 的名稱，例如 `rolloutComplete: model-api`"
                        ),
                    ));
                    None
                }
            },
            // An unknown key was reported by validate.rs (PL002).
            _ => None,
        };
        goals.extend(goal);
    }
    goals
}

/// A command the learner may choose, or an acting command typed in the
/// terminal (issue 33 item 4: `delete pod`, `scale`, `rollout restart`,
/// `cordon`, `uncordon`, `drain` change the cluster; `kubectl/act.rs`
/// prints kubectl's lines, `sim/act.rs` simulates the consequence).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// `kubectl apply -f .` again: what the API server answers.
    Apply,
    Describe,
    Logs,
    LogsPrevious,
    ExecEnv,
    ExecNvidiaSmi,
    GetEvents,
    GetNodes,
    DescribeNode,
    /// `kubectl delete pod NAME`.
    DeletePod,
    /// `kubectl scale deployment|rs|statefulset NAME --replicas=N`.
    Scale,
    /// `kubectl rollout restart deployment [NAME]`.
    RolloutRestart,
    /// `kubectl cordon NODE`.
    Cordon,
    /// `kubectl uncordon NODE`.
    Uncordon,
    /// `kubectl drain NODE --ignore-daemonsets`.
    Drain,
    /// `kubectl set resources|image` or `kubectl patch` of a Deployment:
    /// its template changes.
    Patch,
    /// `kubectl label pod|node|deployment NAME KEY=VALUE…`.
    Label,
    /// `kubectl annotate pod|node|deployment NAME KEY=VALUE…`.
    Annotate,
}

impl Command {
    pub const ALL: [Command; 18] = [
        Command::Apply,
        Command::Describe,
        Command::Logs,
        Command::LogsPrevious,
        Command::ExecEnv,
        Command::ExecNvidiaSmi,
        Command::GetEvents,
        Command::GetNodes,
        Command::DescribeNode,
        Command::DeletePod,
        Command::Scale,
        Command::RolloutRestart,
        Command::Cordon,
        Command::Uncordon,
        Command::Drain,
        Command::Patch,
        Command::Label,
        Command::Annotate,
    ];

    /// As written in `interview.commands` and `interview.recommended`.
    pub fn id(self) -> &'static str {
        match self {
            Command::Apply => "apply",
            Command::Describe => "describe",
            Command::Logs => "logs",
            Command::LogsPrevious => "logs-previous",
            Command::ExecEnv => "exec-env",
            Command::ExecNvidiaSmi => "exec-nvidia-smi",
            Command::GetEvents => "get-events",
            Command::GetNodes => "get-nodes",
            Command::DescribeNode => "describe-node",
            Command::DeletePod => "delete-pod",
            Command::Scale => "scale",
            Command::RolloutRestart => "rollout-restart",
            Command::Cordon => "cordon",
            Command::Uncordon => "uncordon",
            Command::Drain => "drain",
            Command::Patch => "patch",
            Command::Label => "label",
            Command::Annotate => "annotate",
        }
    }

    pub fn parse(written: &str) -> Option<Command> {
        Command::ALL
            .into_iter()
            .find(|command| command.id() == written)
    }

    /// Whether it changes the cluster (typed in the terminal, never offered
    /// as a choice in `interview.commands`). `apply` of the same text
    /// changes nothing: it shows the API server's answer, a read.
    pub fn acts(self) -> bool {
        self.acted().is_some()
    }

    /// What the acting command did, as a reviewer says it ("deleted the
    /// pod"); `None` for a read.
    pub fn acted(self) -> Option<Text> {
        Some(match self {
            Command::DeletePod => Text::new("deleted the pod", "刪除了 Pod"),
            Command::Scale => Text::new("scaled the workload", "調整了 replica 數（scale）"),
            Command::RolloutRestart => Text::new(
                "restarted the Deployment's pods (rollout restart)",
                "重啟了 Deployment 的 Pod（rollout restart）",
            ),
            Command::Cordon => Text::new("cordoned the node", "對節點下了 cordon"),
            Command::Uncordon => Text::new("uncordoned the node", "對節點下了 uncordon"),
            Command::Drain => Text::new("drained the node", "對節點下了 drain"),
            Command::Patch => Text::new(
                "changed the Deployment's pod template (set/patch)",
                "改了 Deployment 的 Pod 範本（set／patch）",
            ),
            Command::Label => Text::new(
                "changed an object's labels (label)",
                "改了物件的 labels（label）",
            ),
            Command::Annotate => Text::new(
                "changed an object's annotations (annotate)",
                "改了物件的註解（annotate）",
            ),
            _ => return None,
        })
    }

    /// Whether it reads the pod in trouble itself (its Events, its logs,
    /// its container): what a reviewer expects before anyone acts on it.
    pub fn reads_the_pod(self) -> bool {
        matches!(
            self,
            Command::Describe
                | Command::Logs
                | Command::LogsPrevious
                | Command::ExecEnv
                | Command::ExecNvidiaSmi
                | Command::GetEvents
        )
    }

    /// Whether it asks about a pod (so there is nothing to run while no
    /// pod exists, e.g. when the API server refused the object).
    pub fn needs_pod(self) -> bool {
        !matches!(
            self,
            Command::Apply
                | Command::GetEvents
                | Command::GetNodes
                | Command::DescribeNode
                | Command::Scale
                | Command::RolloutRestart
                | Command::Cordon
                | Command::Uncordon
                | Command::Drain
                | Command::Patch
                | Command::Label
                | Command::Annotate
        )
    }

    /// The command line as typed, for `pod` (and `node`, the node
    /// `describe-node` looks at: `exercise::interview::interesting_node`).
    /// `scale` names no object here: the recommended transcript shows its
    /// form (`rollout restart deployment` without a name restarts every
    /// Deployment, as kubectl does).
    pub fn command_line(self, pod: &str, container: &str, node: &str) -> String {
        match self {
            Command::Apply => "kubectl apply -f .".into(),
            Command::Describe => format!("kubectl describe pod {pod}"),
            Command::Logs => format!("kubectl logs {pod} -c {container}"),
            Command::LogsPrevious => format!("kubectl logs {pod} -c {container} --previous"),
            Command::ExecEnv => format!("kubectl exec {pod} -c {container} -- env"),
            Command::ExecNvidiaSmi => format!("kubectl exec {pod} -c {container} -- nvidia-smi"),
            Command::GetEvents => "kubectl get events --sort-by=.lastTimestamp".into(),
            Command::GetNodes => "kubectl get nodes".into(),
            Command::DescribeNode => format!("kubectl describe node {node}"),
            Command::DeletePod => format!("kubectl delete pod {pod}"),
            Command::Scale => "kubectl scale deployment NAME --replicas=N".into(),
            Command::RolloutRestart => "kubectl rollout restart deployment".into(),
            Command::Cordon => format!("kubectl cordon {node}"),
            Command::Uncordon => format!("kubectl uncordon {node}"),
            Command::Drain => format!("kubectl drain {node} --ignore-daemonsets"),
            Command::Patch => "kubectl patch deployment NAME -p '{\"spec\": …}'".into(),
            Command::Label => format!("kubectl label node {node} KEY=VALUE"),
            Command::Annotate => "kubectl annotate pod|node|deployment NAME KEY=VALUE".into(),
        }
    }
}

/// One root-cause option.
#[derive(Clone, Debug, PartialEq)]
pub struct Cause {
    pub text: Text,
    pub correct: bool,
    /// Why it is (or is not) the cause.
    pub why: Text,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Interview {
    /// The interview's own heading: what a colleague would report (the
    /// symptom, the team's context), never the cause. The exercise's title
    /// may name the lesson; this one may not (a library test checks it).
    pub title: Text,
    /// The colleague's report, without the cause or the number that gives
    /// it away.
    pub story: Text,
    /// When the symptom is shown; every command's output is at this time.
    pub at: Millis,
    /// The choices offered, in order: reads only.
    pub commands: Vec<Command>,
    /// The recommended path, in order: a subsequence of `commands`, with
    /// acting commands (typed in the terminal) where the answer acts.
    pub recommended: Vec<Command>,
    pub causes: Vec<Cause>,
}

fn lower_interview(node: &Node, out: &mut Vec<Diagnostic>) -> Option<Interview> {
    let at = duration_of(node.get("at"));
    let title = node
        .get("title")
        .and_then(|n| localized(n, "interview.title", out));
    let story = node
        .get("story")
        .and_then(|n| localized(n, "interview.story", out));
    let commands_of = |field: &str, out: &mut Vec<Diagnostic>| -> Vec<Command> {
        let mut found = Vec::new();
        for item in node.get(field).and_then(Node::items).unwrap_or(&[]) {
            let written = item.as_str().unwrap_or("");
            match Command::parse(written) {
                Some(command) => found.push(command),
                None => {
                    let supported = Command::ALL
                        .iter()
                        .map(|command| format!("\"{}\"", command.id()))
                        .collect::<Vec<_>>()
                        .join(", ");
                    out.push(invalid_value(
                        item.span,
                        text!(
                            "\"interview.{field}\": Unsupported value: \"{written}\": supported values: {supported}",
                            "「interview.{field}」不支援的值 \"{written}\"：可用的值為 {supported}"
                        ),
                    ));
                }
            }
        }
        found
    };
    let commands = commands_of("commands", out);
    let recommended = commands_of("recommended", out);
    let mut causes = Vec::new();
    for item in node.get("causes").and_then(Node::items).unwrap_or(&[]) {
        let text = item
            .get("text")
            .and_then(|n| localized(n, "interview.causes.text", out));
        let why = item
            .get("why")
            .and_then(|n| localized(n, "interview.causes.why", out));
        let correct = item.get("correct").and_then(Node::as_bool).unwrap_or(false);
        match (text, why) {
            (Some(text), Some(why)) => causes.push(Cause { text, correct, why }),
            _ => out.push(invalid_value(
                item.span,
                text!(
                    "a root-cause option needs `text` and `why` in en and zh-TW",
                    "每個根因選項都需要 `text` 與 `why`（en 與 zh-TW）"
                ),
            )),
        }
    }
    let span = node.span;
    let problem = if at.is_none() {
        Some(text!("the interview needs `at`", "面試模式需要 `at`"))
    } else if title.is_none() || story.is_none() {
        Some(text!(
            "the interview needs its own `title` and `story` in en and zh-TW: what a colleague would report, without the cause",
            "面試模式需要自己的 `title` 與 `story`（en 與 zh-TW）：同事會怎麼描述症狀，不能說出根因"
        ))
    } else if commands.is_empty() {
        Some(text!(
            "the interview needs `commands`",
            "面試模式需要 `commands`"
        ))
    } else if causes.iter().filter(|cause| cause.correct).count() != 1 {
        Some(text!(
            "exactly one root-cause option must be `correct: true`",
            "根因選項必須剛好有一個 `correct: true`"
        ))
    } else if commands.iter().any(|command| command.acts()) {
        Some(text!(
            "`commands` are the reads offered; an acting command (delete-pod, scale, rollout-restart, cordon, uncordon, drain, patch, label, annotate) is typed in the terminal: list it in `recommended` only",
            "`commands` 是提供選擇的查看指令；會改動叢集的指令（delete-pod、scale、rollout-restart、cordon、uncordon、drain、patch、label、annotate）是在終端機輸入的：只能寫在 `recommended` 裡"
        ))
    } else if recommended
        .iter()
        .any(|command| !command.acts() && !commands.contains(command))
    {
        Some(text!(
            "every recommended command but an acting one must be one of `commands`",
            "除了會改動叢集的指令，每個建議的指令都必須在 `commands` 裡"
        ))
    } else {
        None
    };
    if let Some(problem) = problem {
        out.push(invalid_value(span, problem));
        return None;
    }
    let (Some(title), Some(story)) = (title, story) else {
        return None;
    };
    Some(Interview {
        title,
        story,
        at: at.unwrap_or(0),
        commands,
        recommended,
        causes,
    })
}

/// `{ en: ..., zh-TW: ... }`: both are required, since every text a person
/// reads exists in both languages.
fn localized(node: &Node, path: &str, out: &mut Vec<Diagnostic>) -> Option<Text> {
    let en = node.get("en").and_then(Node::as_str).unwrap_or("").trim();
    let zh = node
        .get("zh-TW")
        .and_then(Node::as_str)
        .unwrap_or("")
        .trim();
    if en.is_empty() || zh.is_empty() {
        let missing = if en.is_empty() { "en" } else { "zh-TW" };
        out.push(invalid_value(
            node.span,
            text!(
                "\"{path}\" needs both `en` and `zh-TW`; `{missing}` is missing or empty",
                "「{path}」需要 `en` 與 `zh-TW` 兩種語言；缺少 `{missing}` 或是空的"
            ),
        ));
        return None;
    }
    Some(Text::new(en, zh))
}

/// A duration field of the Exercise (`within: 5m`); reported by
/// `validate.rs` when it does not parse.
fn duration_of(node: Option<&Node>) -> Option<Millis> {
    node.and_then(Node::as_str)
        .and_then(|written| duration::parse(written).ok())
}

fn quantity_of(node: &Node) -> Option<quantity::Quantity> {
    node.as_str()
        .and_then(|written| quantity::parse(written).ok())
}

/// A time from the start for the sentences of goal results, in whole
/// seconds as a Scenario writes durations: `40s`, `5m`, `25m33s`, `1h2m`.
pub(crate) fn time(ms: Millis) -> String {
    let seconds = ms / 1000;
    let (hours, minutes, seconds) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    let mut out = String::new();
    if hours > 0 {
        out.push_str(&format!("{hours}h"));
    }
    if minutes > 0 {
        out.push_str(&format!("{minutes}m"));
    }
    if seconds > 0 || out.is_empty() {
        out.push_str(&format!("{seconds}s"));
    }
    out
}
