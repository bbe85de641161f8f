//! The kubectl command line over a simulated run: one line in, what kubectl
//! v1.35 would print at time T out (stdout, stderr, exit status), for the
//! CLI's `podlab kubectl` and the page's terminal (docs/kubectl.md).
//!
//! `parse.rs` reads the line as a shell and kubectl would and refuses what
//! kubectl refuses, in its words; this file sends each command to the
//! renderer that already prints it (`explain::*`, `exercise::exec`,
//! `exercise::interview`'s node views), finds the object as the API server
//! would (exact names; `describe`'s prefix matching), and prints kubectl's
//! own not-found and empty-list lines. `top.rs` is `kubectl top`.
//!
//! Pure and deterministic: the output depends only on the file's text
//! (through `ExecContext`), the run, the line and `at`.

mod act;
pub mod columns;
pub mod config;
pub mod jsonpath;
mod metadata;
pub mod parse;
pub mod selector;
pub mod session;
pub mod sort_by;
mod top;
pub mod watch;

use crate::exercise::exec::ExecContext;
use crate::exercise::interview;
use crate::explain::printers::{self, Value};
use crate::explain::{
    deployment, describe, events, get_pods, hpa, job, logs, pod_object, service, sets,
};
use crate::i18n::Text;
use crate::manifest::duration::Millis;
use crate::manifest::model::WorkloadKind;
use crate::sim::PodRun;
use crate::text;

use parse::{Command, Format, Kind, Parsed, Refusal};

/// What a command line printed and how it ended.
#[derive(Clone, PartialEq, Eq)]
pub struct Output {
    pub stdout: String,
    pub stderr: String,
    /// kubectl's exit status (an exec'd command's own status passes through).
    pub exit_code: u8,
    /// podlab's words about the output, not kubectl's (what is not
    /// emulated, where a number comes from), for the reader.
    pub notes: Vec<Text>,
    /// What the command did to the cluster, to record in the Scenario at
    /// the command's time (`controls::record`; `act.rs`): empty for the
    /// commands that only read.
    pub acts: Vec<crate::manifest::scenario::Act>,
}

impl Output {
    fn out(stdout: String) -> Output {
        Output {
            stdout,
            stderr: String::new(),
            exit_code: 0,
            notes: Vec::new(),
            acts: Vec::new(),
        }
    }

    fn error(stderr: String) -> Output {
        Output {
            stdout: String::new(),
            stderr,
            exit_code: 1,
            notes: Vec::new(),
            acts: Vec::new(),
        }
    }

    fn note(note: Text, exit_code: u8) -> Output {
        Output {
            stdout: String::new(),
            stderr: String::new(),
            exit_code,
            notes: vec![note],
            acts: Vec::new(),
        }
    }

    /// kubectl's answer to an empty list: nothing on stdout, exit 0.
    fn none_found(namespace: &str) -> Output {
        let mut output = Output::out(String::new());
        output.stderr = format!("No resources found in {namespace} namespace.\n");
        output
    }
}

/// `Error from server (NotFound): <plural> "<name>" not found`.
fn not_found(kind: Kind, name: &str) -> Output {
    Output::error(format!(
        "Error from server (NotFound): {} \"{name}\" not found\n",
        kind.plural()
    ))
}

/// Runs one command line at `at` against the run of `context`.
pub fn run(context: &ExecContext, line: &str, at: Millis) -> Output {
    respond(context, parse::parse(line), at)
}

/// [`run`] for a line a shell has already split (`podlab kubectl -- …`).
pub fn run_words(context: &ExecContext, words: Vec<String>, at: Millis) -> Output {
    respond(context, parse::parse_words(words), at)
}

fn respond(context: &ExecContext, parsed: Result<Parsed, Refusal>, at: Millis) -> Output {
    match parsed {
        Ok(parsed) => execute(context, &parsed, at),
        Err(Refusal::Kubectl(stderr)) => Output::error(stderr),
        // kubectl's status for a command it cannot run.
        Err(Refusal::NotEmulated(note)) => Output::note(note, 1),
        Err(Refusal::Shell(note)) => Output::note(note, 2),
    }
}

