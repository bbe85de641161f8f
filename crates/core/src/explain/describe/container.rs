//! One container's block of `kubectl describe pod` (`describeContainers`):
//! its ID, image, ports, state and last state, readiness, restarts,
//! resources, probes, environment and mounts.

use super::ids::{api_access_volume, container_id, image_id};
use super::writer::Text;
use super::{rfc1123z, title_bool, Block, PodView};
use crate::manifest::model::{Container, Handler, PortRef, Probe};
use crate::manifest::quantity::Quantity;
use crate::sim::{ContainerState, PodRun};

pub(super) fn container_block(
    text: &mut Text,
    pod: &PodRun,
    view: &PodView,
    block: &Block<'_>,
    container: &Container,
) {
    let status = block.statuses.iter().find(|s| s.name == container.name);
    let image = container
        .image
        .as_ref()
        .map(|image| image.value.as_str())
        .unwrap_or("");
    text.line(1, &format!("{}:", container.name));
    // The instance the status describes (the newest that started), if any.
    let instance = block
        .runs
        .get(block.index)
        .and_then(|run| run.instances.iter().rposition(|i| i.started <= view.at));
    if status.is_some() {
        let id = instance.map_or(String::new(), |i| container_id(pod, &container.name, i));
        text.line(2, &format!("Container ID:\t{id}"));
    }
    text.line(2, &format!("Image:\t{image}"));
    if status.is_some() {
        let id = if instance.is_some() {
            image_id(image)
        } else {
            String::new()
        };
        text.line(2, &format!("Image ID:\t{id}"));
    }
    ports_and_command(text, container);
    if let Some(status) = status {
        state_lines(text, "State", &status.state);
        if let Some(last @ ContainerState::Terminated { .. }) = &status.last_state {
            state_lines(text, "Last State", last);
        }
        text.line(2, &format!("Ready:\t{}", title_bool(status.ready)));
        text.line(2, &format!("Restart Count:\t{}", status.restart_count));
    }
    resources(text, container);
    probes_and_environment(text, container);
    let mut mounts = mount_lines(container);
    mounts.push((
        SERVICE_ACCOUNT_PATH.to_string(),
        format!(
            "{SERVICE_ACCOUNT_PATH} from {} (ro)",
            api_access_volume(pod)
        ),
    ));
    crate::sort::sort_by(&mut mounts, |a, b| a.0.cmp(&b.0));
    text.line(2, "Mounts:");
    for (_, line) in mounts {
        text.line(3, &line);
    }
}

/// One container of a Deployment's pod template (`describeContainers`
/// with no status and `space` `"  "`, from `DescribePodTemplate`): its
/// name one space further in, no IDs, no state; its own mounts only (the
/// ServiceAccount admission plugin adds the token's to pods, not to
/// templates), `Mounts:\t<none>` without any.
pub(super) fn template_container(text: &mut Text, container: &Container) {
    let image = container
        .image
        .as_ref()
        .map(|image| image.value.as_str())
        .unwrap_or("");
    text.line(1, &format!(" {}:", container.name));
    text.line(2, &format!("Image:\t{image}"));
    ports_and_command(text, container);
    resources(text, container);
    probes_and_environment(text, container);
    let mut mounts = mount_lines(container);
    crate::sort::sort_by(&mut mounts, |a, b| a.0.cmp(&b.0));
    if mounts.is_empty() {
        text.line(2, "Mounts:\t<none>");
    } else {
        text.line(2, "Mounts:");
    }
    for (_, line) in mounts {
        text.line(3, &line);
    }
}

/// `Port`/`Ports` and `Host Port`/`Host Ports` (`describeContainerBasicInfo`),
/// then `describeContainerCommand`.
fn ports_and_command(text: &mut Text, container: &Container) {
    let ports: Vec<String> = container
        .ports
        .iter()
        .map(|port| with_port_name(format!("{}/TCP", port.number), &port.name))
        .collect();
    let host_ports: Vec<String> = container
        .ports
        .iter()
        .map(|port| with_port_name("0/TCP".to_string(), &port.name))
        .collect();
    for (singular, plural, list) in [
        ("Port", "Ports", ports),
        ("Host Port", "Host Ports", host_ports),
    ] {
        let joined = list.join(", ");
        if joined.contains(',') {
            text.line(2, &format!("{plural}:\t{joined}"));
        } else if joined.is_empty() {
            text.line(2, &format!("{singular}:\t<none>"));
        } else {
            text.line(2, &format!("{singular}:\t{joined}"));
        }
    }
    for (title, words) in [("Command", &container.command), ("Args", &container.args)] {
        if !words.is_empty() {
            text.line(2, &format!("{title}:"));
            for word in words {
                for part in word.split('\n') {
                    text.line(3, part);
                }
            }
        }
    }
}

