//! PL501 gpu-taint-not-tolerated.
//!
//! Models the scheduler's `TaintToleration` filter, which runs before
//! `NodeResourcesFit` (`shared/reference/scheduler-controllers.md` §1.2, §2;
//! `kubernetes/kubernetes:pkg/scheduler/framework/plugins/tainttoleration/
//! taint_toleration.go` `Filter`): a node with a `NoSchedule` or `NoExecute`
//! taint that none of the pod's tolerations tolerates is rejected with
//! `node(s) had untolerated taint(s)` (v1.35 wording; ≤v1.34 printed the
//! first taint, `{nvidia.com/gpu: present}`), UnschedulableAndUnresolvable,
//! so preemption does not help. `PreferNoSchedule` never blocks.
//!
//! GPU node pools are commonly tainted `nvidia.com/gpu=present:NoSchedule`
//! (`shared/reference/gpu-sharing.md` §8). The `ExtendedResourceToleration`
//! admission plugin adds `{key: <resource>, operator: Exists, effect:
//! NoSchedule}` to pods that request the resource, but it is off by default
//! in kube-apiserver (`DefaultOffAdmissionPlugins`); GKE enables it, AKS and
//! EKS do not (gpu-sharing.md §8; Azure/AKS#1449). podlab models a cluster
//! without it unless the Scenario turns it on (an inferred GKE cluster or
//! `cluster.admissionPlugins`); then `Scenario::tolerations` adds it. The frequent mistake of gpu-sharing.md §8,
//! `operator: Equal` with a value other than the taint's, gets its own message
//! (`k8s.io/api/core/v1.(*Toleration).ToleratesTaint`: Equal needs the same value).

use super::pl502_gpu_unschedulable::{
    blocking_taints, fits, resource_span, scheduling_message, subject, taint_text,
};
use super::{edit, pod_gpu_requests, words, Context, Rule};
use super::{long, long_str};
use crate::diagnostic::{Diagnostic, Fix, Severity, TextEdit};
use crate::manifest::model::{Toleration, Workload};
use crate::manifest::scenario::{NodePool, Taint};
use crate::span::Span;
use crate::text;

pub static RULE: Rule = Rule {
    id: "PL501",
    name: "gpu-taint-not-tolerated",
    severity: Severity::Error,
    scenario_aware: true,
    summary: words!(
        "every GPU node has a taint the GPU pod does not tolerate",
        "每個 GPU 節點都有這個 GPU Pod 不容忍的 taint"
    ),
    what: long!(
        "For each pod that asks for GPUs, takes the Scenario's node pools whose nodes have enough of every requested GPU resource, and checks their `NoSchedule` and `NoExecute` taints against the pod's tolerations (`PreferNoSchedule` does not block). It fires when every such pool has a taint none of the tolerations tolerates. A toleration with the taint's key but `operator: Equal` and another value (`\"true\"` against `present`), or another effect, is named in the message. It runs only when a Scenario states the cluster (`cluster.nodePools`): podlab's default pool and a cluster inferred from the manifests' cloud hints are assumptions, not the user's cluster.",
        "對每個要求 GPU 的 Pod，找出 Scenario 中節點有足夠 GPU 資源的節點池，再用 Pod 的 tolerations 比對這些節點池的 `NoSchedule` 與 `NoExecute` taint（`PreferNoSchedule` 不會擋）。如果每個這樣的節點池都有一個沒被任何 toleration 容忍的 taint，就會觸發。若 toleration 的 key 對了，但用 `operator: Equal` 配上不同的值（`\"true\"` 對上 `present`）或 effect 不同，訊息會特別指出。只有 Scenario 寫明叢集（`cluster.nodePools`）時才會檢查：podlab 的預設節點池，以及從 manifest 的雲端線索推測出的叢集，都只是假設，不是使用者的叢集。"
    ),
    why: long!(
        "Managed clusters taint GPU nodes so that ordinary pods stay off the expensive machines. On GKE the ExtendedResourceToleration admission plugin adds the toleration to GPU pods by itself, so a manifest that works there stays Pending on AKS, EKS or a self-built cluster, where the plugin is off: no error, just FailedScheduling while the GPU node idles.",
        "託管叢集會替 GPU 節點加上 taint，讓一般 Pod 不會佔用昂貴的機器。GKE 的 ExtendedResourceToleration admission plugin 會自動替 GPU Pod 加上 toleration，所以在 GKE 上正常的 manifest，換到 AKS、EKS 或自建叢集（這個 plugin 預設關閉）就會停在 Pending：沒有錯誤，只有 FailedScheduling，GPU 節點在旁邊閒置。"
    ),
    failing: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: vllm }\nspec:\n  selector: { matchLabels: { app: vllm } }\n  template:\n    metadata: { labels: { app: vllm } }\n    spec:\n      containers:\n        - name: server\n          image: vllm/vllm-openai:v0.6.3\n          resources:\n            limits: { nvidia.com/gpu: 1 }\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: tainted-gpu-pool }\nspec:\n  cluster:\n    nodePools:\n      - name: gpu\n        gpu: { model: L4, count: 1 }\n        taints: [{ key: nvidia.com/gpu, value: present, effect: NoSchedule }]\n"),
    fixed: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: vllm }\nspec:\n  selector: { matchLabels: { app: vllm } }\n  template:\n    metadata: { labels: { app: vllm } }\n    spec:\n      tolerations:\n        - { key: nvidia.com/gpu, operator: Exists, effect: NoSchedule }\n      containers:\n        - name: server\n          image: vllm/vllm-openai:v0.6.3\n          resources:\n            limits: { nvidia.com/gpu: 1 }\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: tainted-gpu-pool }\nspec:\n  cluster:\n    nodePools:\n      - name: gpu\n        gpu: { model: L4, count: 1 }\n        taints: [{ key: nvidia.com/gpu, value: present, effect: NoSchedule }]\n"),
    fix: long!(
        "Add a toleration for the taint to the pod spec: `{ key: nvidia.com/gpu, operator: Exists, effect: NoSchedule }`. `Exists` matches any value (`present`, `true`), so the same manifest works on every cloud. Check the real taint with `kubectl describe node <gpu-node> | grep Taints`.",
        "在 Pod spec 加上對應這個 taint 的 toleration：`{ key: nvidia.com/gpu, operator: Exists, effect: NoSchedule }`。`Exists` 不管值是什麼（`present`、`true`）都會符合，同一份 manifest 在各家雲端都能用。真實的 taint 可以用 `kubectl describe node <gpu-node> | grep Taints` 確認。"
    ),
    check: Some(check),
};

