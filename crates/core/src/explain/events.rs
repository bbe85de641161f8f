//! The Event objects the API server holds for one involved object at a time
//! T, built from a run's occurrences (`Run::events`, every single one) the
//! way the two recorders of a v1.35 cluster write them
//! (`kubectl-output.md` §3.5-§3.6, `kubelet.md` §7).
//!
//! # Public API (stable: the fake API server serializes these objects)
//!
//! - [`EventObject`]: one stored Event. `first`/`last` are the simulated
//!   times (ms from t = 0) of the first and the last *counted* occurrence;
//!   on the wire the core/v1 `firstTimestamp`/`lastTimestamp` keep whole
//!   seconds ([`to_wire_seconds`]), `eventTime`/`series.lastObservedTime`
//!   keep microseconds (ms here).
//! - [`aggregate`]: the objects for `object` (`"Pod/<name>"`) at `at`, in API
//!   list order (by `name`, which is the order `kubectl get events` prints).
//! - [`aggregate_with`]: the same with the kubelet's spam filter switchable.
//! - [`EPOCH_UNIX_SECONDS`]: simulated t = 0 is 2026-01-01T00:00:00Z.
//!
//! How an object maps to the API (core/v1 `Event`):
//! - `source == "default-scheduler"` ([`EventObject::uses_event_time`]): the
//!   events.k8s.io recorder. `eventTime` = `first`, `reportingComponent` =
//!   `default-scheduler`, `source` empty, no `firstTimestamp`/
//!   `lastTimestamp`, `count` 0; when `count > 1`,
//!   `series: {count, lastObservedTime: last}`.
//! - every other source (`kubelet`, later the controllers): the legacy
//!   core/v1 recorder. `source.component` = `source` (`source.host` = the
//!   node for the kubelet), `firstTimestamp` = `first`, `lastTimestamp` =
//!   `last`, `count`, no `eventTime`.
//! - `involvedObject.fieldPath` = `field_path`; `type` = `Warning` when
//!   `warning`, else `Normal`; `metadata.name` = `name`.
//!
//! # What is modelled (client-go `tools/record`, read at HEAD July 2026)
//!
//! The legacy recorder runs `EventCorrelate` on every occurrence:
//! 1. the aggregator groups by source + object + type + reason; when the
//!    10th distinct message arrives within 600 s of the group's previous
//!    occurrence, its message gets the prefix `(combined from similar
//!    events): ` and it is counted on one combined object. It applies to runs
//!    only when a reason carries 10 different texts (a probe message that
//!    embeds something that changes); today's messages are stable, so it is
//!    dormant but implemented. Go's `PopAny` drops an arbitrary message from
//!    the group's set; here the oldest (deterministic; UNCONFIRMED order).
//! 2. de-duplication: same source, object, field path, type, reason and
//!    message → one object whose `count` and `last` advance; its name and
//!    `first` are those of the first occurrence.
//! 3. the spam filter (kubernetes-behavior.md decision 4: modelled): a token
//!    bucket per source + object + type, burst 25, refill 1/300 s, emulating
//!    `golang.org/x/time/rate` in f64 with the float32 rate as Go has it. A
//!    filtered occurrence is still counted (step 2 ran), so the next one that
//!    passes carries the whole count; `last` freezes in between.
//!
//! The scheduler's events.k8s.io recorder (`tools/events`): occurrences with
//! the same type, reason and regarding object (including its
//! resourceVersion) form one series; the 2nd writes `series.count = 2`, later
//! ones only update the recorder's cache, written when the series ends (no
//! occurrence for 6 min, checked every 6 min) or on the 30-min refresh.
//! The first FailedScheduling changes the pod's resourceVersion
//! (PodScheduled=False), so the 2nd attempt starts a new object (§3.6). The
//! checks run at k × 6 min and k × 30 min from t = 0 (the scheduler starts
//! with the run), before occurrences at the same instant. A series keeps the
//! message it was created with (the key has no message).
//!
//! Objects disappear 1 h after their last write (`--event-ttl` default;
//! UNCONFIRMED, a maintainer comment; the real expiry is up to a minute
//! later because of lease reuse). Writes are instantaneous here (the real
//! recorder writes asynchronously and retries).

use crate::manifest::duration::Millis;
use crate::sim::Run;

pub use crate::manifest::duration::EPOCH_UNIX_SECONDS;

