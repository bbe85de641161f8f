//! The terminal's session (issue 17 items 3-5): the lines a learner types,
//! one after another, at the cursor's time. Besides [`super::run`] it keeps
//! the one piece of state a terminal has: a shell opened by `kubectl exec
//! -it POD -- sh`, in which the next lines are the container's commands
//! until `exit`. It also says what each line revealed of the interview's
//! evidence (describe's Events, the previous instance's logs, the
//! environment), so interview mode can score typed commands, and what a
//! completer offers at the cursor (`complete`).
//!
//! Pure: the entries depend only on the file (through `ExecContext`), the
//! run, the lines and the times they ran at.

use super::parse::{self, Command, Kind, Parsed, Refusal};
use super::{pick_container, pods_at, respond, Output};
use crate::exercise::exec::ExecContext;
use crate::exercise::interview::{self, Interview};
use crate::i18n::Text;
use crate::manifest::duration::Millis;
use crate::text;

/// The commands the emulated shell runs (`exec.rs` and the builtins here).
pub const SHELL_COMMANDS: &[&str] = &[
    "env",
    "printenv",
    "ls",
    "cat",
    "nvidia-smi",
    "df -h /dev/shm",
    "echo",
    "pwd",
    "exit",
];

/// A shell opened in a container.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shell {
    pub pod: String,
    pub container: String,
}

/// A terminal: at most one open shell.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Session {
    shell: Option<Shell>,
}

/// One line as the terminal ran it.
#[derive(Clone, PartialEq, Eq)]
pub struct Entry {
    /// `$ ` for kubectl, `# ` inside a container's shell (dash's prompt
    /// for root, what `kubectl exec -it … -- sh` shows in most images).
    pub prompt: &'static str,
    pub line: String,
    pub at: Millis,
    pub output: Output,
    /// The interview evidence the line showed, if any.
    pub reveals: Option<interview::Command>,
    /// The pods it showed that evidence about (empty: the whole cluster).
    pub pods: Vec<String>,
}

impl Entry {
    /// What the line did to the cluster, as Scenario actions at its time
    /// (`controls::record` writes each into the text).
    pub fn actions(&self) -> Vec<crate::manifest::scenario::Action> {
        self.output
            .acts
            .iter()
            .map(|act| crate::manifest::scenario::Action {
                at: self.at,
                span: crate::span::Span::empty(0),
                act: act.clone(),
            })
            .collect()
    }
}

impl Session {
    pub fn new() -> Session {
        Session::default()
    }

    /// The shell the next line runs in, if one is open.
    pub fn shell(&self) -> Option<&Shell> {
        self.shell.as_ref()
    }

