//! Pure functions from core results to plain display data: no Html, no DOM,
//! so everything here is unit-tested natively.
//!
//! Invariant: every string produced here is taken from a bilingual `Text`
//! (`podlab_core::i18n`, or this crate's `i18n`) in the requested language.

use podlab_core::diagnostic::{Diagnostic, Severity};
use podlab_core::explain::diagnosis::{self, Diagnosis};
use podlab_core::explain::{describe, logs};
use podlab_core::i18n::{ui, Lang};
use podlab_core::manifest::duration::Millis;
use podlab_core::sim::{PodRun, Run};

use crate::findings::Findings;
use crate::i18n;
use crate::state::FixChange;

/// One diagnostic as the list shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiagnosticRow {
    /// The diagnostic's position in `Findings::diagnostics`, which is what
    /// the fix button sends back.
    pub index: usize,
    /// A key for Yew's list diffing, unique within one report.
    pub key: String,
    pub rule: &'static str,
    pub severity: Severity,
    pub severity_word: String,
    pub message: String,
    /// "line 3, column 5", in the chosen language.
    pub position: String,
    /// The help text, with its label ("help") beside it.
    pub help: Option<(String, String)>,
    pub fix: Option<FixButton>,
    /// The rule's name and one-line summary (the rule ID's tooltip).
    pub rule_title: String,
    /// The span as UTF-16 offsets into the text, as a textarea's
    /// `setSelectionRange` counts, and its 1-based line.
    pub selection: Selection,
}

/// Where a diagnostic sits in the editor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selection {
    pub start: u32,
    pub end: u32,
    pub line: usize,
}

/// The whole of `line` (1-based, lines split at `\n` as a textarea's
/// value is) as a selection, without its line break; `None` past the end.
/// "From my cluster" shows an evidence line of the paste with it.
pub fn line_selection(text: &str, line: usize) -> Option<Selection> {
    let lines = podlab_core::span::LineIndex::new(text);
    if line == 0 || line > lines.line_count() {
        return None;
    }
    let span = lines.line_span(text, line);
    Some(Selection {
        start: utf16_offset(text, span.start),
        end: utf16_offset(text, span.end),
        line,
    })
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixButton {
    pub label: String,
    /// What the fix does (the button's tooltip).
    pub title: String,
}

/// The rows of the diagnostics list, in the report's order (by position).
/// `text` must be the text the findings were made from.
pub fn diagnostic_rows(text: &str, findings: &Findings, lang: Lang) -> Vec<DiagnosticRow> {
    let lines = podlab_core::span::LineIndex::new(text);
    findings
        .diagnostics
        .iter()
        .enumerate()
        .map(|(index, diagnostic)| {
            let start = lines.line_col(text, diagnostic.span.start);
            // The rule's summary came from the worker (`rules::find` there).
            let rule_title = match findings.summaries.get(index).and_then(Option::as_ref) {
                Some(summary) => format!("{}: {}", diagnostic.name, summary.get(lang)),
                None => diagnostic.name.to_owned(),
            };
            DiagnosticRow {
                rule_title,
                selection: Selection {
                    start: utf16_offset(text, diagnostic.span.start),
                    end: utf16_offset(text, diagnostic.span.end.max(diagnostic.span.start)),
                    line: start.line,
                },
                index,
                key: format!("{}@{}#{index}", diagnostic.rule, diagnostic.span.start),
                rule: diagnostic.rule,
                severity: diagnostic.severity,
                severity_word: diagnostic.severity.word().get(lang).to_owned(),
                message: diagnostic.message.get(lang).to_owned(),
                position: ui::line_column(start.line, start.column)
                    .get(lang)
                    .to_owned(),
                help: diagnostic
                    .help
                    .as_ref()
                    .map(|help| (ui::help().get(lang).to_owned(), help.get(lang).to_owned())),
                fix: diagnostic
                    .fix
                    .as_ref()
                    .filter(|fix| !fix.edits.is_empty())
                    .map(|fix| FixButton {
                        label: i18n::fix_button().get(lang).to_owned(),
                        title: i18n::apply_fix(&fix.description).get(lang).to_owned(),
                    }),
            }
        })
        .collect()
}

/// The run's actions that did nothing (`Run::action_errors`: the pod,
/// node or Deployment an action names is not there at its time, or an
/// undo has nothing to go back to), as rows after the lint's, each at the
/// name's line and column. Known only once simulated, so the linter does
/// not report them; `podlab simulate` prints the same. Their label is the
/// Scenario's key, `actions` (an identifier, like a rule's ID). `first` is
/// the index after the lint's rows (no fix: the index is never sent).
pub fn action_error_rows(
    text: &str,
    run: &podlab_core::sim::Run,
    lang: Lang,
    first: usize,
) -> Vec<DiagnosticRow> {
    let lines = podlab_core::span::LineIndex::new(text);
    run.action_errors
        .iter()
        .enumerate()
        .map(|(i, error)| {
            let start = lines.line_col(text, error.span.start);
            DiagnosticRow {
                index: first + i,
                key: format!("actions@{}#{i}", error.span.start),
                rule: "actions",
                severity: Severity::Warning,
                severity_word: Severity::Warning.word().get(lang).to_owned(),
                message: podlab_core::explain::actions::message(error)
                    .get(lang)
                    .to_owned(),
                position: ui::line_column(start.line, start.column)
                    .get(lang)
                    .to_owned(),
                help: None,
                fix: None,
                rule_title: i18n::action_error_title().get(lang).to_owned(),
                selection: Selection {
                    start: utf16_offset(text, error.span.start),
                    end: utf16_offset(text, error.span.end.max(error.span.start)),
                    line: start.line,
                },
            }
        })
        .collect()
}

/// Splits text at backticks into plain and code pieces (`(is_code, piece)`),
/// so `kubectl describe pod` in a message shows as code. An unpaired
/// backtick is kept as written.
pub fn code_spans(text: &str) -> Vec<(bool, String)> {
    let pieces: Vec<&str> = text.split('`').collect();
    if pieces.len().is_multiple_of(2) {
        // Odd number of backticks: nothing is marked.
        return vec![(false, text.to_owned())];
    }
    pieces
        .iter()
        .enumerate()
        .filter(|(_, piece)| !piece.is_empty())
        .map(|(i, piece)| (i % 2 == 1, (*piece).to_owned()))
        .collect()
}

/// A byte offset as a count of UTF-16 code units (what the DOM counts);
/// offsets past the end or inside a character are clamped back.
pub fn utf16_offset(text: &str, byte: usize) -> u32 {
    let mut byte = byte.min(text.len());
    while !text.is_char_boundary(byte) {
        byte -= 1;
    }
    let units: usize = text[..byte].chars().map(char::len_utf16).sum();
    u32::try_from(units).unwrap_or(u32::MAX)
}

/// "1 error(s), 0 warning(s), 0 info", or "No problems found.".
pub fn summary(diagnostics: &[Diagnostic], lang: Lang) -> String {
    summary_with(diagnostics, 0, lang)
}

/// [`summary`] with `actions` more warnings: the run's actions that did
/// nothing ([`action_error_rows`]), listed with the lint's.
pub fn summary_with(diagnostics: &[Diagnostic], actions: usize, lang: Lang) -> String {
    let count = |severity: Severity| {
        diagnostics
            .iter()
            .filter(|diagnostic| diagnostic.severity == severity)
            .count()
    };
    if diagnostics.is_empty() && actions == 0 {
        ui::no_problems().get(lang).to_owned()
    } else {
        ui::summary(
            count(Severity::Error),
            count(Severity::Warning) + actions,
            count(Severity::Info),
        )
        .get(lang)
        .to_owned()
    }
}

/// The CSS class that colours a severity.
pub fn severity_class(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "sev-error",
        Severity::Warning => "sev-warning",
        Severity::Info => "sev-info",
    }
}

