//! PL106 shm-too-small.
//!
//! Models the pod's `/dev/shm`: unless the pod uses the node's IPC namespace
//! (`hostIPC: true`), containerd mounts a fresh tmpfs of `defaultShmSize` =
//! 64 MiB at `/dev/shm` for the pod sandbox and Kubernetes has no field to
//! size it (`containerd/containerd:internal/cri/server/podsandbox/helpers_linux.go`
//! `defaultShmSize`, `sandbox_run_linux.go` `setupSandboxFiles`; Docker's and
//! Podman's `--shm-size` default is the same 64m). The usual way to get a
//! bigger one is an `emptyDir` with `medium: Memory` (a tmpfs whose pages are
//! charged to the pod's memory; "The maximum usage on memory medium EmptyDir
//! would be the minimum value between the SizeLimit specified here and the sum
//! of memory limits of all containers in a pod", `EmptyDirVolumeSource.sizeLimit`
//! API doc) mounted at `/dev/shm`.
//!
//! Multi-process GPU work needs far more than 64 MiB: NCCL's shared-memory
//! transport between GPUs of one node creates `/dev/shm/nccl-*` segments of
//! several MiB per channel and peer (`NCCL WARN Error while creating shared
//! memory segment /dev/shm/nccl-… (size 9637888)`, NVIDIA/nccl#1518 on a
//! 64 MB /dev/shm), and PyTorch DataLoader workers pass every batch through
//! shared memory (`RuntimeError: unable to write to file </torch_…>: No space
//! left on device (28)`, `DataLoader worker (pid N) is killed by signal: Bus
//! error`).
//!
//! Triggers: the container asks for ≥ 2 GPUs; or its command/args mention
//! `torchrun`, `torch.distributed`, `--nproc_per_node`, `num_workers` (unless
//! it is set to 0), `deepspeed` or `accelerate launch`; or the Scenario runs
//! more than one worker in it.

use super::pl101_gpu_limit_required::insert_at;
use super::{containers, edit, gpu_requests, words, Context, Rule};
use super::{long, long_str};
use crate::diagnostic::{Diagnostic, Fix, Severity, TextEdit};
use crate::manifest::model::{Container, PodSpec};
use crate::text;

