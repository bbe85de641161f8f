//! Reading a YAML or JSON Pod object (`kubectl get pod -o yaml|json`)
//! line by line, by its key path (indentation): kubectl prints both with
//! sorted keys (yaml.v2's emitter and Go's encoder over a map), so a
//! container's `name` follows its `lastState` and `livenessProbe`: a list
//! item opens an unnamed container that `name` names later
//! (docs/diagnose.md).

use super::read::{unquote, Block, ContainerFacts, Line, Reader, MAX_DEPTH};

/// The lists whose items are containers, in a Pod object.
const CONTAINER_LISTS: [&str; 4] = [
    "containers",
    "initContainers",
    "containerStatuses",
    "initContainerStatuses",
];

impl Reader {
    /// Names the container a YAML/JSON list item opened (its keys come in
    /// alphabetical order, so `name` follows `lastState` and
    /// `livenessProbe`): merged into the one of that name already read.
    pub(super) fn name_container(&mut self, name: &str) {
        let Some(i) = self.container else {
            return;
        };
        let current = self.current;
        let containers = &mut self.paste.pods[current].containers;
        let init = containers[i].init;
        containers[i].name = name.to_string();
        if let Some(j) = containers
            .iter()
            .position(|c| c.name == name && c.init == init)
            .filter(|j| *j != i)
        {
            let from = containers.remove(i);
            let j = if j > i { j - 1 } else { j };
            let into = &mut containers[j];
            into.state = into.state.take().or(from.state);
            into.waiting_reason = into.waiting_reason.take().or(from.waiting_reason);
            into.waiting_message = into.waiting_message.take().or(from.waiting_message);
            into.terminated_reason = into.terminated_reason.take().or(from.terminated_reason);
            into.exit_code = into.exit_code.take().or(from.exit_code);
            into.last_reason = into.last_reason.take().or(from.last_reason);
            into.last_exit_code = into.last_exit_code.take().or(from.last_exit_code);
            into.ready = into.ready.take().or(from.ready);
            into.restarts = into.restarts.take().or(from.restarts);
            into.ports.extend(from.ports);
            into.probes.extend(from.probes);
            into.shm_mount = into.shm_mount.take().or(from.shm_mount);
            self.container = Some(j);
        }
    }

