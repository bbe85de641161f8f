//! An axis of the outcome map: which number of the text it moves (a path of
//! `manifest::path`'s grammar), its unit, its range, its values, and the
//! edit that writes one value into the parsed model (docs/map.md).
//!
//! A cell never re-reads the text: [`Axis::set`] edits the `Reading` as
//! `manifest::read` would have lowered the text with the value written in
//! it. A program number edits the Scenario's `workload` entry the simulator
//! uses for the container (`Scenario::program_spec`: its own name, else
//! `*`; a new entry when there is none), as `controls::apply` writes it; a
//! manifest field edits the first workload and, with it, the canonical form
//! the seed and the `pod-template-hash` are computed from
//! (`manifest::canonical`), so a cell's pod names are the edited text's.

use crate::i18n::Text;
use crate::manifest::canonical::{self, Canon};
use crate::manifest::duration::{self, Millis};
use crate::manifest::model::{Amount, Container, ProbeKind, Setting, Workload, WorkloadKind};
use crate::manifest::path::{self, Path, ProgramField};
use crate::manifest::quantity::{self, format_bytes, Quantity};
use crate::manifest::read::Reading;
use crate::span::Span;
use crate::text;

/// The unit of an axis' values (all held as `i128`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Milliseconds, written `40s`, `2m30s`.
    Duration,
    /// Bytes, written `16Gi`, `1536Mi`.
    Bytes,
    /// A count or whole seconds, written `3`.
    Count,
}

impl Unit {
    /// A value as the text writes it: `40s`, `16Gi`, `3`.
    pub fn format(self, value: i128) -> String {
        match self {
            Unit::Duration => duration::format(Millis::try_from(value.max(0)).unwrap_or(0)),
            Unit::Bytes => format_bytes(value),
            Unit::Count => value.to_string(),
        }
    }

    fn parse(self, written: &str) -> Result<i128, Text> {
        match self {
            Unit::Duration => duration::parse(written)
                .map(i128::from)
                .map_err(|error| error.message(written)),
            Unit::Bytes => quantity::parse(written)
                .map(|q| q.value())
                .map_err(|error| error.message(written)),
            Unit::Count => written
                .parse::<i64>()
                .map(i128::from)
                .map_err(|_| text!("`{written}` is not a whole number", "`{written}` 不是整數")),
        }
    }

    /// The step values are rounded to: whole seconds or MiB when the range
    /// holds at least one per step, else the unit itself.
    fn grain(self, span: i128, steps: i128) -> i128 {
        let coarse: i128 = match self {
            Unit::Duration => 1000,
            Unit::Bytes => 1 << 20,
            Unit::Count => 1,
        };
        if span >= coarse.saturating_mul(steps.max(1)) {
            coarse
        } else {
            1
        }
    }
}

/// A field of a probe the map can move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProbeField {
    InitialDelaySeconds,
    PeriodSeconds,
    FailureThreshold,
    TimeoutSeconds,
}

impl ProbeField {
    const ALL: [ProbeField; 4] = [
        ProbeField::InitialDelaySeconds,
        ProbeField::PeriodSeconds,
        ProbeField::FailureThreshold,
        ProbeField::TimeoutSeconds,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ProbeField::InitialDelaySeconds => "initialDelaySeconds",
            ProbeField::PeriodSeconds => "periodSeconds",
            ProbeField::FailureThreshold => "failureThreshold",
            ProbeField::TimeoutSeconds => "timeoutSeconds",
        }
    }

    /// The least value a map takes. The API server accepts 0 for each
    /// (`validateProbe`, `pkg/apis/core/validation/validation.go`:
    /// `ValidateNonnegativeField`), but `SetDefaults_Probe`
    /// (`pkg/apis/core/v1/defaults.go`) turns a 0 period, threshold or
    /// timeout into its default (10, 3, 1), so 0 is not a value of those
    /// axes; `initialDelaySeconds` has no default and 0 is 0.
    fn least(self) -> i128 {
        match self {
            ProbeField::InitialDelaySeconds => 0,
            _ => 1,
        }
    }
}

/// What an axis moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A number of a program's model (the Scenario's `workload` entry).
    Program {
        container: String,
        field: ProgramField,
    },
    /// `spec.replicas` of the first workload.
    Replicas,
    /// A field of a probe of a container of the first workload.
    Probe {
        container: String,
        probe: ProbeKind,
        field: ProbeField,
    },
    /// `resources.limits.memory` of a container of the first workload.
    MemoryLimit { container: String },
}

