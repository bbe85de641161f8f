//! The probes' failures: the liveness probe that kills a model still
//! loading (PL201), the startup probe's budget that runs out first (PL202),
//! a liveness or startup probe that kills a program already serving (a
//! wrong path or port, a timeout: PL204, PL205), and the readiness probe
//! that never passes although the program serves.

use super::evidence::{
    assumed_in, field_path, last_line, object, restarts_at, secs, secs_zh, spec, target, Evidence,
};
use super::{Diagnosis, Kind};
use crate::explain::{describe, logs};
use crate::i18n::Text;
use crate::manifest::duration::Millis;
use crate::manifest::model::{Handler, PortRef, Probe};
use crate::manifest::path::ProgramField;
use crate::rules::pl201_liveness_kills_slow_start as pl201;
use crate::sim::{ContainerRun, Event, Instance, PodRun, Run};
use crate::text;

/// The `Killing` occurrence that ended `instance`, if a probe killed it.
pub(super) fn killing_event<'r>(
    run: &'r Run,
    pod: &PodRun,
    container: &ContainerRun,
    instance: &Instance,
) -> Option<&'r Event> {
    let exit = instance.exit.as_ref()?;
    let object = object(pod);
    let field_path = field_path(container);
    run.events.iter().find(|e| {
        e.reason == "Killing"
            && e.at >= instance.started
            && e.at <= exit.at
            && *e.object == *object
            && e.field_path.as_deref() == Some(field_path.as_str())
    })
}

/// The last `Unhealthy` occurrence of a probe (`Liveness`, `Startup`,
/// `Readiness`) of the container in [from, to].
fn last_unhealthy<'r>(
    run: &'r Run,
    pod: &PodRun,
    container: &ContainerRun,
    title: &str,
    from: Millis,
    to: Millis,
) -> Option<&'r Event> {
    let object = object(pod);
    let field_path = field_path(container);
    let prefix = format!("{title} probe");
    run.events.iter().rev().find(|e| {
        e.reason == "Unhealthy"
            && e.at >= from
            && e.at <= to
            && *e.object == *object
            && e.field_path.as_deref() == Some(field_path.as_str())
            && e.message.starts_with(&prefix)
    })
}

/// `http-get :8000/health` style description of a probe's check, and its
/// handler as one line of YAML for a fix.
fn handler_yaml(probe: &Probe) -> String {
    let port = |port: &Option<PortRef>| match port {
        Some(PortRef::Number(n)) => n.to_string(),
        Some(PortRef::Name(name)) => name.clone(),
        None => "0".into(),
    };
    match &probe.handler {
        Handler::HttpGet { path, port: p, .. } => {
            format!("httpGet: {{ path: {path}, port: {} }}", port(p))
        }
        Handler::TcpSocket { port: p, .. } => format!("tcpSocket: {{ port: {} }}", port(p)),
        Handler::Grpc { port: p, .. } => format!("grpc: {{ port: {} }}", p.unwrap_or(0)),
        Handler::Exec { command } => format!("exec: {{ command: {command:?} }}"),
        Handler::Sleep { .. } | Handler::Missing => "httpGet: { path: /health, port: 8000 }".into(),
    }
}

/// `initialDelaySeconds 10, periodSeconds 10, failureThreshold 3` (en, zh-TW).
fn probe_settings(probe: &Probe) -> (String, String) {
    let (delay, period, threshold) = (
        probe.initial_delay_seconds.value,
        probe.period_seconds.value,
        probe.failure_threshold.value,
    );
    (
        format!(
            "initialDelaySeconds {delay}, periodSeconds {period}, failureThreshold {threshold}"
        ),
        format!(
            "initialDelaySeconds {delay}、periodSeconds {period}、failureThreshold {threshold}"
        ),
    )
}

