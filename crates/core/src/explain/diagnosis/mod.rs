//! The diagnosis of a simulated run: for every pod that is not healthy at a
//! time T, the symptom, the most likely root cause, the lines of `kubectl
//! describe pod` / `kubectl logs` that prove it, the next command of the
//! blog's troubleshooting order (排錯三連: describe → logs --previous → exec)
//! and the one-line fix, in English and Traditional Chinese (Taiwan).
//!
//! The cause is read from the run — the container instances, their exits,
//! the kubelet's and the scheduler's event occurrences and the program
//! model each container ran (`ContainerRun::program`) — never by matching
//! the manifest's text. The evidence is then looked up, line by line, in
//! what the renderers print at T (`describe::describe_pod`, `logs::logs`),
//! trimmed of indentation; an event no longer shown (one-hour TTL) is quoted
//! from the run's occurrence instead.
//!
//! Healthy, so no diagnosis: a pod whose containers are all Ready with no
//! restarts; a pod whose containers completed (exit 0) under restartPolicy
//! OnFailure/Never (a finished Job's pod); a pod whose containers are still
//! in their first load with nothing failed yet (it is starting, not broken).
//!
//! One file per failure family, each a function from the run to its
//! `Diagnosis`: `scheduling.rs` (refused at apply, unschedulable),
//! `missing_config.rs` (a Secret or ConfigMap that does not exist: env or
//! volume), `init.rs` (init containers), `image.rs` (image pulls),
//! `probes.rs` (liveness, startup and readiness probes), `shm.rs`
//! (/dev/shm), `oom.rs` (the kernel's OOM kill), `gpu_out_of_memory.rs`
//! (CUDA out of memory) and `crash.rs` (the program's own exit). What they
//! share, the evidence lines and the run's facts they rest on, is in
//! `evidence.rs`.

mod crash;
mod evidence;
mod gpu_out_of_memory;
mod image;
mod init;
mod missing_config;
mod oom;
mod probes;
mod scheduling;
mod shm;

use self::crash::{completed_but_restarted, program_crash};
use self::evidence::object;
use self::gpu_out_of_memory::gpu_out_of_memory;
use self::image::image_pull;
use self::missing_config::{failed_mount, missing_config};
use self::oom::oom_killed;
use self::probes::{
    killing_event, liveness_during_load, not_ready_while_serving, probe_kills_serving,
    startup_budget,
};
use self::scheduling::{refused, unschedulable};
use crate::diagnostic::Diagnostic;
use crate::i18n::{Lang, Text};
use crate::manifest::assumed::Assumption;
use crate::manifest::duration::Millis;
use crate::manifest::model::WorkloadKind;
use crate::manifest::path::Path;
use crate::sim::{ContainerState, Instance, PodRun, Run};
use crate::span::Span;
use crate::text;

/// What went wrong, as recognised from the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Pending: the scheduler found no node (FailedScheduling).
    Unschedulable,
    /// The liveness probe killed the container while the model was loading.
    LivenessDuringLoad,
    /// The startup probe ran out of `failureThreshold × periodSeconds`
    /// before the model had loaded.
    StartupBudgetExhausted,
    /// A liveness or startup probe kills a program that had loaded: the
    /// probe asks the wrong path or port, or times out.
    ProbeKillsServingProgram,
    /// The readiness probe never succeeds although the program is serving.
    ReadinessNeverSucceeds,
    /// The kernel's OOM kill at the loading peak (exit 137, OOMKilled).
    OomKilled,
    /// The program exited by itself with a non-zero code.
    ProgramCrash,
    /// The program finished (exit 0) but restartPolicy Always restarts it.
    CompletedButRestarted,
    /// The image cannot be pulled (ErrImagePull, ImagePullBackOff) or is
    /// absent with `imagePullPolicy: Never` (ErrImageNeverPull).
    ImagePull,
    /// A Secret or ConfigMap the environment needs does not exist
    /// (CreateContainerConfigError).
    MissingConfig,
    /// A Secret or ConfigMap volume cannot be mounted (FailedMount): the
    /// pod waits in ContainerCreating.
    FailedMount,
    /// The API server refused the object at `kubectl apply`: no pod exists.
    Refused,
    /// The program's CUDA allocation failed: device memory ran out (a
    /// time-sliced neighbour, the MPS cap, a MIG slice, the card).
    GpuOutOfMemory,
    /// A DataLoader worker's bus error: /dev/shm is the runtime's 64 MiB
    /// (exit 1; PL106).
    ShmBusError,
    /// A memory emptyDir at /dev/shm plus the process passed the memory
    /// limit when the workers started (137).
    ShmOomKilled,
    /// The pod is still initializing: an init container (a weights
    /// download) is at work and nothing has failed (`Init:N/M`).
    Initializing,
    /// An init container exits non-zero (`Init:CrashLoopBackOff`, or
    /// `Init:Error` and a Failed pod under `restartPolicy: Never`).
    InitContainerFailed,
}