/// One axis: what it moves and over which range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Axis {
    /// The full path (`workload[api].startup`,
    /// `spec.template.spec.containers[api].livenessProbe.periodSeconds`).
    pub name: String,
    pub target: Target,
    pub unit: Unit,
    pub from: i128,
    pub to: i128,
}

impl Axis {
    /// Reads `NAME=FROM..TO` (`startup=0s..300s`, `memory.peak=1Gi..16Gi`)
    /// against the text's reading, which names the first program and
    /// workload and holds the probes a field path names.
    pub fn parse(spec: &str, reading: &Reading) -> Result<Axis, Text> {
        let Some((name, range)) = spec.split_once('=') else {
            return Err(text!(
                "`{spec}`: an axis is NAME=FROM..TO (`startup=0s..300s`)",
                "`{spec}`：座標軸的寫法是 NAME=FROM..TO（`startup=0s..300s`）"
            ));
        };
        let (target, unit, name) = target_of(name.trim(), reading)?;
        let Some((from, to)) = range.split_once("..") else {
            return Err(text!(
                "`{spec}`: the range is FROM..TO (`0s..300s`)",
                "`{spec}`：範圍的寫法是 FROM..TO（`0s..300s`）"
            ));
        };
        let (from, to) = (unit.parse(from.trim())?, unit.parse(to.trim())?);
        if from > to {
            return Err(text!(
                "`{spec}`: the range runs from {from} to {to}, the smaller first",
                "`{spec}`：範圍要由小到大（{from} 到 {to}）"
            ));
        }
        let least = least(&target);
        if from < least {
            let least = unit.format(least);
            return Err(text!(
                "`{spec}`: `{name}` is at least {least}",
                "`{spec}`：`{name}` 至少是 {least}"
            ));
        }
        Ok(Axis {
            name,
            target,
            unit,
            from,
            to,
        })
    }

    /// `steps` values from `from` to `to`, both included, evenly spaced and
    /// rounded to whole seconds or MiB (a count to whole numbers, without
    /// repeats); one value when `steps` is 1 or the range is a point.
    pub fn values(&self, steps: usize) -> Vec<i128> {
        let (from, to) = (self.from, self.to);
        let n = i128::try_from(steps.max(1)).unwrap_or(1);
        if n == 1 || from == to {
            return vec![from];
        }
        let span = to - from;
        let grain = self.unit.grain(span, n - 1);
        let mut values: Vec<i128> = Vec::with_capacity(steps);
        for i in 0..n {
            let exact = from + span.saturating_mul(i) / (n - 1);
            let value = if i == 0 || i == n - 1 {
                exact
            } else {
                (exact.saturating_add(grain / 2) / grain * grain).clamp(from, to)
            };
            if values.last() != Some(&value) {
                values.push(value);
            }
        }
        values
    }

    /// The text's own value of the axis' number (the learner's point).
    pub fn value_in(&self, reading: &Reading) -> Option<i128> {
        match &self.target {
            Target::Program { container, field } => {
                let container = find_any(reading, container)?;
                Some(reading.scenario.program(container).number(*field))
            }
            Target::Replicas => reading
                .workloads
                .first()?
                .replicas
                .as_ref()
                .map(|r| i128::from(r.value)),
            Target::Probe {
                container,
                probe,
                field,
            } => {
                let container = find_container(reading.workloads.first()?, container)?;
                let probe = probe_of(container, *probe)?;
                Some(i128::from(match field {
                    ProbeField::InitialDelaySeconds => probe.initial_delay_seconds.value,
                    ProbeField::PeriodSeconds => probe.period_seconds.value,
                    ProbeField::FailureThreshold => probe.failure_threshold.value,
                    ProbeField::TimeoutSeconds => probe.timeout_seconds.value,
                }))
            }
            Target::MemoryLimit { container } => {
                let container = find_container(reading.workloads.first()?, container)?;
                container
                    .resources
                    .limit("memory")
                    .and_then(|amount| amount.quantity)
                    .map(Quantity::value)
            }
        }
    }

    /// Whether the edit touches a workload document (and so the seed).
    pub fn edits_manifest(&self) -> bool {
        !matches!(self.target, Target::Program { .. })
    }

