//! The replay of a pasted failure (issue 31 item 3): a manifest and a
//! Scenario rebuilt from what the paste shows, simulated, and podlab's own
//! `get pods` looked for, second by second, within the paste's age (describe
//! truncates: `12m` is anywhere in [12m, 13m), `HumanDuration`,
//! kubectl-output.md §1.7) with the pasted STATUS and RESTARTS (and, per
//! kind, the scheduler's or the kubelet's message); then the fix applied and
//! simulated at that time too. What could not be read is assumed and said
//! (`assumed`, the path grammar of docs/paths.md); what podlab cannot model
//! is said too (`fix_note`), never faked.
//!
//! The kinds (docs/diagnose.md "The replay"): a liveness crash loop
//! (`liveness.rs`), an OOM kill (`oom.rs`), a Pending pod (`pending.rs`),
//! an image that cannot be pulled or a missing Secret/ConfigMap
//! (`start.rs`).

mod liveness;
mod oom;
mod pending;
mod start;

use super::read::{ContainerFacts, PodFacts};
use crate::explain::get_pods;
use crate::i18n::Text;
use crate::manifest::assumed::Assumption;
use crate::manifest::duration::Millis;
use crate::sim::{simulate, Options, PodRun, Run};

/// A replay: the rebuilt text, its share link and what podlab's `get pods`
/// says at the paste's age, before and after the fix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    pub text: String,
    /// The playground link (`share::encode`'s fragment), when it fits.
    pub link: Option<String>,
    /// The load time assumed, in seconds.
    pub startup_s: u64,
    /// The time within the paste's age at which podlab's row matches, or
    /// the interval's start when none does.
    pub at: Millis,
    /// Whether a time within the age's interval shows everything compared
    /// (`compared`): the pasted STATUS and RESTARTS, and the kind's message.
    pub matches: bool,
    /// podlab's `get pods` at `at`, and with the fix applied (empty when
    /// podlab cannot model the fix: `fix_note` says why).
    pub get_pods: String,
    pub fixed_get_pods: String,
    pub fixed_text: String,
    /// Which replay: the answer's kind it rebuilds.
    pub kind: &'static str,
    /// What was compared at `at`: the pasted value and podlab's.
    pub compared: Vec<Compared>,
    /// What the replay had to guess (docs/paths.md's grammar).
    pub assumed: Vec<Assumption>,
    /// The fixed run recovers at `at` (Running without restarts, or
    /// scheduled).
    pub fixed_recovers: bool,
    /// What the fixed text changes, or why there is no fixed run.
    pub fix_note: Text,
}

/// One thing compared between the paste and the replay at `at`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compared {
    /// `STATUS`, `RESTARTS`, `FailedScheduling`, `Failed`.
    pub what: &'static str,
    pub pasted: String,
    pub replayed: String,
    pub same: bool,
}

impl Compared {
    fn new(what: &'static str, pasted: impl Into<String>, replayed: impl Into<String>) -> Self {
        let (pasted, replayed) = (pasted.into(), replayed.into());
        Compared {
            what,
            same: pasted == replayed,
            pasted,
            replayed,
        }
    }
}

/// The replay of `kind` for `pod`'s `container`, when the paste says enough.
pub fn replay(kind: &'static str, pod: &PodFacts, container: &ContainerFacts) -> Option<Replay> {
    match kind {
        "liveness-kills-slow-start" => liveness::replay(pod, container),
        "oom-killed" | "shm-oom-killed" => oom::replay(kind, pod, container),
        "pending-insufficient-gpu"
        | "pending-insufficient-resources"
        | "pending-untolerated-taint"
        | "pending-node-affinity"
        | "pending-cordoned-node" => pending::replay(pod, container),
        "image-pull" | "missing-config" => start::replay(kind, pod, container),
        _ => None,
    }
}

