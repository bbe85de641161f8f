//! The rule registry: every rule podlab knows, with its ID, name, severity,
//! bilingual documentation and check.
//!
//! Rules PL001-PL005 are reported while reading the YAML and checking its
//! structure (`manifest::yaml`, `manifest::validate`), PL006 while applying
//! suppressions (`suppress`); they are listed here
//! for their documentation. PL003 also has a model-level part (values the
//! API server rejects). Every other rule lives in its own file and runs on
//! the typed objects of the file and its Scenario (or the Scenario defaults,
//! `shared/DESIGN.md`).
//!
//! Each rule file holds `pub static RULE: Rule` with the doc block (what it
//! checks, why it bites ML workloads, a failing and a fixed example, the fix).
//! The registry test lints every failing example and expects the rule, and
//! every fixed example and expects it gone.

use crate::diagnostic::{Diagnostic, Severity, TextEdit};
use crate::i18n::{Lang, Text};
use crate::manifest::model::{Container, Handler, PortRef, Workload};
use crate::manifest::scenario::Scenario;
use crate::span::Span;

pub mod doc;
pub mod edit;

mod pl001_yaml_syntax;
mod pl002_unknown_field;
mod pl003_invalid_value;
mod pl004_not_simulated;
mod pl005_input_limit;
mod pl006_unused_suppression;
mod pl101_gpu_limit_required;
mod pl102_gpu_fractional;
mod pl103_memory_limit_missing;
pub(crate) mod pl104_memory_limit_below_peak;
mod pl105_memory_headroom;
mod pl106_shm_too_small;
pub(crate) mod pl201_liveness_kills_slow_start;
mod pl202_startup_budget_too_short;
mod pl203_readiness_missing;
mod pl204_probe_port_unknown;
mod pl205_probe_timeout_too_short;
mod pl206_service_selects_nothing;
mod pl207_service_target_port_unknown;
mod pl301_image_tag_mutable;
mod pl302_secret_in_env;
mod pl401_no_graceful_shutdown;
mod pl402_grace_shorter_than_prestop;
mod pl501_gpu_taint_not_tolerated;
pub mod pl502_gpu_unschedulable;
mod pl503_mig_unsupported;
mod pl504_timeslice_memory_oversubscribed;
mod pl505_replicas_exceed_gpus;
mod pl506_hpa_max_exceeds_gpus;
mod pl507_rollout_surge_no_gpu;
mod pl601_job_restart_always;
pub mod pl602_cronjob_overlap;
mod pl603_hpa_cpu_on_gpu;
mod pl604_hpa_cold_start_exceeds_timeout;
mod pl605_hpa_target_sets_replicas;
mod pl606_scale_to_zero_without_interceptor;

/// Static text in both languages (for docs, which never need formatting).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Words {
    pub en: &'static str,
    pub zh_tw: &'static str,
}

impl Words {
    pub fn get(&self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.en,
            Lang::ZhTw => self.zh_tw,
        }
    }

    pub fn text(&self) -> Text {
        Text::new(self.en, self.zh_tw)
    }
}

/// Builds [`Words`]: `words!("English", "中文")`.
macro_rules! words {
    ($en:expr, $zh:expr $(,)?) => {
        $crate::rules::Words {
            en: $en,
            zh_tw: $zh,
        }
    };
}
pub(crate) use words;

/// A rule's long documentation (`what`, `why`, `fix`), compiled in with the
/// `rule-docs` feature (on by default). The web build leaves it out to stay
/// within its size budget: the page shows each rule's `summary`, and the
/// full text lives in docs/rules.md and `podlab rules ID`.
macro_rules! long {
    ($en:expr, $zh:expr $(,)?) => {
        if cfg!(feature = "rule-docs") {
            $crate::rules::words!($en, $zh)
        } else {
            $crate::rules::words!("", "")
        }
    };
}
pub(crate) use long;

