//! The chain behind an overload episode of an autoscaled workload (issue 16
//! item 5): the rate step that started it, the HPA passes that reacted (or
//! the readings that kept it still), each new pod's cold start, when P99
//! came back under the target; then the fixes that apply to this run, with
//! their cost. Every number is read from the `Run`: the Scenario's rate
//! steps and the capacity (`TrafficRun`), the passes (`AutoscalerRun`), the
//! pods' creation, sandbox, start, load and Ready times (`PodRun`); never
//! from a text (docs/autoscaling.md, "The chain behind a P99 peak").

use crate::i18n::Text;
use crate::manifest::duration::Millis;
use crate::manifest::hpa::MetricSource;
use crate::manifest::model::ProbeKind;
use crate::sim::hpa::{AutoscalerRun, MetricValue, Pass};
use crate::sim::traffic::TrafficRun;
use crate::sim::{pod_ready_intervals, PodRun, Run};
use crate::text;

use super::{clock, per_second};

/// One link of the chain: when it happened and what.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub at: Millis,
    pub text: Text,
}

pub(super) struct Chain {
    pub steps: Vec<Step>,
    pub fixes: Vec<Text>,
}

/// Rescales listed at most; a longer story ends with the last one listed.
const MAX_RESCALES_SHOWN: usize = 5;

