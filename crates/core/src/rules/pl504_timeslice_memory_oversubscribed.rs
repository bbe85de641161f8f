//! PL504 timeslice-memory-oversubscribed.
//!
//! Models the NVIDIA device plugin's GPU sharing (`shared/reference/
//! gpu-sharing.md` §3, §4; NVIDIA/k8s-device-plugin README "With CUDA
//! Time-Slicing" / "With CUDA MPS", `cmd/mps-control-daemon/mps/daemon.go`):
//! - time-slicing advertises each GPU `replicas` times and "indiscriminately
//!   hands them out"; nothing isolates memory, so every pod placed on one
//!   physical GPU allocates from the same device memory, and the one that
//!   allocates last gets `CUDA out of memory` (and a crash can take the
//!   others with it);
//! - MPS caps each client's device memory at `total_memory / replicas`
//!   (`set_default_device_pinned_mem_limit`): a process that needs more
//!   fails its own allocation.
//!
//! The worst case for time-slicing: the scheduler and the plugin may put any
//! `replicas` shares of the pool's GPU pods (Deployment/StatefulSet/
//! ReplicaSet `replicas`, Job `parallelism`) on one physical GPU; a pod that
//! asks for k shares takes k of them. Device memory per pod is the sum of the
//! Scenario's `gpuMemory × workers` of its GPU containers (default 0: no
//! finding).

use super::pl502_gpu_unschedulable::{
    blocking_taints, fits, pods_at_once, resource_span, selects, subject,
};
use super::{gpu_requests, pod_gpu_requests, words, Context, Rule};
use super::{long, long_str};
use crate::diagnostic::{Diagnostic, Severity};
use crate::gpu::GpuModel;
use crate::manifest::model::Workload;
use crate::manifest::quantity::format_bytes;
use crate::manifest::scenario::{NodePool, Scenario, Sharing};
use crate::text;

pub static RULE: Rule = Rule {
    id: "PL504",
    name: "timeslice-memory-oversubscribed",
    severity: Severity::Warning,
    scenario_aware: true,
    summary: words!(
        "pods sharing one time-sliced GPU can need more device memory than it has",
        "共用同一張 time-slicing GPU 的 Pod 加起來可能需要超過它的 GPU 記憶體"
    ),
    what: long!(
        "For each node pool with `sharing.mode: timeSlicing`, takes the GPU pods that can land on it (with `replicas` or `parallelism` copies) and their device memory (the Scenario's `gpuMemory × workers`), and finds the most memory that `replicas` shares of one physical GPU can receive. It warns when that sum is larger than the card's memory. For `sharing.mode: mps` it warns when one process needs more than the per-client cap, card memory / replicas. It runs only when a Scenario states the cluster (`cluster.nodePools`): podlab's default pool and a cluster inferred from the manifests' cloud hints are assumptions, not the user's cluster.",
        "對每個 `sharing.mode: timeSlicing` 的節點池，找出能排到上面的 GPU Pod（依 `replicas` 或 `parallelism` 展開）和它們的 GPU 記憶體（Scenario 的 `gpuMemory × workers`），計算同一張實體 GPU 的 `replicas` 份額最多可能收到多少記憶體需求，超過卡的記憶體就警告。對 `sharing.mode: mps`，則在單一行程需要的記憶體超過每個 client 的上限（卡的記憶體 / replicas）時警告。只有 Scenario 寫明叢集（`cluster.nodePools`）時才會檢查：podlab 的預設節點池，以及從 manifest 的雲端線索推測出的叢集，都只是假設，不是使用者的叢集。"
    ),
    why: long!(
        "Time-slicing shares compute, not memory: four replicas of a 20Gi model on a 24Gi A10G all start, the first one loads, and the others die with `CUDA out of memory` — or the first one does, at its next batch. vLLM even reserves 90% of the card at start (`--gpu-memory-utilization 0.9`), so two of them never share one. The pods restart, load again and crash again, and which one survives changes every time. MPS does cap memory, so an oversized model fails at load every time.",
        "Time-slicing 共享的是運算，不是記憶體：在 24Gi 的 A10G 上跑四個 20Gi 模型的副本，全部都能啟動，第一個載入成功，其他的就以 `CUDA out of memory` 掛掉——或是第一個在下一個 batch 掛掉。vLLM 甚至一啟動就預留整張卡的 90%（`--gpu-memory-utilization 0.9`），兩個 vLLM 根本無法共用一張卡。Pod 重啟、重新載入、再掛掉，而且每次活下來的是誰都不一樣。MPS 會限制記憶體，所以太大的模型每次載入都會失敗。"
    ),
    failing: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: tgi }\nspec:\n  replicas: 4\n  selector: { matchLabels: { app: tgi } }\n  template:\n    metadata: { labels: { app: tgi } }\n    spec:\n      containers:\n        - name: server\n          image: ghcr.io/huggingface/text-generation-inference:2.4.0\n          resources:\n            limits: { nvidia.com/gpu: 1 }\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: shared-a10g }\nspec:\n  workload:\n    - container: server\n      gpuMemory: 20Gi\n  cluster:\n    nodePools:\n      - name: gpu\n        gpu: { model: A10G, count: 1 }\n        sharing: { mode: timeSlicing, replicas: 4 }\n"),
    fixed: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: tgi }\nspec:\n  replicas: 4\n  selector: { matchLabels: { app: tgi } }\n  template:\n    metadata: { labels: { app: tgi } }\n    spec:\n      containers:\n        - name: server\n          image: ghcr.io/huggingface/text-generation-inference:2.4.0\n          resources:\n            limits: { nvidia.com/gpu: 1 }\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: shared-a10g }\nspec:\n  workload:\n    - container: server\n      gpuMemory: 5Gi\n  cluster:\n    nodePools:\n      - name: gpu\n        gpu: { model: A10G, count: 1 }\n        sharing: { mode: timeSlicing, replicas: 4 }\n"),
    fix: long!(
        "Make the worst case fit: fewer time-slicing replicas per GPU (so fewer pods share a card), a smaller or quantized model, or a cap in the server itself (vLLM `--gpu-memory-utilization`, PyTorch `set_per_process_memory_fraction`). For real isolation use MIG, which gives each pod its own memory; MPS caps each client at card memory / replicas.",
        "讓最壞情況也放得下：減少每張 GPU 的 time-slicing replicas（共用一張卡的 Pod 變少）、換小一點或量化過的模型，或在伺服器本身設上限（vLLM 的 `--gpu-memory-utilization`、PyTorch 的 `set_per_process_memory_fraction`）。要真正的記憶體隔離請用 MIG，每個 Pod 有自己的記憶體；MPS 則把每個 client 限制在卡的記憶體 / replicas。"
    ),
    check: Some(check),
};

