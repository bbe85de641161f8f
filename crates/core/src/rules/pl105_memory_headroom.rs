//! PL105 memory-headroom.
//!
//! A limit that holds the loading peak but sits close to the steady state
//! leaves no room for what grows after loading: KV cache and batch size in a
//! serving process, allocator fragmentation, a longer input. When that growth
//! reaches the limit the outcome is the OOM kill of `shared/reference/kubelet.md`
//! §6 (`OOMKilled`, exit code 137), now in the middle of serving traffic or
//! hours into a training run instead of at start-up.
//!
//! Threshold: limit < 1.5 × steady × workers (the Scenario's `memory.steady`,
//! by default the memory request as written, else half the limit, else 2Gi;
//! `shared/DESIGN.md`). The rule stays silent when PL104 already reports the
//! container (loading peak above the limit). With the default peak of 1.75 ×
//! steady any limit below 1.5 × steady is below the peak too, so in practice
//! this rule speaks when a Scenario gives a peak under 1.5 × steady.
//!
//! Scenario-aware (the placeholder said otherwise): it reads the Scenario's
//! steady memory and workers. Applies to the containers PL104 looks at
//! (`pl104_memory_limit_below_peak::applies`).

use super::pl101_gpu_limit_required::{trimmed, written};
use super::pl104_memory_limit_below_peak::{applies, fix_limit, show_bytes, show_total};
use super::{containers, edit, words, Context, Rule};
use super::{long, long_str};
use crate::diagnostic::{Diagnostic, Fix, Severity};
use crate::manifest::quantity;
use crate::text;

pub static RULE: Rule = Rule {
    id: "PL105",
    name: "memory-headroom",
    severity: Severity::Warning,
    scenario_aware: true,
    summary: words!(
        "the memory limit leaves less than 50% headroom above the steady state",
        "記憶體 limit 比穩態多不到 50%，餘裕不足"
    ),
    what: long!(
        "For each ML container (or container the Scenario describes) with a memory limit that holds the loading peak, reports a limit below 1.5 × the steady memory × workers (the Scenario's `memory.steady`, else the memory request). When the limit is also below the loading peak, PL104 reports it instead. With only the default steady state (no Scenario `memory.steady`, no `podlab.dev/memory-steady` annotation) it is at most info and says so.",
        "對每個記憶體 limit 撐得住載入尖峰的 ML container（或 Scenario 有描述的 container），limit 低於穩態記憶體 × worker 數的 1.5 倍時回報（穩態取 Scenario 的 `memory.steady`，沒有就取記憶體 requests）。limit 連載入尖峰都不到時，改由 PL104 回報。只有預設的穩態（沒有 Scenario 的 `memory.steady`，也沒有 `podlab.dev/memory-steady` annotation）時，最多只是資訊，訊息會說明這是假設。"
    ),
    why: long!(
        "Steady state is not fixed: an LLM server's KV cache grows with concurrent requests and context length, a bigger batch or a longer input needs more, and the allocator fragments over hours. The blog's rule of thumb is that the peak is 1.5–2 × steady; a limit just above steady turns the first busy hour into an OOMKilled (exit code 137) in the middle of traffic, or kills a training run after hours of GPU time.",
        "穩態不是固定的：LLM 伺服器的 KV cache 會隨同時請求數與 context 長度成長，batch 變大、輸入變長都要更多記憶體，記憶體也會隨時間碎片化。部落格的經驗法則是尖峰約為穩態的 1.5–2 倍；limit 只比穩態多一點，第一個尖峰時段就會在服務流量中 OOMKilled（exit code 137），或讓跑了好幾個小時 GPU 的訓練功虧一簣。"
    ),
    failing: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: tgi }\nspec:\n  selector: { matchLabels: { app: tgi } }\n  template:\n    metadata: { labels: { app: tgi } }\n    spec:\n      containers:\n        - name: tgi\n          image: ghcr.io/huggingface/text-generation-inference:2.4.0\n          resources:\n            requests: { memory: 6Gi }\n            limits: { memory: 8Gi, nvidia.com/gpu: 1 }\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: safetensors-load }\nspec:\n  workload:\n    - container: tgi\n      memory: { steady: 6Gi, peak: 7Gi }\n"),
    fixed: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: tgi }\nspec:\n  selector: { matchLabels: { app: tgi } }\n  template:\n    metadata: { labels: { app: tgi } }\n    spec:\n      containers:\n        - name: tgi\n          image: ghcr.io/huggingface/text-generation-inference:2.4.0\n          resources:\n            requests: { memory: 6Gi }\n            limits: { memory: 9Gi, nvidia.com/gpu: 1 }\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: safetensors-load }\nspec:\n  workload:\n    - container: tgi\n      memory: { steady: 6Gi, peak: 7Gi }\n"),
    fix: long!(
        "Raise the memory limit to at least 1.5 × steady (and 20% above the loading peak), rounded up to whole GiB; the fix writes that value. If the steady state itself grows (KV cache), cap it in the server instead (vLLM `--gpu-memory-utilization`, `--max-num-seqs`; smaller batches).",
        "把記憶體 limit 提高到至少穩態的 1.5 倍（且比載入尖峰多 20%），進位到整數 GiB；修正會寫入這個值。如果是穩態本身會長大（KV cache），請在伺服器端設上限（vLLM 的 `--gpu-memory-utilization`、`--max-num-seqs`；縮小 batch）。"
    ),
    check: Some(check),
};

fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let scenario = context.scenario;
    for (_, container, _) in containers(context.workloads) {
        if !applies(container, scenario) {
            continue;
        }
        let Some(limit) = container.resources.limit("memory") else {
            continue;
        };
        let Some(limit_bytes) = limit
            .quantity
            .filter(|quantity| !quantity.is_negative())
            .map(|quantity| quantity.value())
        else {
            continue;
        };
        let program = scenario.program(container);
        // PL104 reports a limit below the loading peak.
        if program.peak_total() > limit_bytes {
            continue;
        }
        let steady = program.steady_total();
        if limit_bytes.saturating_mul(2) >= steady.saturating_mul(3) {
            continue;
        }
        let name = &container.name;
        let limit_text = written(context.text, limit.value_span);
        let workers = program.workers.value.max(1);
        let (steady_en, steady_zh) = show_total(program.memory_steady.value, workers, steady);
        let wanted = show_bytes(steady.saturating_mul(3) / 2);
        let new_limit = quantity::format_bytes(fix_limit(&program, container));
        let diagnostic = RULE
            .diagnostic(
                trimmed(context.text, limit.value_span),
                text!(
                    "container \"{name}\": memory limit {limit_text} is less than 1.5 × the steady state {steady_en} = {wanted}: growth after loading (KV cache, bigger batches, fragmentation) ends in OOMKilled",
                    "container「{name}」：記憶體 limit {limit_text} 不到穩態 {steady_zh} 的 1.5 倍（{wanted}）：載入後的成長（KV cache、較大的 batch、記憶體碎片）會以 OOMKilled 收場"
                ),
            )
            .with_help(text!(
                "watch the steady state with `kubectl top pod` under real traffic; an OOM kill shows in `kubectl describe pod` as `Last State: Terminated`, `Reason: OOMKilled`, `Exit Code: 137`",
                "在真實流量下用 `kubectl top pod` 觀察穩態；OOM 時 `kubectl describe pod` 會顯示 `Last State: Terminated`、`Reason: OOMKilled`、`Exit Code: 137`"
            ))
            .with_fix(Fix {
                description: text!(
                    "set the memory limit to {new_limit}: at least 1.5 × steady and 20% above the loading peak, rounded up to whole GiB",
                    "把記憶體 limit 設為 {new_limit}：至少是穩態的 1.5 倍、比載入尖峰多 20%，進位到整數 GiB"
                ),
                edits: vec![edit::replace(trimmed(context.text, limit.value_span), new_limit.clone())],
            });
        out.push(if program.memory_steady.span.is_none() {
            super::on_assumption(
                diagnostic,
                text!("a steady state of {steady_en}", "穩態是 {steady_zh}"),
                "podlab.dev/memory-steady",
            )
        } else {
            diagnostic
        });
    }
}
