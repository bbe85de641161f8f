//! PL402 grace-shorter-than-prestop.
//!
//! Models `shared/reference/kubelet.md` §3 (`killContainer`): the grace
//! period — the deletion's `DeletionGracePeriodSeconds`, which defaults to
//! the pod's `terminationGracePeriodSeconds` (default 30) — covers the preStop
//! hook *and* the SIGTERM phase. The hook runs first, for at most the grace
//! period ("A hook that outruns the grace period is abandoned"); its whole
//! seconds are subtracted; what is left, raised to at least
//! `minimumGracePeriodInSeconds = 2`, is the timeout of CRI `StopContainer`,
//! after which the runtime sends SIGKILL (exit 137)
//! (`kubernetes/kubernetes:pkg/kubelet/kuberuntime/kuberuntime_container.go`
//! `killContainer`, `executePreStopHook`; `kuberuntime_manager.go`). The
//! hook runs only when the grace period is above 0
//! (`Lifecycle.PreStop != nil && gracePeriod > 0`).
//! A probe's own `terminationGracePeriodSeconds` applies only to liveness and
//! startup kills, not to deletion, so it is not compared here.
//!
//! The preStop time is the `sleep` action's `seconds`, or `N` of an exec
//! `sleep N` (also inside `sh -c "...; sleep N"`); an httpGet or another
//! command counts as 0, since its length is unknown. The program's shutdown
//! time is the Scenario's `shutdown` (default 1s).
//!
//! The rule fires when `terminationGracePeriodSeconds ≤ preStop + shutdown`
//! for a container with a preStop hook. A container without one is reported
//! only when the kubelet would really SIGKILL it (the shutdown is longer
//! than the grace period and the 2 s minimum). The fix writes
//! `terminationGracePeriodSeconds: ceil(preStop + shutdown) + 10`, the
//! largest over the pod's containers: 10 s of margin for a drain that runs
//! longer under load.

use super::{edit, pod_spec_path, words, Context, Rule};
use super::{long, long_str};
use crate::diagnostic::{Diagnostic, Fix, Severity, TextEdit};
use crate::manifest::duration::{self, Millis};
use crate::manifest::model::{Container, Handler, Workload};
use crate::number::Float;
use crate::text;

pub static RULE: Rule = Rule {
    id: "PL402",
    name: "grace-shorter-than-prestop",
    severity: Severity::Warning,
    scenario_aware: true,
    summary: words!(
        "terminationGracePeriodSeconds does not cover the preStop hook plus the program's shutdown",
        "terminationGracePeriodSeconds 不足以涵蓋 preStop hook 加上程式的關機時間"
    ),
    what: long!(
        "For each container with a preStop hook, compares the pod's `terminationGracePeriodSeconds` (default 30) with the preStop time (`sleep.seconds`, or `N` of an exec `sleep N`; other hooks count as 0) plus the time the program needs after SIGTERM (the Scenario's `shutdown`, default 1s). Reports when the grace period is not longer. A container without a preStop hook is reported when its shutdown alone outlasts the grace period. When only the default 1 s shutdown makes the grace period short (no Scenario `shutdown`, no `podlab.dev/shutdown` annotation), it is at most info and says so.",
        "對每個有 preStop hook 的 container，比較 Pod 的 `terminationGracePeriodSeconds`（預設 30）與 preStop 時間（`sleep.seconds`，或 exec `sleep N` 的 `N`；其他 hook 視為 0）加上程式收到 SIGTERM 後需要的時間（Scenario 的 `shutdown`，預設 1 秒）。寬限期沒有比較長就回報。沒有 preStop hook 的 container，只有在關機時間本身就超過寬限期時才回報。只有預設的 1 秒關機時間才讓寬限期不夠時（沒有 Scenario 的 `shutdown`，也沒有 `podlab.dev/shutdown` annotation），最多只是資訊，訊息會說明這是假設。"
    ),
    why: long!(
        "The grace period is one budget for the preStop hook and the SIGTERM phase together. A preStop `sleep 30` with the default 30 s grace period eats all of it: the kubelet abandons the hook, sends SIGTERM with the minimum 2 s left, and then SIGKILL (exit 137). An inference server draining long generations, or a trainer writing its last checkpoint on SIGTERM, is killed halfway: requests are lost, and the checkpoint may be half-written.",
        "寬限期是 preStop hook 和 SIGTERM 階段共用的同一份預算。preStop `sleep 30` 配上預設 30 秒的寬限期會把它全部用光：kubelet 放棄 hook，只剩最低的 2 秒就送 SIGTERM，接著 SIGKILL（exit 137）。正在把長生成跑完的推論伺服器，或收到 SIGTERM 才寫最後一個 checkpoint 的訓練程式，會在半途被砍：請求遺失，checkpoint 也可能只寫了一半。"
    ),
    failing: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: llm-api }\nspec:\n  selector: { matchLabels: { app: llm-api } }\n  template:\n    metadata: { labels: { app: llm-api } }\n    spec:\n      terminationGracePeriodSeconds: 30\n      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.6.3\n          ports: [{ containerPort: 8000 }]\n          readinessProbe:\n            httpGet: { path: /health, port: 8000 }\n            periodSeconds: 5\n          lifecycle:\n            preStop:\n              exec: { command: [\"sleep\", \"15\"] }\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: long-drain }\nspec:\n  workload:\n    - container: vllm\n      shutdown: 20s\n"),
    fixed: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: llm-api }\nspec:\n  selector: { matchLabels: { app: llm-api } }\n  template:\n    metadata: { labels: { app: llm-api } }\n    spec:\n      terminationGracePeriodSeconds: 45\n      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.6.3\n          ports: [{ containerPort: 8000 }]\n          readinessProbe:\n            httpGet: { path: /health, port: 8000 }\n            periodSeconds: 5\n          lifecycle:\n            preStop:\n              exec: { command: [\"sleep\", \"15\"] }\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: long-drain }\nspec:\n  workload:\n    - container: vllm\n      shutdown: 20s\n"),
    fix: long!(
        "Set `terminationGracePeriodSeconds` (in the pod spec) to at least the preStop time plus the program's shutdown time; the automatic fix writes `ceil(preStop + shutdown) + 10`. Or shorten the preStop sleep: 5–15 s is usually enough for the endpoints to catch up.",
        "把 pod spec 的 `terminationGracePeriodSeconds` 設為至少 preStop 時間加上程式的關機時間；自動修正會寫入 `ceil(preStop + shutdown) + 10`。也可以縮短 preStop 的 sleep：通常 5–15 秒就足以讓 endpoints 跟上。"
    ),
    check: Some(check),
};

