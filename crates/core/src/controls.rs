//! What the playground's sliders and pickers read from, and write into, the
//! Scenario document of the text (DESIGN.md: "sliders edit the Scenario
//! document inside the text", so a shared link, the CLI and the page see the
//! same thing).
//!
//! Edits are surgical: a value that is written is replaced in place, an
//! absent key is added next to its siblings in the author's style (block or
//! flow), a missing workload entry, `spec` or the whole Scenario document is
//! added. Everything else in the text — comments, order, quoting — stays.
//! The entry edited for a container is the one the simulator uses for it
//! (`Scenario::program_spec`: its own name, else `*`).

use crate::diagnostic::{apply_edits, TextEdit};
use crate::lint::read;
use crate::manifest::duration::{self, Millis};
use crate::manifest::quantity::format_bytes;
use crate::manifest::yaml::{self, Limits, Node, NodeKind};
use crate::rules::edit::{insert_entry, replace};
use crate::span::{LineIndex, Span};

mod record;
pub mod sliders;
pub use record::record;

/// The values the controls show for one container.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Values {
    /// The container the controls act on: the first container of the first
    /// workload.
    pub container: String,
    pub startup: Millis,
    pub memory_steady: i128,
    pub memory_peak: i128,
    pub workers: i64,
    pub gpu_memory: i128,
    /// The preset the cluster matches exactly, if any.
    pub preset: Option<Preset>,
    pub sharing: SharingChoice,
    /// The Scenario's traffic and how the container serves it, when the
    /// Scenario sends any (docs/traffic.md).
    pub traffic: Option<TrafficValues>,
    /// The text's first HorizontalPodAutoscaler, when it has one
    /// (docs/autoscaling.md).
    pub autoscaler: Option<AutoscalerValues>,
}

/// What the autoscaler controls show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AutoscalerValues {
    pub name: String,
    pub min_replicas: i32,
    pub max_replicas: i32,
    /// The first metric's target, in its own unit: a utilization in %, or
    /// an average value in milli-units (`30` requests/s: 30 000); `None`
    /// when the first metric has no target the slider can write.
    pub target: Option<(TargetKind, i64)>,
    /// Pods a scale-up may add per 15 s: `spec.behavior.scaleUp` with one
    /// policy, `type: Pods`, `periodSeconds: 15`; `None` for anything else
    /// (no `behavior`: the legacy limit, double or 4, docs/autoscaling.md).
    pub scale_up_pods: Option<i32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetKind {
    /// `averageUtilization`, % of the request.
    Utilization,
    /// `averageValue`, per pod.
    AverageValue,
}

/// What the traffic controls show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrafficValues {
    /// The first step's rate, requests/s × 1000.
    pub rate: u64,
    /// The highest later step's rate (the burst), when there is one.
    pub burst: Option<u64>,
    pub concurrency: i64,
    /// The service time of one request.
    pub latency: Millis,
}

/// Cluster presets (issue 4): one node pool each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    OneT4,
    OneL4,
    TwoA100,
    NoDevicePlugin,
    TaintedGpuPool,
}

impl Preset {
    pub const ALL: [Preset; 5] = [
        Preset::OneT4,
        Preset::OneL4,
        Preset::TwoA100,
        Preset::NoDevicePlugin,
        Preset::TaintedGpuPool,
    ];

    /// A stable identifier (for `<option value>` and tests).
    pub fn id(self) -> &'static str {
        match self {
            Preset::OneT4 => "one-t4",
            Preset::OneL4 => "one-l4",
            Preset::TwoA100 => "two-a100",
            Preset::NoDevicePlugin => "no-device-plugin",
            Preset::TaintedGpuPool => "tainted-gpu-pool",
        }
    }

    pub fn from_id(id: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|preset| preset.id() == id)
    }

    /// The `nodePools` items, one flow mapping per pool.
    fn pools(self) -> Vec<&'static str> {
        match self {
            Preset::OneT4 => vec![
                r#"{ name: t4, count: 1, cpu: "8", memory: 32Gi, gpu: { model: T4, count: 1 } }"#,
            ],
            Preset::OneL4 => vec![
                r#"{ name: l4, count: 1, cpu: "8", memory: 32Gi, gpu: { model: L4, count: 1 } }"#,
            ],
            Preset::TwoA100 => vec![
                r#"{ name: a100, count: 2, cpu: "32", memory: 256Gi, gpu: { model: A100-80GB, count: 1 } }"#,
            ],
            Preset::NoDevicePlugin => vec![
                r#"{ name: gpu, count: 1, cpu: "8", memory: 32Gi, gpu: { model: A100-80GB, count: 1 }, devicePlugin: false }"#,
            ],
            Preset::TaintedGpuPool => vec![
                r#"{ name: gpu, count: 1, cpu: "8", memory: 32Gi, gpu: { model: A100-80GB, count: 1 }, taints: [{ key: nvidia.com/gpu, value: present, effect: NoSchedule }] }"#,
            ],
        }
    }
}

/// How every GPU pool shares its GPUs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SharingChoice {
    None,
    TimeSlicing(i64),
    Mps(i64),
    /// A MIG layout per GPU, mixed strategy (`nvidia.com/mig-<profile>`).
    Mig(Vec<String>),
}

impl SharingChoice {
    fn flow(&self) -> String {
        match self {
            SharingChoice::None => "{ mode: none }".into(),
            SharingChoice::TimeSlicing(replicas) => {
                format!("{{ mode: timeSlicing, replicas: {} }}", replicas.max(&1))
            }
            SharingChoice::Mps(replicas) => {
                format!("{{ mode: mps, replicas: {} }}", replicas.max(&1))
            }
            SharingChoice::Mig(layout) => {
                format!(
                    "{{ mode: mig, strategy: mixed, layout: [{}] }}",
                    layout.join(", ")
                )
            }
        }
    }
}

