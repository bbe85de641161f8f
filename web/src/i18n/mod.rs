//! The words of the playground page that `podlab_core::i18n::ui` does not
//! already have, in English and Traditional Chinese (Taiwan) side by side.
//!
//! Every string the page shows comes from here or from the core, so switching
//! the language only re-renders; nothing is linted again. The Chinese follows
//! `shared/GLOSSARY-zh-TW.md`. The words of the controls and the share bar
//! are in `controls.rs`, those of the exercise pages in `exercises.rs`, both
//! re-exported here.

mod cluster;
mod controls;
mod exercises;
mod map;

use podlab_core::i18n::{Lang, Text};
use podlab_core::text;

pub use self::cluster::*;
pub use self::controls::*;
pub use self::exercises::*;
pub use self::map::*;
pub use podlab_core::picture::words::*;

/// A [`Text`] as the page's text node in `lang`: `{ i18n::title().html(lang) }`.
/// One out-of-line copy (`{ text.get(lang).to_owned() }` inlined a copy, a
/// conversion and a second copy at each of ~100 places; docs/size.md).
pub trait TextHtml {
    fn html(&self, lang: Lang) -> yew::Html;
}

impl TextHtml for Text {
    #[inline(never)]
    fn html(&self, lang: Lang) -> yew::Html {
        let words = yew::AttrValue::from(self.get(lang).to_owned());
        yew::virtual_dom::VNode::VText(yew::virtual_dom::VText::new(words))
    }
}

pub fn diagnostics_heading() -> Text {
    Text::new("Diagnostics", "診斷")
}

/// The tooltip of a row for a Scenario action that did nothing
/// (`view_model::action_error_rows`).
pub fn action_error_title() -> Text {
    Text::new(
        "the run: a Scenario action that did nothing at its time",
        "模擬結果：Scenario 中在該時間沒有作用的動作",
    )
}

/// Shown while an edit waits for the debounced lint, and until the worker
/// (where the rules run) answers.
pub fn checking() -> Text {
    Text::new("Checking…", "檢查中…")
}

/// Instead of the diagnostics when the worker that lints did not load.
pub fn lint_unavailable() -> Text {
    Text::new(
        "The diagnostics could not be computed: their engine (lint-worker) did not load. Reload the page while online.",
        "無法產生診斷：診斷的引擎（lint-worker）載入失敗。請在連線時重新載入頁面。",
    )
}

/// The label of the per-diagnostic fix button.
pub fn fix_button() -> Text {
    Text::new("Fix", "修正")
}

/// The tooltip of the fix button: what the fix will do.
pub fn apply_fix(description: &Text) -> Text {
    let (en, zh) = (&description.en, &description.zh_tw);
    text!("Apply fix: {en}", "套用修正：{zh}")
}

/// The language toggle names the language it switches *to*, in that language,
/// so a reader who cannot read the current one still finds it.
pub fn switch_language(current: Lang) -> Text {
    match current {
        Lang::En => Text::new("中文", "中文"),
        Lang::ZhTw => Text::new("English", "English"),
    }
}

pub fn language() -> Text {
    Text::new("Language", "語言")
}

/// The page's message when the app itself panicked (a bug in podlab); shown
/// in both languages at once, since the chosen language may be lost with it.
pub fn crashed() -> Text {
    Text::new(
        "podlab stopped because of an internal error. Reload the page; if it happens again, please report it with the text you were editing.",
        "podlab 發生內部錯誤而停止。請重新整理頁面；若再次發生，請附上你正在編輯的內容回報問題。",
    )
}

// ------------------------------------------------------------ simulation

/// Shown while an edit waits for the debounced simulation.
pub fn simulating() -> Text {
    Text::new("Simulating…", "模擬中…")
}

/// Shown above the timeline while the requests and the HPA's replay of a
/// change are computed after its pods (issue 28 item 4): the bands drawn
/// meanwhile are the previous text's. `traffic`: the Scenario sends
/// requests; `autoscaled`: an HPA scales a workload.
pub fn bands_updating(traffic: bool, autoscaled: bool) -> Text {
    match (traffic, autoscaled) {
        (true, true) => Text::new(
            "Computing the requests and the HPA's decisions… (the bands below are the previous run's)",
            "正在計算請求與 HPA 的擴縮決策…（下方圖帶仍是上一次的結果）",
        ),
        (false, true) => Text::new(
            "Computing the HPA's decisions… (the band below is the previous run's)",
            "正在計算 HPA 的擴縮決策…（下方圖帶仍是上一次的結果）",
        ),
        _ => Text::new(
            "Computing the requests… (the band below is the previous run's)",
            "正在計算請求…（下方圖帶仍是上一次的結果）",
        ),
    }
}