    /// Writes `value` into `reading` as reading the text with the value
    /// written would have lowered it. The canonical forms (and so the seed)
    /// follow a manifest field; `Reading::seed` is left to the caller
    /// (`canonical::seed(&reading.canons)`).
    pub fn set(&self, reading: &mut Reading, value: i128) {
        match &self.target {
            Target::Program { container, field } => {
                reading.scenario.set_number(container, *field, value);
            }
            target => {
                let Some(workload) = reading.workloads.first_mut() else {
                    return;
                };
                let written = Canon::Int(i64::try_from(value).unwrap_or(i64::MAX));
                let canon_value = match self.unit {
                    Unit::Bytes => {
                        let text = format_bytes(value);
                        match text.parse::<i64>() {
                            Ok(number) => Canon::Int(number),
                            Err(_) => Canon::Str(text),
                        }
                    }
                    _ => written,
                };
                let count = i64::try_from(value).unwrap_or(i64::MAX);
                match target {
                    Target::Replicas => {
                        workload.replicas = Some(stated(count));
                    }
                    Target::Probe {
                        container,
                        probe,
                        field,
                    } => {
                        let probe = workload
                            .pod
                            .containers
                            .iter_mut()
                            .find(|c| &c.name == container)
                            .and_then(|c| probe_of_mut(c, *probe));
                        if let Some(probe) = probe {
                            let setting = match field {
                                ProbeField::InitialDelaySeconds => &mut probe.initial_delay_seconds,
                                ProbeField::PeriodSeconds => &mut probe.period_seconds,
                                ProbeField::FailureThreshold => &mut probe.failure_threshold,
                                ProbeField::TimeoutSeconds => &mut probe.timeout_seconds,
                            };
                            *setting = stated(count);
                        }
                    }
                    Target::MemoryLimit { container } => {
                        if let Some(c) = workload
                            .pod
                            .containers
                            .iter_mut()
                            .find(|c| &c.name == container)
                        {
                            set_limit(c, value);
                        }
                    }
                    Target::Program { .. } => {}
                }
                let segments = manifest_path(workload, target);
                let path: Vec<(&str, Option<&str>)> = segments
                    .iter()
                    .map(|(name, key)| (name.as_str(), key.as_deref()))
                    .collect();
                if let Some(document) = reading.canons.first_mut() {
                    if let Some(edited) = document.with_value(&path, canon_value.clone()) {
                        *document = edited;
                    }
                }
                // The Deployment's document kept for the Scenario's
                // template changes (`manifest::patch`): a `patch` or
                // `restart` later in the run starts from the cell's object.
                if let Some(written) = reading
                    .deployments
                    .iter_mut()
                    .find(|d| d.name == workload.name)
                {
                    let text = match self.unit {
                        Unit::Bytes => format_bytes(value),
                        _ => count.to_string(),
                    };
                    if let Some(edited) =
                        crate::manifest::patch::with_value(&written.root, &path, &text)
                    {
                        written.root = edited;
                    }
                }
                let template_depth = match workload.kind {
                    WorkloadKind::Pod => None,
                    WorkloadKind::CronJob => Some(4),
                    _ => Some(2),
                };
                if let (Some(depth), Some(template)) = (template_depth, &mut workload.template) {
                    if path.len() > depth && path[..depth].iter().all(|(_, key)| key.is_none()) {
                        if let Some(edited) = template.with_value(&path[depth..], canon_value) {
                            *template = edited;
                        }
                    }
                }
            }
        }
    }

    /// The seed of a cell once the axes' values are written
    /// (`Reading::seed` for a Scenario number, which the seed leaves out).
    pub fn seed_of(reading: &Reading) -> u64 {
        canonical::seed(&reading.canons)
    }
}

/// The full path of a manifest field target in the first workload, as
/// (name, list entry) segments.
pub(super) fn manifest_path(workload: &Workload, target: &Target) -> Vec<(String, Option<String>)> {
    let plain = |name: &str| (name.to_string(), None);
    let mut out: Vec<(String, Option<String>)> = Vec::new();
    let pod_spec = |out: &mut Vec<(String, Option<String>)>, container: &str| {
        out.extend(
            crate::manifest::api::pod_spec_path(workload)
                .split('.')
                .map(plain),
        );
        out.push(("containers".into(), Some(container.to_string())));
    };
    match target {
        Target::Replicas => out.extend(["spec", "replicas"].map(plain)),
        Target::Probe {
            container,
            probe,
            field,
        } => {
            pod_spec(&mut out, container);
            out.push(plain(probe.field()));
            out.push(plain(field.as_str()));
        }
        Target::MemoryLimit { container } => {
            pod_spec(&mut out, container);
            out.extend(["resources", "limits", "memory"].map(plain));
        }
        Target::Program { .. } => {}
    }
    out
}