/// The GPU sharing choices the picker offers, with stable ids (its
/// `<option value>`s; `picture::words::sharing` names them).
pub fn sharing_options() -> Vec<(&'static str, SharingChoice)> {
    let layout = |profiles: &[&str]| profiles.iter().map(|p| p.to_string()).collect();
    vec![
        ("none", SharingChoice::None),
        ("ts-2", SharingChoice::TimeSlicing(2)),
        ("ts-4", SharingChoice::TimeSlicing(4)),
        ("mps-2", SharingChoice::Mps(2)),
        ("mps-4", SharingChoice::Mps(4)),
        ("mig-7x1g", SharingChoice::Mig(layout(&["1g.10gb"; 7]))),
        (
            "mig-2x3g",
            SharingChoice::Mig(layout(&["3g.40gb", "3g.40gb"])),
        ),
        (
            "mig-mixed",
            SharingChoice::Mig(layout(&["1g.10gb", "2g.20gb", "3g.40gb"])),
        ),
    ]
}

/// One change a control makes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    Startup(Millis),
    MemorySteady(i128),
    MemoryPeak(i128),
    Workers(i64),
    GpuMemory(i128),
    Preset(Preset),
    Sharing(SharingChoice),
    /// `serve.concurrency` of the container.
    Concurrency(i64),
    /// `serve.latency` of the container.
    ServiceLatency(Millis),
    /// The first traffic step's `rps`, × 1000.
    Rate(u64),
    /// The burst step's `rps` (the highest after the first), × 1000.
    Burst(u64),
    /// The first HorizontalPodAutoscaler's `spec.minReplicas` (at most its
    /// `maxReplicas`).
    MinReplicas(i32),
    /// Its `spec.maxReplicas` (at least its `minReplicas`).
    MaxReplicas(i32),
    /// Its first metric's target, in the unit of [`AutoscalerValues::target`]
    /// (milli-units for an average value).
    AutoscalerTarget(i64),
    /// Its `behavior.scaleUp.policies`: one policy, this many Pods per 15 s.
    ScaleUpPods(i32),
    /// A HorizontalPodAutoscaler for the first serving Deployment when the
    /// text has none: 1 to 4 replicas on `requests_per_second`, 30 per pod.
    AddAutoscaler,
    /// Requests through a Service to the first serving workload: a
    /// Service selecting its pods when none does, and the Scenario's
    /// `traffic` (20 requests/s, a burst of 120 from 8 to 11 minutes).
    AddTraffic,
}

/// Why a change could not be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditError {
    /// The text has no workload with a container to act on.
    NoContainer,
    /// The Scenario document has a shape the editor does not rewrite (a
    /// syntax error, a non-mapping `spec`); the message says where.
    Unsupported(String),
}

/// The controls' values for the text's first container.
pub fn values(text: &str) -> Option<Values> {
    let reading = read(text);
    let container = reading.workloads.first()?.pod.containers.first()?;
    let program = reading.scenario.program(container);
    let sharing =
        reading
            .scenario
            .gpu_pools()
            .next()
            .map_or(SharingChoice::None, |pool| match &pool.sharing {
                crate::manifest::scenario::Sharing::None => SharingChoice::None,
                crate::manifest::scenario::Sharing::TimeSlicing { replicas, .. } => {
                    SharingChoice::TimeSlicing(*replicas)
                }
                crate::manifest::scenario::Sharing::Mps { replicas, .. } => {
                    SharingChoice::Mps(*replicas)
                }
                crate::manifest::scenario::Sharing::Mig { layout, .. } => {
                    SharingChoice::Mig(layout.clone())
                }
            });
    // A preset is one pool: a text whose pools are not written, or not one
    // pool, matches none, and is not compared (each comparison reads the
    // preset's YAML: five reads on every change of the text otherwise).
    let comparable = reading.scenario.pools_written && reading.scenario.node_pools.len() == 1;
    let preset = Preset::ALL.into_iter().filter(|_| comparable).find(|preset| {
        let probe = format!(
            "apiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: {{ name: p }}\nspec:\n  cluster:\n    nodePools: [{}]\n",
            preset.pools().join(", ")
        );
        let expected = read(&probe).scenario.node_pools;
        let strip = |pools: &[crate::manifest::scenario::NodePool]| {
            pools
                .iter()
                .map(|pool| {
                    let mut pool = pool.clone();
                    pool.span = None;
                    pool.sharing = crate::manifest::scenario::Sharing::None;
                    if let Some(gpu) = &mut pool.gpu {
                        gpu.model_span = None;
                    }
                    pool
                })
                .collect::<Vec<_>>()
        };
        strip(&expected) == strip(&reading.scenario.node_pools)
    });
    Some(Values {
        container: container.name.clone(),
        startup: program.startup.value,
        memory_steady: program.memory_steady.value,
        memory_peak: program.memory_peak.value,
        workers: program.workers.value,
        gpu_memory: program.gpu_memory.value,
        preset,
        sharing,
        traffic: reading.scenario.traffic.as_ref().map(|traffic| {
            let burst = traffic.rate.iter().skip(1).map(|step| step.milli_rps).max();
            TrafficValues {
                rate: traffic.rate.first().map_or(0, |step| step.milli_rps),
                burst,
                concurrency: program.serve.concurrency.value,
                latency: program.serve.latency.value,
            }
        }),
        autoscaler: reading.autoscalers.first().map(|hpa| {
            use crate::manifest::hpa::Target;
            AutoscalerValues {
                name: hpa.name.clone(),
                min_replicas: hpa.min_replicas,
                max_replicas: hpa.max_replicas,
                target: hpa.metrics.first().and_then(|metric| match metric.target {
                    Target::Utilization(percent) => {
                        Some((TargetKind::Utilization, i64::from(percent)))
                    }
                    Target::AverageValue(milli) => Some((TargetKind::AverageValue, milli)),
                    Target::Value(_) | Target::Missing => None,
                }),
                scale_up_pods: hpa.behavior.as_ref().and_then(|behavior| {
                    match behavior.scale_up.policies.as_slice() {
                        [policy] if !policy.percent && policy.period_seconds == 15 => {
                            Some(policy.value)
                        }
                        _ => None,
                    }
                }),
            }
        }),
    })
}