/// `defaultAggregateMaxEvents`, `defaultAggregateIntervalInSeconds`.
const AGGREGATE_MAX_MESSAGES: usize = 10;
const AGGREGATE_INTERVAL: Millis = 600_000;
/// `defaultSpamBurst`, `defaultSpamQPS` (a float32 in client-go).
const SPAM_BURST: f64 = 25.0;
const SPAM_QPS: f32 = 1.0 / 300.0;
/// `tools/events` `finishTime` and `refreshTime`.
const SERIES_FINISH: Millis = 6 * 60_000;
const SERIES_REFRESH: Millis = 30 * 60_000;
/// `--event-ttl` default.
const EVENT_TTL: Millis = 3_600_000;

const COMBINED_PREFIX: &str = "(combined from similar events): ";

/// One Event object as the API server stores it (see the module doc for the
/// mapping to core/v1 fields).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventObject {
    /// `metadata.name`: `<object name>.<hex UnixNano of the first occurrence>`
    /// (`util.GenerateEventName`); occurrences in the same millisecond are
    /// told apart by their position in the run (nanoseconds).
    pub name: String,
    pub reason: &'static str,
    /// As stored (no field-path prefix; `describe` adds it).
    pub message: String,
    pub warning: bool,
    /// `kubelet`, `default-scheduler`.
    pub source: &'static str,
    /// `spec.containers{api}` for container events.
    pub field_path: Option<String>,
    /// The first occurrence (`firstTimestamp`, or `eventTime`).
    pub first: Millis,
    /// The last occurrence written (`lastTimestamp`, or
    /// `series.lastObservedTime`; `first` when `count` is 1).
    pub last: Millis,
    /// `count`, or `series.count` (1 when there is no series).
    pub count: u32,
    /// The involved object as in `run.events`: `Pod/<name>`.
    pub object: String,
}

impl EventObject {
    /// Written by the events.k8s.io recorder (the scheduler): `eventTime`
    /// and `series` instead of first/last timestamps and `count`.
    pub fn uses_event_time(&self) -> bool {
        self.source == "default-scheduler"
    }

    /// `Normal` or `Warning`.
    pub fn type_name(&self) -> &'static str {
        if self.warning {
            "Warning"
        } else {
            "Normal"
        }
    }

    /// `series` as (count, lastObservedTime) for events.k8s.io objects seen
    /// more than once.
    pub fn series(&self) -> Option<(u32, Millis)> {
        (self.uses_event_time() && self.count > 1).then_some((self.count, self.last))
    }
}

/// `kubectl get events` (kubectl-output.md §4): every pod's Event objects
/// at `at` (those about `object_name` only, for `--field-selector
/// involvedObject.name=…`), in API list order (by event name) or, with
/// `--sort-by=.lastTimestamp`, by `lastTimestamp`, where the scheduler's
/// events.k8s.io objects have none and come first (Go's unstable
/// `sort.Sort`, `crate::go_sort`). LAST
/// SEEN is `lastTimestamp`, else `series.lastObservedTime`, else
/// `eventTime` (`printEvent`); MESSAGE has no field-path prefix. Empty when
/// there is no event (kubectl then prints `No resources found…` on stderr).
/// The Deployment's and ReplicaSet's events are not listed.
pub fn get_events(run: &Run, at: Millis, object_name: Option<&str>, by_last: bool) -> String {
    let mut objects: Vec<EventObject> = Vec::new();
    for pod in run.pods.iter().filter(|pod| pod.created <= at) {
        if object_name.is_some_and(|name| name != pod.name) {
            continue;
        }
        objects.extend(aggregate(run, &format!("Pod/{}", pod.name), at));
    }
    if objects.is_empty() {
        return String::new();
    }
    crate::sort::sort_by(&mut objects, |a, b| a.name.cmp(&b.name));
    if by_last {
        // kubectl sorts the server's rows with Go's `sort.Sort` (not
        // stable; `staging/src/k8s.io/kubectl/pkg/cmd/get/sorter.go`
        // `TableSorter`): a `null` lastTimestamp is less than a time and
        // not less than another `null` (checked with kubectl v1.35.2).
        let key =
            |event: &EventObject| (!event.uses_event_time()).then(|| to_wire_seconds(event.last));
        crate::go_sort::sort(&mut objects, &|a, b| key(a) < key(b));
    }
    let mut rows = vec![["LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"]
        .map(String::from)
        .to_vec()];
    for event in objects {
        let last = if event.uses_event_time() {
            event.last
        } else {
            to_wire_seconds(event.last)
        };
        let object = event.object.replacen("Pod/", "pod/", 1);
        rows.push(vec![
            crate::explain::human_duration(at.saturating_sub(last)),
            event.type_name().to_string(),
            event.reason.to_string(),
            object,
            event.message.trim().to_string(),
        ]);
    }
    crate::explain::get_pods::table(&rows)
}

