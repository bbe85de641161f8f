//! What went wrong with the requests around a moment, in words (issue 15):
//! the episode of failures or slow answers the cursor is in, its dominant
//! cause and its fix — "between 5:00 and 8:00 every ready replica was busy:
//! capacity 100 requests/s for 120 arriving; the queue grew to 200; P99
//! 2.07 s". Read from a `TrafficRun`, never from text.

use crate::i18n::Text;
use crate::manifest::duration::Millis;
use crate::sim::traffic::{Failure, Stats, TrafficRun};
use crate::sim::Run;
use crate::text;

mod chain;
pub use chain::Step;

/// The trouble the requests met around a moment.
#[derive(Clone, Debug, PartialEq)]
pub struct TrafficFinding {
    /// The episode, in ms: whole seconds.
    pub from: Millis,
    pub until: Millis,
    pub cause: Cause,
    pub symptom: Text,
    pub root_cause: Text,
    /// Numbers that prove it, one per line.
    pub evidence: Vec<Text>,
    pub fix: Text,
    /// When an HPA scales the workload: how the episode came about, in
    /// time order (the rate step, the HPA's passes, the new pods' cold
    /// start, the queue drained), possibly past the cursor; empty otherwise.
    pub chain: Vec<Step>,
    /// The fixes that apply to this run, most telling first, each with the
    /// number it changes and its cost; empty without a chain.
    pub fixes: Vec<Text>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    /// More arrived than the ready replicas could serve: queueing, 503s,
    /// timeouts.
    Overload,
    /// Requests reached a server that did not accept yet (still loading).
    NotLoaded,
    /// No endpoint at all.
    NoEndpoints,
    /// Requests routed to a pod being deleted (no preStop sleep).
    CutAtShutdown,
    /// Requests lost in a container that died.
    Crashed,
    /// The interceptor held requests longer than `conditionWait`: no pod
    /// became Ready in time (a cold start from zero).
    InterceptorWait,
    /// The interceptor gave up on the pod's answer after `responseHeader`.
    ResponseHeader,
}

/// A second is troubled when a request failed in it or its P99 is above
/// the target.
fn troubled(traffic: &TrafficRun, second: usize) -> bool {
    let Some(window) = traffic.windows.get(second) else {
        return false;
    };
    if window.failed.iter().any(|&count| count > 0) {
        return true;
    }
    let mut latencies = window.latencies.clone();
    crate::sim::traffic::percentile(&mut latencies, 99)
        .is_some_and(|p99| p99 > traffic.target.saturating_mul(1000))
}

/// Quiet seconds an episode may contain and still be one.
const GAP: usize = 3;
/// How far back from the cursor an episode that ended is still shown.
const LOOK_BACK: usize = 30;

/// The episode of trouble at `at` (or ended at most 30 s before), with its
/// cause; `None` when the requests were fine.
pub fn explain(traffic: &TrafficRun, run: &Run, at: Millis) -> Option<TrafficFinding> {
    let cursor = ((at / 1000) as usize).min(traffic.windows.len().checked_sub(1)?);
    let end = (cursor.saturating_sub(LOOK_BACK)..=cursor)
        .rev()
        .find(|&s| troubled(traffic, s))?;
    let mut first = end;
    let mut quiet = 0;
    while first > 0 && quiet <= GAP {
        if troubled(traffic, first - 1) {
            quiet = 0;
        } else {
            quiet += 1;
        }
        first -= 1;
    }
    first += quiet;
    let mut last = end;
    let mut quiet = 0;
    while last + 1 < traffic.windows.len().min(cursor + 1) && quiet <= GAP {
        if troubled(traffic, last + 1) {
            quiet = 0;
        } else {
            quiet += 1;
        }
        last += 1;
    }
    last -= quiet.min(last - first);
    let from = first as Millis * 1000;
    let until = (last as Millis + 1) * 1000;
    let stats = traffic.stats(from, until);
    // The episode's own end, past the cursor: when the chain says the
    // queue drained (`None`: still troubled when the run ended).
    let mut worst_last = last;
    let mut second = last + 1;
    let mut quiet = 0;
    while second < traffic.windows.len() && quiet <= GAP {
        if troubled(traffic, second) {
            worst_last = second;
            quiet = 0;
        } else {
            quiet += 1;
        }
        second += 1;
    }
    let drained =
        (worst_last + 1 < traffic.windows.len()).then_some((worst_last as Millis + 1) * 1000);
    Some(finding(traffic, run, from, until, drained, &stats))
}