/// `12m` → [12m, 13m); `2m10s` → [130 s, 131 s); `<invalid>` → None.
pub fn age_interval(age: &str) -> Option<(Millis, Millis)> {
    let mut total: Millis = 0;
    let mut number: Millis = 0;
    let mut digits = false;
    let mut last_unit: Millis = 0;
    for c in age.chars() {
        if let Some(d) = c.to_digit(10) {
            number = number.checked_mul(10)?.checked_add(Millis::from(d))?;
            digits = true;
            continue;
        }
        let unit: Millis = match c {
            's' => 1_000,
            'm' => 60_000,
            'h' => 3_600_000,
            'd' => 86_400_000,
            'y' => 365 * 86_400_000,
            _ => return None,
        };
        if !digits {
            return None;
        }
        total = total.checked_add(number.checked_mul(unit)?)?;
        number = 0;
        digits = false;
        last_unit = unit;
    }
    if digits || last_unit == 0 {
        return None;
    }
    Some((total, total + last_unit))
}

/// The pod's age from its events: the `Scheduled` row's Age (the pod was
/// bound when it was created), else the oldest first occurrence of any row
/// (`(x2 over 6m30s)`'s `6m30s`: a Pending pod's first FailedScheduling
/// comes at its creation). Events live one hour (`--event-ttl`), so an age
/// above two hours is not trusted, nor an interval over a minute.
fn pod_age(pod: &PodFacts) -> Option<(Millis, Millis)> {
    let interval = match pod.events.iter().find(|e| e.reason == "Scheduled") {
        Some(scheduled) => age_interval(&scheduled.age)?,
        None => pod
            .events
            .iter()
            .filter_map(|e| age_interval(e.over.as_deref().unwrap_or(&e.age)))
            .max_by_key(|(from, _)| *from)?,
    };
    // Below three hours HumanDuration's coarsest unit is the minute
    // (`179m`, `3h5m`), so a wider interval is not describe's: bounded work.
    (interval.1 <= 2 * 3_600_000 && interval.1 - interval.0 <= 60_000).then_some(interval)
}

/// A Deployment's name from its pod's: `model-api-66bcc5f8b8-t7wlz` →
/// `model-api` (the ReplicaSet's hash and the pod's suffix).
fn deployment_name(pod: &str) -> String {
    let parts: Vec<&str> = pod.split('-').collect();
    if parts.len() >= 3 {
        parts[..parts.len() - 2].join("-")
    } else {
        pod.to_string()
    }
}

/// A YAML-safe name: lowercase letters, digits and `-` (a redacted
/// `<worker>` becomes `worker`).
fn dns_name(name: &str, fallback: &str) -> String {
    let cleaned: String = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect::<String>()
        .to_ascii_lowercase();
    let cleaned = cleaned.trim_matches('-').to_string();
    if cleaned.is_empty() {
        fallback.to_string()
    } else {
        cleaned
    }
}

/// A value safe in a YAML flow collection, quoted.
fn quoted(value: &str) -> Option<String> {
    let ok = !value.is_empty()
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "./-_:@+".contains(c));
    ok.then(|| format!("\"{value}\""))
}

/// The image as pasted, when it is one word without a redaction.
fn image_of(container: &ContainerFacts) -> Option<String> {
    container
        .image
        .clone()
        .filter(|i| quoted(i).is_some() && !i.contains('<'))
}

/// What owns the rebuilt pod.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Owner {
    /// `Controlled By: ReplicaSet/<deployment>-<hash>`: a one-replica
    /// Deployment.
    Deployment,
    /// A bare Pod (or one pod of a Job, rebuilt alone) with this
    /// restartPolicy.
    Pod(&'static str),
}

/// The rebuilt workload: its kind and name, and the name of its pod in
/// `get pods` (the Deployment's pods are `<name>-<hash>-<suffix>`).
#[derive(Clone, Debug)]
struct Workload {
    owner: Owner,
    name: String,
}

