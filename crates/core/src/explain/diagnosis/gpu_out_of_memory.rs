//! CUDA out of memory: the program's allocation on the device fails (exit
//! 1), beside a time-sliced neighbour, under the MPS cap, in a MIG slice
//! too small, or on a card too small for the model.

use super::evidence::{assumed_in, has_previous, restarts_at, Evidence};
use super::{Diagnosis, Kind};
use crate::explain::{describe, logs};
use crate::manifest::duration::Millis;
use crate::manifest::path::ProgramField;
use crate::rules::pl104_memory_limit_below_peak as pl104;
use crate::sim::{ContainerRun, PodRun, Run};
use crate::text;

pub(super) fn gpu_out_of_memory(
    run: &Run,
    pod: &PodRun,
    container: &ContainerRun,
    oom: &crate::sim::GpuOom,
    at: Millis,
) -> Diagnosis {
    let name = &container.name;
    let show = pl104::show_bytes;
    let (need, capacity, others) = (show(oom.need), show(oom.capacity), show(oom.others));
    let model = &oom.gpu_model;
    let restarts = restarts_at(container, at);
    let described = describe::describe_pod(run, pod, at);
    let mut evidence = Evidence::new();
    evidence.find(&described, "Exit Code:    1", None);
    evidence.find(&described, "Restart Count:", None);
    if let Ok(log) = logs::logs(run, pod, name, at, has_previous(container, at)) {
        if let Some(line) = log.lines().rev().find(|l| l.contains("CUDA out of memory")) {
            evidence.push(line);
        }
    }
    let node = pod.node.as_ref().map_or("", |(node, _)| node.as_str());
    let symptom = text!(
        "CrashLoopBackOff: container \"{name}\" exits with code 1 while loading the model, {restarts} restarts; its log ends with CUDA out of memory",
        "CrashLoopBackOff：container「{name}」在載入模型時以 exit code 1 結束，已重啟 {restarts} 次；日誌最後一行是 CUDA out of memory"
    );
    let (root_cause, next_command, why, fix) = match oom.mode.as_str() {
        "time-slicing" => {
            let neighbours = oom.neighbours.join(", ");
            let first = oom.neighbours.first().cloned().unwrap_or_else(|| pod.name.clone());
            (
                text!(
                    "time-slicing shares the {model}'s {capacity} of memory with no isolation: the other pods on that GPU ({neighbours}) already hold {others}, this model needs {need}, and the process that allocates last fails",
                    "Time-slicing 讓大家共用 {model} 的 {capacity} 記憶體，沒有記憶體隔離：同一張 GPU 上的其他 Pod（{neighbours}）已經占了 {others}，這個模型還要 {need}，最後配置記憶體的那個行程就會失敗"
                ),
                format!("kubectl exec {first} -- nvidia-smi"),
                text!(
                    "nvidia-smi in the healthy neighbour shows the same physical GPU and how much memory is already used on it; Kubernetes only counted replicas, never memory",
                    "在健康的鄰居 Pod 裡跑 nvidia-smi，會看到同一張實體 GPU，以及上面已經用掉多少記憶體；Kubernetes 只算份數，從來不算記憶體"
                ),
                text!(
                    "give this model its own GPU (time-slicing shares compute time, not memory), use MIG for isolated slices, or lower the replicas per GPU so the models that share a card fit in {capacity} together",
                    "讓這個模型獨占一張 GPU（time-slicing 分的是運算時間，不是記憶體）、改用 MIG 切出互相隔離的區塊，或調低每張 GPU 的 replicas，讓共用一張卡的模型加起來放得進 {capacity}"
                ),
            )
        }
        "MPS" => (
            text!(
                "MPS caps each client at {capacity} (the {model}'s memory divided by the replicas); this model needs {need}, so its own allocation fails whatever the neighbours do",
                "MPS 把每個 client 限制在 {capacity}（{model} 的記憶體除以 replicas）；這個模型需要 {need}，不管鄰居在做什麼，它自己的配置都會失敗"
            ),
            format!("kubectl describe node {node}"),
            text!(
                "the node's nvidia.com/gpu count and its nvidia.com/gpu.replicas label give the replicas, hence the per-client cap",
                "節點上的 nvidia.com/gpu 數量和 nvidia.com/gpu.replicas 標籤就是 replicas，由此可以算出每個 client 的上限"
            ),
            text!(
                "run it on a pool with fewer MPS replicas (the cap is memory / replicas), on a whole GPU or a MIG slice of at least {need}, or load a smaller or quantized model",
                "把它放到 MPS replicas 比較少的節點池（上限是記憶體 ÷ replicas）、放到整張 GPU 或至少 {need} 的 MIG 區塊，或改載入比較小、量化過的模型"
            ),
        ),
        mode if mode.starts_with("MIG") => {
            let profile = mode.trim_start_matches("MIG ").to_string();
            (
                text!(
                    "the MIG device {profile} has only {capacity} of memory (an isolated slice of the {model}); this model needs {need}",
                    "MIG 裝置 {profile} 只有 {capacity} 記憶體（{model} 切出來、互相隔離的一塊）；這個模型需要 {need}"
                ),
                format!("kubectl describe node {node}"),
                text!(
                    "the node's Allocatable lists the MIG profiles it offers (nvidia.com/mig-…): pick one with at least {need}",
                    "節點的 Allocatable 會列出它提供的 MIG profile（nvidia.com/mig-…）：挑一個至少有 {need} 的"
                ),
                text!(
                    "request a larger MIG profile (one with at least {need}) or a whole GPU, or load a smaller or quantized model",
                    "改要求比較大的 MIG profile（至少 {need}）或整張 GPU，或改載入比較小、量化過的模型"
                ),
            )
        }
        _ => (
            text!(
                "the model needs {need} of device memory but the {model} has {capacity}",
                "這個模型需要 {need} 的 GPU 記憶體，但 {model} 只有 {capacity}"
            ),
            format!("kubectl describe node {node}"),
            text!(
                "the node's labels (nvidia.com/gpu.product, nvidia.com/gpu.memory) say which GPU it has",
                "節點的標籤（nvidia.com/gpu.product、nvidia.com/gpu.memory）會寫出它是哪一種 GPU"
            ),
            text!(
                "schedule it on a GPU with more than {need} (nodeSelector on nvidia.com/gpu.product), split the model across several GPUs, or load a smaller or quantized model",
                "把它排到記憶體超過 {need} 的 GPU 上（用 nodeSelector 指定 nvidia.com/gpu.product）、把模型拆到多張 GPU，或改載入比較小、量化過的模型"
            ),
        ),
    };
    Diagnosis {
        assumed: assumed_in(container, &[ProgramField::GpuMemory]),
        pod: pod.name.clone(),
        kind: Kind::GpuOutOfMemory,
        symptom,
        root_cause,
        evidence: evidence.lines,
        next_command,
        why_that_command: why,
        fix,
    }
}