/// The text with `change` written into its Scenario document.
pub fn apply(text: &str, change: &Change) -> Result<String, EditError> {
    match change {
        Change::AddTraffic => return add_traffic(text),
        Change::AddAutoscaler => return add_autoscaler(text),
        Change::MinReplicas(_)
        | Change::MaxReplicas(_)
        | Change::AutoscalerTarget(_)
        | Change::ScaleUpPods(_) => return autoscaler_edit(text, change),
        _ => {}
    }
    let container = values(text).ok_or(EditError::NoContainer)?.container;
    apply_to(text, &container, change)
}

/// The text with `change` written into the Scenario's entry for
/// `container` (the one the simulator uses for it: its own, else `*`), for
/// a program's number (`Startup` … `ServiceLatency`), the cluster and the
/// traffic; `apply` is this for the first container. `map::write` writes
/// a map cell's value with it.
pub fn apply_to(text: &str, container: &str, change: &Change) -> Result<String, EditError> {
    let container = container.to_string();
    let index = LineIndex::new(text);
    let stream = yaml::parse(text, &index, &Limits::default());
    let scenario = stream.documents.iter().find(|document| {
        document
            .root
            .as_ref()
            .and_then(|root| root.get("kind"))
            .and_then(Node::as_str)
            == Some("Scenario")
    });
    let Some(document) = scenario else {
        if matches!(change, Change::Rate(_) | Change::Burst(_)) {
            return Err(EditError::Unsupported(
                "the Scenario sends no traffic".into(),
            ));
        }
        return Ok(append_scenario(text, &container, change));
    };
    if document.broken {
        return Err(EditError::Unsupported(
            "the Scenario document has a YAML error".into(),
        ));
    }
    let root = document.root.as_ref().ok_or(EditError::NoContainer)?;
    let edit = match change {
        Change::Preset(preset) => set_path(
            text,
            root,
            &["spec", "cluster", "nodePools"],
            Value::Seq(preset.pools().into_iter().map(String::from).collect()),
        ),
        Change::Sharing(choice) => sharing_edits(text, root, choice),
        Change::Rate(milli) => rate_edit(text, root, false, *milli),
        Change::Burst(milli) => rate_edit(text, root, true, *milli),
        _ => workload_edit(text, root, &container, change),
    }?;
    Ok(apply_edits(text, &edit))
}

/// A value to write: a scalar, a flow mapping, or a sequence of flow items.
#[derive(Clone, Debug)]
enum Value {
    Scalar(String),
    Seq(Vec<String>),
}

impl Value {
    /// As the value of `key:` in a flow context.
    fn flow(&self) -> String {
        match self {
            Value::Scalar(text) => text.clone(),
            Value::Seq(items) => format!("[{}]", items.join(", ")),
        }
    }
}

fn scalar_of(change: &Change) -> (&'static [&'static str], String) {
    match change {
        Change::Startup(ms) => (&["startup"], duration::format(*ms)),
        Change::MemorySteady(bytes) => (&["memory", "steady"], format_bytes(*bytes)),
        Change::MemoryPeak(bytes) => (&["memory", "peak"], format_bytes(*bytes)),
        Change::Workers(n) => (&["workers"], n.max(&1).to_string()),
        Change::GpuMemory(bytes) => (&["gpuMemory"], format_bytes(*bytes)),
        Change::Concurrency(n) => (&["serve", "concurrency"], n.max(&1).to_string()),
        Change::ServiceLatency(ms) => (&["serve", "latency"], duration::format(*ms)),
        Change::Preset(_)
        | Change::Sharing(_)
        | Change::Rate(_)
        | Change::Burst(_)
        | Change::MinReplicas(_)
        | Change::MaxReplicas(_)
        | Change::AutoscalerTarget(_)
        | Change::ScaleUpPods(_)
        | Change::AddAutoscaler
        | Change::AddTraffic => (&[], String::new()),
    }
}

/// `spec.traffic.rate[i].rps`: the first step, or (`burst`) the step with
/// the highest rate after it.
fn rate_edit(text: &str, root: &Node, burst: bool, milli: u64) -> Result<Vec<TextEdit>, EditError> {
    let steps = root
        .get("spec")
        .and_then(|spec| spec.get("traffic"))
        .and_then(|traffic| traffic.get("rate"))
        .and_then(Node::items)
        .filter(|steps| !steps.is_empty())
        .ok_or_else(|| EditError::Unsupported("the Scenario sends no traffic".into()))?;
    let rps_of = |step: &Node| {
        step.get("rps")
            .and_then(Node::as_str)
            .and_then(crate::number::parse)
            .and_then(|float| match float {
                crate::number::Float::Number(decimal) => decimal.floor_times(1000, u64::MAX),
                crate::number::Float::NonFinite => None,
            })
            .unwrap_or(0)
    };
    let step = if burst {
        steps
            .iter()
            .skip(1)
            .enumerate()
            // The first of the highest, so the edited step stays the burst.
            .max_by_key(|(index, step)| (rps_of(step), std::cmp::Reverse(*index)))
            .map(|(_, step)| step)
            .ok_or_else(|| EditError::Unsupported("the traffic has no burst step".into()))?
    } else {
        &steps[0]
    };
    set_path(text, step, &["rps"], Value::Scalar(milli_words(milli)))
}

/// The default requests of [`Change::AddTraffic`]: the reference
/// Deployment (2 replicas of 50 requests/s) serves the 20 easily and queues
/// during the burst of 120.
const DEFAULT_RATE: &str = "[{ at: 0s, rps: 20 }, { at: 8m, rps: 120 }, { at: 11m, rps: 30 }]";

