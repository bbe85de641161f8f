//! PL507 rollout-surge-no-gpu.
//!
//! The GPU trap of a rolling update (`shared/reference/traffic-autoscaling.md`
//! §6.5, docs/rollouts.md): when the replicas take every GPU the cluster
//! has for them, the surge pod (maxSurge rounded up, `ResolveFenceposts`)
//! stays Pending; with maxUnavailable rounded down to 0, `maxScaledDown` is
//! 0 and no old pod is ever removed, so the rollout hangs until its progress
//! deadline. With maxUnavailable ≥ 1 an old pod goes first and frees its
//! GPU, so the rollout completes: not reported. Cluster-dependent: only with
//! a stated cluster.

use super::pl502_gpu_unschedulable::{capacity, subject};
use super::{edit, long, long_str, pod_gpu_requests, words, Context, Rule};
use crate::diagnostic::{Diagnostic, Fix, Severity};
use crate::manifest::model::WorkloadKind;
use crate::text;

pub static RULE: Rule = Rule {
    id: "PL507",
    name: "rollout-surge-no-gpu",
    severity: Severity::Warning,
    scenario_aware: true,
    summary: words!(
        "a rolling update's surge pod needs a GPU but the replicas already hold every GPU: the rollout hangs",
        "滾動更新多開的 Pod 需要 GPU，但現有副本已占滿所有 GPU：更新會卡住"
    ),
    what: long!(
        "For a Deployment with the `RollingUpdate` strategy whose pods ask for GPUs, resolves `maxSurge` (rounded up) and `maxUnavailable` (rounded down; 1 when both are 0) against `replicas` as the Deployment controller does (`ResolveFenceposts`), and counts how many of its pods the Scenario's node pools hold (as PL505). It warns when the pools hold exactly `replicas` pods, the surge is at least 1 and the unavailable count is 0: the surge pod can never be scheduled and no old pod may go first. More replicas than fit is PL505. It runs only when a Scenario states the cluster (`cluster.nodePools`).",
        "對使用 `RollingUpdate` 策略、Pod 要求 GPU 的 Deployment，照 Deployment controller 的算法（`ResolveFenceposts`）以 `replicas` 換算 `maxSurge`（無條件進位）和 `maxUnavailable`（無條件捨去；兩者都是 0 時取 1），並計算 Scenario 的節點池放得下幾個它的 Pod（同 PL505）。節點池剛好只放得下 `replicas` 個 Pod、surge 至少 1、unavailable 為 0 時發出警告：多開的 Pod 永遠排不上，舊 Pod 又一個都不能先停。副本數超過容量由 PL505 處理。只有 Scenario 寫明叢集（`cluster.nodePools`）時才會檢查。"
    ),
    why: long!(
        "With the defaults (25 % each) and 1 to 3 replicas, the surge is 1 and the unavailable count 0. A rollout creates one new pod first; it needs a GPU, every GPU is held by an old pod, so it stays Pending with `Insufficient nvidia.com/gpu`. The controller removes old pods only as new ones become available, so nothing moves: after `progressDeadlineSeconds` (600 s) the Deployment is `ProgressDeadlineExceeded`, the old version keeps serving, and nothing rolls back.",
        "用預設值（各 25 %）且副本數 1 到 3 時，surge 是 1、unavailable 是 0。更新會先開一個新 Pod；它需要 GPU，但每張 GPU 都被舊 Pod 占著，於是以 `Insufficient nvidia.com/gpu` 停在 Pending。Controller 只在新 Pod 可用後才移除舊 Pod，所以整個更新卡死：過了 `progressDeadlineSeconds`（600 秒）Deployment 變成 `ProgressDeadlineExceeded`，舊版本繼續服務，也不會自動回滾。"
    ),
    failing: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: vllm }\nspec:\n  replicas: 2\n  strategy:\n    type: RollingUpdate\n    rollingUpdate: { maxSurge: 1, maxUnavailable: 0 }\n  selector: { matchLabels: { app: vllm } }\n  template:\n    metadata: { labels: { app: vllm } }\n    spec:\n      containers:\n        - name: server\n          image: vllm/vllm-openai:v0.6.3\n          resources:\n            limits: { nvidia.com/gpu: 1 }\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: two-l4 }\nspec:\n  cluster:\n    nodePools:\n      - name: gpu\n        count: 2\n        gpu: { model: L4, count: 1 }\n"),
    fixed: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: vllm }\nspec:\n  replicas: 2\n  strategy:\n    type: RollingUpdate\n    rollingUpdate: { maxSurge: 0, maxUnavailable: 1 }\n  selector: { matchLabels: { app: vllm } }\n  template:\n    metadata: { labels: { app: vllm } }\n    spec:\n      containers:\n        - name: server\n          image: vllm/vllm-openai:v0.6.3\n          resources:\n            limits: { nvidia.com/gpu: 1 }\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: two-l4 }\nspec:\n  cluster:\n    nodePools:\n      - name: gpu\n        count: 2\n        gpu: { model: L4, count: 1 }\n"),
    fix: long!(
        "Replace old pods before adding new ones: `strategy: { type: RollingUpdate, rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } }` (one replica of capacity is missing during each step), or `strategy: { type: Recreate }` (every old pod stops first: downtime), or keep a spare GPU node for the surge. The fix sets `maxSurge: 0` and `maxUnavailable: 1` when both are written.",
        "先停舊 Pod 再開新 Pod：`strategy: { type: RollingUpdate, rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } }`（每一步都少一個副本的容量），或 `strategy: { type: Recreate }`（所有舊 Pod 先停：會停機），或保留一個空的 GPU 節點給 surge 用。兩個欄位都有寫時，修正會把它們改成 `maxSurge: 0`、`maxUnavailable: 1`。"
    ),
    check: Some(check),
};

fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    if !context.cluster_stated() {
        return;
    }
    for workload in context.workloads {
        let (Some(spec), Some(replicas), WorkloadKind::Deployment) =
            (&workload.deployment, &workload.replicas, workload.kind)
        else {
            continue;
        };
        let requests = pod_gpu_requests(workload);
        let wanted = replicas.value;
        if spec.strategy.value != "RollingUpdate" || requests.is_empty() || wanted < 1 {
            continue;
        }
        let surge = spec.max_surge.value.scaled(wanted, true).max(0);
        let unavailable = spec.max_unavailable.value.scaled(wanted, false).max(0);
        let (fit, total) = capacity(context.scenario, workload, &requests);
        if surge == 0 || unavailable > 0 || fit != wanted {
            continue;
        }
        let (who, who_zh) = subject(workload);
        let resource = requests.first().map_or("nvidia.com/gpu", |(name, _)| name);
        let (surge_text, unavailable_text) = (
            spec.max_surge.value.text(),
            spec.max_unavailable.value.text(),
        );
        let deadline = spec.progress_deadline_seconds.value;
        let (pods, stays) = if surge == 1 {
            ("pod", "stays")
        } else {
            ("pods", "stay")
        };
        let span = spec
            .max_surge
            .span
            .or(spec.strategy.span)
            .or(replicas.span)
            .unwrap_or(workload.kind_span);
        let mut diagnostic = RULE
            .diagnostic(
                span,
                text!(
                    "{who}: a rolling update first adds {surge} new {pods} (maxSurge {surge_text} of {wanted}, rounded up) and removes no old one (maxUnavailable {unavailable_text}, rounded down to 0), but the {wanted} replicas already hold all {total} {resource} the cluster has for them: the new {pods} {stays} Pending and the rollout hangs until ProgressDeadlineExceeded ({deadline}s)",
                    "{who_zh}：滾動更新會先多開 {surge} 個新 Pod（maxSurge {surge_text}，以 {wanted} 計算後進位），且不先停任何舊 Pod（maxUnavailable {unavailable_text}，捨去後為 0），但 {wanted} 個副本已經占滿叢集能給它的 {total} 個 {resource}：新 Pod 停在 Pending，更新卡住直到 ProgressDeadlineExceeded（{deadline} 秒）"
                ),
            )
            .with_help(text!(
                "set `maxSurge: 0, maxUnavailable: 1` (an old pod stops first and frees its GPU), or `strategy: {{ type: Recreate }}` (downtime), or keep a spare GPU for the surge",
                "改成 `maxSurge: 0, maxUnavailable: 1`（先停一個舊 Pod 釋出 GPU），或 `strategy: {{ type: Recreate }}`（會停機），或保留一張空的 GPU 給 surge"
            ));
        if let (Some(surge_span), Some(unavailable_span)) =
            (spec.max_surge.span, spec.max_unavailable.span)
        {
            diagnostic = diagnostic.with_fix(Fix {
                description: text!(
                    "set maxSurge: 0 and maxUnavailable: 1",
                    "改成 maxSurge: 0、maxUnavailable: 1"
                ),
                edits: vec![
                    edit::replace(surge_span, "0"),
                    edit::replace(unavailable_span, "1"),
                ],
            });
        }
        out.push(diagnostic);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn one_replica_on_one_gpu_hangs_and_four_with_unavailable_one_do_not() {
        let count = |text: &str| {
            crate::lint::lint(text)
                .diagnostics
                .iter()
                .filter(|d| d.rule == "PL507")
                .count()
        };
        let one = super::RULE
            .failing
            .replace("replicas: 2", "replicas: 1")
            .replace("count: 2\n", "count: 1\n")
            .replace(
                "    rollingUpdate: { maxSurge: 1, maxUnavailable: 0 }\n",
                "",
            );
        assert_eq!(count(&one), 1, "{one}");
        // 4 on 4 GPUs with the defaults: surge 1, unavailable 1, so an old
        // pod goes first and the rollout completes.
        let four = one
            .replace("replicas: 1", "replicas: 4")
            .replace("count: 1\n        gpu", "count: 4\n        gpu");
        assert_eq!(count(&four), 0, "{four}");
    }
}
