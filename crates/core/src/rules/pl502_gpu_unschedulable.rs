//! PL502 gpu-unschedulable.
//!
//! Models kube-scheduler's filters for a GPU pod against the Scenario's node
//! pools (`shared/reference/scheduler-controllers.md` §1, §2, §11;
//! `shared/reference/gpu-sharing.md` §2, §3, §5.4): a node advertises only
//! what its device plugin registers (`nvidia.com/gpu`, `nvidia.com/gpu.shared`
//! under `renameByDefault`, `nvidia.com/mig-<profile>` under the mixed MIG
//! strategy, nothing without the plugin), and `NodeResourcesFit` rejects a
//! node whose allocatable amount is smaller than the request with
//! `Insufficient <resource>` (`kubernetes/kubernetes:pkg/scheduler/framework/
//! plugins/noderesources/fit.go` `fitsRequest`). Extended resources of one
//! pod must all come from one node. When no node of any pool could ever hold
//! the pod, it stays Pending forever.
//!
//! The filters and the FailedScheduling text are `crate::sched`'s, the same
//! code the simulator schedules with; this file also holds what PL501, PL504
//! and PL505 share about messages (spans, subjects, pod counts).

use super::{long, long_str};
use super::{pod_gpu_requests, words, Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};
use crate::i18n::Text;
use crate::manifest::model::{Workload, WorkloadKind};
use crate::manifest::scenario::{MigStrategy, NodePool, Scenario, Sharing, Taint};
use crate::sched;
pub(super) use crate::sched::{blocking_taints, fits, nodes, per_node, pods_per_node, selects};
use crate::span::Span;
use crate::text;

pub static RULE: Rule = Rule {
    id: "PL502",
    name: "gpu-unschedulable",
    severity: Severity::Error,
    scenario_aware: true,
    summary: words!(
        "no node of the cluster can ever satisfy the pod's GPU request",
        "叢集裡沒有任何節點能滿足這個 Pod 的 GPU 需求"
    ),
    what: long!(
        "For each pod that asks for GPUs (`nvidia.com/gpu`, `nvidia.com/gpu.shared`, `nvidia.com/mig-<profile>`…), checks whether one node of some node pool of the Scenario advertises every requested resource in at least the requested count. It fires when none does: the pools have no GPU, the device plugin is off (`devicePlugin: false`), time-slicing with `renameByDefault: true` renamed the resource to `nvidia.com/gpu.shared`, a `nvidia.com/mig-*` resource is asked but no pool uses the mixed MIG strategy with that profile, `nvidia.com/gpu` is asked while every GPU pool uses the mixed strategy, or each node has fewer GPUs than one pod asks for (GPUs of one pod cannot come from two nodes). The message gives the FailedScheduling event the pod would get on Kubernetes v1.35. It runs only when a Scenario states the cluster (`cluster.nodePools`): podlab's default pool and a cluster inferred from the manifests' cloud hints are assumptions, not the user's cluster.",
        "對每個要求 GPU 的 Pod（`nvidia.com/gpu`、`nvidia.com/gpu.shared`、`nvidia.com/mig-<profile>`…），檢查 Scenario 的節點池中是否有一個節點宣告了所有要求的資源，而且數量足夠。沒有任何節點符合時就會觸發：節點池沒有 GPU、device plugin 沒開（`devicePlugin: false`）、time-slicing 的 `renameByDefault: true` 把資源改名成 `nvidia.com/gpu.shared`、要求 `nvidia.com/mig-*` 但沒有節點池用 mixed MIG 策略切出這個 profile、所有 GPU 節點池都用 mixed 策略卻要求 `nvidia.com/gpu`，或每個節點的 GPU 比一個 Pod 要求的還少（同一個 Pod 的 GPU 不能來自兩個節點）。訊息會附上 Kubernetes v1.35 下這個 Pod 會收到的 FailedScheduling 事件。只有 Scenario 寫明叢集（`cluster.nodePools`）時才會檢查：podlab 的預設節點池，以及從 manifest 的雲端線索推測出的叢集，都只是假設，不是使用者的叢集。"
    ),
    why: long!(
        "The pod is accepted by the API server and then waits in Pending forever: no error at `kubectl apply`, no crash, no log, only a FailedScheduling event. A training Job never starts and a model server never comes up, and the reason (a renamed resource, a missing device plugin, a MIG strategy) is in the cluster's configuration, not in the manifest you are staring at.",
        "API server 會接受這個 Pod，然後它就永遠停在 Pending：`kubectl apply` 不會報錯、不會 crash、沒有日誌，只有一則 FailedScheduling 事件。訓練 Job 永遠不會開始、模型伺服器永遠起不來，而原因（資源被改名、沒有 device plugin、MIG 策略）藏在叢集設定裡，不在你正盯著看的 manifest 裡。"
    ),
    failing: long_str!("apiVersion: batch/v1\nkind: Job\nmetadata: { name: finetune }\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n        - name: train\n          image: nvcr.io/nvidia/pytorch:24.05-py3\n          resources:\n            limits: { nvidia.com/gpu: 4 }\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: two-gpu-nodes }\nspec:\n  cluster:\n    nodePools:\n      - name: gpu\n        count: 2\n        gpu: { model: L4, count: 2 }\n"),
    fixed: long_str!("apiVersion: batch/v1\nkind: Job\nmetadata: { name: finetune }\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n        - name: train\n          image: nvcr.io/nvidia/pytorch:24.05-py3\n          resources:\n            limits: { nvidia.com/gpu: 2 }\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: two-gpu-nodes }\nspec:\n  cluster:\n    nodePools:\n      - name: gpu\n        count: 2\n        gpu: { model: L4, count: 2 }\n"),
    fix: long!(
        "Ask for what the nodes really advertise (`kubectl describe node`, Allocatable): no more GPUs per pod than one node has, `nvidia.com/gpu.shared` when shared GPUs are renamed, the exact `nvidia.com/mig-<profile>` of a mixed MIG layout, or `nvidia.com/gpu` under the single strategy. If the manifest is right and the Scenario does not match your cluster, change the node pool instead (`gpu.count`, `devicePlugin`, `sharing`).",
        "改成節點真正宣告的資源（`kubectl describe node` 的 Allocatable）：每個 Pod 的 GPU 數不超過一個節點的數量、共享 GPU 被改名時要求 `nvidia.com/gpu.shared`、mixed MIG 配置下要求確切的 `nvidia.com/mig-<profile>`、single 策略下要求 `nvidia.com/gpu`。如果 manifest 沒錯、是 Scenario 跟你的叢集不符，就改節點池（`gpu.count`、`devicePlugin`、`sharing`）。"
    ),
    check: Some(check),
};

