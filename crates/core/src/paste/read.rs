//! Reading a paste line by line into facts about pods (docs/diagnose.md).
//!
//! A paste is cut anywhere and mixes outputs, so nothing here needs a whole
//! document: every line is recognised on its own, with a little state (the
//! pod a `describe` block names, the container and the `State`/`Last State`
//! it is in, the key path of a YAML or JSON object by indentation). The
//! formats and their sources (kubectl's `describe.go`, `printers.go`,
//! `get.go`; ../shared/reference/kubectl-output.md) are in docs/diagnose.md.
//!
//! Bounded work: at most [`MAX_BYTES`] bytes and [`MAX_LINES`] lines are
//! read, each line once, with a key-path stack of at most [`MAX_DEPTH`].

/// The most bytes read; the rest of a longer paste is ignored (and said so).
pub const MAX_BYTES: usize = 1 << 20;
/// The most lines read.
pub const MAX_LINES: usize = 20_000;
/// The deepest YAML/JSON key path kept.
pub(super) const MAX_DEPTH: usize = 32;

/// One line of the paste that shows something: its 1-based number and its
/// text, trimmed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub number: usize,
    pub text: String,
}

/// An event, from `describe`'s Events table or from `kubectl get events`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventRow {
    pub warning: bool,
    pub reason: String,
    /// Without kubectl 1.35's `spec.containers{api}: ` prefix.
    pub message: String,
    /// The container the prefix or the message names, when it does.
    pub container: Option<String>,
    /// `(x6 over 11m)`'s 6; 1 without.
    pub count: u64,
    /// The Age (describe) or LAST SEEN (get events) cell: `12m`.
    pub age: String,
    /// `(x6 over 11m)`'s `11m`: the age of the first occurrence.
    pub over: Option<String>,
    pub line: Line,
}

/// A container's state as a paste shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ContainerFacts {
    pub name: String,
    pub init: bool,
    /// `Waiting`/`Running`/`Terminated`, with the line.
    pub state: Option<(String, Line)>,
    pub waiting_reason: Option<(String, Line)>,
    pub waiting_message: Option<(String, Line)>,
    pub terminated_reason: Option<(String, Line)>,
    pub exit_code: Option<(i64, Line)>,
    pub last_reason: Option<(String, Line)>,
    pub last_exit_code: Option<(i64, Line)>,
    pub ready: Option<(bool, Line)>,
    pub restarts: Option<(u64, Line)>,
    /// The ports the container declares (`Port:`, `containerPort`).
    pub ports: Vec<String>,
    /// `Liveness`/`Readiness`/`Startup` → the port the probe asks (None:
    /// exec, or not read), and the line.
    pub probes: Vec<(String, Option<String>, Line)>,
    /// Mounts a volume at /dev/shm.
    pub shm_mount: Option<String>,
    /// `limits.memory`, as written.
    pub limits_memory: Option<String>,
    /// `Image:`, as written.
    pub image: Option<String>,
    /// Its mounts were shown (describe's `Mounts:`, `volumeMounts`).
    pub mounts_seen: bool,
    /// Every `Limits:` and `Requests:` entry (`cpu`, `memory`,
    /// `nvidia.com/gpu`), as written.
    pub limits: Vec<(String, String)>,
    pub requests: Vec<(String, String)>,
    /// `Started:`/`Finished:` of the terminated State and of Last State,
    /// as written (`Thu, 01 Jan 2026 00:08:46 +0000`).
    pub started: Option<String>,
    pub finished: Option<String>,
    pub last_started: Option<String>,
    pub last_finished: Option<String>,
}

/// A `kubectl get pods` row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PodRow {
    pub ready: (u64, u64),
    pub status: String,
    pub restarts: u64,
    pub line: Line,
}