/// A simulated time as the whole seconds a core/v1 `metav1.Time` keeps on
/// the wire (RFC 3339 without fraction), still in ms from t = 0.
pub fn to_wire_seconds(at: Millis) -> Millis {
    at - at % 1000
}

/// The Event objects about `object` (`"Pod/<name>"`) that exist at `at`, in
/// API list order. Kubelet occurrences go through the spam filter.
pub fn aggregate(run: &Run, object: &str, at: Millis) -> Vec<EventObject> {
    aggregate_with(run, object, at, true)
}

/// [`aggregate`], with the legacy recorder's spam filter on or off (off:
/// every occurrence is written, as decision 4 allows).
pub fn aggregate_with(run: &Run, object: &str, at: Millis, spam_filter: bool) -> Vec<EventObject> {
    let object_name = object.split_once('/').map_or(object, |(_, name)| name);
    let mut store = Store::default();
    let mut legacy = Legacy {
        spam_filter,
        ..Legacy::default()
    };
    let mut series = SeriesRecorder::default();
    let mut failed_scheduling = 0u32;
    for (index, event) in run.events.iter().enumerate() {
        if *event.object != *object || event.at > at {
            continue;
        }
        // Nanoseconds tell apart occurrences of the same millisecond, in the
        // order they happened.
        let name = event_name(object_name, event.at, index);
        if event.source == "default-scheduler" {
            series.tick_until(event.at, &mut store);
            // The first FailedScheduling changes the pod's resourceVersion.
            let generation = if event.reason == "FailedScheduling" {
                failed_scheduling += 1;
                u32::from(failed_scheduling > 1)
            } else {
                0
            };
            series.record(event, generation, name, &mut store);
        } else {
            legacy.record(event, name, &mut store);
        }
    }
    series.tick_until(at, &mut store);
    let mut objects: Vec<EventObject> = store
        .objects
        .into_iter()
        .filter(|stored| at < stored.written.saturating_add(EVENT_TTL))
        .map(|stored| stored.object)
        .collect();
    crate::sort::sort_by(&mut objects, |a, b| a.name.cmp(&b.name));
    objects
}

/// `fmt.Sprintf("%v.%x", name, t.UnixNano())`.
fn event_name(object_name: &str, at: Millis, index: usize) -> String {
    let nanos = (u128::from(EPOCH_UNIX_SECONDS) * 1000 + u128::from(at)) * 1_000_000
        + (index % 1_000_000) as u128;
    format!("{object_name}.{nanos:x}")
}

struct Stored {
    object: EventObject,
    /// The last write: the TTL counts from it.
    written: Millis,
}

#[derive(Default)]
struct Store {
    objects: Vec<Stored>,
}

impl Store {
    /// A POST (or a PATCH of a live object): the object as the recorder
    /// sends it. A PATCH of an object the TTL removed gets NotFound and the
    /// recorder POSTs it again, with the same result.
    fn write(&mut self, object: EventObject, now: Millis) {
        match self
            .objects
            .iter_mut()
            .find(|s| s.object.name == object.name)
        {
            Some(stored) if now < stored.written.saturating_add(EVENT_TTL) => {
                // The PATCH carries count, lastTimestamp and message only.
                stored.object.count = object.count;
                stored.object.last = object.last;
                stored.object.message = object.message;
                stored.written = now;
            }
            Some(stored) => {
                stored.object = object;
                stored.written = now;
            }
            None => self.objects.push(Stored {
                object,
                written: now,
            }),
        }
    }
}

/// The de-duplication key (`getEventKey`), or the aggregate key of a
/// combined event; source and object are fixed per call.
#[derive(Clone, PartialEq, Eq)]
enum ObserveKey {
    Exact {
        source: &'static str,
        field_path: Option<String>,
        warning: bool,
        reason: &'static str,
        message: String,
    },
    Combined {
        source: &'static str,
        warning: bool,
        reason: &'static str,
    },
}