/// The page's first language: `?lang=en|zh-TW` wins, then the browser's
/// language, then English.
pub fn initial_lang(query: &str, navigator_language: Option<&str>) -> Lang {
    query
        .trim_start_matches('?')
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(key, _)| *key == "lang")
        .and_then(|(_, value)| Lang::parse(value))
        .or_else(|| navigator_language.and_then(Lang::parse))
        .unwrap_or_default()
}

// ------------------------------------------------------------ simulation

// The timeline's drawing and the stage's words live in the core
// (`podlab_core::picture`), where the picture an embed shows before its
// engine loads is drawn with them.
pub use podlab_core::picture::draw::{
    clock, fixed, marker_glyph, marker_title, memory_limit_label, memory_polyline, memory_scale,
    memory_y, percent_attr, segment_title, state_class, state_pattern, width_attr, MEMORY_BOX,
};
pub use podlab_core::picture::{get_pods_text as get_pods_pane, statuses as pod_statuses};

/// kubectl's answer for a pod that does not exist (yet, or any more).
fn not_found(pod: &PodRun) -> String {
    format!(
        "Error from server (NotFound): pods \"{}\" not found\n",
        pod.name
    )
}

/// The command line above a pane: `$ kubectl describe pod <name>`.
pub fn describe_command(run: &Run, pod: usize) -> String {
    match run.pods.get(pod) {
        Some(pod) => format!("$ kubectl describe pod {}", pod.name),
        None => "$ kubectl describe pod".to_owned(),
    }
}

/// `kubectl describe pod` of the pod at `pod` (an index into the run).
pub fn describe_pane(run: &Run, pod: usize, at: Millis) -> String {
    match run.pods.get(pod) {
        Some(pod) if pod.exists_at(at) => describe::describe_pod(run, pod, at),
        Some(pod) => not_found(pod),
        None => String::new(),
    }
}

/// `kubectl logs [--previous]` of every container of a pod: for a pod with
/// several containers, one `$ kubectl logs <pod> -c <container>` per
/// container (kubectl asks for `-c` then); errors as kubectl prints them.
pub fn logs_pane(run: &Run, pod: usize, at: Millis, previous: bool) -> Vec<(String, String)> {
    let Some(pod) = run.pods.get(pod) else {
        return Vec::new();
    };
    let flag = if previous { " --previous" } else { "" };
    let several = pod.containers.len() > 1;
    pod.containers
        .iter()
        .map(|container| {
            let target = if several {
                format!("{} -c {}", pod.name, container.name)
            } else {
                pod.name.clone()
            };
            let command = format!("$ kubectl logs {target}{flag}");
            let output = if !pod.exists_at(at) {
                not_found(pod)
            } else {
                match logs::logs(run, pod, &container.name, at, previous) {
                    Ok(text) => text,
                    Err(error) => format!("{error}\n"),
                }
            };
            (command, output)
        })
        .collect()
}

/// The diagnosis of the pod at `pod` at `at`, if it is not healthy then.
pub fn pod_diagnosis(run: &Run, pod: usize, at: Millis) -> Option<Diagnosis> {
    let name = &run.pods.get(pod)?.name;
    diagnosis::diagnose(run, at)
        .into_iter()
        .find(|diagnosis| &diagnosis.pod == name)
}

