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

/// The GPU resources a pod needs on one node, as `resourcehelper.PodRequests`
/// counts them (`k8s.io/component-helpers/resource/helpers.go`): the app
/// containers' sum plus every sidecar's (a restartable init container runs
/// beside them), or what the init phase needs at its largest if that is
/// more: a regular init container's own requests plus those of the sidecars
/// started before it (init containers run one at a time).
pub fn pod_gpu_requests(workload: &Workload) -> Vec<(String, i64)> {
    fn add(into: &mut Vec<(String, i64)>, from: &[(String, i64)]) {
        for (name, count) in from {
            match into.iter_mut().find(|(known, _)| known == name) {
                Some((_, sum)) => *sum = sum.saturating_add(*count),
                None => into.push((name.clone(), *count)),
            }
        }
    }
    fn max_into(into: &mut Vec<(String, i64)>, from: &[(String, i64)]) {
        for (name, count) in from {
            match into.iter_mut().find(|(known, _)| known == name) {
                Some((_, most)) => *most = (*most).max(*count),
                None => into.push((name.clone(), *count)),
            }
        }
    }
    let mut total: Vec<(String, i64)> = Vec::new();
    for container in &workload.pod.containers {
        add(&mut total, &gpu_requests(container));
    }
    let mut sidecars: Vec<(String, i64)> = Vec::new();
    let mut init_phase: Vec<(String, i64)> = Vec::new();
    for container in &workload.pod.init_containers {
        let requests = gpu_requests(container);
        let during = if container.restart_policy.as_deref() == Some("Always") {
            add(&mut total, &requests);
            add(&mut sidecars, &requests);
            sidecars.clone()
        } else {
            let mut during = requests;
            add(&mut during, &sidecars);
            during
        };
        max_into(&mut init_phase, &during);
    }
    max_into(&mut total, &init_phase);
    total.retain(|(_, count)| *count > 0);
    total
}

#[cfg(test)]
mod tests {
    /// `PodRequests` with sidecars: a sidecar adds to the app containers'
    /// sum and to every later init container's need.
    #[test]
    fn sidecars_add_to_the_pods_gpus_and_init_containers_take_the_most() {
        let pod = |init: &str| {
            let text = format!("apiVersion: v1\nkind: Pod\nmetadata: {{ name: p }}\nspec:\n  initContainers:\n{init}  containers:\n    - {{ name: app, image: a:1, resources: {{ limits: {{ nvidia.com/gpu: 1 }} }} }}\n");
            super::pod_gpu_requests(&crate::lint::read(&text).workloads[0])
        };
        let gpus = |n: i64| vec![("nvidia.com/gpu".to_string(), n)];
        let sidecar = "    - { name: side, image: s:1, restartPolicy: Always, resources: { limits: { nvidia.com/gpu: 1 } } }\n";
        let init = |n: i64| {
            format!("    - {{ name: init{n}, image: i:1, resources: {{ limits: {{ nvidia.com/gpu: {n} }} }} }}\n")
        };
        // Regular init containers run alone: max(1, 2) = 2.
        assert_eq!(pod(&init(2)), gpus(2));
        // A sidecar runs beside the app: 1 + 1.
        assert_eq!(pod(sidecar), gpus(2));
        // An init container after the sidecar runs beside it: max(1 + 1, 2 + 1) = 3.
        assert_eq!(pod(&format!("{sidecar}{}", init(2))), gpus(3));
        // Before the sidecar it runs alone: max(1 + 1, 2) = 2.
        assert_eq!(pod(&format!("{}{sidecar}", init(2))), gpus(2));
    }
}