impl Workload {
    /// From `Controlled By:` and the pod's name: a ReplicaSet's pod is a
    /// Deployment's; a Job's pod is rebuilt as one Pod (`Never` when it
    /// ended Failed, else `OnFailure`), the Job's other pods are not.
    fn of(pod: &PodFacts) -> Workload {
        let owner = pod.owner.as_deref().unwrap_or("");
        let failed = pod.phase.as_ref().is_some_and(|(p, _)| p == "Failed");
        if owner.starts_with("ReplicaSet/") || (owner.is_empty() && looks_replicated(&pod.name)) {
            Workload {
                owner: Owner::Deployment,
                name: dns_name(&deployment_name(&pod.name), "app"),
            }
        } else {
            let policy = match (owner.starts_with("Job/"), failed) {
                (_, true) => "Never",
                (true, false) => "OnFailure",
                (false, false) => "Always",
            };
            Workload {
                owner: Owner::Pod(policy),
                name: dns_name(&pod.name, "app"),
            }
        }
    }

    /// The pods of this workload in a run.
    fn pod<'r>(&self, run: &'r Run, at: Millis) -> Option<&'r PodRun> {
        let prefix = format!("{}-", self.name);
        run.pods.iter().find(|p| {
            p.exists_at(at)
                && match self.owner {
                    Owner::Deployment => p.name.starts_with(&prefix),
                    Owner::Pod(_) => p.name == self.name,
                }
        })
    }

    /// The manifest: `pod_lines` are the pod spec's keys (containers,
    /// nodeSelector, tolerations, volumes), written at indentation 0.
    fn yaml(&self, pod_lines: &str) -> String {
        let indent = |n: usize| -> String {
            pod_lines
                .lines()
                .map(|l| format!("{}{l}\n", " ".repeat(n)))
                .collect()
        };
        let name = &self.name;
        match self.owner {
            Owner::Deployment => format!(
                "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\nspec:\n  replicas: 1\n  selector:\n    matchLabels: {{ app: {name} }}\n  template:\n    metadata:\n      labels: {{ app: {name} }}\n    spec:\n{}",
                indent(6)
            ),
            Owner::Pod(policy) => {
                let policy = if policy == "Always" {
                    String::new()
                } else {
                    format!("  restartPolicy: {policy}\n")
                };
                format!(
                    "apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\nspec:\n{policy}{}",
                    indent(2)
                )
            }
        }
    }
}

/// `model-api-66bcc5f8b8-t7wlz`: a ReplicaSet's hash (digits and
/// consonants, 8 to 10) and a 5-character suffix.
fn looks_replicated(name: &str) -> bool {
    let parts: Vec<&str> = name.split('-').collect();
    parts.len() >= 3
        && parts[parts.len() - 1].len() == 5
        && (6..=10).contains(&parts[parts.len() - 2].len())
}

/// The container's resources as pasted: `resources:` with `limits` and
/// `requests` flow maps (None when nothing was pasted or a value cannot be
/// written safely). `memory` replaces the memory limit and request.
fn resources_yaml(container: &ContainerFacts, memory: Option<&str>) -> Option<String> {
    let map = |entries: &[(String, String)]| -> Option<String> {
        let mut items = Vec::new();
        for (key, value) in entries {
            let value = match memory {
                Some(m) if key == "memory" => m.to_string(),
                _ => value.clone(),
            };
            quoted(key)?;
            items.push(format!("{key}: {}", quoted(&value)?));
        }
        Some(items.join(", "))
    };
    let limits = map(&container.limits)?;
    let requests = map(&container.requests)?;
    let mut out = String::from("resources:\n");
    if !limits.is_empty() {
        out.push_str(&format!("  limits: {{ {limits} }}\n"));
    }
    if !requests.is_empty() {
        out.push_str(&format!("  requests: {{ {requests} }}\n"));
    }
    (out.len() > "resources:\n".len()).then_some(out)
}

/// One container list item at indentation 0: `- name: …` and its keys.
fn container_yaml(name: &str, image: &str, keys: &str) -> String {
    let mut out = format!("containers:\n  - name: {name}\n    image: {image}\n");
    for line in keys.lines() {
        out.push_str(&format!("    {line}\n"));
    }
    out
}

