//! The Scenario's requests and what serving them costs: `traffic:` (the
//! rate a client population sends, docs/traffic.md) and, per workload
//! entry, `serve:` (how one Ready replica answers) and `cpu:` (the CPU it
//! uses, which a HorizontalPodAutoscaler reads, docs/autoscaling.md), as
//! written and with their defaults resolved. Lowering never fails, as in
//! `mod.rs`.

use super::{duration_at, int_at, str_at, written};
use crate::manifest::duration::Millis;
use crate::manifest::model::Setting;
use crate::manifest::quantity::Quantity;
use crate::manifest::yaml::Node;
use crate::span::Span;

/// `traffic: {service, rate, arrivals, timeout, propagation}`: the requests
/// a client population sends (docs/traffic.md).
#[derive(Clone, Debug, PartialEq)]
pub struct Traffic {
    pub span: Span,
    /// The Service receiving them; `None`: every pod of the first serving
    /// workload.
    pub service: Option<Setting<String>>,
    /// Steps of the rate, sorted by `at`.
    pub rate: Vec<RateStep>,
    pub arrivals: Arrivals,
    /// The client gives up after this long (default 30 s).
    pub timeout: Millis,
    /// Where `timeout` is written: `None` when it is the default.
    pub timeout_span: Option<Span>,
    /// From an endpoint's change to kube-proxy's rules on every node
    /// (traffic-autoscaling.md §4.3: `--iptables-min-sync-period` 1 s).
    pub propagation: Millis,
    /// The P99 latency the service should stay under (default 1 s): the
    /// page's target line, and what the diagnosis calls slow.
    pub target: Millis,
    /// `interceptor:`: KEDA's HTTP add-on holds the requests in front of
    /// the Service (traffic-autoscaling.md §3.3); `None`: clients reach
    /// the Service directly.
    pub interceptor: Option<Interceptor>,
}

/// `interceptor: {conditionWait, responseHeader}`: the HTTP add-on's
/// interceptor (v0.11.1) between the clients and the Service, named as an
/// `HTTPScaledObject`'s `spec.timeouts` names them.
#[derive(Clone, Debug, PartialEq)]
pub struct Interceptor {
    pub span: Span,
    /// How long a request waits for a ready endpoint before the interceptor
    /// answers 502 (`KEDA_CONDITION_WAIT_TIMEOUT`: 20 s in the shipped
    /// manifest, `config/interceptor/deployment.yaml`).
    pub condition_wait: Millis,
    /// How long the interceptor waits for the pod's response headers once
    /// it forwarded the request before it answers 502
    /// (`KEDA_RESPONSE_HEADER_TIMEOUT`: 500 ms in v0.11.1, code and
    /// manifest). A model server that answers a whole response at once
    /// sends its headers when it has computed it.
    pub response_header: Millis,
}

/// `{at: 5m, rps: 120, ramp: true}`: from `at`, `rps` requests per second;
/// with `ramp`, the rate moves in a straight line to the next step's.
#[derive(Clone, Debug, PartialEq)]
pub struct RateStep {
    pub at: Millis,
    /// Requests per second × 1000.
    pub milli_rps: u64,
    pub ramp: bool,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrivals {
    /// Exponential gaps from the seeded generator.
    Poisson,
    /// Evenly spaced.
    Uniform,
}

/// `serve:` of a workload entry: how one Ready replica of the program
/// answers requests (docs/traffic.md).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ServeSpec {
    pub span: Option<Span>,
    pub concurrency: Option<Setting<i64>>,
    pub latency: Option<Setting<Millis>>,
    pub exponential: Option<Setting<bool>>,
    pub max_batch: Option<Setting<i64>>,
    pub max_wait: Option<Setting<Millis>>,
    pub per_item: Option<Setting<Millis>>,
    pub queue_limit: Option<Setting<i64>>,
}