    pub fn prompt(&self) -> &'static str {
        if self.shell.is_some() {
            "# "
        } else {
            "$ "
        }
    }

    /// Runs one line at `at`.
    pub fn run(&mut self, context: &ExecContext, line: &str, at: Millis) -> Entry {
        let prompt = self.prompt();
        let (output, reveals, pods) = match self.shell.clone() {
            Some(shell) => self.shell_line(context, &shell, line, at),
            None => self.kubectl_line(context, line, at),
        };
        Entry {
            prompt,
            line: line.to_string(),
            at,
            output,
            reveals,
            pods,
        }
    }

    fn kubectl_line(
        &mut self,
        context: &ExecContext,
        line: &str,
        at: Millis,
    ) -> (Output, Option<interview::Command>, Vec<String>) {
        if let Some(not_found) = mistyped_kubectl(line) {
            return (not_found, None, Vec::new());
        }
        let parsed = parse::parse(line);
        if let Ok(Parsed {
            command:
                Command::Exec {
                    pod,
                    container,
                    command,
                    interactive: true,
                },
            namespace,
        }) = &parsed
        {
            if namespace == "default" && is_shell(command) {
                return (
                    self.open_shell(context, pod, container.as_deref(), at),
                    None,
                    Vec::new(),
                );
            }
        }
        let output = respond(context, parsed.clone(), at);
        let (reveals, pods) = match (&parsed, output.exit_code) {
            (Ok(parsed), 0) => revealed(context, &parsed.command, at),
            _ => (None, Vec::new()),
        };
        (output, reveals, pods)
    }

    /// `kubectl exec -it POD [-c C] -- sh`: the shell opens when kubectl
    /// could reach the container; otherwise kubectl's refusal.
    fn open_shell(
        &mut self,
        context: &ExecContext,
        pod: &str,
        container: Option<&str>,
        at: Millis,
    ) -> Output {
        let Some(found) = pods_at(context, at).find(|p| p.name == pod) else {
            return super::not_found(Kind::Pod, pod);
        };
        let (container, defaulted) = pick_container(found, container);
        if let Err(refused) = context.reachable(found, &container, at) {
            return Output {
                stdout: String::new(),
                stderr: format!("{defaulted}{}", refused.kubectl_stderr()),
                exit_code: 1,
                notes: Vec::new(),
                acts: Vec::new(),
            };
        }
        self.shell = Some(Shell {
            pod: pod.to_string(),
            container: container.clone(),
        });
        let shell = SHELL_COMMANDS.join(", ");
        Output {
            stdout: String::new(),
            stderr: defaulted,
            exit_code: 0,
            notes: vec![text!(
                "a shell in container {container} of {pod}: {shell} run here; `exit` leaves",
                "已進入 {pod} 的 {container} 容器的 shell：可用 {shell}；輸入 `exit` 離開"
            )],
            acts: Vec::new(),
        }
    }

    fn shell_line(
        &mut self,
        context: &ExecContext,
        shell: &Shell,
        line: &str,
        at: Millis,
    ) -> (Output, Option<interview::Command>, Vec<String>) {
        let quiet = |stdout: String, exit_code: u8| Output {
            stdout,
            stderr: String::new(),
            exit_code,
            notes: Vec::new(),
            acts: Vec::new(),
        };
        let words = match parse::words(line) {
            Ok(words) => words,
            Err(Refusal::Shell(note) | Refusal::NotEmulated(note)) => {
                return (
                    Output {
                        notes: vec![note],
                        ..quiet(String::new(), 2)
                    },
                    None,
                    Vec::new(),
                )
            }
            Err(Refusal::Kubectl(stderr)) => {
                return (
                    Output {
                        stderr,
                        ..quiet(String::new(), 2)
                    },
                    None,
                    Vec::new(),
                )
            }
        };
        let Some((program, args)) = words.split_first() else {
            return (quiet(String::new(), 0), None, Vec::new());
        };
        let pod = pods_at(context, at).find(|p| p.name == shell.pod);
        let reachable = pod.map(|pod| context.reachable(pod, &shell.container, at));
        let (Some(pod), Some(Ok(spec))) = (pod, reachable) else {
            // The container stopped (or the pod went) while the shell was
            // open: kubectl's stream ends and the terminal is back at `$`.
            self.shell = None;
            let clock = format!("{}:{:02}", at / 60_000, at / 1000 % 60);
            return (
                Output {
                    notes: vec![text!(
                        "the container is not running at {clock}: the shell has ended",
                        "{clock} 時容器沒有在執行：shell 已經結束"
                    )],
                    ..quiet(String::new(), 1)
                },
                None,
                Vec::new(),
            );
        };
        let program = program.rsplit('/').next().unwrap_or(program);
        let output = match program {
            "exit" => {
                self.shell = None;
                // kubectl reports the shell's status as any exec's.
                let code = args
                    .first()
                    .and_then(|code| code.parse::<u8>().ok())
                    .unwrap_or(0);
                let mut output = quiet(String::new(), code);
                if code != 0 {
                    output.stderr = format!("command terminated with exit code {code}\n");
                }
                output
            }
            "pwd" => quiet("/\n".into(), 0),
            "cd" => quiet(String::new(), 0),
            "echo" => {
                let (environment, _) = context.environment(pod, spec);
                let expanded: Vec<String> =
                    args.iter().map(|arg| expand(arg, &environment)).collect();
                quiet(format!("{}\n", expanded.join(" ")), 0)
            }
            "env" | "printenv" | "ls" | "cat" | "nvidia-smi" | "df" => {
                let exec = context.exec_in_terminal(pod, &shell.container, &words, at);
                Output {
                    stdout: exec.stdout,
                    stderr: exec.stderr,
                    exit_code: u8::try_from(exec.exit_code).unwrap_or(1),
                    notes: exec.notes,
                    acts: Vec::new(),
                }
            }
            _ => {
                let shell = SHELL_COMMANDS.join(", ");
                Output {
                    notes: vec![text!(
                        "podlab's shell does not emulate `{program}`; it emulates: {shell}",
                        "podlab 的 shell 沒有模擬 `{program}`；可用的指令：{shell}"
                    )],
                    ..quiet(String::new(), 127)
                }
            }
        };
        let reveals = match program {
            "env" | "printenv" if output.exit_code == 0 => Some(interview::Command::ExecEnv),
            "nvidia-smi" if output.exit_code == 0 => Some(interview::Command::ExecNvidiaSmi),
            _ => None,
        };
        (output, reveals, vec![shell.pod.clone()])
    }
}