/// [`Change::AddTraffic`]: `traffic` in the Scenario (added when absent),
/// and a Service for the first serving workload when none selects it.
fn add_traffic(text: &str) -> Result<String, EditError> {
    use crate::manifest::model::WorkloadKind;
    let reading = read(text);
    if reading.scenario.traffic.is_some() {
        return Ok(text.to_string());
    }
    let workload = reading
        .workloads
        .iter()
        .find(|w| !matches!(w.kind, WorkloadKind::Job | WorkloadKind::CronJob))
        .ok_or(EditError::NoContainer)?;
    if workload.pod_labels.is_empty() {
        return Err(EditError::Unsupported(
            "the pod template has no labels for a Service to select".into(),
        ));
    }
    let existing = reading
        .services
        .iter()
        .find(|service| service.selects(&workload.pod_labels));
    let service = existing.map_or_else(|| workload.name.clone(), |s| s.name.clone());
    let traffic = format!("{{ service: {service}, rate: {DEFAULT_RATE} }}");
    let index = LineIndex::new(text);
    let stream = yaml::parse(text, &index, &Limits::default());
    let scenario = stream.documents.iter().find(|document| {
        document
            .root
            .as_ref()
            .and_then(|root| root.get("kind"))
            .and_then(Node::as_str)
            == Some("Scenario")
    });
    let mut edited = match scenario.and_then(|document| document.root.as_ref()) {
        Some(root) if !scenario.is_some_and(|d| d.broken) => {
            let spec = root.get("spec").ok_or_else(|| {
                EditError::Unsupported("the Scenario document has no spec".into())
            })?;
            let edits = set_path(text, spec, &["traffic"], Value::Scalar(traffic))?;
            apply_edits(text, &edits)
        }
        Some(_) => {
            return Err(EditError::Unsupported(
                "the Scenario document has a YAML error".into(),
            ))
        }
        None => {
            let separator = if text.is_empty() || text.ends_with('\n') {
                ""
            } else {
                "\n"
            };
            format!(
                "{text}{separator}---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata:\n  name: playground\nspec:\n  traffic: {traffic}\n"
            )
        }
    };
    if existing.is_none() {
        let port = workload
            .pod
            .containers
            .first()
            .and_then(|c| c.ports.first())
            .map_or(8080, |p| p.number);
        let selector: Vec<String> = workload
            .pod_labels
            .iter()
            .map(|(key, value)| format!("{key}: {value}"))
            .collect();
        if !edited.ends_with('\n') {
            edited.push('\n');
        }
        edited.push_str(&format!(
            "---\napiVersion: v1\nkind: Service\nmetadata:\n  name: {service}\nspec:\n  selector: {{ {} }}\n  ports: [{{ port: 80, targetPort: {port} }}]\n",
            selector.join(", ")
        ));
    }
    Ok(edited)
}

/// The first HorizontalPodAutoscaler document with `change` written into
/// its `spec`.
fn autoscaler_edit(text: &str, change: &Change) -> Result<String, EditError> {
    let shown = values(text)
        .and_then(|v| v.autoscaler)
        .ok_or_else(|| EditError::Unsupported("the text has no HorizontalPodAutoscaler".into()))?;
    let index = LineIndex::new(text);
    let stream = yaml::parse(text, &index, &Limits::default());
    let document = stream
        .documents
        .iter()
        .find(|document| {
            document
                .root
                .as_ref()
                .and_then(|root| root.get("kind"))
                .and_then(Node::as_str)
                == Some("HorizontalPodAutoscaler")
        })
        .filter(|document| !document.broken)
        .ok_or_else(|| {
            EditError::Unsupported("the HorizontalPodAutoscaler has a YAML error".into())
        })?;
    let spec = document
        .root
        .as_ref()
        .and_then(|root| root.get("spec"))
        .ok_or_else(|| EditError::Unsupported("the HorizontalPodAutoscaler has no spec".into()))?;
    let edits = match *change {
        Change::MinReplicas(n) => set_path(
            text,
            spec,
            &["minReplicas"],
            Value::Scalar(n.clamp(1, shown.max_replicas.max(1)).to_string()),
        ),
        Change::MaxReplicas(n) => set_path(
            text,
            spec,
            &["maxReplicas"],
            Value::Scalar(n.max(shown.min_replicas).max(1).to_string()),
        ),
        Change::ScaleUpPods(n) => set_path(
            text,
            spec,
            &["behavior", "scaleUp", "policies"],
            Value::Seq(vec![format!(
                "{{ type: Pods, value: {}, periodSeconds: 15 }}",
                n.max(1)
            )]),
        ),
        Change::AutoscalerTarget(value) => {
            let (kind, _) = shown.target.ok_or_else(|| {
                EditError::Unsupported("the first metric has no target to set".into())
            })?;
            let metric = spec
                .get("metrics")
                .and_then(Node::items)
                .and_then(<[Node]>::first)
                .ok_or_else(|| EditError::Unsupported("the autoscaler has no metrics".into()))?;
            // `type: Pods` keeps its source under `pods`, `Resource` under
            // `resource`: the type with a lower-case first letter.
            let source = metric
                .get("type")
                .and_then(Node::as_str)
                .map(|kind| {
                    let mut chars = kind.chars();
                    chars.next().map_or_else(String::new, |first| {
                        first.to_ascii_lowercase().to_string() + chars.as_str()
                    })
                })
                .ok_or_else(|| EditError::Unsupported("the first metric has no type".into()))?;
            let (key, written) = match kind {
                TargetKind::Utilization => ("averageUtilization", value.max(1).to_string()),
                TargetKind::AverageValue => {
                    let milli = u64::try_from(value.max(1)).unwrap_or(1);
                    ("averageValue", format!("\"{}\"", milli_words(milli)))
                }
            };
            set_path(
                text,
                metric,
                &[source.as_str(), "target", key],
                Value::Scalar(written),
            )
        }
        _ => Ok(Vec::new()),
    }?;
    Ok(apply_edits(text, &edits))
}