/// The note of an applied fix: "failureThreshold 30 → 45", "+6 lines:
/// startupProbe", joined, in the chosen language.
pub fn applied_note(changes: &[FixChange], lang: Lang) -> String {
    let parts: Vec<String> = changes
        .iter()
        .map(|change| match change {
            FixChange::Value { key, from, to } => format!("{key} {from} → {to}"),
            FixChange::Added { lines, key } => i18n::lines_added(*lines, key).get(lang).to_owned(),
            FixChange::Rewritten { lines } => i18n::lines_rewritten(*lines).get(lang).to_owned(),
        })
        .collect();
    parts.join(" · ")
}

/// The finding whose fix the diagnosis card offers for `diagnosis` (the
/// pod's outcome): its rule's, inside the pod's workload, from the
/// worker's lint of the text the run was made from.
pub fn card_fix(
    diagnosis: &Diagnosis,
    run: &Run,
    workloads: &[(
        podlab_core::manifest::model::WorkloadKind,
        String,
        podlab_core::span::Span,
    )],
    findings: &Findings,
) -> Option<usize> {
    let within = run
        .pods
        .iter()
        .find(|pod| pod.name == diagnosis.pod)
        .and_then(|pod| diagnosis::owner_document(&pod.owner, workloads));
    diagnosis.fix_of(&findings.diagnostics, within)
}

/// The controls an exercise shows: all but those whose change would break
/// one of its `forbid` goals (issue 12 item 3: what the learner may not
/// change is not offered). `programChanges` forbids the Scenario's
/// workload numbers but not `workers` (starting fewer workers is a fix,
/// `exercise/goals.rs`); `moreGpus` and `removeTaints` forbid the cluster
/// presets, which bring other nodes. `None`: no exercise, or nothing
/// forbidden.
pub fn exercise_controls(goals: &[podlab_core::exercise::Goal]) -> Option<Vec<&'static str>> {
    use podlab_core::exercise::Goal;
    let mut locked: Vec<&str> = Vec::new();
    for goal in goals {
        if let Goal::Forbid {
            more_gpus,
            program_changes,
            remove_taints,
        } = goal
        {
            if *program_changes {
                // The traffic sent and the model's speed are the program's
                // too (`forbid: programChanges`, docs/exercises.md).
                locked.extend(["startup", "memory", "gpu-memory", "traffic"]);
            }
            if *more_gpus || *remove_taints {
                locked.push("cluster");
            }
        }
    }
    (!locked.is_empty()).then(|| {
        crate::persist::CONTROL_IDS
            .into_iter()
            .filter(|id| !locked.contains(id))
            .collect()
    })
}

/// The traffic band's viewBox: x by time, y: the rate and capacity in the
/// top half, the latencies (log scale) in the bottom half.
pub const TRAFFIC_BOX: (u32, u32) = (1000, 100);
/// The rate chart's rows (y, in the viewBox), top and bottom.
const RATE_ROWS: (u32, u32) = (2, 44);
/// The latency chart's rows: 100 s at the top, 1 ms at the bottom.
const LATENCY_ROWS: (u32, u32) = (54, 98);

/// Compares an `Rc` by address: a new lint, run or chart is a new `Rc`
/// (a key for hooks, so nothing is recomputed for the same one).
pub struct SameRc<T: ?Sized>(pub std::rc::Rc<T>);

impl<T: ?Sized> PartialEq for SameRc<T> {
    fn eq(&self, other: &Self) -> bool {
        std::rc::Rc::ptr_eq(&self.0, &other.0)
    }
}

/// The band's shapes, as SVG `points` in `TRAFFIC_BOX` (tenths).
#[derive(Clone, Debug, PartialEq)]
pub struct TrafficPaths {
    /// The rate sent, a closed area.
    pub rate: String,
    pub capacity: String,
    /// One polyline per run of spans where something was answered.
    pub p50: Vec<String>,
    pub p99: Vec<String>,
    /// The target's y.
    pub target_y: String,
    /// Spans with failures: (x, width) in tenths, the cause that failed
    /// most, the count.
    pub failures: Vec<(String, String, podlab_core::sim::traffic::Failure, u64)>,
}

/// x of `at` in tenths of the box's width.
fn traffic_x(at: Millis, end: Millis) -> u128 {
    match end {
        0 => 0,
        end => u128::from(at.min(end)) * u128::from(TRAFFIC_BOX.0) * 10 / u128::from(end),
    }
}

/// y (tenths) of a rate on the rate rows.
fn rate_y(milli: u64, max: u64) -> u128 {
    let (top, bottom) = (u128::from(RATE_ROWS.0) * 10, u128::from(RATE_ROWS.1) * 10);
    let above = u128::from(milli.min(max)) * (bottom - top) / u128::from(max.max(1));
    bottom - above
}

/// y (tenths) of a latency on the log-scale rows: 1 ms at the bottom,
/// 100 s at the top (5 decades), through core's bit-exact logarithm.
pub fn latency_y(micros: u64) -> u128 {
    let (top, bottom) = (
        f64::from(LATENCY_ROWS.0) * 10.0,
        f64::from(LATENCY_ROWS.1) * 10.0,
    );
    let clamped = micros.clamp(1_000, 100_000_000) as f64;
    let decades = podlab_core::sim::traffic::ln(clamped / 1_000.0) / std::f64::consts::LN_10;
    (bottom - decades / 5.0 * (bottom - top)).round() as u128
}