/// `sh`, `bash`, `/bin/sh`, … alone: an interactive shell.
fn is_shell(command: &[String]) -> bool {
    command.len() == 1
        && ["sh", "bash", "ash", "dash"]
            .contains(&command[0].rsplit('/').next().unwrap_or(&command[0]))
}

/// `$NAME` and `${NAME}` from the container's environment (unset: empty),
/// as the shell expands an unquoted word.
fn expand(word: &str, environment: &[(String, String)]) -> String {
    let lookup = |name: &str| {
        environment
            .iter()
            .find(|(known, _)| known == name)
            .map_or("", |(_, value)| value.as_str())
    };
    let mut out = String::new();
    let mut rest = word;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let (name, next) = if let Some(braced) = after.strip_prefix('{') {
            match braced.find('}') {
                Some(end) => (&braced[..end], &braced[end + 1..]),
                None => ("", after),
            }
        } else {
            let end = after
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(after.len());
            (&after[..end], &after[end..])
        };
        if name.is_empty() {
            out.push('$');
        } else {
            out.push_str(lookup(name));
        }
        rest = next;
    }
    out.push_str(rest);
    out
}

/// What a command that succeeded showed of the interview's evidence, and
/// about which pods.
fn revealed(
    context: &ExecContext,
    command: &Command,
    at: Millis,
) -> (Option<interview::Command>, Vec<String>) {
    let pods_named = |name: Option<&str>| -> Vec<String> {
        let names = pods_at(context, at).map(|pod| pod.name.clone());
        match name {
            None => names.collect(),
            Some(name) if pods_at(context, at).any(|pod| pod.name == name) => {
                vec![name.to_string()]
            }
            Some(prefix) => names.filter(|known| known.starts_with(prefix)).collect(),
        }
    };
    match command {
        Command::Describe {
            kind: Kind::Pod,
            name,
        } => (
            Some(interview::Command::Describe),
            pods_named(name.as_deref()),
        ),
        Command::Describe {
            kind: Kind::Node, ..
        } => (Some(interview::Command::DescribeNode), Vec::new()),
        Command::Get {
            kind: Kind::Node, ..
        } => (Some(interview::Command::GetNodes), Vec::new()),
        Command::Get {
            kind: Kind::Event,
            object_name,
            ..
        } => (
            Some(interview::Command::GetEvents),
            object_name.iter().cloned().collect(),
        ),
        Command::Logs {
            pod,
            container,
            previous,
            ..
        } => {
            // While the container waits out its back-off, `logs` reads the
            // last terminated instance (`validateContainerLogStatus`), the
            // same one `--previous` reads: the same evidence.
            let waiting_after_exit = pods_at(context, at)
                .find(|p| p.name == *pod)
                .and_then(|p| {
                    let name = container
                        .clone()
                        .or_else(|| p.spec.containers.first().map(|c| c.name.clone()))?;
                    p.statuses_at(at).into_iter().find(|s| s.name == name)
                })
                .is_some_and(|status| {
                    matches!(status.state, crate::sim::ContainerState::Waiting { .. })
                        && status.last_state.is_some()
                });
            let reveals = if *previous || waiting_after_exit {
                interview::Command::LogsPrevious
            } else {
                interview::Command::Logs
            };
            (Some(reveals), vec![pod.clone()])
        }
        Command::Exec { pod, command, .. } => {
            let program = command
                .first()
                .map(|program| program.rsplit('/').next().unwrap_or(program));
            let reveals = match program {
                Some("env" | "printenv") => Some(interview::Command::ExecEnv),
                Some("nvidia-smi") => Some(interview::Command::ExecNvidiaSmi),
                _ => None,
            };
            (reveals, vec![pod.clone()])
        }
        Command::Apply => (Some(interview::Command::Apply), Vec::new()),
        // The acting commands are steps too (issue 33 item 4), about the
        // cluster: deleting an old pod may be what frees the pod in
        // trouble's GPU.
        Command::Delete { .. } => (Some(interview::Command::DeletePod), Vec::new()),
        Command::Scale { .. } => (Some(interview::Command::Scale), Vec::new()),
        Command::RolloutRestart { .. } => (Some(interview::Command::RolloutRestart), Vec::new()),
        Command::Cordon { cordon: true, .. } => (Some(interview::Command::Cordon), Vec::new()),
        Command::Cordon { cordon: false, .. } => (Some(interview::Command::Uncordon), Vec::new()),
        Command::Drain { .. } => (Some(interview::Command::Drain), Vec::new()),
        Command::Metadata(command) if command.labels => {
            (Some(interview::Command::Label), Vec::new())
        }
        Command::Metadata(_) => (Some(interview::Command::Annotate), Vec::new()),
        Command::Patch { .. } | Command::RolloutUndo { .. } => {
            (Some(interview::Command::Patch), Vec::new())
        }
        _ => (None, Vec::new()),
    }
}