/// The chain of the overload episode starting at `from`, P99 back under the
/// target at `drained` (`None`: still above it when the run ended), when an
/// HPA scales the workload the requests reach.
pub(super) fn chain(
    traffic: &TrafficRun,
    run: &Run,
    from: Millis,
    drained: Option<Millis>,
) -> Option<Chain> {
    // The first HPA whose target owns a pod the Service reaches, and the
    // container that serves (`PodLoad::container`).
    let (autoscaler, target_pod, serving) = run.autoscalers.iter().find_map(|autoscaler| {
        traffic.pods.iter().enumerate().find_map(|(k, &p)| {
            let pod = run.pods.get(p)?;
            let c = traffic.per_pod.get(k).map_or(0, |load| load.container);
            (pod.owner == autoscaler.target).then_some((autoscaler, pod, pod.containers.get(c)?))
        })
    })?;
    let end = drained.unwrap_or(run.end);
    let per_replica = serving.program.serve.capacity_milli_rps();
    let peak = (from..end)
        .step_by(1000)
        .map(|t| traffic.rate_at(t))
        .max()
        .unwrap_or(0);
    let mut steps = Vec::new();
    // The Scenario's last rise at or before the episode.
    let rise = traffic
        .rate
        .windows(2)
        .rev()
        .find(|pair| pair[1].at <= from && pair[1].milli_rps > pair[0].milli_rps)
        .map(|pair| (pair[1].at, pair[0].milli_rps, pair[1].milli_rps));
    if let Some((at, before, after)) = rise {
        let (before, after, capacity) = (
            per_second(before),
            per_second(after),
            per_second(traffic.capacity_at(at)),
        );
        let ready = run
            .pods
            .iter()
            .filter(|pod| pod.owner == autoscaler.target && pod.ready_at(at))
            .count();
        let noun = replicas(ready);
        let mut text = text!(
            "the rate rose from {before} to {after} requests/s; {ready} ready {noun} served at most {capacity}",
            "請求速率從每秒 {before} 個升到 {after} 個；{ready} 個就緒的 replica 每秒最多只能服務 {capacity} 個"
        );
        if peak > traffic.rate_at(at) {
            let peak = per_second(peak);
            let (te, tz) = (&text.en, &text.zh_tw);
            text = text!(
                "{te}, and the rate kept climbing to {peak}",
                "{tz}，之後速率還一路升到 {peak}"
            );
        }
        steps.push(Step { at, text });
    }
    let since = rise.map_or(0, |(at, _, _)| at);
    let passes: Vec<&Pass> = autoscaler
        .syncs
        .iter()
        .filter(|pass| pass.at > since && pass.at <= end)
        .collect();
    let ups: Vec<&Pass> = passes
        .iter()
        .copied()
        .filter(|pass| pass.rescaled && pass.desired_replicas > pass.current_replicas)
        .collect();
    let max = autoscaler.max_replicas;
    for (index, pass) in ups.iter().take(MAX_RESCALES_SHOWN).enumerate() {
        let (seen, replicas) = (
            super::super::hpa::targets(autoscaler, Some(pass)),
            pass.desired_replicas,
        );
        let mut text = if index == 0 {
            let reason = pass.reason.as_deref().unwrap_or_default();
            text!(
                "the HPA saw {seen} and asked for {replicas} replicas ({reason})",
                "HPA 看到 {seen}，要求 {replicas} 個 replica（{reason}）"
            )
        } else {
            text!(
                "the HPA saw {seen} and asked for {replicas} replicas",
                "HPA 看到 {seen}，要求 {replicas} 個 replica"
            )
        };
        if limited_by_max(pass) {
            let (te, tz) = (&text.en, &text.zh_tw);
            text = text!(
                "{te}: capped by maxReplicas {max}",
                "{tz}：被 maxReplicas {max} 擋住"
            );
        }
        steps.push(Step { at: pass.at, text });
    }
    // Capped without a rescale: the HPA wanted more than maxReplicas.
    let capped = passes
        .iter()
        .copied()
        .find(|pass| !pass.rescaled && pass.at >= from && limited_by_max(pass));
    if let Some(pass) = capped.filter(|_| !ups.iter().any(|up| limited_by_max(up))) {
        let seen = super::super::hpa::targets(autoscaler, Some(pass));
        steps.push(Step {
            at: pass.at,
            text: text!(
                "the HPA saw {seen} and wanted more replicas: maxReplicas {max} capped it",
                "HPA 看到 {seen}，想要更多 replica：被 maxReplicas {max} 擋住"
            ),
        });
    }
    let still = if ups.is_empty() && capped.is_none() {
        // The strongest reading of the episode, as `get hpa` shows it.
        passes
            .iter()
            .copied()
            .filter(|pass| pass.at >= from)
            .max_by_key(|pass| reading(pass))
    } else {
        None
    };
    if let Some(strongest) = still {
        let seen = super::super::hpa::targets(autoscaler, Some(strongest));
        let kept = strongest.current_replicas;
        let noun = replicas(usize::try_from(kept).unwrap_or(0));
        let (a, b) = (clock(from), clock(end));
        let text = if kept >= max {
            text!(
                "the HPA was already at maxReplicas {max} ({seen}): it could add no replica",
                "HPA 已經在 maxReplicas {max}（{seen}）：無法再加 replica"
            )
        } else {
            text!(
                "between {a} and {b} the HPA saw at most {seen} and kept {kept} {noun}",
                "{a} 到 {b} 之間，HPA 看到的最高值是 {seen}，維持 {kept} 個 replica"
            )
        };
        // Told where the HPA's stillness began: its first pass in the episode.
        let at = passes
            .iter()
            .map(|pass| pass.at)
            .find(|&at| at >= from)
            .unwrap_or(strongest.at);
        steps.push(Step { at, text });
    }
    // The pods the scale-out created, and their cold starts.
    let starts: Vec<ColdStart> = match ups.first() {
        Some(first) => run
            .pods
            .iter()
            .filter(|pod| {
                pod.owner == autoscaler.target && pod.created >= first.at && pod.created <= end
            })
            .filter_map(|pod| cold_start(pod, serving_index(traffic, run, pod)))
            .collect(),
        None => Vec::new(),
    };
    if let Some(first_ready) = starts.iter().map(|start| start.ready).min() {
        steps.push(Step {
            at: first_ready,
            text: cold_start_text(&starts),
        });
    }
    match drained {
        Some(at) => {
            let target = super::latency(traffic.target * 1000);
            steps.push(Step {
                at,
                text: text!(
                    "the queue drained: P99 back under {target}, no more failures",
                    "佇列消化完：P99 回到 {target} 以下，不再有失敗"
                ),
            });
        }
        None => steps.push(Step {
            at: run.end,
            text: text!(
                "the run ended with P99 still above the target",
                "模擬結束時 P99 仍高於目標"
            ),
        }),
    }
    crate::sort::sort_by_key(&mut steps, |step| step.at);
    let fixes = fixes(
        autoscaler,
        target_pod,
        &starts,
        ups.is_empty(),
        per_replica,
        peak,
        still,
    );
    Some(Chain { steps, fixes })
}

fn replicas(count: usize) -> &'static str {
    if count == 1 {
        "replica"
    } else {
        "replicas"
    }
}

/// `ScalingLimited` set by this pass because the count hit `maxReplicas`.
fn limited_by_max(pass: &Pass) -> bool {
    pass.conditions
        .iter()
        .any(|c| c.kind == "ScalingLimited" && c.status && c.reason == "TooManyReplicas")
}