/// A HorizontalPodAutoscaler for the first Deployment (`Change::AddAutoscaler`).
fn add_autoscaler(text: &str) -> Result<String, EditError> {
    use crate::manifest::model::WorkloadKind;
    let reading = read(text);
    if !reading.autoscalers.is_empty() {
        return Ok(text.to_string());
    }
    let workload = reading
        .workloads
        .iter()
        .find(|w| matches!(w.kind, WorkloadKind::Deployment))
        .ok_or_else(|| EditError::Unsupported("the text has no Deployment to scale".into()))?;
    let name = &workload.name;
    let mut edited = text.to_string();
    if !edited.is_empty() && !edited.ends_with('\n') {
        edited.push('\n');
    }
    edited.push_str(&format!(
        "---\napiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: {name}\nspec:\n  scaleTargetRef: {{ apiVersion: apps/v1, kind: Deployment, name: {name} }}\n  minReplicas: 1\n  maxReplicas: 4\n  metrics:\n    - type: Pods\n      pods:\n        metric: {{ name: requests_per_second }}\n        target: {{ type: AverageValue, averageValue: \"30\" }}\n"
    ));
    Ok(edited)
}

/// Requests/s × 1000 written as YAML reads it back: `20`, `2.5`.
fn milli_words(milli: u64) -> String {
    let (whole, fraction) = (milli / 1000, milli % 1000);
    if fraction == 0 {
        whole.to_string()
    } else {
        format!("{whole}.{}", format!("{fraction:03}").trim_end_matches('0'))
    }
}

/// The default pool of DESIGN.md (one A100-80GB node) written out, with
/// `choice` as its sharing: what a sharing change writes when the text has
/// no pools of its own.
fn default_pool_sharing(choice: &SharingChoice) -> String {
    format!(
        r#"{{ name: gpu, count: 1, cpu: "8", memory: 32Gi, gpu: {{ model: A100-80GB, count: 1 }}, sharing: {} }}"#,
        choice.flow()
    )
}

/// `spec.workload[<entry for container>].<path> = value`.
fn workload_edit(
    text: &str,
    root: &Node,
    container: &str,
    change: &Change,
) -> Result<Vec<TextEdit>, EditError> {
    let (path, value) = scalar_of(change);
    let spec = root.get("spec");
    let workload = spec.and_then(|spec| spec.get("workload"));
    let entry = workload.and_then(Node::items).and_then(|items| {
        let named = |name: &str| {
            items
                .iter()
                .find(|item| item.get("container").and_then(Node::as_str) == Some(name))
        };
        named(container).or_else(|| named("*"))
    });
    if let Some(entry) = entry {
        return set_path(text, entry, path, Value::Scalar(value));
    }
    // A new entry for this container.
    let leaf = nest(&path[1..], &Value::Scalar(value)).flow();
    let item = format!("{{ container: {container}, {}: {leaf} }}", path[0]);
    match workload {
        Some(seq) => append_item(text, seq, &item),
        None => {
            let spec = spec.ok_or_else(|| {
                EditError::Unsupported("the Scenario document has no spec".into())
            })?;
            set_path(text, spec, &["workload"], Value::Seq(vec![item]))
        }
    }
}

/// `sharing:` on every pool with a GPU (the cluster's pools as written, or
/// the default pool written out first).
fn sharing_edits(
    text: &str,
    root: &Node,
    choice: &SharingChoice,
) -> Result<Vec<TextEdit>, EditError> {
    let pools = root
        .get("spec")
        .and_then(|spec| spec.get("cluster"))
        .and_then(|cluster| cluster.get("nodePools"))
        .and_then(Node::items)
        .filter(|items| !items.is_empty());
    let Some(pools) = pools else {
        return set_path(
            text,
            root,
            &["spec", "cluster", "nodePools"],
            Value::Seq(vec![default_pool_sharing(choice)]),
        );
    };
    if pools.iter().all(|pool| pool.get("gpu").is_none()) {
        return Err(EditError::Unsupported(
            "no node pool has GPUs to share".into(),
        ));
    }
    let mut edits = Vec::new();
    for pool in pools.iter().filter(|pool| pool.get("gpu").is_some()) {
        edits.extend(set_path(
            text,
            pool,
            &["sharing"],
            Value::Scalar(choice.flow()),
        )?);
    }
    Ok(edits)
}

/// Sets `path` under the mapping `node` to `value`: replaces what is there,
/// or adds the missing keys.
fn set_path(
    text: &str,
    node: &Node,
    path: &[&str],
    value: Value,
) -> Result<Vec<TextEdit>, EditError> {
    let Some((first, rest)) = path.split_first() else {
        return Err(EditError::Unsupported("nothing to set".into()));
    };
    if !matches!(node.kind, NodeKind::Map(_)) {
        return Err(EditError::Unsupported(format!(
            "expected a mapping to hold `{first}`"
        )));
    }
    if let Some(entry) = node.entry(first) {
        if rest.is_empty() || !matches!(entry.value.kind, NodeKind::Map(_)) || entry.value.is_null()
        {
            if !rest.is_empty() && !entry.value.is_null() {
                return Err(EditError::Unsupported(format!(
                    "`{first}` is not a mapping"
                )));
            }
            let nested = nest(rest, &value);
            return Ok(vec![replace_value(
                text,
                &entry.key.span,
                &entry.value,
                &nested,
            )]);
        }
        return set_path(text, &entry.value, rest, value);
    }
    let nested = nest(rest, &value);
    append_entry(text, node, first, &nested).map(|edit| vec![edit])
}

/// `value` under the keys `rest`, as a flow value.
fn nest(rest: &[&str], value: &Value) -> Value {
    match rest.split_first() {
        None => value.clone(),
        Some((key, more)) => Value::Scalar(format!("{{ {key}: {} }}", nest(more, value).flow())),
    }
}

/// Replaces `key: <old value>` from the end of the key to the end of the value.
fn replace_value(text: &str, key: &Span, old: &Node, value: &Value) -> TextEdit {
    let start = key.end;
    let end = old.span.end.max(start);
    let block = !in_flow_context(text, key.start);
    let written = match value {
        Value::Seq(items) if block => {
            let indent = " ".repeat(column(text, key.start) + 2);
            let mut out = String::from(":");
            for item in items {
                out.push_str(&format!("\n{indent}- {item}"));
            }
            out
        }
        _ => format!(": {}", value.flow()),
    };
    // A block value may end with its line break; keep the line structure.
    let end = if text[start..end].ends_with('\n') {
        end - 1
    } else {
        end
    };
    replace(Span { start, end }, written)
}

