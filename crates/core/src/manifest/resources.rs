//! What a pod asks for in GPUs: which extended resources are GPUs, and the
//! count a container and a whole pod request. Read by the scheduler
//! (`sched`), the simulator's devices, the rules and the inferred cluster
//! (`manifest::infer`), so it sits in the manifest, below them all.

use crate::manifest::model::{Container, Workload};

/// Extended resources that are GPUs or GPU slices: `nvidia.com/gpu`,
/// `nvidia.com/gpu.shared`, `nvidia.com/mig-<profile>`, and other vendors'
/// `<vendor>/gpu` (`amd.com/gpu`, `gpu.intel.com/i915`).
pub fn is_gpu_resource(name: &str) -> bool {
    name.starts_with("nvidia.com/gpu")
        || name.starts_with("nvidia.com/mig-")
        || name.ends_with("/gpu")
        || name.starts_with("gpu.intel.com/")
}

/// The GPU resources a container asks for: the limit, else the request (an
/// extended resource's request defaults to its limit, `SetDefaults_Pod`),
/// rounded down to a whole number; `(name, count)`.
pub fn gpu_requests(container: &Container) -> Vec<(String, i64)> {
    let mut out: Vec<(String, i64)> = Vec::new();
    for amount in container
        .resources
        .limits
        .iter()
        .chain(&container.resources.requests)
    {
        if !is_gpu_resource(&amount.name) || out.iter().any(|(name, _)| *name == amount.name) {
            continue;
        }
        if let Some(quantity) = amount.quantity {
            let count = i64::try_from(quantity.milli.div_euclid(1000)).unwrap_or(i64::MAX);
            out.push((amount.name.clone(), count));
        }
    }
    out
}

/// The GPU resources a pod needs on one node: the sum over its containers,
/// or the largest init container's if that is more (init containers run one
/// at a time; `resourcehelper.PodRequests`).
pub fn pod_gpu_requests(workload: &Workload) -> Vec<(String, i64)> {
    let mut total: Vec<(String, i64)> = Vec::new();
    for container in &workload.pod.containers {
        for (name, count) in gpu_requests(container) {
            match total.iter_mut().find(|(known, _)| *known == name) {
                Some((_, sum)) => *sum += count,
                None => total.push((name, count)),
            }
        }
    }
    for container in &workload.pod.init_containers {
        for (name, count) in gpu_requests(container) {
            match total.iter_mut().find(|(known, _)| *known == name) {
                Some((_, sum)) => *sum = (*sum).max(count),
                None => total.push((name, count)),
            }
        }
    }
    total.retain(|(_, count)| *count > 0);
    total
}