/// A pass's first metric, to compare passes: a utilization in %, an
/// average in milli-units.
fn reading(pass: &Pass) -> i64 {
    match pass.metrics.iter().flatten().next() {
        Some(MetricValue::Utilization { percent, .. }) => i64::from(*percent),
        Some(MetricValue::AverageValue { milli }) => *milli,
        None => i64::MIN,
    }
}

fn serving_index(traffic: &TrafficRun, run: &Run, pod: &PodRun) -> usize {
    traffic
        .pods
        .iter()
        .position(|&p| run.pods.get(p).is_some_and(|known| known.uid == pod.uid))
        .and_then(|k| traffic.per_pod.get(k))
        .map_or(0, |load| load.container)
}

/// A new pod from creation to Ready, in whole seconds of the clock (each
/// instant truncated to its second, so the parts add up to the total).
struct ColdStart {
    ready: Millis,
    /// Created → sandbox ready (scheduling, the sandbox).
    start: u64,
    /// Sandbox → container started (the image pull, waiting included).
    pull: u64,
    /// Container started → the program listening (`startup`).
    load: u64,
    /// Loaded → Ready: the probe's next tick found it.
    probes: u64,
    /// The probe that gated it: `startupProbe` or `readinessProbe`, its
    /// `periodSeconds` and `failureThreshold`.
    probe: Option<(&'static str, i64, i64)>,
}

impl ColdStart {
    fn total(&self) -> u64 {
        self.start + self.pull + self.load + self.probes
    }
}

fn cold_start(pod: &PodRun, c: usize) -> Option<ColdStart> {
    let ready = pod_ready_intervals(pod)
        .into_iter()
        .map(|(from, _)| from)
        .find(|&from| from >= pod.created)?;
    let container = pod.containers.get(c)?;
    let instance = container
        .instances
        .iter()
        .rev()
        .find(|instance| instance.started <= ready)?;
    let loaded = instance
        .started
        .saturating_add(container.program.startup.value)
        .min(ready);
    let sandbox = pod
        .sandbox
        .unwrap_or(instance.started)
        .min(instance.started);
    let second = |ms: Millis| ms / 1000;
    let spec = pod
        .spec
        .containers
        .iter()
        .find(|spec| spec.name == container.name);
    let probe = spec.and_then(|spec| {
        let probe = spec.startup.as_ref().or(spec.readiness.as_ref())?;
        let name = match probe.kind {
            ProbeKind::Startup => "startupProbe",
            _ => "readinessProbe",
        };
        Some((
            name,
            probe.period_seconds.value,
            probe.failure_threshold.value,
        ))
    });
    Some(ColdStart {
        ready,
        start: second(sandbox).saturating_sub(second(pod.created)),
        pull: second(instance.started).saturating_sub(second(sandbox)),
        load: second(loaded).saturating_sub(second(instance.started)),
        probes: second(ready).saturating_sub(second(loaded)),
        probe,
    })
}

/// `2 min 40 s`, `8 s`.
fn seconds(s: u64) -> Text {
    let (minutes, rest) = (s / 60, s % 60);
    match (minutes, rest) {
        (0, _) => text!("{rest} s", "{rest} 秒"),
        (_, 0) => text!("{minutes} min", "{minutes} 分"),
        _ => text!("{minutes} min {rest} s", "{minutes} 分 {rest} 秒"),
    }
}

/// One value, or `min–max` when the pods differ.
fn range(starts: &[ColdStart], part: impl Fn(&ColdStart) -> u64) -> Text {
    let low = starts.iter().map(&part).min().unwrap_or(0);
    let high = starts.iter().map(&part).max().unwrap_or(0);
    if low == high {
        seconds(low)
    } else {
        let (low, high) = (seconds(low), seconds(high));
        let (le, he, lz, hz) = (&low.en, &high.en, &low.zh_tw, &high.zh_tw);
        text!("{le}–{he}", "{lz}–{hz}")
    }
}

fn cold_start_text(starts: &[ColdStart]) -> Text {
    let total = range(starts, ColdStart::total);
    let mut parts: Vec<Text> = Vec::new();
    let mut part = |value: fn(&ColdStart) -> u64, words: Text| {
        if starts.iter().any(|start| value(start) > 0) {
            let amount = range(starts, value);
            let (ae, az, we, wz) = (&amount.en, &amount.zh_tw, &words.en, &words.zh_tw);
            parts.push(text!("{ae} {we}", "{wz}{az}"));
        }
    };
    part(|s| s.start, text!("scheduling and starting", "排程與啟動 "));
    part(|s| s.pull, text!("pulling the image", "拉取映像 "));
    part(|s| s.load, text!("loading the model", "載入模型 "));
    let probe = starts.iter().find_map(|start| start.probe);
    if let Some((name, period, _)) = probe {
        part(
            |s| s.probes,
            text!(
                "until the {name} (periodSeconds: {period}) passed",
                "等 {name}（periodSeconds: {period}）通過 "
            ),
        );
    }
    let en: Vec<&str> = parts.iter().map(|p| p.en.as_str()).collect();
    let zh: Vec<&str> = parts.iter().map(|p| p.zh_tw.as_str()).collect();
    let (en, zh) = (en.join(", "), zh.join("、"));
    let (te, tz) = (&total.en, &total.zh_tw);
    if starts.len() == 1 {
        text!(
            "the new pod was Ready {te} after its creation: {en}",
            "新 Pod 建立後過了 {tz} 才 Ready：{zh}"
        )
    } else {
        let n = starts.len();
        text!(
            "the first of {n} new pods was Ready; each took {te} from creation to Ready: {en}",
            "{n} 個新 Pod 中第一個變成 Ready；每個從建立到 Ready 都花了 {tz}：{zh}"
        )
    }
}

/// The fixes that apply to this run, most telling first, each with the
/// number it changes and its cost.
fn fixes(
    autoscaler: &AutoscalerRun,
    pod: &PodRun,
    starts: &[ColdStart],
    never_scaled: bool,
    per_replica: u64,
    peak: u64,
    still: Option<&Pass>,
) -> Vec<Text> {
    let mut fixes = Vec::new();
    let mut metric_fix = None;
    // A resource metric that never moved: the load is not on that chip.
    let resource = autoscaler
        .spec
        .metrics
        .iter()
        .find_map(|metric| match &metric.source {
            MetricSource::Resource { name, .. } => Some(name.as_str()),
            _ => None,
        });
    if let Some(name) = resource {
        let seen = still.map(|pass| super::super::hpa::targets(autoscaler, Some(pass)));
        let (se, sz) = match &seen {
            Some(seen) => (format!(" ({seen})"), format!("（{seen}）")),
            None => Default::default(),
        };
        metric_fix = Some(text!(
            "scale on the load instead of {name}{se}: a Pods metric such as `requests_in_queue` or `requests_per_second` (prometheus-adapter or KEDA); cost: running that metrics pipeline",
            "改依負載擴縮，而不是 {name}{sz}：使用 Pods 指標，例如 `requests_in_queue` 或 `requests_per_second`（prometheus-adapter 或 KEDA）；代價：要維運這條指標管線"
        ));
    }
    // It never scaled: the metric is the first link to change.
    if never_scaled {
        fixes.extend(metric_fix.take());
    }
    // A warm pool large enough for the peak.
    if per_replica > 0 {
        // Each replica at most 80 % busy (podlab's choice): at 100 % the
        // queue of a random arrival stream never drains, and on the two
        // exercises' timelines (docs/autoscaling.md) the count this gives
        // meets the 1 s P99 where one fewer does not.
        let needed = peak
            .saturating_mul(5)
            .div_ceil(per_replica.saturating_mul(4));
        let needed = i64::try_from(needed).unwrap_or(i64::MAX);
        let min = i64::from(autoscaler.min_replicas);
        let max = i64::from(autoscaler.max_replicas);
        if needed > max {
            // The ceiling first: no warm pool helps above it.
            let more = needed - max;
            let noun = replicas(usize::try_from(more).unwrap_or(0));
            fixes.push(text!(
                "raise `maxReplicas` from {max} to at least {needed}: {max} replicas cannot serve the peak; cost: the GPUs of {more} more {noun} at the peak",
                "把 `maxReplicas` 從 {max} 提高到至少 {needed}：{max} 個 replica 撐不住尖峰；代價：尖峰時多 {more} 個 replica 的 GPU"
            ));
        }
        if needed > min {
            let extra = needed - min;
            let gpus = pod_gpus(pod);
            let capacity = per_second(per_replica.saturating_mul(needed as u64));
            let (one, peak) = (per_second(per_replica), per_second(peak));
            let cost = if gpus > 0 {
                let held = extra.saturating_mul(gpus);
                let noun = if held == 1 { "GPU" } else { "GPUs" };
                text!(
                    "{held} {noun} held idle outside the peak",
                    "尖峰以外閒置的 {held} 張 GPU"
                )
            } else {
                let noun = replicas(usize::try_from(extra).unwrap_or(0));
                text!(
                    "{extra} more {noun} running idle outside the peak",
                    "尖峰以外多 {extra} 個閒置的 replica"
                )
            };
            let (ce, cz) = (&cost.en, &cost.zh_tw);
            fixes.push(text!(
                "a warm pool: `minReplicas: {needed}` (and `replicas: {needed}`) serves {needed} × {one} = {capacity} requests/s before the peak comes: its {peak} with each replica at most 80 % busy; cost: {ce}",
                "暖好的 replica：`minReplicas: {needed}`（加上 `replicas: {needed}`）在尖峰來之前就有 {needed} × {one} = 每秒 {capacity} 個請求的容量：撐住尖峰的 {peak}，每個 replica 最多 80% 忙碌；代價：{cz}"
            ));
        }
    }
    fixes.extend(metric_fix);
    // The parts of the cold start, largest first.
    let worst = |part: fn(&ColdStart) -> u64| starts.iter().map(part).max().unwrap_or(0);
    let total = worst(ColdStart::total);
    let mut parts: Vec<(u64, Text)> = Vec::new();
    let pull = worst(|s| s.pull);
    if pull >= 10 && pull * 4 >= total {
        let words = seconds(pull);
        let (pe, pz) = (&words.en, &words.zh_tw);
        parts.push((
            pull,
            text!(
                "preload the image on the GPU nodes (a DaemonSet that pulls it, or a node-local registry cache): up to {pe} less per cold start; cost: the image's disk on every node",
                "在 GPU 節點上預先拉好映像（用 DaemonSet 拉取，或節點本地的 registry 快取）：每次冷啟動最多省下 {pz}；代價：每個節點都要放映像的磁碟空間"
            ),
        ));
    }
    let load = worst(|s| s.load);
    if load * 2 >= total && load > 0 {
        let words = seconds(load);
        let (le, lz) = (&words.en, &words.zh_tw);
        parts.push((
            load,
            text!(
                "a smaller or quantized model, or faster loading (weights on local NVMe, safetensors): loading is {le} of each cold start; cost: accuracy, or the work",
                "更小或量化的模型，或更快的載入（權重放本機 NVMe、safetensors）：每次冷啟動有 {lz}花在載入；代價：準確度，或要投入的工作"
            ),
        ));
    }
    let probes = worst(|s| s.probes);
    let probe = starts.iter().find_map(|start| start.probe);
    if let Some((name, period, failure_threshold)) = probe {
        const FAST: i64 = 2;
        if probes >= 2 && period > FAST {
            // The same budget (`failureThreshold × periodSeconds`) on the
            // shorter grid: the kubelet's next tick comes at most 2 s after
            // the load instead of `period`.
            let budget = failure_threshold.saturating_mul(period);
            let threshold = (budget + FAST - 1) / FAST;
            let words = seconds(probes);
            let (we, wz) = (&words.en, &words.zh_tw);
            parts.push((
                probes,
                text!(
                    "a shorter {name} period: `periodSeconds: {FAST}` with `failureThreshold: {threshold}` keeps its {budget} s budget and cuts the {we} wait after loading to at most {FAST} s; cost: a probe call every {FAST} s instead of {period} s while starting",
                    "縮短 {name} 的週期：`periodSeconds: {FAST}` 加 `failureThreshold: {threshold}` 保留 {budget} 秒的額度，把載入後等待的 {wz}縮到最多 {FAST} 秒；代價：啟動期間每 {FAST} 秒（而不是 {period} 秒）探測一次"
                ),
            ));
        }
    }
    crate::sort::sort_by_key(&mut parts, |(size, _)| std::cmp::Reverse(*size));
    fixes.extend(parts.into_iter().map(|(_, text)| text));
    fixes
}

/// GPUs one pod of the workload requests (`nvidia.com/gpu`, MIG
/// profiles): what a warm replica keeps idle.
fn pod_gpus(pod: &PodRun) -> i64 {
    pod.spec
        .containers
        .iter()
        .flat_map(crate::manifest::resources::gpu_requests)
        .map(|(_, count)| count)
        .sum()
}

#[cfg(test)]
mod tests {
    use crate::explain::traffic::{explain, TrafficFinding};
    use crate::sim::{simulate, Options};