pub(super) fn liveness_during_load(
    run: &Run,
    pod: &PodRun,
    container: &ContainerRun,
    instance: &Instance,
    killing: &Event,
    at: Millis,
) -> Diagnosis {
    let name = &container.name;
    let load = secs(container.program.startup.value);
    let load_zh = secs_zh(container.program.startup.value);
    let killed_after = secs(killing.at - instance.started);
    let killed_after_zh = secs_zh(killing.at - instance.started);
    let restarts = restarts_at(container, at);
    let described = describe::describe_pod(run, pod, at);
    let mut evidence = Evidence::new();
    evidence.find(&described, "Restart Count:", None);
    evidence.find(&described, "failed liveness probe", Some(&*killing.message));
    let unhealthy = last_unhealthy(
        run,
        pod,
        container,
        "Liveness",
        instance.started,
        killing.at,
    );
    evidence.find(
        &described,
        "Liveness probe failed",
        unhealthy.map(|e| &*e.message),
    );
    if let Ok(previous) = logs::logs(run, pod, name, at, true) {
        if let Some(line) = last_line(&previous) {
            evidence.push(line);
        }
    }
    let liveness = spec(pod, container).and_then(|c| c.liveness.as_ref());
    let (settings, settings_zh) = liveness.map(probe_settings).unwrap_or_default();
    // The rule's bound (PL201), in the same words and rounding, so the
    // instant reads inside it.
    let window = liveness
        .map(crate::rules::kill_window_text)
        .unwrap_or_default();
    let (window, window_zh) = (window.en, window.zh_tw);
    let (check, threshold) = match liveness {
        Some(probe) => (
            handler_yaml(probe),
            pl201::covering_threshold(container.program.startup.value, 0, 10),
        ),
        None => (String::new(), 6),
    };
    let period = pl201::FIX_PERIOD_SECONDS;
    let covered = threshold * period;
    // Without a readinessProbe a running container counts as Ready (kubelet
    // status manager: no probe means ready once started), so it is Ready
    // between kills although the model never loads.
    let ever_ready = container
        .instances
        .iter()
        .any(|instance| instance.ready.iter().any(|(from, _)| *from <= at));
    let symptom = if ever_ready {
        text!(
            "CrashLoopBackOff: container \"{name}\" restarted {restarts} times; with no readinessProbe it shows Ready while it runs, but the model never finishes loading",
            "CrashLoopBackOff：container「{name}」已重啟 {restarts} 次；沒有 readinessProbe，所以執行期間顯示 Ready，但模型從來沒有載入完"
        )
    } else {
        text!(
            "CrashLoopBackOff: container \"{name}\" restarted {restarts} times, never Ready",
            "CrashLoopBackOff：container「{name}」已重啟 {restarts} 次，從來沒有 Ready"
        )
    };
    Diagnosis {
        assumed: assumed_in(container, &[ProgramField::Startup]),
        pod: pod.name.clone(),
        kind: Kind::LivenessDuringLoad,
        symptom,
        root_cause: text!(
            "the model takes {load} to load, but the livenessProbe ({settings}, no startupProbe), which kills {window}, killed the container {killed_after} after it started, before loading ended; every restart loads from zero, so it never finishes",
            "模型載入要 {load_zh}，但 livenessProbe（{settings_zh}，沒有 startupProbe）會在{window_zh}砍掉 container，這次在啟動後 {killed_after_zh} 就砍掉它，那時還沒載入完；每次重啟都從頭載入，所以永遠載入不完"
        ),
        evidence: evidence.lines,
        next_command: format!("kubectl logs {} --previous", target(pod, container)),
        why_that_command: text!(
            "describe's Events already show the kill (Killing: failed liveness probe, after connection refused); the previous run's log shows how far the load got: it stops mid-load, with no \"Model loaded\" line",
            "describe 的 Events 已經看到 kubelet 因 liveness 探針失敗（connection refused）而砍掉 container；上一輪的日誌可以確認模型載入到哪裡：停在載入途中，沒有「Model loaded」那一行"
        ),
        fix: text!(
            "add a startupProbe with the same check — `startupProbe: {{ {check}, periodSeconds: {period}, failureThreshold: {threshold} }}` ({covered}s for the {load} load) — so liveness waits until the model is loaded (PL201 liveness-kills-slow-start)",
            "加上檢查方式相同的 startupProbe——`startupProbe: {{ {check}, periodSeconds: {period}, failureThreshold: {threshold} }}`（給 {load_zh}的載入 {covered} 秒）——liveness 會等模型載入完才開始檢查（PL201 liveness-kills-slow-start）"
        ),
    }
}