/// The Scenario document: `body` holds its spec's keys at indentation 0.
fn scenario_yaml(until: Millis, body: &str) -> String {
    let mut out = format!(
        "---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: {{ name: replay }}\nspec:\n  duration: {}s\n",
        until / 1000 + 60
    );
    for line in body.lines() {
        out.push_str(&format!("  {line}\n"));
    }
    out
}

/// The header comment of a rebuilt text.
fn header(what: &str) -> String {
    format!("# Rebuilt by `podlab diagnose` from a pasted `kubectl describe pod` (docs/diagnose.md):\n# {what}\n")
}

/// The pasted STATUS: the waiting or terminated reason, `Running`, or the
/// phase (`Pending`).
fn pasted_status(pod: &PodFacts, container: &ContainerFacts) -> Option<String> {
    if let Some((reason, _)) = &container.waiting_reason {
        return Some(reason.clone());
    }
    if let Some((reason, _)) = &container.terminated_reason {
        return Some(reason.clone());
    }
    match &container.state {
        Some((state, _)) if state == "Running" => return Some("Running".into()),
        _ => {}
    }
    pod.phase
        .as_ref()
        .filter(|(p, _)| p == "Pending")
        .map(|(p, _)| p.clone())
}

/// A simulated run's view at a time, for the comparison.
struct View<'r> {
    run: &'r Run,
    pod: Option<&'r PodRun>,
    at: Millis,
}

impl View<'_> {
    fn row(&self) -> Option<get_pods::Row> {
        self.pod.map(|p| get_pods::row(p, self.at))
    }

    /// The messages of the pod's events up to `at` with this reason, oldest
    /// first.
    fn events<'a>(&'a self, reason: &'a str) -> impl DoubleEndedIterator<Item = &'a str> + 'a {
        let object = self.pod.map(|pod| format!("Pod/{}", pod.name));
        self.run
            .events
            .iter()
            .filter(move |e| {
                e.at <= self.at
                    && e.reason == reason
                    && object.as_deref().is_some_and(|o| *e.object == *o)
            })
            .map(|e| &*e.message)
    }

    /// The newest event of the pod up to `at` with this reason.
    fn last_event<'a>(&'a self, reason: &'a str) -> Option<&'a str> {
        self.events(reason).next_back()
    }
}

/// STATUS and RESTARTS of the pasted pod against podlab's row.
fn status_and_restarts(status: &str, restarts: Option<u64>, view: &View<'_>) -> Vec<Compared> {
    let row = view.row();
    let mut out = vec![Compared::new(
        "STATUS",
        status,
        row.as_ref().map_or("-".into(), |r| r.status.clone()),
    )];
    if let Some(n) = restarts {
        out.push(Compared::new(
            "RESTARTS",
            n.to_string(),
            row.as_ref()
                .map_or("-".into(), |r| r.restart_count.to_string()),
        ));
    }
    out
}

/// The reasons whose rows carry a failure's timing: how often and how
/// long ago the kubelet started, killed, probed and backed off, the
/// scheduler's retries, the failed starts.
const TIMED_REASONS: [&str; 6] = [
    "Started",
    "Killing",
    "Unhealthy",
    "BackOff",
    "FailedScheduling",
    "Failed",
];