// ---- what the GPU rules share --------------------------------------------------

/// A taint as `kubectl describe node` prints it: `nvidia.com/gpu=present:NoSchedule`.
pub(super) fn taint_text(taint: &Taint) -> String {
    if taint.value.is_empty() {
        format!("{}:{}", taint.key, taint.effect)
    } else {
        format!("{}={}:{}", taint.key, taint.value, taint.effect)
    }
}

/// The FailedScheduling message the pods of `workload` get in the
/// Scenario's cluster when it runs `pods` of them (1: a pod no node takes;
/// more: the first pod beyond what the nodes hold), written by the same
/// scheduling cycle the simulator runs ([`sched::first_failure`]).
pub(super) fn scheduling_message(scenario: &Scenario, workload: &Workload, pods: i64) -> String {
    let pods = usize::try_from(pods.clamp(1, 10_000)).unwrap_or(1);
    sched::first_failure(scenario, workload, pods)
        .unwrap_or_else(|| sched::failed_scheduling_message(sched::all_nodes(scenario), &[]))
}

/// Where to point at a pod's request for `resource`: its key in the first
/// container's limits (else requests), else the workload's kind.
pub(super) fn resource_span(workload: &Workload, resource: &str) -> Span {
    let containers = || {
        workload
            .pod
            .containers
            .iter()
            .chain(&workload.pod.init_containers)
    };
    containers()
        .find_map(|container| container.resources.limit(resource))
        .or_else(|| containers().find_map(|container| container.resources.request(resource)))
        .map_or(workload.kind_span, |amount| amount.key_span)
}

/// `Deployment "vllm"` and `Deployment「vllm」`.
pub(super) fn subject(workload: &Workload) -> (String, String) {
    let kind = workload.kind.as_str();
    let name = &workload.name;
    (format!("{kind} \"{name}\""), format!("{kind}「{name}」"))
}