pub(super) fn startup_budget(
    run: &Run,
    pod: &PodRun,
    container: &ContainerRun,
    instance: &Instance,
    killing: &Event,
    at: Millis,
) -> Diagnosis {
    let name = &container.name;
    let load_ms = container.program.startup.value;
    let load = secs(load_ms);
    let load_zh = secs_zh(load_ms);
    let killed_after = secs(killing.at - instance.started);
    let killed_after_zh = secs_zh(killing.at - instance.started);
    let described = describe::describe_pod(run, pod, at);
    let mut evidence = Evidence::new();
    evidence.find(&described, "Restart Count:", None);
    evidence.find(&described, "failed startup probe", Some(&*killing.message));
    let unhealthy = last_unhealthy(run, pod, container, "Startup", instance.started, killing.at);
    evidence.find(
        &described,
        "Startup probe failed",
        unhealthy.map(|e| &*e.message),
    );
    if let Ok(previous) = logs::logs(run, pod, name, at, true) {
        if let Some(line) = last_line(&previous) {
            evidence.push(line);
        }
    }
    let startup = spec(pod, container).and_then(|c| c.startup.as_ref());
    let ((settings, settings_zh), window, period, threshold) = match startup {
        Some(probe) => {
            let period = probe.period_seconds.value.max(1) as u64;
            let delay = probe.initial_delay_seconds.value.max(0) as u64 * 1000;
            (
                probe_settings(probe),
                crate::rules::kill_window_text(probe),
                period,
                pl201::covering_threshold(load_ms, delay, period),
            )
        }
        None => (Default::default(), Text::default(), 10, 6),
    };
    let (window, window_zh) = (window.en, window.zh_tw);
    Diagnosis {
        assumed: assumed_in(container, &[ProgramField::Startup]),
        pod: pod.name.clone(),
        kind: Kind::StartupBudgetExhausted,
        symptom: text!(
            "CrashLoopBackOff: container \"{name}\" is killed by its startupProbe and never becomes Ready",
            "CrashLoopBackOff：container「{name}」一直被 startupProbe 砍掉，從來沒有 Ready"
        ),
        root_cause: text!(
            "the startupProbe ({settings}) kills {window}, but the model takes {load} to load: the kubelet killed the container {killed_after} after it started, still loading",
            "startupProbe（{settings_zh}）會在{window_zh}砍掉 container，但模型載入要 {load_zh}：kubelet 這次在啟動後 {killed_after_zh} 就把還在載入的它砍掉"
        ),
        evidence: evidence.lines,
        next_command: format!("kubectl logs {} --previous", target(pod, container)),
        why_that_command: text!(
            "describe's Events show the kill (Killing: failed startup probe); the previous run's log shows the load was still in progress when it was killed",
            "describe 的 Events 已經看到 startup 探針失敗後被砍掉；上一輪的日誌可以確認被砍的時候模型還在載入"
        ),
        fix: text!(
            "raise the startupProbe's failureThreshold to {threshold} (× periodSeconds {period} covers the {load} load with margin) (PL202 startup-budget-too-short)",
            "把 startupProbe 的 failureThreshold 提高到 {threshold}（× periodSeconds {period} 足以涵蓋 {load_zh}的載入並留有餘裕）（PL202 startup-budget-too-short）"
        ),
    }
}

/// What a probe's failure message says about the check.
enum ProbeProblem {
    WrongPath,
    WrongPort,
    Timeout,
    Other,
}

fn probe_problem(message: &str) -> ProbeProblem {
    if message.contains("statuscode: 404") {
        ProbeProblem::WrongPath
    } else if message.contains("connection refused") || message.contains("errored") {
        ProbeProblem::WrongPort
    } else if message.contains("deadline exceeded") {
        ProbeProblem::Timeout
    } else {
        ProbeProblem::Other
    }
}

