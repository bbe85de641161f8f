//! A container's shared memory (`/dev/shm`) and what the Scenario's `shm`
//! does to it (docs/simulator.md "/dev/shm").
//!
//! What backs /dev/shm: without a volume mounted there, the sandbox's tmpfs
//! of containerd's `defaultShmSize` = 64 MiB (`rules/pl106.rs` cites it);
//! an `emptyDir: {medium: Memory}` mounted at /dev/shm is a tmpfs as large
//! as the pod's memory limits ("The maximum usage on memory medium EmptyDir
//! would be the minimum value between the SizeLimit specified here and the
//! sum of memory limits of all containers in a pod", the
//! `EmptyDirVolumeSource.sizeLimit` API doc); any other volume there (an
//! emptyDir on disk) holds files on the node's disk.
//!
//! When it fills: the program loads for `startup`, then starts its workers
//! (DataLoader workers, NCCL ranks), which put `shm` × workers into
//! /dev/shm at once — a step at `started + startup`, not a climb.
//!
//! What then happens, at that instant:
//! - more than the runtime's 64 MiB: a worker touches a page past the
//!   tmpfs's size and gets SIGBUS; PyTorch's worker handler prints `ERROR:
//!   Unexpected bus error encountered in worker. This might be caused by
//!   insufficient shared memory (shm).` and re-raises the signal
//!   (`pytorch/pytorch:torch/csrc/DataLoader.cpp`, `handler_SIGBUS`); the
//!   main process's SIGCHLD handler raises `RuntimeError: DataLoader worker
//!   (pid N) is killed by signal: Bus error. It is possible that
//!   dataloader's workers are out of shared memory. Please try to raise your
//!   shared memory limit.` (`THPModule_errorIfAnyWorkerFails`), which
//!   `_try_get_data` re-raises as `RuntimeError: DataLoader worker (pid(s)
//!   N) exited unexpectedly` (`torch/utils/data/dataloader.py`); the
//!   uncaught exception ends the Python main process with exit code 1
//!   (`Error`), and the kubelet's crash back-off follows;
//! - tmpfs pages are charged to the memory cgroup of the process that
//!   touches them (kernel `Documentation/admin-guide/cgroup-v2.rst`,
//!   memory.stat `shmem`; the Kubernetes volumes doc: files written to a
//!   memory emptyDir "count against the container's memory limit"), so
//!   the steady memory × workers plus the shared memory over the
//!   container's memory limit is an OOM kill (137, `OOMKilled`) then.
//!
//! Not modelled: an emptyDir `sizeLimit` (the eviction manager would evict
//! the pod: `Usage of EmptyDir volume "dshm" exceeds the limit "1Gi".`,
//! reason `Evicted`, `pkg/kubelet/eviction/helpers.go` `emptyDirMessageFmt`);
//! the size of the node's /dev/shm under `hostIPC: true` (below); NCCL's own
//! error text (the failure is PyTorch's DataLoader one).
//!
//! `hostIPC: true` without a volume at /dev/shm: the kubelet asks for the
//! node's IPC namespace (`pkg/kubelet/kuberuntime/util/util.go`,
//! `IpcNamespaceForPod`: `NamespaceMode_NODE`), and containerd then
//! bind-mounts the node's own /dev/shm into each container instead of the
//! sandbox's 64 MiB tmpfs (`internal/cri/server/container_create_linux.go`,
//! `containerMounts`: `if securityContext.GetNamespaceOptions().GetIpc() ==
//! runtime.NamespaceMode_NODE { sandboxDevShm = devShm }`; a volume the pod
//! mounts at /dev/shm still wins, `!isInCRIMounts(devShm, ...)`). No 64 MiB
//! cap, and the pages are charged to the memory cgroup of the process that
//! first touches them (kernel `Documentation/admin-guide/cgroup-v2.rst`), so
//! the container pays for them as with a memory emptyDir. That tmpfs is the
//! node's, sized by its distribution (systemd mounts it with the kernel's
//! default, half the RAM, `Documentation/filesystems/tmpfs.rst`): `df`
//! shows that size, the simulator does not cap the workers' writes at it.

use crate::manifest::model::{Container, PodSpec};
use crate::manifest::scenario::Program;

/// containerd's `defaultShmSize`: 64 MiB.
pub const RUNTIME_DEFAULT_BYTES: i128 = 64 << 20;