    const BURST: &str = include_str!("../../../../../exercises/hpa-burst-cold-start.yaml");
    const CPU: &str = include_str!("../../../../../exercises/hpa-cpu-gpu-never-scales.yaml");

    fn finding(text: &str, at: u64) -> TrafficFinding {
        let run = simulate(text, &Options::default());
        let traffic = run.traffic.as_ref().expect("the Scenario sends traffic");
        explain(traffic, &run, at).expect("an overload episode")
    }

    fn steps(finding: &TrafficFinding) -> Vec<(u64, &str)> {
        finding
            .chain
            .iter()
            .map(|step| (step.at, step.text.en.as_str()))
            .collect()
    }

    #[test]
    fn burst_cold_start_chain() {
        let finding = finding(BURST, 6 * 60_000);
        let steps = steps(&finding);
        // The Scenario's step at 5:00, 20 → 90 requests/s; one replica,
        // 4 slots / 80 ms = 50 requests/s.
        assert_eq!(
            steps[0],
            (
                300_000,
                "the rate rose from 20 to 90 requests/s; 1 ready replica served at most 50"
            )
        );
        // The HPA's passes every 15 s: at 5:15 the one-minute rate over
        // the scrapes 4:22…5:07 is still near 20 (29066m, within the 0.1
        // tolerance of 30); at 5:30 it is 45750m: ceil(45.75/30 × 1) = 2.
        assert_eq!(
            steps[1],
            (330_000, "the HPA saw 45750m/30 and asked for 2 replicas (pods metric requests_per_second above target)")
        );
        // The new pod has no metric until loaded: on a scale-up it counts
        // 0 and the ratio is recomputed over 2 pods. 5:45: 63.45 / 2 / 30 =
        // 1.06, within the tolerance, 2 kept; 6:00: 80.85 / 2 / 30 = 1.35,
        // ceil(1.35 × 2) = 3.
        assert_eq!(
            steps[2],
            (360_000, "the HPA saw 80850m/30 and asked for 3 replicas")
        );
        // Pod created 5:30 (330 s) → sandbox 332 s → container started 332 s
        // (the image is on the node: no pull) → loaded 332 + 150 = 482 s →
        // the startupProbe's tick finds it and Ready at 490.54 s: 2 + 150 +
        // 8 = 160 s, alike for the pods created at 6:00 and 8:30.
        assert_eq!(
            steps[3],
            (490_540, "the first of 3 new pods was Ready; each took 2 min 40 s from creation to Ready: 2 s scheduling and starting, 2 min 30 s loading the model, 8 s until the startupProbe (periodSeconds: 10) passed")
        );
        assert_eq!(
            steps[4],
            (510_000, "the HPA saw 55383m/30 and asked for 4 replicas")
        );
        // The last troubled second is 9:37: 3 replicas (150/s) have been
        // draining the ~6,000 queued since 8:40.
        assert_eq!(
            steps[5],
            (
                578_000,
                "the queue drained: P99 back under 1.00 s, no more failures"
            )
        );
        assert_eq!(steps.len(), 6);
        assert!(finding.chain[3].text.zh_tw.contains("2 分 40 秒"));
        let fixes: Vec<&str> = finding.fixes.iter().map(|fix| fix.en.as_str()).collect();
        // 90 × 5 / (50 × 4) = 2.25 → 3 warm replicas, 2 more than
        // minReplicas 1, one L4 each.
        assert!(
            fixes[0].starts_with("a warm pool: `minReplicas: 3`"),
            "{}",
            fixes[0]
        );
        assert!(fixes[0].contains("3 × 50 = 150 requests/s"));
        assert!(fixes[0].ends_with("cost: 2 GPUs held idle outside the peak"));
        // 150 of 160 s is loading; the 8 s after it is the probe grid.
        assert!(
            fixes[1].contains("loading is 2 min 30 s of each cold start"),
            "{}",
            fixes[1]
        );
        // 30 × 10 = 300 s budget; on a 2 s period 300 / 2 = 150.
        assert!(fixes[2].contains("`periodSeconds: 2` with `failureThreshold: 150` keeps its 300 s budget and cuts the 8 s wait"), "{}", fixes[2]);
        // The image was present and the metric is not CPU.
        assert_eq!(fixes.len(), 3);
        assert_eq!(
            finding.fixes.iter().filter(|f| f.zh_tw.is_empty()).count(),
            0
        );
    }

