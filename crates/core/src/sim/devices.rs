//! GPUs at run time: which device each container gets, and the device
//! memory it fills while the model loads (`shared/reference/gpu-sharing.md`).
//!
//! - Whole GPUs (no sharing) and MIG devices are exclusive: a container's
//!   device memory (`gpuMemory` × workers) must fit the device's memory
//!   (the card, or the MIG profile's slice, §5).
//! - Time-slicing (§3) has no memory isolation: every container on one
//!   physical GPU allocates from the same card, so when their sum passes
//!   the card's memory the one allocating at that moment — the last to
//!   start loading — gets CUDA out of memory and exits 1.
//! - MPS (§4) caps each client at card memory / replicas
//!   (`set_default_device_pinned_mem_limit`): a client over its cap fails
//!   alone, whatever its neighbours do.
//!
//! The device plugin's `GetPreferredAllocation` for replicated resources
//! uses the `distributed` policy (NVIDIA/k8s-device-plugin
//! `internal/rm/allocate.go`): the physical GPU with the fewest allocated
//! replicas first; podlab breaks its ties by the lower GPU index (the
//! plugin's heap order is not stable). Memory climbs linearly over
//! `startup` as `ContainerRun::gpu_memory_at` draws it.

use super::{Ev, ExitKind, NodePool, Sim};
use crate::manifest::duration::Millis;
use crate::manifest::scenario::{MigStrategy, Sharing};
use crate::sched::gpu_requests;
use crate::sim::GpuOom;

/// One allocatable device of a node: a whole GPU, a time-slicing or MPS
/// replica set of one GPU, or one MIG device.
#[derive(Clone, Debug)]
pub(super) struct Device {
    /// The extended resource it backs (`nvidia.com/gpu`, `nvidia.com/mig-1g.10gb`).
    resource: String,
    /// The physical GPU on the node.
    pub(super) gpu: usize,
    /// Replicas it offers (1 unless time-slicing or MPS).
    slots: i64,
    used: i64,
    /// Memory a process on it can allocate, in bytes: the card's, the MIG
    /// profile's, or the MPS per-client cap.
    pub(super) memory: Option<i128>,
    /// Time-slicing: the memory is the whole card's, shared by every replica.
    pub(super) shared: bool,
    /// `time-slicing`, `MPS`, `MIG 1g.10gb` or `exclusive`, for the diagnosis.
    pub(super) mode: String,
}

/// The devices a node of `pool` advertises (gpu-sharing.md §2 table).
pub(super) fn devices_of(pool: &NodePool) -> Vec<Device> {
    let Some(gpu) = &pool.gpu else {
        return Vec::new();
    };
    if !pool.device_plugin || gpu.count <= 0 {
        return Vec::new();
    }
    let card = gpu.catalog.map(|model| model.memory_bytes());
    let count = usize::try_from(gpu.count.min(64)).unwrap_or(0);
    let mut devices = Vec::new();
    for index in 0..count {
        match &pool.sharing {
            Sharing::None => devices.push(Device {
                resource: "nvidia.com/gpu".into(),
                gpu: index,
                slots: 1,
                used: 0,
                memory: card,
                shared: false,
                mode: "exclusive".into(),
            }),
            Sharing::TimeSlicing { replicas, rename } | Sharing::Mps { replicas, rename } => {
                let mps = matches!(pool.sharing, Sharing::Mps { .. });
                let replicas = (*replicas).max(1);
                devices.push(Device {
                    resource: if *rename {
                        "nvidia.com/gpu.shared".into()
                    } else {
                        "nvidia.com/gpu".into()
                    },
                    gpu: index,
                    slots: replicas,
                    used: 0,
                    memory: if mps {
                        card.map(|card| card / i128::from(replicas))
                    } else {
                        card
                    },
                    shared: !mps,
                    mode: if mps { "MPS" } else { "time-slicing" }.into(),
                });
            }
            Sharing::Mig {
                strategy, layout, ..
            } => {
                for profile in layout {
                    let memory = gpu
                        .catalog
                        .and_then(|model| model.profile(profile))
                        .map(|p| p.memory_bytes());
                    devices.push(Device {
                        resource: match strategy {
                            MigStrategy::Single => "nvidia.com/gpu".into(),
                            MigStrategy::Mixed => format!("nvidia.com/mig-{profile}"),
                        },
                        gpu: index,
                        slots: 1,
                        used: 0,
                        memory,
                        shared: false,
                        mode: format!("MIG {profile}"),
                    });
                }
            }
        }
    }
    devices
}