/// What a completer offers at `at`: the command words, the resource types,
/// and the names that exist then.
pub struct Completions {
    pub commands: &'static [&'static str],
    pub resources: &'static [&'static str],
    pub pods: Vec<String>,
    pub nodes: Vec<String>,
    pub deployments: Vec<String>,
}

pub fn completions(context: &ExecContext, at: Millis) -> Completions {
    Completions {
        commands: parse::COMMAND_WORDS,
        resources: parse::RESOURCE_WORDS,
        pods: pods_at(context, at).map(|pod| pod.name.clone()).collect(),
        nodes: node_names(context),
        deployments: context
            .run
            .deployments
            .iter()
            .map(|d| d.name.clone())
            .collect(),
    }
}

fn pods_at<'a>(context: &'a ExecContext, at: Millis) -> impl Iterator<Item = &'a PodRun> {
    context.run.pods.iter().filter(move |pod| pod.exists_at(at))
}

/// The nodes of the Scenario's pools (`<pool>-<index>`), by name.
fn node_names(context: &ExecContext) -> Vec<String> {
    let mut names: Vec<String> = crate::explain::node::nodes(&context.reading.scenario)
        .iter()
        .map(crate::explain::node::NodeRef::name)
        .collect();
    crate::sort::sort(&mut names);
    names
}

