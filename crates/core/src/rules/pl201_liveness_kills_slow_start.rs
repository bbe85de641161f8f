//! PL201 liveness-kills-slow-start.
//!
//! Models `shared/reference/kubelet.md` §1: without a startupProbe the
//! liveness worker counts as soon as the container runs; its first real probe
//! falls on the first tick of its period grid at or after
//! `StartedAt + initialDelaySeconds`, and the container is killed at the
//! `failureThreshold`-th consecutive failure. The kill therefore comes
//! between `initialDelay + (failureThreshold − 1) × period` and
//! `initialDelay + failureThreshold × period` after the start. When that
//! later bound is not past the model's load time, every start is killed
//! before it can answer: the CrashLoopBackOff of the blog article.

use super::{containers, edit, handler_yaml, words, Context, KillRisk, Rule};
use super::{long, long_str};
use crate::diagnostic::{Diagnostic, Fix, Severity};
use crate::text;

pub static RULE: Rule = Rule {
    id: "PL201",
    name: "liveness-kills-slow-start",
    severity: Severity::Error,
    scenario_aware: true,
    summary: words!(
        "a liveness probe with no startupProbe gives up before the model has loaded",
        "有 liveness 探針卻沒有 startupProbe，模型還沒載入完就被判定失敗"
    ),
    what: long!(
        "For each container with a livenessProbe and no startupProbe, compares the probe's failure budget, `initialDelaySeconds + failureThreshold × periodSeconds`, with the load time of the program (the Scenario's `startup`, default 40s). When the budget is not longer than the load time, the kubelet kills the container before it ever answers. With only the default load time (no Scenario `startup`, no `podlab.dev/startup` annotation) it is at most info, and the message says it assumes the load.",
        "對每個有 livenessProbe 但沒有 startupProbe 的 container，比較探針的失敗預算 `initialDelaySeconds + failureThreshold × periodSeconds` 與程式的載入時間（Scenario 的 `startup`，預設 40 秒）。預算不比載入時間長時，kubelet 會在程式能回應之前就把 container 砍掉。只有預設的載入時間（沒有 Scenario 的 `startup`，也沒有 `podlab.dev/startup` annotation）時，最多只是資訊，訊息會說明這是假設的載入時間。"
    ),
    why: long!(
        "Loading weights takes tens of seconds to minutes, and the server does not listen until it is done. With the defaults (period 10 s, failureThreshold 3) the liveness probe fails three times in a row within 30 s, the kubelet restarts the container, loading starts over, and the pod loops in CrashLoopBackOff with back-off growing from 10 s to 5 min — RESTARTS 7 after 12 minutes, and the model never finishes loading.",
        "載入權重要花幾十秒到幾分鐘，伺服器在載入完成前不會監聽。使用預設值（period 10 秒、failureThreshold 3）時，liveness 探針在 30 秒內連續失敗三次，kubelet 重啟 container，模型載入從頭來過，Pod 陷入 CrashLoopBackOff，退避時間從 10 秒一路加倍到 5 分鐘——12 分鐘後 RESTARTS 7，模型永遠載入不完。"
    ),
    failing: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: model-api }\nspec:\n  selector: { matchLabels: { app: model-api } }\n  template:\n    metadata: { labels: { app: model-api } }\n    spec:\n      containers:\n        - name: api\n          image: registry.example.com/model-api:0.3.1\n          ports: [{ containerPort: 8000 }]\n          livenessProbe:\n            httpGet: { path: /health, port: 8000 }\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: slow-load }\nspec:\n  workload:\n    - container: api\n      startup: 40s\n"),
    fixed: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: model-api }\nspec:\n  selector: { matchLabels: { app: model-api } }\n  template:\n    metadata: { labels: { app: model-api } }\n    spec:\n      containers:\n        - name: api\n          image: registry.example.com/model-api:0.3.1\n          ports: [{ containerPort: 8000 }]\n          startupProbe:\n            httpGet: { path: /health, port: 8000 }\n            periodSeconds: 10\n            failureThreshold: 6\n          livenessProbe:\n            httpGet: { path: /health, port: 8000 }\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: slow-load }\nspec:\n  workload:\n    - container: api\n      startup: 40s\n"),
    fix: long!(
        "Add a startupProbe with the same check, `periodSeconds: 10` and a `failureThreshold` that covers the load time with 50% margin (`ceil(1.5 × startup / 10)`). Liveness and readiness wait until it succeeds, then the liveness probe keeps its fast detection of a hung server. Raising `initialDelaySeconds` instead also works, but delays every restart and must be re-tuned whenever the model grows.",
        "加上一個檢查方式相同的 startupProbe，`periodSeconds: 10`，`failureThreshold` 取足以涵蓋載入時間並多留 50% 的值（`ceil(1.5 × startup / 10)`）。liveness 與 readiness 會等它成功才開始，之後 liveness 探針仍能快速發現卡死的伺服器。改成加大 `initialDelaySeconds` 也行，但每次重啟都會被拖慢，而且模型一變大就得重新調整。"
    ),
    check: Some(check),
};