/// What the paste says about one pod.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PodFacts {
    /// Empty when the paste never names it (a describe cut above `Name:`).
    pub name: String,
    pub phase: Option<(String, Line)>,
    pub node_none: Option<Line>,
    /// `Node:  gpu-0/10.0.0.1`, `nodeName`: the pod was bound.
    pub node: Option<Line>,
    pub containers: Vec<ContainerFacts>,
    pub events: Vec<EventRow>,
    /// `Events:  <none>` was seen.
    pub no_events: bool,
    /// An Events table header (describe's) was seen.
    pub events_header: bool,
    /// Something else followed the Events table: it is whole.
    pub events_closed: bool,
    /// A prompt followed the log lines: they are whole.
    pub logs_closed: bool,
    pub rows: Vec<PodRow>,
    /// A `PodScheduled False` condition, with its message when a YAML/JSON
    /// status carries one.
    pub unschedulable: Option<(String, Line)>,
    pub ready_condition: Option<(bool, Line)>,
    /// Names of memory-backed emptyDir volumes.
    pub memory_volumes: Vec<String>,
    /// Names of the volumes describe listed.
    pub volumes: Vec<String>,
    /// A YAML/JSON status was read (so its spec, volumes included, was
    /// passed whole).
    pub status_seen: bool,
    /// Lines that are none of the above: a program's log, read for its
    /// well-known failures.
    pub logs: Vec<Line>,
    /// `Controlled By:  ReplicaSet/model-api-66bcc5f8b8`.
    pub owner: Option<String>,
    /// `Node-Selectors:` pairs (`pool=gpu`).
    pub node_selectors: Vec<(String, String)>,
    /// `Tolerations:` lines, as written (`nvidia.com/gpu:NoSchedule op=Exists`).
    pub tolerations: Vec<String>,
}

/// Which outputs a paste holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Seen {
    pub describe: bool,
    pub events_table: bool,
    pub get_events: bool,
    pub get_pods: bool,
    pub object: bool,
    pub logs: bool,
    pub commands: Vec<String>,
    pub truncated: bool,
    pub lines: usize,
    /// The paste ends with a line break: its last line is whole (a paste
    /// cut in the middle of a line does not).
    pub ends_whole: bool,
}