/// One unhealthy pod, explained.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnosis {
    pub pod: String,
    pub kind: Kind,
    pub symptom: Text,
    pub root_cause: Text,
    /// Exact lines (indentation trimmed) from `kubectl describe pod`,
    /// `kubectl logs [--previous]` or the event messages that prove it.
    pub evidence: Vec<String>,
    /// The next command to type, e.g. `kubectl logs <pod> --previous`.
    pub next_command: String,
    pub why_that_command: Text,
    pub fix: Text,
    /// The numbers podlab assumed that the outcome follows from
    /// (`manifest::assumed`, paths of `manifest::path`): an OOM kill from
    /// an assumed `memory.peak`, a liveness kill from an assumed
    /// `startup`, a pod Pending on an assumed cluster. Empty when it rests
    /// on stated numbers only; otherwise the outcome is conditional
    /// (`Diagnosis::conditional` says so).
    pub assumed: Vec<Assumption>,
}

impl Diagnosis {
    /// The rules that predict this outcome from the text alone, whose fix
    /// (when the lint finds one) is this diagnosis's fix applied to the
    /// text: the page's diagnosis card offers it as "Apply the fix"
    /// (issue 30). The same IDs the fix's words name.
    pub fn rules(&self) -> &'static [&'static str] {
        match self.kind {
            Kind::Unschedulable => &[
                "PL501", "PL502", "PL503", "PL504", "PL505", "PL506", "PL507",
            ],
            Kind::LivenessDuringLoad => &["PL201"],
            Kind::StartupBudgetExhausted => &["PL202"],
            Kind::ProbeKillsServingProgram | Kind::ReadinessNeverSucceeds => &["PL204", "PL205"],
            Kind::OomKilled => &["PL104"],
            Kind::Refused => &["PL101", "PL102", "PL601"],
            Kind::ShmBusError | Kind::ShmOomKilled => &["PL106"],
            Kind::GpuOutOfMemory => &["PL504"],
            Kind::CompletedButRestarted
            | Kind::ProgramCrash
            | Kind::ImagePull
            | Kind::MissingConfig
            | Kind::FailedMount
            | Kind::Initializing
            | Kind::InitContainerFailed => &[],
        }
    }

    /// The finding among `diagnostics` (a lint of the same text) whose fix
    /// is this diagnosis's: the first one of [`Diagnosis::rules`] that has
    /// a fix, inside `within` (the document of the pod's workload,
    /// [`owner_document`]) when that is known.
    pub fn fix_of(&self, diagnostics: &[Diagnostic], within: Option<Span>) -> Option<usize> {
        let rules = self.rules();
        diagnostics.iter().position(|diagnostic| {
            diagnostic.fix.is_some()
                && rules.contains(&diagnostic.rule)
                && within.is_none_or(|document| {
                    diagnostic.span.start >= document.start && diagnostic.span.end <= document.end
                })
        })
    }

    /// "This follows from an assumed X; state it with … to be sure", in
    /// both languages, when the outcome rests on an assumed number.
    pub fn conditional(&self) -> Option<Text> {
        if self.assumed.is_empty() {
            return None;
        }
        let what = |open: &str, close: &str, separator: &str| {
            let items: Vec<String> = self
                .assumed
                .iter()
                .map(|assumption| format!("`{}`{open}{}{close}", assumption.path, assumption.value))
                .collect();
            items.join(separator)
        };
        let (what_en, what_zh) = (what(" (", ")", ", "), what("（", "）", "、"));
        let (how_en, how_zh): (Vec<String>, Vec<String>) = self
            .assumed
            .iter()
            .map(|assumption| stated_by(&assumption.path))
            .unzip();
        let (how_en, how_zh) = (how_en.join("; "), how_zh.join("；"));
        Some(text!(
            "this follows from an assumed {what_en}, which nothing in the text states: the outcome holds only if the assumption does; state it with {how_en} to be sure",
            "這個結果來自假設的 {what_zh}，文字裡沒有任何地方寫明：只有假設成立，這個結果才會發生；要確定，請{how_zh}"
        ))
    }
}

