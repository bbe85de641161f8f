//! PL102 gpu-fractional.
//!
//! Models the API server's integer check on extended resources, found by
//! `manifest::api` (which the simulator's refusal reads too)
//! (`shared/reference/scheduler-controllers.md` §4): `IsIntegerResourceName`
//! includes every extended resource, so `ValidateResourceQuantityValue`
//! rejects a GPU quantity whose milli-value is not a multiple of 1000 with
//! `isNotIntegerErrorMsg = "must be an integer"`; `0.5` is parsed to `500m`
//! and printed that way
//! (`kubernetes/kubernetes:pkg/apis/core/validation/validation.go`
//! `ValidateResourceQuantityValue`; `pkg/apis/core/helper/helpers.go`
//! `IsIntegerResourceName`). Device plugins hand out whole devices; sharing a
//! GPU is configured on the node instead: time-slicing, MPS or MIG
//! (`shared/reference/gpu-sharing.md` §1, §3-§5).

use super::pl101_gpu_limit_required::trimmed;
use super::{edit, words, Context, Rule};
use super::{long, long_str};
use crate::diagnostic::{Diagnostic, Fix, Severity};
use crate::manifest::api::fractional_gpus;
use crate::manifest::model::Container;
use crate::text;

pub static RULE: Rule = Rule {
    id: "PL102",
    name: "gpu-fractional",
    severity: Severity::Error,
    scenario_aware: false,
    summary: words!(
        "a fraction of a GPU (`nvidia.com/gpu: 0.5`), which Kubernetes cannot hand out",
        "要求零點幾張 GPU（`nvidia.com/gpu: 0.5`），Kubernetes 無法這樣分配"
    ),
    what: long!(
        "Reports every GPU extended resource (`nvidia.com/gpu`, `nvidia.com/gpu.shared`, `nvidia.com/mig-<profile>`, `amd.com/gpu`, ...) in `requests` or `limits` whose quantity is not a whole number (`0.5`, `500m`, `1.5`), with the API server's message: `resources.limits[nvidia.com/gpu]: Invalid value: \"500m\": must be an integer`. CPU may be fractional; GPUs may not.",
        "回報 `requests` 或 `limits` 中數量不是整數的 GPU 擴充資源（`nvidia.com/gpu`、`nvidia.com/gpu.shared`、`nvidia.com/mig-<profile>`、`amd.com/gpu` 等），例如 `0.5`、`500m`、`1.5`，訊息引用 API server 的原文：`resources.limits[nvidia.com/gpu]: Invalid value: \"500m\": must be an integer`。CPU 可以寫小數，GPU 不行。"
    ),
    why: long!(
        "A small model or a notebook does not need a whole A100, and `cpu: 500m` suggests that `nvidia.com/gpu: 0.5` should work too. It does not: the device plugin hands out whole devices, and `kubectl apply` rejects the object. Sharing a GPU is set up on the node, not in the pod: time-slicing (the device plugin advertises each GPU N times; no memory isolation, one process can take all the GPU memory), MPS (per-client memory and compute caps), or MIG (hardware slices such as `nvidia.com/mig-1g.10gb` on A100/H100, with their own memory). The pod then asks for 1 of those.",
        "小模型或 notebook 用不到一整張 A100，而 `cpu: 500m` 讓人以為 `nvidia.com/gpu: 0.5` 也行。其實不行：device plugin 只能分配整張裝置，`kubectl apply` 會直接拒絕。共用 GPU 要在節點上設定，不是在 Pod 裡寫小數：Time-slicing（device plugin 把每張 GPU 宣告成 N 份；沒有記憶體隔離，一個程式就能吃光 GPU 記憶體）、MPS（每個使用者有記憶體與運算上限）、或 MIG（A100/H100 上的硬體切片，例如 `nvidia.com/mig-1g.10gb`，各自有獨立記憶體）。Pod 再要求 1 份這種資源。"
    ),
    failing: long_str!("apiVersion: v1\nkind: Pod\nmetadata: { name: notebook }\nspec:\n  containers:\n    - name: jupyter\n      image: quay.io/jupyter/pytorch-notebook:cuda12-2024-10-07\n      resources:\n        limits:\n          memory: 8Gi\n          nvidia.com/gpu: 0.5\n"),
    fixed: long_str!("apiVersion: v1\nkind: Pod\nmetadata: { name: notebook }\nspec:\n  containers:\n    - name: jupyter\n      image: quay.io/jupyter/pytorch-notebook:cuda12-2024-10-07\n      resources:\n        limits:\n          memory: 8Gi\n          nvidia.com/gpu: 1\n"),
    fix: long!(
        "Ask for whole GPUs: the fix rounds the quantity up (`0.5` → `1`), which is what the pod gets on upstream Kubernetes anyway. To really share a card, enable time-slicing or MPS in the NVIDIA device plugin, or partition it with MIG, and request `nvidia.com/gpu: 1` (or `nvidia.com/gpu.shared: 1`, `nvidia.com/mig-1g.10gb: 1`).",
        "改成整數張 GPU：修正會無條件進位（`0.5` → `1`），在原生 Kubernetes 上本來就只能拿到整張。真的要共用一張卡，請在 NVIDIA device plugin 開啟 Time-slicing 或 MPS，或用 MIG 切割，再要求 `nvidia.com/gpu: 1`（或 `nvidia.com/gpu.shared: 1`、`nvidia.com/mig-1g.10gb: 1`）。"
    ),
    check: Some(check),
};

fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let text = context.text;
    for fraction in fractional_gpus(context.workloads) {
        let (container, name) = (fraction.container, &fraction.amount.name);
        let whole = fraction.quantity.value().max(1);
        let mut diagnostic = RULE
            .diagnostic(
                trimmed(text, fraction.amount.value_span),
                fraction.message(text),
            )
            .with_help(text!(
                "GPUs are handed out as whole devices. To share one, configure the node: time-slicing or MPS in the NVIDIA device plugin (each GPU advertised N times), or MIG slices (`nvidia.com/mig-1g.10gb`) on A100/H100; the pod then asks for 1",
                "GPU 只能整張分配。要共用請在節點上設定：NVIDIA device plugin 的 Time-slicing 或 MPS（每張 GPU 宣告成 N 份），或在 A100/H100 上用 MIG 切片（`nvidia.com/mig-1g.10gb`）；Pod 再要求 1 份"
            ));
        let edits = round_up_edits(text, container, name);
        if !edits.is_empty() {
            let description = if whole == 1 {
                text!(
                    "ask for one whole GPU ({name}: 1): a pod cannot get part of a GPU; to share GPUs, use time-slicing, MPS or MIG on the node instead",
                    "改成一整張 GPU（{name}: 1）：Pod 無法只拿到部分 GPU；要共用 GPU，請改在節點上用 Time-slicing、MPS 或 MIG"
                )
            } else {
                text!(
                    "round up to {whole} whole GPUs ({name}: {whole}): a pod cannot get part of a GPU",
                    "無條件進位成 {whole} 張完整的 GPU（{name}: {whole}）：Pod 無法只拿到部分 GPU"
                )
            };
            diagnostic = diagnostic.with_fix(Fix { description, edits });
        }
        out.push(diagnostic);
    }
}

fn round_up_edits(
    text: &str,
    container: &Container,
    name: &str,
) -> Vec<crate::diagnostic::TextEdit> {
    let resources = &container.resources;
    resources
        .limits
        .iter()
        .chain(&resources.requests)
        .filter(|amount| amount.name == name)
        .filter_map(|amount| {
            let quantity = amount.quantity?;
            (!quantity.is_integer() && !quantity.is_negative()).then(|| {
                edit::replace(
                    trimmed(text, amount.value_span),
                    quantity.value().max(1).to_string(),
                )
            })
        })
        .collect()
}