fn execute(context: &ExecContext, parsed: &Parsed, at: Millis) -> Output {
    let namespace = parsed.namespace.as_str();
    // podlab's objects all live in `default`; another namespace is empty
    // (nodes have none).
    let elsewhere = namespace != "default";
    let run = context.run;
    match &parsed.command {
        Command::Delete {
            pods,
            grace_period,
            force,
        } => act::delete(context, namespace, pods, *grace_period, *force, at),
        Command::Scale {
            kind,
            names,
            replicas,
        } => act::scale(context, namespace, *kind, names, *replicas),
        Command::RolloutRestart { names } => act::restart(context, namespace, names, at),
        Command::Cordon { nodes, cordon } => act::cordon(context, nodes, *cordon, at),
        Command::Patch { names, change } => act::patch(context, namespace, names, change, at),
        Command::Metadata(command) => metadata::metadata(context, namespace, command, at),
        Command::RolloutHistory { names } => act::history(context, namespace, names, at),
        Command::RolloutUndo { names, to_revision } => {
            act::undo(context, namespace, names, *to_revision, at)
        }
        Command::Drain {
            node,
            ignore_daemonsets,
            force,
            delete_emptydir_data,
        } => act::drain(
            context,
            node,
            (*ignore_daemonsets, *force, *delete_emptydir_data),
            at,
        ),
        Command::Get {
            kind: Kind::Node,
            name,
            format,
            show_labels,
            ..
        } => match name {
            Some(name) if !node_names(context).contains(name) => not_found(Kind::Node, name),
            _ => Output::out(interview::get_nodes(
                context,
                at,
                *format == Format::Wide,
                *show_labels,
                name.as_deref(),
            )),
        },
        Command::Describe {
            kind: Kind::Node,
            name,
        } => {
            let names = node_names(context);
            let nodes: Vec<(&str, &String)> = names.iter().map(|n| (n.as_str(), n)).collect();
            describe_matching(&nodes, name.as_deref(), Kind::Node, namespace, |node| {
                interview::describe_node(context, node, at)
            })
        }
        Command::Top {
            kind: Kind::Node,
            name,
        } => top::nodes(context, name.as_deref(), at),
        Command::Get {
            name: Some(name),
            kind,
            all_namespaces: false,
            ..
        } if elsewhere => not_found(*kind, name),
        Command::Get {
            all_namespaces: false,
            ..
        } if elsewhere => Output::none_found(namespace),
        Command::Describe {
            name: Some(name),
            kind,
        } if elsewhere => not_found(*kind, name),
        Command::Describe { .. } if elsewhere => Output::none_found(namespace),
        Command::Logs { pod, .. } | Command::Exec { pod, .. } if elsewhere => {
            logs_not_found(pod, namespace)
        }
        Command::Top { .. } if elsewhere => Output::none_found(namespace),
        Command::RolloutStatus { name } if elsewhere => not_found(Kind::Deployment, name),
        Command::Get {
            kind: Kind::Pod,
            name,
            format,
            watch: true,
            ..
        } => watch::get_pods(context, name.as_deref(), *format == Format::Wide, at),
        Command::Get {
            kind,
            more,
            format,
            all,
            ..
        } if !more.is_empty() => get_several(
            context,
            std::iter::once(*kind).chain(more.iter().copied()),
            *format == Format::Wide,
            *all,
            at,
        ),
        Command::Get {
            kind: Kind::Service,
            name,
            format,
            ..
        } => get_services(run, name.as_deref(), *format == Format::Wide, at),
        Command::Get {
            kind: kind @ (Kind::ConfigMap | Kind::Secret),
            name,
            ..
        } => config::get(context, *kind, name.as_deref(), at),
        Command::Get {
            kind: Kind::Pod,
            name,
            format,
            show_labels,
            selector,
            all_namespaces,
            no_headers,
            template,
            sort_by,
            ..
        } => get_pods(
            context,
            &PodsQuery {
                name: name.as_deref(),
                format: *format,
                template: template.as_deref().unwrap_or(""),
                selector: selector.as_deref(),
                all_namespaces: *all_namespaces,
                no_headers: *no_headers,
                show_labels: *show_labels,
                sort_by: sort_by.as_deref(),
                with_kind: false,
            },
            at,
        ),
        Command::Get {
            kind: Kind::Event,
            sort_by,
            object_name,
            ..
        } => listed(events::get_events(
            run,
            at,
            object_name.as_deref(),
            sort_by.is_some(),
        )),
        Command::Get {
            kind: Kind::Deployment,
            format,
            ..
        } => listed(get_pods::listed_table(&deployment::deployment_rows(
            run,
            at,
            *format == Format::Wide,
        ))),
        Command::Get {
            kind: Kind::ReplicaSet,
            format,
            ..
        } => listed(get_pods::listed_table(&deployment::replica_set_rows(
            run,
            at,
            *format == Format::Wide,
        ))),
        Command::Get {
            kind: Kind::Hpa, ..
        } => listed(hpa::get_hpa(run, at)),
        Command::Get {
            kind: Kind::EndpointSlice,
            ..
        } => listed(service::get_endpointslices(run, &run.services, at)),
        Command::Get {
            kind: kind @ (Kind::StatefulSet | Kind::DaemonSet),
            name,
            format,
            ..
        } => {
            let wide = *format == Format::Wide;
            let reading = &context.reading;
            let rows = if *kind == Kind::StatefulSet {
                sets::stateful_set_rows(run, reading, at, name.as_deref(), wide)
            } else {
                sets::daemon_set_rows(run, reading, at, name.as_deref(), wide)
            };
            match name {
                Some(name) if rows.len() <= 1 => not_found(*kind, name),
                _ => listed(get_pods::listed_table(&rows)),
            }
        }
        Command::Get {
            kind: kind @ (Kind::Job | Kind::CronJob),
            name,
            format,
            ..
        } => {
            let wide = *format == Format::Wide;
            let table = if *kind == Kind::Job {
                job::get_jobs(run, &context.reading, at, name.as_deref(), wide)
            } else {
                job::get_cron_jobs(run, &context.reading, at, name.as_deref(), wide)
            };
            match name {
                Some(name) if table.is_empty() => not_found(*kind, name),
                _ => listed(table),
            }
        }
        Command::Get { kind, .. } => Output::note(
            parse::not_emulated_text(&format!("get {}", kind.plural())),
            1,
        ),
        Command::Describe {
            kind: Kind::Pod,
            name,
        } => {
            let pods: Vec<(&str, &PodRun)> =
                pods_at(context, at).map(|p| (p.name.as_str(), p)).collect();
            describe_matching(&pods, name.as_deref(), Kind::Pod, namespace, |pod| {
                describe::describe_pod(run, pod, at)
            })
        }
        Command::Describe {
            kind: Kind::Deployment,
            name,
        } => {
            let items: Vec<_> = run
                .deployments
                .iter()
                .map(|d| (d.name.as_str(), d))
                .collect();
            describe_matching(&items, name.as_deref(), Kind::Deployment, namespace, |d| {
                deployment::describe_deployment(run, d, at)
            })
        }
        Command::Describe {
            kind: Kind::Hpa,
            name,
        } => {
            let items: Vec<_> = run
                .autoscalers
                .iter()
                .map(|h| (h.name.as_str(), h))
                .collect();
            describe_matching(&items, name.as_deref(), Kind::Hpa, namespace, |h| {
                hpa::describe_hpa(run, h, at)
            })
        }
        Command::Describe {
            kind: Kind::Service,
            name,
        } => {
            let items: Vec<_> = run.services.iter().map(|s| (s.name.as_str(), s)).collect();
            describe_matching(&items, name.as_deref(), Kind::Service, namespace, |s| {
                service::describe_service(run, s, at)
            })
        }
        Command::Describe {
            kind: Kind::ReplicaSet,
            name,
        } => {
            let sets = deployment::replica_sets_at(run, at);
            let items: Vec<_> = sets.iter().map(|(_, rs)| (rs.name.as_str(), *rs)).collect();
            describe_matching(&items, name.as_deref(), Kind::ReplicaSet, namespace, |rs| {
                sets.iter()
                    .find(|(_, set)| set.name == rs.name)
                    .map(|(d, _)| deployment::describe_replica_set(run, d, rs, at))
                    .unwrap_or_default()
            })
        }
        Command::Describe {
            kind: Kind::Job,
            name,
        } => {
            let items: Vec<_> = job::jobs_at(run, at)
                .into_iter()
                .map(|j| (j.name.as_str(), j))
                .collect();
            describe_matching(&items, name.as_deref(), Kind::Job, namespace, |j| {
                job::describe_job(run, &context.reading, j, at)
            })
        }
        Command::Describe {
            kind: Kind::CronJob,
            name,
        } => {
            let items: Vec<_> = job::cron_jobs(&context.reading)
                .into_iter()
                .map(|c| (c.name.as_str(), c))
                .collect();
            describe_matching(&items, name.as_deref(), Kind::CronJob, namespace, |c| {
                job::describe_cron_job(run, c, at)
            })
        }
        Command::Describe {
            kind: kind @ (Kind::ConfigMap | Kind::Secret),
            name,
        } => config::describe(context, *kind, name.as_deref(), namespace),
        Command::Describe { kind, .. } => Output::note(
            parse::not_emulated_text(&format!("describe {}", kind.plural())),
            1,
        ),
        Command::Logs {
            pod,
            container,
            previous,
            tail,
            follow,
        } => {
            let Some(pod) = pods_at(context, at).find(|p| p.name == *pod) else {
                return logs_not_found(pod, namespace);
            };
            let (container, defaulted) = pick_container(pod, container.as_deref());
            let mut output = match logs::logs(run, pod, &container, at, *previous) {
                Ok(text) => Output::out(tail_lines(&text, *tail)),
                Err(error) => Output::error(format!("{error}\n")),
            };
            output.stderr.insert_str(0, &defaulted);
            // `logs -f` streams what the container writes next, until it
            // stops or Ctrl+C; the terminal stands at T.
            if *follow && !*previous && output.exit_code == 0 {
                output.notes.push(text!(
                    "kubectl -f would go on printing what the container writes after this time, until it stops or you press Ctrl+C; move the time on to see the next lines",
                    "kubectl -f 會繼續印出容器在這個時間之後寫出的內容，直到容器停止或按下 Ctrl+C；把時間往後移就能看到後面的輸出"
                ));
            }
            output
        }
        Command::Exec {
            pod,
            container,
            command,
            ..
        } => {
            let Some(pod) = pods_at(context, at).find(|p| p.name == *pod) else {
                return not_found(Kind::Pod, pod);
            };
            if command.len() == 1
                && ["sh", "bash", "ash", "/bin/sh", "/bin/bash"].contains(&command[0].as_str())
            {
                let name = &pod.name;
                return Output::note(
                    text!(
                        "an interactive shell is not emulated here: run one command at a time, e.g. `kubectl exec {name} -- env`",
                        "這裡沒有模擬互動式 shell：請一次執行一個指令，例如 `kubectl exec {name} -- env`"
                    ),
                    1,
                );
            }
            let (container, defaulted) = pick_container(pod, container.as_deref());
            let exec = context.exec_in_terminal(pod, &container, command, at);
            Output {
                stdout: exec.stdout.clone(),
                stderr: format!("{defaulted}{}", exec.kubectl_stderr()),
                exit_code: u8::try_from(exec.exit_code).unwrap_or(1),
                notes: exec.notes,
                acts: Vec::new(),
            }
        }
        Command::Top { name, .. } => top::pods(context, name.as_deref(), at),
        Command::Apply => Output::out(interview::apply(context)),
        Command::RolloutStatus { name } => match deployment::rollout_status(run, name, at) {
            None => not_found(Kind::Deployment, name),
            Some((line, true)) if line.starts_with("error:") => Output::error(format!("{line}\n")),
            Some((line, true)) => Output::out(format!("{line}\n")),
            Some((line, false)) => {
                let mut output = Output::out(format!("{line}\n"));
                output.notes.push(text!(
                    "kubectl keeps watching until the rollout ends; move the time on to see the next lines",
                    "kubectl 會持續等到 rollout 結束；把時間往後移就能看到後面的輸出"
                ));
                output
            }
        },
    }
}

