//! The fixes an answer proposes, made from what the paste shows: a probe's
//! handler as YAML (for a startupProbe with the liveness probe's own
//! check), the object a NotFound names and the command that creates it,
//! twice a memory limit.

use super::read::Line;

/// `httpGet: { path: /health, port: 8000 }` from a describe probe line.
pub(super) fn handler_yaml(line: Option<&Line>) -> String {
    let value = line
        .and_then(|l| l.text.split_once(':'))
        .map(|(_, v)| v.trim())
        .unwrap_or("");
    let mut words = value.split_whitespace();
    match (words.next(), words.next()) {
        (Some("http-get"), Some(url)) => {
            let rest = url.split_once("://").map(|(_, r)| r).unwrap_or(url);
            let (hostport, path) = rest.split_once('/').unwrap_or((rest, ""));
            let port = hostport.rsplit_once(':').map(|(_, p)| p).unwrap_or("8000");
            format!("httpGet: {{ path: /{path}, port: {port} }}")
        }
        (Some("tcp-socket"), Some(hostport)) => {
            let port = hostport
                .rsplit_once(':')
                .map(|(_, p)| p)
                .unwrap_or(hostport);
            format!("tcpSocket: {{ port: {port} }}")
        }
        (Some("grpc"), Some(hostport)) => {
            let port = hostport
                .rsplit_once(':')
                .map(|(_, p)| p)
                .unwrap_or(hostport);
            format!("grpc: {{ port: {port} }}")
        }
        (Some("exec"), _) => {
            let command = value
                .split_once('[')
                .and_then(|(_, r)| r.split_once(']'))
                .map(|(c, _)| c)
                .unwrap_or("");
            let items: Vec<String> = command.split(' ').map(|w| format!("{w:?}")).collect();
            format!("exec: {{ command: [{}] }}", items.join(", "))
        }
        _ => "httpGet: { path: /health, port: 8000 }".into(),
    }
}

/// `secret "mlflow-secret" not found` → (`secret`, `mlflow-secret`).
/// The API server's NotFound says the resource's plural (`secrets "x" not
/// found`), newer kubelets their own singular (`secret "x" not found`).
pub(super) fn not_found_object(message: &str) -> Option<(String, String)> {
    for (needle, kind) in [
        ("secrets \"", "secret"),
        ("secret \"", "secret"),
        ("configmaps \"", "configmap"),
        ("configmap \"", "configmap"),
    ] {
        if let Some((_, rest)) = message.split_once(needle) {
            if let Some((name, after)) = rest.split_once('"') {
                if after.trim_start().starts_with("not found") {
                    return Some((kind.to_string(), name.to_string()));
                }
            }
        }
    }
    None
}

pub(super) fn create_command((kind, name): &(String, String)) -> String {
    match kind.as_str() {
        "secret" => format!("kubectl create secret generic {name} --from-literal=<key>=<value>"),
        _ => format!("kubectl create configmap {name} --from-literal=<key>=<value>"),
    }
}

/// `8Gi` → `16Gi`: twice a memory limit, in its own unit.
pub(super) fn double_quantity(text: &str) -> Option<String> {
    let digits: String = text.chars().take_while(|c| c.is_ascii_digit()).collect();
    let unit = &text[digits.len()..];
    let n: u64 = digits.parse().ok()?;
    Some(format!("{}{unit}", n.checked_mul(2)?))
}
