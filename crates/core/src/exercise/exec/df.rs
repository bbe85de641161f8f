//! `df -h /dev/shm` inside a container (`ExecContext::exec`).

use super::{normalize, ExecContext, ExecOutput};
use crate::i18n::Text;
use crate::manifest::duration::Millis;
use crate::manifest::model::Container;
use crate::sim::shm::{self, DevShm};
use crate::sim::PodRun;

impl ExecContext<'_> {
    /// `df -h [/dev/shm]`: the container's /dev/shm as GNU coreutils' `df`
    /// prints it. Its size: the runtime's 64 MiB `shm` mount (containerd's
    /// `defaultShmSize`), or for an `emptyDir: {medium: Memory}` mounted
    /// there a `tmpfs` of min(node allocatable memory, the pod's memory
    /// limit when every container has one, `sizeLimit`) (KEP-1967,
    /// `pkg/volume/emptydir/empty_dir.go` `calculateEmptyDirMemorySize`).
    /// Used: what the workers put there once the program has loaded
    /// (`ContainerRun::shm_charged`).
    pub(super) fn df(
        &self,
        pod: &PodRun,
        container: &Container,
        args: &[String],
        at: Millis,
    ) -> ExecOutput {
        let only = || ExecOutput {
            notes: vec![Text::new(
                "podlab emulates `df -h /dev/shm` only (the image's own disks are unknown)",
                "podlab 只模擬 `df -h /dev/shm`（映像本身的磁碟無從得知）",
            )],
            ..ExecOutput::fail(String::new(), 1)
        };
        let paths: Vec<&String> = args.iter().filter(|arg| !arg.starts_with('-')).collect();
        let human = args
            .iter()
            .any(|arg| arg == "-h" || arg == "--human-readable");
        if !human
            || args.len() != paths.len() + 1
            || paths.iter().any(|p| normalize(p) != "/dev/shm")
        {
            return only();
        }
        let (filesystem, size) = match shm::dev_shm(&pod.spec, container) {
            DevShm::RuntimeDefault => ("shm", shm::RUNTIME_DEFAULT_BYTES),
            DevShm::MemoryEmptyDir => {
                let mut size = self
                    .pool_of(pod)
                    .map_or(i128::MAX, |pool| pool.memory_bytes);
                let limits: Option<i128> = pod.spec.containers.iter().map(memory_limit).sum();
                if let Some(limit) = limits.filter(|limit| *limit > 0) {
                    size = size.min(limit);
                }
                let volume = container
                    .volume_mounts
                    .iter()
                    .find(|mount| normalize(&mount.mount_path) == "/dev/shm")
                    .and_then(|mount| pod.spec.volumes.iter().find(|v| v.name == mount.name));
                if let Some(limit) = volume
                    .and_then(|v| v.empty_dir_size_limit)
                    .filter(|l| *l > 0)
                {
                    size = size.min(limit);
                }
                ("tmpfs", size)
            }
            // The node's /dev/shm (`hostIPC: true`): a tmpfs of the kernel's
            // default size, half the RAM (`Documentation/filesystems/tmpfs.rst`).
            DevShm::Host => match self.pool_of(pod) {
                Some(pool) => ("tmpfs", pool.memory_bytes / 2),
                None => return only(),
            },
            DevShm::Other => return only(),
        };
        let used = pod
            .containers
            .iter()
            .find(|run| run.name == container.name)
            .filter(|run| run.memory_at(at) > 0)
            .and_then(|run| {
                let started = run
                    .instances
                    .iter()
                    .rev()
                    .find(|i| i.started <= at)?
                    .started;
                (at - started >= run.program.startup.value).then_some(run.shm_charged)
            })
            .unwrap_or(0)
            .clamp(0, size);
        let percent = if used == 0 {
            0
        } else {
            (used * 100 + size - 1) / size.max(1)
        };
        let row = [
            filesystem.to_string(),
            human_size(size),
            human_size(used),
            human_size(size - used),
            format!("{percent}%"),
        ];
        let header = ["Filesystem", "Size", "Used", "Avail", "Use%"];
        // coreutils' df.c field table: minimum widths 14, 5, 5, 5, 4; the
        // source left-aligned, the numbers right-aligned, one blank between.
        let widths = [14, 5, 5, 5, 4];
        let line = |cells: [&str; 5], last: &str| {
            let mut out = String::new();
            for (i, (cell, min)) in cells.iter().zip(widths).enumerate() {
                let width = min.max(header[i].len()).max(row[i].len());
                if i == 0 {
                    out.push_str(&format!("{cell:<width$} "));
                } else {
                    out.push_str(&format!("{cell:>width$} "));
                }
            }
            format!("{out}{last}\n")
        };
        let cells = [row[0].as_str(), &row[1], &row[2], &row[3], &row[4]];
        ExecOutput::ok(format!(
            "{}{}",
            line(header, "Mounted on"),
            line(cells, "/dev/shm")
        ))
    }
}

/// A container's memory limit in bytes, if it has one.
fn memory_limit(container: &Container) -> Option<i128> {
    container
        .resources
        .limits
        .iter()
        .find(|amount| amount.name == "memory")
        .and_then(|amount| amount.quantity)
        .map(|quantity| quantity.milli / 1000)
}

/// `df -h`'s sizes (coreutils `human_readable` with base 1024, rounding
/// up): one decimal below 10, whole numbers above, `K`, `M`, `G`, `T`.
fn human_size(bytes: i128) -> String {
    if bytes < 1024 {
        return bytes.max(0).to_string();
    }
    let mut unit = 1024_i128;
    for suffix in ['K', 'M', 'G', 'T', 'P'] {
        // Tenths of the unit, rounded up.
        let tenths = (bytes * 10 + unit - 1) / unit;
        if tenths < 100 {
            return format!("{}.{}{suffix}", tenths / 10, tenths % 10);
        }
        let whole = (bytes + unit - 1) / unit;
        if whole < 1024 {
            return format!("{whole}{suffix}");
        }
        unit *= 1024;
    }
    format!("{}P", bytes / (unit / 1024))
}