/// `kubectl get TYPE,TYPE… [-o wide]` and `kubectl get all`: each kind's
/// table printed by its own renderer, the names as `KIND/NAME`
/// (`get_pods::with_kind`), each table flushed apart and separated from
/// the one before by a blank line, a kind without objects left out (get.go
/// `(*GetOptions).Run`: a new printer per mapping, `separatorWriter`, and
/// `printTable`, which prints no header for an empty list); nothing at all
/// is kubectl's `No resources found in default namespace.`.
///
/// `get all` (`all`) also lists the ReplicaSets written in the text in
/// kubectl; podlab does not print them (`get rs` lists a Deployment's) and
/// says so in a note.
fn get_several(
    context: &ExecContext,
    kinds: impl Iterator<Item = Kind>,
    wide: bool,
    all: bool,
    at: Millis,
) -> Output {
    let run = context.run;
    let reading = &context.reading;
    let mut tables = Vec::new();
    for kind in kinds {
        let rows = match kind {
            Kind::Pod => {
                let query = PodsQuery {
                    name: None,
                    format: if wide { Format::Wide } else { Format::Table },
                    template: "",
                    selector: None,
                    all_namespaces: false,
                    no_headers: false,
                    show_labels: false,
                    sort_by: None,
                    with_kind: true,
                };
                let output = get_pods(context, &query, at);
                if output.exit_code == 0 && !output.stdout.is_empty() {
                    tables.push(output.stdout);
                }
                continue;
            }
            Kind::Service => get_pods::with_kind(service_rows(run, None, wide, at), "service"),
            Kind::Deployment => get_pods::with_kind(
                deployment::deployment_rows(run, at, wide),
                "deployment.apps",
            ),
            Kind::ReplicaSet => get_pods::with_kind(
                deployment::replica_set_rows(run, at, wide),
                "replicaset.apps",
            ),
            Kind::Hpa => get_pods::with_kind(
                hpa::hpa_rows(run, at),
                "horizontalpodautoscaler.autoscaling",
            ),
            Kind::StatefulSet => get_pods::with_kind(
                sets::stateful_set_rows(run, reading, at, None, wide),
                "statefulset.apps",
            ),
            Kind::DaemonSet => get_pods::with_kind(
                sets::daemon_set_rows(run, reading, at, None, wide),
                "daemonset.apps",
            ),
            Kind::CronJob => get_pods::with_kind(
                job::cron_job_rows(run, reading, at, None, wide),
                "cronjob.batch",
            ),
            Kind::Job => {
                get_pods::with_kind(job::job_rows(run, reading, at, None, wide), "job.batch")
            }
            _ => continue,
        };
        let table = get_pods::listed_table(&rows);
        if !table.is_empty() {
            tables.push(table);
        }
    }
    let mut output = if tables.is_empty() {
        Output::none_found("default")
    } else {
        Output::out(tables.join("\n"))
    };
    if all {
        let mut left_out: Vec<String> = reading
            .workloads
            .iter()
            .filter(|workload| workload.kind == WorkloadKind::ReplicaSet)
            .map(|workload| format!("replicaset.apps/{}", workload.name))
            .collect();
        crate::sort::sort(&mut left_out);
        if !left_out.is_empty() {
            let names = left_out.join(", ");
            output.notes.push(text!(
                "kubectl would also list {names}: podlab does not list the ReplicaSets written in the text, only a Deployment's",
                "kubectl 還會列出 {names}：podlab 不會列出文字中寫的 ReplicaSet，只列出 Deployment 的"
            ));
        }
    }
    output
}

