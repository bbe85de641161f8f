//! PL204 probe-port-unknown.
//!
//! Two ways a probe knocks on the wrong door:
//!
//! - **A named port the container does not declare.** The kubelet resolves a
//!   named `httpGet`/`tcpSocket` port against the container's own `ports`
//!   (`kubernetes/kubernetes:pkg/probe/util.go` `ResolveContainerPort`,
//!   `findPortByName`); the API server does not check
//!   the name against the ports (`ValidatePortNumOrName` only checks its
//!   syntax). The error is a Go error, not a probe failure
//!   (`pkg/kubelet/prober/prober.go` `httpProberAction.Run`,
//!   `tcpProberAction.Run` return `probe.Unknown, "", err`), so the kubelet
//!   records `<Type> probe errored and resulted in unknown state: <error>`
//!   and the worker throws the result away
//!   (`shared/reference/kubelet.md` §2). The probe therefore never counts:
//!   a readiness probe keeps its initial Failure (never Ready), a startup
//!   probe keeps Unknown (never Started, so never Ready and liveness never
//!   runs), and a liveness probe keeps its initial Success (silently off).
//! - **A number the program does not listen on.** Every probe then gets
//!   `connection refused` (kubelet.md §2, HTTP and TCP outputs): readiness
//!   never succeeds, and liveness and startup probes restart the container
//!   in a loop (kubelet.md §3). The served port is the Scenario's
//!   `listenPort`, by default the first containerPort (DESIGN.md). Because
//!   that default is a guess for multi-port servers (Triton serves HTTP,
//!   gRPC and metrics on three ports), a number is reported only when the
//!   Scenario writes `listenPort`, or when the container declares ports, the
//!   number is none of them, and it does not appear in the container's
//!   command, args or env values either (`--health-port=8081`: declaring a
//!   port is optional, and a server configured to listen there does).
//!
//! The kubelet's message for an unknown name changed with
//! kubernetes/kubernetes PR #139791 (merged 2026-06, after v1.35): before it,
//! `ResolveContainerPort` fell back to `strconv.Atoi`, so the event reads
//! `... unknown state: strconv.Atoi: parsing "htpp": invalid syntax`; after
//! it, `port "htpp" not found`. A quoted number (`port: "8000"`) is a port
//! name to the API, and `IsValidPortName` requires a letter
//! (`staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go`), so
//! the API server rejects it; it is reported here too, with the unquoted
//! number as the fix.

use super::{containers, edit, words, Context, Rule};
use super::{long, long_str};
use crate::diagnostic::{Diagnostic, Fix, Severity};
use crate::manifest::model::{Container, Handler, PortRef, Probe, ProbeKind};
use crate::manifest::scenario::Program;
use crate::span::Span;
use crate::text;