/// The episode at `at` if there is one, else the one up to `at` with the
/// highest P99 (the most failures without one): what `podlab simulate`
/// explains when `--at` falls after the trouble.
pub fn worst_episode(traffic: &TrafficRun, run: &Run, at: Millis) -> Option<TrafficFinding> {
    if let Some(finding) = explain(traffic, run, at) {
        return Some(finding);
    }
    let cursor = ((at / 1000) as usize).min(traffic.windows.len().checked_sub(1)?);
    let worst = (0..=cursor)
        .filter(|&s| troubled(traffic, s))
        .max_by_key(|&s| {
            traffic.windows.get(s).map_or((0, 0), |window| {
                let mut latencies = window.latencies.clone();
                let p99 = crate::sim::traffic::percentile(&mut latencies, 99).unwrap_or(0);
                (p99, window.failed.iter().sum::<u32>())
            })
        })?;
    // Its last troubled second: the cursor `explain` needs to see it whole.
    let mut last = worst;
    let mut second = worst + 1;
    while second <= cursor && second <= last + GAP + 1 {
        if troubled(traffic, second) {
            last = second;
        }
        second += 1;
    }
    explain(traffic, run, last as Millis * 1000)
}

fn finding(
    traffic: &TrafficRun,
    run: &Run,
    from: Millis,
    until: Millis,
    drained: Option<Millis>,
    stats: &Stats,
) -> TrafficFinding {
    let (a, b) = (clock(from), clock(until));
    let dominant = Failure::ALL
        .into_iter()
        .max_by_key(|&f| (stats.failed(f), std::cmp::Reverse(f as usize)))
        .filter(|&f| stats.failed(f) > 0);
    let cause = match dominant {
        Some(Failure::NotReady) => Cause::NotLoaded,
        Some(Failure::NoEndpoints) => Cause::NoEndpoints,
        Some(Failure::Terminating) => Cause::CutAtShutdown,
        Some(Failure::Crashed) => Cause::Crashed,
        Some(Failure::InterceptorWait) => Cause::InterceptorWait,
        Some(Failure::ResponseHeader) => Cause::ResponseHeader,
        Some(Failure::QueueFull | Failure::Timeout) | None => Cause::Overload,
    };
    let mut evidence = vec![counts(stats)];
    if let Some(p99) = stats.p99 {
        let (p50, p99) = (latency(stats.p50.unwrap_or(0)), latency(p99));
        let target = latency(traffic.target * 1000);
        evidence.push(text!(
            "P50 {p50}, P99 {p99} (target {target})",
            "P50 {p50}，P99 {p99}（目標 {target}）"
        ));
    }
    let failed = stats.failed_total();
    let (chain, fixes) = match cause {
        Cause::Overload => chain::chain(traffic, run, from, drained)
            .map_or_else(Default::default, |chain| (chain.steps, chain.fixes)),
        _ => Default::default(),
    };
    let (symptom, root_cause, fix) = match cause {
        Cause::Overload => {
            let peak = (from..until)
                .step_by(1000)
                .map(|t| traffic.rate_at(t))
                .max()
                .unwrap_or(0);
            let capacity = traffic.capacity_at(from + (until - from) / 2);
            let (peak, capacity) = (per_second(peak), per_second(capacity));
            let queue = stats.queue_max;
            let p99 = latency(stats.p99.unwrap_or(0));
            (
                text!(
                    "between {a} and {b} requests waited: P99 {p99}, {failed} failed",
                    "{a} 到 {b} 之間請求在排隊：P99 {p99}，{failed} 個失敗"
                ),
                text!(
                    "every ready replica was busy: capacity {capacity} requests/s for {peak} arriving; the queue grew to {queue} requests",
                    "每個就緒的 replica 都在忙：容量每秒 {capacity} 個請求，卻有每秒 {peak} 個到達；佇列長到 {queue} 個請求"
                ),
                text!(
                    "raise the capacity above the peak: more replicas (or a HorizontalPodAutoscaler), a higher `serve.concurrency`, or dynamic batching (`serve.batching.maxBatch`)",
                    "讓容量高於尖峰：增加 replica（或使用 HorizontalPodAutoscaler）、提高 `serve.concurrency`，或開啟動態批次（`serve.batching.maxBatch`）"
                ),
            )
        }
        Cause::NotLoaded => {
            let n = stats.failed(Failure::NotReady);
            let unprobed = traffic
                .pods
                .iter()
                .filter_map(|&p| run.pods.get(p))
                .any(|pod| pod.spec.containers.iter().any(|c| c.readiness.is_none()));
            (
                text!(
                    "between {a} and {b}, {n} requests were refused by a pod that had not finished loading",
                    "{a} 到 {b} 之間，有 {n} 個請求被還沒載入完成的 Pod 拒絕"
                ),
                if unprobed {
                    text!(
                        "without a readinessProbe a pod is Ready — and a Service endpoint — as soon as its container runs, while the model is still loading: kube-proxy sends it requests it cannot answer (connection refused, a 502 behind an ingress)",
                        "沒有 readinessProbe 的 Pod，容器一跑起來就是 Ready，也就成為 Service 的 endpoint，但模型還在載入：kube-proxy 把它答不了的請求送過去（connection refused，經過 ingress 則是 502）"
                    )
                } else {
                    text!(
                        "the container had just restarted: kube-proxy still routed to it until the endpoint change propagated",
                        "容器剛重新啟動：在 endpoint 的變更傳播出去之前，kube-proxy 仍把請求送給它"
                    )
                },
                text!(
                    "add a readinessProbe on the model's health endpoint: the pod gets traffic only once it answers",
                    "加上指向模型健康檢查端點的 readinessProbe：Pod 要能回應之後才會收到流量"
                ),
            )
        }
        Cause::NoEndpoints => {
            let n = stats.failed(Failure::NoEndpoints);
            (
                text!(
                    "between {a} and {b}, {n} requests found no endpoint",
                    "{a} 到 {b} 之間，有 {n} 個請求找不到 endpoint"
                ),
                text!(
                    "no selected pod was Ready: the Service had no ready endpoint, and kube-proxy rejects the connection",
                    "Service 選到的 Pod 沒有一個是 Ready：沒有就緒的 endpoint，kube-proxy 直接拒絕連線"
                ),
                text!(
                    "find out why the pods are not Ready (the pod diagnosis above); keep at least one replica serving while others start",
                    "先找出 Pod 為什麼不是 Ready（見上方 Pod 的診斷）；讓其他 replica 啟動時至少有一個在服務"
                ),
            )
        }
        Cause::CutAtShutdown => {
            let n = stats.failed(Failure::Terminating);
            // ms as seconds with a tenth, without float formatting (size).
            let seconds = per_second(traffic.propagation);
            (
                text!(
                    "between {a} and {b}, {n} requests failed at a pod that was shutting down",
                    "{a} 到 {b} 之間，有 {n} 個請求在正在關閉的 Pod 上失敗"
                ),
                text!(
                    "the kubelet sent SIGTERM as soon as the pod was deleted, while kube-proxy kept routing to it for about {seconds} s until the endpoint removal propagated",
                    "Pod 一被刪除，kubelet 就送出 SIGTERM；但 endpoint 的移除要大約 {seconds} 秒才傳播出去，這段時間 kube-proxy 仍把請求送給它"
                ),
                text!(
                    "add `lifecycle.preStop.sleep.seconds: 10` (within `terminationGracePeriodSeconds`): the pod keeps serving while the endpoint is removed, then gets SIGTERM",
                    "加上 `lifecycle.preStop.sleep.seconds: 10`（在 `terminationGracePeriodSeconds` 之內）：endpoint 移除期間 Pod 繼續服務，之後才收到 SIGTERM"
                ),
            )
        }
        Cause::Crashed => {
            let n = stats.failed(Failure::Crashed);
            (
                text!(
                    "between {a} and {b}, {n} requests were lost when a container died",
                    "{a} 到 {b} 之間，容器終止時有 {n} 個請求遺失"
                ),
                text!(
                    "the container was killed (OOMKilled or by its liveness probe) with requests in it: their connections were reset",
                    "容器在處理請求時被終止（OOMKilled 或被 liveness probe 砍掉）：這些連線被重設"
                ),
                text!(
                    "fix why the container dies (the pod diagnosis above)",
                    "修正容器終止的原因（見上方 Pod 的診斷）"
                ),
            )
        }
        Cause::InterceptorWait => {
            let n = stats.failed(Failure::InterceptorWait);
            let wait = latency(traffic.interceptor.map_or(0, |i| i.0) * 1000);
            (
                text!(
                    "between {a} and {b}, {n} requests got a 502 from the interceptor after waiting {wait} for a ready pod",
                    "{a} 到 {b} 之間，有 {n} 個請求在 interceptor 等了 {wait} 還等不到就緒的 Pod，拿到 502"
                ),
                text!(
                    "KEDA's HTTP add-on holds each request until the Service has a ready endpoint, for `conditionWait` ({wait}) at most; the first pod took longer than that to start and load its model: a cold start from zero replicas",
                    "KEDA HTTP add-on 會留住每個請求，直到 Service 有就緒的 endpoint，最多等 `conditionWait`（{wait}）；第一個 Pod 啟動並載入模型花的時間比這更久：從零個 replica 冷啟動"
                ),
                text!(
                    "keep a warm replica (`minReplicaCount: 1`), or raise `interceptor.conditionWait` (an HTTPScaledObject's `spec.timeouts.conditionWait`) above the cold start, and the client's timeout with it",
                    "保留一個暖好的 replica（`minReplicaCount: 1`），或把 `interceptor.conditionWait`（HTTPScaledObject 的 `spec.timeouts.conditionWait`）調到比冷啟動更長，用戶端的逾時也要跟著調"
                ),
            )
        }
        Cause::ResponseHeader => {
            let n = stats.failed(Failure::ResponseHeader);
            let header = latency(traffic.interceptor.map_or(0, |i| i.1) * 1000);
            (
                text!(
                    "between {a} and {b}, {n} requests got a 502 from the interceptor: the pod did not send its response headers within {header}",
                    "{a} 到 {b} 之間，有 {n} 個請求拿到 interceptor 的 502：Pod 沒有在 {header} 內送出回應標頭"
                ),
                text!(
                    "once it forwards a request, the interceptor waits `responseHeader` ({header}; 500 ms by default in http-add-on v0.11.1) for the answer to begin; a model server that answers once it has computed the whole response sends its headers only then, queueing included",
                    "interceptor 轉送請求之後，只等 `responseHeader`（{header}；http-add-on v0.11.1 預設 500 ms）讓回應開始；模型伺服器要算完整個回應才回覆，標頭也要等到那時才送出，排隊時間也算在內"
                ),
                text!(
                    "raise `interceptor.responseHeader` (an HTTPScaledObject's `spec.timeouts.responseHeader`) above the slowest answer, queueing included",
                    "把 `interceptor.responseHeader`（HTTPScaledObject 的 `spec.timeouts.responseHeader`）調到比最慢的回應更長，排隊時間也要算進去"
                ),
            )
        }
    };
    TrafficFinding {
        from,
        until,
        cause,
        symptom,
        root_cause,
        evidence,
        fix,
        chain,
        fixes,
    }
}