/// `kubectl get services [NAME] [-o wide]`: the Services of the text, by
/// name (the API server's order), each row `service::service_row`.
fn get_services(run: &crate::sim::Run, name: Option<&str>, wide: bool, at: Millis) -> Output {
    let rows = service_rows(run, name, wide, at);
    if rows.len() <= 1 {
        return match name {
            Some(name) => not_found(Kind::Service, name),
            None => Output::none_found("default"),
        };
    }
    Output::out(get_pods::table(&rows))
}

/// [`get_services`]' header and rows, by name.
fn service_rows(
    run: &crate::sim::Run,
    name: Option<&str>,
    wide: bool,
    at: Millis,
) -> Vec<Vec<String>> {
    let mut services: Vec<_> = run
        .services
        .iter()
        .filter(|service| name.is_none_or(|name| service.name == name))
        .collect();
    services.sort_by(|a, b| a.name.cmp(&b.name));
    let mut header = vec![
        "NAME",
        "TYPE",
        "CLUSTER-IP",
        "EXTERNAL-IP",
        "PORT(S)",
        "AGE",
    ];
    if wide {
        header.push("SELECTOR");
    }
    let mut rows = vec![header.into_iter().map(String::from).collect::<Vec<_>>()];
    for service in services {
        rows.push(service::service_row(run, service, at, wide));
    }
    rows
}

