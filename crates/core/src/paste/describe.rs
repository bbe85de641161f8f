//! Reading a `kubectl describe pod`'s own lines (the pod's keys, its
//! containers' blocks, Conditions, Volumes, the multi-line Node-Selectors
//! and Tolerations), as `describe.go` prints them (`describePod`,
//! `describeContainers`, `describeStatus` (State and Last State with their
//! `Started:`/`Finished:`), `describeResources` (`Limits:`, `Requests:`),
//! `printLabelsMultilineWithIndent` (`Node-Selectors:`),
//! `printTolerationsMultilineWithIndent`; kubectl-output.md §2; podlab's
//! own renderer, `explain/describe/`); docs/diagnose.md.

use super::read::{Block, Line, Reader, Which};

/// The port of a describe probe line: `http-get http://:8000/health`,
/// `tcp-socket :8000`, `grpc <pod>:9000`.
fn probe_port(value: &str) -> Option<String> {
    let first = value.split_whitespace().nth(1)?;
    let kind = value.split_whitespace().next()?;
    let hostport = match kind {
        "http-get" => {
            let rest = first.split_once("://").map(|(_, r)| r).unwrap_or(first);
            rest.split('/').next().unwrap_or(rest)
        }
        "tcp-socket" | "grpc" => first,
        _ => return None,
    };
    let (_, port) = hostport.rsplit_once(':')?;
    (!port.is_empty()).then(|| port.to_string())
}

impl Reader {
    /// A line of `kubectl describe pod`.
    pub(super) fn describe_line(&mut self, depth: usize, text: &str, at: &Line) -> bool {
        // The next lines of a multi-line `Node-Selectors:` or `Tolerations:`.
        if depth > 0 && matches!(self.block, Block::Selectors | Block::Tolerations) {
            let value = text.trim().to_string();
            if self.block == Block::Selectors {
                if let Some((key, value)) = value.split_once('=') {
                    self.pod()
                        .node_selectors
                        .push((key.to_string(), value.to_string()));
                }
            } else {
                self.pod().tolerations.push(value);
            }
            return true;
        }
        let (key, value) = match text.split_once(':') {
            Some((key, value)) if !key.contains("  ") && key.len() < 40 => (key, value.trim()),
            _ => {
                // `  PodScheduled   False` under Conditions.
                if self.block == Block::Conditions {
                    let words: Vec<&str> = text.split_whitespace().collect();
                    if let [kind, status] = words.as_slice() {
                        let status = *status == "True";
                        match *kind {
                            "PodScheduled" if !status => {
                                self.pod().unschedulable = Some((String::new(), at.clone()));
                            }
                            "Ready" => self.pod().ready_condition = Some((status, at.clone())),
                            _ => {}
                        }
                        return true;
                    }
                }
                // `/dev/shm from dshm (rw)` under Mounts.
                if let Some(rest) = text.strip_prefix("/dev/shm from ") {
                    let volume = rest.split_whitespace().next().unwrap_or("").to_string();
                    if let Some(c) = self.container_mut() {
                        c.shm_mount = Some(volume);
                    }
                    return true;
                }
                return false;
            }
        };
        if depth == 0 {
            match key {
                "Name" => {
                    self.log_context = false;
                    self.select(value);
                    self.paste.seen.describe = true;
                    self.block = Block::None;
                }
                "Status" => {
                    let phase = value.split_whitespace().next().unwrap_or("").to_string();
                    self.pod().phase = Some((phase, at.clone()));
                }
                "Node" if value == "<none>" => self.pod().node_none = Some(at.clone()),
                "Node" if !value.is_empty() => self.pod().node = Some(at.clone()),
                "Containers" => self.block = Block::Containers { init: false },
                "Init Containers" => self.block = Block::Containers { init: true },
                "Conditions" => self.block = Block::Conditions,
                "Volumes" => self.block = Block::Volumes,
                "Events" => {
                    self.block = Block::Events;
                    self.paste.seen.describe = true;
                    if value == "<none>" {
                        self.pod().no_events = true;
                    }
                }
                "Controlled By" => {
                    self.pod().owner = Some(value.to_string());
                    self.block = Block::None;
                }
                // kubectl's `printLabelsMultiline`, `printTolerationsMultiline`:
                // the first on the key's line, the others below it.
                "Node-Selectors" => {
                    if let Some((key, value)) = value.split_once('=') {
                        self.pod()
                            .node_selectors
                            .push((key.to_string(), value.to_string()));
                    }
                    self.block = Block::Selectors;
                }
                "Tolerations" => {
                    if !value.is_empty() && value != "<none>" {
                        self.pod().tolerations.push(value.to_string());
                    }
                    self.block = Block::Tolerations;
                }
                "Namespace" | "Priority" | "Service Account" | "Start Time" | "Labels"
                | "Annotations" | "IP" | "IPs" | "QoS Class" | "Node" | "Reason" | "Message" => {
                    self.block = Block::None;
                }
                _ => return false,
            }
            self.paste.seen.describe = true;
            return true;
        }
        match self.block {
            Block::Containers { init } => {
                if depth == 2 && value.is_empty() {
                    self.open_container(key, init);
                    return true;
                }
                self.container_line(depth, key, value, at)
            }
            Block::Volumes => {
                if depth == 2 && value.is_empty() {
                    self.volume = Some(key.to_string());
                } else if let Some(volume) = self.volume.clone() {
                    // Known once its type is read (an emptyDir's with its medium).
                    let known =
                        (key == "Type" && !value.starts_with("EmptyDir")) || key == "Medium";
                    if known {
                        self.pod().volumes.push(volume.clone());
                    }
                    if key == "Medium" && value == "Memory" {
                        self.pod().memory_volumes.push(volume);
                    }
                }
                true
            }
            // A container's lines cut from their `  name:` line.
            Block::None if depth >= 4 && CONTAINER_KEYS.contains(&key) => {
                if self.container.is_none() {
                    self.open_container("", false);
                }
                self.container_line(depth, key, value, at)
            }
            _ => false,
        }
    }

