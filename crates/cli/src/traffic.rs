//! The traffic part of `podlab simulate`: the `traffic` object of the JSON
//! output, the latency table of the text output (issue 15) and what went
//! wrong with the requests, with its autoscaling chain (issue 16 item 5).

use podlab_core::explain::traffic::TrafficFinding;
use podlab_core::i18n::Lang;
use podlab_core::sim::traffic::{Failure, Stats, TrafficRun};
use podlab_core::text;
use serde_json::{json, Map, Value};

/// `{"window": 60, "windows": [...], "total": {...}}`: windows of `window`
/// seconds ending by `at` (ms), each keyed by its start (s); `total` over
/// every request of the run up to `at`. Seconds throughout.
pub fn json(traffic: &TrafficRun, at: u64, window: u64) -> Value {
    let step = window.max(1) * 1000;
    let mut windows = Vec::new();
    let mut from = 0;
    while from < at {
        let until = (from + step).min(at);
        let mut item = stats_json(&traffic.stats(from, until));
        item["at"] = json!(from / 1000);
        windows.push(item);
        from += step;
    }
    let mut output = json!({
        "window": window.max(1),
        "windows": windows,
        "total": stats_json(&traffic.stats(0, at)),
    });
    if let Some(service) = &traffic.service {
        output["service"] = json!(service);
    }
    output
}

fn stats_json(stats: &Stats) -> Value {
    let mut failed = Map::new();
    for failure in Failure::ALL {
        let count = stats.failed(failure);
        if count > 0 {
            failed.insert(failure.key().into(), json!(count));
        }
    }
    let seconds = |micros: Option<u64>| micros.map(|m| m as f64 / 1e6);
    json!({
        "arrived": stats.arrived, "served": stats.served, "failed": failed,
        "p50": seconds(stats.p50), "p95": seconds(stats.p95), "p99": seconds(stats.p99),
        "queueMax": stats.queue_max,
    })
}

/// A minute a row: the rate sent, what arrived, was served and failed, and
/// the latency percentiles of what was served, in `lang`.
pub fn table(traffic: &TrafficRun, at: u64, lang: Lang) -> String {
    let title = text!(
        "Requests (Scenario traffic), per minute:",
        "請求（Scenario traffic），每分鐘："
    );
    let head = [
        text!("FROM", "起"),
        text!("RATE/s", "速率/秒"),
        text!("ARRIVED", "到達"),
        text!("SERVED", "完成"),
        text!("FAILED", "失敗"),
        text!("P50", "P50"),
        text!("P95", "P95"),
        text!("P99", "P99"),
    ];
    let mut rows: Vec<Vec<String>> = vec![head.iter().map(|h| h.get(lang).to_string()).collect()];
    let mut from = 0;
    let mut push = |label: String, stats: &Stats, rate: String| {
        rows.push(vec![
            label,
            rate,
            stats.arrived.to_string(),
            stats.served.to_string(),
            failed_words(stats, lang),
            latency(stats.p50),
            latency(stats.p95),
            latency(stats.p99),
        ]);
    };
    while from < at {
        let until = (from + 60_000).min(at);
        let rate = traffic.rate_at(from);
        push(
            format!("{}m", from / 60_000),
            &traffic.stats(from, until),
            decimal(rate),
        );
        from += 60_000;
    }
    push(
        text!("total", "全部").get(lang).to_string(),
        &traffic.stats(0, at),
        String::new(),
    );
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = format!("{}\n", title.get(lang));
    for row in &rows {
        let line: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(cell, width)| format!("{cell}{}", " ".repeat(width - cell.chars().count())))
            .collect();
        out.push_str(line.join("   ").trim_end());
        out.push('\n');
    }
    out
}

fn failed_words(stats: &Stats, lang: Lang) -> String {
    let parts: Vec<String> = Failure::ALL
        .iter()
        .filter(|&&f| stats.failed(f) > 0)
        .map(|&f| format!("{} {}", stats.failed(f), failure_word(f).get(lang)))
        .collect();
    if parts.is_empty() {
        "0".into()
    } else {
        parts.join(", ")
    }
}

/// What each cause is called in the table.
pub fn failure_word(failure: Failure) -> podlab_core::i18n::Text {
    match failure {
        Failure::NotReady => text!("not ready", "尚未就緒"),
        Failure::Terminating => text!("terminating", "終止中"),
        Failure::QueueFull => text!("queue full", "佇列已滿"),
        Failure::Timeout => text!("timeout", "逾時"),
        Failure::NoEndpoints => text!("no endpoints", "沒有 endpoint"),
        Failure::Crashed => text!("crashed", "容器崩潰"),
        Failure::InterceptorWait => text!("interceptor wait (502)", "interceptor 等候逾時（502）"),
        Failure::ResponseHeader => text!("response header (502)", "回應標頭逾時（502）"),
    }
}

/// µs as `80ms` or `1.25s`; `-` for none.
fn latency(micros: Option<u64>) -> String {
    match micros {
        None => "-".into(),
        Some(m) if m < 1_000_000 => format!("{}ms", m / 1000),
        Some(m) => format!("{}s", decimal(m / 1000)),
    }
}

/// A value × 1000 written with up to two decimals.
fn decimal(milli: u64) -> String {
    let whole = milli / 1000;
    let hundredths = (milli % 1000) / 10;
    match hundredths {
        0 => whole.to_string(),
        h if h % 10 == 0 => format!("{whole}.{}", h / 10),
        h => format!("{whole}.{h:02}"),
    }
}

/// What went wrong with the requests (`explain::traffic`), in `lang`: the
/// symptom, its cause and evidence, then how it came about (the
/// autoscaling chain, numbered, each link at its `m:ss`) and the fixes
/// with their cost (or the one general fix).
pub fn finding(finding: &TrafficFinding, lang: Lang) -> String {
    let mut out = format!(
        "{}\n  {}\n",
        finding.symptom.get(lang),
        finding.root_cause.get(lang)
    );
    for line in &finding.evidence {
        out.push_str(&format!("  {}\n", line.get(lang)));
    }
    if !finding.chain.is_empty() {
        out.push_str(&format!(
            "{}\n",
            text!("How it came about:", "來龍去脈：").get(lang)
        ));
        for (index, step) in finding.chain.iter().enumerate() {
            let seconds = step.at / 1000;
            out.push_str(&format!(
                "  {}. {}:{:02}  {}\n",
                index + 1,
                seconds / 60,
                seconds % 60,
                step.text.get(lang)
            ));
        }
    }
    if finding.fixes.is_empty() {
        out.push_str(&format!(
            "{}: {}\n",
            podlab_core::i18n::ui::fix().get(lang),
            finding.fix.get(lang)
        ));
    } else {
        out.push_str(&format!(
            "{}\n",
            text!("Fixes, with their cost:", "修法與代價：").get(lang)
        ));
        for fix in &finding.fixes {
            out.push_str(&format!("  - {}\n", fix.get(lang)));
        }
    }
    out
}