struct Group {
    source: &'static str,
    warning: bool,
    reason: &'static str,
    /// Distinct messages, oldest first.
    messages: Vec<String>,
    last: Millis,
}

struct Observation {
    key: ObserveKey,
    count: u32,
    first: Millis,
    name: String,
}

/// `golang.org/x/time/rate.Limiter` as the spam filter uses it: starts
/// full, `AllowN(now, 1)`.
struct Bucket {
    source: &'static str,
    warning: bool,
    tokens: f64,
    last: Option<Millis>,
}

impl Bucket {
    fn try_accept(&mut self, now: Millis) -> bool {
        let limit = f64::from(SPAM_QPS);
        let elapsed = self
            .last
            .map_or(Millis::MAX, |last| now.saturating_sub(last));
        // Duration.Seconds(): whole seconds plus the nanosecond remainder.
        let seconds = (elapsed / 1000) as f64 + ((elapsed % 1000) * 1_000_000) as f64 / 1e9;
        let tokens = (self.tokens + seconds * limit).min(SPAM_BURST) - 1.0;
        // A wait shorter than a nanosecond truncates to zero and is allowed.
        let wait_nanos = if tokens < 0.0 {
            (-tokens / limit * 1e9).trunc()
        } else {
            0.0
        };
        if wait_nanos > 0.0 {
            return false;
        }
        self.tokens = tokens;
        self.last = Some(now);
        true
    }
}

/// client-go's `EventCorrelator` with its default options.
#[derive(Default)]
struct Legacy {
    spam_filter: bool,
    groups: Vec<Group>,
    observations: Vec<Observation>,
    buckets: Vec<Bucket>,
}

impl Legacy {
    fn record(&mut self, event: &crate::sim::Event, name: String, store: &mut Store) {
        let now = event.at;
        // 1. EventAggregate.
        let group = match self.groups.iter().position(|g| {
            g.source == event.source && g.warning == event.warning && g.reason == event.reason
        }) {
            Some(index) => &mut self.groups[index],
            None => {
                self.groups.push(Group {
                    source: event.source,
                    warning: event.warning,
                    reason: event.reason,
                    messages: Vec::new(),
                    last: now,
                });
                let last = self.groups.len() - 1;
                &mut self.groups[last]
            }
        };
        if now.saturating_sub(group.last) > AGGREGATE_INTERVAL {
            group.messages.clear();
        }
        if !group.messages.iter().any(|m| **m == *event.message) {
            group.messages.push(event.message.to_string());
        }
        group.last = now;
        let (key, message) = if group.messages.len() < AGGREGATE_MAX_MESSAGES {
            (
                ObserveKey::Exact {
                    source: event.source,
                    field_path: event.field_path.as_deref().map(String::from),
                    warning: event.warning,
                    reason: event.reason,
                    message: event.message.to_string(),
                },
                event.message.to_string(),
            )
        } else {
            group.messages.remove(0);
            (
                ObserveKey::Combined {
                    source: event.source,
                    warning: event.warning,
                    reason: event.reason,
                },
                format!("{COMBINED_PREFIX}{}", event.message),
            )
        };
        // 2. eventObserve.
        let (count, first, name) = match self.observations.iter_mut().find(|o| o.key == key) {
            Some(seen) => {
                seen.count = seen.count.saturating_add(1);
                (seen.count, seen.first, seen.name.clone())
            }
            None => {
                self.observations.push(Observation {
                    key,
                    count: 1,
                    first: now,
                    name: name.clone(),
                });
                (1, now, name)
            }
        };
        // 3. The spam filter.
        if self.spam_filter {
            let bucket = match self
                .buckets
                .iter()
                .position(|b| b.source == event.source && b.warning == event.warning)
            {
                Some(index) => &mut self.buckets[index],
                None => {
                    self.buckets.push(Bucket {
                        source: event.source,
                        warning: event.warning,
                        tokens: SPAM_BURST,
                        last: None,
                    });
                    let last = self.buckets.len() - 1;
                    &mut self.buckets[last]
                }
            };
            if !bucket.try_accept(now) {
                return;
            }
        }
        store.write(
            EventObject {
                name,
                reason: event.reason,
                message,
                warning: event.warning,
                source: event.source,
                field_path: event.field_path.as_deref().map(String::from),
                first,
                last: now,
                count,
                object: event.object.to_string(),
            },
            now,
        );
    }
}