/// A list command's table, or kubectl's empty-list line.
fn listed(table: String) -> Output {
    if table.is_empty() {
        Output::none_found("default")
    } else {
        Output::out(table)
    }
}

/// `kubectl logs`' not-found line (the pod is fetched by the logs
/// command's own client, which words it so; printed by kubectl v1.35.2).
fn logs_not_found(pod: &str, namespace: &str) -> Output {
    Output::error(format!(
        "error: error from server (NotFound): pods \"{pod}\" not found in namespace \"{namespace}\"\n"
    ))
}

/// The container a command addresses: the one named, else the first, with
/// the line kubectl writes on stderr when it picks the first of several
/// (`podcmd.FindOrDefaultContainerByName`: `Defaulted container "a" out
/// of: a, b, init (init)`).
fn pick_container(pod: &PodRun, named: Option<&str>) -> (String, String) {
    if let Some(name) = named {
        return (name.to_string(), String::new());
    }
    let first = pod.spec.containers.first().map_or("", |c| c.name.as_str());
    if pod.spec.containers.len() > 1 || !pod.spec.init_containers.is_empty() {
        let all: Vec<String> = pod
            .spec
            .containers
            .iter()
            .map(|c| c.name.clone())
            .chain(
                pod.spec
                    .init_containers
                    .iter()
                    .map(|c| format!("{} (init)", c.name)),
            )
            .collect();
        return (
            first.to_string(),
            format!(
                "Defaulted container \"{first}\" out of: {}\n",
                all.join(", ")
            ),
        );
    }
    (first.to_string(), String::new())
}

/// `--tail N`: the last N lines (all of them for a negative N, kubectl's
/// default -1).
fn tail_lines(text: &str, tail: Option<i64>) -> String {
    let Some(keep) = tail.and_then(|n| usize::try_from(n).ok()) else {
        return text.to_string();
    };
    let lines: Vec<&str> = text.lines().collect();
    let from = lines.len().saturating_sub(keep);
    lines
        .get(from..)
        .unwrap_or(&[])
        .iter()
        .map(|line| format!("{line}\n"))
        .collect()
}