/// The startupProbe period the fix writes.
pub const FIX_PERIOD_SECONDS: u64 = 10;

/// `failureThreshold` for a startupProbe of period `period_s` after
/// `delay_ms` that covers `startup_ms` with 50% margin, and whose earliest
/// possible kill (one period sooner, `super::kill_risk`) still comes after
/// the load.
pub fn covering_threshold(startup_ms: u64, delay_ms: u64, period_s: u64) -> u64 {
    let period_ms = period_s.max(1) * 1000;
    let wanted = startup_ms.saturating_mul(3) / 2;
    let mut threshold = wanted.saturating_sub(delay_ms).div_ceil(period_ms).max(1);
    while delay_ms + (threshold - 1) * period_ms <= startup_ms {
        threshold += 1;
    }
    threshold
}

fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for (_, container, _) in containers(context.workloads) {
        let Some(liveness) = &container.liveness else {
            continue;
        };
        if container.startup.is_some() {
            continue;
        }
        let program = context.scenario.program(container);
        let startup_ms = program.startup.value;
        let Some(risk) = super::kill_risk(liveness, startup_ms) else {
            continue;
        };
        let startup_text = crate::manifest::duration::duration_text(startup_ms);
        let (startup, startup_zh) = (startup_text.en, startup_text.zh_tw);
        let period = liveness.period_seconds.value;
        let threshold = liveness.failure_threshold.value;
        let delay = liveness.initial_delay_seconds.value;
        let name = &container.name;
        let window = super::kill_window_text(liveness);
        let (window, window_zh) = (window.en, window.zh_tw);
        let equal = super::budget_equals_load(liveness, startup_ms);
        let (equal, equal_zh) = (equal.en, equal.zh_tw);
        let message = match risk {
            KillRisk::Certain => text!(
                "container \"{name}\": without a startupProbe the liveness probe kills it {window} ({delay}s + {threshold} × {period}s), but the model needs {startup} to load: the kubelet restarts it before it ever answers (CrashLoopBackOff){equal}",
                "container「{name}」：沒有 startupProbe 時，liveness 探針會在{window_zh}砍掉它（{delay} + {threshold} × {period} 秒），但模型載入要 {startup_zh}：kubelet 會在它回應之前就重啟它（CrashLoopBackOff）{equal_zh}"
            ),
            KillRisk::Possible => text!(
                "container \"{name}\": without a startupProbe the liveness probe kills it {window} (depending on where its {period}s ticks fall), and the model needs {startup} to load: no margin, one slow load and the kubelet restarts it{equal}",
                "container「{name}」：沒有 startupProbe 時，liveness 探針會在{window_zh}砍掉它（取決於每 {period} 秒一次的探測落在哪裡），而模型載入要 {startup_zh}：沒有餘裕，載入稍慢 kubelet 就會重啟它{equal_zh}"
            ),
        };
        let severity = match risk {
            KillRisk::Certain => Severity::Error,
            KillRisk::Possible => Severity::Warning,
        };
        let mut diagnostic = Diagnostic::new(RULE.key(), severity, liveness.key_span, message)
            .with_help(text!(
                "a startupProbe holds the liveness probe back until the model has loaded; `kubectl describe pod` would show `Liveness probe failed: ... connection refused` and `Container {name} failed liveness probe, will be restarted`",
                "startupProbe 會讓 liveness 探針等到模型載入完才開始；`kubectl describe pod` 會看到 `Liveness probe failed: ... connection refused` 和 `Container {name} failed liveness probe, will be restarted`"
            ));
        if let Some(handler) = handler_yaml(&liveness.handler) {
            let needed = covering_threshold(startup_ms, 0, FIX_PERIOD_SECONDS);
            let lines = [
                "startupProbe:".to_string(),
                format!("  {handler}"),
                format!("  periodSeconds: {FIX_PERIOD_SECONDS}"),
                format!("  failureThreshold: {needed}"),
            ];
            let covered = needed * FIX_PERIOD_SECONDS;
            if let Some(edit) = edit::insert_entry(context.text, liveness.key_span.start, &lines) {
                diagnostic = diagnostic.with_fix(Fix {
                    description: text!(
                        "add a startupProbe allowing {covered}s for the {startup} load (failureThreshold {needed} × periodSeconds {FIX_PERIOD_SECONDS})",
                        "加上 startupProbe，給 {startup_zh}的載入 {covered} 秒（failureThreshold {needed} × periodSeconds {FIX_PERIOD_SECONDS}）"
                    ),
                    edits: vec![edit],
                });
            }
        }
        if program.startup.span.is_none() {
            diagnostic = super::on_assumption(
                diagnostic,
                text!("a {startup} model load", "模型載入要 {startup_zh}"),
                "podlab.dev/startup",
            );
        }
        out.push(diagnostic);
    }
}