pub static RULE: Rule = Rule {
    id: "PL106",
    name: "shm-too-small",
    severity: Severity::Warning,
    scenario_aware: true,
    summary: words!(
        "a multi-GPU or multi-process workload without an in-memory /dev/shm",
        "多 GPU 或多行程的工作負載沒有掛載記憶體型的 /dev/shm"
    ),
    what: long!(
        "Reports a container that asks for 2 or more GPUs, runs a distributed or multi-process launcher (`torchrun`, `torch.distributed`, `--nproc_per_node`, `deepspeed`, `accelerate launch`), uses DataLoader workers (`num_workers` other than 0 in its command or args), or runs more than one worker in the Scenario, when no volume with `emptyDir.medium: Memory` is mounted at `/dev/shm` in it (pods with `hostIPC: true` use the node's /dev/shm and are skipped).",
        "當 container 要求 2 張以上的 GPU、使用分散式或多行程啟動器（`torchrun`、`torch.distributed`、`--nproc_per_node`、`deepspeed`、`accelerate launch`）、在 command 或 args 裡使用 DataLoader worker（`num_workers` 不是 0），或 Scenario 裡有多個 worker，卻沒有把 `emptyDir.medium: Memory` 的 volume 掛到 `/dev/shm` 時回報（`hostIPC: true` 的 Pod 用的是節點的 /dev/shm，不檢查）。"
    ),
    why: long!(
        "Inside a pod, /dev/shm is the container runtime's default tmpfs of 64 MiB, and Kubernetes has no field to enlarge it (there is no `--shm-size`). NCCL puts its intra-node buffers there and PyTorch DataLoader workers hand every batch to the trainer through it, so a multi-GPU job fails at the first all-reduce (`NCCL WARN Error while creating shared memory segment /dev/shm/nccl-…`) and a DataLoader dies with `Bus error` or `unable to write to file </torch_…>: No space left on device` — often after the GPUs were allocated and the image was pulled, sometimes only when a big batch comes along. podlab simulates it when the Scenario says how much a worker puts there (`shm: 256Mi`, × `workers`): past 64 MiB the DataLoader's bus error ends the container with exit 1 when the load ends, and the crash back-off follows; with the fix the pod runs, as long as the memory limit holds the process and the shared memory (a memory emptyDir is charged to the container: OOMKilled otherwise).",
        "在 Pod 裡，/dev/shm 是 container runtime 預設的 64 MiB tmpfs，Kubernetes 也沒有欄位能把它調大（沒有 `--shm-size`）。NCCL 把節點內的緩衝區放在這裡，PyTorch DataLoader 的 worker 也透過它把每個 batch 交給訓練程式，所以多 GPU 的工作會在第一次 all-reduce 就失敗（`NCCL WARN Error while creating shared memory segment /dev/shm/nccl-…`），DataLoader 則會出現 `Bus error` 或 `unable to write to file </torch_…>: No space left on device`——往往是 GPU 已經分配、映像也拉好之後，有時甚至要等到遇上大 batch 才爆。當 Scenario 寫出每個 worker 放進去的量（`shm: 256Mi`，再乘上 `workers`）時，podlab 會模擬這個後果：超過 64 MiB，載入結束時 DataLoader 的 bus error 就讓 container 以 exit code 1 結束，接著進入 crash back-off；套用修正後 Pod 就能跑，只要記憶體 limit 容得下行程加上共享記憶體（記憶體型的 emptyDir 會算進 container 的記憶體，否則會被 OOMKilled）。"
    ),
    failing: long_str!("apiVersion: batch/v1\nkind: Job\nmetadata: { name: ddp-train }\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n        - name: trainer\n          image: nvcr.io/nvidia/pytorch:24.08-py3\n          command: [\"torchrun\", \"--nproc_per_node=4\", \"train.py\"]\n          resources:\n            limits: { memory: 64Gi, nvidia.com/gpu: 4 }\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: one-8-gpu-node }\nspec:\n  cluster:\n    nodePools:\n      - { name: gpu, count: 1, cpu: \"64\", memory: 512Gi, gpu: { model: A100-80GB, count: 8 } }\n"),
    fixed: long_str!("apiVersion: batch/v1\nkind: Job\nmetadata: { name: ddp-train }\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      volumes:\n        - name: dshm\n          emptyDir: { medium: Memory, sizeLimit: 16Gi }\n      containers:\n        - name: trainer\n          image: nvcr.io/nvidia/pytorch:24.08-py3\n          command: [\"torchrun\", \"--nproc_per_node=4\", \"train.py\"]\n          volumeMounts:\n            - { name: dshm, mountPath: /dev/shm }\n          resources:\n            limits: { memory: 64Gi, nvidia.com/gpu: 4 }\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: one-8-gpu-node }\nspec:\n  cluster:\n    nodePools:\n      - { name: gpu, count: 1, cpu: \"64\", memory: 512Gi, gpu: { model: A100-80GB, count: 8 } }\n"),
    fix: long!(
        "Add an `emptyDir` volume with `medium: Memory` and mount it at `/dev/shm` (the fix adds both, as `dshm`). It is RAM: what is written there counts toward the pod's memory, so keep the memory limit large enough and set a `sizeLimit` if you want a cap.",
        "加上一個 `medium: Memory` 的 `emptyDir` volume，掛到 `/dev/shm`（修正會同時加上兩者，名稱是 `dshm`）。它用的是 RAM：寫在裡面的資料會算進 Pod 的記憶體用量，所以記憶體 limit 要留夠，想設上限可以加 `sizeLimit`。"
    ),
    check: Some(check),
};

const SHM: &str = "/dev/shm";

/// Launchers and options that start several processes sharing memory.
const HINTS: &[&str] = &[
    "torchrun",
    "torch.distributed",
    "--nproc_per_node",
    "--nproc-per-node",
    "deepspeed",
    "accelerate launch",
];