/// `describeContainerProbe`, `describeContainerEnvFrom` and
/// `describeContainerEnvVars`.
fn probes_and_environment(text: &mut Text, container: &Container) {
    for (title, probe) in [
        ("Liveness", &container.liveness),
        ("Readiness", &container.readiness),
        ("Startup", &container.startup),
    ] {
        if let Some(probe) = probe {
            text.line(2, &format!("{title}:\t{}", describe_probe(probe)));
        }
    }
    if !container.env_from.is_empty() {
        text.line(2, "Environment Variables from:");
        for source in &container.env_from {
            let (name, from) = match (&source.config_map, &source.secret) {
                (Some(name), _) => (name.as_str(), "ConfigMap"),
                (None, Some(name)) => (name.as_str(), "Secret"),
                (None, None) => ("", ""),
            };
            let from = if source.prefix.is_empty() {
                from.to_string()
            } else {
                format!("{from} with prefix '{}'", source.prefix)
            };
            text.line(3, &format!("{name}\t{from}\tOptional: {}", source.optional));
        }
    }
    if container.env.is_empty() {
        text.line(2, "Environment:\t<none>");
    } else {
        text.line(2, "Environment:");
    }
    for variable in &container.env {
        match (
            &variable.secret_ref,
            &variable.config_map_ref,
            &variable.value,
        ) {
            (Some((name, key, optional)), _, _) => text.line(
                3,
                &format!(
                    "{}:\t<set to the key '{key}' in secret '{name}'>\tOptional: {optional}",
                    variable.name
                ),
            ),
            (None, Some((name, key, optional)), _) => text.line(
                3,
                &format!(
                    "{}:\t<set to the key '{key}' of config map '{name}'>\tOptional: {optional}",
                    variable.name
                ),
            ),
            (None, None, value) => {
                let value = value.as_ref().map_or("", |v| v.value.as_str());
                for (i, part) in value.split('\n').enumerate() {
                    if i == 0 {
                        text.line(3, &format!("{}:\t{part}", variable.name));
                    } else {
                        text.line(3, &format!("\t{part}"));
                    }
                }
            }
        }
    }
}

/// `describeContainerVolumes`' lines of the written mounts: (path, line).
fn mount_lines(container: &Container) -> Vec<(String, String)> {
    container
        .volume_mounts
        .iter()
        .map(|m| {
            (
                m.mount_path.clone(),
                format!(
                    "{} from {} ({})",
                    m.mount_path,
                    m.name,
                    if m.read_only { "ro" } else { "rw" }
                ),
            )
        })
        .collect()
}

const SERVICE_ACCOUNT_PATH: &str = "/var/run/secrets/kubernetes.io/serviceaccount";

fn with_port_name(port: String, name: &Option<String>) -> String {
    match name {
        Some(name) if !name.is_empty() => format!("{port} ({name})"),
        _ => port,
    }
}

/// `describeStatus`.
fn state_lines(text: &mut Text, title: &str, state: &ContainerState) {
    match state {
        ContainerState::Running { started } => {
            text.line(2, &format!("{title}:\tRunning"));
            text.line(3, &format!("Started:\t{}", rfc1123z(*started)));
        }
        ContainerState::Waiting { reason, .. } => {
            text.line(2, &format!("{title}:\tWaiting"));
            if !reason.is_empty() {
                text.line(3, &format!("Reason:\t{reason}"));
            }
        }
        ContainerState::Terminated {
            reason,
            code,
            started,
            finished,
        } => {
            text.line(2, &format!("{title}:\tTerminated"));
            if !reason.is_empty() {
                text.line(3, &format!("Reason:\t{reason}"));
            }
            text.line(3, &format!("Exit Code:\t{code}"));
            text.line(3, &format!("Started:\t{}", rfc1123z(*started)));
            text.line(3, &format!("Finished:\t{}", rfc1123z(*finished)));
        }
    }
}