/// The traffic band's shapes for `chart`.
pub fn traffic_paths(chart: &podlab_core::explain::traffic::Chart) -> TrafficPaths {
    use podlab_core::sim::traffic::Failure;
    let end = chart.end;
    let max = chart.max_milli_rps;
    let point = |x: u128, y: u128| format!("{},{}", fixed(x, 1), fixed(y, 1));
    let steps = |value: &dyn Fn(&podlab_core::explain::traffic::Bucket) -> u64| {
        let mut points = Vec::new();
        for bucket in &chart.buckets {
            let y = rate_y(value(bucket), max);
            points.push(point(traffic_x(bucket.from, end), y));
            points.push(point(traffic_x(bucket.to, end), y));
        }
        points
    };
    let mut rate = steps(&|b| b.rate);
    let floor = u128::from(RATE_ROWS.1) * 10;
    rate.push(point(traffic_x(end, end), floor));
    rate.insert(0, point(0, floor));
    let lines = |value: &dyn Fn(&podlab_core::explain::traffic::Bucket) -> Option<u64>| {
        let mut runs: Vec<String> = Vec::new();
        let mut current: Vec<String> = Vec::new();
        for bucket in &chart.buckets {
            match value(bucket) {
                Some(micros) => {
                    let middle = bucket.from + (bucket.to - bucket.from) / 2;
                    current.push(point(traffic_x(middle, end), latency_y(micros)));
                }
                None if !current.is_empty() => runs.push(std::mem::take(&mut current).join(" ")),
                None => {}
            }
        }
        if !current.is_empty() {
            runs.push(current.join(" "));
        }
        runs
    };
    let failures = chart
        .buckets
        .iter()
        .filter_map(|bucket| {
            let total: u64 = bucket.failed.iter().sum();
            let (index, _) = bucket
                .failed
                .iter()
                .enumerate()
                .max_by_key(|(index, count)| (**count, std::cmp::Reverse(*index)))?;
            (total > 0).then(|| {
                let x = traffic_x(bucket.from, end);
                let width = traffic_x(bucket.to, end).saturating_sub(x).max(4);
                (fixed(x, 1), fixed(width, 1), Failure::ALL[index], total)
            })
        })
        .collect();
    TrafficPaths {
        rate: rate.join(" "),
        capacity: steps(&|b| b.capacity).join(" "),
        p50: lines(&|b| b.p50),
        p99: lines(&|b| b.p99),
        target_y: fixed(latency_y(chart.target), 1),
        failures,
    }
}

/// The replicas band's viewBox: x by time as the traffic band's, y the
/// count from 0 (bottom) to the chart's top.
pub const REPLICAS_BOX: (u32, u32) = (1000, 40);
/// The count rows (y, in the viewBox), top and bottom.
const REPLICAS_ROWS: (u32, u32) = (3, 38);

/// The replicas band's shapes, as SVG `points` in `REPLICAS_BOX` (tenths).
#[derive(Clone, Debug, PartialEq)]
pub struct ReplicasPaths {
    /// The Ready count, a closed area.
    pub ready: String,
    /// The pods counted (created, not deleting), a step line.
    pub current: String,
    /// `spec.replicas`, a step line.
    pub desired: String,
    /// Each decision: its x (tenths) and the page's clock of its time.
    pub decisions: Vec<(String, String)>,
}

/// The replicas band's shapes for `chart`.
pub fn replicas_paths(chart: &podlab_core::explain::replicas::ReplicasChart) -> ReplicasPaths {
    use podlab_core::explain::replicas::Step;
    let end = chart.end;
    let (top, bottom) = (
        u128::from(REPLICAS_ROWS.0) * 10,
        u128::from(REPLICAS_ROWS.1) * 10,
    );
    let y = |count: usize| {
        bottom - (count.min(chart.top) as u128) * (bottom - top) / chart.top.max(1) as u128
    };
    let point = |at: Millis, count: usize| {
        format!("{},{}", fixed(traffic_x(at, end), 1), fixed(y(count), 1))
    };
    let steps = |value: &dyn Fn(&Step) -> usize| {
        let mut points = Vec::new();
        for (i, step) in chart.steps.iter().enumerate() {
            let to = chart.steps.get(i + 1).map_or(end, |next| next.from);
            points.push(point(step.from, value(step)));
            points.push(point(to, value(step)));
        }
        points
    };
    let mut ready = steps(&|s| s.ready);
    ready.insert(0, point(0, 0));
    ready.push(point(end, 0));
    ReplicasPaths {
        ready: ready.join(" "),
        current: steps(&|s| s.current).join(" "),
        desired: steps(&|s| s.desired).join(" "),
        decisions: chart
            .decisions
            .iter()
            .map(|d| (fixed(traffic_x(d.at, end), 1), clock(d.at)))
            .collect(),
    }
}

/// The CSS class of a failure cause's marks.
pub fn failure_class(failure: podlab_core::sim::traffic::Failure) -> &'static str {
    use podlab_core::sim::traffic::Failure;
    match failure {
        Failure::NotReady => "fail-not-ready",
        Failure::Terminating => "fail-terminating",
        Failure::QueueFull => "fail-queue-full",
        Failure::Timeout => "fail-timeout",
        Failure::NoEndpoints => "fail-no-endpoints",
        Failure::Crashed => "fail-crashed",
        Failure::InterceptorWait => "fail-interceptor-wait",
        Failure::ResponseHeader => "fail-response-header",
    }
}

#[cfg(test)]
mod tests {