/// One entry of the events.k8s.io broadcaster's cache.
struct Cached {
    reason: &'static str,
    warning: bool,
    generation: u32,
    object: EventObject,
    has_series: bool,
}

/// client-go's `tools/events` broadcaster, for one regarding object.
#[derive(Default)]
struct SeriesRecorder {
    cache: Vec<Cached>,
    /// The next `finishSeries` and `refreshExistingEventSeries` runs.
    next_finish: Millis,
    next_refresh: Millis,
}

impl SeriesRecorder {
    /// Runs the periodic checks due at or before `now`.
    fn tick_until(&mut self, now: Millis, store: &mut Store) {
        loop {
            let finish = self.next_finish <= now;
            let refresh = self.next_refresh <= now;
            if !finish && !refresh {
                return;
            }
            if finish && (!refresh || self.next_finish <= self.next_refresh) {
                let tick = self.next_finish;
                self.next_finish += SERIES_FINISH;
                self.finish(tick, store);
            } else {
                let tick = self.next_refresh;
                self.next_refresh += SERIES_REFRESH;
                for cached in self.cache.iter().filter(|c| c.has_series) {
                    store.write(cached.object.clone(), tick);
                }
            }
        }
    }

    /// `finishSeries`: a series idle for 6 min is written and forgotten; a
    /// singleton older than 6 min is forgotten.
    fn finish(&mut self, tick: Millis, store: &mut Store) {
        let horizon = tick.checked_sub(SERIES_FINISH);
        self.cache.retain(|cached| {
            let Some(horizon) = horizon else {
                return true;
            };
            if cached.has_series {
                if cached.object.last < horizon {
                    store.write(cached.object.clone(), tick);
                    return false;
                }
                true
            } else {
                cached.object.first >= horizon
            }
        });
    }