/// A value set by the map: stated, as if written (its span names nothing
/// in the text, which the map does not change).
fn stated<T>(value: T) -> Setting<T> {
    Setting {
        value,
        span: Some(Span::empty(0)),
    }
}

fn set_limit(container: &mut Container, bytes: i128) {
    let quantity = Some(Quantity::from_units(bytes));
    match container
        .resources
        .limits
        .iter_mut()
        .find(|amount| amount.name == "memory")
    {
        Some(amount) => amount.quantity = quantity,
        None => container.resources.limits.push(Amount {
            name: "memory".into(),
            quantity,
            key_span: Span::empty(0),
            value_span: Span::empty(0),
        }),
    }
}

fn least(target: &Target) -> i128 {
    match target {
        Target::Program {
            field: ProgramField::Workers,
            ..
        } => 1,
        Target::Probe { field, .. } => field.least(),
        _ => 0,
    }
}

/// A container of any workload (a program entry names a container, not a
/// workload).
fn find_any<'a>(reading: &'a Reading, name: &str) -> Option<&'a Container> {
    reading
        .workloads
        .iter()
        .find_map(|workload| find_container(workload, name))
}

fn find_container<'a>(workload: &'a Workload, name: &str) -> Option<&'a Container> {
    workload.pod.containers.iter().find(|c| c.name == name)
}

fn probe_of(container: &Container, kind: ProbeKind) -> Option<&crate::manifest::model::Probe> {
    match kind {
        ProbeKind::Startup => container.startup.as_ref(),
        ProbeKind::Liveness => container.liveness.as_ref(),
        ProbeKind::Readiness => container.readiness.as_ref(),
    }
}

fn probe_of_mut(
    container: &mut Container,
    kind: ProbeKind,
) -> Option<&mut crate::manifest::model::Probe> {
    match kind {
        ProbeKind::Startup => container.startup.as_mut(),
        ProbeKind::Liveness => container.liveness.as_mut(),
        ProbeKind::Readiness => container.readiness.as_mut(),
    }
}

const PROBES: [ProbeKind; 3] = [
    ProbeKind::Startup,
    ProbeKind::Liveness,
    ProbeKind::Readiness,
];