/// Cause and fix for a probe that fails against a serving program.
fn probe_cause(
    container: &ContainerRun,
    probe: Option<&Probe>,
    field: &str,
    message: &str,
) -> (Text, Text) {
    let program = &container.program;
    let serves = &program.health_path.value;
    let listens = program.listen_port.value;
    let latency = secs(program.health_latency.value);
    let latency_zh = secs_zh(program.health_latency.value);
    let (asked_path, asked_port) = match probe.map(|p| &p.handler) {
        Some(Handler::HttpGet { path, port, .. }) => (
            path.clone(),
            match port {
                Some(PortRef::Number(n)) => n.to_string(),
                Some(PortRef::Name(name)) => name.clone(),
                None => String::new(),
            },
        ),
        Some(Handler::TcpSocket {
            port: Some(PortRef::Number(n)),
            ..
        }) => (String::new(), n.to_string()),
        Some(Handler::TcpSocket {
            port: Some(PortRef::Name(name)),
            ..
        }) => (String::new(), name.clone()),
        _ => (String::new(), String::new()),
    };
    let timeout = probe.map_or(1, |p| p.timeout_seconds.value);
    match probe_problem(message) {
        ProbeProblem::WrongPath => (
            text!(
                "the {field} asks {asked_path}, which the server answers with 404; its health endpoint is {serves}",
                "{field} 檢查的是 {asked_path}，伺服器回 404；它的健康檢查端點是 {serves}"
            ),
            text!(
                "set the {field}'s httpGet.path to {serves}",
                "把 {field} 的 httpGet.path 改成 {serves}"
            ),
        ),
        ProbeProblem::WrongPort => (
            text!(
                "the {field} knocks on port {asked_port}, but the server listens on {listens}: connection refused even after the model has loaded",
                "{field} 打的是 port {asked_port}，但伺服器監聽的是 {listens}：模型載入完之後仍然 connection refused"
            ),
            text!(
                "set the {field}'s port to {listens} (or the name of a declared containerPort) (PL204 probe-port-unknown)",
                "把 {field} 的 port 改成 {listens}（或是有宣告的 containerPort 名稱）（PL204 probe-port-unknown）"
            ),
        ),
        ProbeProblem::Timeout => (
            text!(
                "the health endpoint takes {latency} to answer, longer than the {field}'s timeoutSeconds {timeout}: every check ends in context deadline exceeded",
                "健康檢查端點要 {latency_zh}才回應，超過 {field} 的 timeoutSeconds {timeout}：每次檢查都 context deadline exceeded（逾時）"
            ),
            text!(
                "raise the {field}'s timeoutSeconds above the endpoint's {latency} (PL205 probe-timeout-too-short)",
                "把 {field} 的 timeoutSeconds 調到比端點的 {latency_zh}更長（PL205 probe-timeout-too-short）"
            ),
        ),
        ProbeProblem::Other => (
            text!(
                "the {field} keeps failing after the model has loaded: {message}",
                "模型載入完之後 {field} 仍然一直失敗：{message}"
            ),
            text!(
                "make the {field} check what the server actually serves",
                "讓 {field} 檢查伺服器實際提供的端點"
            ),
        ),
    }
}

/// `kubectl exec` that asks the server from inside what the probe gets.
fn exec_command(pod: &PodRun, container: &ContainerRun, probe: Option<&Probe>) -> String {
    let port = container.program.listen_port.value;
    let (path, asked_port) = match probe.map(|p| &p.handler) {
        Some(Handler::HttpGet {
            path,
            port: Some(PortRef::Number(n)),
            ..
        }) => (path.clone(), *n),
        Some(Handler::HttpGet { path, .. }) => (path.clone(), port),
        _ => (container.program.health_path.value.clone(), port),
    };
    let c = if pod.containers.len() > 1 {
        format!(" -c {}", container.name)
    } else {
        String::new()
    };
    format!(
        "kubectl exec {}{c} -- curl -sS -i http://localhost:{asked_port}{path}",
        pod.name
    )
}