/// `4 nvidia.com/gpu` (and `1 nvidia.com/gpu and 1 example.com/x`).
pub(super) fn requests_text(requests: &[(String, i64)]) -> (String, String) {
    let en: Vec<String> = requests
        .iter()
        .map(|(resource, count)| format!("{count} {resource}"))
        .collect();
    let zh: Vec<String> = requests
        .iter()
        .map(|(resource, count)| format!("{count} 個 {resource}"))
        .collect();
    (en.join(" and "), zh.join(" 和 "))
}

/// How many pods of `workload` the Scenario's nodes hold at once (over the
/// pools that take the pod: its resources, node selector and tolerations),
/// and how many of its first GPU resource those pools have in all.
pub(super) fn capacity(
    scenario: &Scenario,
    workload: &Workload,
    requests: &[(String, i64)],
) -> (i64, i64) {
    let resource = requests.first().map_or("nvidia.com/gpu", |(name, _)| name);
    let tolerations = scenario.tolerations(&workload.pod);
    scenario
        .node_pools
        .iter()
        .filter(|pool| {
            fits(pool, requests)
                && selects(pool, &workload.pod)
                && blocking_taints(pool, &tolerations).is_empty()
        })
        .fold((0i64, 0i64), |(fit, total), pool| {
            let count = i64::try_from(nodes(pool)).unwrap_or(i64::MAX);
            (
                fit.saturating_add(count.saturating_mul(pods_per_node(pool, requests))),
                total.saturating_add(count.saturating_mul(per_node(pool, resource))),
            )
        })
}

/// How many pods of a workload run at once: `replicas`, or a Job's
/// `parallelism` (capped by `completions` when written), with the span of
/// the value that sets it.
pub(super) fn pods_at_once(workload: &Workload) -> (i64, Option<Span>) {
    match workload.kind {
        WorkloadKind::Deployment | WorkloadKind::ReplicaSet | WorkloadKind::StatefulSet => workload
            .replicas
            .as_ref()
            .map_or((1, None), |replicas| (replicas.value.max(0), replicas.span)),
        WorkloadKind::Job | WorkloadKind::CronJob => match &workload.job {
            Some(job) => {
                let mut count = job.parallelism.value.max(0);
                if job.completions.span.is_some() {
                    count = count.min(job.completions.value.max(0));
                }
                (count, job.parallelism.span)
            }
            None => (1, None),
        },
        WorkloadKind::Pod | WorkloadKind::DaemonSet => (1, None),
    }
}

// ---- the rule ------------------------------------------------------------------

/// Why no node of a pool has enough of a resource, for the help text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cause {
    NoNodes,
    NoGpu,
    NoPlugin,
    Renamed,
    NotRenamed,
    MixedMig,
    SingleMig,
    NotInLayout,
    NoMig,
    EmptyLayout,
    TooFew,
    Other,
}

/// The resources a pool advertises, for messages: `nvidia.com/mig-1g.10gb, …`
/// or `nothing`.
fn advertised(pool: &NodePool) -> (String, String) {
    let resources = pool.extended_resources();
    if resources.is_empty() {
        return ("no GPU resource".into(), "沒有任何 GPU 資源".into());
    }
    let en: Vec<String> = resources
        .iter()
        .map(|(name, count)| format!("{count} {name}"))
        .collect();
    let zh: Vec<String> = resources
        .iter()
        .map(|(name, count)| format!("{count} 個 {name}"))
        .collect();
    (en.join(", "), zh.join("、"))
}