/// A rule's failing or fixed example, under the same feature as [`long!`].
macro_rules! long_str {
    ($text:expr) => {
        if cfg!(feature = "rule-docs") {
            $text
        } else {
            ""
        }
    };
}
pub(crate) use long_str;

/// Everything a rule may look at.
pub struct Context<'a> {
    pub text: &'a str,
    pub workloads: &'a [Workload],
    /// The file's Scenario, or the defaults when it has none.
    pub scenario: &'a Scenario,
    /// The file's Services (`manifest::service`).
    pub services: &'a [crate::manifest::service::Service],
    /// The kinds of the file's other documents (`Reading::unread_kinds`).
    pub unread_kinds: &'a [String],
    /// The file's HorizontalPodAutoscalers (`manifest::hpa`).
    pub autoscalers: &'a [crate::manifest::hpa::Autoscaler],
}

impl<'a> Context<'a> {
    /// Whether a Scenario states the cluster (`cluster.nodePools`). The
    /// default pool and a cluster inferred from the manifests' cloud hints
    /// are assumptions: the cluster rules (PL501-PL507) do not judge them
    /// (issue 14; the simulator still runs on them).
    pub fn cluster_stated(&self) -> bool {
        self.scenario.pools_written && !self.scenario.is_cluster_inferred()
    }

    /// Each HPA of the file with the workload of the file it scales
    /// (`scaleTargetRef`: same kind and name).
    pub fn autoscaled(
        &self,
    ) -> impl Iterator<Item = (&'a crate::manifest::hpa::Autoscaler, &'a Workload)> + '_ {
        self.autoscalers.iter().filter_map(|hpa| {
            let workloads = self.workloads;
            let target = workloads.iter().find(|workload| {
                workload.kind.as_str() == hpa.target_kind && workload.name == hpa.target_name
            })?;
            Some((hpa, target))
        })
    }
}

/// `HorizontalPodAutoscaler "api"` and `HorizontalPodAutoscaler「api」`;
/// for the HPA a KEDA ScaledObject owns, the ScaledObject the author wrote
/// (`ScaledObject "api"`).
pub fn hpa_subject(hpa: &crate::manifest::hpa::Autoscaler) -> (String, String) {
    let (kind, name) = match &hpa.keda {
        Some(keda) => ("ScaledObject", &keda.name),
        None => ("HorizontalPodAutoscaler", &hpa.name),
    };
    (format!("{kind} \"{name}\""), format!("{kind}「{name}」"))
}

/// The field that bounds an autoscaler's replicas as its author wrote it:
/// `minReplicas`/`maxReplicas`, or a ScaledObject's
/// `minReplicaCount`/`maxReplicaCount`.
pub fn hpa_bound_field(hpa: &crate::manifest::hpa::Autoscaler, max: bool) -> &'static str {
    match (hpa.keda.is_some(), max) {
        (false, false) => "minReplicas",
        (false, true) => "maxReplicas",
        (true, false) => "minReplicaCount",
        (true, true) => "maxReplicaCount",
    }
}

/// Stated or assumed (issue 14, `docs/lint-decisions.md`): a finding that
/// rests only on numbers nobody stated (a Scenario or a `podlab.dev/`
/// annotation) is at most `info`, and its message names the assumption,
/// e.g. `text!("a 40s model load", ...)` and what would state it.
pub fn on_assumption(mut diagnostic: Diagnostic, assumption: Text, stated_by: &str) -> Diagnostic {
    diagnostic.severity = diagnostic.severity.min(Severity::Info);
    let (message_en, message_zh) = (&diagnostic.message.en, &diagnostic.message.zh_tw);
    let (assumption_en, assumption_zh) = (assumption.en, assumption.zh_tw);
    diagnostic.message = crate::text!(
        "{message_en} (assuming {assumption_en}: no Scenario or `{stated_by}` annotation states it)",
        "{message_zh}（假設{assumption_zh}：沒有 Scenario 或 `{stated_by}` annotation 寫明）"
    );
    diagnostic
}