/// What `kubectl get pods` was asked for.
#[derive(Clone, Copy)]
struct PodsQuery<'a> {
    name: Option<&'a str>,
    format: Format,
    /// The `jsonpath=` template or the `custom-columns=` spec.
    template: &'a str,
    selector: Option<&'a str>,
    all_namespaces: bool,
    no_headers: bool,
    show_labels: bool,
    /// `--sort-by` (`sort_by.rs`).
    sort_by: Option<&'a str>,
    /// Names as `pod/NAME` (several types asked for at once).
    with_kind: bool,
}

/// `kubectl get pods [NAME]` in every format podlab prints: the pods that
/// exist at `at` (one by its exact name: `get` does no prefix matching), in
/// the API server's order (by name: its storage's key order), those the
/// label selector matches (the server parses and applies `labelSelector`,
/// `selector.rs`).
///
/// The table (`-o wide`: IP, NODE, NOMINATED NODE and READINESS GATES,
/// kubectl-output.md §1.1, `<none>` when unset: podlab has no nomination
/// or readiness gates) is the server's; kubectl adds NAMESPACE first for
/// `-A` and LABELS last for `--show-labels` (`labels.FormatLabels`: sorted
/// `k=v`, `<none>`), and drops the header for `--no-headers` (cli-runtime
/// `printers.HumanReadablePrinter`, `decorateTable`). Every other format
/// prints the objects (`GetOptions.printGeneric`): `-o yaml|json` the Pod
/// object (`explain::pod_object`) or kubectl's `v1` `List` of them, `-o
/// name` `pod/NAME`, `-o jsonpath=` and `-o custom-columns=` over the same
/// objects; an empty list is printed too, without `No resources found`.
fn get_pods(context: &ExecContext, query: &PodsQuery, at: Millis) -> Output {
    let mut pods: Vec<&PodRun> = pods_at(context, at)
        .filter(|pod| query.name.is_none_or(|name| pod.name == name))
        .collect();
    pods.sort_by(|a, b| a.name.cmp(&b.name));
    let mut refused = None;
    if let Some(text) = query.selector {
        match selector::parse(text) {
            Ok(selector) => pods.retain(|pod| selector.matches(&describe::pod_labels(pod, at))),
            Err(message) => {
                refused = Some(selector::bad_request("/v1, Resource=pods", text, &message));
                pods.clear();
            }
        }
    }
    let table = matches!(query.format, Format::Table | Format::Wide);
    if table {
        if let Some(error) = refused {
            return Output::error(error);
        }
    }
    let object = |pod: &PodRun| {
        pod_object::pod(
            context.run,
            pod,
            at,
            &context.source,
            pod_object::Clock::EPOCH,
        )
    };
    if let Some(field) = query.sort_by.filter(|_| query.name.is_none()) {
        let mut objects: Vec<(&PodRun, Value)> =
            pods.iter().map(|pod| (*pod, object(pod))).collect();
        let sorted = sort_by::sort(&mut objects, field, table);
        pods = objects.into_iter().map(|(pod, _)| pod).collect();
        match sorted {
            Ok(()) => {}
            // kubectl v1.35.2 loses the table sorter's error: it prints
            // nothing and then its empty-list line, exit 0 (checked with the
            // binary: a field no pod has, a field that does not parse).
            Err(sort_by::SortError::Kubectl(_)) if table => {
                return pod_table(&[], &PodsQuery { name: None, ..*query }, at)
            }
            Err(sort_by::SortError::Kubectl(error)) => {
                return Output::error(format!("error: {error}\n"))
            }
            Err(sort_by::SortError::Unsortable(error)) => {
                return Output::note(
                    text!(
                        "kubectl cannot sort by {field} ({error}): it exits with status 255 and a klog line; podlab prints nothing",
                        "kubectl 無法依 {field} 排序（{error}）：它會印出一行 klog 訊息並以狀態 255 結束；podlab 不輸出任何內容"
                    ),
                    1,
                )
            }
        }
    }
    if table {
        return pod_table(&pods, query, at);
    }
    let value: Value = match query.name {
        Some(name) => match pods.first() {
            Some(pod) => object(pod),
            None => return not_found(Kind::Pod, name),
        },
        None => pod_object::list(pods.iter().map(|pod| object(pod)).collect()),
    };
    let mut output = match query.format {
        Format::Json => Output::out(printers::json(&value)),
        Format::Name => Output::out(
            pods.iter()
                .map(|pod| format!("pod/{}\n", pod.name))
                .collect(),
        ),
        Format::JsonPath => {
            match jsonpath::parse(query.template).and_then(|template| template.execute(&value)) {
                Ok(text) => Output::out(text),
                Err(error) => Output::error(format!(
                    "error: {}",
                    jsonpath::execution_error(query.template, &error, &value)
                )),
            }
        }
        Format::CustomColumns => {
            let columns = columns::parse_spec(query.template).unwrap_or_default();
            let (text, error) = columns::print(&columns, &value, query.no_headers);
            let mut output = Output::out(text);
            if let Some(error) = error {
                output.stderr = format!("error: {error}\n");
                output.exit_code = 1;
            }
            output
        }
        _ => Output::out(printers::yaml(&value)),
    };
    // The list was printed; then kubectl reports the server's refusal.
    if let Some(error) = refused {
        output.stderr.push_str(&error);
        output.exit_code = 1;
    }
    output
}

