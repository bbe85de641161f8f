//! The Scenario kind (`podlab.dev/v1alpha1`): what no manifest says — how the
//! program in each container behaves and what cluster it lands on — with the
//! defaults of `shared/DESIGN.md` ("The Scenario kind").
//!
//! Like `model/lower.rs`, lowering never fails: a value of the wrong shape was
//! reported by `validate.rs` and is treated as absent here. A defaulted value
//! carries `span: None`.

use crate::gpu::{self, GpuModel};
use crate::manifest::duration::{self, Millis};
use crate::manifest::model::{Container, Setting};
use crate::manifest::path::ProgramField;
use crate::manifest::quantity::{self, Quantity};
use crate::manifest::yaml::Node;
use crate::span::Span;

mod actions;
mod traffic;

use actions::lower_act;
pub use actions::{
    apply_changes, Act, Action, Delete, DeploymentRef, MapChanges, MetaTarget, Metadata, NodeRef,
    Patch, Scale, Undo,
};

use traffic::{cpu_of, lower_serve, lower_traffic, serve_of};
pub use traffic::{Arrivals, Cpu, CpuSpec, Interceptor, RateStep, Serve, ServeSpec, Traffic};

pub const GIB: i128 = 1 << 30;

/// A whole Scenario document, or the defaults when the file has none.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// The document's `kind: Scenario` value, when one was written.
    pub kind_span: Option<Span>,
    pub name: String,
    /// Simulated time (default 15m).
    pub duration: Setting<Millis>,
    pub seed: u64,
    /// Program models, matched by container name (`*` matches every container).
    pub programs: Vec<ProgramSpec>,
    pub node_pools: Vec<NodePool>,
    /// Whether `cluster.nodePools` was written (else the default pool applies).
    pub pools_written: bool,
    /// `cluster.missing`: objects that behave as absent (`Secret/mlflow-secret`).
    pub missing: Vec<String>,
    /// Set when no cluster was written and the pools were inferred from the
    /// manifests' cloud hints (`infer.rs`): which cluster was assumed and how
    /// to change it. `None` for a written cluster and for the default pool.
    pub inferred_note: Option<crate::i18n::Text>,
    /// The ExtendedResourceToleration admission plugin is on (GKE; or
    /// `cluster.admissionPlugins: [ExtendedResourceToleration]`).
    pub extended_resource_toleration: bool,
    /// `traffic`: requests sent to a Service (`sim/traffic.rs`); none when
    /// not written.
    pub traffic: Option<Traffic>,
    /// `actions`: what a person does at a time (`kubectl scale`).
    pub actions: Vec<Action>,
    /// `rollout`: a new pod template applied to a Deployment at a time
    /// (`sim/rollout.rs`, docs/rollouts.md).
    pub rollouts: Vec<Rollout>,
}

/// `{at: 5m, workload: model-api, image: registry.example.com/model-api:0.3.2}`:
/// at `at`, the Deployment `workload`'s template gets the new image (what
/// `kubectl set image` or an apply of the edited manifest does). The
/// container changed is the one whose image repository is the new image's,
/// else the first.
#[derive(Clone, Debug, PartialEq)]
pub struct Rollout {
    pub at: Millis,
    pub span: Span,
    pub workload: String,
    pub image: String,
}

/// One `spec.workload[]` entry as written (or what a workload's
/// `podlab.dev/` annotations state, `annotations.rs`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProgramSpec {
    pub container: String,
    pub span: Option<Span>,
    pub startup: Option<Setting<Millis>>,
    pub listen_port: Option<Setting<i64>>,
    pub health_path: Option<Setting<String>>,
    pub health_latency: Option<Setting<Millis>>,
    pub memory_steady: Option<Setting<Quantity>>,
    pub memory_peak: Option<Setting<Quantity>>,
    pub workers: Option<Setting<i64>>,
    pub gpu_memory: Option<Setting<Quantity>>,
    pub shm: Option<Setting<Quantity>>,
    pub exit: Option<Exit>,
    pub run_for: Option<Setting<Millis>>,
    pub image_pull: Option<Setting<Millis>>,
    pub shutdown: Option<Setting<Millis>>,
    pub serve: Option<ServeSpec>,
    pub cpu: Option<CpuSpec>,
}