/// Seconds of margin the fix adds.
const FIX_MARGIN_SECONDS: u64 = 10;

/// `minimumGracePeriodInSeconds` of `kuberuntime_manager.go`.
const MINIMUM_GRACE_SECONDS: u64 = 2;

/// How long a preStop hook holds SIGTERM back, in whole seconds, when that
/// can be read from it: a `sleep` action, or a `sleep N` command.
pub fn pre_stop_seconds(handler: &Handler) -> u64 {
    match handler {
        Handler::Sleep { seconds } => u64::try_from(*seconds).unwrap_or(0),
        Handler::Exec { command } => sleep_in_command(command).unwrap_or(0),
        _ => 0,
    }
}

/// `N` of `sleep N` in an exec command (`["sleep", "10"]`,
/// `["/bin/sleep", "10"]`, `["sh", "-c", "nginx -s quit; sleep 10"]`); `N`
/// may end in `s`, `m` or `h` as GNU sleep allows. The sum when several.
fn sleep_in_command(command: &[String]) -> Option<u64> {
    let words: Vec<&str> = command
        .iter()
        .flat_map(|word| word.split(|c: char| c.is_whitespace() || c == ';' || c == '&'))
        .filter(|word| !word.is_empty())
        .collect();
    let mut total: Option<u64> = None;
    for pair in words.windows(2) {
        let [program, argument] = pair else { continue };
        if program.rsplit('/').next() != Some("sleep") {
            continue;
        }
        if let Some(seconds) = sleep_argument(argument) {
            total = Some(total.unwrap_or(0).saturating_add(seconds));
        }
    }
    total
}

fn sleep_argument(argument: &str) -> Option<u64> {
    let (number, unit) = match argument.char_indices().last()? {
        (at, 's') => (&argument[..at], 1),
        (at, 'm') => (&argument[..at], 60),
        (at, 'h') => (&argument[..at], 3600),
        _ => (argument, 1),
    };
    // Read exactly, without `f64::from_str` (see `number`); negative,
    // infinite and NaN arguments are not a sleep podlab can time.
    let Some(Float::Number(seconds)) = crate::number::parse(number) else {
        return None;
    };
    // Whole seconds, as `executePreStopHook` counts them.
    seconds.floor_times(unit, 1_000_000_000_000_000)
}

/// What one container needs: preStop seconds and shutdown milliseconds.
struct Need {
    pre_stop_s: u64,
    shutdown_ms: Millis,
    /// A Scenario (or annotation) states the shutdown time; else it is the
    /// default 1 s, an assumption.
    shutdown_stated: bool,
}