fn counts(stats: &Stats) -> Text {
    let (arrived, served) = (stats.arrived, stats.served);
    let mut en = format!("arrived {arrived}, served {served}");
    let mut zh = format!("到達 {arrived}，完成 {served}");
    for failure in Failure::ALL {
        let count = stats.failed(failure);
        if count > 0 {
            let word = failure_word(failure);
            en.push_str(&format!(", {count} {}", word.en));
            zh.push_str(&format!("，{count} {}", word.zh_tw));
        }
    }
    Text::new(en, zh)
}

/// What each cause is called.
pub fn failure_word(failure: Failure) -> Text {
    match failure {
        Failure::NotReady => text!("not ready", "尚未就緒"),
        Failure::Terminating => text!("terminating", "終止中"),
        Failure::QueueFull => text!("queue full (503)", "佇列已滿（503）"),
        Failure::Timeout => text!("timed out", "逾時"),
        Failure::NoEndpoints => text!("no endpoints", "沒有 endpoint"),
        Failure::Crashed => text!("lost in a crash", "隨容器終止而遺失"),
        Failure::InterceptorWait => text!(
            "502 from the interceptor (no ready pod)",
            "interceptor 回 502（沒有就緒的 Pod）"
        ),
        Failure::ResponseHeader => text!(
            "502 from the interceptor (response headers too late)",
            "interceptor 回 502（回應標頭太晚）"
        ),
    }
}