/// `describeResources`: limits, then requests (a limit without a request is
/// copied into the request by the API defaults), sorted by name.
fn resources(text: &mut Text, container: &Container) {
    let mut limits: Vec<(String, Quantity)> = container
        .resources
        .limits
        .iter()
        .filter_map(|amount| Some((amount.name.clone(), amount.quantity?)))
        .collect();
    let mut requests: Vec<(String, Quantity)> = container
        .resources
        .requests
        .iter()
        .filter_map(|amount| Some((amount.name.clone(), amount.quantity?)))
        .collect();
    for (name, quantity) in &limits {
        if !requests.iter().any(|(known, _)| known == name) {
            requests.push((name.clone(), *quantity));
        }
    }
    for (title, list) in [("Limits", &mut limits), ("Requests", &mut requests)] {
        if list.is_empty() {
            continue;
        }
        crate::sort::sort_by(list, |a, b| a.0.cmp(&b.0));
        text.line(2, &format!("{title}:"));
        for (name, quantity) in list.iter() {
            text.line(3, &format!("{name}:\t{}", quantity_string(name, *quantity)));
        }
    }
}

/// `Quantity.String()` in canonical form, the format (decimal or binary SI)
/// guessed: the shorter text wins, binary on a tie for byte amounts.
pub fn quantity_string(resource: &str, quantity: Quantity) -> String {
    let milli = quantity.milli;
    if milli % 1000 != 0 {
        return format!("{milli}m");
    }
    let value = milli / 1000;
    if value == 0 {
        return "0".into();
    }
    let scaled = |base: i128, suffixes: &[&str]| {
        let mut value = value;
        let mut index = 0;
        while index + 1 < suffixes.len() && value % base == 0 {
            value /= base;
            index += 1;
        }
        format!("{value}{}", suffixes[index])
    };
    let decimal = scaled(1000, &["", "k", "M", "G", "T", "P", "E"]);
    if value % 1024 != 0 {
        return decimal;
    }
    let binary = scaled(1024, &["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"]);
    let bytes = resource == "memory"
        || resource == "ephemeral-storage"
        || resource.starts_with("hugepages-");
    if binary.len() < decimal.len() || (binary.len() == decimal.len() && bytes) {
        binary
    } else {
        decimal
    }
}

/// `DescribeProbe` (kubectl ≤ 1.36: `#success=` / `#failure=`).
pub fn describe_probe(probe: &Probe) -> String {
    let attrs = format!(
        "delay={}s timeout={}s period={}s #success={} #failure={}",
        probe.initial_delay_seconds.value,
        probe.timeout_seconds.value,
        probe.period_seconds.value,
        probe.success_threshold.value,
        probe.failure_threshold.value
    );
    let port_text = |port: &Option<PortRef>| match port {
        Some(PortRef::Number(number)) => number.to_string(),
        Some(PortRef::Name(name)) => name.clone(),
        None => "0".into(),
    };
    match &probe.handler {
        Handler::Exec { command } => format!("exec [{}] {attrs}", command.join(" ")),
        Handler::HttpGet {
            path, port, scheme, ..
        } => {
            // No host in the model: `net.JoinHostPort("", port)` gives `:port`.
            format!(
                "http-get {}://:{}{path} {attrs}",
                scheme.to_ascii_lowercase(),
                port_text(port)
            )
        }
        Handler::TcpSocket { port, .. } => format!("tcp-socket :{} {attrs}", port_text(port)),
        // The service defaults to "", hence two spaces.
        Handler::Grpc { port, .. } => format!("grpc <pod>:{}  {attrs}", port.unwrap_or(0)),
        Handler::Sleep { .. } | Handler::Missing => format!("unknown {attrs}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantities_print_in_canonical_form() {
        let q = |milli: i128| Quantity { milli };
        assert_eq!(quantity_string("memory", q(8 * (1 << 30) * 1000)), "8Gi");
        assert_eq!(quantity_string("memory", q(8_000_000_000 * 1000)), "8G");
        assert_eq!(quantity_string("cpu", q(500)), "500m");
        assert_eq!(quantity_string("cpu", q(1500)), "1500m");
        assert_eq!(quantity_string("cpu", q(2000)), "2");
        assert_eq!(quantity_string("nvidia.com/gpu", q(1000)), "1");
        assert_eq!(quantity_string("memory", q(1024 * 1000)), "1Ki");
        assert_eq!(quantity_string("memory", q(0)), "0");
    }
}