impl ServeSpec {
    pub(super) fn over(&self, under: &ServeSpec) -> ServeSpec {
        fn pick<T: Clone>(over: &Option<T>, under: &Option<T>) -> Option<T> {
            over.clone().or_else(|| under.clone())
        }
        ServeSpec {
            span: self.span.or(under.span),
            concurrency: pick(&self.concurrency, &under.concurrency),
            latency: pick(&self.latency, &under.latency),
            exponential: pick(&self.exponential, &under.exponential),
            max_batch: pick(&self.max_batch, &under.max_batch),
            max_wait: pick(&self.max_wait, &under.max_wait),
            per_item: pick(&self.per_item, &under.per_item),
            queue_limit: pick(&self.queue_limit, &under.queue_limit),
        }
    }
}

/// A program's serving model, every default resolved: 4 requests at once,
/// 80 ms each, no batching, 100 waiting at most — 50 requests/s per replica,
/// so the reference Deployment serves 20 requests/s at 40 % busy.
#[derive(Clone, Debug, PartialEq)]
pub struct Serve {
    pub concurrency: Setting<i64>,
    /// The service time of a batch of one.
    pub latency: Setting<Millis>,
    /// `distribution: exponential` (that mean), else fixed.
    pub exponential: bool,
    pub max_batch: Setting<i64>,
    pub max_wait: Setting<Millis>,
    /// What each further request of a batch adds.
    pub per_item: Setting<Millis>,
    pub queue_limit: Setting<i64>,
}

impl Serve {
    /// Microseconds a batch of `b` takes: `latency + (b − 1) × perItem`.
    pub fn batch_micros(&self, b: u64) -> u64 {
        self.latency
            .value
            .saturating_add(b.saturating_sub(1).saturating_mul(self.per_item.value))
            .saturating_mul(1000)
    }

    /// Requests per second one replica serves at full batches, × 1000.
    pub fn capacity_milli_rps(&self) -> u64 {
        let batch = self.max_batch.value.max(1) as u64;
        let slots = self.concurrency.value.max(1) as u64;
        let micros = self.batch_micros(batch).max(1);
        // slots × batch requests every `micros` µs.
        slots.saturating_mul(batch).saturating_mul(1_000_000_000) / micros
    }
}

/// `cpu:` of a workload entry: the CPU the program uses, which metrics-server
/// reports and a HorizontalPodAutoscaler reads (docs/autoscaling.md).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CpuSpec {
    pub span: Option<Span>,
    /// Millicores used while running and loaded, whatever the load.
    pub idle: Option<Setting<Quantity>>,
    /// CPU time one request costs (`20ms`: 50 requests/s use one core).
    pub per_request: Option<Setting<Millis>>,
    /// Millicores used while loading (from start to `startup`).
    pub loading: Option<Setting<Quantity>>,
}

/// A program's CPU model, defaults resolved: 10m idle, 5 ms of CPU per
/// request, one core while loading (docs/autoscaling.md).
#[derive(Clone, Debug, PartialEq)]
pub struct Cpu {
    /// Millicores.
    pub idle: Setting<i128>,
    /// Milliseconds of CPU time per request.
    pub per_request: Setting<Millis>,
    /// Millicores.
    pub loading: Setting<i128>,
}

/// `cpu:` resolved: the defaults of [`Cpu`].
pub(super) fn cpu_of(spec: Option<&CpuSpec>) -> Cpu {
    let milli = |setting: Option<&Setting<Quantity>>, default: i128| match setting {
        Some(quantity) => Setting {
            value: quantity.value.milli.max(0),
            span: quantity.span,
        },
        None => Setting {
            value: default,
            span: None,
        },
    };
    Cpu {
        idle: milli(spec.and_then(|cpu| cpu.idle.as_ref()), 10),
        per_request: spec
            .and_then(|cpu| cpu.per_request.clone())
            .unwrap_or(Setting {
                value: 5,
                span: None,
            }),
        loading: milli(spec.and_then(|cpu| cpu.loading.as_ref()), 1000),
    }
}