/// Why one node of `pool` does not have `wanted` × `resource`.
fn explain(pool: &NodePool, resource: &str, wanted: i64) -> (Text, Cause) {
    let name = &pool.name;
    if nodes(pool) == 0 {
        let count = pool.count;
        return (
            text!(
                "pool \"{name}\" has no nodes (count {count})",
                "節點池「{name}」沒有節點（count {count}）"
            ),
            Cause::NoNodes,
        );
    }
    let have = per_node(pool, resource);
    if have > 0 {
        let count = nodes(pool);
        let total = i64::try_from(count)
            .unwrap_or(i64::MAX)
            .saturating_mul(have);
        let message = if count > 1 && total >= wanted {
            text!(
                "pool \"{name}\" has {have} {resource} per node ({count} nodes, {total} in all, but the GPUs of one pod must be on one node)",
                "節點池「{name}」每個節點只有 {have} 個 {resource}（{count} 個節點共 {total} 個，但同一個 Pod 的 GPU 必須在同一個節點上）"
            )
        } else {
            text!(
                "pool \"{name}\" has {have} {resource} per node",
                "節點池「{name}」每個節點只有 {have} 個 {resource}"
            )
        };
        return (message, Cause::TooFew);
    }
    let Some(gpu) = pool.gpu.as_ref().filter(|gpu| gpu.count > 0) else {
        return (
            text!("pool \"{name}\" has no GPU", "節點池「{name}」沒有 GPU"),
            Cause::NoGpu,
        );
    };
    let model = &gpu.model;
    if !pool.device_plugin {
        return (
            text!(
                "pool \"{name}\" runs no device plugin (devicePlugin: false), so its {model} GPUs are not advertised at all",
                "節點池「{name}」沒有執行 device plugin（devicePlugin: false），它的 {model} GPU 完全不會被宣告"
            ),
            Cause::NoPlugin,
        );
    }
    let (list, list_zh) = advertised(pool);
    let is_mig = resource.starts_with("nvidia.com/mig-");
    match &pool.sharing {
        Sharing::TimeSlicing { rename: true, .. } | Sharing::Mps { rename: true, .. }
            if resource == "nvidia.com/gpu" =>
        {
            (
                text!(
                    "pool \"{name}\" shares its GPUs with renameByDefault: true, so they are advertised as nvidia.com/gpu.shared, not nvidia.com/gpu",
                    "節點池「{name}」以 renameByDefault: true 共享 GPU，宣告的資源名稱是 nvidia.com/gpu.shared，不是 nvidia.com/gpu"
                ),
                Cause::Renamed,
            )
        }
        Sharing::None | Sharing::TimeSlicing { rename: false, .. } | Sharing::Mps { rename: false, .. }
            if resource == "nvidia.com/gpu.shared" =>
        {
            (
                text!(
                    "pool \"{name}\" advertises {list} (only renameByDefault: true renames shared GPUs to nvidia.com/gpu.shared)",
                    "節點池「{name}」宣告的是 {list_zh}（只有 renameByDefault: true 才會把共享 GPU 改名成 nvidia.com/gpu.shared）"
                ),
                Cause::NotRenamed,
            )
        }
        Sharing::Mig { layout, .. } if layout.is_empty() => (
            text!(
                "pool \"{name}\" has sharing.mode mig with an empty layout, so it advertises no GPU resource",
                "節點池「{name}」設定了 sharing.mode mig 但 layout 是空的，不會宣告任何 GPU 資源"
            ),
            Cause::EmptyLayout,
        ),
        Sharing::Mig {
            strategy: MigStrategy::Mixed,
            ..
        } if resource == "nvidia.com/gpu" => (
            text!(
                "pool \"{name}\" uses MIG with the mixed strategy: it advertises {list} instead of nvidia.com/gpu",
                "節點池「{name}」使用 mixed 策略的 MIG：它宣告的是 {list_zh}，而不是 nvidia.com/gpu"
            ),
            Cause::MixedMig,
        ),
        Sharing::Mig {
            strategy: MigStrategy::Single,
            ..
        } if is_mig => (
            text!(
                "pool \"{name}\" uses MIG with the single strategy: its MIG devices are advertised as {list}, not as nvidia.com/mig-*",
                "節點池「{name}」使用 single 策略的 MIG：它的 MIG 裝置宣告為 {list_zh}，而不是 nvidia.com/mig-*"
            ),
            Cause::SingleMig,
        ),
        Sharing::Mig {
            strategy: MigStrategy::Mixed,
            ..
        } if is_mig => (
            text!(
                "pool \"{name}\"'s MIG layout offers {list}, not {resource}",
                "節點池「{name}」的 MIG layout 提供的是 {list_zh}，沒有 {resource}"
            ),
            Cause::NotInLayout,
        ),
        _ if is_mig => {
            let no_mig = gpu.catalog.is_some_and(|catalog| !catalog.supports_mig());
            if no_mig {
                (
                    text!(
                        "pool \"{name}\" has {model} GPUs, which have no MIG",
                        "節點池「{name}」的 GPU 是 {model}，不支援 MIG"
                    ),
                    Cause::NoMig,
                )
            } else {
                (
                    text!(
                        "pool \"{name}\" does not partition its {model} GPUs with MIG (it advertises {list})",
                        "節點池「{name}」沒有用 MIG 切分它的 {model} GPU（它宣告的是 {list_zh}）"
                    ),
                    Cause::NoMig,
                )
            }
        }
        _ => (
            text!(
                "pool \"{name}\" advertises {list}",
                "節點池「{name}」宣告的是 {list_zh}"
            ),
            Cause::Other,
        ),
    }
}