    /// A recorded action that does nothing at its time (an undo with no
    /// earlier revision) is a row after the lint's, at its name's line and
    /// column, in both languages; a text whose actions all act has none.
    #[test]
    fn an_action_that_did_nothing_is_a_row_at_its_name() {
        use podlab_core::i18n::Lang;
        let text = "apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: m }\nspec:\n  selector: { matchLabels: { app: m } }\n  template:\n    metadata: { labels: { app: m } }\n    spec:\n      containers: [{ name: c, image: i:1 }]\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: s }\nspec:\n  duration: 2m\n  actions:\n    - { at: 1m, undo: { deployment: m } }\n";
        let run = podlab_core::sim::simulate(text, &podlab_core::sim::Options::default());
        let rows = super::action_error_rows(text, &run, Lang::En, 3);
        assert_eq!(rows.len(), 1);
        let row = &rows[0];
        assert_eq!(
            (row.index, row.rule, row.selection.line),
            (3, "actions", 17)
        );
        assert_eq!(row.position, "line 17, column 37");
        assert!(row.message.contains("no other revision"), "{}", row.message);
        assert!(row.fix.is_none());
        let zh = super::action_error_rows(text, &run, Lang::ZhTw, 0);
        assert!(zh[0].message.contains("revision"), "{}", zh[0].message);
        assert_ne!(zh[0].message, row.message);
        let fine = text.replace("undo: { deployment: m }", "restart: { deployment: m }");
        let run = podlab_core::sim::simulate(&fine, &podlab_core::sim::Options::default());
        assert!(super::action_error_rows(&fine, &run, Lang::En, 0).is_empty());
        // The summary counts it as a warning.
        assert_eq!(
            super::summary_with(&[], 1, Lang::En),
            super::ui::summary(0, 1, 0).get(Lang::En)
        );
    }

    #[test]
    fn a_pasted_line_is_selected_whole_in_utf16_units() {
        let text = "Name: 模型\r\n  Warning  Unhealthy  x\nlast";
        let first = super::line_selection(text, 1).expect("line 1");
        assert_eq!((first.start, first.end, first.line), (0, 8, 1));
        let second = super::line_selection(text, 2).expect("line 2");
        assert_eq!((second.start, second.end), (10, 33));
        let third = super::line_selection(text, 3).expect("line 3");
        assert_eq!((third.start, third.end), (34, 38));
        assert_eq!(super::line_selection(text, 4), None);
        assert_eq!(super::line_selection(text, 0), None);
        assert_eq!(
            super::line_selection("", 1).map(|s| (s.start, s.end)),
            Some((0, 0))
        );
    }

    #[test]
    fn an_exercise_offers_no_control_its_goals_forbid() {
        use podlab_core::exercise::Goal;
        let forbid = |more_gpus, program_changes, remove_taints| Goal::Forbid {
            more_gpus,
            program_changes,
            remove_taints,
        };
        assert_eq!(exercise_controls(&[Goal::MaxRestarts(0)]), None);
        assert_eq!(
            exercise_controls(&[forbid(false, true, false)]),
            Some(vec!["workers", "autoscaler", "cluster", "sharing"])
        );
        assert_eq!(
            exercise_controls(&[forbid(true, false, false)]),
            Some(vec![
                "startup",
                "memory",
                "workers",
                "gpu-memory",
                "traffic",
                "autoscaler",
                "sharing"
            ])
        );
        // Every library exercise that forbids program changes hides the load
        // time slider, the one that would quietly "solve" a crash loop.
        for exercise in podlab_core::exercise::library::all() {
            let forbids = exercise.goals.iter().any(|goal| {
                matches!(
                    goal,
                    Goal::Forbid {
                        program_changes: true,
                        ..
                    }
                )
            });
            let shown = exercise_controls(&exercise.goals);
            assert_eq!(
                forbids,
                shown.as_ref().is_some_and(|ids| !ids.contains(&"startup")),
                "{}",
                exercise.id
            );
        }
    }
    use super::*;
    use podlab_core::diagnostic::TextEdit;
    use podlab_core::lint::lint;

    /// The worker's findings, made in-process.
    fn findings(text: &str) -> Findings {
        Findings::of(text)
    }

    const CRASH_LOOP: &str = include_str!("../../tests/golden/crash-loop-liveness-40s.yaml");

    #[test]
    fn a_fix_is_described_by_what_it_changes() {
        let edit = |start: usize, end: usize, text: &str| TextEdit {
            span: podlab_core::span::Span { start, end },
            text: text.to_owned(),
        };
        let text = "a:\n  limits: { memory: 6Gi, cpu: 1 }\n  failureThreshold: 30\nb: 1\n";
        let memory = text.find("6Gi").expect("in the text");
        let threshold = text.find("30").expect("in the text");
        let b = text.find("b: 1").expect("in the text");
        let (changes, lines) = crate::state::changes(
            text,
            &[
                edit(threshold, threshold + 2, "45"),
                edit(memory, memory + 3, "12Gi"),
                edit(b, b, "probe:\n  x: 1\n  y: 2\n"),
            ],
        );
        assert_eq!(
            changes,
            vec![
                FixChange::Value {
                    key: "memory".into(),
                    from: "6Gi".into(),
                    to: "12Gi".into()
                },
                FixChange::Value {
                    key: "failureThreshold".into(),
                    from: "30".into(),
                    to: "45".into()
                },
                FixChange::Added {
                    lines: 3,
                    key: "probe".into()
                },
            ]
        );
        // Lines of the new text: the insertion starts where `b: 1` was.
        assert_eq!(lines, vec![(1, 1), (2, 2), (3, 5)]);
        assert_eq!(
            applied_note(&changes, Lang::En),
            "memory 6Gi → 12Gi · failureThreshold 30 → 45 · +3 lines: probe"
        );
        assert_eq!(applied_note(&changes[2..], Lang::ZhTw), "新增 3 行：probe");
        // Lines after an insertion move down with it.
        let (_, lines) = changes_of_two_insertions();
        assert_eq!(lines, vec![(0, 1), (3, 3)]);
    }

    fn changes_of_two_insertions() -> (Vec<FixChange>, Vec<(usize, usize)>) {
        let text = "x: 1\ny: 2\n";
        let edits = [
            TextEdit {
                span: podlab_core::span::Span { start: 0, end: 0 },
                text: "p: 1\nq: 2\n".into(),
            },
            TextEdit {
                span: podlab_core::span::Span { start: 5, end: 9 },
                text: "y: 3".into(),
            },
        ];
        crate::state::changes(text, &edits)
    }