/// The interview path of a transcript: the evidence each entry showed
/// about the pod the interview is about (`focus`) or the whole cluster, in
/// order. `nvidia-smi` counts on any pod: the card is the node's.
pub fn evidence(entries: &[Entry], focus: Option<&str>) -> Vec<interview::Command> {
    steps(entries, focus).into_iter().flatten().collect()
}

/// Each entry as the interview's score reads it (`interview::score`): the
/// evidence it showed about `focus` or the cluster, `None` when it showed
/// nothing of use (a failed line, another pod, a line that reveals nothing).
pub fn steps(entries: &[Entry], focus: Option<&str>) -> Vec<Option<interview::Command>> {
    entries
        .iter()
        .map(|entry| {
            let command = entry.reveals?;
            let about_focus = entry.pods.is_empty()
                || command == interview::Command::ExecNvidiaSmi
                || focus.is_some_and(|focus| entry.pods.iter().any(|pod| pod == focus));
            about_focus.then_some(command)
        })
        .collect()
}

/// podlab's remark on an entry of an interview transcript: why a command
/// taught nothing (or less than it seemed to), `None` when it was useful.
pub fn remark(
    run: &crate::sim::Run,
    interview: &Interview,
    entry: &Entry,
    focus: Option<&str>,
) -> Option<Text> {
    let shown = evidence(std::slice::from_ref(entry), focus);
    let Some(command) = shown.first().copied() else {
        if entry.output.exit_code != 0 || !entry.output.notes.is_empty() {
            return Some(Text::new(
                "nothing learned: the command did not run (Tab completes commands and pod names)",
                "沒有得到資訊：指令沒有執行成功（按 Tab 可補齊指令與 Pod 名稱）",
            ));
        }
        if entry.reveals.is_some() {
            return Some(Text::new(
                "about another pod, not the one in trouble",
                "看的是別的 Pod，不是出問題的那一個",
            ));
        }
        return None;
    };
    if command == interview::Command::Logs {
        // A running instance after a restart: the new one, which has only
        // begun (while it waits out a back-off, `logs` reads the previous
        // instance and counts as `--previous`: `revealed`).
        let restarted = focus
            .and_then(|focus| run.pods.iter().find(|pod| pod.name == focus))
            .and_then(|pod| pod.containers.first())
            .and_then(|container| container.status_at(entry.at))
            .is_some_and(|status| status.restart_count > 0);
        if restarted {
            return Some(Text::new(
                "`logs` without `--previous` shows the instance that started after the last restart: it has only begun loading. The crash is in the previous instance's logs: add `--previous`",
                "不加 `--previous` 的 `logs` 看到的是最近一次重啟後的新容器：它才剛開始載入。當掉的是上一個容器，要看它的紀錄請加 `--previous`",
            ));
        }
    }
    let credited = interview.recommended.contains(&command)
        || (command == interview::Command::GetEvents
            && interview
                .recommended
                .contains(&interview::Command::Describe));
    (!credited).then(|| {
        Text::new(
            "a detour: this cause does not need it",
            "繞路：找這個根因用不到它",
        )
    })
}