/// A rule's check: reads the context, pushes diagnostics.
pub type Check = fn(&Context<'_>, &mut Vec<Diagnostic>);

/// One rule of the catalogue (`shared/DESIGN.md`, "Rule catalogue").
pub struct Rule {
    pub id: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    /// Reads the Scenario (or its defaults).
    pub scenario_aware: bool,
    /// One line: what it checks.
    pub summary: Words,
    /// What it checks, in full.
    pub what: Words,
    /// Why it bites ML workloads.
    pub why: Words,
    /// A manifest (and Scenario) on which the rule fires.
    pub failing: &'static str,
    /// The same manifest, fixed.
    pub fixed: &'static str,
    /// How to fix it.
    pub fix: Words,
    /// `None` for rules reported while reading the YAML (PL001, PL002, PL004, PL005).
    pub check: Option<Check>,
}

impl Rule {
    /// `(id, name)`, as [`Diagnostic::new`] takes it.
    pub fn key(&self) -> (&'static str, &'static str) {
        (self.id, self.name)
    }

    /// A diagnostic of this rule at its own severity.
    pub fn diagnostic(&self, span: Span, message: Text) -> Diagnostic {
        Diagnostic::new(self.key(), self.severity, span, message)
    }
}

/// Every rule, in ID order.
pub static RULES: &[&Rule] = &[
    &pl001_yaml_syntax::RULE,
    &pl002_unknown_field::RULE,
    &pl003_invalid_value::RULE,
    &pl004_not_simulated::RULE,
    &pl005_input_limit::RULE,
    &pl006_unused_suppression::RULE,
    &pl101_gpu_limit_required::RULE,
    &pl102_gpu_fractional::RULE,
    &pl103_memory_limit_missing::RULE,
    &pl104_memory_limit_below_peak::RULE,
    &pl105_memory_headroom::RULE,
    &pl106_shm_too_small::RULE,
    &pl201_liveness_kills_slow_start::RULE,
    &pl202_startup_budget_too_short::RULE,
    &pl203_readiness_missing::RULE,
    &pl204_probe_port_unknown::RULE,
    &pl205_probe_timeout_too_short::RULE,
    &pl206_service_selects_nothing::RULE,
    &pl207_service_target_port_unknown::RULE,
    &pl301_image_tag_mutable::RULE,
    &pl302_secret_in_env::RULE,
    &pl401_no_graceful_shutdown::RULE,
    &pl402_grace_shorter_than_prestop::RULE,
    &pl501_gpu_taint_not_tolerated::RULE,
    &pl502_gpu_unschedulable::RULE,
    &pl503_mig_unsupported::RULE,
    &pl504_timeslice_memory_oversubscribed::RULE,
    &pl505_replicas_exceed_gpus::RULE,
    &pl506_hpa_max_exceeds_gpus::RULE,
    &pl507_rollout_surge_no_gpu::RULE,
    &pl601_job_restart_always::RULE,
    &pl602_cronjob_overlap::RULE,
    &pl603_hpa_cpu_on_gpu::RULE,
    &pl604_hpa_cold_start_exceeds_timeout::RULE,
    &pl605_hpa_target_sets_replicas::RULE,
    &pl606_scale_to_zero_without_interceptor::RULE,
];

/// Finds a rule by ID (`PL201`, `pl201`) or name (`liveness-kills-slow-start`).
pub fn find(id_or_name: &str) -> Option<&'static Rule> {
    let wanted = id_or_name.trim();
    RULES
        .iter()
        .copied()
        .find(|rule| rule.id.eq_ignore_ascii_case(wanted) || rule.name == wanted)
}

/// Runs every rule with a check on the file's objects.
pub fn run(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for rule in RULES {
        if let Some(check) = rule.check {
            check(context, out);
        }
    }
}

// ---- what rules ask about containers -----------------------------------------------

pub use crate::sched::{gpu_requests, is_gpu_resource, pod_gpu_requests};