impl<'a> Sim<'a> {
    /// At binding: each container's GPU requests taken from the node's
    /// devices (the kubelet's device manager asks the plugin's preferred
    /// allocation: the distributed policy), in the kubelet's order: the
    /// init containers, then the app containers. A regular init container
    /// has finished before the next container starts, so its devices are
    /// reused, first, by the containers after it; a sidecar keeps its own
    /// (`pkg/kubelet/cm/devicemanager/manager.go` `Allocate`: `devicesToReuse`,
    /// `addContainerAllocatedResources` for an init container,
    /// `removeContainerAllocatedResources` for a restartable one and for
    /// an app container). The pod holds each device once.
    pub(super) fn allocate_devices(&mut self, pod: usize, node: usize) {
        let app = self.pods[pod].spec.containers.len();
        let total = self.pods[pod].containers.len();
        let mut reuse: Vec<usize> = Vec::new();
        let mut allocated: Vec<usize> = Vec::new();
        for c in (app..total).chain(0..app) {
            let requests = gpu_requests(self.pods[pod].containers[c].spec);
            let mut held = Vec::new();
            for (resource, count) in requests {
                for _ in 0..count.max(0) {
                    let devices = &mut self.nodes[node].devices;
                    if let Some(at) = reuse.iter().position(|&index| {
                        devices.get(index).is_some_and(|d| d.resource == resource)
                    }) {
                        held.push(reuse.remove(at));
                        continue;
                    }
                    let best = devices
                        .iter()
                        .enumerate()
                        .filter(|(_, d)| d.resource == resource && d.used < d.slots)
                        .min_by_key(|(index, d)| (d.used, *index))
                        .map(|(index, _)| index);
                    if let Some(index) = best {
                        devices[index].used += 1;
                        held.push(index);
                        allocated.push(index);
                    }
                }
            }
            if c >= app && !self.is_sidecar(pod, c) {
                reuse.extend(held.iter().copied());
            }
            let devices = &self.nodes[node].devices;
            let mut gpus: Vec<usize> = held.iter().map(|&index| devices[index].gpu).collect();
            crate::sort::sort(&mut gpus);
            gpus.dedup();
            self.pods[pod].containers[c].run.gpus = gpus;
            self.pods[pod].containers[c].devices = held;
        }
        self.pods[pod].allocated_devices = allocated;
    }

    /// The pod stopped holding its node: its devices are free again.
    pub(super) fn free_devices(&mut self, pod: usize, node: usize) {
        for c in 0..self.pods[pod].containers.len() {
            self.pods[pod].containers[c].devices.clear();
        }
        for index in std::mem::take(&mut self.pods[pod].allocated_devices) {
            if let Some(device) = self.nodes[node].devices.get_mut(index) {
                device.used = device.used.saturating_sub(1);
            }
        }
    }

    /// A container instance started: when its device memory will not fit,
    /// schedule the CUDA out-of-memory exit. Exclusive and MPS devices are
    /// checked alone; a time-sliced GPU is checked with its neighbours.
    pub(super) fn device_memory_started(&mut self, pod: usize, c: usize) {
        let Some(node) = self.pods[pod].placed else {
            return;
        };
        let container = &self.pods[pod].containers[c];
        let need = container.program.gpu_memory_total();
        if need <= 0 || container.devices.is_empty() {
            return;
        }
        let devices = &self.nodes[node].devices;
        if container.devices.iter().any(|&d| devices[d].shared) {
            let gpus: Vec<usize> = container.devices.iter().map(|&d| devices[d].gpu).collect();
            for gpu in gpus {
                self.check_shared_gpu(node, gpu);
            }
            return;
        }
        let Some(capacity) = container
            .devices
            .iter()
            .map(|&d| devices[d].memory)
            .sum::<Option<i128>>()
        else {
            return;
        };
        if need > capacity {
            let Some(instance) = container.run.instances.last() else {
                return;
            };
            let startup = container.program.startup.value;
            let at = instance.started + crossing(startup, need, capacity);
            let index = container.run.instances.len() - 1;
            self.push(at, Ev::Exit(pod, c, index, ExitKind::CudaOom));
        }
    }

    /// A container on a time-sliced GPU exited: the others may fit now.
    pub(super) fn device_memory_stopped(&mut self, pod: usize, c: usize) {
        let Some(node) = self.pods[pod].placed else {
            return;
        };
        let devices = &self.nodes[node].devices;
        let gpus: Vec<usize> = self.pods[pod].containers[c]
            .devices
            .iter()
            .filter(|&&d| devices[d].shared)
            .map(|&d| devices[d].gpu)
            .collect();
        for gpu in gpus {
            self.check_shared_gpu(node, gpu);
        }
    }

    /// The running containers that allocate on physical GPU `gpu` of `node`
    /// through time-sliced replicas: (pod, container, start, load, bytes on
    /// this GPU — a container spread over k replicas puts 1/k on each).
    fn on_shared_gpu(&self, node: usize, gpu: usize) -> Vec<(usize, usize, Millis, Millis, i128)> {
        let devices = &self.nodes[node].devices;
        let mut users = Vec::new();
        for (p, pod) in self.pods.iter().enumerate() {
            if pod.placed != Some(node) {
                continue;
            }
            for (c, container) in pod.containers.iter().enumerate() {
                if !container.running || container.devices.is_empty() {
                    continue;
                }
                let here = container
                    .devices
                    .iter()
                    .filter(|&&d| devices[d].shared && devices[d].gpu == gpu)
                    .count();
                let Some(instance) = container.run.instances.last() else {
                    continue;
                };
                let need = container.program.gpu_memory_total();
                if here == 0 || need <= 0 {
                    continue;
                }
                let share = need * here as i128 / container.devices.len() as i128;
                users.push((
                    p,
                    c,
                    instance.started,
                    container.program.startup.value,
                    share,
                ));
            }
        }
        users
    }