/// What to change, for each kind of cause.
fn advice(cause: Cause, largest: i64) -> Text {
    match cause {
        Cause::NoNodes => text!(
            "give the node pool at least one node (`count`)",
            "讓節點池至少有一個節點（`count`）"
        ),
        Cause::NoGpu => text!(
            "if your cluster has GPU nodes, describe them in the Scenario (`gpu: {{ model: L4, count: 1 }}` in a node pool)",
            "如果你的叢集有 GPU 節點，請在 Scenario 的節點池寫上（`gpu: {{ model: L4, count: 1 }}`）"
        ),
        Cause::NoPlugin => text!(
            "install the NVIDIA device plugin (or the GPU Operator) on the GPU nodes so that they register nvidia.com/gpu; in the Scenario that is `devicePlugin: true`",
            "在 GPU 節點上安裝 NVIDIA device plugin（或 GPU Operator），讓節點註冊 nvidia.com/gpu；在 Scenario 裡就是 `devicePlugin: true`"
        ),
        Cause::Renamed => text!(
            "ask for `nvidia.com/gpu.shared`, or set `renameByDefault: false` in the sharing config",
            "改成要求 `nvidia.com/gpu.shared`，或在共享設定中改成 `renameByDefault: false`"
        ),
        Cause::NotRenamed => text!(
            "ask for `nvidia.com/gpu`: shared GPUs keep that name unless `renameByDefault: true`",
            "改成要求 `nvidia.com/gpu`：除非設定 `renameByDefault: true`，共享 GPU 仍沿用這個名稱"
        ),
        Cause::MixedMig => text!(
            "ask for one of the `nvidia.com/mig-<profile>` resources the nodes advertise, or switch the pool to the single MIG strategy (every MIG device is then a `nvidia.com/gpu`)",
            "改成要求節點宣告的某個 `nvidia.com/mig-<profile>` 資源，或把節點池改成 single MIG 策略（每個 MIG 裝置都算一個 `nvidia.com/gpu`）"
        ),
        Cause::SingleMig => text!(
            "ask for `nvidia.com/gpu` (under the single strategy every MIG device is one), or switch the pool to the mixed strategy",
            "改成要求 `nvidia.com/gpu`（single 策略下每個 MIG 裝置就是一個），或把節點池改成 mixed 策略"
        ),
        Cause::NotInLayout => text!(
            "ask for a profile of the pool's MIG layout, or add the profile to its `layout`",
            "改成要求節點池 MIG layout 裡有的 profile，或把這個 profile 加進 `layout`"
        ),
        Cause::NoMig => text!(
            "ask for `nvidia.com/gpu`, or partition a MIG-capable GPU (A30, A100, H100, H200, B200) with `sharing: {{ mode: mig, strategy: mixed, layout: [...] }}`",
            "改成要求 `nvidia.com/gpu`，或在支援 MIG 的 GPU（A30、A100、H100、H200、B200）上設定 `sharing: {{ mode: mig, strategy: mixed, layout: [...] }}`"
        ),
        Cause::EmptyLayout => text!(
            "write the pool's MIG `layout` (the profiles on each GPU)",
            "寫上節點池的 MIG `layout`（每張 GPU 切成哪些 profile）"
        ),
        Cause::TooFew => text!(
            "ask for at most {largest} per pod (a smaller model, quantization, or fewer tensor-parallel ranks), or use nodes with more GPUs (the pool's `gpu.count`)",
            "每個 Pod 最多要求 {largest} 個（換小一點的模型、量化，或減少 tensor parallel 的數量），或改用 GPU 更多的節點（節點池的 `gpu.count`）"
        ),
        Cause::Other => text!(
            "ask for a resource the nodes advertise",
            "改成要求節點有宣告的資源"
        ),
    }
}

fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    // Issue 14: the default pool and an inferred cluster are assumptions,
    // and a manifest is not wrong for a cluster nobody described.
    if !context.cluster_stated() {
        return;
    }
    let scenario = context.scenario;
    for workload in context.workloads {
        let requests = pod_gpu_requests(workload);
        if requests.is_empty()
            || scenario.node_pools.iter().any(|pool| fits(pool, &requests))
            || super::pl503_mig_unsupported::flags_unknown_profile(workload, scenario)
        {
            continue;
        }
        let missing: Vec<&(String, i64)> = requests
            .iter()
            .filter(|(resource, wanted)| {
                !scenario
                    .node_pools
                    .iter()
                    .any(|pool| nodes(pool) > 0 && per_node(pool, resource) >= *wanted)
            })
            .collect();
        let (mut reasons_en, mut reasons_zh) = (Vec::new(), Vec::new());
        let mut advice_en: Vec<String> = Vec::new();
        let mut advice_zh: Vec<String> = Vec::new();
        let mut causes: Vec<Cause> = Vec::new();
        for (resource, wanted) in &missing {
            let largest = scenario
                .node_pools
                .iter()
                .filter(|pool| nodes(pool) > 0)
                .map(|pool| per_node(pool, resource))
                .max()
                .unwrap_or(0);
            // Pools without GPUs (or nodes) matter only when no pool has any.
            let gpu_pools = scenario
                .node_pools
                .iter()
                .any(|pool| nodes(pool) > 0 && pool.gpu.as_ref().is_some_and(|gpu| gpu.count > 0));
            for pool in &scenario.node_pools {
                let (reason, cause) = explain(pool, resource, *wanted);
                if gpu_pools && matches!(cause, Cause::NoGpu | Cause::NoNodes) {
                    continue;
                }
                reasons_en.push(reason.en);
                reasons_zh.push(reason.zh_tw);
                if !causes.contains(&cause) {
                    causes.push(cause);
                    let advice = advice(cause, largest);
                    advice_en.push(advice.en);
                    advice_zh.push(advice.zh_tw);
                }
            }
        }
        if missing.is_empty() {
            let (asked, asked_zh) = requests_text(&requests);
            reasons_en.push(format!("no node pool has {asked} together on one node"));
            reasons_zh.push(format!("沒有任何節點池能在同一個節點上同時提供 {asked_zh}"));
            advice_en.push("ask for resources that one node has together".into());
            advice_zh.push("改成要求同一個節點能同時提供的資源".into());
        }
        if scenario.node_pools.is_empty() {
            reasons_en.push("the Scenario has no node pools".into());
            reasons_zh.push("Scenario 沒有任何節點池".into());
            advice_en
                .push("describe the cluster's nodes in the Scenario's `cluster.nodePools`".into());
            advice_zh.push("在 Scenario 的 `cluster.nodePools` 描述叢集的節點".into());
        }
        let (who, who_zh) = subject(workload);
        let (asked, asked_zh) = requests_text(&requests);
        let reasons = reasons_en.join("; ");
        let reasons_zh = reasons_zh.join("；");
        let event = scheduling_message(scenario, workload, 1);
        let resource = missing
            .first()
            .copied()
            .or(requests.first())
            .map_or("nvidia.com/gpu", |(resource, _)| resource.as_str());
        let span = resource_span(workload, resource);
        let advice = advice_en.join("; ");
        let advice_zh = advice_zh.join("；");
        out.push(
            RULE.diagnostic(
                span,
                text!(
                    "{who} asks for {asked} per pod, which no node can ever provide: {reasons}. The pod stays Pending with FailedScheduling \"{event}\"",
                    "{who_zh}每個 Pod 要求 {asked_zh}，但沒有任何節點能提供：{reasons_zh}。Pod 會一直停在 Pending，事件 FailedScheduling：「{event}」"
                ),
            )
            .with_help(text!(
                "{advice}. On a real cluster, `kubectl describe node` lists what each node advertises under Allocatable, and `kubectl describe pod` shows the FailedScheduling event.",
                "{advice_zh}。在真實叢集上，`kubectl describe node` 的 Allocatable 會列出每個節點宣告的資源，`kubectl describe pod` 會看到 FailedScheduling 事件。"
            )),
        );
    }
}