/// What backs a container's /dev/shm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DevShm {
    /// No volume at /dev/shm: the container runtime's 64 MiB tmpfs.
    RuntimeDefault,
    /// An `emptyDir: {medium: Memory}` at /dev/shm: no 64 MiB cap, every
    /// page charged to the container's memory.
    MemoryEmptyDir,
    /// Another volume at /dev/shm (an emptyDir on disk): files on disk.
    Other,
    /// No volume at /dev/shm and `hostIPC: true`: the node's /dev/shm, no
    /// 64 MiB cap, every page charged to the container's memory.
    Host,
}

/// Why the shared memory ended the container (`sim::Exit::shm`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShmFailure {
    /// `shm` × workers: what the workers put in /dev/shm.
    pub need: i128,
    pub workers: i64,
    /// The /dev/shm size that was too small (the runtime's 64 MiB) for a
    /// bus error; `None` when a memory emptyDir was there (an OOM kill).
    pub size: Option<i128>,
    /// The process memory (steady × workers) and the container's memory
    /// limit, for an OOM kill.
    pub process: i128,
    pub limit: Option<i128>,
}

impl ShmFailure {
    /// A bus error (the 64 MiB were too small), not an OOM kill.
    pub fn is_bus_error(&self) -> bool {
        self.size.is_some()
    }
}

/// What backs /dev/shm in `container`: the volume mounted there, else the
/// node's with `hostIPC: true`, else the runtime's 64 MiB.
pub fn dev_shm(pod: &PodSpec, container: &Container) -> DevShm {
    let Some(mount) = container
        .volume_mounts
        .iter()
        .find(|mount| mount.mount_path.trim_end_matches('/') == "/dev/shm")
    else {
        return if pod.host_ipc {
            DevShm::Host
        } else {
            DevShm::RuntimeDefault
        };
    };
    match pod
        .volumes
        .iter()
        .find(|volume| volume.name == mount.name)
        .and_then(|volume| volume.empty_dir_medium.as_deref())
    {
        Some("Memory") => DevShm::MemoryEmptyDir,
        _ => DevShm::Other,
    }
}

/// Bytes of the container's memory its shared memory holds once loaded
/// (`ContainerRun::memory_at` adds them): all of it in a memory emptyDir,
/// what fits in the runtime's 64 MiB otherwise, nothing on disk.
pub fn charged(dev_shm: DevShm, program: &Program) -> i128 {
    let need = program.shm_total();
    match dev_shm {
        DevShm::RuntimeDefault => need.min(RUNTIME_DEFAULT_BYTES),
        DevShm::MemoryEmptyDir | DevShm::Host => need,
        DevShm::Other => 0,
    }
}

/// What happens when the workers fill /dev/shm at the end of the load:
/// `None` when it fits.
pub fn failure(dev_shm: DevShm, program: &Program, limit: Option<i128>) -> Option<ShmFailure> {
    let need = program.shm_total();
    if need <= 0 {
        return None;
    }
    let failure = |size| ShmFailure {
        need,
        workers: program.workers.value.max(1),
        size,
        process: program.steady_total(),
        limit,
    };
    if dev_shm == DevShm::RuntimeDefault && need > RUNTIME_DEFAULT_BYTES {
        return Some(failure(Some(RUNTIME_DEFAULT_BYTES)));
    }
    let charged = charged(dev_shm, program);
    let over = limit
        .is_some_and(|limit| limit >= 0 && program.steady_total().saturating_add(charged) > limit);
    (over && charged > 0).then(|| failure(None))
}