/// A toleration that was meant for a taint but does not tolerate it.
enum NearMiss<'a> {
    /// Same key, `Equal`, another value.
    Value(&'a Toleration, &'a Taint),
    /// Same key, another effect.
    Effect(&'a Toleration, &'a Taint),
}

fn near_miss<'a>(tolerations: &'a [Toleration], taints: &[&'a Taint]) -> Option<NearMiss<'a>> {
    for taint in taints {
        for toleration in tolerations.iter().filter(|t| t.key == taint.key) {
            let effect_ok = toleration.effect.is_empty() || toleration.effect == taint.effect;
            if !effect_ok {
                return Some(NearMiss::Effect(toleration, taint));
            }
            if matches!(toleration.operator.as_str(), "" | "Equal")
                && toleration.value != taint.value
            {
                return Some(NearMiss::Value(toleration, taint));
            }
        }
    }
    None
}

/// `{ key: nvidia.com/gpu, operator: Exists, effect: NoSchedule }`.
fn toleration_item(taint: &Taint) -> String {
    format!(
        "{{ key: {}, operator: Exists, effect: {} }}",
        edit::yaml_scalar(&taint.key),
        edit::yaml_scalar(&taint.effect)
    )
}

/// Edits adding a toleration for each taint to the pod spec.
fn add_tolerations(text: &str, workload: &Workload, taints: &[&Taint]) -> Option<Vec<TextEdit>> {
    if taints.is_empty() || taints.iter().any(|taint| taint.key.is_empty()) {
        return None;
    }
    let items: Vec<String> = taints.iter().map(|taint| toleration_item(taint)).collect();
    let pod = &workload.pod;
    if let Some(first) = pod.tolerations.first() {
        return items
            .iter()
            .map(|item| edit::insert_item(text, first.span.start, item))
            .collect();
    }
    if let Some(value) = pod.tolerations_value {
        // `tolerations: []` (or `~`): replace the empty list.
        let written = text.get(value.start..value.end)?.trim();
        if written == "[]" || written == "~" || written == "null" {
            return Some(vec![edit::replace(
                value,
                format!("[{}]", items.join(", ")),
            )]);
        }
        return None;
    }
    let at = pod.insertion_point()?;
    let mut lines = vec!["tolerations:".to_string()];
    lines.extend(items.iter().map(|item| format!("  - {item}")));
    edit::insert_entry(text, at, &lines)
        .or_else(|| edit::insert_entry(text, at, &[format!("tolerations: [{}]", items.join(", "))]))
        .map(|edit| vec![edit])
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
        if requests.is_empty() {
            continue;
        }
        let admitted = scenario.tolerations(&workload.pod);
        let tolerations = &*admitted;
        let candidates: Vec<(&NodePool, Vec<&Taint>)> = scenario
            .node_pools
            .iter()
            .filter(|pool| fits(pool, &requests))
            .map(|pool| (pool, blocking_taints(pool, tolerations)))
            .collect();
        // No pool could take it (PL502), or one takes it.
        if candidates.is_empty() || candidates.iter().any(|(_, taints)| taints.is_empty()) {
            continue;
        }
        let (who, who_zh) = subject(workload);
        let event = scheduling_message(scenario, workload, 1);
        let pools: Vec<String> = candidates
            .iter()
            .map(|(pool, taints)| {
                let taints: Vec<String> = taints.iter().map(|taint| taint_text(taint)).collect();
                format!("pool \"{}\": {}", pool.name, taints.join(", "))
            })
            .collect();
        let pools_zh: Vec<String> = candidates
            .iter()
            .map(|(pool, taints)| {
                let taints: Vec<String> = taints.iter().map(|taint| taint_text(taint)).collect();
                format!("節點池「{}」：{}", pool.name, taints.join("、"))
            })
            .collect();
        let pools = pools.join("; ");
        let pools_zh = pools_zh.join("；");
        let all_taints: Vec<&Taint> = candidates
            .iter()
            .flat_map(|(_, taints)| taints.iter().copied())
            .collect();
        let first_resource = requests
            .first()
            .map_or("nvidia.com/gpu", |(resource, _)| resource.as_str());
        let (span, message): (Span, _) = match near_miss(tolerations, &all_taints) {
            Some(NearMiss::Value(toleration, taint)) => {
                let (key, value, written) = (&taint.key, &taint.value, &toleration.value);
                (
                    toleration.span,
                    text!(
                        "{who}: its toleration for `{key}` uses operator Equal with value \"{written}\", but the GPU nodes' taint has value \"{value}\" ({pools}). Equal needs the exact value, so the taint is not tolerated and the pod stays Pending with FailedScheduling \"{event}\"",
                        "{who_zh}：它對 `{key}` 的 toleration 用 operator Equal、值為「{written}」，但 GPU 節點的 taint 值是「{value}」（{pools_zh}）。Equal 必須完全相同，所以這個 taint 沒被容忍，Pod 會一直停在 Pending，事件 FailedScheduling：「{event}」"
                    ),
                )
            }
            Some(NearMiss::Effect(toleration, taint)) => {
                let (key, effect, written) = (&taint.key, &taint.effect, &toleration.effect);
                (
                    toleration.span,
                    text!(
                        "{who}: its toleration for `{key}` has effect {written}, but the GPU nodes' taint has effect {effect} ({pools}), so the taint is not tolerated and the pod stays Pending with FailedScheduling \"{event}\"",
                        "{who_zh}：它對 `{key}` 的 toleration 的 effect 是 {written}，但 GPU 節點的 taint 是 {effect}（{pools_zh}），所以這個 taint 沒被容忍，Pod 會一直停在 Pending，事件 FailedScheduling：「{event}」"
                    ),
                )
            }
            None => (
                resource_span(workload, first_resource),
                text!(
                    "{who}: every node pool with room for its GPUs is tainted and the pod tolerates none of it ({pools}): it stays Pending with FailedScheduling \"{event}\"",
                    "{who_zh}：每個放得下它 GPU 需求的節點池都有 taint，而 Pod 沒有任何對應的 toleration（{pools_zh}）：它會一直停在 Pending，事件 FailedScheduling：「{event}」"
                ),
            ),
        };
        let mut diagnostic = RULE.diagnostic(span, message).with_help(text!(
            "add a toleration with `operator: Exists` (it matches any value of the taint). GKE adds it to GPU pods by itself through the ExtendedResourceToleration admission plugin; AKS and EKS do not, and the plugin is off by default in kube-apiserver, so write it in the manifest. Confirm with `kubectl describe node <gpu-node> | grep Taints` and the FailedScheduling event of `kubectl describe pod`.",
            "加上 `operator: Exists` 的 toleration（taint 的值是什麼都符合）。GKE 會透過 ExtendedResourceToleration admission plugin 自動替 GPU Pod 加上它；AKS 和 EKS 不會，而且 kube-apiserver 預設不啟用這個 plugin，所以請寫在 manifest 裡。可以用 `kubectl describe node <gpu-node> | grep Taints` 和 `kubectl describe pod` 的 FailedScheduling 事件確認。"
        ));
        // Tolerate the taints of the candidate pool that needs the fewest.
        let fewest = candidates
            .iter()
            .min_by_key(|(_, taints)| taints.len())
            .map(|(_, taints)| taints.clone())
            .unwrap_or_default();
        if let Some(edits) = add_tolerations(context.text, workload, &fewest) {
            let keys: Vec<String> = fewest
                .iter()
                .map(|taint| format!("{} ({})", taint.key, taint.effect))
                .collect();
            let keys = keys.join(", ");
            diagnostic = diagnostic.with_fix(Fix {
                description: text!(
                    "add a toleration with operator Exists for {keys}",
                    "加上 operator 為 Exists 的 toleration：{keys}"
                ),
                edits,
            });
        }
        out.push(diagnostic);
    }
}