impl Need {
    fn total_ms(&self) -> u64 {
        self.pre_stop_s
            .saturating_mul(1000)
            .saturating_add(self.shutdown_ms)
    }

    /// `ceil(preStop + shutdown) + margin`, the grace period the fix writes.
    fn fixed_grace(&self) -> u64 {
        self.total_ms()
            .div_ceil(1000)
            .saturating_add(FIX_MARGIN_SECONDS)
    }
}

fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for workload in context.workloads {
        let grace = &workload.pod.termination_grace_period_seconds;
        // A negative grace period is rejected by the API server (PL003).
        let Ok(grace_s) = u64::try_from(grace.value) else {
            continue;
        };
        let grace_ms = grace_s.saturating_mul(1000);
        let needs: Vec<(&Container, Need)> = workload
            .pod
            .containers
            .iter()
            .map(|container| {
                let shutdown = context.scenario.program(container).shutdown;
                let need = Need {
                    pre_stop_s: container.pre_stop.as_ref().map_or(0, pre_stop_seconds),
                    shutdown_ms: shutdown.value,
                    shutdown_stated: shutdown.span.is_some(),
                };
                (container, need)
            })
            .collect();
        let fixed_grace = needs
            .iter()
            .map(|(_, need)| need.fixed_grace())
            .max()
            .unwrap_or(0);
        for (container, need) in &needs {
            // The SIGTERM phase: what the hook leaves, at least 2 s.
            let term_s = grace_s
                .saturating_sub(need.pre_stop_s.min(grace_s))
                .max(MINIMUM_GRACE_SECONDS);
            let killed = need.shutdown_ms > term_s.saturating_mul(1000);
            let short = grace_ms <= need.total_ms();
            let fires = match &container.pre_stop {
                Some(_) => short,
                None => killed,
            };
            if !fires {
                continue;
            }
            let mut found = diagnostic(
                context.text,
                workload,
                container,
                need,
                grace_s,
                term_s,
                killed,
                fixed_grace,
            );
            // Issue 14: when only the assumed shutdown time makes the
            // grace period short (a preStop hook a second shy of it), the
            // finding rests on an assumption.
            let short_without_assumption =
                need.shutdown_stated || grace_ms <= need.pre_stop_s.saturating_mul(1000);
            if container.pre_stop.is_some() && !short_without_assumption {
                let shutdown = duration::format(need.shutdown_ms);
                found = super::on_assumption(
                    found,
                    text!(
                        "a {shutdown} shutdown after SIGTERM",
                        "收到 SIGTERM 後要 {shutdown} 關機"
                    ),
                    "podlab.dev/shutdown",
                );
            }
            out.push(found);
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn diagnostic(
    text: &str,
    workload: &Workload,
    container: &Container,
    need: &Need,
    grace_s: u64,
    term_s: u64,
    killed: bool,
    fixed_grace: u64,
) -> Diagnostic {
    let name = &container.name;
    let pre_stop = need.pre_stop_s;
    let shutdown = duration::format(need.shutdown_ms);
    let grace_written = workload.pod.termination_grace_period_seconds.span;
    let grace_text = if grace_written.is_some() {
        text!(
            "terminationGracePeriodSeconds {grace_s}",
            "terminationGracePeriodSeconds {grace_s}"
        )
    } else {
        text!(
            "the default terminationGracePeriodSeconds {grace_s}",
            "預設的 terminationGracePeriodSeconds {grace_s}"
        )
    };
    let (grace_en, grace_zh) = (grace_text.en, grace_text.zh_tw);
    let message = if container.pre_stop.is_none() {
        text!(
            "container \"{name}\": {grace_en}s is shorter than the {shutdown} the program needs after SIGTERM: SIGKILL (exit 137) before it has finished, in-flight work lost",
            "container「{name}」：{grace_zh} 秒比程式收到 SIGTERM 後需要的 {shutdown} 還短：還沒收尾就被 SIGKILL（exit 137），處理中的工作遺失"
        )
    } else if grace_s == 0 {
        text!(
            "container \"{name}\": terminationGracePeriodSeconds 0: the kubelet runs a preStop hook only with a grace period above 0, so the hook is skipped and the program gets SIGTERM with the kubelet's minimum {term_s}s",
            "container「{name}」：terminationGracePeriodSeconds 0：kubelet 只在寬限期大於 0 時才執行 preStop hook，所以 hook 被略過，程式收到 SIGTERM 時只有 kubelet 最低保留的 {term_s} 秒"
        )
    } else if killed && pre_stop >= grace_s {
        text!(
            "container \"{name}\": {grace_en}s ≤ preStop {pre_stop}s + shutdown {shutdown}: the preStop hook uses the whole grace period, the kubelet abandons it and gives SIGTERM only {term_s}s, and the program needs {shutdown}: SIGKILL (exit 137), in-flight work lost",
            "container「{name}」：{grace_zh} 秒 ≤ preStop {pre_stop} 秒 + 關機 {shutdown}：preStop hook 用掉整個寬限期，kubelet 放棄 hook，只留 {term_s} 秒給 SIGTERM，但程式需要 {shutdown}：SIGKILL（exit 137），處理中的工作遺失"
        )
    } else if killed {
        text!(
            "container \"{name}\": {grace_en}s ≤ preStop {pre_stop}s + shutdown {shutdown}: after the preStop hook only {term_s}s are left for SIGTERM and the program needs {shutdown}: SIGKILL (exit 137), in-flight work lost",
            "container「{name}」：{grace_zh} 秒 ≤ preStop {pre_stop} 秒 + 關機 {shutdown}：preStop hook 之後只剩 {term_s} 秒給 SIGTERM，但程式需要 {shutdown}：SIGKILL（exit 137），處理中的工作遺失"
        )
    } else if pre_stop >= grace_s {
        text!(
            "container \"{name}\": {grace_en}s ≤ preStop {pre_stop}s + shutdown {shutdown}: the preStop hook uses the whole grace period and is cut short; the program gets SIGTERM with the kubelet's minimum {term_s}s",
            "container「{name}」：{grace_zh} 秒 ≤ preStop {pre_stop} 秒 + 關機 {shutdown}：preStop hook 用掉整個寬限期而被中斷；程式收到 SIGTERM 時只剩 kubelet 最低保留的 {term_s} 秒"
        )
    } else {
        text!(
            "container \"{name}\": {grace_en}s ≤ preStop {pre_stop}s + shutdown {shutdown}: no margin — a shutdown any slower than {shutdown} ends in SIGKILL (exit 137)",
            "container「{name}」：{grace_zh} 秒 ≤ preStop {pre_stop} 秒 + 關機 {shutdown}：沒有任何餘裕——關機只要比 {shutdown} 慢一點就會被 SIGKILL（exit 137）"
        )
    };
    let span = grace_written
        .or(container.pre_stop_span)
        .unwrap_or(container.name_span);
    let mut diagnostic = RULE.diagnostic(span, message).with_help(text!(
        "`kubectl describe pod` during `kubectl delete pod` shows `Terminating (lasts …)` and `Termination Grace Period: {grace_s}s`; afterwards the container's last state reads `Exit Code: 137` if it was SIGKILLed",
        "`kubectl delete pod` 期間，`kubectl describe pod` 會顯示 `Terminating (lasts …)` 與 `Termination Grace Period: {grace_s}s`；若被 SIGKILL，之後 container 的 Last State 會是 `Exit Code: 137`"
    ));
    if let Some(edit) = grace_edit(text, workload, fixed_grace) {
        let path = pod_spec_path(workload);
        diagnostic = diagnostic.with_fix(Fix {
            description: text!(
                "set {path}.terminationGracePeriodSeconds to {fixed_grace} (preStop + shutdown, rounded up, + {FIX_MARGIN_SECONDS}s)",
                "把 {path}.terminationGracePeriodSeconds 設為 {fixed_grace}（preStop + 關機時間，無條件進位，再加 {FIX_MARGIN_SECONDS} 秒）"
            ),
            edits: vec![edit],
        });
    }
    diagnostic
}

fn grace_edit(text: &str, workload: &Workload, seconds: u64) -> Option<TextEdit> {
    match workload.pod.termination_grace_period_seconds.span {
        Some(value) => Some(edit::replace(value, seconds.to_string())),
        None => {
            let at = workload.pod.insertion_point()?;
            edit::insert_entry(
                text,
                at,
                &[format!("terminationGracePeriodSeconds: {seconds}")],
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::apply_edits;
    use crate::lint::lint;

    fn fires(text: &str) -> Vec<crate::diagnostic::Diagnostic> {
        lint(text)
            .diagnostics
            .into_iter()
            .filter(|d| d.rule == "PL402")
            .collect()
    }

    fn command(words: &[&str]) -> Handler {
        Handler::Exec {
            command: words.iter().map(|word| word.to_string()).collect(),
        }
    }

    #[test]
    fn a_grace_short_only_by_the_assumed_shutdown_is_info() {
        let pod = |annotations: &str| {
            format!("apiVersion: v1\nkind: Pod\nmetadata:\n  name: api\n  annotations: {{{annotations}}}\nspec:\n  terminationGracePeriodSeconds: 30\n  containers:\n    - name: api\n      image: m:1\n      lifecycle: {{ preStop: {{ sleep: {{ seconds: 29 }} }} }}\n")
        };
        let assumed = fires(&pod(""));
        assert_eq!(assumed.len(), 1, "{assumed:?}");
        assert_eq!(assumed[0].severity, Severity::Info);
        assert!(
            assumed[0].message.en.contains(
                "(assuming a 1s shutdown after SIGTERM: no Scenario or `podlab.dev/shutdown` annotation states it)"
            ),
            "{}",
            assumed[0].message.en
        );
        let stated = fires(&pod(" podlab.dev/shutdown: 1s "));
        assert_eq!(stated.len(), 1, "{stated:?}");
        assert_eq!(stated[0].severity, RULE.severity);
        assert!(fires(&pod(" podlab.dev/shutdown: 500ms ")).is_empty());
    }

    #[test]
    fn pre_stop_time_is_read_from_sleeps() {
        assert_eq!(pre_stop_seconds(&Handler::Sleep { seconds: 10 }), 10);
        assert_eq!(pre_stop_seconds(&Handler::Sleep { seconds: -3 }), 0);
        assert_eq!(pre_stop_seconds(&command(&["sleep", "15"])), 15);
        assert_eq!(pre_stop_seconds(&command(&["/bin/sleep", "2m"])), 120);
        assert_eq!(
            pre_stop_seconds(&command(&[
                "sh",
                "-c",
                "curl -X POST localhost:8000/drain; sleep 20"
            ])),
            20
        );
        assert_eq!(pre_stop_seconds(&command(&["sleep", "1.5"])), 1);
        assert_eq!(pre_stop_seconds(&command(&["sleep", "forever"])), 0);
        assert_eq!(pre_stop_seconds(&command(&["sleep", "1e300"])), 0);
        assert_eq!(pre_stop_seconds(&command(&["/drain.sh"])), 0);
    }

    #[test]
    fn the_examples_behave() {
        let found = fires(RULE.failing);
        assert_eq!(found.len(), 1);
        assert!(fires(RULE.fixed).is_empty());
        let fix = found[0].fix.as_ref().expect("a fix");
        assert_eq!(apply_edits(RULE.failing, &fix.edits), RULE.fixed);
    }

    #[test]
    fn default_grace_is_inserted_into_the_pod_spec() {
        let text = "apiVersion: v1\nkind: Pod\nmetadata: { name: p }\nspec:\n  containers:\n    - name: api\n      image: vllm/vllm-openai:v0.6.3\n      lifecycle: { preStop: { sleep: { seconds: 30 } } }\n";
        let found = fires(text);
        assert_eq!(found.len(), 1);
        assert!(
            found[0].message.en.contains("cut short"),
            "{}",
            found[0].message.en
        );
        let fix = found[0].fix.as_ref().expect("a fix");
        let after = apply_edits(text, &fix.edits);
        assert!(
            after.contains("spec:\n  terminationGracePeriodSeconds: 41\n  containers:"),
            "{after}"
        );
        assert!(fires(&after).is_empty());
    }

    #[test]
    fn zero_grace_skips_the_hook() {
        let text = "apiVersion: v1\nkind: Pod\nmetadata: { name: p }\nspec:\n  terminationGracePeriodSeconds: 0\n  containers:\n    - name: api\n      image: vllm/vllm-openai:v0.6.3\n      lifecycle: { preStop: { sleep: { seconds: 5 } } }\n";
        let found = fires(text);
        assert_eq!(found.len(), 1);
        assert!(found[0].message.en.contains("skipped"));
        let fix = found[0].fix.as_ref().expect("a fix");
        assert!(apply_edits(text, &fix.edits).contains("terminationGracePeriodSeconds: 16\n"));
    }

    #[test]
    fn without_pre_stop_only_a_real_sigkill_counts() {
        let job = |shutdown: &str| {
            format!("apiVersion: batch/v1\nkind: Job\nmetadata: {{ name: train }}\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n        - name: trainer\n          image: nvcr.io/nvidia/pytorch:24.08-py3\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: {{ name: s }}\nspec:\n  workload: [{{ container: trainer, shutdown: {shutdown} }}]\n")
        };
        assert!(fires(&job("30s")).is_empty());
        let found = fires(&job("45s"));
        assert_eq!(found.len(), 1);
        assert!(found[0].message.en.contains("SIGKILL"));
    }
}