pub static RULE: Rule = Rule {
    id: "PL204",
    name: "probe-port-unknown",
    severity: Severity::Error,
    scenario_aware: true,
    summary: words!(
        "a probe targets a named port the container does not declare, or a port the program does not listen on",
        "探針指向 container 沒有宣告的具名 port，或程式沒有在聽的 port"
    ),
    what: long!(
        "For each httpGet, tcpSocket and grpc probe: a named port (`port: http`) must be the `name` of one of the container's `ports`; a numeric port must be the port the program serves on (the Scenario's `listenPort`, default the first containerPort). A number is reported only when the Scenario writes `listenPort`, or when the container declares ports and the number is neither one of them nor mentioned in its command, args or env (`--health-port=8081`), so a probe on another port of a multi-port server is not flagged by guesswork.",
        "對每個 httpGet、tcpSocket 與 grpc 探針：具名 port（`port: http`）必須是 container `ports` 中某一項的 `name`；數字 port 必須是程式實際提供服務的 port（Scenario 的 `listenPort`，預設為第一個 containerPort）。只有在 Scenario 寫了 `listenPort`，或 container 有宣告 port、而該數字既不在其中、也沒出現在 command、args 或 env 裡（`--health-port=8081`）時，才回報數字 port，避免對多 port 伺服器的其他 port 亂猜。"
    ),
    why: long!(
        "Serving images each have their own default port (vLLM's OpenAI server 8000, the TGI container 80, Triton 8000/8001/8002 for HTTP/gRPC/metrics), and a manifest copied from another model keeps the old one. A probe on a port nobody listens on gets connection refused forever: the readiness probe never passes, so the expensive GPU pod never receives traffic, and a liveness or startup probe restarts the container after every model load. A misspelt port name is quieter and worse: the kubelet cannot resolve it, discards every result, and the pod simply never becomes Ready — or, for a liveness probe, the check is silently off.",
        "每個推論服務映像都有自己的預設 port（vLLM 的 OpenAI 伺服器 8000、TGI container 80、Triton 的 HTTP/gRPC/metrics 分別是 8000/8001/8002），從別的模型抄來的 manifest 常留著舊的 port。探針打在沒人監聽的 port 上會永遠 connection refused：readiness 探針永遠不會通過，昂貴的 GPU Pod 一個請求都收不到；liveness 或 startup 探針則會在每次模型載入後重啟 container。拼錯 port 名稱更安靜也更糟：kubelet 解析不了，每次結果都被丟掉，Pod 就是永遠不會 Ready——如果是 liveness 探針，這項檢查等於默默關掉了。"
    ),
    failing: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: llm-api }\nspec:\n  selector: { matchLabels: { app: llm-api } }\n  template:\n    metadata: { labels: { app: llm-api } }\n    spec:\n      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.6.3\n          ports: [{ name: http, containerPort: 8000 }]\n          readinessProbe:\n            httpGet: { path: /health, port: web }\n            periodSeconds: 5\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: llm-api }\nspec:\n  workload:\n    - container: vllm\n      listenPort: 8000\n"),
    fixed: long_str!("apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: llm-api }\nspec:\n  selector: { matchLabels: { app: llm-api } }\n  template:\n    metadata: { labels: { app: llm-api } }\n    spec:\n      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.6.3\n          ports: [{ name: http, containerPort: 8000 }]\n          readinessProbe:\n            httpGet: { path: /health, port: http }\n            periodSeconds: 5\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: llm-api }\nspec:\n  workload:\n    - container: vllm\n      listenPort: 8000\n"),
    fix: long!(
        "Point the probe at the port the server listens on: a name declared in the container's `ports`, or the number itself. Check the image's documentation or `kubectl logs` for the port it binds (\"Uvicorn running on http://0.0.0.0:8000\"). The automatic fix writes the served port number (the Scenario's `listenPort`, or the container's only port when a name is unknown).",
        "把探針指向伺服器實際監聽的 port：container `ports` 裡宣告的名稱，或直接寫數字。可以從映像的文件或 `kubectl logs` 找到它綁定的 port（\"Uvicorn running on http://0.0.0.0:8000\"）。自動修正會寫入程式提供服務的 port 數字（Scenario 的 `listenPort`；名稱找不到時則用 container 唯一的 port）。"
    ),
    check: Some(check),
};

fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for (_, container, _) in containers(context.workloads) {
        let program = context.scenario.program(container);
        for probe in container.probes() {
            let (port, span) = match &probe.handler {
                Handler::HttpGet {
                    port: Some(port),
                    port_span: Some(span),
                    ..
                }
                | Handler::TcpSocket {
                    port: Some(port),
                    port_span: Some(span),
                } => (port.clone(), trimmed(context.text, *span)),
                Handler::Grpc {
                    port: Some(number),
                    port_span: Some(span),
                } => (PortRef::Number(*number), trimmed(context.text, *span)),
                _ => continue,
            };
            let diagnostic = match port {
                PortRef::Name(port_name) if port_name.parse::<i64>().is_ok() => {
                    Some(quoted_number(container, probe, &program, &port_name, span))
                }
                PortRef::Name(port_name) => {
                    match container
                        .ports
                        .iter()
                        .find(|declared| declared.name.as_deref() == Some(port_name.as_str()))
                    {
                        Some(declared) => wrong_number(
                            context.text,
                            container,
                            probe,
                            &program,
                            declared.number,
                            Some(&port_name),
                            span,
                        ),
                        None => Some(unknown_name(container, probe, &program, &port_name, span)),
                    }
                }
                PortRef::Number(number) => {
                    wrong_number(context.text, container, probe, &program, number, None, span)
                }
            };
            out.extend(diagnostic);
        }
    }
}