/// Adds `key: value` to a mapping: after its last entry in a block
/// mapping, before `}` in a flow mapping.
fn append_entry(text: &str, map: &Node, key: &str, value: &Value) -> Result<TextEdit, EditError> {
    let entries = map.entries().unwrap_or(&[]);
    let Some(last) = entries.last() else {
        return Err(EditError::Unsupported(format!(
            "cannot add `{key}` to an empty mapping"
        )));
    };
    if in_flow_context(text, last.key.span.start) {
        let first = entries
            .first()
            .map_or(last.key.span.start, |e| e.key.span.start);
        return insert_entry(text, first, &[format!("{key}: {}", value.flow())])
            .ok_or_else(|| EditError::Unsupported(format!("cannot add `{key}`")));
    }
    let indent = " ".repeat(column(text, last.key.span.start));
    let line = match value {
        Value::Seq(items) => {
            let mut out = format!("{indent}{key}:");
            for item in items {
                out.push_str(&format!("\n{indent}  - {item}"));
            }
            out
        }
        Value::Scalar(scalar) => format!("{indent}{key}: {scalar}"),
    };
    // After the line on which the last entry's value ends.
    let end = last.value.span.end.max(last.key.span.end);
    let end = if end > 0 && text.as_bytes().get(end - 1) == Some(&b'\n') {
        end - 1
    } else {
        end
    };
    match text[end..].find('\n') {
        Some(offset) => Ok(replace(Span::empty(end + offset + 1), format!("{line}\n"))),
        None => Ok(replace(Span::empty(text.len()), format!("\n{line}\n"))),
    }
}

/// Adds an item to a sequence: a new `- item` line in a block sequence,
/// `, item` before `]` in a flow sequence.
fn append_item(text: &str, seq: &Node, item: &str) -> Result<Vec<TextEdit>, EditError> {
    let items = seq.items().unwrap_or(&[]);
    let Some(last) = items.last() else {
        return Err(EditError::Unsupported(
            "cannot add to an empty workload list".into(),
        ));
    };
    if in_flow_context(text, last.span.start) {
        return Ok(vec![replace(
            Span::empty(last.span.end),
            format!(", {item}"),
        )]);
    }
    let dash = text[..last.span.start]
        .rfind('-')
        .unwrap_or(last.span.start);
    let indent = " ".repeat(column(text, dash));
    let end = last.span.end;
    let end = if end > 0 && text.as_bytes().get(end - 1) == Some(&b'\n') {
        end - 1
    } else {
        end
    };
    let line = format!("{indent}- {item}");
    Ok(vec![match text[end..].find('\n') {
        Some(offset) => replace(Span::empty(end + offset + 1), format!("{line}\n")),
        None => replace(Span::empty(text.len()), format!("\n{line}\n")),
    }])
}

/// A new Scenario document at the end of the text, holding the change.
fn append_scenario(text: &str, container: &str, change: &Change) -> String {
    let mut spec = String::new();
    match change {
        Change::Preset(preset) => {
            spec.push_str("  cluster:\n    nodePools:\n");
            for pool in preset.pools() {
                spec.push_str(&format!("      - {pool}\n"));
            }
        }
        Change::Sharing(choice) => {
            spec.push_str(&format!(
                "  cluster:\n    nodePools:\n      - {}\n",
                default_pool_sharing(choice)
            ));
        }
        _ => {
            let (path, value) = scalar_of(change);
            let leaf = nest(&path[1..], &Value::Scalar(value)).flow();
            spec.push_str(&format!(
                "  workload:\n    - container: {container}\n      {}: {leaf}\n",
                path[0]
            ));
        }
    }
    let separator = if text.is_empty() || text.ends_with('\n') {
        ""
    } else {
        "\n"
    };
    format!(
        "{text}{separator}---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata:\n  name: playground\nspec:\n{spec}"
    )
}

/// The column (in characters) of byte offset `at` on its line.
fn column(text: &str, at: usize) -> usize {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    text[start..at].chars().count()
}