pub fn pause() -> Text {
    Text::new("Pause", "暫停")
}

/// The tooltip and accessible name of a lane's pod button.
/// The label of a long, scrolling list of lanes.
pub fn pod_count(pods: usize) -> Text {
    text!(
        "{pods} pods, one lane each (scroll the list)",
        "{pods} 個 Pod，每個一條時間軸（可捲動清單）"
    )
}

/// Above the kubectl panes: `kubectl at 12:00`.
pub fn kubectl_at(at: &str) -> Text {
    text!("kubectl at {at}", "{at} 時的 kubectl")
}

/// The pod selector of the kubectl panes.
pub fn pod() -> Text {
    Text::new("Pod", "Pod")
}

pub fn diagnosis() -> Text {
    Text::new("Diagnosis", "診斷")
}

pub fn symptom() -> Text {
    Text::new("Symptom", "症狀")
}

pub fn root_cause() -> Text {
    Text::new("Most likely root cause", "最可能的根因")
}

pub fn evidence() -> Text {
    Text::new("Evidence", "證據")
}

pub fn next_command() -> Text {
    Text::new("Next command", "下一個指令")
}

pub fn fix() -> Text {
    Text::new("Fix", "修正")
}

/// The diagnosis card's button that applies its rule's fix to the text.
pub fn apply_the_fix() -> Text {
    Text::new("Apply the fix", "套用修正")
}

/// Before the note of what an applied fix changed.
pub fn applied() -> Text {
    Text::new("Applied: ", "已套用：")
}

/// The note's button that puts the text back as it was before the fix.
pub fn undo() -> Text {
    Text::new("Undo", "復原")
}

/// A fix that added lines: "+6 lines: startupProbe".
pub fn lines_added(lines: usize, key: &str) -> Text {
    text!("+{lines} lines: {key}", "新增 {lines} 行：{key}")
}

/// A fix that rewrote lines.
pub fn lines_rewritten(lines: usize) -> Text {
    text!("{lines} lines rewritten", "改寫了 {lines} 行")
}