    #[test]
    fn the_card_offers_the_fix_of_the_pods_own_workload() {
        let state = crate::state::Linted::new(CRASH_LOOP.into());
        let run = &state.run;
        let diagnosis = pod_diagnosis(run, 0, 720_000).expect("the crash loop");
        let found = findings(CRASH_LOOP);
        let index = card_fix(&diagnosis, run, &state.workloads, &found).expect("PL201's fix");
        assert_eq!(found.diagnostics[index].rule, "PL201");
        // Another workload's document holds no finding of this pod's.
        let elsewhere = [(
            podlab_core::manifest::model::WorkloadKind::Deployment,
            state.workloads[0].1.clone(),
            podlab_core::span::Span { start: 0, end: 1 },
        )];
        assert_eq!(card_fix(&diagnosis, run, &elsewhere, &found), None);
    }

    fn crash_loop() -> Run {
        podlab_core::sim::simulate(CRASH_LOOP, &podlab_core::sim::Options::default())
    }

    #[test]
    fn clock_shows_minutes_and_seconds_then_hours() {
        assert_eq!(clock(0), "0:00");
        assert_eq!(clock(720_000), "12:00");
        assert_eq!(clock(41_800), "0:41");
        assert_eq!(clock(3_723_000), "1:02:03");
    }

    #[test]
    fn positions_are_percentages_of_the_run() {
        assert_eq!(percent_attr(450_000, 900_000), "50.000%");
        assert_eq!(percent_attr(2_000_000, 900_000), "100.000%");
        assert_eq!(percent_attr(5, 0), "0.000%");
        assert_eq!(width_attr(0, 90_000, 900_000), "10.000%");
    }

    #[test]
    fn the_memory_curve_fits_its_box_under_the_limit_line() {
        let run = crash_loop();
        let timeline = podlab_core::explain::timeline::timeline(&run);
        let lane = &timeline.pods[0].containers[0];
        let scale = memory_scale(lane);
        assert!(scale > lane.memory_peak());
        let points = memory_polyline(&lane.memory, run.end, scale);
        assert!(points.starts_with("2.2,100.0 "), "{points}");
        for point in points.split(' ') {
            let (x, y) = point.split_once(',').expect("x,y");
            let (x, y): (f64, f64) = (x.parse().unwrap(), y.parse().unwrap());
            assert!(
                (0.0..=1000.0).contains(&x) && (0.0..=100.0).contains(&y),
                "{point}"
            );
        }
        assert_eq!(memory_limit_label(lane, Lang::En), "no memory limit");
        assert_eq!(memory_y(0, scale), "100.0");
        assert_eq!(memory_y(scale, scale), "0.0");
        assert_eq!(memory_y(500, 1_000), "50.0");
        assert_eq!(memory_y(2_000, 1_000), "0.0", "clamped at the top");
    }

    #[test]
    fn the_crash_loop_at_12_minutes_in_every_pane() {
        let run = crash_loop();
        let at = 720_000;
        assert_eq!(pod_statuses(&run, at), vec!["CrashLoopBackOff".to_owned()]);
        assert_eq!(
            pod_statuses(&run, 1_000),
            vec!["ContainerCreating".to_owned()]
        );
        let get = get_pods_pane(&run, at);
        assert!(get.starts_with("NAME "), "{get}");
        assert!(get.contains("CrashLoopBackOff   7 (2m39s ago)"), "{get}");
        let describe = describe_pane(&run, 0, at);
        assert!(describe.contains("Liveness probe failed"), "{describe}");
        assert!(describe_command(&run, 0).starts_with("$ kubectl describe pod model-api-"));
        let logs = logs_pane(&run, 0, at, false);
        assert_eq!(logs.len(), 1);
        assert!(
            logs[0].0.starts_with("$ kubectl logs model-api-"),
            "{logs:?}"
        );
        assert!(!logs[0].0.ends_with("--previous"));
        let previous = logs_pane(&run, 0, at, true);
        assert!(previous[0].0.ends_with(" --previous"));
        assert!(
            previous[0].1.contains("Loading model weights"),
            "{previous:?}"
        );
        let diagnosis = pod_diagnosis(&run, 0, at).expect("a diagnosis");
        assert!(diagnosis.next_command.contains("kubectl"), "{diagnosis:?}");
        assert!(pod_diagnosis(&run, 5, at).is_none());
        assert_eq!(describe_pane(&run, 5, at), "");
    }

    #[test]
    fn a_pod_before_its_creation_is_not_found() {
        let run = crash_loop();
        let mut late = run.clone();
        late.pods[0].created = 60_000;
        let describe = describe_pane(&late, 0, 1_000);
        assert!(
            describe.starts_with("Error from server (NotFound): pods \"model-api-"),
            "{describe}"
        );
        assert_eq!(pod_statuses(&late, 1_000), vec![String::new()]);
        assert_eq!(
            get_pods_pane(&late, 1_000),
            "No resources found in default namespace.\n"
        );
    }

    #[test]
    fn marker_titles_carry_the_event_message_in_the_page_language() {
        let run = crash_loop();
        let timeline = podlab_core::explain::timeline::timeline(&run);
        let lane = &timeline.pods[0].containers[0];
        let first = &lane.markers[0];
        let title = marker_title(first, Lang::ZhTw);
        assert!(
            title.starts_with("0:20 livenessProbe 失敗\nLiveness probe failed: Get"),
            "{title}"
        );
        let segment = &lane.segments[0];
        assert_eq!(
            segment_title(lane, segment, Lang::En),
            "ContainerCreating (0:00–0:02)"
        );
        assert_eq!(marker_glyph(first.kind).0, "L");
    }