pub(super) fn probe_kills_serving(
    run: &Run,
    pod: &PodRun,
    container: &ContainerRun,
    instance: &Instance,
    liveness: bool,
    at: Millis,
) -> Diagnosis {
    let name = &container.name;
    let (title, field) = if liveness {
        ("Liveness", "livenessProbe")
    } else {
        ("Startup", "startupProbe")
    };
    let exit_at = instance.exit.as_ref().map_or(at, |e| e.at);
    let unhealthy = last_unhealthy(run, pod, container, title, instance.started, exit_at);
    let message = unhealthy.map(|e| e.message.clone()).unwrap_or_default();
    let probe = spec(pod, container).and_then(|c| {
        if liveness {
            c.liveness.as_ref()
        } else {
            c.startup.as_ref()
        }
    });
    let (root_cause, fix) = probe_cause(container, probe, field, &message);
    let described = describe::describe_pod(run, pod, at);
    let mut evidence = Evidence::new();
    evidence.find(&described, "Restart Count:", None);
    evidence.find(
        &described,
        &format!("failed {} probe", title.to_ascii_lowercase()),
        None,
    );
    evidence.find(
        &described,
        &format!("{title} probe"),
        unhealthy.map(|e| &*e.message),
    );
    if let Ok(previous) = logs::logs(run, pod, name, at, true) {
        evidence.find(&previous, "Uvicorn running on", None);
    }
    Diagnosis {
        assumed: Vec::new(),
        pod: pod.name.clone(),
        kind: Kind::ProbeKillsServingProgram,
        symptom: text!(
            "container \"{name}\" keeps restarting: the {field} kills it although the model has loaded",
            "container「{name}」一直重啟：模型已經載入完，{field} 還是把它砍掉"
        ),
        root_cause,
        evidence: evidence.lines,
        next_command: exec_command(pod, container, probe),
        why_that_command: text!(
            "describe shows the probe failures and the kill, and the previous run's log shows the server was up; ask the server from inside the container exactly what the probe asks",
            "describe 已經看到探針失敗與被砍，上一輪的日誌也顯示伺服器有起來；進到 container 裡，用跟探針一樣的方式問伺服器"
        ),
        fix,
    }
}

pub(super) fn not_ready_while_serving(
    run: &Run,
    pod: &PodRun,
    container: &ContainerRun,
    at: Millis,
) -> Option<Diagnosis> {
    let instance = container.instances.iter().rev().find(|i| i.started <= at)?;
    let loaded = instance.started + container.program.startup.value;
    let name = &container.name;
    // Which probe holds it back: the startup probe (not Started) or readiness.
    let (title, field, probe) = if instance.started_ok.is_none_or(|ok| ok > at) {
        (
            "Startup",
            "startupProbe",
            spec(pod, container).and_then(|c| c.startup.as_ref()),
        )
    } else {
        (
            "Readiness",
            "readinessProbe",
            spec(pod, container).and_then(|c| c.readiness.as_ref()),
        )
    };
    let unhealthy = last_unhealthy(run, pod, container, title, loaded, at)?;
    let (root_cause, fix) = probe_cause(container, probe, field, &unhealthy.message);
    let described = describe::describe_pod(run, pod, at);
    let mut evidence = Evidence::new();
    evidence.find(&described, "Ready:", None);
    evidence.find(
        &described,
        &format!("{title} probe"),
        Some(&*unhealthy.message),
    );
    if let Ok(current) = logs::logs(run, pod, name, at, false) {
        evidence.find(&current, "Uvicorn running on", None);
    }
    Some(Diagnosis {
        assumed: Vec::new(),
        pod: pod.name.clone(),
        kind: Kind::ReadinessNeverSucceeds,
        symptom: text!(
            "Running but 0 Ready: container \"{name}\" never passes its {field}, so the Service sends it no traffic",
            "Running 但沒有 Ready：container「{name}」的 {field} 從來沒有成功，Service 不會把流量送給它"
        ),
        root_cause,
        evidence: evidence.lines,
        next_command: exec_command(pod, container, probe),
        why_that_command: text!(
            "describe shows the probe failing and the log shows the server running, so nothing restarted and logs --previous has nothing to add; ask the server from inside the container what the probe asks",
            "describe 看到探針一直失敗，日誌顯示伺服器已經在跑，沒有重啟過，logs --previous 也看不到更多；直接進 container 用跟探針一樣的方式問伺服器"
        ),
        fix,
    })
}