/// podlab's remarks on a whole interview transcript, entry by entry:
/// [`remark`]'s, and for an action taken before any read of the pod in
/// trouble, what a reviewer would note ("deleted the pod before looking at
/// why it restarts"), as `interview::score` counts it.
pub fn remarks(
    run: &crate::sim::Run,
    interview: &Interview,
    entries: &[Entry],
    focus: Option<&str>,
) -> Vec<Option<Text>> {
    let mut read = false;
    let shown = steps(entries, focus);
    entries
        .iter()
        .zip(shown)
        .map(|(entry, step)| {
            let acted = step.and_then(|command| command.acted()).filter(|_| !read);
            read |= step.is_some_and(interview::Command::reads_the_pod);
            match acted {
                Some(acted) => {
                    let (en, zh) = (acted.en, acted.zh_tw);
                    Some(text!(
                        "a detour: {en} before looking at the pod in trouble (`describe`, `logs --previous`, `get events`); first see why it fails, then act",
                        "繞路：還沒看出問題的 Pod（`describe`、`logs --previous`、`get events`）就先{zh}；先看它為什麼出錯，再動手"
                    ))
                }
                None => remark(run, interview, entry, focus),
            }
        })
        .collect()
}

/// What Tab offers: the candidates for the word being typed at the end of
/// `line`, which starts at byte `from`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    pub from: usize,
    pub candidates: Vec<String>,
}

impl Session {
    /// The completions of the last word of `line` at `at`: kubectl's words,
    /// flags, resource types and the names that exist then, or the shell's
    /// commands inside a shell.
    pub fn complete(&self, context: &ExecContext, line: &str, at: Millis) -> Completion {
        complete(context, line, at, self.shell.is_some())
    }
}