impl ProgramSpec {
    /// This entry's written values, each falling back to `under`'s.
    pub fn over(&self, under: &ProgramSpec) -> ProgramSpec {
        fn pick<T: Clone>(over: &Option<T>, under: &Option<T>) -> Option<T> {
            over.clone().or_else(|| under.clone())
        }
        ProgramSpec {
            container: self.container.clone(),
            span: self.span.or(under.span),
            startup: pick(&self.startup, &under.startup),
            listen_port: pick(&self.listen_port, &under.listen_port),
            health_path: pick(&self.health_path, &under.health_path),
            health_latency: pick(&self.health_latency, &under.health_latency),
            memory_steady: pick(&self.memory_steady, &under.memory_steady),
            memory_peak: pick(&self.memory_peak, &under.memory_peak),
            workers: pick(&self.workers, &under.workers),
            gpu_memory: pick(&self.gpu_memory, &under.gpu_memory),
            shm: pick(&self.shm, &under.shm),
            exit: pick(&self.exit, &under.exit),
            run_for: pick(&self.run_for, &under.run_for),
            image_pull: pick(&self.image_pull, &under.image_pull),
            shutdown: pick(&self.shutdown, &under.shutdown),
            serve: match (&self.serve, &under.serve) {
                (Some(over), Some(under)) => Some(over.over(under)),
                (over, under) => pick(over, under),
            },
            cpu: match (&self.cpu, &under.cpu) {
                (Some(over), Some(under)) => Some(CpuSpec {
                    span: over.span.or(under.span),
                    idle: pick(&over.idle, &under.idle),
                    per_request: pick(&over.per_request, &under.per_request),
                    loading: pick(&over.loading, &under.loading),
                }),
                (over, under) => pick(over, under),
            },
        }
    }

    /// Whether it states anything at all.
    pub fn states_anything(&self) -> bool {
        self.startup.is_some()
            || self.listen_port.is_some()
            || self.health_path.is_some()
            || self.health_latency.is_some()
            || self.memory_steady.is_some()
            || self.memory_peak.is_some()
            || self.workers.is_some()
            || self.gpu_memory.is_some()
            || self.shm.is_some()
            || self.exit.is_some()
            || self.run_for.is_some()
            || self.image_pull.is_some()
            || self.shutdown.is_some()
            || self.serve.is_some()
            || self.cpu.is_some()
    }
}

/// `exit: { after, code, log }`: the program exits by itself.
#[derive(Clone, Debug, PartialEq)]
pub struct Exit {
    pub after: Millis,
    pub code: i64,
    pub log: String,
}

/// The program model of one container, every default resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// Container start → the health endpoint answers 200.
    pub startup: Setting<Millis>,
    pub listen_port: Setting<i64>,
    pub health_path: Setting<String>,
    pub health_latency: Setting<Millis>,
    /// Bytes once loaded, for one worker.
    pub memory_steady: Setting<i128>,
    /// Bytes at the loading peak, for one worker.
    pub memory_peak: Setting<i128>,
    pub workers: Setting<i64>,
    /// Device memory once loaded, for one worker.
    pub gpu_memory: Setting<i128>,
    /// Shared memory (`/dev/shm`) one worker fills when loading ends: its
    /// DataLoader batches or NCCL buffers (`sim/shm.rs`).
    pub shm: Setting<i128>,
    pub exit: Option<Exit>,
    pub run_for: Option<Setting<Millis>>,
    pub image_pull: Setting<Millis>,
    pub shutdown: Setting<Millis>,
    pub serve: Serve,
    pub cpu: Cpu,
}

impl Program {
    /// The number a path's program field names (`manifest::path`), in its
    /// unit: ms, bytes or a count.
    pub fn number(&self, field: ProgramField) -> i128 {
        match field {
            ProgramField::Startup => i128::from(self.startup.value),
            ProgramField::MemorySteady => self.memory_steady.value,
            ProgramField::MemoryPeak => self.memory_peak.value,
            ProgramField::Workers => i128::from(self.workers.value),
            ProgramField::GpuMemory => self.gpu_memory.value,
        }
    }

    /// Memory at the loading peak for all workers: what the limit must hold.
    pub fn peak_total(&self) -> i128 {
        self.memory_peak
            .value
            .max(0)
            .saturating_mul(i128::from(self.workers.value.max(1)))
    }

    pub fn steady_total(&self) -> i128 {
        self.memory_steady
            .value
            .max(0)
            .saturating_mul(i128::from(self.workers.value.max(1)))
    }