/// Where the workload that made a pod is written: the document span of
/// the entry of `workloads` (kind, name, document) that `owner`
/// (`PodRun::owner`: `Deployment/model-api`, a CronJob's Job
/// `Job/nightly-29012345`) names.
pub fn owner_document(owner: &str, workloads: &[(WorkloadKind, String, Span)]) -> Option<Span> {
    let (kind, name) = owner.split_once('/')?;
    let named = |wanted: WorkloadKind, name: &str| {
        workloads
            .iter()
            .find(|(kind, written, _)| *kind == wanted && written == name)
            .map(|(_, _, span)| *span)
    };
    WorkloadKind::parse(kind)
        .and_then(|kind| named(kind, name))
        // A CronJob's Job is named `<cronjob>-<scheduled minute>`.
        .or_else(|| {
            let (cron, _) = name.rsplit_once('-').filter(|_| kind == "Job")?;
            named(WorkloadKind::CronJob, cron)
        })
}

/// Where a number named by `path` is stated, in both languages.
fn stated_by(path: &Path) -> (String, String) {
    match path {
        Path::Program { container, field } => {
            let container = container.as_deref().unwrap_or("*");
            let entry = field.scenario_entry();
            let annotation = field.annotation();
            (
                format!("`{entry}` in the Scenario's `workload` entry for container `{container}` (or the annotation `{annotation}`)"),
                format!("在 Scenario 裡 container `{container}` 的 `workload` 項目寫上 `{entry}`（或 annotation `{annotation}`）"),
            )
        }
        Path::Cluster => (
            "`cluster.nodePools` in a Scenario".to_string(),
            "在 Scenario 寫上 `cluster.nodePools`".to_string(),
        ),
        Path::Field(_) => (
            format!("`{path}` in the manifest"),
            format!("在 manifest 寫明 `{path}`"),
        ),
    }
}

/// One diagnosis per pod that is not healthy at `at`, in pod order.
pub fn diagnose(run: &Run, at: Millis) -> Vec<Diagnosis> {
    run.refused
        .iter()
        .map(refused)
        .chain(
            run.pods
                .iter()
                .filter(|pod| pod.exists_at(at))
                .filter_map(|pod| diagnose_pod(run, pod, at)),
        )
        .collect()
}

/// The diagnoses as the CLI prints them after the kubectl transcript.
pub fn render(diagnoses: &[Diagnosis], lang: Lang) -> String {
    let (colon, title, symptom, cause, evidence, next, fix) = match lang {
        Lang::En => (
            ": ",
            "Diagnosis",
            "Symptom",
            "Most likely root cause",
            "Evidence",
            "Next command",
            "Fix",
        ),
        Lang::ZhTw => (
            "：",
            "診斷",
            "症狀",
            "最可能的根因",
            "證據",
            "下一個指令",
            "修正",
        ),
    };
    let (conditional, assumption) = match lang {
        Lang::En => (" (if the assumption holds)", "Assumption"),
        Lang::ZhTw => ("（假設成立的話）", "假設"),
    };
    let mut out = String::new();
    for diagnosis in diagnoses {
        let note = diagnosis.conditional();
        out.push_str(&format!("\n{title}{colon}{}\n", diagnosis.pod));
        out.push_str(&format!(
            "  {symptom}{colon}{}{}\n",
            diagnosis.symptom.get(lang),
            if note.is_some() { conditional } else { "" }
        ));
        out.push_str(&format!(
            "  {cause}{colon}{}\n",
            diagnosis.root_cause.get(lang)
        ));
        if let Some(note) = &note {
            out.push_str(&format!("  {assumption}{colon}{}\n", note.get(lang)));
        }
        if !diagnosis.evidence.is_empty() {
            out.push_str(&format!("  {evidence}{}\n", colon.trim_end()));
            for line in &diagnosis.evidence {
                out.push_str(&format!("    {line}\n"));
            }
        }
        out.push_str(&format!(
            "  {next}{colon}$ {}\n    {}\n",
            diagnosis.next_command,
            diagnosis.why_that_command.get(lang)
        ));
        out.push_str(&format!("  {fix}{colon}{}\n", diagnosis.fix.get(lang)));
    }
    out
}