/// describe's Age cells of the pasted rows of [`TIMED_REASONS`] against
/// podlab's own for the same reason (`explain::describe::age_column` over
/// `explain::events::aggregate`: the recorder's counting and its spam
/// filter, kubectl-output.md §3.2, §3.5): each pasted cell (`3m14s (x7
/// over 11m)`) must be one of podlab's, so the counts, the last and the
/// first occurrence agree within describe's truncation. None when the
/// paste has no such row from a describe's Events table.
fn event_cells(pod: &PodFacts, view: &View<'_>) -> Option<Compared> {
    if !pod.events_header {
        return None;
    }
    let cell = |reason: &str, age: &str, count: u64, over: Option<&str>| match over {
        Some(over) if count > 1 => format!("{reason} {age} (x{count} over {over})"),
        _ => format!("{reason} {age}"),
    };
    let pasted: Vec<String> = pod
        .events
        .iter()
        .filter(|e| TIMED_REASONS.contains(&e.reason.as_str()))
        .map(|e| cell(&e.reason, &e.age, e.count, e.over.as_deref()))
        .collect();
    if pasted.is_empty() {
        return None;
    }
    let replayed: Vec<String> = match view.pod {
        Some(p) => crate::explain::events::aggregate(view.run, &format!("Pod/{}", p.name), view.at)
            .iter()
            .filter(|e| TIMED_REASONS.contains(&e.reason))
            .map(|e| {
                format!(
                    "{} {}",
                    e.reason,
                    crate::explain::describe::age_column(e, view.at)
                )
            })
            .collect(),
        None => Vec::new(),
    };
    let same = pasted.iter().all(|p| replayed.contains(p));
    Some(Compared {
        what: "Events",
        pasted: pasted.join("; "),
        replayed: replayed.join("; "),
        same,
    })
}

/// The first second within [from, to) at which everything `compare` looks
/// at is the same; else `from` and what differs there.
fn search(
    run: &Run,
    workload: &Workload,
    (from, to): (Millis, Millis),
    pasted: &PodFacts,
    compare: impl Fn(&View<'_>) -> Vec<Compared>,
) -> (Millis, bool, Vec<Compared>) {
    let view = |at: Millis| View {
        run,
        pod: workload.pod(run, at),
        at,
    };
    let compare = |view: &View<'_>| {
        let mut compared = compare(view);
        compared.extend(event_cells(pasted, view));
        compared
    };
    let mut t = from;
    while t < to {
        let compared = compare(&view(t));
        if compared.iter().all(|c| c.same) {
            return (t, true, compared);
        }
        t += 1_000;
    }
    (from, false, compare(&view(from)))
}