/// Whether a container looks like ML work: it asks for a GPU, the Scenario
/// models it by name, or its image is a well-known ML serving or training image.
pub fn is_ml_container(container: &Container, scenario: &Scenario) -> bool {
    const IMAGE_HINTS: &[&str] = &[
        "pytorch",
        "torch",
        "tensorflow",
        "tensorrt",
        "triton",
        "vllm",
        "text-generation-inference",
        "tgi",
        "cuda",
        "nvcr.io",
        "huggingface",
        "jax",
        "sglang",
        "ollama",
        "llama",
        "kserve",
        "model",
        "ray-ml",
        "jupyter",
        "inference",
        "training",
    ];
    if !gpu_requests(container).is_empty() {
        return true;
    }
    if container.annotated.states_anything()
        || scenario
            .programs
            .iter()
            .any(|program| program.container == container.name)
    {
        return true;
    }
    let image = container
        .image
        .as_ref()
        .map(|image| image.value.to_ascii_lowercase())
        .unwrap_or_default();
    IMAGE_HINTS.iter().any(|hint| image.contains(hint))
}

/// Whether a container of this workload serves traffic: a long-running kind
/// (not a Job or CronJob) and a declared container port.
pub fn serves(workload: &Workload, container: &Container) -> bool {
    !workload.kind.is_batch() && !container.ports.is_empty()
}

/// The YAML (flow style) of a probe handler, to copy it into a new probe.
pub fn handler_yaml(handler: &Handler) -> Option<String> {
    let port = |port: &Option<PortRef>| match port {
        Some(PortRef::Number(number)) => number.to_string(),
        Some(PortRef::Name(name)) => name.clone(),
        None => "8080".into(),
    };
    Some(match handler {
        Handler::HttpGet {
            path,
            port: p,
            scheme,
            ..
        } => {
            let scheme = if scheme == "HTTP" {
                String::new()
            } else {
                format!(", scheme: {scheme}")
            };
            format!(
                "httpGet: {{ path: {}, port: {}{scheme} }}",
                edit::yaml_scalar(path),
                port(p)
            )
        }
        Handler::TcpSocket { port: p, .. } => format!("tcpSocket: {{ port: {} }}", port(p)),
        Handler::Grpc { port, .. } => format!("grpc: {{ port: {} }}", port.unwrap_or(8080)),
        Handler::Exec { command } => format!(
            "exec: {{ command: [{}] }}",
            command
                .iter()
                .map(|word| edit::json_string(word))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Handler::Sleep { .. } | Handler::Missing => return None,
    })
}

/// A fix with one edit, when the edit could be built.
pub fn fix(description: Text, edit: Option<TextEdit>) -> Option<crate::diagnostic::Fix> {
    edit.map(|edit| crate::diagnostic::Fix {
        description,
        edits: vec![edit],
    })
}

#[cfg(test)]
mod tests;

// The containers with their API paths, which the API server's field errors
// print, live with those errors in `manifest::api`.
pub use crate::manifest::api::{containers, pod_spec_path};

/// Whether a probe that fails until the model has loaded kills the container
/// first (`shared/reference/kubelet.md` §1): its counted probes fall on a
/// grid of `periodSeconds` whose phase against the container start is
/// arbitrary, the first at or after `initialDelaySeconds`, so the
/// `failureThreshold`-th failure — the kill — comes between
/// `initialDelay + (failureThreshold − 1) × period` and
/// `initialDelay + failureThreshold × period` after the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KillRisk {
    /// Even the latest possible kill comes before the model has loaded.
    Certain,
    /// The earliest possible kill comes no later than the end of loading: it
    /// depends on the probe's phase (and on the load taking no longer than
    /// estimated).
    Possible,
}