    fn rows(text: &str, lang: Lang) -> Vec<DiagnosticRow> {
        diagnostic_rows(text, &findings(text), lang)
    }

    #[test]
    fn broken_flow_sequence_gives_one_pl001_row_on_line_1() {
        let rows = rows("a: [", Lang::En);
        assert_eq!(rows.len(), 1, "{rows:?}");
        assert_eq!(rows[0].rule, "PL001");
        assert_eq!(rows[0].severity, Severity::Error);
        assert_eq!(rows[0].severity_word, "error");
        assert!(rows[0].position.starts_with("line 1, column "), "{rows:?}");
        assert!(!rows[0].message.is_empty());
    }

    #[test]
    fn rows_speak_chinese_when_asked() {
        let chinese = rows("a: [", Lang::ZhTw);
        assert_eq!(chinese[0].severity_word, "錯誤");
        assert!(
            chinese[0].position.starts_with("第 1 行，第 "),
            "{chinese:?}"
        );
        assert_ne!(chinese[0].message, rows("a: [", Lang::En)[0].message);
    }

    #[test]
    fn default_text_has_no_errors() {
        let text = crate::DEFAULT_TEXT;
        let report = lint(text);
        assert!(!report.has_errors(), "{:?}", report.diagnostics);
    }

    #[test]
    fn a_diagnostic_with_a_fix_gets_a_button_describing_it() {
        use podlab_core::diagnostic::{Fix, TextEdit};
        use podlab_core::i18n::Text;
        use podlab_core::span::Span;

        let text = "a: 1\nb: 2\n";
        let mut report = findings(text);
        report.summaries.push(None);
        report.diagnostics.push(Diagnostic {
            rule: "PL999",
            name: "test-rule",
            severity: Severity::Warning,
            span: Span::new(5, 6),
            message: Text::new("b is odd", "b 很奇怪"),
            help: Some(Text::new("rename it", "改名")),
            fix: Some(Fix {
                description: Text::new("rename b to c", "把 b 改成 c"),
                edits: vec![TextEdit {
                    span: Span::new(5, 6),
                    text: "c".into(),
                }],
            }),
        });
        let rows = diagnostic_rows(text, &report, Lang::ZhTw);
        let row = rows.last().expect("the added diagnostic");
        assert_eq!(row.position, "第 2 行，第 1 欄");
        assert_eq!(row.help, Some(("建議".to_owned(), "改名".to_owned())));
        assert_eq!(
            row.fix,
            Some(FixButton {
                label: "修正".to_owned(),
                title: "套用修正：把 b 改成 c".to_owned(),
            })
        );
        assert_eq!(row.rule_title, "test-rule", "no summary: the name alone");
        assert_eq!(
            summary(&report.diagnostics, Lang::En),
            "0 error(s), 1 warning(s), 0 info"
        );
    }

    #[test]
    fn summary_counts_or_says_nothing_found() {
        assert_eq!(
            summary(&lint("a: 1\n").diagnostics, Lang::En),
            "No problems found."
        );
        assert_eq!(
            summary(&lint("a: 1\n").diagnostics, Lang::ZhTw),
            "沒有發現問題。"
        );
        assert_eq!(
            summary(&lint("a: [").diagnostics, Lang::En),
            "1 error(s), 0 warning(s), 0 info"
        );
    }

    #[test]
    fn keys_are_unique_within_a_report() {
        let rows = rows("a: [\nb: ]\n", Lang::En);
        let mut keys: Vec<&str> = rows.iter().map(|row| row.key.as_str()).collect();
        podlab_core::sort::sort(&mut keys);
        keys.dedup();
        assert_eq!(keys.len(), rows.len());
    }

    #[test]
    fn selections_count_utf16_units_like_the_dom() {
        // "名" is 3 bytes and 1 UTF-16 unit; "😀" is 4 bytes and 2 units.
        let text = "a: 名😀\nb: [";
        assert_eq!(utf16_offset(text, 3), 3);
        assert_eq!(utf16_offset(text, 6), 4);
        assert_eq!(utf16_offset(text, 10), 6);
        assert_eq!(utf16_offset(text, 4), 3, "inside a character: clamped back");
        assert_eq!(utf16_offset(text, 999), 11);
        let rows = rows(text, Lang::En);
        assert_eq!(rows[0].selection.line, 2);
        assert!(rows[0].selection.start >= 7, "{rows:?}");
    }

    #[test]
    fn backticks_become_code_pieces() {
        assert_eq!(
            code_spans("run `kubectl get pods` now"),
            vec![
                (false, "run ".to_owned()),
                (true, "kubectl get pods".to_owned()),
                (false, " now".to_owned())
            ]
        );
        assert_eq!(code_spans("a ` b"), vec![(false, "a ` b".to_owned())]);
        assert_eq!(code_spans("`x`"), vec![(true, "x".to_owned())]);
    }

    #[test]
    fn rule_ids_carry_their_name_and_summary() {
        let rows = rows("a: [", Lang::ZhTw);
        assert!(
            rows[0].rule_title.starts_with("yaml-syntax: YAML"),
            "{rows:?}"
        );
    }

    #[test]
    fn query_parameter_beats_browser_language() {
        assert_eq!(initial_lang("?lang=zh-TW", Some("en-US")), Lang::ZhTw);
        assert_eq!(initial_lang("?x=1&lang=en", Some("zh-TW")), Lang::En);
        assert_eq!(initial_lang("", Some("zh-Hant-TW")), Lang::ZhTw);
        assert_eq!(initial_lang("?lang=fr", Some("de")), Lang::En);
        assert_eq!(initial_lang("", None), Lang::En);
    }