    #[test]
    fn cpu_autoscaler_that_never_scales_tells_its_readings() {
        let finding = finding(CPU, 6 * 60_000);
        let steps = steps(&finding);
        // 60 requests/s from 4:00 for 50 of capacity; 100 from 6:00.
        assert_eq!(
            steps[0],
            (240_000, "the rate rose from 40 to 60 requests/s; 1 ready replica served at most 50, and the rate kept climbing to 100")
        );
        // At full speed: 150m idle + 50 requests/s × 2 ms = 250m of the
        // 2-core request: int32(250 × 100 / 2000) = 12 % < 60 %. The
        // episode starts at 4:02; its first pass is 4:15.
        assert_eq!(
            steps[1],
            (
                255_000,
                "between 4:02 and 9:34 the HPA saw at most cpu: 12%/60% and kept 1 replica"
            )
        );
        assert_eq!(
            steps[2],
            (
                574_000,
                "the queue drained: P99 back under 1.00 s, no more failures"
            )
        );
        let fixes: Vec<&str> = finding.fixes.iter().map(|fix| fix.en.as_str()).collect();
        assert!(
            fixes[0].starts_with("scale on the load instead of cpu (cpu: 12%/60%)"),
            "{}",
            fixes[0]
        );
        // 100 × 5 / (50 × 4) = 2.5 → 3.
        assert!(
            fixes[1].starts_with("a warm pool: `minReplicas: 3`"),
            "{}",
            fixes[1]
        );
        // No new pod: no cold start to shorten.
        assert_eq!(fixes.len(), 2);
    }