/// Time-slicing replicas above this are treated as this many shares of one
/// GPU (bounds the search; real configs use a handful, GKE allows 48).
const MAX_SHARES: usize = 128;

/// One workload's pods that can land on the pool.
struct Tenant<'w> {
    workload: &'w Workload,
    /// Shares of the pool's resource one pod takes.
    shares: usize,
    /// Device memory of one pod, bytes.
    memory: i128,
    /// How many of its pods exist at once.
    copies: usize,
}

/// Device memory one pod of `workload` uses: its GPU containers' `gpuMemory × workers`.
fn pod_gpu_memory(workload: &Workload, scenario: &Scenario) -> i128 {
    workload
        .pod
        .containers
        .iter()
        .filter(|container| !gpu_requests(container).is_empty())
        .map(|container| scenario.program(container).gpu_memory_total().max(0))
        .fold(0i128, i128::saturating_add)
}

/// The most memory `capacity` shares can receive from `tenants` (each copy
/// taken at most once; `skip_one` removes one copy of that tenant), with how
/// many pods of each tenant give it (a 0/1 knapsack over the copies).
fn worst_case(tenants: &[Tenant<'_>], capacity: usize, skip_one: usize) -> (i128, Vec<usize>) {
    // Every copy, as (tenant, shares, memory).
    let mut copies: Vec<(usize, usize, i128)> = Vec::new();
    for (index, tenant) in tenants.iter().enumerate() {
        let fit = capacity / tenant.shares.max(1);
        let mut count = tenant.copies.min(fit);
        if index == skip_one {
            count = count.min(tenant.copies.saturating_sub(1));
        }
        copies.extend(std::iter::repeat_n(
            (index, tenant.shares.max(1), tenant.memory),
            count,
        ));
    }
    let mut best = vec![0i128; capacity + 1];
    let mut taken = vec![vec![false; capacity + 1]; copies.len()];
    for (item, (_, shares, memory)) in copies.iter().enumerate() {
        for room in (*shares..=capacity).rev() {
            let with = best[room - shares].saturating_add(*memory);
            if with > best[room] {
                best[room] = with;
                taken[item][room] = true;
            }
        }
    }
    let mut counts = vec![0usize; tenants.len()];
    let mut room = capacity;
    for item in (0..copies.len()).rev() {
        if taken[item][room] {
            let (tenant, shares, _) = copies[item];
            counts[tenant] += 1;
            room -= shares;
        }
    }
    (best[capacity], counts)
}

/// `4 pods × 20Gi` or `3 pods of "vllm" × 20Gi + 1 pod of "embed" × 4Gi`.
fn terms(tenants: &[Tenant<'_>], counts: &[usize]) -> (String, String) {
    let used: Vec<(&Tenant<'_>, usize)> = tenants
        .iter()
        .zip(counts.iter().copied())
        .filter(|(_, count)| *count > 0)
        .collect();
    let single = used.len() == 1;
    let en: Vec<String> = used
        .iter()
        .map(|(tenant, count)| {
            let memory = format_bytes(tenant.memory);
            let pods = if *count == 1 { "pod" } else { "pods" };
            if single {
                format!("{count} {pods} × {memory}")
            } else {
                format!("{count} {pods} of \"{}\" × {memory}", tenant.workload.name)
            }
        })
        .collect();
    let zh: Vec<String> = used
        .iter()
        .map(|(tenant, count)| {
            let memory = format_bytes(tenant.memory);
            if single {
                format!("{count} 個 Pod × {memory}")
            } else {
                format!("{count} 個「{}」Pod × {memory}", tenant.workload.name)
            }
        })
        .collect();
    (en.join(" + "), zh.join(" + "))
}

/// The pool's pods: those asking for the resource it shares that can land on it.
fn tenants<'w>(context: &Context<'w>, pool: &NodePool, resource: &str) -> Vec<Tenant<'w>> {
    let mut out = Vec::new();
    for workload in context.workloads {
        let requests = pod_gpu_requests(workload);
        let Some(shares) = requests
            .iter()
            .find(|(name, _)| name == resource)
            .map(|(_, count)| usize::try_from(*count).unwrap_or(usize::MAX))
        else {
            continue;
        };
        if !fits(pool, &requests)
            || !selects(pool, &workload.pod)
            || !blocking_taints(pool, &context.scenario.tolerations(&workload.pod)).is_empty()
        {
            continue;
        }
        let memory = pod_gpu_memory(workload, context.scenario);
        let (count, _) = pods_at_once(workload);
        let copies = usize::try_from(count).unwrap_or(0);
        if memory > 0 && copies > 0 && shares > 0 {
            out.push(Tenant {
                workload,
                shares,
                memory,
                copies,
            });
        }
    }
    out
}

fn time_slicing(
    context: &Context<'_>,
    pool: &NodePool,
    model: &GpuModel,
    replicas: i64,
    out: &mut Vec<Diagnostic>,
) {
    let Some((resource, _)) = pool.extended_resources().into_iter().next() else {
        return;
    };
    let tenants = tenants(context, pool, &resource);
    let capacity = usize::try_from(replicas)
        .unwrap_or(MAX_SHARES)
        .min(MAX_SHARES);
    let card = model.memory_bytes();
    for (index, tenant) in tenants.iter().enumerate() {
        if tenant.shares > capacity {
            continue;
        }
        // The worst GPU that holds one pod of this workload.
        let (rest, mut counts) = worst_case(&tenants, capacity - tenant.shares, index);
        if let Some(count) = counts.get_mut(index) {
            *count += 1;
        }
        let total = rest.saturating_add(tenant.memory);
        let pods: usize = counts.iter().sum();
        if pods < 2 || total <= card {
            continue;
        }
        let (sum, sum_zh) = terms(&tenants, &counts);
        let (who, who_zh) = subject(tenant.workload);
        let name = &pool.name;
        let model_name = model.model;
        let total = format_bytes(total);
        let card = format_bytes(card);
        out.push(
            RULE.diagnostic(
                resource_span(tenant.workload, &resource),
                text!(
                    "{who}: pool \"{name}\" time-slices each {model_name} into {replicas} shares with no memory isolation, so {sum} = {total} can land on one {model_name} ({card}): the pods that allocate last fail with \"CUDA out of memory\"",
                    "{who_zh}：節點池「{name}」把每張 {model_name} 以 time-slicing 分成 {replicas} 份，沒有記憶體隔離，同一張 {model_name}（{card}）上可能落入 {sum_zh} = {total}：較晚配置記憶體的 Pod 會出現「CUDA out of memory」"
                ),
            )
            .with_help(text!(
                "fewer replicas per GPU, a smaller or quantized model, or MIG for real memory isolation; on a real cluster `kubectl logs --previous` shows `CUDA out of memory` and `kubectl exec ... -- nvidia-smi` shows every pod's processes on the same GPU",
                "減少每張 GPU 的 replicas、換小一點或量化過的模型，或改用 MIG 取得真正的記憶體隔離；在真實叢集上，`kubectl logs --previous` 會看到 `CUDA out of memory`，`kubectl exec ... -- nvidia-smi` 會看到各個 Pod 的行程都在同一張 GPU 上"
            )),
        );
    }
}

fn mps(
    context: &Context<'_>,
    pool: &NodePool,
    model: &GpuModel,
    replicas: i64,
    out: &mut Vec<Diagnostic>,
) {
    let Some((resource, _)) = pool.extended_resources().into_iter().next() else {
        return;
    };
    // set_default_device_pinned_mem_limit <gpu> <total_memory / replicas>M
    // total_memory is NVML's, the `nvidia-smi` total (15360 MiB on a T4).
    let cap_mib = i128::from(model.usable_mib) / i128::from(replicas.max(1));
    let cap = cap_mib << 20;
    for tenant in tenants(context, pool, &resource) {
        for container in &tenant.workload.pod.containers {
            if !gpu_requests(container)
                .iter()
                .any(|(name, _)| *name == resource)
            {
                continue;
            }
            let program = context.scenario.program(container);
            let need = program.gpu_memory.value;
            if need <= cap {
                continue;
            }
            let (who, who_zh) = subject(tenant.workload);
            let container_name = &container.name;
            let name = &pool.name;
            let model_name = model.model;
            let card = format_bytes(model.memory_bytes());
            let need = format_bytes(need);
            let cap = format_bytes(cap);
            let span = container
                .resources
                .limit(&resource)
                .or_else(|| container.resources.request(&resource))
                .map_or(tenant.workload.kind_span, |amount| amount.key_span);
            out.push(
                RULE.diagnostic(
                    span,
                    text!(
                        "{who}: container \"{container_name}\" needs {need} of device memory per process, but MPS on pool \"{name}\" caps each client at {card} / {replicas} = {cap} ({model_name} memory / replicas): its allocation fails with \"CUDA out of memory\" every time it loads",
                        "{who_zh}：container「{container_name}」每個行程需要 {need} 的 GPU 記憶體，但節點池「{name}」的 MPS 把每個 client 限制在 {card} / {replicas} = {cap}（{model_name} 的記憶體 / replicas）：每次載入都會以「CUDA out of memory」配置失敗"
                    ),
                )
                .with_help(text!(
                    "lower the pool's MPS replicas (the cap is the card's memory divided by them), use a smaller or quantized model, or give this workload a whole GPU or a MIG slice",
                    "降低節點池的 MPS replicas（上限是卡的記憶體除以它）、換小一點或量化過的模型，或讓這個工作負載使用整張 GPU 或一個 MIG 切片"
                )),
            );
        }
    }
}

fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    // Issue 14: the default pool and an inferred cluster are assumptions,
    // and a manifest is not wrong for a cluster nobody described.
    if !context.cluster_stated() {
        return;
    }
    for pool in &context.scenario.node_pools {
        let Some(model) = pool.gpu.as_ref().and_then(|gpu| gpu.catalog) else {
            continue;
        };
        match pool.sharing {
            Sharing::TimeSlicing { replicas, .. } if replicas >= 2 => {
                time_slicing(context, pool, model, replicas, out)
            }
            Sharing::Mps { replicas, .. } if replicas >= 1 => {
                mps(context, pool, model, replicas, out)
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worst_case_packs_the_biggest_pods() {
        let workload = crate::lint::read(
            "apiVersion: v1\nkind: Pod\nmetadata: { name: a }\nspec:\n  containers: [{ name: a, image: x }]\n",
        )
        .workloads;
        let Some(workload) = workload.first() else {
            panic!("no workload")
        };
        let gib = 1i128 << 30;
        let tenants = [
            Tenant {
                workload,
                shares: 1,
                memory: 20 * gib,
                copies: 2,
            },
            Tenant {
                workload,
                shares: 2,
                memory: 30 * gib,
                copies: 2,
            },
            Tenant {
                workload,
                shares: 1,
                memory: 4 * gib,
                copies: 8,
            },
        ];
        // 4 shares: 2 × 20 + 30 (2 shares) = 70 beats 3 × 20 + 4 = 64 and 2 × 30 = 60.
        assert_eq!(
            worst_case(&tenants, 4, usize::MAX),
            (70 * gib, vec![2, 1, 0])
        );
        // Without one copy of the first: 2 × 30 = 60 beats 20 + 30 + 4 = 54.
        assert_eq!(worst_case(&tenants, 4, 0), (60 * gib, vec![0, 2, 0]));
        assert_eq!(worst_case(&tenants, 0, usize::MAX), (0, vec![0, 0, 0]));
    }
}