    #[test]
    fn the_replicas_band_steps_at_each_change() {
        use podlab_core::explain::replicas::{Decision, ReplicasChart, Step};
        let step = |from, desired, current, ready| Step {
            from,
            desired,
            current,
            ready,
        };
        let chart = ReplicasChart {
            autoscaler: "m".into(),
            target: "Deployment/m".into(),
            min_replicas: 1,
            max_replicas: 4,
            end: 100_000,
            steps: vec![
                step(0, 1, 1, 0),
                step(10_000, 1, 1, 1),
                step(50_000, 2, 2, 1),
            ],
            decisions: vec![Decision {
                at: 50_000,
                from: 1,
                to: 2,
                reason: "x above target".into(),
            }],
            top: 4,
        };
        let paths = replicas_paths(&chart);
        // y: 380 tenths for 0, 30 for the top (4): 350 / 4 tenths a replica,
        // truncated: 1 → 380 − 87 = 293, 2 → 380 − 175 = 205.
        assert_eq!(
            paths.ready,
            "0.0,38.0 0.0,38.0 100.0,38.0 100.0,29.3 500.0,29.3 500.0,29.3 1000.0,29.3 1000.0,38.0"
        );
        assert_eq!(
            paths.desired,
            "0.0,29.3 100.0,29.3 100.0,29.3 500.0,29.3 500.0,20.5 1000.0,20.5"
        );
        assert_eq!(
            paths.decisions,
            vec![("500.0".to_string(), "0:50".to_string())]
        );
    }

    #[test]
    fn the_traffic_band_scales_rates_linearly_and_latencies_by_decades() {
        // 1 ms at the bottom row, 100 s at the top, 10 ms one decade up.
        assert_eq!(latency_y(1_000), 980);
        assert_eq!(latency_y(100_000_000), 540);
        assert_eq!(latency_y(10_000), 892);
        assert_eq!(latency_y(10), 980);
        assert_eq!(rate_y(0, 100_000), 440);
        assert_eq!(rate_y(100_000, 100_000), 20);
        assert_eq!(rate_y(50_000, 100_000), 230);
    }

    #[test]
    fn the_traffic_band_draws_a_burst_past_capacity() {
        let text = "apiVersion: v1\nkind: Service\nmetadata: {name: m}\nspec:\n  selector: {app: m}\n  ports: [{port: 80, targetPort: 8000}]\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: m}\nspec:\n  selector: {matchLabels: {app: m}}\n  template:\n    metadata: {labels: {app: m}}\n    spec:\n      containers:\n        - name: api\n          image: m:1\n          ports: [{containerPort: 8000}]\n          readinessProbe: {httpGet: {path: /health, port: 8000}}\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nspec:\n  duration: 5m\n  workload: [{container: api, startup: 10s}]\n  traffic: {service: m, rate: [{at: 0s, rps: 20}, {at: 2m, rps: 90}, {at: 3m, rps: 20}]}\n";
        let run = podlab_core::sim::simulate(text, &podlab_core::sim::Options::default());
        let chart =
            podlab_core::explain::traffic::chart(run.traffic.as_ref().unwrap(), run.end, 300);
        // One second a span over 5 minutes.
        assert_eq!(chart.buckets.len(), 300);
        assert!(chart.over_target());
        let paths = traffic_paths(&chart);
        assert!(paths.rate.starts_with("0.0,44.0 "), "{}", paths.rate);
        assert!(!paths.p99.is_empty());
        // Failures before the pod is Ready (no endpoint) and in the burst
        // (a full queue).
        use podlab_core::sim::traffic::Failure;
        assert!(paths.failures.iter().any(|f| f.2 == Failure::NoEndpoints));
        assert!(paths.failures.iter().any(|f| f.2 == Failure::QueueFull));
    }
}

/// The numbers of the sliders' container that the text does not state
/// (`Run::assumed`): one function with the picture's panel.
pub use podlab_core::controls::sliders::assumed as controls_assumed;

#[cfg(test)]
mod assumed_tests {
    use super::*;
    use podlab_core::manifest::path::ProgramField;

    #[test]
    fn the_sliders_mark_what_the_text_does_not_state() {
        let text = "apiVersion: v1\nkind: Pod\nmetadata: { name: m }\nspec:\n  containers:\n    - name: api\n      image: vllm/vllm-openai:v0.6.0\n      resources:\n        limits: { memory: 10Gi }\n        requests: { memory: 10Gi }\n";
        let run = podlab_core::sim::simulate(text, &podlab_core::sim::Options::default());
        let marked = controls_assumed(&run, "api");
        let fields: Vec<ProgramField> = marked.iter().map(|(field, _)| *field).collect();
        assert!(fields.contains(&ProgramField::Startup), "{marked:?}");
        assert!(fields.contains(&ProgramField::MemoryPeak), "{marked:?}");
        // 1.75 × the 10Gi request.
        assert!(
            marked.contains(&(ProgramField::MemoryPeak, "17920Mi".to_string())),
            "{marked:?}"
        );
        let stated = format!("{text}---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: {{ name: s }}\nspec:\n  workload:\n    - container: api\n      startup: 30s\n      memory: {{ steady: 6Gi, peak: 12Gi }}\n");
        let run = podlab_core::sim::simulate(&stated, &podlab_core::sim::Options::default());
        let marked = controls_assumed(&run, "api");
        assert!(
            !marked.iter().any(|(field, _)| matches!(
                field,
                ProgramField::Startup | ProgramField::MemoryPeak | ProgramField::MemorySteady
            )),
            "{marked:?}"
        );
    }
}