/// A paste read: the pods in the order the paste first names them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Paste {
    pub pods: Vec<PodFacts>,
    pub seen: Seen,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Block {
    None,
    Containers {
        init: bool,
    },
    Conditions,
    Volumes,
    Events,
    Object,
    /// The lines of a multi-line `Node-Selectors:` or `Tolerations:`.
    Selectors,
    Tolerations,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Which {
    State,
    Last,
}

pub(super) struct Reader {
    pub(super) paste: Paste,
    pub(super) current: usize,
    pub(super) block: Block,
    pub(super) container: Option<usize>,
    pub(super) which: Which,
    /// The key path of a YAML/JSON object: (indentation, key).
    pub(super) path: Vec<(usize, String)>,
    pub(super) in_fence: bool,
    pub(super) volume: Option<String>,
    /// Inside a container's `Limits:` (true) or `Requests:` (false) block.
    pub(super) resources: Option<bool>,
    /// Unrecognised lines are a program's log: after `kubectl logs`, or
    /// before any other output.
    pub(super) log_context: bool,
    /// A YAML quoted scalar continued on the next lines: its indentation,
    /// its first line, the text so far and the quote.
    pub(super) continued: Option<(usize, Line, String, char)>,
}

/// Reads a paste. Never fails: what it does not recognise is kept as log
/// lines; `Seen` says what it recognised.
pub fn read(text: &str) -> Paste {
    let mut end = text.len().min(MAX_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let mut reader = Reader {
        paste: Paste::default(),
        current: 0,
        block: Block::None,
        container: None,
        which: Which::State,
        path: Vec::new(),
        in_fence: false,
        volume: None,
        resources: None,
        log_context: true,
        continued: None,
    };
    reader.paste.pods.push(PodFacts::default());
    reader.paste.seen.truncated = end < text.len();
    reader.paste.seen.ends_whole = text[..end].trim_end_matches('\r').ends_with('\n')
        || text[..end].trim_end().ends_with("```");
    for (index, raw) in text[..end].split('\n').enumerate() {
        if index >= MAX_LINES {
            reader.paste.seen.truncated = true;
            break;
        }
        reader.paste.seen.lines = index + 1;
        reader.line(index + 1, raw);
    }
    if text[..end].ends_with('\n') && !reader.paste.seen.truncated {
        reader.paste.seen.lines = reader.paste.seen.lines.saturating_sub(1);
    }
    if let Some((depth, first, mut so_far, quote)) = reader.continued.take() {
        so_far.push(quote);
        reader.object_line(depth, &so_far, &first);
    }
    let mut paste = reader.paste;
    // Facts before any name belong to the one pod named later, if only one is.
    if paste.pods.len() == 2 && !has_facts(&paste.pods[0]) {
        paste.pods.remove(0);
    } else if paste.pods.len() == 2 {
        let unnamed = paste.pods.remove(0);
        merge(&mut paste.pods[0], unnamed);
    } else if !has_facts(&paste.pods[0]) && paste.pods.len() > 1 {
        paste.pods.remove(0);
    }
    paste
}

fn has_facts(pod: &PodFacts) -> bool {
    pod.phase.is_some()
        || !pod.containers.is_empty()
        || !pod.events.is_empty()
        || !pod.rows.is_empty()
        || pod.unschedulable.is_some()
        || !pod.logs.is_empty()
}

fn merge(into: &mut PodFacts, from: PodFacts) {
    if into.phase.is_none() {
        into.phase = from.phase;
    }
    into.node_none = into.node_none.take().or(from.node_none);
    into.containers.extend(from.containers);
    into.events.extend(from.events);
    into.no_events |= from.no_events;
    into.events_header |= from.events_header;
    into.events_closed |= from.events_closed;
    into.logs_closed |= from.logs_closed;
    into.rows.extend(from.rows);
    into.unschedulable = into.unschedulable.take().or(from.unschedulable);
    into.ready_condition = into.ready_condition.take().or(from.ready_condition);
    into.memory_volumes.extend(from.memory_volumes);
    into.volumes.extend(from.volumes);
    into.status_seen |= from.status_seen;
    into.logs.extend(from.logs);
    into.owner = into.owner.take().or(from.owner);
    into.node_selectors.extend(from.node_selectors);
    into.tolerations.extend(from.tolerations);
}

/// The line without a terminal's or a chat's leftovers: `\r`, markdown
/// emphasis and quotes. Indentation is kept.
fn clean(raw: &str) -> String {
    let line = raw.trim_end_matches(['\r', ' ', '\t']);
    let line = line.replace("**", "").replace('\t', "    ");
    let trimmed = line.trim_start();
    if let Some(rest) = trimmed.strip_prefix("> ") {
        return rest.to_string();
    }
    line
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

fn is_age(token: &str) -> bool {
    if token == "<invalid>" || token == "<unknown>" {
        return true;
    }
    let mut digits = false;
    let mut unit = false;
    for c in token.chars() {
        if c.is_ascii_digit() {
            digits = true;
        } else if "smhdy".contains(c) && digits {
            unit = true;
        } else {
            return false;
        }
    }
    digits && unit
}

/// Splits on whitespace, keeping each token's byte offset.
fn tokens(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices() {
        if c.is_whitespace() {
            if let Some(s) = start.take() {
                out.push((s, &line[s..i]));
            }
        } else if start.is_none() {
            start = Some(i);
        }
        if out.len() > 64 {
            return out;
        }
    }
    if let Some(s) = start {
        out.push((s, &line[s..]));
    }
    out
}

/// `spec.containers{api}: Container started` → (`api`, `Container started`).
fn strip_field_path(message: &str) -> (Option<String>, &str) {
    for prefix in ["spec.containers{", "spec.initContainers{"] {
        if let Some(rest) = message.strip_prefix(prefix) {
            if let Some((name, after)) = rest.split_once("}: ") {
                return (Some(name.to_string()), after);
            }
            if let Some((name, after)) = rest.split_once('}') {
                return (Some(name.to_string()), after.trim_start_matches(':').trim());
            }
        }
    }
    (None, message)
}

pub(super) fn unquote(value: &str) -> String {
    let value = value.trim().trim_end_matches(',');
    let value = value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .or_else(|| value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')))
        .unwrap_or(value);
    value.replace("\\\"", "\"").replace("''", "'")
}

impl Reader {
    pub(super) fn pod(&mut self) -> &mut PodFacts {
        &mut self.paste.pods[self.current]
    }

    pub(super) fn select(&mut self, name: &str) {
        if self.block == Block::Events {
            self.pod().events_closed = true;
        }
        let name = name.trim();
        if let Some(i) = self.paste.pods.iter().position(|p| p.name == name) {
            self.current = i;
        } else if self.paste.pods.len() == 1 && self.paste.pods[0].name.is_empty() {
            // The first name: the unnamed facts so far are kept apart (the
            // merge at the end decides).
            self.paste.pods.push(PodFacts {
                name: name.to_string(),
                ..PodFacts::default()
            });
            self.current = 1;
        } else {
            self.paste.pods.push(PodFacts {
                name: name.to_string(),
                ..PodFacts::default()
            });
            self.current = self.paste.pods.len() - 1;
        }
        self.container = None;
    }

    /// The pod an event's or row's object names, without moving the
    /// describe block's pod.
    fn pod_named(&mut self, name: &str) -> usize {
        if let Some(i) = self.paste.pods.iter().position(|p| p.name == name) {
            return i;
        }
        self.paste.pods.push(PodFacts {
            name: name.to_string(),
            ..PodFacts::default()
        });
        self.paste.pods.len() - 1
    }

    pub(super) fn container_mut(&mut self) -> Option<&mut ContainerFacts> {
        let i = self.container?;
        let current = self.current;
        self.paste.pods[current].containers.get_mut(i)
    }

    pub(super) fn open_container(&mut self, name: &str, init: bool) {
        let pod = self.pod();
        let i = match pod
            .containers
            .iter()
            .position(|c| c.name == name && c.init == init)
        {
            Some(i) => i,
            None => {
                pod.containers.push(ContainerFacts {
                    name: name.to_string(),
                    init,
                    ..ContainerFacts::default()
                });
                pod.containers.len() - 1
            }
        };
        self.container = Some(i);
        self.which = Which::State;
    }

    fn line(&mut self, number: usize, raw: &str) {
        let cleaned = clean(raw);
        let text = cleaned.trim();
        if text.starts_with("```") || text.starts_with("~~~") {
            self.in_fence = !self.in_fence;
            return;
        }
        if text.is_empty() {
            return;
        }
        let at = Line {
            number,
            text: text.to_string(),
        };
        // A prompt: `$ kubectl describe pod x`, `user@host:~$ kubectl ...`.
        if let Some(command) = text
            .split_once("$ ")
            .map(|(_, c)| c)
            .filter(|c| c.starts_with("kubectl ") || c.starts_with("k "))
            .or_else(|| {
                text.strip_prefix("# ")
                    .filter(|c| c.starts_with("kubectl "))
            })
            .or_else(|| {
                text.strip_prefix("> ")
                    .filter(|c| c.starts_with("kubectl "))
            })
            .or_else(|| Some(text).filter(|c| c.starts_with("kubectl ")))
        {
            self.command(command);
            return;
        }
        let depth = indent(&cleaned);
        if let Some((first_depth, first, mut so_far, quote)) = self.continued.take() {
            if self.block == Block::Object && depth > first_depth {
                so_far.push(' ');
                so_far.push_str(text);
                if text.ends_with(quote) || so_far.len() > 4096 {
                    if !so_far.ends_with(quote) {
                        so_far.push(quote);
                    }
                    self.object_line(first_depth, &so_far, &first);
                } else {
                    self.continued = Some((first_depth, first, so_far, quote));
                }
                return;
            }
            // Cut: what was read of it.
            so_far.push(quote);
            self.object_line(first_depth, &so_far, &first);
        }
        if self.block == Block::Object {
            if self.object_line(depth, text, &at) {
                return;
            }
            self.block = Block::None;
        }
        if self.event_row(text, &at) || self.pods_row(text, &at) || self.header(text) {
            self.log_context = false;
            return;
        }
        if self.block == Block::Events {
            self.block = Block::None;
        }
        if (text.starts_with("apiVersion:") || text == "{" || text.starts_with("\"apiVersion\""))
            && depth == 0
        {
            self.block = Block::Object;
            self.log_context = false;
            self.path.clear();
            self.paste.seen.object = true;
            self.object_line(depth, text, &at);
            return;
        }
        if self.describe_line(depth, text, &at) {
            self.log_context = false;
            return;
        }
        if text.starts_with("kind: Pod") || text.starts_with("status:") && depth == 0 {
            self.block = Block::Object;
            self.path.clear();
            self.paste.seen.object = true;
            self.object_line(depth, text, &at);
            return;
        }
        if self.log_context {
            self.paste.seen.logs = true;
            self.pod().logs.push(at);
        }
    }

    fn command(&mut self, command: &str) {
        if self.block == Block::Events {
            self.pod().events_closed = true;
        }
        if self.log_context && !self.pod().logs.is_empty() {
            self.pod().logs_closed = true;
        }
        self.block = Block::None;
        self.log_context = command.split_whitespace().nth(1) == Some("logs");
        self.paste.seen.commands.push(command.to_string());
        let words: Vec<&str> = command.split_whitespace().collect();
        // `kubectl logs NAME`, `kubectl describe pod NAME`, `kubectl describe pod/NAME`.
        let name = match words.get(1).copied() {
            Some("logs") => words.iter().skip(2).find(|w| !w.starts_with('-')).copied(),
            Some("describe") => {
                let rest: Vec<&&str> = words
                    .iter()
                    .skip(2)
                    .filter(|w| !w.starts_with('-'))
                    .collect();
                // Only a pod's: `describe pod NAME`, `describe pod/NAME`.
                let pod = |kind: &str| ["pod", "pods", "po"].contains(&kind);
                match rest.first().map(|w| w.split_once('/')) {
                    Some(Some((kind, name))) if pod(kind) => Some(name),
                    Some(None) if rest.first().is_some_and(|w| pod(w)) => rest.get(1).map(|w| **w),
                    _ => None,
                }
            }
            _ => None,
        };
        if let Some(name) = name {
            let name = name.trim_start_matches("pod/").trim_start_matches("pods/");
            if !name.is_empty() {
                self.select(name);
            }
        }
    }

    /// The table headers: describe's Events, `get events`, `get pods`.
    fn header(&mut self, text: &str) -> bool {
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.starts_with(&["Type", "Reason", "Age"]) {
            self.block = Block::Events;
            self.pod().events_header = true;
            self.paste.seen.events_table = true;
            return true;
        }
        if words.iter().all(|w| w.chars().all(|c| c == '-')) && words.len() >= 3 {
            return true;
        }
        if text.contains("LAST SEEN") && words.contains(&"REASON") {
            self.paste.seen.get_events = true;
            return true;
        }
        if words.contains(&"NAME") && words.contains(&"READY") && words.contains(&"STATUS") {
            self.paste.seen.get_pods = true;
            return true;
        }
        false
    }

    /// An event row: describe's (`Warning  Unhealthy  7m (x3 over 9m)
    /// kubelet  message`) or get events' (`7m  Warning  Unhealthy  pod/x
    /// message`), with or without From, with kubectl ≤ 1.19's `kubelet,
    /// node-1`.
    fn event_row(&mut self, text: &str, at: &Line) -> bool {
        let tokens = tokens(text);
        let Some(type_at) = tokens
            .iter()
            .take(3)
            .position(|(_, t)| *t == "Normal" || *t == "Warning")
        else {
            // A describe row copied without its Type cell:
            // `FailedScheduling  2m21s (x42 over 60m)  default-scheduler  …`.
            let warning = match tokens.first().map(|(_, t)| *t) {
                Some("FailedScheduling" | "Failed" | "BackOff" | "Unhealthy" | "FailedMount") => {
                    "Warning"
                }
                Some("Scheduled" | "Pulling" | "Pulled" | "Created" | "Started" | "Killing") => {
                    "Normal"
                }
                _ => return false,
            };
            if !tokens.get(1).is_some_and(|(_, t)| is_age(t)) {
                return false;
            }
            return self.event_row(&format!("{warning}  {text}"), at);
        };
        // Before the type: nothing (describe), or the age (and namespace).
        if type_at > 0 && !is_age(tokens[type_at - 1].1) {
            return false;
        }
        let Some(&(_, reason)) = tokens.get(type_at + 1) else {
            return false;
        };
        if !reason
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_uppercase())
            || !reason.chars().all(|c| c.is_ascii_alphanumeric())
        {
            return false;
        }
        let mut next = type_at + 2;
        let mut object = None;
        let mut count = 1;
        let mut over = None;
        let age = if type_at == 0 {
            tokens
                .get(2)
                .map(|(_, t)| t.to_string())
                .unwrap_or_default()
        } else {
            tokens[type_at - 1].1.to_string()
        };
        if type_at == 0 {
            // Age, `(x3 over 5m)`.
            match tokens.get(next) {
                Some((_, age)) if is_age(age) => next += 1,
                _ => return false,
            }
            if let Some(n) = tokens
                .get(next)
                .and_then(|(_, t)| t.strip_prefix("(x"))
                .and_then(|n| n.parse().ok())
            {
                count = n;
            }
            if tokens.get(next).is_some_and(|(_, t)| t.starts_with("(x")) {
                while let Some((_, t)) = tokens.get(next) {
                    next += 1;
                    if t.ends_with(')') {
                        over = Some(t.trim_end_matches(')').to_string()).filter(|o| is_age(o));
                        break;
                    }
                }
            }
            // From: `kubelet`, `default-scheduler`, `kubelet, node-1`.
            if let Some((_, from)) = tokens.get(next) {
                if from.ends_with(',') {
                    next += 2;
                } else if is_source(from) && tokens.len() > next + 1 {
                    next += 1;
                }
            }
            self.paste.seen.events_table = true;
        } else {
            // get events: the object.
            if let Some((_, o)) = tokens.get(next) {
                if o.contains('/') {
                    object = Some(*o);
                    next += 1;
                }
            }
            self.paste.seen.get_events = true;
        }
        let message = tokens
            .get(next)
            .map(|(offset, _)| &text[*offset..])
            .unwrap_or("");
        let (container, message) = strip_field_path(message.trim());
        let row = EventRow {
            warning: tokens[type_at].1 == "Warning",
            reason: reason.to_string(),
            message: message.to_string(),
            container,
            count,
            age,
            over,
            line: at.clone(),
        };
        let pod = match object {
            Some(object) => match object.split_once('/') {
                Some(("pod" | "Pod" | "pods", name)) => self.pod_named(name),
                // Another object's event (a ReplicaSet's, a Node's).
                _ => return true,
            },
            None => self.current,
        };
        self.paste.pods[pod].events.push(row);
        true
    }

    /// A `kubectl get pods` row: NAME READY STATUS RESTARTS AGE (`-A`
    /// puts NAMESPACE first).
    fn pods_row(&mut self, text: &str, at: &Line) -> bool {
        let tokens = tokens(text);
        let ready_at = match tokens
            .iter()
            .take(3)
            .position(|(_, t)| ready_cell(t).is_some())
        {
            Some(i @ (1 | 2)) => i,
            _ => return false,
        };
        let (Some(ready), Some(&(_, status)), Some(&(_, restarts))) = (
            ready_cell(tokens[ready_at].1),
            tokens.get(ready_at + 1),
            tokens.get(ready_at + 2),
        ) else {
            return false;
        };
        let Ok(restarts) = restarts.parse::<u64>() else {
            return false;
        };
        let name = tokens[ready_at - 1].1;
        let pod = self.pod_named(name);
        self.paste.seen.get_pods = true;
        self.paste.pods[pod].rows.push(PodRow {
            ready,
            status: status.to_string(),
            restarts,
            line: at.clone(),
        });
        true
    }
}

fn ready_cell(token: &str) -> Option<(u64, u64)> {
    let (a, b) = token.split_once('/')?;
    Some((a.parse().ok()?, b.parse().ok()?))
}

/// An event source: `kubelet`, `default-scheduler`, `replicaset-controller`,
/// `karpenter`, a node name.
fn is_source(token: &str) -> bool {
    token
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "-./<>_".contains(c))
        && token.chars().any(|c| c.is_ascii_lowercase())
        && !token.ends_with(':')
}
