//! The metrics an HPA reads, computed from a finished [`Run`] and its
//! traffic, and the replica calculator over them
//! (`pkg/controller/podautoscaler/replica_calculator.go`).
//!
//! The pipeline (docs/autoscaling.md, traffic-autoscaling.md §2.1):
//! - **metrics-server** scrapes every kubelet each `--metric-resolution`
//!   (15 s, its manifests' value) at [`SCRAPE_PHASE`] + k × 15 s and keeps
//!   two points per container: CPU is the mean over the last window
//!   (`kubernetes-sigs/metrics-server` `pkg/storage/types.go`
//!   `resourceUsage`), memory the last working set. A pod is served only
//!   when every container has both points; a container that started
//!   between 10 s (`freshContainerMinMetricsResolution`) and one resolution
//!   before the scrape gets a synthetic previous point at its start
//!   (`pkg/storage/pod.go`).
//! - **Prometheus + prometheus-adapter** scrape the program's `/metrics` on
//!   the same 15 s grid and serve two per-pod metrics of the traffic model:
//!   `requests_per_second` (`rate()` over the last [`RATE_WINDOW`], from the
//!   first and the last sample in it, without extrapolation) and
//!   `requests_in_queue` (the gauge at the last scrape). A program exposes
//!   them once it has loaded (it listens).
//!
//! Pods are looked at just before the sync (`at − 1 ms`): what the HPA
//! decides at `at` makes pods at `at`, which it cannot have seen. So
//! re-simulating with the decision changes nothing the decision read.

use super::{MetricValue, CPU_INITIALIZATION_PERIOD, INITIAL_READINESS_DELAY};
use crate::manifest::duration::Millis;
use crate::manifest::hpa::{MetricSource, MetricSpec, Target};
use crate::sim::traffic::PodLoad;
use crate::sim::{init, pod_ready_intervals, ContainerRun, PodRun, Run};

/// metrics-server's `--metric-resolution` in its own manifests and chart.
pub const RESOLUTION: Millis = 15_000;
/// When metrics-server's (and Prometheus') ticker fires relative to the
/// simulated epoch: the two loops are not aligned in a cluster, so podlab
/// puts the scrape 7 s into each 15 s HPA period (about the mean of a
/// phase drawn uniformly), and states it.
pub const SCRAPE_PHASE: Millis = 7_000;
/// `freshContainerMinMetricsResolution`.
pub const FRESH_CONTAINER_MIN: Millis = 10_000;
/// The `rate()` window podlab's prometheus-adapter rule uses.
pub const RATE_WINDOW: Millis = 60_000;

/// The per-pod metrics the traffic model serves through the custom metrics
/// API (`type: Pods`).
pub const REQUESTS_PER_SECOND: &str = "requests_per_second";
pub const REQUESTS_IN_QUEUE: &str = "requests_in_queue";

/// One metric's outcome at a sync: a proposal, or the error the controller
/// reports (`reason` is the event's and condition's reason).
pub(super) type Outcome = Result<Proposal, Failure>;

pub(super) struct Proposal {
    pub replicas: i32,
    /// `cpu resource utilization (percentage of request)`, `pods metric x`.
    pub name: String,
    pub value: MetricValue,
}

pub(super) struct Failure {
    /// `FailedGetResourceMetric`, `FailedGetPodsMetric`, …
    pub reason: &'static str,
    /// The error as the event shows it (`getUnableComputeReplicaCountCondition`).
    pub error: String,
    /// The same, wrapped by `computeReplicasForMetric`.
    pub wrapped: String,
}

/// The latest scrape strictly before `at`.
pub fn last_scrape(at: Millis) -> Option<Millis> {
    let before = at.checked_sub(1)?;
    let since = before.checked_sub(SCRAPE_PHASE)?;
    Some(SCRAPE_PHASE + since / RESOLUTION * RESOLUTION)
}

/// A pod's metric and the window it was measured over.
#[derive(Clone, Copy)]
struct PodMetric {
    value: i64,
    timestamp: Millis,
    window: Millis,
}

/// What the metrics of one workload's pods read from.
pub(super) struct Source<'a> {
    pub run: &'a Run,
    /// By pod index: its load, when the traffic reaches it.
    pub loads: Vec<Option<&'a PodLoad>>,
}