/// `m:ss`.
fn clock(ms: Millis) -> String {
    let s = ms / 1000;
    format!("{}:{:02}", s / 60, s % 60)
}

pub use crate::manifest::duration::latency;

/// Requests/s × 1000 as a number with at most one decimal.
fn per_second(milli: u64) -> String {
    let tenths = milli / 100;
    if tenths.is_multiple_of(10) {
        format!("{}", tenths / 10)
    } else {
        format!("{}.{}", tenths / 10, tenths % 10)
    }
}

/// The traffic band of the page's timeline: the run cut into at most
/// `buckets` equal spans, each with the rate sent, the capacity of the
/// endpoints kube-proxy routes to, the latency percentiles of what was
/// answered in it and the failures by cause.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    pub end: Millis,
    pub buckets: Vec<Bucket>,
    /// The highest rate or capacity, requests/s × 1000 (the band's top).
    pub max_milli_rps: u64,
    /// The P99 target, µs.
    pub target: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Bucket {
    pub from: Millis,
    pub to: Millis,
    /// Requests/s × 1000 sent at `from`.
    pub rate: u64,
    /// Requests/s × 1000 the routed endpoints serve at `from`.
    pub capacity: u64,
    /// µs; `None` when nothing was answered.
    pub p50: Option<u64>,
    pub p99: Option<u64>,
    /// By `Failure::ALL`.
    pub failed: [u64; 8],
}