fn diagnose_pod(run: &Run, pod: &PodRun, at: Millis) -> Option<Diagnosis> {
    let bound = pod.node.as_ref().is_some_and(|(_, bound)| *bound <= at);
    if !bound {
        return unschedulable(run, pod, at);
    }
    if pod.phase_at(at) == "Succeeded" {
        return None;
    }
    if let Some(event) = run.events.iter().rev().find(|event| {
        event.at <= at && event.reason == "FailedMount" && *event.object == *object(pod)
    }) {
        return Some(failed_mount(run, pod, event, at));
    }
    if let Some(diagnosis) = init::diagnose(run, pod, at) {
        return Some(diagnosis);
    }
    let statuses = pod.statuses_at(at);
    for (container, status) in pod.containers.iter().zip(&statuses) {
        let exited: Vec<&Instance> = container
            .instances
            .iter()
            .filter(|i| i.exit.as_ref().is_some_and(|exit| exit.at <= at))
            .collect();
        if let ContainerState::Waiting { reason, message } = &status.state {
            match reason.as_str() {
                "ErrImagePull" | "ImagePullBackOff" | "ErrImageNeverPull" => {
                    return Some(image_pull(run, pod, container, reason, at));
                }
                "CreateContainerConfigError" => {
                    return Some(missing_config(run, pod, container, message, at));
                }
                _ => {}
            }
        }
        let Some(last) = exited.last() else {
            // Never exited: a readiness or startup probe that never passes
            // once the program has loaded.
            if status.ready {
                continue;
            }
            if let Some(diagnosis) = not_ready_while_serving(run, pod, container, at) {
                return Some(diagnosis);
            }
            continue;
        };
        if status.ready && status.restart_count == 0 {
            continue;
        }
        // /dev/shm ended it (a bus error, or an OOM kill of the emptyDir).
        if let Some((instance, failure)) = exited.iter().rev().find_map(|i| {
            let failure = i.exit.as_ref().and_then(|exit| exit.shm.as_ref())?;
            Some((*i, failure))
        }) {
            return Some(shm::shm_failure(run, pod, container, instance, failure, at));
        }
        // An OOM kill earlier in the loop explains the later ones too (the
        // startup probe's streak survives it, kubernetes-behavior.md).
        if let Some(oom) = exited.iter().rev().find(|i| {
            i.exit
                .as_ref()
                .is_some_and(|exit| exit.reason == "OOMKilled")
        }) {
            return Some(oom_killed(run, pod, container, oom, at));
        }
        let exit = last.exit.as_ref()?;
        let killing = killing_event(run, pod, container, last);
        let loaded = last.started + container.program.startup.value;
        if let Some(killing) = killing {
            let liveness = killing.message.contains("failed liveness probe");
            return Some(match (liveness, killing.at < loaded) {
                (true, true) => liveness_during_load(run, pod, container, last, killing, at),
                (false, true) => startup_budget(run, pod, container, last, killing, at),
                (_, false) => probe_kills_serving(run, pod, container, last, liveness, at),
            });
        }
        if let Some(oom) = &exit.gpu_oom {
            return Some(gpu_out_of_memory(run, pod, container, oom, at));
        }
        if exit.code != 0 {
            return Some(program_crash(run, pod, container, exit.code, at));
        }
        if pod.restart_policy == "Always" {
            return Some(completed_but_restarted(run, pod, container, at));
        }
    }
    None
}