/// The pods' table (see [`get_pods`]), or kubectl's lines for none.
fn pod_table(pods: &[&PodRun], query: &PodsQuery, at: Millis) -> Output {
    if pods.is_empty() {
        return match query.name {
            Some(name) => not_found(Kind::Pod, name),
            None if query.all_namespaces => {
                let mut output = Output::out(String::new());
                output.stderr = "No resources found\n".into();
                output
            }
            None => Output::none_found("default"),
        };
    }
    let wide = query.format == Format::Wide;
    let mut header = vec!["NAME", "READY", "STATUS", "RESTARTS", "AGE"];
    if wide {
        header.extend(["IP", "NODE", "NOMINATED NODE", "READINESS GATES"]);
    }
    if query.all_namespaces {
        header.insert(0, "NAMESPACE");
    }
    if query.show_labels {
        header.push("LABELS");
    }
    let mut rows = Vec::new();
    if !query.no_headers {
        rows.push(header.into_iter().map(String::from).collect::<Vec<_>>());
    }
    for pod in pods {
        let row = get_pods::row(pod, at);
        let name = if query.with_kind {
            format!("pod/{}", row.name)
        } else {
            row.name
        };
        let mut cells = vec![name, row.ready, row.status, row.restarts, row.age];
        if wide {
            let none = || "<none>".to_string();
            cells.push(describe::pod_ip_at(pod, at).map_or_else(none, str::to_string));
            cells.push(
                pod.node
                    .as_ref()
                    .filter(|(_, bound)| *bound <= at)
                    .map_or_else(none, |(node, _)| node.clone()),
            );
            cells.push(none());
            cells.push(none());
        }
        if query.all_namespaces {
            cells.insert(0, "default".to_string());
        }
        if query.show_labels {
            cells.push(service::format_labels(&describe::pod_labels(pod, at)));
        }
        rows.push(cells);
    }
    Output::out(get_pods::table(&rows))
}

/// `kubectl describe TYPE [NAME]` (`DescribeOptions.Run`): no name
/// describes every object, separated by a blank line (`"\n\n%s"`); an exact
/// name describes that object; otherwise every object whose name starts
/// with NAME, each followed by a newline (`DescribeMatchingResources`,
/// `"%s\n"`), or the NotFound error when none does.
fn describe_matching<T>(
    items: &[(&str, T)],
    name: Option<&str>,
    kind: Kind,
    namespace: &str,
    render: impl Fn(&T) -> String,
) -> Output {
    let Some(name) = name else {
        if items.is_empty() {
            return Output::none_found(namespace);
        }
        let texts: Vec<String> = items.iter().map(|(_, item)| render(item)).collect();
        return Output::out(texts.join("\n\n"));
    };
    if let Some((_, item)) = items.iter().find(|(known, _)| *known == name) {
        return Output::out(render(item));
    }
    let matching: String = items
        .iter()
        .filter(|(known, _)| known.starts_with(name))
        .map(|(_, item)| format!("{}\n", render(item)))
        .collect();
    if matching.is_empty() {
        not_found(kind, name)
    } else {
        Output::out(matching)
    }
}

#[cfg(test)]
mod tests;