/// The lines a bus error writes (stderr, which `kubectl logs` shows): the
/// worker's handler, then the main process's exception chain as Python
/// prints it, without the traceback frames (they name the image's own
/// paths). podlab numbers the main process 1 and its workers 2, 3, …; the
/// first worker is the one that faults (a real pid is larger).
pub fn bus_error_log() -> Vec<String> {
    let pid = 2;
    vec![
        "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).".into(),
        format!("RuntimeError: DataLoader worker (pid {pid}) is killed by signal: Bus error. It is possible that dataloader's workers are out of shared memory. Please try to raise your shared memory limit."),
        String::new(),
        "The above exception was the direct cause of the following exception:".into(),
        String::new(),
        format!("RuntimeError: DataLoader worker (pid(s) {pid}) exited unexpectedly"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::scenario::GIB;

    fn program(text_workload: &str) -> (DevShm, Program, Option<i128>) {
        let text = format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: x}}\nspec:\n  volumes: [{{ name: dshm, emptyDir: {{ medium: Memory }} }}]\n  containers:\n    - name: train\n      image: t:1\n      volumeMounts: [{{ name: dshm, mountPath: /dev/shm }}]\n      resources: {{ limits: {{ memory: 4Gi }} }}\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: {{ name: s }}\nspec:\n  workload:\n    - {{ container: train, {text_workload} }}\n");
        let reading = crate::lint::read(&text);
        let pod = &reading.workloads[0].pod;
        let container = &pod.containers[0];
        (
            dev_shm(pod, container),
            reading.scenario.program(container),
            Some(4 * GIB),
        )
    }

    #[test]
    fn shm_is_multiplied_by_workers_and_checked_against_the_limit() {
        // 4 × 512Mi steady + 4 × 256Mi = 3Gi ≤ 4Gi: fits.
        let (dev, fits, limit) = program("memory: { steady: 512Mi }, workers: 4, shm: 256Mi");
        assert_eq!(dev, DevShm::MemoryEmptyDir);
        assert_eq!(fits.shm_total(), GIB);
        assert_eq!(failure(dev, &fits, limit), None);
        // 1Gi × 2 + 2 × 1.5Gi = 5Gi > 4Gi: OOM.
        let (dev, over, limit) = program("memory: { steady: 1Gi }, workers: 2, shm: 1536Mi");
        let oom = failure(dev, &over, limit).expect("over the limit");
        assert!(!oom.is_bus_error());
        assert_eq!((oom.need, oom.process), (3 * GIB, 2 * GIB));
        // The runtime's 64 MiB: 4 × 16Mi fits, 4 × 17Mi does not.
        let (_, exact, _) = program("memory: { steady: 1Gi }, workers: 4, shm: 16Mi");
        assert_eq!(failure(DevShm::RuntimeDefault, &exact, None), None);
        let (_, small, _) = program("memory: { steady: 1Gi }, workers: 4, shm: 17Mi");
        let bus = failure(DevShm::RuntimeDefault, &small, None).expect("64Mi too small");
        assert!(bus.is_bus_error());
        assert_eq!(failure(DevShm::Other, &small, None), None);
    }

    /// `hostIPC: true` with no volume at /dev/shm: the node's /dev/shm
    /// (containerd's `containerMounts`), no 64 MiB; a volume mounted there
    /// still wins.
    #[test]
    fn host_ipc_uses_the_nodes_dev_shm_unless_a_volume_is_mounted_there() {
        let pod = |host_ipc: &str, mount: &str| {
            let text = format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: x}}\nspec:\n{host_ipc}  volumes: [{{ name: dshm, emptyDir: {{ medium: Memory }} }}]\n  containers:\n    - name: train\n      image: t:1\n{mount}");
            let reading = crate::lint::read(&text);
            let pod = &reading.workloads[0].pod;
            dev_shm(pod, &pod.containers[0])
        };
        let mount = "      volumeMounts: [{ name: dshm, mountPath: /dev/shm }]\n";
        assert_eq!(pod("  hostIPC: true\n", ""), DevShm::Host);
        assert_eq!(pod("  hostIPC: false\n", ""), DevShm::RuntimeDefault);
        assert_eq!(pod("", ""), DevShm::RuntimeDefault);
        assert_eq!(pod("  hostIPC: true\n", mount), DevShm::MemoryEmptyDir);
        // 4 × 17Mi: a bus error in the runtime's 64 MiB, nothing on the node's.
        let (_, small, _) = program("memory: { steady: 1Gi }, workers: 4, shm: 17Mi");
        assert_eq!(failure(DevShm::Host, &small, None), None);
        assert_eq!(charged(DevShm::Host, &small), 4 * (17 << 20));
        // Charged to the container as a memory emptyDir is: over the limit, OOM.
        let (_, over, limit) = program("memory: { steady: 1Gi }, workers: 2, shm: 1536Mi");
        let oom = failure(DevShm::Host, &over, limit).expect("over the limit");
        assert!(!oom.is_bus_error());
    }
}