    /// Finds when the containers loading on one time-sliced GPU first ask
    /// for more than the card has, and which of them is allocating then
    /// (the last to have started); schedules its CUDA out-of-memory exit.
    fn check_shared_gpu(&mut self, node: usize, gpu: usize) {
        let now = self.now;
        let Some(capacity) = self.nodes[node]
            .devices
            .iter()
            .find(|d| d.gpu == gpu && d.shared)
            .and_then(|d| d.memory)
        else {
            return;
        };
        let users = self.on_shared_gpu(node, gpu);
        let level = |t: f64| -> f64 {
            users
                .iter()
                .map(|&(_, _, start, load, bytes)| {
                    let elapsed = t - start as f64;
                    if load == 0 || elapsed >= load as f64 {
                        bytes as f64
                    } else {
                        bytes as f64 * (elapsed.max(0.0) / load as f64)
                    }
                })
                .sum()
        };
        // Breakpoints: where a container's climb ends; the level is linear
        // between them.
        let mut points: Vec<f64> = users
            .iter()
            .map(|&(_, _, start, load, _)| (start + load) as f64)
            .filter(|&t| t > now as f64)
            .collect();
        points.push(now as f64);
        crate::sort::sort_by(&mut points, f64::total_cmp);
        points.dedup();
        let cap = capacity as f64;
        let mut crossing_at = None;
        for window in points.windows(2).map(|w| (w[0], w[1])).chain(
            // After the last climb ends the level is flat.
            points.last().map(|&t| (t, t)),
        ) {
            let (a, b) = window;
            let (at_a, at_b) = (level(a), level(b));
            if at_a > cap {
                crossing_at = Some(a);
                break;
            }
            if at_b > cap && b > a {
                crossing_at = Some(a + (cap - at_a) / (at_b - at_a) * (b - a));
                break;
            }
        }
        self.nodes[node].gpu_checks[gpu] += 1;
        let Some(t) = crossing_at else {
            return;
        };
        let at = (t.ceil() as Millis).max(now);
        let generation = self.nodes[node].gpu_checks[gpu];
        self.push(at, Ev::GpuCheck(node, gpu, generation));
    }

    /// The scheduled crossing of a time-sliced GPU: the container still
    /// loading that started last fails.
    pub(super) fn gpu_crossing(&mut self, node: usize, gpu: usize, generation: u64) {
        if self.nodes[node].gpu_checks.get(gpu) != Some(&generation) {
            return;
        }
        let now = self.now;
        let victim = self
            .on_shared_gpu(node, gpu)
            .into_iter()
            .filter(|&(_, _, start, load, _)| now < start + load)
            .max_by_key(|&(p, c, start, _, _)| (start, p, c));
        if let Some((p, c, _, _, _)) = victim {
            let instance = self.pods[p].containers[c].run.instances.len() - 1;
            self.exit(p, c, instance, ExitKind::CudaOom);
        }
    }

    /// What the failing container's CUDA error reports: the memory it could
    /// use, what it held, what its neighbours held (time-slicing).
    pub(super) fn gpu_oom(&self, pod: usize, c: usize) -> Option<GpuOom> {
        let node = self.pods[pod].placed?;
        let container = &self.pods[pod].containers[c];
        let devices = &self.nodes[node].devices;
        let first = devices.get(*container.devices.first()?)?;
        let now = self.now;
        let own = container.run.gpu_memory_at(now);
        let need = container.program.gpu_memory_total();
        let (capacity, others, neighbours) = if first.shared {
            let users = self.on_shared_gpu(node, first.gpu);
            let mut others = 0;
            let mut neighbours = Vec::new();
            for (p, other, _, _, _) in users {
                if (p, other) == (pod, c) {
                    continue;
                }
                others += self.pods[p].containers[other].run.gpu_memory_at(now);
                if !neighbours.contains(&self.pods[p].run.name) {
                    neighbours.push(self.pods[p].run.name.clone());
                }
            }
            (first.memory?, others, neighbours)
        } else {
            let capacity = container
                .devices
                .iter()
                .map(|&d| devices[d].memory)
                .sum::<Option<i128>>()?;
            (capacity, 0, Vec::new())
        };
        Some(GpuOom {
            capacity,
            own,
            others,
            need,
            mode: first.mode.clone(),
            gpu_model: self.nodes[node]
                .sched
                .pool
                .gpu
                .as_ref()
                .map_or_else(String::new, |g| g.model.clone()),
            neighbours,
        })
    }
}

/// When a linear climb to `need` over `load` passes `capacity`.
fn crossing(load: Millis, need: i128, capacity: i128) -> Millis {
    if need <= 0 {
        return 0;
    }
    let fraction = (capacity.max(0) as f64 / need as f64).clamp(0.0, 1.0);
    (load as f64 * fraction).ceil() as Millis
}