/// The diagnosis card of a pod that is fine at the cursor.
pub fn healthy(pod: &str) -> Text {
    text!(
        "Nothing wrong with {pod} at this time.",
        "{pod} 在這個時間點沒有問題。"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    use podlab_core::explain::timeline::{MarkerKind, State};
    use podlab_core::manifest::model::ProbeKind;

    #[test]
    fn markers_name_the_probe_field_in_chinese() {
        let text = marker(MarkerKind::ProbeFailure(ProbeKind::Liveness));
        assert_eq!(text.en, "Liveness probe failed");
        assert_eq!(text.zh_tw, "livenessProbe 失敗");
        assert_eq!(marker(MarkerKind::Restart(3)).zh_tw, "第 3 次重啟");
    }

    #[test]
    fn apply_fix_keeps_each_language_with_its_own_description() {
        let description = Text::new("add a startupProbe", "加上 startupProbe");
        let tooltip = apply_fix(&description);
        assert_eq!(tooltip.en, "Apply fix: add a startupProbe");
        assert_eq!(tooltip.zh_tw, "套用修正：加上 startupProbe");
    }

    #[test]
    fn every_page_word_exists_in_both_languages() {
        for text in [
            title(),
            tagline(),
            editor_label(),
            diagnostics_heading(),
            checking(),
            lint_unavailable(),
            fix_button(),
            language(),
            crashed(),
            switch_language(Lang::En),
            switch_language(Lang::ZhTw),
            simulation_heading(),
            simulating(),
            bands_updating(true, true),
            bands_updating(false, true),
            bands_updating(true, false),
            timeline_label(),
            play(),
            pause(),
            speed(),
            simulated_time(),
            time_of("1:00", "15:00"),
            no_pods(),
            select_pod("p"),
            legend(),
            memory(),
            memory_limit("8Gi"),
            no_memory_limit(),
            limit_line(),
            kubectl_at("1:00"),
            pod(),
            diagnosis(),
            symptom(),
            root_cause(),
            evidence(),
            next_command(),
            fix(),
            healthy("p"),
            restart_marker(),
        ]
        .into_iter()
        .chain(State::ALL.map(state))
        .chain(
            [
                MarkerKind::ProbeFailure(ProbeKind::Liveness),
                MarkerKind::ProbeFailure(ProbeKind::Readiness),
                MarkerKind::ProbeFailure(ProbeKind::Startup),
                MarkerKind::Killing,
                MarkerKind::Restart(2),
                MarkerKind::OOMKilled,
            ]
            .map(marker),
        ) {
            assert!(!text.en.is_empty() && !text.zh_tw.is_empty(), "{text:?}");
        }
    }
}

// ---------------------------------------------------------------- editor
// Appended after the tests, rather than above them, so that this section
// and other work on the words above merge without conflicts.

/// Under the editor's label, and the textarea's description: Tab indents
/// inside the editor, so keyboard users need the way out spelt out.
#[allow(clippy::items_after_test_module)]
pub fn editor_hint() -> Text {
    Text::new(
        "Tab indents, Shift+Tab outdents, once you have typed or clicked in the editor (Tab right after reaching it moves on). To leave the editor with the keyboard, press Esc, then Tab.",
        "在編輯器裡打過字或點過之後，Tab 增加縮排，Shift+Tab 減少縮排（剛用 Tab 移到編輯器時，再按 Tab 會直接移到下一個項目）。要用鍵盤離開編輯器，請先按 Esc，再按 Tab。",
    )
}

/// One problem as a gutter marker words it: "error PL001: message".
#[allow(clippy::items_after_test_module)]
pub fn problem(severity: podlab_core::diagnostic::Severity, rule: &str, message: &Text) -> Text {
    let Text {
        en: severity_en,
        zh_tw: severity_zh,
    } = severity.word();
    let (en, zh) = (&message.en, &message.zh_tw);
    text!("{severity_en} {rule}: {en}", "{severity_zh} {rule}：{zh}")
}

/// A gutter marker's accessible text: the line and its problems.
#[allow(clippy::items_after_test_module)]
pub fn line_problems(line: usize, problems: &[Text]) -> Text {
    let en = problems
        .iter()
        .map(|problem| problem.en.as_str())
        .collect::<Vec<_>>()
        .join("; ");
    let zh = problems
        .iter()
        .map(|problem| problem.zh_tw.as_str())
        .collect::<Vec<_>>()
        .join("；");
    text!("Line {line}: {en}", "第 {line} 行：{zh}")
}

// ---- traffic (issue 15) ----------------------------------------------------

pub fn traffic_rate() -> Text {
    Text::new("requests/s sent", "每秒送出的請求")
}

pub fn traffic_capacity() -> Text {
    Text::new("capacity of the Ready replicas", "就緒 replica 的容量")
}

pub fn traffic_target(micros: u64) -> Text {
    let target = podlab_core::manifest::duration::latency(micros);
    text!("P99 target {target}", "P99 目標 {target}")
}

pub fn traffic_failed() -> Text {
    Text::new("failed requests", "失敗的請求")
}

pub fn failed_requests(count: u64, cause: podlab_core::sim::traffic::Failure) -> Text {
    let word = podlab_core::explain::traffic::failure_word(cause);
    let (en, zh) = (&word.en, &word.zh_tw);
    text!("{count} failed, mostly {en}", "{count} 個失敗，主要是{zh}")
}

pub fn replicas_desired() -> Text {
    Text::new("desired (spec.replicas)", "期望（spec.replicas）")
}

pub fn replicas_current() -> Text {
    Text::new("Pods", "Pod 數")
}

pub fn replicas_ready() -> Text {
    Text::new("Ready", "Ready")
}

pub fn replicas_decision() -> Text {
    Text::new("HPA decision", "HPA 決定")
}

/// The band's label: `HPA chat-api: 1–4 replicas`.
pub fn replicas_heading(chart: &podlab_core::explain::replicas::ReplicasChart) -> Text {
    let (name, min, max) = (&chart.autoscaler, chart.min_replicas, chart.max_replicas);
    text!(
        "HPA {name}: {min}–{max} replicas",
        "HPA {name}：{min}–{max} 個 replica"
    )
}

/// A decision mark's title: `5:30 1 → 2 replicas: pods metric … above target`.
/// `at` is the decision's time as the page's clock writes it.
pub fn replicas_decision_title(
    at: &str,
    decision: &podlab_core::explain::replicas::Decision,
) -> Text {
    let (from, to, reason) = (decision.from, decision.to, &decision.reason);
    text!(
        "{at} the HPA scaled {from} → {to} replicas: {reason}",
        "{at} HPA 把 replica 從 {from} 調成 {to}：{reason}"
    )
}

/// What a screen reader hears for the replicas band; `list` names the
/// decisions (`5:30 1→2, 6:00 2→3`).
pub fn replicas_summary(count: usize, list: &str) -> Text {
    text!(
        "Replicas: {count} HPA decisions ({list})",
        "Replica：HPA 做了 {count} 次決定（{list}）"
    )
}

/// What a screen reader hears for the band.
pub fn traffic_summary(chart: &podlab_core::explain::traffic::Chart) -> Text {
    let peak = chart.buckets.iter().map(|b| b.rate).max().unwrap_or(0) / 1000;
    let worst = chart
        .buckets
        .iter()
        .filter_map(|b| b.p99)
        .max()
        .map_or_else(|| "-".to_string(), podlab_core::manifest::duration::latency);
    let failed: u64 = chart.buckets.iter().flat_map(|b| b.failed).sum();
    text!(
        "Requests: up to {peak} per second; worst P99 {worst}; {failed} failed",
        "請求：每秒最多 {peak} 個；最差 P99 {worst}；{failed} 個失敗"
    )
}

pub fn rate() -> Text {
    Text::new("request rate", "請求速率")
}

pub fn burst() -> Text {
    Text::new("burst rate", "尖峰速率")
}

pub fn concurrency() -> Text {
    Text::new("concurrency per replica", "每個 replica 的並行數")
}

pub fn service_latency() -> Text {
    Text::new("service latency", "服務延遲")
}

/// The autoscaling chain's list, and its fixes' (screen readers).
pub fn traffic_chain() -> Text {
    Text::new("How it came about", "來龍去脈")
}

pub fn traffic_fixes() -> Text {
    Text::new("Fixes, with their cost", "修法與代價")
}

/// The traffic finding after the numbers at the cursor.
pub fn traffic_finding(symptom: &Text, cause: &Text) -> Text {
    let (se, sz, ce, cz) = (&symptom.en, &symptom.zh_tw, &cause.en, &cause.zh_tw);
    text!(" · {se}: {ce}", " · {sz}：{cz}")
}

// ------------------------------------------------------------ terminal

pub fn terminal_label() -> Text {
    Text::new("kubectl terminal", "kubectl 終端機")
}

/// Before the first line: what it runs against and how to use it.
pub fn terminal_hint(clock: &str) -> Text {
    text!(
        "Type kubectl's own commands; they run against the simulated cluster at {clock} (the timeline's cursor). Tab completes names, ↑/↓ recall lines, Ctrl+L clears. Try `kubectl describe pod` then Tab.",
        "輸入 kubectl 指令，會在模擬叢集的 {clock}（時間軸游標的位置）執行。Tab 補齊名稱，↑/↓ 叫回之前的指令，Ctrl+L 清除畫面。試試 `kubectl describe pod` 再按 Tab。"
    )
}

pub fn terminal_time() -> Text {
    Text::new(
        "The simulated time the next line runs at",
        "下一行指令執行時的模擬時間",
    )
}

pub fn terminal_input() -> Text {
    Text::new("Command line", "指令列")
}

/// Under the terminal's line: the keys, and the way out (issue 30).
pub fn terminal_keys() -> Text {
    Text::new(
        "Tab completes. To leave the terminal with the keyboard, press Esc, then Tab.",
        "Tab 補齊。要用鍵盤離開終端機，請先按 Esc，再按 Tab。",
    )
}

pub fn terminal_completions() -> Text {
    Text::new("Completions", "補齊建議")
}

/// The kubectl section's switch between the fixed panes and the terminal.
pub fn show_panes() -> Text {
    Text::new("Panes", "固定窗格")
}

pub fn show_terminal() -> Text {
    Text::new("Terminal", "終端機")
}