/// What an axis name moves, its unit and its full name.
pub(super) fn target_of(name: &str, reading: &Reading) -> Result<(Target, Unit, String), Text> {
    let path = path::parse(name).map_err(|error| error.message(name))?;
    let Some(workload) = reading.workloads.first() else {
        return Err(text!(
            "the text has no workload (Pod, Deployment, Job, …) whose numbers a map could move",
            "這份文字沒有工作負載（Pod、Deployment、Job…），地圖沒有數值可以調整"
        ));
    };
    let first = path::first_program(&reading.workloads).unwrap_or_default();
    let kind = workload.kind.as_str();
    let workload_name = &workload.name;
    match path.resolve(first) {
        Path::Program {
            container: Some(container),
            field,
        } => {
            if find_any(reading, &container).is_none() {
                return Err(no_container(name, &container, workload));
            }
            let unit = match field {
                ProgramField::Startup => Unit::Duration,
                ProgramField::Workers => Unit::Count,
                _ => Unit::Bytes,
            };
            let full = Path::program(&container, field).to_string();
            Ok((Target::Program { container, field }, unit, full))
        }
        Path::Program { container: None, .. } => Err(no_container(name, "", workload)),
        Path::Cluster => Err(text!(
            "`{name}`: the cluster is not a number; a map moves a program's number, `spec.replicas`, a probe field or the memory limit",
            "`{name}`：叢集不是一個數值；地圖能調整的是程式模型的數值、`spec.replicas`、探針欄位或記憶體 limit"
        )),
        Path::Field(segments) => {
            let parts: Vec<(&str, Option<&str>)> = segments
                .iter()
                .map(|s| (s.name.as_str(), s.key.as_deref()))
                .collect();
            let base: Vec<&str> = crate::manifest::api::pod_spec_path(workload)
                .split('.')
                .collect();
            // `replicas`, `spec.replicas`.
            if matches!(parts.as_slice(), [("replicas", None)] | [("spec", None), ("replicas", None)]) {
                if !matches!(
                    workload.kind,
                    WorkloadKind::Deployment | WorkloadKind::ReplicaSet | WorkloadKind::StatefulSet
                ) {
                    return Err(text!(
                        "`{name}`: the first workload, {kind} `{workload_name}`, has no `spec.replicas`",
                        "`{name}`：第一個工作負載 {kind} `{workload_name}` 沒有 `spec.replicas`"
                    ));
                }
                return Ok((Target::Replicas, Unit::Count, "spec.replicas".into()));
            }
            // The container's part: after `<pod spec>.containers[name].`,
            // or the whole path for the first container
            // (`livenessProbe.periodSeconds`, `resources.limits.memory`).
            let prefix_matches = parts.len() > base.len()
                && parts[..base.len()]
                    .iter()
                    .zip(&base)
                    .all(|((part, key), want)| part == want && key.is_none());
            let (container, rest) = match parts.get(base.len()) {
                Some(("containers", Some(container))) if prefix_matches => {
                    (container.to_string(), &parts[base.len() + 1..])
                }
                _ if matches!(
                    parts.first(),
                    Some(("livenessProbe" | "readinessProbe" | "startupProbe" | "resources", None))
                ) =>
                {
                    (first.to_string(), &parts[..])
                }
                _ => return Err(unknown_field(name, workload)),
            };
            let Some(found) = find_container(workload, &container) else {
                return Err(no_container(name, &container, workload));
            };
            let pod_spec = base.join(".");
            match rest {
                [("resources", None), ("limits", None), ("memory", None)] => Ok((
                    Target::MemoryLimit {
                        container: container.clone(),
                    },
                    Unit::Bytes,
                    format!("{pod_spec}.containers[{container}].resources.limits.memory"),
                )),
                [(probe_name, None), (field_name, None)] => {
                    let probe = PROBES
                        .into_iter()
                        .find(|kind| kind.field() == *probe_name)
                        .ok_or_else(|| unknown_field(name, workload))?;
                    let field = ProbeField::ALL
                        .into_iter()
                        .find(|field| field.as_str() == *field_name)
                        .ok_or_else(|| unknown_field(name, workload))?;
                    if probe_of(found, probe).is_none() {
                        let probe_name = probe.field();
                        return Err(text!(
                            "`{name}`: container `{container}` has no {probe_name}; write one to map its fields",
                            "`{name}`：容器 `{container}` 沒有 {probe_name}；先寫一個，才能在地圖上調整它的欄位"
                        ));
                    }
                    Ok((
                        Target::Probe {
                            container: container.clone(),
                            probe,
                            field,
                        },
                        Unit::Count,
                        format!(
                            "{pod_spec}.containers[{container}].{probe_name}.{}",
                            field.as_str()
                        ),
                    ))
                }
                _ => Err(unknown_field(name, workload)),
            }
        }
    }
}

fn no_container(name: &str, container: &str, workload: &Workload) -> Text {
    let kind = workload.kind.as_str();
    let workload_name = &workload.name;
    let names: Vec<&str> = workload
        .pod
        .containers
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    let names = names.join(", ");
    text!(
        "`{name}`: the first workload, {kind} `{workload_name}`, has no container `{container}` (it has: {names})",
        "`{name}`：第一個工作負載 {kind} `{workload_name}` 沒有容器 `{container}`（它有：{names}）"
    )
}

fn unknown_field(name: &str, workload: &Workload) -> Text {
    let base = crate::manifest::api::pod_spec_path(workload);
    text!(
        "`{name}` is not a number a map can move: use `startup`, `memory.steady`, `memory.peak`, `workers`, `gpuMemory` (or `workload[NAME].…`), `replicas`, `{base}.containers[NAME].livenessProbe.periodSeconds` (any probe; `initialDelaySeconds`, `periodSeconds`, `failureThreshold`, `timeoutSeconds`) or `{base}.containers[NAME].resources.limits.memory` (docs/map.md)",
        "`{name}` 不是地圖能調整的數值：可用 `startup`、`memory.steady`、`memory.peak`、`workers`、`gpuMemory`（或 `workload[NAME].…`）、`replicas`、`{base}.containers[NAME].livenessProbe.periodSeconds`（任一探針；`initialDelaySeconds`、`periodSeconds`、`failureThreshold`、`timeoutSeconds`）或 `{base}.containers[NAME].resources.limits.memory`（見 docs/map.md）"
    )
}