/// Why the container needs a real /dev/shm, in both languages.
fn trigger(container: &Container, workers: i64) -> Option<(String, String)> {
    let gpus: i64 = gpu_requests(container)
        .iter()
        .map(|(_, count)| *count)
        .fold(0, i64::saturating_add);
    if gpus >= 2 {
        return Some((
            format!("asks for {gpus} GPUs"),
            format!("要求 {gpus} 張 GPU"),
        ));
    }
    let words = container
        .command
        .iter()
        .chain(&container.args)
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(" ")
        .to_ascii_lowercase();
    if let Some(hint) = HINTS.iter().find(|hint| words.contains(**hint)) {
        return Some((format!("runs `{hint}`"), format!("執行 `{hint}`")));
    }
    if data_loader_workers(&words) {
        return Some((
            "uses DataLoader workers (`num_workers`)".into(),
            "使用 DataLoader worker（`num_workers`）".into(),
        ));
    }
    if workers > 1 {
        return Some((
            format!("runs {workers} worker processes (stated: Scenario `workers` or `podlab.dev/workers`)"),
            format!("執行 {workers} 個 worker 行程（Scenario 的 `workers` 或 `podlab.dev/workers` 所述）"),
        ));
    }
    None
}

/// Whether the words mention `num_workers`/`num-workers` with a value other
/// than 0 (or no readable value).
fn data_loader_workers(words: &str) -> bool {
    ["num_workers", "num-workers"].iter().any(|key| {
        words.match_indices(key).any(|(at, _)| {
            let rest = words.get(at + key.len()..).unwrap_or_default();
            let value: String = rest
                .trim_start_matches([' ', '=', ':', '"', '\''])
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            value.is_empty() || value.parse::<u64>().map_or(true, |n| n > 0)
        })
    })
}

/// Whether the pod shares the node's IPC namespace (`hostIPC: true`), read
/// from the text after the key (the typed model does not keep the value).
fn host_ipc(text: &str, pod: &PodSpec) -> bool {
    let Some(key) = pod.key("hostIPC") else {
        return false;
    };
    let rest = text.get(key.end..).unwrap_or_default();
    let rest = rest.trim_start_matches(['"', '\'']).trim_start();
    let Some(value) = rest.strip_prefix(':') else {
        return false;
    };
    value
        .trim_start()
        .strip_prefix("true")
        .is_some_and(|after| !after.starts_with(|c: char| c.is_ascii_alphanumeric()))
}

/// The state of the container's /dev/shm.
enum Shm {
    /// No mount at /dev/shm: the runtime's 64 MiB.
    Default,
    /// An emptyDir on disk mounted there.
    OnDisk(String),
    /// A memory emptyDir, or another kind of volume the author chose.
    Fine,
}

fn shm_state(pod: &PodSpec, container: &Container) -> Shm {
    let Some(mount) = container
        .volume_mounts
        .iter()
        .find(|mount| mount.mount_path.trim_end_matches('/') == SHM)
    else {
        return Shm::Default;
    };
    match pod.volumes.iter().find(|volume| volume.name == mount.name) {
        Some(volume) => match volume.empty_dir_medium.as_deref() {
            Some("Memory") | None => Shm::Fine,
            Some(_) => Shm::OnDisk(volume.name.clone()),
        },
        // A mount of an undeclared volume: the API server rejects it anyway.
        None => Shm::Fine,
    }
}

fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let text = context.text;
    for (workload, container, _) in containers(context.workloads) {
        if host_ipc(text, &workload.pod) {
            continue;
        }
        let state = shm_state(&workload.pod, container);
        if matches!(state, Shm::Fine) {
            continue;
        }
        let workers = context.scenario.program(container).workers.value;
        let Some((why_en, why_zh)) = trigger(container, workers) else {
            continue;
        };
        let name = &container.name;
        match state {
            Shm::OnDisk(volume) => {
                out.push(
                    RULE.diagnostic(
                        container.name_span,
                        text!(
                            "container \"{name}\" {why_en} and mounts volume \"{volume}\" at /dev/shm, but that emptyDir is on disk, not in memory (`medium: Memory`)",
                            "container「{name}」{why_zh}，/dev/shm 掛的是 volume「{volume}」，但這個 emptyDir 在磁碟上，不是記憶體（`medium: Memory`）"
                        ),
                    )
                    .with_help(text!(
                        "set `emptyDir: {{ medium: Memory }}` on volume \"{volume}\"; check inside the pod with `kubectl exec <pod> -- df -h /dev/shm` (it should say tmpfs)",
                        "在 volume「{volume}」設定 `emptyDir: {{ medium: Memory }}`；可用 `kubectl exec <pod> -- df -h /dev/shm` 在 Pod 裡確認（應該是 tmpfs）"
                    )),
                );
            }
            Shm::Default | Shm::Fine => {
                let mut diagnostic = RULE
                    .diagnostic(
                        container.name_span,
                        text!(
                            "container \"{name}\" {why_en} but /dev/shm is the container runtime's default 64Mi: NCCL and DataLoader workers run out of shared memory (`Bus error`, `No space left on device`)",
                            "container「{name}」{why_zh}，但 /dev/shm 是 container runtime 預設的 64Mi：NCCL 與 DataLoader worker 的共享記憶體會不夠（`Bus error`、`No space left on device`）"
                        ),
                    )
                    .with_help(text!(
                        "mount an in-memory emptyDir at /dev/shm: in the pod spec `volumes: [{{ name: dshm, emptyDir: {{ medium: Memory }} }}]`, in the container `volumeMounts: [{{ name: dshm, mountPath: /dev/shm }}]`; without it `kubectl exec <pod> -- df -h /dev/shm` shows a 64M tmpfs",
                        "把記憶體型的 emptyDir 掛到 /dev/shm：Pod spec 加上 `volumes: [{{ name: dshm, emptyDir: {{ medium: Memory }} }}]`，container 加上 `volumeMounts: [{{ name: dshm, mountPath: /dev/shm }}]`；沒掛的話 `kubectl exec <pod> -- df -h /dev/shm` 會顯示 64M 的 tmpfs"
                    ));
                if let Some(edits) = shm_edits(text, &workload.pod, container) {
                    diagnostic = diagnostic.with_fix(Fix {
                        description: text!(
                            "add an in-memory emptyDir volume and mount it at /dev/shm in \"{name}\"",
                            "加上記憶體型的 emptyDir volume，並掛到 container「{name}」的 /dev/shm"
                        ),
                        edits,
                    });
                }
                out.push(diagnostic);
            }
        }
    }
}

/// The edits that add (or reuse) a memory emptyDir and mount it at /dev/shm.
fn shm_edits(text: &str, pod: &PodSpec, container: &Container) -> Option<Vec<TextEdit>> {
    let mut edits = Vec::new();
    let existing = pod
        .volumes
        .iter()
        .find(|volume| volume.empty_dir_medium.as_deref() == Some("Memory"))
        .map(|volume| volume.name.clone());
    let volume = match existing {
        Some(name) => name,
        None => {
            let name = free_name(pod)?;
            let item = format!("{{ name: {name}, emptyDir: {{ medium: Memory }} }}");
            let volume_edit = match pod.volumes.first() {
                Some(first) => edit::insert_item(text, first.span.start, &item)?,
                None if pod.key("volumes").is_some() => return None,
                None => insert_at(
                    text,
                    pod.insertion_point()?,
                    &["volumes:".to_string(), format!("  - {item}")],
                    &format!("volumes: [{item}]"),
                )?,
            };
            edits.push(volume_edit);
            name
        }
    };
    let mount = format!(
        "{{ name: {}, mountPath: /dev/shm }}",
        edit::yaml_scalar(&volume)
    );
    let mount_edit = match container.volume_mounts.first() {
        Some(first) => edit::insert_item(text, first.span.start, &mount)?,
        None if container.key("volumeMounts").is_some() => return None,
        None => insert_at(
            text,
            container.insertion_point()?,
            &["volumeMounts:".to_string(), format!("  - {mount}")],
            &format!("volumeMounts: [{mount}]"),
        )?,
    };
    edits.push(mount_edit);
    Some(edits)
}

/// A volume name not used in the pod: `dshm`, else `dshm-2`, `dshm-3`...
fn free_name(pod: &PodSpec) -> Option<String> {
    (1..100).find_map(|n| {
        let name = if n == 1 {
            "dshm".to_string()
        } else {
            format!("dshm-{n}")
        };
        (!pod.volumes.iter().any(|volume| volume.name == name)).then_some(name)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn num_workers_zero_is_not_a_data_loader() {
        assert!(data_loader_workers("python train.py --num_workers 8"));
        assert!(data_loader_workers("python train.py --num-workers=4"));
        assert!(data_loader_workers(
            "python -c loader(num_workers=args.workers)"
        ));
        assert!(!data_loader_workers("python train.py --num_workers 0"));
        assert!(!data_loader_workers("python train.py --num_workers=0"));
        assert!(!data_loader_workers("python serve.py"));
    }
}