/// `serve:` resolved: the defaults of [`Serve`].
pub(super) fn serve_of(spec: Option<&ServeSpec>) -> Serve {
    let empty = ServeSpec::default();
    let spec = spec.unwrap_or(&empty);
    let or = |setting: &Option<Setting<i64>>, default: i64, least: i64| {
        setting
            .clone()
            .map(|mut setting| {
                setting.value = setting.value.max(least);
                setting
            })
            .unwrap_or(Setting {
                value: default,
                span: None,
            })
    };
    let millis = |setting: &Option<Setting<Millis>>, default: Millis| {
        setting.clone().unwrap_or(Setting {
            value: default,
            span: None,
        })
    };
    Serve {
        concurrency: or(&spec.concurrency, 4, 1),
        latency: millis(&spec.latency, 80),
        exponential: spec.exponential.as_ref().is_some_and(|e| e.value),
        max_batch: or(&spec.max_batch, 1, 1),
        max_wait: millis(&spec.max_wait, 0),
        per_item: millis(&spec.per_item, 0),
        queue_limit: or(&spec.queue_limit, 100, 0),
    }
}

pub(super) fn lower_serve(serve: &Node) -> ServeSpec {
    let batching = serve.get("batching");
    ServeSpec {
        span: Some(serve.span),
        concurrency: int_at(serve, "concurrency"),
        latency: duration_at(serve, "latency"),
        exponential: serve.get("distribution").and_then(|node| {
            let name = node.as_str()?;
            Some(written(name == "exponential", node.span))
        }),
        max_batch: batching.and_then(|b| int_at(b, "maxBatch")),
        max_wait: batching.and_then(|b| duration_at(b, "maxWait")),
        per_item: batching.and_then(|b| duration_at(b, "perItem")),
        queue_limit: int_at(serve, "queueLimit"),
    }
}

/// `traffic:` lowered; `None` without a rate (nothing is sent).
pub(super) fn lower_traffic(node: &Node) -> Option<Traffic> {
    let mut rate: Vec<RateStep> = node
        .get("rate")
        .and_then(Node::items)
        .unwrap_or(&[])
        .iter()
        .filter_map(|step| {
            let at = duration_at(step, "at").map_or(0, |at| at.value);
            let rps = step.get("rps")?;
            let milli_rps = match crate::number::parse(rps.as_str()?)? {
                crate::number::Float::Number(decimal) => {
                    // At most a million requests a second.
                    decimal.floor_times(1000, 1_000_000_001)?
                }
                crate::number::Float::NonFinite => return None,
            };
            Some(RateStep {
                at,
                milli_rps,
                ramp: step.get("ramp").and_then(Node::as_bool).unwrap_or(false),
                span: step.span,
            })
        })
        .collect();
    crate::sort::sort_by_key(&mut rate, |step| step.at);
    if rate.is_empty() {
        return None;
    }
    Some(Traffic {
        span: node.span,
        service: str_at(node, "service"),
        rate,
        arrivals: match node.get("arrivals").and_then(Node::as_str) {
            Some("uniform") => Arrivals::Uniform,
            _ => Arrivals::Poisson,
        },
        timeout: duration_at(node, "timeout").map_or(30_000, |t| t.value.max(1)),
        timeout_span: duration_at(node, "timeout").and_then(|t| t.span),
        propagation: duration_at(node, "propagation").map_or(1000, |p| p.value),
        target: duration_at(node, "target").map_or(1000, |t| t.value.max(1)),
        interceptor: node.get("interceptor").map(|interceptor| Interceptor {
            span: interceptor.span,
            condition_wait: duration_at(interceptor, "conditionWait").map_or(20_000, |t| t.value),
            response_header: duration_at(interceptor, "responseHeader")
                .map_or(500, |t| t.value.max(1)),
        }),
    })
}