/// The band's data for `traffic` over a run of `end` ms.
pub fn chart(traffic: &TrafficRun, end: Millis, buckets: usize) -> Chart {
    let seconds = end.div_ceil(1000).max(1);
    let per = seconds.div_ceil(buckets.max(1) as u64).max(1) * 1000;
    let mut out = Vec::new();
    let mut from = 0;
    while from < end {
        let to = (from + per).min(end);
        let stats = traffic.stats(from, to);
        out.push(Bucket {
            from,
            to,
            rate: traffic.rate_at(from),
            capacity: traffic.capacity_at(from),
            p50: stats.p50,
            p99: stats.p99,
            failed: stats.failed,
        });
        from = to;
    }
    let max_milli_rps = out
        .iter()
        .map(|b| b.rate.max(b.capacity))
        .max()
        .unwrap_or(0)
        .max(1000);
    Chart {
        end,
        buckets: out,
        max_milli_rps,
        target: traffic.target.saturating_mul(1000),
    }
}

impl Chart {
    /// Whether the P99 of some span is above the target.
    pub fn over_target(&self) -> bool {
        self.buckets
            .iter()
            .any(|b| b.p99.is_some_and(|p99| p99 > self.target))
    }
}

/// The numbers at the cursor, for the line under the timeline: the rate
/// sent, the capacity, and the P99 and failures of the second before.
pub fn now_line(traffic: &TrafficRun, at: Millis) -> Text {
    let rate = per_second(traffic.rate_at(at));
    let capacity = per_second(traffic.capacity_at(at));
    let from = at.saturating_sub(10_000);
    let stats = traffic.stats(from, at.max(1000));
    let p99 = stats.p99.map_or_else(|| "-".to_string(), latency);
    let failed = stats.failed_total();
    text!(
        "requests: {rate}/s sent, capacity {capacity}/s · last 10 s: P99 {p99}, {failed} failed",
        "請求：每秒送出 {rate} 個，容量每秒 {capacity} 個 · 最近 10 秒：P99 {p99}，{failed} 個失敗"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{simulate, Options};

    fn text(probe: &str, traffic: &str) -> String {
        format!(
            "apiVersion: v1
kind: Service
metadata: {{name: model-api}}
spec:
  selector: {{app: model-api}}
  ports: [{{port: 80, targetPort: 8000}}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {{name: model-api}}
spec:
  replicas: 2
  selector: {{matchLabels: {{app: model-api}}}}
  template:
    metadata: {{labels: {{app: model-api}}}}
    spec:
      containers:
        - name: api
          image: registry.example.com/model-api:1.0
          ports: [{{containerPort: 8000}}]
{probe}
---
apiVersion: podlab.dev/v1alpha1
kind: Scenario
spec:
  duration: 10m
  workload:
    - container: api
      startup: 20s
      serve: {{concurrency: 4, latency: 80ms}}
  traffic: {traffic}
"
        )
    }

    const PROBE: &str = "          readinessProbe:
            httpGet: {path: /health, port: 8000}
            periodSeconds: 2";

    #[test]
    fn a_burst_past_capacity_is_explained_as_overload_with_its_numbers() {
        // 2 replicas × 4 slots / 80 ms = 100 requests/s; 160 arrive from
        // 5:00 to 7:00.
        let text = text(
            PROBE,
            "{service: model-api, rate: [{at: 0s, rps: 20}, {at: 5m, rps: 160}, {at: 7m, rps: 20}]}",
        );
        let run = simulate(&text, &Options::default());
        let traffic = run.traffic.as_ref().unwrap();
        let finding = explain(traffic, &run, 6 * 60_000).expect("trouble at 6:00");
        assert_eq!(finding.cause, Cause::Overload);
        // The queues (100 each) fill at 60 requests/s too many in about
        // 3.3 s; P99 passes the 1 s target in the seconds after 5:00.
        assert!(
            (300_000..=305_000).contains(&finding.from),
            "{}",
            finding.symptom.en
        );
        // Up to the cursor: what is known at 6:00.
        assert_eq!(finding.until, 361_000);
        assert!(
            finding
                .root_cause
                .en
                .contains("capacity 100 requests/s for 160 arriving"),
            "{}",
            finding.root_cause.en
        );
        assert!(finding.root_cause.zh_tw.contains("每秒 100 個請求"));
        // No HorizontalPodAutoscaler: no chain to tell.
        assert!(finding.chain.is_empty() && finding.fixes.is_empty());
        // Before the burst, all is well.
        assert_eq!(explain(traffic, &run, 4 * 60_000), None);
        // At 10:00 the burst is over: the worst episode is still the one
        // of 5:00-7:00, seen whole (the cursor at its last troubled second).
        assert_eq!(explain(traffic, &run, 10 * 60_000), None);
        let worst = worst_episode(traffic, &run, 10 * 60_000).expect("the burst");
        assert_eq!(worst.from, finding.from);
        assert!(worst.until > 7 * 60_000, "{}", worst.until);
    }

    #[test]
    fn requests_to_a_loading_pod_without_readiness_probe_are_explained() {
        let text = text("", "{service: model-api, rate: [{at: 0s, rps: 20}]}");
        let run = simulate(&text, &Options::default());
        let traffic = run.traffic.as_ref().unwrap();
        let finding = explain(traffic, &run, 10_000).expect("trouble while loading");
        assert_eq!(finding.cause, Cause::NotLoaded);
        assert!(finding.root_cause.en.contains("without a readinessProbe"));
        assert!(finding.fix.en.contains("readinessProbe"));
        // Once loaded (20 s), and 30 s later, nothing more to say.
        assert_eq!(explain(traffic, &run, 90_000), None);
    }

    #[test]
    fn the_interceptor_s_502s_are_explained_with_its_setting() {
        // The pods load for 20 s; the interceptor holds requests 5 s: the
        // first ones get its 502 from 0:05.
        let manifest = text(
            PROBE,
            "{service: model-api, rate: [{at: 0s, rps: 20}], interceptor: {conditionWait: 5s, responseHeader: 10s}}",
        );
        let run = simulate(&manifest, &Options::default());
        let traffic = run.traffic.as_ref().unwrap();
        let finding = explain(traffic, &run, 10_000).expect("502s while loading");
        assert_eq!(finding.cause, Cause::InterceptorWait);
        assert_eq!(finding.from, 5_000);
        assert!(
            finding.symptom.en.contains("after waiting 5.00 s"),
            "{}",
            finding.symptom.en
        );
        assert!(finding.fix.en.contains("minReplicaCount: 1"));
        assert!(finding.symptom.zh_tw.contains("502"));
        assert!(counts(&traffic.stats(0, 60_000))
            .en
            .contains("502 from the interceptor (no ready pod)"));
        // 80 ms answers against a 50 ms responseHeader: every forwarded
        // request is a 502 once the pods serve.
        let manifest = text(
            PROBE,
            "{service: model-api, rate: [{at: 0s, rps: 20}], interceptor: {conditionWait: 60s, responseHeader: 50ms}}",
        );
        let run = simulate(&manifest, &Options::default());
        let traffic = run.traffic.as_ref().unwrap();
        let finding = explain(traffic, &run, 60_000).expect("502s while serving");
        assert_eq!(finding.cause, Cause::ResponseHeader);
        assert!(
            finding.root_cause.en.contains("`responseHeader` (50 ms;"),
            "{}",
            finding.root_cause.en
        );
        assert_eq!(traffic.stats(0, 600_000).served, 0);
    }

    #[test]
    fn latency_and_clock_words() {
        assert_eq!(latency(80_000), "80 ms");
        assert_eq!(latency(2_071_000), "2.07 s");
        assert_eq!(clock(360_000), "6:00");
        assert_eq!(per_second(100_000), "100");
        assert_eq!(per_second(2_500), "2.5");
    }
}