/// When a probe that fails from the start kills the container, after the
/// start: `[initialDelay + (failureThreshold − 1) × period,
/// initialDelay + failureThreshold × period)`, the upper end excluded
/// (`shared/reference/kubelet.md` §1, `prober/worker.go`): the worker's
/// ticker runs from the pod's first sync, not from the container start,
/// and `doProbe` skips while `int32(time.Since(StartedAt).Seconds()) <
/// InitialDelaySeconds`, so the first counted probe is the first tick at or
/// after `StartedAt + initialDelay`, strictly less than one period later.
/// The `failureThreshold`-th failure, the kill, therefore comes strictly
/// before the budget `initialDelay + failureThreshold × period`.
pub fn kill_window(probe: &crate::manifest::model::Probe) -> (u64, u64) {
    let seconds = |value: i64| {
        u64::try_from(value.max(0))
            .unwrap_or(0)
            .saturating_mul(1000)
    };
    let delay = seconds(probe.initial_delay_seconds.value);
    let period = seconds(probe.period_seconds.value.max(1));
    let threshold = u64::try_from(probe.failure_threshold.value.max(1)).unwrap_or(1);
    let latest = delay.saturating_add(period.saturating_mul(threshold));
    (latest - period, latest)
}

/// `between 30s and 40s` / `30 秒到 40 秒之間`: a probe's kill window in
/// the one person-facing duration format (`explain::duration_text`), which
/// the rules and the diagnoses both print.
pub fn kill_window_text(probe: &crate::manifest::model::Probe) -> Text {
    let (earliest, latest) = kill_window(probe);
    let (from, to) = (
        crate::manifest::duration::duration_text(earliest),
        crate::manifest::duration::duration_text(latest),
    );
    let (from_zh, to_zh) = (from.zh_tw, to.zh_tw);
    let (from, to) = (from.en, to.en);
    crate::text!(
        "between {from} and {to} after each start",
        "每次啟動後 {from_zh}到 {to_zh}之間"
    )
}

/// Who wins when a bound of the kill window equals the load time. At the
/// budget (the upper end), the probe: its last counted check comes
/// strictly before it (`kill_window`), while the program still loads (the
/// simulator's program listens from `started + startup` on,
/// `sim/probes.rs`). At the lower end, the model. Empty otherwise.
pub fn budget_equals_load(probe: &crate::manifest::model::Probe, startup_ms: u64) -> Text {
    let (earliest, latest) = kill_window(probe);
    if earliest == startup_ms {
        // The window's lower end is included: a tick right at
        // `StartedAt + initialDelay` counts. The simulated program listens
        // from `started + startup` on, so a check at that very instant
        // succeeds: only a load any slower is killed.
        let at = crate::manifest::duration::duration_text(earliest);
        let (at, at_zh) = (at.en, at.zh_tw);
        return crate::text!(
            "; at exactly {at} the model wins: a check at the instant it starts listening succeeds, so only a load any slower is killed",
            "；剛好 {at_zh}時模型先到：在它開始監聽的那一刻檢查會成功，所以只有載入再慢一點才會被砍掉"
        );
    }
    if latest != startup_ms {
        return Text::default();
    }
    let at = crate::manifest::duration::duration_text(latest);
    let period = crate::manifest::duration::duration_text(kill_window_period(probe));
    let (at_zh, period_zh) = (at.zh_tw, period.zh_tw);
    let (at, period) = (at.en, period.en);
    crate::text!(
        "; the budget equals the load and the probe wins: its checks fall within {period} after initialDelaySeconds, never at the budget's end, so the last failing check comes before {at}, while the model is still loading",
        "；預算剛好等於載入時間，探針先到：探測落在 initialDelaySeconds 之後的 {period_zh}內，不會剛好落在預算的終點，所以最後一次失敗的檢查早於 {at_zh}，那時模型還在載入"
    )
}

fn kill_window_period(probe: &crate::manifest::model::Probe) -> u64 {
    let (earliest, latest) = kill_window(probe);
    latest - earliest
}

/// The kill risk of a probe for a program that loads for `startup_ms`.
pub fn kill_risk(probe: &crate::manifest::model::Probe, startup_ms: u64) -> Option<KillRisk> {
    let (earliest, latest) = kill_window(probe);
    if latest <= startup_ms {
        Some(KillRisk::Certain)
    } else if earliest <= startup_ms {
        Some(KillRisk::Possible)
    } else {
        None
    }
}