impl<'a> Source<'a> {
    pub fn new(run: &'a Run) -> Source<'a> {
        let mut loads = vec![None; run.pods.len()];
        if let Some(traffic) = &run.traffic {
            for (&pod, load) in traffic.pods.iter().zip(&traffic.per_pod) {
                if let Some(slot) = loads.get_mut(pod) {
                    *slot = Some(load);
                }
            }
        }
        Source { run, loads }
    }

    /// One metric of `spec` over `pods` (indices into `run.pods`) at `at`,
    /// `current` being `spec.replicas` (`computeReplicasForMetric`).
    pub fn compute(
        &self,
        spec: &MetricSpec,
        pods: &[usize],
        current: i32,
        tolerances: Tolerances,
        at: Millis,
    ) -> Outcome {
        match &spec.source {
            MetricSource::Resource { name, container } => self.resource(
                name,
                container.as_deref(),
                &spec.target,
                pods,
                current,
                tolerances,
                at,
            ),
            MetricSource::Pods { name } => {
                self.pods_metric(name, &spec.target, pods, current, tolerances, at)
            }
            MetricSource::Other { kind, name } => Err(if kind == "Object" {
                object_failure(spec, name)
            } else {
                // No external metrics API is served without KEDA: the
                // aggregator's 404 as client-go words it (a capture in
                // prometheus-adapter issue #642).
                let api = format!(
                    "the server could not find the requested resource (get {name}.external.metrics.k8s.io)"
                );
                external_failure(name, &spec.target, "nil", &api)
            }),
        }
    }

    /// `computeStatusForResourceMetricGeneric`: Utilization through
    /// `GetResourceReplicas`, AverageValue through `GetRawResourceReplicas`.
    #[allow(clippy::too_many_arguments)]
    fn resource(
        &self,
        resource: &str,
        container: Option<&str>,
        target: &Target,
        pods: &[usize],
        current: i32,
        tolerances: Tolerances,
        at: Millis,
    ) -> Outcome {
        let (reason, wrap) = match container {
            Some(container) => (
                "FailedGetContainerResourceMetric",
                format!("failed to get {container} container metric value: "),
            ),
            None => (
                "FailedGetResourceMetric",
                format!("failed to get {resource} resource metric value: "),
            ),
        };
        let fail = |error: String| Failure {
            reason,
            wrapped: format!("{wrap}{error}"),
            error,
        };
        let metrics = self.resource_metrics(resource, container, pods, at);
        if metrics.iter().all(Option::is_none) {
            let inner = format!("unable to get metrics for resource {resource}: no metrics returned from resource metrics API");
            let error = match target {
                Target::AverageValue(_) => format!("failed to get {resource} usage: {inner}"),
                _ => format!("failed to get {resource} utilization: {inner}"),
            };
            return Err(fail(error));
        }
        let view = at.saturating_sub(1);
        match *target {
            Target::Utilization(target) => {
                let label = match container {
                    Some(_) => format!("{resource} container resource utilization (percentage of request)"),
                    None => format!("{resource} resource utilization (percentage of request)"),
                };
                let requests = match self.requests(resource, container, pods) {
                    Ok(requests) => requests,
                    Err(error) => return Err(fail(format!("failed to get {resource} utilization: {error}"))),
                };
                let groups = self.group(pods, &metrics, resource, view);
                utilization_replicas(&groups, &metrics, &requests, current, target, tolerances)
                    .map(|(replicas, utilization, raw)| Proposal {
                        replicas,
                        name: label,
                        value: MetricValue::Utilization { percent: utilization, average_milli: raw },
                    })
                    .map_err(|error| fail(format!("failed to get {resource} utilization: {error}")))
            }
            Target::AverageValue(target) => {
                let groups = self.group(pods, &metrics, resource, view);
                plain_replicas(&groups, &metrics, current, target, tolerances)
                    .map(|(replicas, usage)| Proposal {
                        replicas,
                        name: format!("{resource} resource"),
                        value: MetricValue::AverageValue { milli: usage },
                    })
                    .map_err(|error| fail(format!("failed to get {resource} usage: {error}")))
            }
            _ => Err(fail("invalid resource metric source: neither an average utilization target nor an average value (usage) target was set".into())),
        }
    }

    /// `computeStatusForPodsMetric` / `GetMetricReplicas`.
    fn pods_metric(
        &self,
        name: &str,
        target: &Target,
        pods: &[usize],
        current: i32,
        tolerances: Tolerances,
        at: Millis,
    ) -> Outcome {
        let fail = |error: String| Failure {
            reason: "FailedGetPodsMetric",
            wrapped: format!("failed to get pods metric value: {error}"),
            error,
        };
        let Target::AverageValue(target) = *target else {
            return Err(fail(format!(
                "unable to get metric {name}: the pods metric target must be an AverageValue"
            )));
        };
        if name != REQUESTS_PER_SECOND && name != REQUESTS_IN_QUEUE {
            // The adapter answers NotFound (custom-metrics-apiserver
            // `NewMetricNotFoundError`); `GetRawMetric` (`metrics/client.go`)
            // wraps any error of the API in `unable to fetch metrics from
            // custom metrics API: `, and `GetMetricReplicas`
            // (`replica_calculator.go`) in `unable to get metric NAME: `.
            return Err(fail(format!(
                "unable to get metric {name}: unable to fetch metrics from custom metrics API: the server could not find the metric {name} for pods"
            )));
        }
        let metrics: Vec<Option<PodMetric>> = pods
            .iter()
            .map(|&p| self.custom_metric(name, p, at))
            .collect();
        if metrics.iter().all(Option::is_none) {
            return Err(fail(format!(
                "unable to get metric {name}: no metrics returned from custom metrics API"
            )));
        }
        let groups = self.group(pods, &metrics, "", at.saturating_sub(1));
        plain_replicas(&groups, &metrics, current, target, tolerances)
            .map(|(replicas, usage)| Proposal {
                replicas,
                name: format!("pods metric {name}"),
                value: MetricValue::AverageValue { milli: usage },
            })
            .map_err(fail)
    }

    /// The External metric KEDA's metrics server answers for a
    /// ScaledObject's trigger (the query, live at the HPA's pass), through
    /// `GetExternalPerPodMetricReplicas` for its `AverageValue` target:
    /// within tolerance of `total / (target × status)` the status count,
    /// else `ceil(total / target)`; the status shows `ceil(total /
    /// status)`, `status` being the target's `status.replicas`.
    #[allow(clippy::too_many_arguments)]
    pub fn keda_external(
        &self,
        keda: &crate::manifest::keda::Keda,
        name: &str,
        target: &Target,
        pods: &[usize],
        tolerances: Tolerances,
        at: Millis,
    ) -> Outcome {
        let selector = format!("&LabelSelector{{MatchLabels:map[string]string{{scaledobject.keda.sh/name: {},}},MatchExpressions:[]LabelSelectorRequirement{{}},}}", keda.name);
        // KEDA's metrics server (`GetScaledObjectMetrics`, through the
        // operator's gRPC `GetMetrics` in `metricsservice/server.go`)
        // answers a scaler error with `error when getting metric values
        // metric:NAME encountered error`; the adapter passes the gRPC
        // status on (`rpc error: code = Unknown desc = …`, as captured in
        // KEDA issue #4556) and the HPA wraps it (`external_failure`).
        let scaler_error = || {
            format!("rpc error: code = Unknown desc = error when getting metric values metric:{name} encountered error")
        };
        // The first prometheus trigger is the one podlab evaluates.
        let trigger = keda
            .trigger
            .as_ref()
            .filter(|trigger| format!("s{}-prometheus", trigger.metric_index) == name);
        let value = match trigger {
            Some(trigger) => match self.prometheus(trigger.series, pods, at) {
                Some(value) => value,
                None if trigger.ignore_null_values => 0,
                None => return Err(external_failure(name, target, &selector, &scaler_error())),
            },
            // Another trigger type: its scaler is not modelled and fails.
            None => return Err(external_failure(name, target, &selector, &scaler_error())),
        };
        let Target::AverageValue(target) = *target else {
            return Err(external_failure(name, target, &selector, &scaler_error()));
        };
        // `computeStatusForExternalMetric` passes `statusReplicas`, the
        // target's `status.replicas` (its pods not terminating nor
        // terminal, `FilterActivePods`), not `spec.replicas`: during a
        // rollout's surge, or while a scale-down's pods terminate, the
        // two differ. With 0 the ratio is +Inf or NaN (out of tolerance)
        // and the average 0 (`getPerPodUsage`), as in Go.
        let view = at.saturating_sub(1);
        let status = pods
            .iter()
            .filter(|&&p| {
                let pod = &self.run.pods[p];
                let phase = pod.phase_at(view);
                pod.deleting.is_none_or(|d| d > view) && phase != "Failed" && phase != "Succeeded"
            })
            .count();
        let status = i32::try_from(status).unwrap_or(i32::MAX);
        let target = target.max(1);
        let ratio = value as f64 / (target as f64 * f64::from(status));
        let replicas = if tolerances.within(ratio) {
            status
        } else {
            ceil_i32(value as f64 / target as f64)
        };
        let average = if status == 0 {
            0
        } else {
            (value as f64 / f64::from(status)).ceil() as i64
        };
        Ok(Proposal {
            replicas,
            name: format!("external metric {name}({selector})"),
            value: MetricValue::AverageValue { milli: average },
        })
    }

    /// What a KEDA `prometheus` trigger's query returns at `at`, in
    /// milli-units, from the last Prometheus scrape before `at`: `None` is
    /// an empty result (docs/autoscaling.md, "KEDA"). `requests_per_second`
    /// is the `rate()` of the requests that arrived at the Scenario's
    /// traffic's Service over [`RATE_WINDOW`] (from the first scrape in it),
    /// `requests_in_queue` the sum of the queue gauges of the target's
    /// listening `pods`; any other series was never exported.
    pub fn prometheus(
        &self,
        series: Option<crate::manifest::keda::Series>,
        pods: &[usize],
        at: Millis,
    ) -> Option<i64> {
        use crate::manifest::keda::Series;
        let scrape = last_scrape(at)?;
        match series? {
            Series::RequestsPerSecond => {
                let traffic = self.run.traffic.as_ref()?;
                let first = (1..=RATE_WINDOW / RESOLUTION)
                    .filter_map(|k| scrape.checked_sub(k * RESOLUTION))
                    .min()?;
                let second = |time: Millis| (time / 1000) as usize;
                let arrived: u64 = traffic
                    .windows
                    .get(second(first)..second(scrape))
                    .unwrap_or(&[])
                    .iter()
                    .map(|window| u64::from(window.arrived))
                    .sum();
                i64::try_from(arrived.saturating_mul(1_000_000) / (scrape - first).max(1)).ok()
            }
            Series::RequestsInQueue => {
                let values: Vec<i64> = pods
                    .iter()
                    .filter_map(|&p| self.custom_metric(REQUESTS_IN_QUEUE, p, at))
                    .map(|metric| metric.value)
                    .collect();
                // `sum()` over no series is an empty result.
                (!values.is_empty()).then(|| values.iter().sum())
            }
        }
    }

    /// metrics-server's answer for each pod at the last scrape before `at`.
    fn resource_metrics(
        &self,
        resource: &str,
        container: Option<&str>,
        pods: &[usize],
        at: Millis,
    ) -> Vec<Option<PodMetric>> {
        let Some(scrape) = last_scrape(at) else {
            return vec![None; pods.len()];
        };
        pods.iter()
            .map(|&p| self.resource_metric(resource, container, p, scrape))
            .collect()
    }

    fn resource_metric(
        &self,
        resource: &str,
        only: Option<&str>,
        pod: usize,
        scrape: Millis,
    ) -> Option<PodMetric> {
        let pod_run = self.run.pods.get(pod)?;
        if !pod_run.exists_at(scrape)
            || pod_run
                .node
                .as_ref()
                .is_none_or(|(_, bound)| *bound > scrape)
        {
            return None;
        }
        let load = self.loads.get(pod).copied().flatten();
        let mut total: i64 = 0;
        let mut window = RESOLUTION;
        for (index, container) in measured(pod_run) {
            if only.is_some_and(|only| only != container.name) {
                continue;
            }
            // Both points, or the fresh container's synthetic one.
            let started = running_since(container, scrape)?;
            let from = if started <= scrape.saturating_sub(RESOLUTION) {
                scrape - RESOLUTION
            } else if scrape - started >= FRESH_CONTAINER_MIN {
                started
            } else {
                return None;
            };
            window = scrape - from;
            total = total.saturating_add(match resource {
                "cpu" => {
                    let serving = load.filter(|load| index == Some(load.container));
                    let used = cpu_used(container, serving, from, scrape);
                    i64::try_from(used / i128::from(window.max(1))).unwrap_or(i64::MAX)
                }
                "memory" => i64::try_from(container.memory_at(scrape).saturating_mul(1000))
                    .unwrap_or(i64::MAX),
                _ => return None,
            });
        }
        Some(PodMetric {
            value: total,
            timestamp: scrape,
            window,
        })
    }

    /// A pod's custom metric at the last scrape before `at`.
    fn custom_metric(&self, name: &str, pod: usize, at: Millis) -> Option<PodMetric> {
        let scrape = last_scrape(at)?;
        let pod_run = self.run.pods.get(pod)?;
        let load = self.loads.get(pod).copied().flatten();
        let serving = pod_run
            .containers
            .get(load.map_or(0, |load| load.container))?;
        let listening = |time: Millis| {
            pod_run.exists_at(time)
                && running_since(serving, time).is_some_and(|started| {
                    started.saturating_add(serving.program.startup.value) <= time
                })
        };
        if !listening(scrape) {
            return None;
        }
        let second = |time: Millis| (time / 1000) as usize;
        let value = if name == REQUESTS_IN_QUEUE {
            let queued = load
                .and_then(|load| load.queued.get(second(scrape)).copied())
                .unwrap_or(0);
            i64::from(queued) * 1000
        } else {
            // rate(): from the first sample in the window to the last.
            let first = (1..=RATE_WINDOW / RESOLUTION)
                .filter_map(|k| scrape.checked_sub(k * RESOLUTION))
                .filter(|&time| listening(time))
                .min()?;
            let received: u64 = load.map_or(0, |load| {
                load.received
                    .get(second(first)..second(scrape))
                    .unwrap_or(&[])
                    .iter()
                    .map(|&n| u64::from(n))
                    .sum()
            });
            i64::try_from(received.saturating_mul(1_000_000) / (scrape - first).max(1))
                .unwrap_or(i64::MAX)
        };
        Some(PodMetric {
            value,
            timestamp: scrape,
            window: RATE_WINDOW,
        })
    }

    /// `calculateRequests`: each pod's request for `resource` (milli),
    /// summed over its containers and sidecars, or that container's.
    fn requests(
        &self,
        resource: &str,
        only: Option<&str>,
        pods: &[usize],
    ) -> Result<Vec<i64>, String> {
        pods.iter()
            .map(|&p| {
                let pod = &self.run.pods[p];
                let sidecars = pod
                    .spec
                    .init_containers
                    .iter()
                    .filter(|c| c.restart_policy.as_deref() == Some("Always"));
                let mut request: i64 = 0;
                for container in pod.spec.containers.iter().chain(sidecars) {
                    if only.is_some_and(|only| only != container.name) {
                        continue;
                    }
                    let Some(quantity) = container.resources.effective_request(resource) else {
                        return Err(format!(
                            "missing request for {resource} in container {} of Pod {}",
                            container.name, pod.name
                        ));
                    };
                    request =
                        request.saturating_add(i64::try_from(quantity.milli).unwrap_or(i64::MAX));
                    if only == Some(container.name.as_str()) {
                        return Ok(request);
                    }
                }
                match only {
                    Some(only) => Err(format!("container {only} not found in Pod {}", pod.name)),
                    None => Ok(request),
                }
            })
            .collect()
    }

    /// `groupPods`: which pods are ready, unready, missing or ignored at
    /// `view`, with the CPU-only readiness rules.
    fn group(
        &self,
        pods: &[usize],
        metrics: &[Option<PodMetric>],
        resource: &str,
        view: Millis,
    ) -> Vec<Group> {
        pods.iter()
            .zip(metrics)
            .map(|(&p, metric)| {
                let pod = &self.run.pods[p];
                let phase = pod.phase_at(view);
                if pod.deleting.is_some_and(|d| d <= view)
                    || phase == "Failed"
                    || phase == "Succeeded"
                {
                    return Group::Ignored;
                }
                if phase == "Pending" {
                    return Group::Unready;
                }
                let Some(metric) = metric else {
                    return Group::Missing;
                };
                if resource == "cpu" && cpu_unready(pod, metric, view) {
                    return Group::Unready;
                }
                Group::Ready
            })
            .collect()
    }
}

/// An External metric's failure, its words layered as upstream layers
/// them: `metrics/client.go` `GetExternalMetric` (`unable to fetch metrics
/// from external metrics API: %v` around the API's error),
/// `replica_calculator.go` `GetExternalPerPodMetricReplicas` and
/// `GetExternalMetricReplicas` (`unable to get external metric
/// %s/%s/%+v: %s`, namespace, name, selector; the event and the
/// condition's words), then `horizontal.go`
/// `computeStatusForExternalMetric` (`failed to get %s external metric:
/// %w` for an AverageValue target, `failed to get external metric %s: %w`
/// for a Value target) and `computeReplicasForMetric` (`failed to get %s
/// external metric value: %w`; `FailedComputeMetricsReplicas`' first
/// error).
pub(super) fn external_failure(name: &str, target: &Target, selector: &str, api: &str) -> Failure {
    let error = format!(
        "unable to get external metric default/{name}/{selector}: unable to fetch metrics from external metrics API: {api}"
    );
    let (error, status) = match target {
        Target::AverageValue(_) => {
            let status = format!("failed to get {name} external metric: {error}");
            (error, status)
        }
        Target::Value(_) => {
            let status = format!("failed to get external metric {name}: {error}");
            (error, status)
        }
        _ => {
            let error = "invalid external metric source: neither a value target nor an average value target was set".to_string();
            (error.clone(), error)
        }
    };
    Failure {
        reason: "FailedGetExternalMetric",
        wrapped: format!("failed to get {name} external metric value: {status}"),
        error,
    }
}

/// An Object metric's failure: the custom metrics API (the adapter podlab
/// assumes, which serves only the traffic's per-pod series) answers
/// NotFound for the described object (custom-metrics-apiserver
/// `NewMetricNotFoundForError`: `the server could not find the metric %s
/// for %s %s`, **[derived]**), `metrics/client.go` `GetObjectMetric`
/// wraps it (`unable to fetch metrics from custom metrics API: %v`), and
/// `replica_calculator.go` `GetObjectMetricReplicas` /
/// `GetObjectPerPodMetricReplicas` wrap that with their arguments out of
/// order (`unable to get metric %s: %v on %s %s/%s` given metric, kind,
/// namespace, name, error: `unable to get metric X: Deployment on default
/// NAME/…`, kubernetes v1.34-v1.35); `computeStatusForObjectMetric` adds
/// `failed to get %s object metric: ` for an AverageValue target and
/// `computeReplicasForMetric` `failed to get object metric value: `.
fn object_failure(spec: &MetricSpec, name: &str) -> Failure {
    let (kind, object) = spec.described_object.clone().unwrap_or_default();
    let api = format!(
        "unable to fetch metrics from custom metrics API: the server could not find the metric {name} for {} {object}",
        super::resource_of(&kind)
    );
    let error = format!("unable to get metric {name}: {kind} on default {object}/{api}");
    let (error, status) = match spec.target {
        Target::AverageValue(_) => {
            let status = format!("failed to get {name} object metric: {error}");
            (error, status)
        }
        Target::Value(_) => (error.clone(), error),
        _ => {
            let error = "invalid object metric source: neither a value target nor an average value target was set".to_string();
            (error.clone(), error)
        }
    };
    Failure {
        reason: "FailedGetObjectMetric",
        wrapped: format!("failed to get object metric value: {status}"),
        error,
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Group {
    Ready,
    Unready,
    Missing,
    Ignored,
}

/// `groupPods`' CPU rule: within `cpuInitializationPeriod` of `startTime`
/// a sample counts only from a Ready pod and once a whole window has been
/// collected since its last Ready transition; later, a pod that is not
/// Ready and never was (its transition came within the initial readiness
/// delay) is unready. `startTime` is when the kubelet took the pod (its
/// binding); a pod never Ready has its Ready=False transition then.
fn cpu_unready(pod: &PodRun, metric: &PodMetric, view: Millis) -> bool {
    let Some((_, start)) = pod.node.as_ref().map(|(node, at)| (node, *at)) else {
        return true;
    };
    let intervals = pod_ready_intervals(pod);
    let current = intervals
        .iter()
        .find(|(from, to)| *from <= view && view < *to);
    let ready = current.is_some();
    let transition = match current {
        Some((from, _)) => *from,
        None => intervals
            .iter()
            .filter(|(_, to)| *to <= view)
            .map(|(_, to)| *to)
            .max()
            .unwrap_or(start),
    };
    if start.saturating_add(CPU_INITIALIZATION_PERIOD) > view {
        !ready || metric.timestamp < transition.saturating_add(metric.window)
    } else {
        !ready && start.saturating_add(INITIAL_READINESS_DELAY) > transition
    }
}

/// The app containers and the running sidecars of a pod, with the app
/// container's index (`None` for a sidecar).
fn measured(pod: &PodRun) -> impl Iterator<Item = (Option<usize>, &ContainerRun)> {
    let app = pod.containers.iter().enumerate().map(|(i, c)| (Some(i), c));
    let sidecars = pod
        .init_containers
        .iter()
        .enumerate()
        .filter(move |(i, _)| init::is_sidecar(pod, *i))
        .map(|(_, c)| (None, c));
    app.chain(sidecars)
}

/// When the instance running at `at` started.
fn running_since(container: &ContainerRun, at: Millis) -> Option<Millis> {
    let instance = container.instances.iter().rev().find(|i| i.started <= at)?;
    if instance.exit.as_ref().is_some_and(|exit| exit.at <= at) {
        return None;
    }
    Some(instance.started)
}

/// CPU the container used over `[from, to)`, in millicore·ms: the Scenario's
/// `cpu` model (`loading` until `startup`, then `idle`), plus `perRequest`
/// for each request whose batch finished on it in the whole seconds of the
/// window.
fn cpu_used(container: &ContainerRun, serving: Option<&PodLoad>, from: Millis, to: Millis) -> i128 {
    let cpu = &container.program.cpu;
    let startup = container.program.startup.value;
    let overlap = |a: Millis, b: Millis| i128::from(b.min(to).saturating_sub(a.max(from)));
    let mut used: i128 = 0;
    for instance in &container.instances {
        let end = instance.exit.as_ref().map_or(Millis::MAX, |exit| exit.at);
        let loaded = instance.started.saturating_add(startup).min(end);
        used += cpu.loading.value * overlap(instance.started, loaded);
        used += cpu.idle.value * overlap(loaded, end);
    }
    if let Some(load) = serving {
        let requests: i128 = load
            .completed
            .get((from / 1000) as usize..(to / 1000) as usize)
            .unwrap_or(&[])
            .iter()
            .map(|&n| i128::from(n))
            .sum();
        // One CPU-millisecond is 1000 millicore·ms.
        used += requests * i128::from(cpu.per_request.value) * 1000;
    }
    used
}

/// The HPA's tolerances (`tolerancesForHpa`).
#[derive(Clone, Copy, Debug)]
pub struct Tolerances {
    pub down: f64,
    pub up: f64,
}

impl Tolerances {
    /// `isWithin`: inclusive at both ends.
    fn within(self, ratio: f64) -> bool {
        (1.0 - self.down) <= ratio && ratio <= (1.0 + self.up)
    }
}

// The calculator follows the Go code's float64 arithmetic on purpose: its
// `math.Ceil(usageRatio * n)` is the decision, and IEEE doubles give the
// same bits natively and in wasm.

/// `GetResourceReplicas` after the metrics are fetched: (replicas,
/// utilization %, raw average milli).
fn utilization_replicas(
    groups: &[Group],
    metrics: &[Option<PodMetric>],
    requests: &[i64],
    current: i32,
    target: i32,
    tolerances: Tolerances,
) -> Result<(i32, i32, i64), String> {
    let ready = groups.iter().filter(|g| **g == Group::Ready).count();
    let mut values: Vec<(i64, i64)> = Vec::new();
    for ((group, metric), request) in groups.iter().zip(metrics).zip(requests) {
        if let (Group::Ready, Some(metric)) = (group, metric) {
            values.push((metric.value, *request));
        }
    }
    if values.is_empty() {
        return Err("did not receive metrics for targeted pods (pods might be unready)".into());
    }
    let (ratio, utilization, raw) = utilization_ratio(&values, target)?;
    let unready = groups.contains(&Group::Unready);
    let missing: Vec<usize> = (0..groups.len())
        .filter(|&i| groups[i] == Group::Missing)
        .collect();
    let scale_up_with_unready = unready && ratio > 1.0;
    if !scale_up_with_unready && missing.is_empty() {
        if tolerances.within(ratio) {
            return Ok((current, utilization, raw));
        }
        return Ok((ceil_i32(ratio * ready as f64), utilization, raw));
    }
    for &i in &missing {
        if ratio < 1.0 {
            let fallback = i64::from(target.max(100));
            values.push((requests[i] * fallback / 100, requests[i]));
        } else if ratio > 1.0 {
            values.push((0, requests[i]));
        }
    }
    if scale_up_with_unready {
        for (i, group) in groups.iter().enumerate() {
            if *group == Group::Unready {
                values.push((0, requests[i]));
            }
        }
    }
    let (new_ratio, _, _) = utilization_ratio(&values, target)?;
    if tolerances.within(new_ratio)
        || (ratio < 1.0 && new_ratio > 1.0)
        || (ratio > 1.0 && new_ratio < 1.0)
    {
        return Ok((current, utilization, raw));
    }
    let replicas = ceil_i32(new_ratio * values.len() as f64);
    if (new_ratio < 1.0 && replicas > current) || (new_ratio > 1.0 && replicas < current) {
        return Ok((current, utilization, raw));
    }
    Ok((replicas, utilization, raw))
}

/// `GetResourceUtilizationRatio` (`metrics/utilization.go`): a ratio of
/// sums, the utilization an integer division.
fn utilization_ratio(values: &[(i64, i64)], target: i32) -> Result<(f64, i32, i64), String> {
    let metrics: i64 = values.iter().map(|(m, _)| *m).sum();
    let requests: i64 = values.iter().map(|(_, r)| *r).sum();
    if requests == 0 {
        return Err("no metrics returned matched known pods".into());
    }
    let utilization = i32::try_from(metrics.saturating_mul(100) / requests).unwrap_or(i32::MAX);
    Ok((
        f64::from(utilization) / f64::from(target.max(1)),
        utilization,
        metrics / values.len() as i64,
    ))
}

/// `calcPlainMetricReplicas`: (replicas, average usage milli).
fn plain_replicas(
    groups: &[Group],
    metrics: &[Option<PodMetric>],
    current: i32,
    target: i64,
    tolerances: Tolerances,
) -> Result<(i32, i64), String> {
    let ready = groups.iter().filter(|g| **g == Group::Ready).count();
    let mut values: Vec<i64> = groups
        .iter()
        .zip(metrics)
        .filter_map(|(group, metric)| match (group, metric) {
            (Group::Ready, Some(metric)) => Some(metric.value),
            _ => None,
        })
        .collect();
    if values.is_empty() {
        return Err("did not receive metrics for targeted pods (pods might be unready)".into());
    }
    let usage_ratio = |values: &[i64]| {
        let usage = values.iter().sum::<i64>() / values.len() as i64;
        (usage as f64 / target.max(1) as f64, usage)
    };
    let (ratio, usage) = usage_ratio(&values);
    let unready = groups.iter().filter(|g| **g == Group::Unready).count();
    let missing = groups.iter().filter(|g| **g == Group::Missing).count();
    let scale_up_with_unready = unready > 0 && ratio > 1.0;
    if !scale_up_with_unready && missing == 0 {
        if tolerances.within(ratio) {
            return Ok((current, usage));
        }
        return Ok((ceil_i32(ratio * ready as f64), usage));
    }
    if ratio < 1.0 {
        values.extend(std::iter::repeat_n(target, missing));
    } else if ratio > 1.0 {
        values.extend(std::iter::repeat_n(0, missing));
    }
    if scale_up_with_unready {
        values.extend(std::iter::repeat_n(0, unready));
    }
    let (new_ratio, _) = usage_ratio(&values);
    if tolerances.within(new_ratio)
        || (ratio < 1.0 && new_ratio > 1.0)
        || (ratio > 1.0 && new_ratio < 1.0)
    {
        return Ok((current, usage));
    }
    let replicas = ceil_i32(new_ratio * values.len() as f64);
    if (new_ratio < 1.0 && replicas > current) || (new_ratio > 1.0 && replicas < current) {
        return Ok((current, usage));
    }
    Ok((replicas, usage))
}

fn ceil_i32(value: f64) -> i32 {
    let ceiled = value.ceil();
    if ceiled >= f64::from(i32::MAX) {
        i32::MAX
    } else {
        ceiled as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOLERANCE: Tolerances = Tolerances { down: 0.1, up: 0.1 };

    fn ready(values: &[i64]) -> (Vec<Group>, Vec<Option<PodMetric>>) {
        let metrics = values
            .iter()
            .map(|&value| {
                Some(PodMetric {
                    value,
                    timestamp: 0,
                    window: RESOLUTION,
                })
            })
            .collect();
        (vec![Group::Ready; values.len()], metrics)
    }

    /// `TestReplicaCalcScaleUp` (replica_calculator_test.go): requests 1 CPU
    /// × 3, usage 300m/500m/700m, target 30 %: utilization 50 %, ratio
    /// 1.667, desired ⌈1.667 × 3⌉ = 5.
    #[test]
    fn replica_calc_scale_up_as_upstream_test() {
        let (groups, metrics) = ready(&[300, 500, 700]);
        let result = utilization_replicas(&groups, &metrics, &[1000, 1000, 1000], 3, 30, TOLERANCE);
        assert_eq!(result, Ok((5, 50, 500)));
    }

    /// Utilization is an integer division of the sums: 659m of 1000m is 65 %.
    #[test]
    fn utilization_is_truncated_ratio_of_sums() {
        let (groups, metrics) = ready(&[659]);
        let result = utilization_replicas(&groups, &metrics, &[1000], 1, 65, TOLERANCE);
        assert_eq!(result, Ok((1, 65, 659)));
    }

    /// Inside the tolerance (0.9 ≤ ratio ≤ 1.1 inclusive) nothing changes.
    #[test]
    fn tolerance_is_inclusive() {
        let (groups, metrics) = ready(&[550, 550]);
        // 55 % / 50 % = 1.1 exactly.
        assert_eq!(
            utilization_replicas(&groups, &metrics, &[1000, 1000], 2, 50, TOLERANCE),
            Ok((2, 55, 550))
        );
    }

    /// A missing pod counts as 0 on a scale-up: ready 2 at 90 % of a 50 %
    /// target (ratio 1.8) plus one missing at 0 → 60 % over 3 → ratio 1.2
    /// → ⌈1.2 × 3⌉ = 4 (not ⌈1.8 × 2⌉ = 4 by chance: with 80 %, 1.6 → 1.0667
    /// within tolerance → stays 3).
    #[test]
    fn missing_pods_count_as_zero_on_scale_up() {
        let mut groups = vec![Group::Ready, Group::Ready, Group::Missing];
        let mut metrics = vec![
            Some(PodMetric {
                value: 900,
                timestamp: 0,
                window: RESOLUTION,
            }),
            Some(PodMetric {
                value: 900,
                timestamp: 0,
                window: RESOLUTION,
            }),
            None,
        ];
        assert_eq!(
            utilization_replicas(&groups, &metrics, &[1000; 3], 3, 50, TOLERANCE),
            Ok((4, 90, 900))
        );
        metrics[0] = Some(PodMetric {
            value: 800,
            timestamp: 0,
            window: RESOLUTION,
        });
        metrics[1] = Some(PodMetric {
            value: 800,
            timestamp: 0,
            window: RESOLUTION,
        });
        groups[2] = Group::Missing;
        assert_eq!(
            utilization_replicas(&groups, &metrics, &[1000; 3], 3, 50, TOLERANCE),
            Ok((3, 80, 800))
        );
    }

    /// Pods metrics: missing pods count as the target on a scale-down.
    #[test]
    fn plain_missing_pods_count_as_target_on_scale_down() {
        let groups = vec![Group::Ready, Group::Ready, Group::Missing, Group::Missing];
        let metrics = vec![
            Some(PodMetric {
                value: 1000,
                timestamp: 0,
                window: RESOLUTION,
            }),
            Some(PodMetric {
                value: 1000,
                timestamp: 0,
                window: RESOLUTION,
            }),
            None,
            None,
        ];
        // ratio 0.2 → with 2 × 5000: (1000+1000+5000+5000)/4 = 3000 → 0.6 → ⌈2.4⌉ = 3.
        assert_eq!(
            plain_replicas(&groups, &metrics, 4, 5000, TOLERANCE),
            Ok((3, 1000))
        );
    }

    #[test]
    fn scrapes_are_on_the_15s_grid_at_7s() {
        assert_eq!(last_scrape(7_000), None);
        assert_eq!(last_scrape(15_000), Some(7_000));
        assert_eq!(last_scrape(22_000), Some(7_000));
        assert_eq!(last_scrape(22_001), Some(22_000));
        assert_eq!(last_scrape(30_000), Some(22_000));
    }
}