    fn record(
        &mut self,
        event: &crate::sim::Event,
        generation: u32,
        name: String,
        store: &mut Store,
    ) {
        let now = event.at;
        if let Some(cached) = self.cache.iter_mut().find(|c| {
            c.reason == event.reason && c.warning == event.warning && c.generation == generation
        }) {
            cached.object.count = cached.object.count.saturating_add(1);
            cached.object.last = now;
            if !cached.has_series {
                cached.has_series = true;
                store.write(cached.object.clone(), now);
            }
            return;
        }
        let object = EventObject {
            name,
            reason: event.reason,
            message: event.message.to_string(),
            warning: event.warning,
            source: event.source,
            field_path: event.field_path.as_deref().map(String::from),
            first: now,
            last: now,
            count: 1,
            object: event.object.to_string(),
        };
        store.write(object.clone(), now);
        self.cache.push(Cached {
            reason: event.reason,
            warning: event.warning,
            generation,
            object,
            has_series: false,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Event;

    fn occurrence(at: Millis, reason: &'static str, message: &str, warning: bool) -> Event {
        Event {
            at,
            object: "Pod/p".into(),
            field_path: Some("spec.containers{api}".into()),
            warning,
            reason,
            message: message.into(),
            source: "kubelet",
        }
    }

    fn scheduler(at: Millis) -> Event {
        Event {
            at,
            object: "Pod/p".into(),
            field_path: None,
            warning: true,
            reason: "FailedScheduling",
            message: "0/1 nodes are available".into(),
            source: "default-scheduler",
        }
    }

    fn run(events: Vec<Event>) -> Run {
        Run {
            end: 0,
            pods: Vec::new(),
            events,
            jobs: Vec::new(),
            refused: Vec::new(),
            traffic: None,
            services: Vec::new(),
            seed: 0,
            autoscalers: Vec::new(),
            deployments: Vec::new(),
            assumed: Vec::new(),
            action_errors: Vec::new(),
            cordons: Vec::new(),
            metadata: Vec::new(),
        }
    }

    #[test]
    fn identical_occurrences_share_one_object_with_a_count() {
        let events = (0..7)
            .map(|i| occurrence(1000 + i * 31_000, "Pulled", "already present", false))
            .collect();
        let objects = aggregate(&run(events), "Pod/p", 720_000);
        assert_eq!(objects.len(), 1);
        let pulled = &objects[0];
        assert_eq!(
            (pulled.count, pulled.first, pulled.last),
            (7, 1000, 187_000)
        );
        assert!(pulled.name.starts_with("p."), "{}", pulled.name);
    }

    #[test]
    fn different_messages_are_separate_objects_until_the_tenth() {
        let events: Vec<Event> = (0..12)
            .map(|i| occurrence(i * 1000, "Unhealthy", &format!("failed {i}"), true))
            .collect();
        let objects = aggregate(&run(events), "Pod/p", 60_000);
        // 9 distinct texts, then the 10th, 11th and 12th are combined.
        assert_eq!(objects.len(), 10);
        let combined: Vec<&EventObject> = objects
            .iter()
            .filter(|o| o.message.starts_with(COMBINED_PREFIX))
            .collect();
        assert_eq!(combined.len(), 1);
        assert_eq!(combined[0].count, 3);
        assert_eq!(combined[0].message, format!("{COMBINED_PREFIX}failed 11"));
    }

    #[test]
    fn the_spam_filter_allows_25_then_one_per_300_seconds_per_type() {
        // 40 Warnings, one a second: 25 written, the rest counted.
        let mut events: Vec<Event> = (0..40)
            .map(|i| occurrence(i * 1000, "BackOff", "back-off", true))
            .collect();
        // A Normal event has its own bucket.
        events.push(occurrence(45_000, "Pulled", "present", false));
        // 300 s after the 25th write one more token exists.
        events.push(occurrence(324_000, "BackOff", "back-off", true));
        let objects = aggregate(&run(events.clone()), "Pod/p", 400_000);
        let back_off = objects.iter().find(|o| o.reason == "BackOff").unwrap();
        assert_eq!((back_off.count, back_off.last), (41, 324_000));
        assert!(objects.iter().any(|o| o.reason == "Pulled"));
        let before = aggregate(&run(events.clone()), "Pod/p", 100_000);
        let back_off = before.iter().find(|o| o.reason == "BackOff").unwrap();
        assert_eq!((back_off.count, back_off.last), (25, 24_000));
        let unfiltered = aggregate_with(&run(events), "Pod/p", 100_000, false);
        let back_off = unfiltered.iter().find(|o| o.reason == "BackOff").unwrap();
        assert_eq!(back_off.count, 40);
    }

    /// kubectl-output.md §8.3: FailedScheduling at T+0 and T+300, now T+420:
    /// two rows (the first failure changed the pod's resourceVersion); a
    /// third at T+600 makes the second a series of 2.
    #[test]
    fn scheduler_failures_make_two_objects_then_a_series() {
        let two = aggregate(
            &run(vec![scheduler(0), scheduler(300_000)]),
            "Pod/p",
            420_000,
        );
        assert_eq!(two.len(), 2);
        assert!(two.iter().all(|o| o.count == 1 && o.uses_event_time()));
        let three = aggregate(
            &run(vec![scheduler(0), scheduler(300_000), scheduler(600_000)]),
            "Pod/p",
            720_000,
        );
        assert_eq!(three.len(), 2);
        assert_eq!((three[0].first, three[0].count), (0, 1));
        assert_eq!(
            (three[1].first, three[1].count, three[1].last),
            (300_000, 2, 600_000)
        );
        assert_eq!(three[1].series(), Some((2, 600_000)));
    }

    /// A 4th occurrence is only cached; the series is written when it has
    /// been idle for 6 min at a 6-min check.
    #[test]
    fn a_series_is_written_when_it_ends() {
        let events = vec![
            scheduler(0),
            scheduler(60_000),
            scheduler(120_000),
            scheduler(180_000),
        ];
        let at_200 = aggregate(&run(events.clone()), "Pod/p", 200_000);
        assert_eq!(at_200[1].count, 2, "the 4th is not written yet");
        // Idle since 180 s: the check at 720 s (180 < 720 − 360) writes it.
        let at_720 = aggregate(&run(events), "Pod/p", 720_000);
        assert_eq!((at_720[1].count, at_720[1].last), (3, 180_000));
    }

    #[test]
    fn objects_expire_an_hour_after_their_last_write() {
        let events = vec![occurrence(0, "Started", "Container started", false)];
        assert_eq!(aggregate(&run(events.clone()), "Pod/p", 3_599_999).len(), 1);
        assert!(aggregate(&run(events), "Pod/p", 3_600_000).is_empty());
    }

    #[test]
    fn other_objects_and_later_occurrences_are_left_out() {
        let mut other = occurrence(0, "Started", "x", false);
        other.object = "Pod/q".into();
        let events = vec![other, occurrence(5_000, "Started", "x", false)];
        assert!(aggregate(&run(events), "Pod/p", 4_999).is_empty());
    }
}