/// Whether `at` is inside a flow collection (after `{`, `[` or `,`).
fn in_flow_context(text: &str, at: usize) -> bool {
    let before = text[..at].trim_end();
    matches!(before.chars().last(), Some('{' | '[' | ','))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEPLOYMENT: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: m }\nspec:\n  selector: { matchLabels: { app: m } }\n  template:\n    metadata: { labels: { app: m } }\n    spec:\n      containers:\n        - name: api\n          image: m:1\n";

    fn roundtrip(text: &str, change: Change) -> (String, Values) {
        let edited = apply(text, &change).unwrap_or_else(|e| panic!("{e:?}"));
        let report = crate::lint::lint(&edited);
        assert!(
            report
                .diagnostics
                .iter()
                .all(|d| !matches!(d.rule, "PL001" | "PL002" | "PL003" | "PL004")),
            "{edited}\n{:?}",
            report.diagnostics
        );
        let values = values(&edited).expect("values");
        (edited, values)
    }

    #[test]
    fn a_text_without_scenario_gets_one() {
        let (edited, values) = roundtrip(DEPLOYMENT, Change::Startup(90_000));
        assert!(edited.starts_with(DEPLOYMENT));
        assert!(edited.contains("kind: Scenario"));
        assert_eq!(values.startup, 90_000);
        assert_eq!(values.container, "api");
    }

    #[test]
    fn block_values_are_replaced_in_place_and_comments_kept() {
        let text = format!("{DEPLOYMENT}---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: {{ name: s }}\nspec:\n  workload:\n    - container: api\n      startup: 40s   # the article's load\n      memory: {{ steady: 5Gi, peak: 9Gi }}\n");
        let (edited, values) = roundtrip(&text, Change::Startup(120_000));
        assert!(
            edited.contains("      startup: 2m   # the article's load\n"),
            "{edited}"
        );
        assert_eq!(values.startup, 120_000);
        let (edited, values) = roundtrip(&edited, Change::MemoryPeak(12 << 30));
        assert!(
            edited.contains("memory: { steady: 5Gi, peak: 12Gi }"),
            "{edited}"
        );
        assert_eq!(values.memory_peak, 12 << 30);
        assert_eq!(values.memory_steady, 5 << 30);
        let (edited, values) = roundtrip(&edited, Change::Workers(3));
        assert!(edited.contains("      workers: 3\n"), "{edited}");
        assert_eq!(values.workers, 3);
        let (_, values) = roundtrip(&edited, Change::GpuMemory(20 << 30));
        assert_eq!(values.gpu_memory, 20 << 30);
    }

    #[test]
    fn a_star_entry_is_the_one_edited() {
        let text = format!("{DEPLOYMENT}---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: {{ name: s }}\nspec:\n  workload:\n    - {{ container: \"*\", startup: 40s, workers: 2 }}\n");
        let (edited, values) = roundtrip(&text, Change::Startup(10_000));
        assert!(edited.contains("startup: 10s, workers: 2"), "{edited}");
        assert_eq!(values.workers, 2);
    }

    #[test]
    fn a_missing_workload_entry_and_memory_map_are_added() {
        let text = format!("{DEPLOYMENT}---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata:\n  name: s\nspec:\n  duration: 20m\n");
        let (edited, values) = roundtrip(&text, Change::MemorySteady(6 << 30));
        assert_eq!(values.memory_steady, 6 << 30);
        assert!(
            edited.contains("  duration: 20m\n  workload:\n"),
            "{edited}"
        );
        let (_, values) = roundtrip(&edited, Change::MemoryPeak(11 << 30));
        assert_eq!(
            (values.memory_steady, values.memory_peak),
            (6 << 30, 11 << 30)
        );
    }

    #[test]
    fn presets_and_sharing_rewrite_the_pools() {
        // `values` compares only a one-pool text with the presets.
        assert!(Preset::ALL.iter().all(|preset| preset.pools().len() == 1));
        let (edited, values) = roundtrip(DEPLOYMENT, Change::Preset(Preset::OneT4));
        assert_eq!(values.preset, Some(Preset::OneT4));
        let (edited, values) = roundtrip(&edited, Change::Preset(Preset::TaintedGpuPool));
        assert_eq!(values.preset, Some(Preset::TaintedGpuPool));
        let (edited, values) = roundtrip(&edited, Change::Sharing(SharingChoice::TimeSlicing(4)));
        assert_eq!(values.sharing, SharingChoice::TimeSlicing(4));
        assert_eq!(values.preset, Some(Preset::TaintedGpuPool));
        let (_, values) = roundtrip(
            &edited,
            Change::Sharing(SharingChoice::Mig(vec!["3g.40gb".into(), "3g.40gb".into()])),
        );
        assert_eq!(
            values.sharing,
            SharingChoice::Mig(vec!["3g.40gb".into(), "3g.40gb".into()])
        );
        for preset in Preset::ALL {
            assert_eq!(Preset::from_id(preset.id()), Some(preset));
            let (_, values) = roundtrip(DEPLOYMENT, Change::Preset(preset));
            assert_eq!(values.preset, Some(preset));
        }
    }

    #[test]
    fn sharing_without_pools_writes_the_default_pool() {
        let (_, values) = roundtrip(DEPLOYMENT, Change::Sharing(SharingChoice::Mps(2)));
        assert_eq!(values.sharing, SharingChoice::Mps(2));
        let text = format!("{DEPLOYMENT}---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: {{ name: s }}\nspec:\n  duration: 5m\n");
        let (_, values) = roundtrip(&text, Change::Sharing(SharingChoice::TimeSlicing(3)));
        assert_eq!(values.sharing, SharingChoice::TimeSlicing(3));
    }

    #[test]
    fn no_container_is_an_error_not_a_panic() {
        assert_eq!(
            apply("kind: ConfigMap\n", &Change::Startup(1_000)),
            Err(EditError::NoContainer)
        );
        assert_eq!(apply("", &Change::Workers(2)), Err(EditError::NoContainer));
    }

    #[test]
    fn the_traffic_controls_edit_the_rate_the_burst_and_the_serving_model() {
        let text = format!(
            "{DEPLOYMENT}---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: {{ name: t }}\nspec:\n  traffic:\n    rate: [{{ at: 0s, rps: 20 }}, {{ at: 5m, rps: 120 }}, {{ at: 8m, rps: 30 }}]\n"
        );
        let shown = values(&text)
            .and_then(|v| v.traffic)
            .expect("traffic values");
        assert_eq!(
            shown,
            TrafficValues {
                rate: 20_000,
                burst: Some(120_000),
                concurrency: 4,
                latency: 80
            }
        );
        let (edited, after) = roundtrip(&text, Change::Rate(35_500));
        assert!(edited.contains("{ at: 0s, rps: 35.5 }"), "{edited}");
        assert_eq!(after.traffic.as_ref().map(|t| t.rate), Some(35_500));
        // The burst is the highest step after the first; the others stay.
        let (edited, after) = roundtrip(&text, Change::Burst(200_000));
        assert!(
            edited.contains("{ at: 5m, rps: 200 }") && edited.contains("{ at: 8m, rps: 30 }"),
            "{edited}"
        );
        assert_eq!(after.traffic.and_then(|t| t.burst), Some(200_000));
        let (edited, after) = roundtrip(&text, Change::Concurrency(8));
        assert!(edited.contains("serve: { concurrency: 8 }"), "{edited}");
        assert_eq!(after.traffic.map(|t| t.concurrency), Some(8));
        let (_, after) = roundtrip(&text, Change::ServiceLatency(150));
        assert_eq!(after.traffic.map(|t| t.latency), Some(150));
        // Without traffic there is nothing to set, and nothing to show.
        assert!(matches!(
            apply(DEPLOYMENT, &Change::Rate(1000)),
            Err(EditError::Unsupported(_))
        ));
        assert_eq!(values(DEPLOYMENT).and_then(|v| v.traffic), None);
    }

    #[test]
    fn add_traffic_writes_a_service_and_the_scenario_traffic_once() {
        let edited = apply(DEPLOYMENT, &Change::AddTraffic).expect("added");
        let reading = read(&edited);
        assert!(
            crate::lint::lint(&edited)
                .diagnostics
                .iter()
                .all(|d| !matches!(d.rule, "PL001" | "PL002" | "PL003")),
            "{edited}"
        );
        assert_eq!(reading.services.len(), 1);
        assert_eq!(reading.services[0].name, "m");
        assert!(reading.services[0].selects(&reading.workloads[0].pod_labels));
        let traffic = reading.scenario.traffic.expect("traffic");
        assert_eq!(traffic.service.map(|s| s.value), Some("m".to_string()));
        assert_eq!(traffic.rate.len(), 3);
        let shown = values(&edited)
            .and_then(|v| v.traffic)
            .expect("traffic values");
        assert_eq!((shown.rate, shown.burst), (20_000, Some(120_000)));
        // Once: a second click changes nothing.
        assert_eq!(
            apply(&edited, &Change::AddTraffic).as_deref(),
            Ok(edited.as_str())
        );
        // Into an existing Scenario, reusing a Service that selects the pods.
        let with = format!(
            "{DEPLOYMENT}---\napiVersion: v1\nkind: Service\nmetadata: {{ name: api }}\nspec:\n  selector: {{ app: m }}\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: {{ name: s }}\nspec:\n  duration: 5m\n"
        );
        let edited = apply(&with, &Change::AddTraffic).expect("added");
        let reading = read(&edited);
        assert_eq!(reading.services.len(), 1);
        assert_eq!(
            reading
                .scenario
                .traffic
                .and_then(|t| t.service)
                .map(|s| s.value),
            Some("api".to_string())
        );
        assert_eq!(reading.scenario.duration.value, 5 * 60_000);
    }

    #[test]
    fn the_autoscaler_controls_write_the_hpa_document() {
        let added = apply(DEPLOYMENT, &Change::AddAutoscaler).expect("added");
        assert!(added.starts_with(DEPLOYMENT));
        let hpa = values(&added).and_then(|v| v.autoscaler).expect("an HPA");
        assert_eq!(
            hpa,
            AutoscalerValues {
                name: "m".into(),
                min_replicas: 1,
                max_replicas: 4,
                target: Some((TargetKind::AverageValue, 30_000)),
                scale_up_pods: None,
            }
        );
        // Once: a second click changes nothing.
        assert_eq!(
            apply(&added, &Change::AddAutoscaler).as_deref(),
            Ok(added.as_str())
        );
        let (edited, shown) = roundtrip(&added, Change::MaxReplicas(6));
        let (edited, shown2) = roundtrip(&edited, Change::MinReplicas(3));
        let (edited, shown3) = roundtrip(&edited, Change::AutoscalerTarget(12_500));
        assert_eq!(shown.autoscaler.map(|a| a.max_replicas), Some(6));
        assert_eq!(shown2.autoscaler.map(|a| a.min_replicas), Some(3));
        assert_eq!(
            shown3.autoscaler.and_then(|a| a.target),
            Some((TargetKind::AverageValue, 12_500))
        );
        assert!(edited.contains("averageValue: \"12.5\""), "{edited}");
        assert!(edited.contains("minReplicas: 3"), "{edited}");
        // The scale-up policy: written as `behavior.scaleUp.policies`, then
        // replaced in place.
        let (edited, shown) = roundtrip(&edited, Change::ScaleUpPods(2));
        assert_eq!(shown.autoscaler.and_then(|a| a.scale_up_pods), Some(2));
        let (edited, shown) = roundtrip(&edited, Change::ScaleUpPods(1));
        assert_eq!(shown.autoscaler.and_then(|a| a.scale_up_pods), Some(1));
        assert_eq!(edited.matches("periodSeconds: 15").count(), 1, "{edited}");
        let hpa = &read(&edited).autoscalers[0];
        let behavior = hpa.behavior.as_ref().expect("behavior written");
        // The API's defaults for what was not written: scale-down keeps
        // its 100 % per 15 s policy (docs/autoscaling.md).
        assert_eq!(behavior.scale_down.policies.len(), 1);
        // minReplicas never passes maxReplicas, nor maxReplicas minReplicas.
        let (edited, shown) = roundtrip(&edited, Change::MinReplicas(9));
        assert_eq!(
            shown.autoscaler.map(|a| (a.min_replicas, a.max_replicas)),
            Some((6, 6))
        );
        let (_, shown) = roundtrip(&edited, Change::MaxReplicas(2));
        assert_eq!(
            shown.autoscaler.map(|a| (a.min_replicas, a.max_replicas)),
            Some((6, 6))
        );
    }

    #[test]
    fn the_target_slider_writes_a_utilization_in_its_own_key() {
        let text = format!(
            "{DEPLOYMENT}---\napiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {{ name: m }}\nspec:\n  scaleTargetRef: {{ apiVersion: apps/v1, kind: Deployment, name: m }}\n  maxReplicas: 3\n  metrics:\n    - type: Resource\n      resource:\n        name: cpu\n        target:\n          type: Utilization\n          averageUtilization: 60\n"
        );
        let (edited, shown) = roundtrip(&text, Change::AutoscalerTarget(80));
        assert!(edited.contains("averageUtilization: 80\n"), "{edited}");
        assert_eq!(
            shown.autoscaler.and_then(|a| a.target),
            Some((TargetKind::Utilization, 80))
        );
        // minReplicas absent: the API's default 1, written in place.
        let (edited, shown) = roundtrip(&edited, Change::MinReplicas(2));
        assert!(edited.contains("minReplicas: 2"), "{edited}");
        assert_eq!(shown.autoscaler.map(|a| a.min_replicas), Some(2));
        // No HPA: a clear refusal, not a panic.
        assert!(matches!(
            apply(DEPLOYMENT, &Change::MinReplicas(2)),
            Err(EditError::Unsupported(_))
        ));
    }
}
