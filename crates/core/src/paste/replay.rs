//! The replay of a pasted crash loop (issue 31 item 3), for the seed
//! article's failure only so far: a liveness probe that kills a model still
//! loading (`liveness-kills-slow-start`), read from a `describe pod`.
//!
//! From the paste: the container's name, image, port and its `Liveness:`
//! line (an `http-get` probe: path, port, delay, timeout, period,
//! thresholds), `Restart Count:`, the waiting reason, and the pod's age from
//! the `Scheduled` event's Age cell (describe truncates: `12m` is anywhere
//! in [12m, 13m), `HumanDuration`, kubectl-output.md §1.7). The load time
//! is not in a describe: any load longer than the probe's kill point
//! (`initialDelaySeconds + periodSeconds × failureThreshold`) fails the
//! same way, so the replay assumes twice that and says so in `assumed`.
//! The rebuilt text is simulated and podlab's own `get pods` row is looked
//! for, second by second, within the age's interval, with the pasted
//! STATUS and RESTARTS; then the fix (the startupProbe) is simulated at
//! that time too.

use super::read::{ContainerFacts, PodFacts};
use crate::explain::get_pods;
use crate::manifest::duration::Millis;
use crate::sim::{simulate, Options};

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
    /// Whether a row within the age's interval shows the pasted STATUS and
    /// RESTARTS.
    pub matches: bool,
    /// podlab's `get pods` at `at`, and with the fix applied.
    pub get_pods: String,
    pub fixed_get_pods: String,
    pub fixed_text: String,
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

/// `http-get http://:8000/health delay=10s timeout=1s period=10s
/// #success=1 #failure=3` → (path, port, delay, timeout, period, success,
/// failure).
fn http_probe(line: &str) -> Option<(String, String, u64, u64, u64, u64, u64)> {
    let value = line.split_once(':').map(|(_, v)| v.trim())?;
    let mut words = value.split_whitespace();
    if words.next()? != "http-get" {
        return None;
    }
    let url = words.next()?;
    let rest = url.split_once("://").map(|(_, r)| r).unwrap_or(url);
    let (hostport, path) = rest.split_once('/').unwrap_or((rest, ""));
    let (_, port) = hostport.rsplit_once(':')?;
    let number = |key: &str| -> Option<u64> {
        value
            .split_whitespace()
            .find_map(|w| w.strip_prefix(key))
            .map(|v| v.trim_end_matches('s'))
            .and_then(|v| v.parse().ok())
    };
    Some((
        format!("/{path}"),
        port.to_string(),
        number("delay=")?,
        number("timeout=")?,
        number("period=")?,
        number("#success=").or_else(|| number("successThreshold="))?,
        number("#failure=").or_else(|| number("failureThreshold="))?,
    ))
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

/// The replay of `pod`'s liveness crash loop, when the paste says enough.
pub fn liveness_crash_loop(pod: &PodFacts, container: &ContainerFacts) -> Option<Replay> {
    let (_, _, probe_line) = container.probes.iter().find(|(t, _, _)| t == "Liveness")?;
    let (path, port, delay, timeout, period, success, failure) = http_probe(&probe_line.text)?;
    let scheduled = pod.events.iter().find(|e| e.reason == "Scheduled")?;
    let (from, to) = age_interval(&scheduled.age)?;
    // Events live one hour (--event-ttl), so a Scheduled row is younger.
    if to > 2 * 3_600_000 {
        return None;
    }
    let (restarts, _) = container.restarts.as_ref()?;
    let status = match (&container.waiting_reason, &container.state) {
        (Some((reason, _)), _) => reason.clone(),
        (None, Some((state, _))) if state == "Running" => "Running".to_string(),
        _ => return None,
    };
    let name = dns_name(&container.name, "app");
    let deployment = dns_name(&deployment_name(&pod.name), "app");
    let image = container
        .image
        .clone()
        .filter(|i| !i.contains(char::is_whitespace) && !i.contains('<'))
        .unwrap_or_else(|| "registry.example.com/app:pasted".to_string());
    let kill_s = delay + period * failure;
    let startup_s = (kill_s * 2).max(30);
    let port_yaml = if port.chars().all(|c| c.is_ascii_digit()) {
        port.clone()
    } else {
        format!("{port:?}")
    };
    let probe = format!(
        "httpGet: {{ path: {path}, port: {port_yaml} }}\n            initialDelaySeconds: {delay}\n            timeoutSeconds: {timeout}\n            periodSeconds: {period}\n            successThreshold: {success}\n            failureThreshold: {failure}"
    );
    let build = |startup_probe: &str| {
        format!(
            "# Rebuilt by `podlab diagnose` from a pasted `kubectl describe pod` (docs/diagnose.md):\n\
             # the container, its port and livenessProbe as pasted; the load time is assumed.\n\
             apiVersion: apps/v1\n\
             kind: Deployment\n\
             metadata:\n  name: {deployment}\n\
             spec:\n  replicas: 1\n  selector:\n    matchLabels: {{ app: {deployment} }}\n  template:\n    metadata:\n      labels: {{ app: {deployment} }}\n    spec:\n      containers:\n\
             \x20       - name: {name}\n\
             \x20         image: {image}\n\
             \x20         ports: [{{ containerPort: {port_yaml} }}]\n\
             \x20         livenessProbe:\n            {probe}\n{startup_probe}\
             ---\n\
             apiVersion: podlab.dev/v1alpha1\n\
             kind: Scenario\n\
             metadata: {{ name: replay }}\n\
             spec:\n  workload:\n    - container: {name}\n      startup: {startup_s}s\n"
        )
    };
    let text = build("");
    let fixed_text = build(&format!(
        "          startupProbe:\n            httpGet: {{ path: {path}, port: {port_yaml} }}\n            periodSeconds: 10\n            failureThreshold: 30\n"
    ));
    let until = Some(to + 1_000);
    let run = simulate(&text, &Options { until });
    let pods_at = |t: Millis| {
        run.pods
            .iter()
            .find(|p| p.exists_at(t))
            .map(|p| get_pods::row(p, t))
    };
    let mut at = from;
    let mut matches = false;
    let mut t = from;
    while t < to {
        if let Some(row) = pods_at(t) {
            if row.status == status && row.restart_count as u64 == *restarts {
                at = t;
                matches = true;
                break;
            }
        }
        t += 1_000;
    }
    let get_pods = get_pods::render(&run, at);
    let fixed = simulate(&fixed_text, &Options { until });
    let fixed_get_pods = get_pods::render(&fixed, at);
    Some(Replay {
        link: crate::share::encode(&text).ok(),
        text,
        startup_s,
        at,
        matches,
        get_pods,
        fixed_get_pods,
        fixed_text,
    })
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
}