    fn container_line(&mut self, depth: usize, key: &str, value: &str, at: &Line) -> bool {
        let which = self.which;
        // `Limits:`/`Requests:` at the container's keys' depth (4), their
        // entries below it (`describeContainerResource`).
        let resources = self.resources;
        let entry = resources.filter(|_| depth > 4 && !value.is_empty());
        if entry.is_none() {
            self.resources = match key {
                "Limits" => Some(true),
                "Requests" => Some(false),
                _ => None,
            };
        }
        let Some(container) = self.container_mut() else {
            return false;
        };
        let at = at.clone();
        if let Some(limits) = entry {
            if limits {
                if key == "memory" {
                    container.limits_memory = Some(value.to_string());
                }
                container.limits.push((key.to_string(), value.to_string()));
            } else {
                container
                    .requests
                    .push((key.to_string(), value.to_string()));
            }
            return true;
        }
        match key {
            "State" => {
                container.state = Some((value.to_string(), at));
                self.which = Which::State;
            }
            "Last State" => self.which = Which::Last,
            "Reason" => match which {
                Which::State => {
                    let waiting = container
                        .state
                        .as_ref()
                        .is_some_and(|(s, _)| s == "Waiting");
                    if waiting {
                        container.waiting_reason = Some((value.to_string(), at));
                    } else {
                        container.terminated_reason = Some((value.to_string(), at));
                    }
                }
                Which::Last => container.last_reason = Some((value.to_string(), at)),
            },
            "Message" => container.waiting_message = Some((value.to_string(), at)),
            "Exit Code" => {
                if let Ok(code) = value.parse() {
                    match which {
                        Which::State => container.exit_code = Some((code, at)),
                        Which::Last => container.last_exit_code = Some((code, at)),
                    }
                }
            }
            "Ready" => {
                container.ready = Some((value == "True", at));
                self.which = Which::State;
            }
            "Restart Count" => {
                if let Ok(n) = value.parse() {
                    container.restarts = Some((n, at));
                }
            }
            "Port" | "Ports" => {
                for port in value.split(", ") {
                    if let Some((number, _)) = port.split_once('/') {
                        container.ports.push(number.to_string());
                    }
                    // A named port: `8000/TCP (http)`.
                    if let Some(name) = port.split_once(" (").map(|(_, n)| n.trim_end_matches(')'))
                    {
                        container.ports.push(name.to_string());
                    }
                }
            }
            "Started" | "Finished" => {
                let slot = match (which, key) {
                    (Which::State, "Started") => &mut container.started,
                    (Which::State, _) => &mut container.finished,
                    (Which::Last, "Started") => &mut container.last_started,
                    (Which::Last, _) => &mut container.last_finished,
                };
                *slot = Some(value.to_string());
            }
            "Mounts" => container.mounts_seen = true,
            "Image" => container.image = Some(value.to_string()),
            "Liveness" | "Readiness" | "Startup" => {
                container
                    .probes
                    .push((key.to_string(), probe_port(value), at));
            }
            _ => {}
        }
        true
    }
}

/// The keys of a describe container block.
const CONTAINER_KEYS: [&str; 14] = [
    "Container ID",
    "Image",
    "Image ID",
    "Port",
    "Ports",
    "State",
    "Last State",
    "Reason",
    "Exit Code",
    "Ready",
    "Restart Count",
    "Liveness",
    "Readiness",
    "Startup",
];