    #[test]
    fn pull_dominated_cold_start_and_max_replicas_cap() {
        // The burst with a 2 min pull, a 30 s load and maxReplicas 2.
        let text = BURST
            .replace("startup: 150s", "startup: 30s\n      imagePull: 2m")
            .replace("maxReplicas: 4", "maxReplicas: 2");
        let finding = finding(&text, 6 * 60_000);
        let steps = steps(&finding);
        // At 6:00 the HPA wants ceil(82.883/30 × 1 ready) = 3 > 2.
        assert_eq!(
            steps[2],
            (
                360_000,
                "the HPA saw 80850m/30 and wanted more replicas: maxReplicas 2 capped it"
            )
        );
        // Created 330 s, sandbox 332 s, pulled and started 452 s (120 s),
        // loaded 482 s, Ready 490.54 s.
        assert_eq!(
            steps[3],
            (490_540, "the new pod was Ready 2 min 40 s after its creation: 2 s scheduling and starting, 2 min pulling the image, 30 s loading the model, 8 s until the startupProbe (periodSeconds: 10) passed")
        );
        let fixes: Vec<&str> = finding.fixes.iter().map(|fix| fix.en.as_str()).collect();
        assert!(
            fixes[0].starts_with("raise `maxReplicas` from 2 to at least 3"),
            "{}",
            fixes[0]
        );
        assert!(fixes[1].starts_with("a warm pool"));
        // 120 s of 160 is pulling: more than a quarter; loading 30 s is not
        // half, so no smaller-model fix.
        assert!(fixes[2].starts_with("preload the image"), "{}", fixes[2]);
        assert!(fixes[2].contains("up to 2 min less per cold start"));
        assert!(fixes[3].starts_with("a shorter startupProbe period"));
        assert_eq!(fixes.len(), 4);
    }

    #[test]
    fn the_warm_pool_of_the_solution_has_no_episode() {
        let text = include_str!("../../../../../exercises/hpa-burst-cold-start.solution.yaml");
        let run = simulate(text, &Options::default());
        let traffic = run.traffic.as_ref().expect("traffic");
        // Poisson arrivals and kube-proxy's random pick can still queue a
        // few requests for a second on the three warm replicas (with the
        // seed of this text's objects: 5:32, 4 queued, P99 1.18 s); the
        // warm pool leaves no longer episode and no failed request.
        for minute in 0..12 {
            if let Some(finding) = explain(traffic, &run, minute * 60_000) {
                assert!(
                    finding.until - finding.from <= 1_000,
                    "{minute}: {finding:?}"
                );
                assert!(
                    finding.symptom.en.ends_with(", 0 failed"),
                    "{minute}: {finding:?}"
                );
            }
        }
    }
}