    /// A line of a YAML or JSON object (`get pod -o yaml|json`), by its key
    /// path. Returns false when the line cannot belong to one.
    pub(super) fn object_line(&mut self, depth: usize, text: &str, at: &Line) -> bool {
        let json =
            text.starts_with('"') || text == "{" || text.starts_with('}') || text.starts_with(']');
        let dash = text.starts_with("- ") || text == "-";
        let body = text.trim_start_matches("- ");
        let item = dash || text == "{";
        let depth = if dash { depth + 2 } else { depth };
        if !json && !body.contains(':') && !dash {
            return false;
        }
        // A YAML document's top level is a Pod's or a List's.
        if !json && depth == 0 {
            let key = body.split(':').next().unwrap_or("");
            if !["apiVersion", "kind", "metadata", "spec", "status", "items"].contains(&key) {
                return false;
            }
        }
        while self.path.last().is_some_and(|(d, _)| *d >= depth) {
            self.path.pop();
        }
        if item {
            let list = self.path.last().map(|(_, k)| k.as_str()).unwrap_or("");
            if CONTAINER_LISTS.contains(&list) {
                let init = list.starts_with("init");
                let pod = self.pod();
                pod.containers.push(ContainerFacts {
                    init,
                    ..ContainerFacts::default()
                });
                self.container = Some(pod.containers.len() - 1);
            }
        }
        let (key, value) = match body.split_once(':') {
            Some((key, value)) => (unquote(key), value.trim()),
            None => return true,
        };
        // A quoted scalar that goes on in the next lines (yaml.v2 folds long
        // strings at 80 columns).
        if !json {
            if let Some(quote) = value.chars().next().filter(|q| *q == '\'' || *q == '"') {
                let closed = value.len() > 1 && value.ends_with(quote) && !value.ends_with("\\\"");
                if !closed {
                    self.continued = Some((
                        depth - if dash { 2 } else { 0 },
                        at.clone(),
                        text.to_string(),
                        quote,
                    ));
                    return true;
                }
            }
        }
        let parent: Vec<&str> = self.path.iter().map(|(_, k)| k.as_str()).collect();
        let value_text = unquote(value.trim_end_matches(['{', '[']).trim());
        let last = parent.last().copied().unwrap_or("");
        let statuses =
            parent.contains(&"containerStatuses") || parent.contains(&"initContainerStatuses");
        if statuses {
            self.paste.pods[self.current].status_seen = true;
        }
        let at = at.clone();
        match (last, key.as_str()) {
            ("metadata", "name") if parent.len() <= 3 && !parent.contains(&"spec") => {
                self.select(&value_text);
                self.block = Block::Object;
            }
            ("status", "phase") => self.pod().phase = Some((value_text.clone(), at)),
            (list, "name") if CONTAINER_LISTS.contains(&list) => self.name_container(&value_text),
            ("waiting", "reason") if statuses && !parent.contains(&"lastState") => {
                if let Some(c) = self.container_mut() {
                    c.state = Some(("Waiting".into(), at.clone()));
                    c.waiting_reason = Some((value_text.clone(), at));
                }
            }
            ("waiting", "message") if statuses => {
                if let Some(c) = self.container_mut() {
                    c.waiting_message = Some((value_text.clone(), at));
                }
            }
            ("terminated", "reason") if statuses => {
                let last_state = parent.contains(&"lastState");
                if let Some(c) = self.container_mut() {
                    if last_state {
                        c.last_reason = Some((value_text.clone(), at));
                    } else {
                        c.state = Some(("Terminated".into(), at.clone()));
                        c.terminated_reason = Some((value_text.clone(), at));
                    }
                }
            }
            ("terminated", "exitCode") if statuses => {
                let last_state = parent.contains(&"lastState");
                if let (Some(c), Ok(code)) = (self.container_mut(), value_text.parse()) {
                    if last_state {
                        c.last_exit_code = Some((code, at));
                    } else {
                        c.exit_code = Some((code, at));
                    }
                }
            }
            ("running", "startedAt") if statuses && !parent.contains(&"lastState") => {
                if let Some(c) = self.container_mut() {
                    c.state = Some(("Running".into(), at));
                }
            }
            (_, "ready") if statuses => {
                if let Some(c) = self.container_mut() {
                    c.ready = Some((value_text == "true", at));
                }
            }
            (_, "restartCount") if statuses => {
                if let (Some(c), Ok(n)) = (self.container_mut(), value_text.parse()) {
                    c.restarts = Some((n, at));
                }
            }
            ("limits", "memory") if parent.contains(&"resources") => {
                if let Some(c) = self.container_mut() {
                    c.limits_memory = Some(value_text.clone());
                }
            }
            (_, "containerPort") => {
                if let Some(c) = self.container_mut() {
                    c.ports.push(value_text.clone());
                }
            }
            ("port", _) | (_, "port") if parent.iter().any(|p| p.ends_with("Probe")) => {
                let probe = parent
                    .iter()
                    .rev()
                    .find(|p| p.ends_with("Probe"))
                    .copied()
                    .unwrap_or("");
                let title = match probe {
                    "livenessProbe" => "Liveness",
                    "readinessProbe" => "Readiness",
                    _ => "Startup",
                };
                if let Some(c) = self.container_mut() {
                    c.probes
                        .push((title.to_string(), Some(value_text.clone()), at));
                }
            }
            (_, "mountPath") if value_text == "/dev/shm" => {
                if let Some(c) = self.container_mut() {
                    c.shm_mount = Some(String::new());
                }
            }
            (_, "volumeMounts") => {
                if let Some(c) = self.container_mut() {
                    c.mounts_seen = true;
                }
            }
            ("spec", "nodeName") => self.pod().node = Some(at),
            ("emptyDir", "medium") if value_text == "Memory" => {
                self.pod().memory_volumes.push(String::new());
            }
            (_, "message")
                if parent.contains(&"conditions")
                    && (value_text.contains("nodes are available")
                        || value_text.contains("Insufficient")) =>
            {
                self.pod().unschedulable = Some((value_text.clone(), at));
            }
            (_, "reason")
                if parent.contains(&"conditions")
                    && value_text == "Unschedulable"
                    && self.paste.pods[self.current].unschedulable.is_none() =>
            {
                self.pod().unschedulable = Some((String::new(), at));
            }
            _ => {}
        }
        if (value.is_empty() || value.ends_with('{') || value.ends_with('['))
            && self.path.len() < MAX_DEPTH
        {
            self.path.push((depth, key));
        }
        true
    }
}