/// [`Session::complete`] for a terminal that knows only whether its shell
/// is open (the page completes at once, while the session lives in the
/// kubectl worker).
pub fn complete(context: &ExecContext, line: &str, at: Millis, in_shell: bool) -> Completion {
    let from = line.rfind(char::is_whitespace).map_or(0, |at| {
        at + line[at..].chars().next().map_or(1, char::len_utf8)
    });
    let partial = &line[from..];
    let before: Vec<&str> = line[..from].split_whitespace().collect();
    let offered = match in_shell {
        true => match before.as_slice() {
            [] => SHELL_COMMANDS
                .iter()
                .map(|c| c.split(' ').next().unwrap_or(c).to_string())
                .collect(),
            ["df"] => vec!["-h".into()],
            ["df", ..] => vec!["/dev/shm".into()],
            _ => Vec::new(),
        },
        false => kubectl_candidates(context, &before, at),
    };
    let mut candidates: Vec<String> = Vec::new();
    for candidate in offered {
        if candidate.starts_with(partial) && !candidates.contains(&candidate) {
            candidates.push(candidate);
        }
    }
    Completion { from, candidates }
}

/// The words that may follow `before` on a kubectl line.
fn kubectl_candidates(context: &ExecContext, before: &[&str], at: Millis) -> Vec<String> {
    let strings = |words: &[&str]| words.iter().map(|w| w.to_string()).collect::<Vec<_>>();
    let mut words = before;
    if let Some(rest) = words.strip_prefix(&["$"]) {
        words = rest;
    }
    let Some((first, rest)) = words.split_first() else {
        return strings(&["kubectl"]);
    };
    let rest = if *first == "kubectl" || *first == "k" {
        rest
    } else {
        words
    };
    let Some((command, args)) = rest.split_first() else {
        return strings(parse::COMMAND_WORDS);
    };
    let pods = || -> Vec<String> { pods_at(context, at).map(|p| p.name.clone()).collect() };
    // The word before the one typed: a flag that takes a value.
    match args.last().copied() {
        Some("-c" | "--container") => {
            let pod = args.iter().find(|arg| !arg.starts_with('-'));
            return pods_at(context, at)
                .find(|p| pod.is_some_and(|pod| *pod == p.name))
                .map(|p| p.spec.containers.iter().map(|c| c.name.clone()).collect())
                .unwrap_or_default();
        }
        Some("-o" | "--output") => {
            return strings(&[
                "wide",
                "yaml",
                "json",
                "name",
                "jsonpath={.items[*].metadata.name}",
                "custom-columns=NAME:.metadata.name,STATUS:.status.phase",
            ])
        }
        // The labels of the pods that exist then, as `key=value`.
        Some("-l" | "--selector") => {
            let mut labels: Vec<String> = pods_at(context, at)
                .flat_map(|pod| crate::explain::describe::pod_labels(pod, at))
                .map(|(key, value)| format!("{key}={value}"))
                .collect();
            crate::sort::sort(&mut labels);
            labels.dedup();
            return labels;
        }
        Some("-n" | "--namespace") => return strings(&["default"]),
        Some("-f" | "--filename") => return strings(&["."]),
        Some("--field-selector") => {
            return pods()
                .into_iter()
                .map(|pod| format!("involvedObject.name={pod}"))
                .collect()
        }
        _ => {}
    }
    if args.contains(&"--") {
        return strings(&["env", "nvidia-smi", "printenv", "ls", "cat", "df", "sh"]);
    }
    let takes_value = [
        "-c",
        "--container",
        "-o",
        "--output",
        "-n",
        "--namespace",
        "-f",
        "--tail",
        "--field-selector",
        "-l",
        "--selector",
    ];
    let mut positional = 0;
    let mut skip = false;
    for arg in args {
        if skip {
            skip = false;
        } else if takes_value.contains(arg) {
            skip = true;
        } else if !arg.starts_with('-') {
            positional += 1;
        }
    }
    let flags: &[&str] = match *command {
        "get" => &[
            "-o",
            "-l",
            "-A",
            "--no-headers",
            "--show-labels",
            "--sort-by=.lastTimestamp",
            "--field-selector",
            "-n",
        ],
        "logs" => &["--previous", "-f", "-c", "--tail", "-n"],
        "exec" => &["-it", "-c", "--", "-n"],
        "apply" => &["-f"],
        "set" => &["-c", "--limits=memory=", "--requests=memory="],
        "patch" => &["-p", "--type=merge"],
        "delete" => &["--grace-period=", "--force", "--now"],
        "scale" => &["--replicas="],
        "drain" => &["--ignore-daemonsets", "--force", "--delete-emptydir-data"],
        "label" | "annotate" => &["--overwrite", "-n"],
        _ => &["-n"],
    };
    // The Deployments, as `deployment/NAME` (one word for every acting
    // command that names one).
    let deployments = || -> Vec<String> {
        context
            .run
            .deployments
            .iter()
            .map(|d| format!("deployment/{}", d.name))
            .collect()
    };
    let mut offered = match (*command, positional) {
        ("get", 0) => strings(parse::RESOURCE_WORDS),
        ("describe", 0) => strings(&[
            "pod",
            "node",
            "deployment",
            "replicaset",
            "job",
            "cronjob",
            "hpa",
            "service",
            "configmap",
            "secret",
        ]),
        ("top", 0) => strings(&["pod", "node"]),
        ("label" | "annotate", 0) => strings(&["pod", "node", "deployment"]),
        ("rollout", 0) => strings(&["status", "restart", "undo", "history"]),
        ("rollout", 1) | ("patch" | "scale", 0) => deployments(),
        ("set", 0) => strings(&["resources", "image"]),
        ("set", 1) => deployments(),
        ("delete", 0) => strings(&["pod"]),
        ("delete", 1) => super::completions(context, at).pods,
        ("cordon" | "uncordon" | "drain", 0) => super::completions(context, at).nodes,
        ("logs" | "exec", 0) => pods(),
        ("get" | "describe" | "top" | "label" | "annotate", 1) => {
            let names = super::completions(context, at);
            match args
                .iter()
                .find(|arg| !arg.starts_with('-'))
                .and_then(|w| parse::kind(w))
            {
                Some(Kind::Pod) => names.pods,
                Some(Kind::Node) => names.nodes,
                Some(Kind::Deployment) => names.deployments,
                // Jobs that exist; CronJobs that have made a Job (reading
                // the CronJob documents here cost 0.3 KB of the page).
                Some(kind @ (Kind::Job | Kind::CronJob)) => context
                    .run
                    .jobs
                    .iter()
                    .filter_map(|job| match kind {
                        Kind::Job => job.exists_at(at).then(|| job.name.clone()),
                        _ => job
                            .owner
                            .as_deref()?
                            .strip_prefix("CronJob/")
                            .map(str::to_string),
                    })
                    .collect(),
                _ => Vec::new(),
            }
        }
        _ => Vec::new(),
    };
    offered.extend(strings(flags));
    offered
}

/// A line whose program is `kubectl` mistyped (`kubeclt get pods`): the
/// terminal's shell does not find it, so it says what bash says
/// (`bash: kubeclt: command not found`, status 127), and podlab asks
/// whether `kubectl` was meant. A line without a program (`get pods`) is
/// kubectl's, and a kubectl command word is not a typo.
fn mistyped_kubectl(line: &str) -> Option<Output> {
    let words = parse::words(line).ok()?;
    let program = words.iter().find(|word| *word != "$")?;
    if program == "kubectl" || program == "k" || parse::is_kubectl_command(program) {
        return None;
    }
    crate::manifest::schema::closest(program, std::iter::once("kubectl"))?;
    Some(Output {
        stdout: String::new(),
        stderr: format!("bash: {program}: command not found\n"),
        exit_code: 127,
        notes: vec![text!(
            "did you mean `kubectl`? (`{program}` is not a program in this terminal)",
            "你是不是要輸入 `kubectl`？（這個終端機裡沒有 `{program}` 這個程式）"
        )],
        acts: Vec::new(),
    })
}

#[cfg(test)]
mod tests;