    /// Shared memory for all workers (`shm` × workers).
    pub fn shm_total(&self) -> i128 {
        self.shm
            .value
            .max(0)
            .saturating_mul(i128::from(self.workers.value.max(1)))
    }

    pub fn gpu_memory_total(&self) -> i128 {
        self.gpu_memory
            .value
            .max(0)
            .saturating_mul(i128::from(self.workers.value.max(1)))
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct NodePool {
    pub name: String,
    pub span: Option<Span>,
    pub count: i64,
    pub cpu_milli: i128,
    pub memory_bytes: i128,
    pub gpu: Option<PoolGpu>,
    pub device_plugin: bool,
    pub sharing: Sharing,
    pub labels: Vec<(String, String)>,
    pub taints: Vec<Taint>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PoolGpu {
    /// As written; `catalog` is `None` for a model podlab does not know.
    pub model: String,
    pub model_span: Option<Span>,
    pub catalog: Option<&'static GpuModel>,
    pub count: i64,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Sharing {
    None,
    /// Device plugin `sharing.timeSlicing` (gpu-sharing.md §3).
    TimeSlicing {
        replicas: i64,
        rename: bool,
    },
    /// Device plugin `sharing.mps` (gpu-sharing.md §4).
    Mps {
        replicas: i64,
        rename: bool,
    },
    /// MIG with the device plugin's `--mig-strategy` (gpu-sharing.md §5.4);
    /// `layout` is the profiles on each GPU of the pool.
    Mig {
        strategy: MigStrategy,
        layout: Vec<String>,
        layout_span: Option<Span>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MigStrategy {
    Single,
    Mixed,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Taint {
    pub key: String,
    pub value: String,
    pub effect: String,
}

impl NodePool {
    /// The default pool of DESIGN.md: "gpu", 1 node, 8 CPU, 32Gi, 1 × A100-80GB,
    /// device plugin running, no sharing, no taints.
    pub fn default_pool() -> NodePool {
        NodePool {
            name: "gpu".into(),
            span: None,
            count: 1,
            cpu_milli: 8000,
            memory_bytes: 32 * GIB,
            gpu: Some(PoolGpu {
                model: "A100-80GB".into(),
                model_span: None,
                catalog: gpu::lookup("A100-80GB"),
                count: 1,
            }),
            device_plugin: true,
            sharing: Sharing::None,
            labels: Vec::new(),
            taints: Vec::new(),
        }
    }

    /// The extended resources one node of this pool advertises in
    /// `status.allocatable` (gpu-sharing.md §2 table): nothing without the
    /// device plugin; `nvidia.com/gpu` × GPUs; × replicas under time-slicing
    /// or MPS (renamed `nvidia.com/gpu.shared` with `renameByDefault`); one
    /// `nvidia.com/gpu` per MIG device with the single strategy; one
    /// `nvidia.com/mig-<profile>` per MIG device with the mixed strategy.
    pub fn extended_resources(&self) -> Vec<(String, i64)> {
        let Some(gpu) = &self.gpu else {
            return Vec::new();
        };
        if !self.device_plugin || gpu.count <= 0 {
            return Vec::new();
        }
        match &self.sharing {
            Sharing::None => vec![("nvidia.com/gpu".into(), gpu.count)],
            Sharing::TimeSlicing { replicas, rename } | Sharing::Mps { replicas, rename } => {
                let name = if *rename {
                    "nvidia.com/gpu.shared"
                } else {
                    "nvidia.com/gpu"
                };
                vec![(name.into(), gpu.count.saturating_mul(*replicas.max(&1)))]
            }
            Sharing::Mig {
                strategy: MigStrategy::Single,
                layout,
                ..
            } => vec![(
                "nvidia.com/gpu".into(),
                gpu.count
                    .saturating_mul(i64::try_from(layout.len()).unwrap_or(i64::MAX)),
            )],
            Sharing::Mig {
                strategy: MigStrategy::Mixed,
                layout,
                ..
            } => {
                let mut resources: Vec<(String, i64)> = Vec::new();
                for profile in layout {
                    let name = format!("nvidia.com/mig-{profile}");
                    match resources.iter_mut().find(|(known, _)| *known == name) {
                        Some((_, count)) => *count = count.saturating_add(gpu.count),
                        None => resources.push((name, gpu.count)),
                    }
                }
                resources
            }
        }
    }

    /// How many of `resource` the whole pool offers.
    pub fn total(&self, resource: &str) -> i64 {
        self.extended_resources()
            .iter()
            .filter(|(name, _)| name == resource)
            .map(|(_, count)| count.saturating_mul(self.count.max(0)))
            .fold(0i64, i64::saturating_add)
    }
}

impl Default for Scenario {
    fn default() -> Scenario {
        Scenario {
            kind_span: None,
            name: String::new(),
            duration: Setting {
                value: 15 * 60 * 1000,
                span: None,
            },
            seed: 0,
            programs: Vec::new(),
            node_pools: vec![NodePool::default_pool()],
            pools_written: false,
            missing: Vec::new(),
            inferred_note: None,
            extended_resource_toleration: false,
            traffic: None,
            actions: Vec::new(),
            rollouts: Vec::new(),
        }
    }
}

impl Scenario {
    pub fn is_written(&self) -> bool {
        self.kind_span.is_some()
    }

    /// Whether the node pools were inferred from the manifests (no written
    /// cluster, some cloud hint): a cluster nobody stated.
    pub fn is_cluster_inferred(&self) -> bool {
        self.inferred_note.is_some()
    }

    /// Writes a program's number for `container` into the entry the
    /// simulator uses for it: its own, else `*`'s (as `controls::apply`
    /// edits the text), else a new entry; the value is stated (a span that
    /// names no text). What `map` does to a cell's model, and what an
    /// exercise's `edge` goal does to the starting file.
    pub fn set_number(&mut self, container: &str, field: ProgramField, value: i128) {
        let index = self
            .programs
            .iter()
            .position(|p| p.container == container)
            .or_else(|| self.programs.iter().position(|p| p.container == "*"));
        let index = match index {
            Some(index) => index,
            None => {
                self.programs.push(ProgramSpec {
                    container: container.to_string(),
                    ..ProgramSpec::default()
                });
                self.programs.len() - 1
            }
        };
        let Some(entry) = self.programs.get_mut(index) else {
            return;
        };
        fn stated<T>(value: T) -> Setting<T> {
            Setting {
                value,
                span: Some(Span::empty(0)),
            }
        }
        let bytes = || Some(stated(Quantity::from_units(value)));
        match field {
            ProgramField::Startup => {
                entry.startup = Some(stated(Millis::try_from(value.max(0)).unwrap_or(0)));
            }
            ProgramField::MemorySteady => entry.memory_steady = bytes(),
            ProgramField::MemoryPeak => entry.memory_peak = bytes(),
            ProgramField::Workers => {
                entry.workers = Some(stated(i64::try_from(value).unwrap_or(i64::MAX)));
            }
            ProgramField::GpuMemory => entry.gpu_memory = bytes(),
        }
    }

    /// The program entry for a container: its own name first, then `*`.
    pub fn program_spec(&self, container: &str) -> Option<&ProgramSpec> {
        self.programs
            .iter()
            .find(|program| program.container == container)
            .or_else(|| {
                self.programs
                    .iter()
                    .find(|program| program.container == "*")
            })
    }

    /// The program model of an init container (`sim/init.rs`): only an
    /// entry with its own name applies (`*` describes the app's server).
    /// A regular init container is a job, not a server: `startup` defaults
    /// to 0 and, without `exit` or `runFor`, it exits 0 at once, so
    /// `runFor: 6m` is a 6-minute download. A sidecar (`restartPolicy:
    /// Always`) is a long-running server with the app defaults.
    pub fn init_program(&self, container: &Container, sidecar: bool) -> Program {
        let own = self
            .programs
            .iter()
            .find(|program| program.container == container.name);
        let mut spec = own.cloned().unwrap_or_default();
        spec.container = container.name.clone();
        if !sidecar {
            if spec.startup.is_none() {
                spec.startup = Some(Setting {
                    value: 0,
                    span: None,
                });
            }
            if spec.exit.is_none() && spec.run_for.is_none() {
                spec.run_for = Some(Setting {
                    value: 0,
                    span: None,
                });
            }
        }
        program_of(&spec, container)
    }

    /// The program model of `container`, defaults resolved against the
    /// container as DESIGN.md says: listen port = first containerPort, else
    /// 8080; steady memory = the memory request as written, else half the
    /// memory limit, else 2Gi; peak = 1.75 × steady.
    ///
    /// A value the Scenario's entry writes wins over what the workload's
    /// `podlab.dev/` annotations state (`annotations.rs`), field by field;
    /// either one carries the span where it is written (stated), a default
    /// carries none (assumed).
    pub fn program(&self, container: &Container) -> Program {
        let merged = match self.program_spec(&container.name) {
            Some(written) => written.over(&container.annotated),
            None => container.annotated.clone(),
        };
        program_of(&merged, container)
    }
}

/// A program entry resolved against its container (`Scenario::program`).
fn program_of(spec: &ProgramSpec, container: &Container) -> Program {
    let listen_port = spec.listen_port.clone().unwrap_or(Setting {
        value: container.ports.first().map_or(8080, |port| port.number),
        span: None,
    });
    let memory_steady = match &spec.memory_steady {
        Some(steady) => Setting {
            value: steady.value.value(),
            span: steady.span,
        },
        None => {
            let from_request = container
                .resources
                .request("memory")
                .and_then(|amount| amount.quantity);
            let from_limit = container
                .resources
                .limit("memory")
                .and_then(|amount| amount.quantity)
                .map(|limit| Quantity::from_units(limit.value() / 2));
            Setting {
                value: from_request.or(from_limit).map_or(2 * GIB, Quantity::value),
                span: None,
            }
        }
    };
    let memory_peak = match &spec.memory_peak {
        Some(peak) => Setting {
            value: peak.value.value(),
            span: peak.span,
        },
        None => Setting {
            value: memory_steady.value.saturating_mul(7) / 4,
            span: None,
        },
    };
    let millis = |setting: &Option<Setting<Millis>>, default: Millis| {
        setting.clone().unwrap_or(Setting {
            value: default,
            span: None,
        })
    };
    Program {
        startup: millis(&spec.startup, 40_000),
        listen_port,
        health_path: spec.health_path.clone().unwrap_or(Setting {
            value: "/health".into(),
            span: None,
        }),
        health_latency: millis(&spec.health_latency, 20),
        memory_steady,
        memory_peak,
        workers: spec.workers.clone().unwrap_or(Setting {
            value: 1,
            span: None,
        }),
        gpu_memory: match &spec.gpu_memory {
            Some(memory) => Setting {
                value: memory.value.value(),
                span: memory.span,
            },
            None => Setting {
                value: 0,
                span: None,
            },
        },
        shm: match &spec.shm {
            Some(shm) => Setting {
                value: shm.value.value(),
                span: shm.span,
            },
            None => Setting {
                value: 0,
                span: None,
            },
        },
        exit: spec.exit.clone(),
        run_for: spec.run_for.clone(),
        image_pull: millis(&spec.image_pull, 0),
        shutdown: millis(&spec.shutdown, 1000),
        serve: serve_of(spec.serve.as_ref()),
        cpu: cpu_of(spec.cpu.as_ref()),
    }
}

impl Scenario {
    /// The pool a GPU model name refers to, for messages.
    pub fn gpu_pools(&self) -> impl Iterator<Item = &NodePool> {
        self.node_pools.iter().filter(|pool| pool.gpu.is_some())
    }
}

// ---- lowering ------------------------------------------------------------------

fn written<T>(value: T, span: Span) -> Setting<T> {
    Setting {
        value,
        span: Some(span),
    }
}

fn duration_at(node: &Node, key: &str) -> Option<Setting<Millis>> {
    let value = node.get(key)?;
    let millis = duration::parse(value.as_str()?).ok()?;
    Some(written(millis, value.span))
}

fn quantity_at(node: &Node, key: &str) -> Option<Setting<Quantity>> {
    let value = node.get(key)?;
    let text = value.as_str()?;
    let parsed = quantity::parse(text).ok()?;
    (!parsed.is_negative()).then(|| written(parsed, value.span))
}

fn int_at(node: &Node, key: &str) -> Option<Setting<i64>> {
    let value = node.get(key)?;
    Some(written(value.as_int()?, value.span))
}

fn str_at(node: &Node, key: &str) -> Option<Setting<String>> {
    let value = node.get(key)?;
    if value.is_null() {
        return None;
    }
    Some(written(value.as_str()?.to_string(), value.span))
}

/// Lowers a Scenario document (its root mapping).
pub fn lower_scenario(root: &Node, kind_span: Span) -> Scenario {
    let mut scenario = Scenario {
        kind_span: Some(kind_span),
        name: root
            .get("metadata")
            .and_then(|meta| meta.get("name"))
            .and_then(Node::as_str)
            .unwrap_or_default()
            .to_string(),
        ..Scenario::default()
    };
    let Some(spec) = root.get("spec") else {
        return scenario;
    };
    if let Some(duration) = duration_at(spec, "duration") {
        scenario.duration = duration;
    }
    if let Some(seed) = spec.get("seed").and_then(Node::as_int) {
        scenario.seed = seed.unsigned_abs();
    }
    for item in spec.get("workload").and_then(Node::items).unwrap_or(&[]) {
        scenario.programs.push(lower_program(item));
    }
    scenario.traffic = spec.get("traffic").and_then(lower_traffic);
    scenario.actions = spec
        .get("actions")
        .and_then(Node::items)
        .unwrap_or(&[])
        .iter()
        .map(|item| Action {
            at: duration_at(item, "at").map_or(0, |at| at.value),
            span: item.span,
            act: lower_act(item),
        })
        .collect();
    scenario.rollouts = spec
        .get("rollout")
        .and_then(Node::items)
        .unwrap_or(&[])
        .iter()
        .filter_map(|item| {
            Some(Rollout {
                at: duration_at(item, "at").map_or(0, |at| at.value),
                span: item.span,
                workload: item.get("workload")?.as_str()?.to_string(),
                image: item.get("image")?.as_str()?.to_string(),
            })
        })
        .collect();
    if let Some(cluster) = spec.get("cluster") {
        if let Some(pools) = cluster.get("nodePools").and_then(Node::items) {
            scenario.pools_written = true;
            scenario.node_pools = pools.iter().map(lower_pool).collect();
        }
        scenario.missing = cluster
            .get("missing")
            .and_then(Node::items)
            .unwrap_or(&[])
            .iter()
            .filter_map(|item| item.as_str().map(str::to_string))
            .collect();
        scenario.extended_resource_toleration = cluster
            .get("admissionPlugins")
            .and_then(Node::items)
            .unwrap_or(&[])
            .iter()
            .any(|item| item.as_str() == Some("ExtendedResourceToleration"));
    }
    scenario
}

fn lower_program(item: &Node) -> ProgramSpec {
    let memory = item.get("memory");
    ProgramSpec {
        container: item
            .get("container")
            .and_then(Node::as_str)
            .unwrap_or("*")
            .to_string(),
        span: Some(item.span),
        startup: duration_at(item, "startup"),
        listen_port: int_at(item, "listenPort"),
        health_path: str_at(item, "healthPath"),
        health_latency: duration_at(item, "healthLatency"),
        memory_steady: memory.and_then(|memory| quantity_at(memory, "steady")),
        memory_peak: memory.and_then(|memory| quantity_at(memory, "peak")),
        workers: int_at(item, "workers").filter(|workers| workers.value >= 1),
        gpu_memory: quantity_at(item, "gpuMemory"),
        shm: quantity_at(item, "shm"),
        exit: item.get("exit").map(|exit| Exit {
            after: duration_at(exit, "after").map_or(0, |after| after.value),
            code: exit.get("code").and_then(Node::as_int).unwrap_or(1),
            log: exit
                .get("log")
                .and_then(Node::as_str)
                .unwrap_or_default()
                .to_string(),
        }),
        run_for: duration_at(item, "runFor"),
        image_pull: duration_at(item, "imagePull"),
        shutdown: duration_at(item, "shutdown"),
        serve: item
            .get("serve")
            .filter(|serve| !serve.is_null())
            .map(lower_serve),
        cpu: item
            .get("cpu")
            .filter(|cpu| !cpu.is_null())
            .map(|cpu| CpuSpec {
                span: Some(cpu.span),
                idle: quantity_at(cpu, "idle"),
                per_request: duration_at(cpu, "perRequest"),
                loading: quantity_at(cpu, "loading"),
            }),
    }
}

fn lower_pool(item: &Node) -> NodePool {
    let default = NodePool::default_pool();
    let gpu = match item.get("gpu") {
        // A pool written without `gpu` has no GPU.
        None => None,
        Some(gpu) if gpu.is_null() => None,
        Some(gpu) => {
            let model = str_at(gpu, "model");
            let name = model
                .as_ref()
                .map_or_else(|| "A100-80GB".to_string(), |model| model.value.clone());
            Some(PoolGpu {
                catalog: gpu::lookup(&name),
                model: name,
                model_span: model.and_then(|model| model.span),
                count: int_at(gpu, "count").map_or(1, |count| count.value),
            })
        }
    };
    let sharing = match item.get("sharing") {
        None => Sharing::None,
        Some(sharing) => {
            let replicas = sharing.get("replicas").and_then(Node::as_int).unwrap_or(1);
            let rename = sharing
                .get("renameByDefault")
                .and_then(Node::as_bool)
                .unwrap_or(false);
            match sharing.get("mode").and_then(Node::as_str).unwrap_or("none") {
                "timeSlicing" => Sharing::TimeSlicing { replicas, rename },
                "mps" => Sharing::Mps { replicas, rename },
                "mig" => Sharing::Mig {
                    strategy: match sharing.get("strategy").and_then(Node::as_str) {
                        Some("mixed") => MigStrategy::Mixed,
                        _ => MigStrategy::Single,
                    },
                    layout: sharing
                        .get("layout")
                        .and_then(Node::items)
                        .unwrap_or(&[])
                        .iter()
                        .filter_map(|item| item.as_str().map(str::to_string))
                        .collect(),
                    layout_span: sharing.get("layout").map(|layout| layout.span),
                },
                _ => Sharing::None,
            }
        }
    };
    let quantity = |key: &str, default: i128| {
        quantity_at(item, key).map_or(default, |quantity| {
            if key == "cpu" {
                quantity.value.milli
            } else {
                quantity.value.value()
            }
        })
    };
    NodePool {
        name: str_at(item, "name").map_or(default.name.clone(), |name| name.value),
        span: Some(item.span),
        count: int_at(item, "count").map_or(1, |count| count.value),
        cpu_milli: quantity("cpu", default.cpu_milli),
        memory_bytes: quantity("memory", default.memory_bytes),
        gpu,
        device_plugin: item
            .get("devicePlugin")
            .and_then(Node::as_bool)
            .unwrap_or(true),
        sharing,
        labels: item
            .get("labels")
            .and_then(Node::entries)
            .unwrap_or(&[])
            .iter()
            .map(|entry| {
                (
                    entry.key_str().to_string(),
                    entry.value.as_str().unwrap_or_default().to_string(),
                )
            })
            .collect(),
        taints: item
            .get("taints")
            .and_then(Node::items)
            .unwrap_or(&[])
            .iter()
            .map(|taint| Taint {
                key: taint
                    .get("key")
                    .and_then(Node::as_str)
                    .unwrap_or_default()
                    .into(),
                value: taint
                    .get("value")
                    .and_then(Node::as_str)
                    .unwrap_or_default()
                    .into(),
                effect: taint
                    .get("effect")
                    .and_then(Node::as_str)
                    .unwrap_or("NoSchedule")
                    .into(),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::read;

    const DEPLOYMENT: &str = "apiVersion: v1\nkind: Pod\nmetadata: { name: m }\nspec:\n  containers:\n    - name: api\n      image: m:1\n      ports: [{ containerPort: 8000 }]\n      resources:\n        requests: { memory: 4Gi }\n        limits: { memory: 8Gi }\n    - name: side\n      image: s:1\n      resources: { limits: { memory: 1Gi } }\n    - name: bare\n      image: b:1\n";

    #[test]
    fn defaults_follow_the_design_and_the_container() {
        let reading = read(DEPLOYMENT);
        assert!(!reading.scenario.is_written());
        assert_eq!(reading.scenario.duration.value, 15 * 60 * 1000);
        assert_eq!(reading.scenario.node_pools, vec![NodePool::default_pool()]);
        let containers = &reading.workloads[0].pod.containers;
        let api = reading.scenario.program(&containers[0]);
        assert_eq!(api.startup.value, 40_000);
        assert_eq!(api.listen_port.value, 8000);
        assert_eq!(api.health_path.value, "/health");
        assert_eq!(api.health_latency.value, 20);
        // steady = the request as written; peak = 1.75 × steady.
        assert_eq!(api.memory_steady.value, 4 * GIB);
        assert_eq!(api.memory_peak.value, 7 * GIB);
        assert_eq!(api.shutdown.value, 1000);
        assert_eq!(api.image_pull.value, 0);
        // No request: half the limit. Neither: 2Gi. No port: 8080.
        let side = reading.scenario.program(&containers[1]);
        assert_eq!(side.memory_steady.value, GIB / 2);
        assert_eq!(side.listen_port.value, 8080);
        let bare = reading.scenario.program(&containers[2]);
        assert_eq!(bare.memory_steady.value, 2 * GIB);
        assert_eq!(bare.memory_peak.value, 7 * GIB / 2);
    }

    #[test]
    fn written_values_win_and_star_matches_the_rest() {
        let text = format!(
            "{DEPLOYMENT}---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: {{ name: s }}\nspec:\n  duration: 20m\n  workload:\n    - container: api\n      startup: 2m\n      memory: {{ steady: 5Gi, peak: 9Gi }}\n      workers: 2\n      gpuMemory: 20Gi\n      exit: {{ after: 5s, code: 3, log: boom }}\n    - container: \"*\"\n      listenPort: 9000\n  cluster:\n    nodePools:\n      - name: t4\n        count: 3\n        gpu: {{ model: Tesla-T4, count: 2 }}\n        sharing: {{ mode: timeSlicing, replicas: 4 }}\n        taints: [{{ key: nvidia.com/gpu, value: present, effect: NoSchedule }}]\n      - name: cpu\n        cpu: \"16\"\n    missing: [Secret/mlflow-secret]\n"
        );
        let reading = read(&text);
        let scenario = &reading.scenario;
        assert!(scenario.is_written());
        assert_eq!(scenario.duration.value, 20 * 60 * 1000);
        let containers = &reading.workloads[0].pod.containers;
        let api = scenario.program(&containers[0]);
        assert_eq!(api.startup.value, 120_000);
        assert!(api.startup.span.is_some());
        assert_eq!(api.peak_total(), 18 * GIB);
        assert_eq!(api.steady_total(), 10 * GIB);
        assert_eq!(api.gpu_memory_total(), 40 * GIB);
        assert_eq!(
            api.exit,
            Some(Exit {
                after: 5000,
                code: 3,
                log: "boom".into()
            })
        );
        assert_eq!(scenario.program(&containers[1]).listen_port.value, 9000);
        let t4 = &scenario.node_pools[0];
        assert_eq!(
            t4.gpu.as_ref().and_then(|gpu| gpu.catalog).map(|g| g.model),
            Some("T4")
        );
        assert_eq!(t4.extended_resources(), vec![("nvidia.com/gpu".into(), 8)]);
        assert_eq!(t4.total("nvidia.com/gpu"), 24);
        assert_eq!(t4.taints[0].value, "present");
        let cpu = &scenario.node_pools[1];
        assert!(cpu.gpu.is_none(), "a pool written without gpu has none");
        assert_eq!(cpu.cpu_milli, 16_000);
        assert!(cpu.extended_resources().is_empty());
        assert_eq!(scenario.missing, vec!["Secret/mlflow-secret".to_string()]);
    }

    #[test]
    fn advertised_resources_follow_the_device_plugin_modes() {
        let mut pool = NodePool::default_pool();
        pool.gpu = Some(PoolGpu {
            model: "A100-80GB".into(),
            model_span: None,
            catalog: gpu::lookup("A100-80GB"),
            count: 2,
        });
        pool.sharing = Sharing::Mps {
            replicas: 4,
            rename: true,
        };
        assert_eq!(
            pool.extended_resources(),
            vec![("nvidia.com/gpu.shared".into(), 8)]
        );
        pool.sharing = Sharing::Mig {
            strategy: MigStrategy::Mixed,
            layout: vec!["1g.10gb".into(), "1g.10gb".into(), "3g.40gb".into()],
            layout_span: None,
        };
        assert_eq!(
            pool.extended_resources(),
            vec![
                ("nvidia.com/mig-1g.10gb".into(), 4),
                ("nvidia.com/mig-3g.40gb".into(), 2)
            ]
        );
        pool.sharing = Sharing::Mig {
            strategy: MigStrategy::Single,
            layout: vec!["1g.10gb".into(); 7],
            layout_span: None,
        };
        assert_eq!(
            pool.extended_resources(),
            vec![("nvidia.com/gpu".into(), 14)]
        );
        pool.device_plugin = false;
        assert!(pool.extended_resources().is_empty());
    }
}