/// What a kind's module rebuilt: the texts, the workload, what to compare
/// and when the fixed run recovers.
struct Rebuilt<C, R>
where
    C: Fn(&View<'_>) -> Vec<Compared>,
    R: Fn(&View<'_>) -> bool,
{
    kind: &'static str,
    text: String,
    /// None: podlab cannot model the fix (`fix_note` says why).
    fixed_text: Option<String>,
    workload: Workload,
    age: (Millis, Millis),
    startup_s: u64,
    compare: C,
    recovers: R,
    assumed: Vec<Assumption>,
    fix_note: Text,
}

/// Simulates a rebuilt text and its fix, and looks for the paste's state
/// (`pasted`: the pod's facts, for its Events rows).
fn run<C, R>(rebuilt: Rebuilt<C, R>, pasted: &PodFacts) -> Replay
where
    C: Fn(&View<'_>) -> Vec<Compared>,
    R: Fn(&View<'_>) -> bool,
{
    let until = Some(rebuilt.age.1 + 1_000);
    let run = simulate(&rebuilt.text, &Options { until });
    let (at, matches, compared) = search(
        &run,
        &rebuilt.workload,
        rebuilt.age,
        pasted,
        &rebuilt.compare,
    );
    let get_pods = get_pods::render(&run, at);
    let (fixed_get_pods, fixed_recovers) = match &rebuilt.fixed_text {
        Some(fixed_text) => {
            let fixed = simulate(fixed_text, &Options { until });
            let view = View {
                run: &fixed,
                pod: rebuilt.workload.pod(&fixed, at),
                at,
            };
            (get_pods::render(&fixed, at), (rebuilt.recovers)(&view))
        }
        None => (String::new(), false),
    };
    Replay {
        link: crate::share::encode(&rebuilt.text).ok(),
        text: rebuilt.text,
        startup_s: rebuilt.startup_s,
        at,
        matches,
        get_pods,
        fixed_get_pods,
        fixed_text: rebuilt.fixed_text.unwrap_or_default(),
        kind: rebuilt.kind,
        compared,
        assumed: rebuilt.assumed,
        fixed_recovers,
        fix_note: rebuilt.fix_note,
    }
}

/// The fixed run's pod is Running without a restart (a model still
/// loading behind its startupProbe is not Ready yet, and recovers).
fn running(view: &View<'_>) -> bool {
    view.row()
        .is_some_and(|r| r.status == "Running" && r.restart_count == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ages() {
        assert_eq!(age_interval("12m"), Some((720_000, 780_000)));
        assert_eq!(age_interval("2m10s"), Some((130_000, 131_000)));
        assert_eq!(age_interval("90s"), Some((90_000, 91_000)));
        assert_eq!(age_interval("<invalid>"), None);
        assert_eq!(age_interval("12"), None);
    }

    #[test]
    fn replicated_names() {
        assert!(looks_replicated("model-api-66bcc5f8b8-t7wlz"));
        assert!(!looks_replicated("trainer"));
        assert!(!looks_replicated("train-n8bpg"));
    }
}

/// What the pasted container asks for, as the scheduler counts it: the
/// requests (a limit alone stands for its request, as the API server
/// defaults it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Asks {
    cpu_milli: i128,
    memory: i128,
    /// `nvidia.com/gpu`, `nvidia.com/mig-1g.10gb`, … with their counts.
    extended: Vec<(String, i64)>,
}

impl Asks {
    fn of(container: &ContainerFacts) -> Option<Asks> {
        use crate::manifest::quantity::parse;
        let mut asks = Asks::default();
        let value = |key: &str| {
            container
                .requests
                .iter()
                .find(|(k, _)| k == key)
                .or_else(|| container.limits.iter().find(|(k, _)| k == key))
                .map(|(_, v)| v.as_str())
        };
        if let Some(cpu) = value("cpu") {
            asks.cpu_milli = parse(cpu).ok()?.milli;
        }
        if let Some(memory) = value("memory") {
            asks.memory = parse(memory).ok()?.value();
        }
        let mut keys: Vec<&String> = container
            .requests
            .iter()
            .chain(&container.limits)
            .map(|(k, _)| k)
            .filter(|k| k.contains('/'))
            .collect();
        keys.dedup();
        for key in keys {
            if asks.extended.iter().any(|(k, _)| k == key) {
                continue;
            }
            let count: i64 = value(key)?.parse().ok()?;
            asks.extended.push((key.clone(), count));
        }
        Some(asks)
    }

    /// Whole `nvidia.com/gpu`s asked for (0 when none).
    fn gpus(&self) -> i64 {
        self.extended
            .iter()
            .filter(|(k, _)| k == "nvidia.com/gpu")
            .map(|(_, n)| *n)
            .sum()
    }

    /// Asks for an extended resource podlab's pools are not rebuilt with
    /// (another vendor's device; a MIG profile is rebuilt).
    fn other_devices(&self) -> bool {
        self.extended
            .iter()
            .any(|(k, _)| k != "nvidia.com/gpu" && !k.starts_with("nvidia.com/mig-"))
    }
}

/// One node pool of the Scenario's `cluster.nodePools`, at indentation 0:
/// `- name: …` with its cpu, memory, GPUs (A100-80GB: the default pool's
/// model), labels and taints.
struct Pool {
    name: String,
    count: usize,
    cpu_milli: i128,
    memory: i128,
    gpus: i64,
    /// MIG profiles (`1g.10gb`) one node offers, with their counts: one
    /// A100-80GB under the device plugin's mixed strategy.
    mig: Vec<(String, i64)>,
    labels: Vec<(String, String)>,
    taints: Vec<(String, String)>,
}

impl Pool {
    /// A pool whose nodes hold `asks` twice over (so a fix that doubles
    /// the memory still fits), at least the default pool's 8 CPU and 32Gi.
    fn fitting(name: &str, count: usize, asks: &Asks) -> Pool {
        let gib = 1i128 << 30;
        Pool {
            name: name.to_string(),
            count,
            cpu_milli: (asks.cpu_milli.saturating_mul(2)).max(8000),
            memory: crate::manifest::quantity::round_up_gib(asks.memory.saturating_mul(2))
                .max(32 * gib),
            gpus: asks.gpus(),
            mig: asks
                .extended
                .iter()
                .filter_map(|(k, n)| {
                    let profile = k.strip_prefix("nvidia.com/mig-")?;
                    Some((profile.to_string(), *n))
                })
                .collect(),
            labels: Vec::new(),
            taints: Vec::new(),
        }
    }

    fn yaml(&self) -> String {
        let cpu = if self.cpu_milli % 1000 == 0 {
            format!("\"{}\"", self.cpu_milli / 1000)
        } else {
            format!("{}m", self.cpu_milli)
        };
        let mut out = format!(
            "- name: {}\n  count: {}\n  cpu: {cpu}\n  memory: {}\n",
            self.name,
            self.count,
            crate::manifest::quantity::format_bytes(self.memory)
        );
        if !self.mig.is_empty() {
            let layout: Vec<&str> = self
                .mig
                .iter()
                .flat_map(|(p, n)| {
                    std::iter::repeat_n(p.as_str(), usize::try_from(*n).unwrap_or(0))
                })
                .collect();
            out.push_str(&format!(
                "  gpu: {{ model: A100-80GB, count: 1 }}\n  sharing: {{ mode: mig, strategy: mixed, layout: [{}] }}\n",
                layout.join(", ")
            ));
        } else if self.gpus > 0 {
            out.push_str(&format!(
                "  gpu: {{ model: A100-80GB, count: {} }}\n",
                self.gpus
            ));
        }
        if !self.labels.is_empty() {
            let labels: Vec<String> = self
                .labels
                .iter()
                .map(|(k, v)| format!("{k}: \"{v}\""))
                .collect();
            out.push_str(&format!("  labels: {{ {} }}\n", labels.join(", ")));
        }
        if !self.taints.is_empty() {
            let taints: Vec<String> = self
                .taints
                .iter()
                .map(|(k, v)| format!("{{ key: {k}, value: \"{v}\", effect: NoSchedule }}"))
                .collect();
            out.push_str(&format!("  taints: [{}]\n", taints.join(", ")));
        }
        out
    }
}

/// `cluster:` with these pools (and `missing` objects), at indentation 0.
fn cluster_yaml(pools: &[Pool], missing: &[String]) -> String {
    let mut out = String::from("cluster:\n  nodePools:\n");
    for pool in pools {
        for line in pool.yaml().lines() {
            out.push_str(&format!("    {line}\n"));
        }
    }
    if !missing.is_empty() {
        out.push_str(&format!("  missing: [{}]\n", missing.join(", ")));
    }
    out
}

/// The cluster as `assumed` states it: the pools' YAML on one line.
fn cluster_assumed(pools: &[Pool]) -> Assumption {
    let items: Vec<String> = pools
        .iter()
        .map(|p| {
            let body = p.yaml().replace("\n  ", ", ");
            format!(
                "{{ {} }}",
                body.trim_start_matches("- ")
                    .trim_end()
                    .trim_end_matches(',')
            )
        })
        .collect();
    Assumption {
        path: crate::manifest::path::Path::Cluster,
        value: format!("[{}]", items.join(", ")),
    }
}

/// `Thu, 01 Jan 2026 00:08:46 +0000` (describe's RFC 1123 with a numeric
/// zone) → seconds since 1970 (the zone is ignored: two times of one
/// paste share it).
fn rfc1123_seconds(text: &str) -> Option<i64> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let [_, day, month, year, time, ..] = words.as_slice() else {
        return None;
    };
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let month = MONTHS.iter().position(|m| m == month)? as i64 + 1;
    let day: i64 = day.parse().ok()?;
    let year: i64 = year.parse().ok()?;
    let mut hms = time.split(':').map(|p| p.parse::<i64>().ok());
    let (h, m, s) = (hms.next()??, hms.next()??, hms.next()??);
    // Howard Hinnant's days_from_civil.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(days * 86_400 + h * 3600 + m * 60 + s)
}

/// A describe probe line (`DescribeProbe`: `http-get http://:8000/health
/// delay=0s timeout=1s period=5s #success=1 #failure=3`, `tcp-socket
/// :8000 …`) as the probe's YAML keys at indentation 0, with its port
/// and HTTP path. An `exec` or `grpc` probe is not rebuilt (None).
fn probe_keys(line: &str) -> Option<(String, String, Option<String>)> {
    let value = line.split_once(':').map(|(_, v)| v.trim())?;
    let mut words = value.split_whitespace();
    let kind = words.next()?;
    let target = words.next()?;
    let number = |key: &str| -> Option<u64> {
        value
            .split_whitespace()
            .find_map(|w| w.strip_prefix(key))
            .map(|v| v.trim_end_matches('s'))
            .and_then(|v| v.parse().ok())
    };
    let (handler, port, path) = match kind {
        "http-get" => {
            let rest = target.split_once("://").map(|(_, r)| r).unwrap_or(target);
            let (hostport, path) = rest.split_once('/').unwrap_or((rest, ""));
            let (_, port) = hostport.rsplit_once(':')?;
            let path = format!("/{path}");
            quoted(&path)?;
            (
                format!("httpGet: {{ path: {path}, port: {} }}", port_value(port)?),
                port.to_string(),
                Some(path),
            )
        }
        "tcp-socket" => {
            let (_, port) = target.rsplit_once(':')?;
            (
                format!("tcpSocket: {{ port: {} }}", port_value(port)?),
                port.to_string(),
                None,
            )
        }
        _ => return None,
    };
    Some((
        format!(
            "{handler}\ninitialDelaySeconds: {}\ntimeoutSeconds: {}\nperiodSeconds: {}\nsuccessThreshold: {}\nfailureThreshold: {}\n",
            number("delay=")?,
            number("timeout=")?,
            number("period=")?,
            number("#success=").or_else(|| number("successThreshold="))?,
            number("#failure=").or_else(|| number("failureThreshold="))?,
        ),
        port.to_string(),
        path,
    ))
}

/// A probe's port as YAML: a number, or a named port quoted.
fn port_value(port: &str) -> Option<String> {
    if !port.is_empty() && port.chars().all(|c| c.is_ascii_digit()) {
        Some(port.to_string())
    } else {
        quoted(port)
    }
}

/// The container's pasted probes other than `skip` (`Liveness`,
/// `Readiness`, `Startup`) as container keys (`readinessProbe:` …), and
/// the program's port and health path they imply (the replay assumes the
/// program answers its probes once loaded, as it did for them to pass).
fn probes_yaml(
    container: &ContainerFacts,
    skip: &[&str],
) -> (String, Option<(String, Option<String>)>) {
    let mut out = String::new();
    let mut target = None;
    for (title, _, line) in &container.probes {
        if skip.contains(&title.as_str()) {
            continue;
        }
        let Some((keys, port, path)) = probe_keys(&line.text) else {
            continue;
        };
        let key = match title.as_str() {
            "Liveness" => "livenessProbe",
            "Readiness" => "readinessProbe",
            _ => "startupProbe",
        };
        out.push_str(&format!("{key}:\n"));
        for l in keys.lines() {
            out.push_str(&format!("  {l}\n"));
        }
        target.get_or_insert((port, path));
    }
    (out, target)
}

/// The container's declared ports (`Port:`'s numbers) as a `ports:` key.
fn ports_yaml(container: &ContainerFacts) -> String {
    let numbers: Vec<&String> = container
        .ports
        .iter()
        .filter(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
        .collect();
    if numbers.is_empty() {
        return String::new();
    }
    let items: Vec<String> = numbers
        .iter()
        .map(|p| format!("{{ containerPort: {p} }}"))
        .collect();
    format!("ports: [{}]\n", items.join(", "))
}
