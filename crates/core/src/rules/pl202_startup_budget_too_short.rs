//! PL202 startup-budget-too-short.
//!
//! Models `shared/reference/kubelet.md` §1 and §3: while the startupProbe has
//! not succeeded, liveness and readiness wait; after `failureThreshold`
//! consecutive startup failures the kubelet kills the container ("Container
//! api failed startup probe, will be restarted") exactly as a liveness
//! failure would. The budget is `initialDelaySeconds + failureThreshold ×
//! periodSeconds` (the kill comes up to one period earlier, depending on the
//! probe grid).

use super::{containers, edit, words, Context, KillRisk, Rule};
use super::{long, long_str};
use crate::diagnostic::{Diagnostic, Fix, Severity};
use crate::text;

pub static RULE: Rule = Rule {
    id: "PL202",
    name: "startup-budget-too-short",
    severity: Severity::Error,
    scenario_aware: true,
    summary: words!(
        "the startupProbe gives up before the model has loaded",
        "startupProbe 在模型載入完成前就判定失敗"
    ),
    what: long!(
        "For each startupProbe, compares `initialDelaySeconds + failureThreshold × periodSeconds` with the program's load time (the Scenario's `startup`, default 40s). When the budget is not longer than the load time, the startup probe fails for good and the kubelet restarts the container. With only the default load time (no Scenario `startup`, no `podlab.dev/startup` annotation) it is at most info, and the message says it assumes the load.",
        "對每個 startupProbe，比較 `initialDelaySeconds + failureThreshold × periodSeconds` 與程式的載入時間（Scenario 的 `startup`，預設 40 秒）。預算不比載入時間長時，startup 探針會判定失敗，kubelet 重啟 container。只有預設的載入時間（沒有 Scenario 的 `startup`，也沒有 `podlab.dev/startup` annotation）時，最多只是資訊，訊息會說明這是假設的載入時間。"
    ),
    why: long!(
        "A startupProbe copied from a small web service (`failureThreshold: 3`) protects 30 seconds; a 7B model on a cold node takes minutes. The result is the same crash loop the startupProbe was added to prevent, now with `Startup probe failed` in the events. Models also grow: a budget that fit last quarter's model no longer fits this one's.",
        "從小型 web 服務抄來的 startupProbe（`failureThreshold: 3`）只保護 30 秒；7B 模型在冷節點上要好幾分鐘。結果就是 startupProbe 原本要避免的那個重啟迴圈，只是 Events 裡換成 `Startup probe failed`。模型也會長大：上一季模型夠用的預算，這一季可能就不夠了。"
    ),
    failing: long_str!("apiVersion: v1\nkind: Pod\nmetadata: { name: model }\nspec:\n  containers:\n    - name: api\n      image: registry.example.com/model-api:0.3.1\n      ports: [{ containerPort: 8000 }]\n      startupProbe:\n        httpGet: { path: /health, port: 8000 }\n        periodSeconds: 10\n        failureThreshold: 3\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: big-model }\nspec:\n  workload:\n    - container: api\n      startup: 2m\n"),
    fixed: long_str!("apiVersion: v1\nkind: Pod\nmetadata: { name: model }\nspec:\n  containers:\n    - name: api\n      image: registry.example.com/model-api:0.3.1\n      ports: [{ containerPort: 8000 }]\n      startupProbe:\n        httpGet: { path: /health, port: 8000 }\n        periodSeconds: 10\n        failureThreshold: 18\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: big-model }\nspec:\n  workload:\n    - container: api\n      startup: 2m\n"),
    fix: long!(
        "Raise `failureThreshold` until `initialDelaySeconds + failureThreshold × periodSeconds` covers the load time with 50% margin. A generous startup budget costs nothing when the model loads fast: the probe succeeds at the first answer.",
        "提高 `failureThreshold`，讓 `initialDelaySeconds + failureThreshold × periodSeconds` 涵蓋載入時間並多留 50%。寬裕的啟動預算在模型載入得快時沒有任何代價：探針在第一次回應時就成功了。"
    ),
    check: Some(check),
};

fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for (_, container, _) in containers(context.workloads) {
        let Some(probe) = &container.startup else {
            continue;
        };
        let program = context.scenario.program(container);
        let startup_ms = program.startup.value;
        let Some(risk) = super::kill_risk(probe, startup_ms) else {
            continue;
        };
        let period = probe.period_seconds.value.max(1);
        let delay = probe.initial_delay_seconds.value.max(0);
        let threshold = probe.failure_threshold.value;
        let startup_text = crate::manifest::duration::duration_text(startup_ms);
        let (startup, startup_zh) = (startup_text.en, startup_text.zh_tw);
        let name = &container.name;
        let delay_ms = u64::try_from(delay).unwrap_or(0) * 1000;
        let period_ms = u64::try_from(period).unwrap_or(1) * 1000;
        let needed = super::pl201_liveness_kills_slow_start::covering_threshold(
            startup_ms,
            delay_ms,
            period_ms / 1000,
        );
        let span = probe.failure_threshold.span.unwrap_or(probe.key_span);
        let window = super::kill_window_text(probe);
        let (window, window_zh) = (window.en, window.zh_tw);
        let equal = super::budget_equals_load(probe, startup_ms);
        let (equal, equal_zh) = (equal.en, equal.zh_tw);
        let message = match risk {
            KillRisk::Certain => text!(
                "container \"{name}\": the startupProbe kills it {window} ({delay}s + {threshold} × {period}s), but the model needs {startup} to load: the kubelet restarts it before it is up{equal}",
                "container「{name}」：startupProbe 會在{window_zh}砍掉它（{delay} + {threshold} × {period} 秒），但模型載入要 {startup_zh}：kubelet 會在它啟動完成前重啟它{equal_zh}"
            ),
            KillRisk::Possible => text!(
                "container \"{name}\": the startupProbe kills it {window} (depending on where its {period}s ticks fall) and the model needs {startup} to load: no margin, one slow load and the kubelet restarts it{equal}",
                "container「{name}」：startupProbe 會在{window_zh}砍掉它（取決於每 {period} 秒一次的探測落在哪裡），而模型載入要 {startup_zh}：沒有餘裕，載入稍慢 kubelet 就會重啟它{equal_zh}"
            ),
        };
        let severity = match risk {
            KillRisk::Certain => Severity::Error,
            KillRisk::Possible => Severity::Warning,
        };
        let mut diagnostic = Diagnostic::new(RULE.key(), severity, span, message)
            .with_help(text!(
                "`kubectl describe pod` would show `Startup probe failed: ...` and `Container {name} failed startup probe, will be restarted`",
                "`kubectl describe pod` 會看到 `Startup probe failed: ...` 和 `Container {name} failed startup probe, will be restarted`"
            ));
        let edit = match probe.failure_threshold.span {
            Some(value) => Some(edit::replace(value, needed.to_string())),
            None => edit::first_key(context.text, probe.span).and_then(|at| {
                edit::insert_entry(context.text, at, &[format!("failureThreshold: {needed}")])
            }),
        };
        if let Some(edit) = edit {
            let covered = delay_ms / 1000 + needed * period_ms / 1000;
            diagnostic = diagnostic.with_fix(Fix {
                description: text!(
                    "set failureThreshold to {needed}: {covered}s for the {startup} load",
                    "把 failureThreshold 設為 {needed}：給 {startup_zh}的載入 {covered} 秒"
                ),
                edits: vec![edit],
            });
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