/// The declared ports, for messages: `http=8080, 9090`, or `none`.
fn declared_ports(container: &Container) -> String {
    if container.ports.is_empty() {
        return "none".into();
    }
    container
        .ports
        .iter()
        .map(|port| match &port.name {
            Some(name) => format!("{name}={}", port.number),
            None => port.number.to_string(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `span` without trailing blanks (the reader's spans of quoted flow
/// scalars can end past a following space).
fn trimmed(text: &str, span: Span) -> Span {
    let written = text.get(span.start..span.end).unwrap_or_default();
    Span::new(span.start, span.start + written.trim_end().len())
}

fn port_fix(span: Span, port: i64) -> Fix {
    Fix {
        description: text!(
            "probe port {port}, where the program listens",
            "探針改用程式實際監聽的 port {port}"
        ),
        edits: vec![edit::replace(span, port.to_string())],
    }
}

fn unknown_name(
    container: &Container,
    probe: &Probe,
    program: &Program,
    port_name: &str,
    span: Span,
) -> Diagnostic {
    let name = &container.name;
    let field = probe.kind.field();
    let title = probe.kind.title();
    let declared = declared_ports(container);
    let message = match probe.kind {
        ProbeKind::Readiness => text!(
            "container \"{name}\": the readinessProbe uses port \"{port_name}\" but the container declares no port of that name (ports: {declared}): every probe errors, its result is discarded, and the pod never becomes Ready",
            "container「{name}」：readinessProbe 使用 port「{port_name}」，但 container 沒有宣告這個名稱的 port（ports：{declared}）：每次探測都出錯、結果被丟掉，Pod 永遠不會 Ready"
        ),
        ProbeKind::Startup => text!(
            "container \"{name}\": the startupProbe uses port \"{port_name}\" but the container declares no port of that name (ports: {declared}): every probe errors and is discarded, so the container never counts as Started — never Ready, and its liveness probe never runs",
            "container「{name}」：startupProbe 使用 port「{port_name}」，但 container 沒有宣告這個名稱的 port（ports：{declared}）：每次探測都出錯、結果被丟掉，container 永遠不算 Started——永遠不會 Ready，liveness 探針也永遠不會執行"
        ),
        ProbeKind::Liveness => text!(
            "container \"{name}\": the livenessProbe uses port \"{port_name}\" but the container declares no port of that name (ports: {declared}): every probe errors and is discarded, so the liveness check is silently off and a hung server is never restarted",
            "container「{name}」：livenessProbe 使用 port「{port_name}」，但 container 沒有宣告這個名稱的 port（ports：{declared}）：每次探測都出錯、結果被丟掉，等於默默關掉 liveness 檢查，卡死的伺服器永遠不會被重啟"
        ),
    };
    let mut diagnostic = RULE.diagnostic(span, message).with_help(text!(
        "`kubectl describe pod` shows the Warning `Unhealthy` event `{title} probe errored and resulted in unknown state: strconv.Atoi: parsing \"{port_name}\": invalid syntax` (kubelets after PR #139791: `port \"{port_name}\" not found`); declare the port under `ports` with `name: {port_name}`, or write the number in the {field}",
        "`kubectl describe pod` 的 Events 會出現 Warning `Unhealthy`：`{title} probe errored and resulted in unknown state: strconv.Atoi: parsing \"{port_name}\": invalid syntax`（含 PR #139791 的新版 kubelet 則是 `port \"{port_name}\" not found`）；請在 `ports` 裡用 `name: {port_name}` 宣告這個 port，或在 {field} 直接寫數字"
    ));
    let target = match (&program.listen_port.span, container.ports.as_slice()) {
        (Some(_), _) => Some(program.listen_port.value),
        (None, [only]) => Some(only.number),
        _ => None,
    };
    if let Some(port) = target.filter(|port| (1..=65535).contains(port)) {
        diagnostic = diagnostic.with_fix(port_fix(span, port));
    }
    diagnostic
}

/// Whether a probe on `number` misses the program (see the module comment
/// for when the served port is trusted).
fn misses(container: &Container, program: &Program, number: i64) -> bool {
    let served = program.listen_port.value;
    // Out of range is the API server's business (PL003).
    if number == served || !(1..=65535).contains(&number) || !(1..=65535).contains(&served) {
        return false;
    }
    if program.listen_port.span.is_some() {
        return true;
    }
    let declared = container.ports.iter().any(|port| port.number == number);
    !container.ports.is_empty() && !declared && !configured(container, number)
}

/// Whether `number` appears in the container's command, args or env values
/// (`--health-port=8081`, `PORT=8081`): declaring a port is optional, and a
/// server told to listen there does.
fn configured(container: &Container, number: i64) -> bool {
    let wanted = number.to_string();
    container
        .command
        .iter()
        .chain(&container.args)
        .chain(
            container
                .env
                .iter()
                .filter_map(|var| var.value.as_ref().map(|value| &value.value)),
        )
        .any(|word| {
            word.split(|c: char| !c.is_ascii_digit())
                .any(|token| token == wanted)
        })
}

/// `port: "8000"`: a string, so a port name, and no valid one.
fn quoted_number(
    container: &Container,
    probe: &Probe,
    program: &Program,
    written: &str,
    span: Span,
) -> Diagnostic {
    let name = &container.name;
    let field = probe.kind.field();
    let number = written.parse::<i64>().unwrap_or(0);
    let target = if misses(container, program, number) {
        program.listen_port.value
    } else {
        number
    };
    let mut diagnostic = RULE
        .diagnostic(
            span,
            text!(
                "container \"{name}\": the {field} port \"{written}\" is quoted, which makes it a port name, and a port name must contain a letter: the API server rejects the manifest",
                "container「{name}」：{field} 的 port \"{written}\" 加了引號，就變成 port 名稱，而 port 名稱必須含有英文字母：API server 會拒絕這份 manifest"
            ),
        )
        .with_help(text!(
            "write the number without quotes: `port: {target}`",
            "把數字的引號拿掉：`port: {target}`"
        ));
    if (1..=65535).contains(&target) {
        diagnostic = diagnostic.with_fix(port_fix(span, target));
    }
    diagnostic
}

fn wrong_number(
    text: &str,
    container: &Container,
    probe: &Probe,
    program: &Program,
    number: i64,
    via_name: Option<&str>,
    span: Span,
) -> Option<Diagnostic> {
    if !misses(container, program, number) {
        return None;
    }
    let served = program.listen_port.value;
    let listen_written = program.listen_port.span.is_some();
    let name = &container.name;
    let field = probe.kind.field();
    let title = probe.kind.title();
    let written = text
        .get(span.start..span.end)
        .unwrap_or_default()
        .to_string();
    let probed = match via_name {
        Some(port_name) => format!("\"{port_name}\" = {number}"),
        None => number.to_string(),
    };
    let source = if listen_written {
        text!("the Scenario's listenPort", "Scenario 的 listenPort")
    } else {
        text!("the first containerPort", "第一個 containerPort")
    };
    let (source_en, source_zh) = (source.en, source.zh_tw);
    let consequence = match probe.kind {
        ProbeKind::Readiness => text!(
            "it is refused forever and the pod never becomes Ready",
            "永遠被拒絕連線，Pod 永遠不會 Ready"
        ),
        ProbeKind::Liveness => text!(
            "it is refused forever and the kubelet restarts the container after every start (CrashLoopBackOff)",
            "永遠被拒絕連線，kubelet 每次啟動後都會重啟 container（CrashLoopBackOff）"
        ),
        ProbeKind::Startup => text!(
            "it never succeeds and the kubelet restarts the container at the end of every startup budget (CrashLoopBackOff)",
            "永遠不會成功，kubelet 每次啟動預算用完就重啟 container（CrashLoopBackOff）"
        ),
    };
    let (consequence_en, consequence_zh) = (consequence.en, consequence.zh_tw);
    let message = text!(
        "container \"{name}\": the {field} probes port {probed} but the program listens on {served} ({source_en}): {consequence_en}",
        "container「{name}」：{field} 探測 port {probed}，但程式監聽的是 {served}（{source_zh}）：{consequence_zh}"
    );
    let output = match &probe.handler {
        Handler::HttpGet { path, scheme, .. } => {
            let scheme = scheme.to_ascii_lowercase();
            format!("Get \"{scheme}://<podIP>:{number}{path}\": dial tcp <podIP>:{number}: connect: connection refused")
        }
        Handler::Grpc { .. } => {
            format!(
                "error: failed to connect service at \"<podIP>:{number}\": ... connection refused"
            )
        }
        _ => format!("dial tcp <podIP>:{number}: connect: connection refused"),
    };
    let diagnostic = RULE
        .diagnostic(span, message)
        .with_help(text!(
            "`kubectl describe pod` shows `{title} probe failed: {output}`; `kubectl logs` shows the port the server bound; change `port: {written}` in the {field}",
            "`kubectl describe pod` 會看到 `{title} probe failed: {output}`；`kubectl logs` 會顯示伺服器實際綁定的 port；請修改 {field} 的 `port: {written}`"
        ))
        .with_fix(port_fix(span, served));
    Some(diagnostic)
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::apply_edits;
    use crate::lint::lint;

    fn fires(text: &str) -> Vec<crate::diagnostic::Diagnostic> {
        lint(text)
            .diagnostics
            .into_iter()
            .filter(|d| d.rule == "PL204")
            .collect()
    }

    #[test]
    fn the_examples_behave() {
        let found = fires(super::RULE.failing);
        assert_eq!(found.len(), 1);
        assert!(fires(super::RULE.fixed).is_empty());
        let fix = found[0].fix.as_ref().expect("a fix");
        let after = apply_edits(super::RULE.failing, &fix.edits);
        assert!(after.contains("port: 8000 }"), "{after}");
        assert!(fires(&after).is_empty());
    }

    #[test]
    fn numbers_on_other_declared_ports_are_not_guessed() {
        let triton = "apiVersion: v1\nkind: Pod\nmetadata: { name: triton }\nspec:\n  containers:\n    - name: triton\n      image: nvcr.io/nvidia/tritonserver:24.08-py3\n      ports: [{ containerPort: 8000 }, { containerPort: 8001 }]\n      readinessProbe: { grpc: { port: 8001 } }\n";
        assert!(fires(triton).is_empty());
        let wrong = triton.replace("port: 8001 }", "port: 9000 }");
        let found = fires(&wrong);
        assert_eq!(found.len(), 1, "{wrong}");
        assert!(found[0].message.en.contains("listens on 8000"));
    }

    #[test]
    fn a_port_set_in_the_args_is_not_guessed() {
        let text = "apiVersion: v1\nkind: Pod\nmetadata: { name: p }\nspec:\n  containers:\n    - name: api\n      image: registry.example.com/api:1.0\n      args: [\"--health-addr=:8081\"]\n      ports: [{ containerPort: 8000 }]\n      livenessProbe: { httpGet: { path: /health, port: 8081 } }\n";
        assert!(fires(text).is_empty());
        assert_eq!(fires(&text.replace("=:8081", "=:9999")).len(), 1);
    }

    #[test]
    fn no_declared_ports_and_no_listen_port_is_not_a_mismatch() {
        let text = "apiVersion: v1\nkind: Pod\nmetadata: { name: p }\nspec:\n  containers:\n    - name: api\n      image: registry.example.com/api:1.0\n      readinessProbe: { tcpSocket: { port: 9000 } }\n";
        assert!(fires(text).is_empty());
    }

    #[test]
    fn quoted_number_is_rejected_and_unquoted() {
        let text = "apiVersion: v1\nkind: Pod\nmetadata: { name: p }\nspec:\n  containers:\n    - name: api\n      image: registry.example.com/api:1.0\n      ports: [{ containerPort: 8000 }]\n      readinessProbe: { httpGet: { path: /health, port: \"8000\" } }\n";
        let found = fires(text);
        assert_eq!(found.len(), 1);
        let fix = found[0].fix.as_ref().expect("a fix");
        let after = apply_edits(text, &fix.edits);
        assert!(after.contains("port: 8000 }"), "{after}");
        assert!(fires(&after).is_empty());
    }
}
