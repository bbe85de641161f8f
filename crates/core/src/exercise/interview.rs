//! Interview mode: the symptom (`kubectl get pods` at a time), the commands
//! a learner may run next, each with its simulated output, the root-cause
//! options, and the score of the path taken against the recommended order
//! (describe → logs --previous → exec, the blog's 排錯三連).
//!
//! Every output comes from the same run the goals use; nothing is written
//! by hand in the exercise except the root-cause options and their whys.

use crate::explain::{describe, get_pods, logs};
use crate::i18n::Text;
use crate::manifest::duration::Millis;
use crate::manifest::model::WorkloadKind;
use crate::sim::{PodRun, Run};

use super::exec::ExecContext;

pub use crate::manifest::exercise::{Cause, Command, Interview};

/// The interview's name in its link (`?interview=KEY`): an exercise's id
/// names its lesson (`oom-loading-peak`), so the interview is linked by an
/// opaque key instead (issue 30: nothing on the page, its address
/// included, gives the cause away before a command). FNV-32a of the id in
/// base 36, 7 characters, `i` first; the page finds the exercise by
/// computing each one's key.
pub fn interview_key(id: &str) -> String {
    let mut hash = crate::manifest::canonical::fnv32a(id.as_bytes());
    let mut digits = Vec::new();
    for _ in 0..6 {
        let digit = (hash % 36) as u8;
        hash /= 36;
        digits.push(if digit < 10 {
            b'0' + digit
        } else {
            b'a' + digit - 10
        });
    }
    digits.push(b'i');
    digits.iter().rev().map(|&byte| char::from(byte)).collect()
}

/// The pod the interview is about: the first pod that is not Ready (or not
/// Succeeded) at `at`, else the first pod.
pub fn focus_pod(run: &Run, at: Millis) -> Option<&PodRun> {
    let existing = || run.pods.iter().filter(move |pod| pod.exists_at(at));
    existing()
        .find(|pod| {
            let row = get_pods::row(pod, at);
            let ready = pod.statuses_at(at).iter().all(|status| status.ready);
            !(ready && row.status == "Running") && row.status != "Completed"
        })
        .or_else(|| existing().next())
}

/// `kubectl get pods` at the interview's time: the symptom.
pub fn symptom(run: &Run, at: Millis) -> String {
    let table = get_pods::render(run, at);
    if table.is_empty() {
        "No resources found in default namespace.\n".into()
    } else {
        table
    }
}

/// One command's line and simulated output, about `pod`'s first container.
/// `exec-nvidia-smi` into a container that is not running goes to a running
/// neighbour on the same node instead, as a person would (the card is
/// shared, so its memory shows there).
pub fn run_command(
    context: &ExecContext,
    pod: Option<&PodRun>,
    command: Command,
    at: Millis,
) -> (String, String) {
    let Some(pod) = pod else {
        // No pod (every object refused): only the commands that need none.
        let node = first_node(context);
        let line = command.command_line("", "", &node);
        let output = match command {
            Command::Apply => apply(context),
            Command::GetEvents => get_events(context.run, at),
            Command::GetNodes => get_nodes(context, at, false, false, None),
            Command::DescribeNode => describe_node(context, &node, at),
            _ => "No resources found in default namespace.\n".into(),
        };
        return (line, output);
    };
    let running = |candidate: &PodRun| {
        candidate
            .containers
            .first()
            .and_then(|container| container.status_at(at))
            .is_some_and(|status| {
                matches!(status.state, crate::sim::ContainerState::Running { .. })
            })
    };
    let same_node = |candidate: &PodRun| {
        candidate.node.as_ref().map(|(node, _)| node) == pod.node.as_ref().map(|(node, _)| node)
    };
    let pod = if command == Command::ExecNvidiaSmi && !running(pod) {
        context
            .run
            .pods
            .iter()
            .find(|candidate| candidate.exists_at(at) && same_node(candidate) && running(candidate))
            .unwrap_or(pod)
    } else {
        pod
    };
    let container = pod
        .containers
        .first()
        .map(|c| c.name.as_str())
        .unwrap_or("");
    let node = interesting_node(context, pod, at);
    let line = command.command_line(&pod.name, container, &node);
    let run = context.run;
    let output = match command {
        Command::Apply => apply(context),
        Command::Describe => describe::describe_pod(run, pod, at),
        Command::Logs | Command::LogsPrevious => {
            match logs::logs(run, pod, container, at, command == Command::LogsPrevious) {
                Ok(text) => text,
                Err(error) => format!("{error}\n"),
            }
        }
        Command::ExecEnv => context
            .exec(pod, container, &["env".to_string()], at)
            .transcript(),
        Command::ExecNvidiaSmi => context
            .exec(pod, container, &["nvidia-smi".to_string()], at)
            .transcript(),
        Command::GetEvents => get_events(run, at),
        Command::GetNodes => get_nodes(context, at, false, false, None),
        Command::DescribeNode => describe_node(context, &node, at),
        // An acting command is typed in the terminal, which prints
        // kubectl's lines and records the action (`kubectl/act.rs`); it is
        // never offered here (`interview.commands` holds reads only).
        Command::DeletePod
        | Command::Scale
        | Command::RolloutRestart
        | Command::Cordon
        | Command::Uncordon
        | Command::Drain
        | Command::Patch
        | Command::Label
        | Command::Annotate => String::new(),
    };
    (line, output)
}

/// `kubectl apply -f .` run again on the text that was applied at 0:
/// `<resource>.<group>/<name> unchanged` for each workload the API server
/// accepted (kubectl's apply prints `created` for a new object,
/// `configured` after a patch and `unchanged` for an empty patch, in the
/// `-o name` form), then the refusals, which kubectl gathers and prints
/// after the objects it could apply. Objects other than workloads
/// (Services, ConfigMaps) are not listed: podlab does not model them.
pub fn apply(context: &ExecContext) -> String {
    let mut out = String::new();
    for workload in &context.reading.workloads {
        let object = format!("{}/{}", workload.kind.as_str(), workload.name);
        if context
            .run
            .refused
            .iter()
            .any(|refused| refused.object == object)
        {
            continue;
        }
        let resource = match workload.kind {
            WorkloadKind::Pod => "pod",
            WorkloadKind::Deployment => "deployment.apps",
            WorkloadKind::ReplicaSet => "replicaset.apps",
            WorkloadKind::StatefulSet => "statefulset.apps",
            WorkloadKind::DaemonSet => "daemonset.apps",
            WorkloadKind::Job => "job.batch",
            WorkloadKind::CronJob => "cronjob.batch",
        };
        out.push_str(&format!("{resource}/{} unchanged\n", workload.name));
    }
    for refused in &context.run.refused {
        out.push_str(&refused.message);
        out.push('\n');
    }
    out
}

/// `kubectl get events --sort-by=.lastTimestamp` for every pod
/// (`explain::events::get_events`).
fn get_events(run: &Run, at: Millis) -> String {
    let table = crate::explain::events::get_events(run, at, None, true);
    if table.is_empty() {
        return "No resources found in default namespace.\n".into();
    }
    table
}

/// `kubectl get nodes [NAME] [-o wide] [--show-labels]`: every node (or the
/// one named) of the Scenario, by name as the API lists them, as `printNode`
/// prints it: Ready, no role, age = `at` (created at 0), the kubelet's
/// version; `-o wide` adds the addresses and the node's system info
/// (`explain::node::wide_cells`); `LABELS` is `labels.FormatLabels`
/// (sorted `key=value`, comma-joined).
pub fn get_nodes(
    context: &ExecContext,
    at: Millis,
    wide: bool,
    show_labels: bool,
    only: Option<&str>,
) -> String {
    use crate::explain::node;
    let mut rows: Vec<Vec<String>> = Vec::new();
    for node in node::nodes(&context.reading.scenario) {
        let name = node.name();
        if only.is_some_and(|only| only != name) {
            continue;
        }
        // `printNode`: `SchedulingDisabled` after the conditions when
        // `spec.unschedulable` (a cordon, `sim/act.rs`).
        let status = if context.run.cordoned_at(&name, at) {
            "Ready,SchedulingDisabled"
        } else {
            "Ready"
        };
        let mut row = vec![
            String::new(),
            status.into(),
            "<none>".into(),
            crate::explain::human_duration(at),
            node::KUBELET_VERSION.into(),
        ];
        if wide {
            row.extend(node::wide_cells(&node));
        }
        if show_labels {
            row.push(node_labels(context, node.pool, &name, at).join(","));
        }
        row[0] = name;
        rows.push(row);
    }
    crate::sort::sort_by(&mut rows, |a, b| a[0].cmp(&b[0]));
    let mut header = ["NAME", "STATUS", "ROLES", "AGE", "VERSION"]
        .map(String::from)
        .to_vec();
    if wide {
        header.extend(
            [
                "INTERNAL-IP",
                "EXTERNAL-IP",
                "OS-IMAGE",
                "KERNEL-VERSION",
                "CONTAINER-RUNTIME",
            ]
            .map(String::from),
        );
    }
    if show_labels {
        header.push("LABELS".into());
    }
    rows.insert(0, header);
    crate::explain::get_pods::table(&rows)
}

/// A node's labels at `at` as `key=value`, sorted
/// (`explain::node::labels_at`).
fn node_labels(
    context: &ExecContext,
    pool: &crate::manifest::scenario::NodePool,
    node: &str,
    at: Millis,
) -> Vec<String> {
    crate::explain::node::labels_at(context.run, pool, node, at)
        .into_iter()
        .map(|(key, value)| format!("{key}={value}"))
        .collect()
}

/// The node a learner would describe: the pod's own, or for a pod no node
/// took, the first node with a GPU (where a GPU pod was meant to go), else
/// the first node.
pub fn interesting_node(context: &ExecContext, pod: &PodRun, at: Millis) -> String {
    if let Some((node, bound)) = &pod.node {
        if *bound <= at {
            return node.clone();
        }
    }
    first_node(context)
}

/// The first node with a GPU, else the first node.
pub fn first_node(context: &ExecContext) -> String {
    let pools = &context.reading.scenario.node_pools;
    pools
        .iter()
        .filter(|pool| pool.count > 0)
        .find(|pool| pool.gpu.is_some())
        .or_else(|| pools.iter().find(|pool| pool.count > 0))
        .map_or_else(String::new, |pool| format!("{}-0", pool.name))
}

/// `kubectl describe node <node>` at `at` (`explain::node::describe`), or
/// the API server's NotFound.
pub fn describe_node(context: &ExecContext, node: &str, at: Millis) -> String {
    crate::explain::node::describe(
        &context.reading.scenario,
        context.run,
        &context.source,
        node,
        at,
    )
    .unwrap_or_else(|| format!("Error from server (NotFound): nodes \"{node}\" not found\n"))
}

/// How the right answer was reached (docs/exercises.md "Interview mode").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The right cause, reached by at least one recommended step.
    Found,
    /// The right cause with no recommended step run: a guess.
    Guessed,
    /// Not the root cause.
    Wrong,
}

/// How the lines typed compare with the recommended order, in numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct Score {
    /// Recommended steps run in the recommended order: the longest prefix
    /// of the recommended order found, in order, among the lines' evidence.
    pub followed: usize,
    pub recommended: usize,
    /// Lines that were not a recommended step: they showed nothing about
    /// the pod in trouble (a failed line, another pod, `get pods` again),
    /// evidence the recommended path does not need (`apply` where the path
    /// does not start with it, a node where the cause is in the pod), an
    /// action the path does not take, or any action before a read of the
    /// pod in trouble ([`Score::acted_first`]).
    pub detours: usize,
    /// Of the detours, the actions taken before any read of the pod in
    /// trouble (`describe`, `logs`, `get events`, `exec`): "deleted the pod
    /// before looking at why it restarts".
    pub acted_first: usize,
    /// Every line typed, useful or not.
    pub typed: usize,
    pub cause_correct: bool,
    pub verdict: Verdict,
}

impl Verdict {
    /// The verdict in words, as the page shows it above the numbers.
    pub fn text(self) -> Text {
        match self {
            Verdict::Found => Text::new(
                "Right root cause, found by investigating.",
                "根因正確，而且是查出來的。",
            ),
            Verdict::Guessed => Text::new(
                "Right root cause, but a guess: no recommended step led to it.",
                "根因正確，但這是用猜的：沒有任何建議步驟帶你找到它。",
            ),
            Verdict::Wrong => Text::new("Not the root cause.", "不是根因。"),
        }
    }
}

impl Score {
    /// Whether the page may show success: the right cause, found.
    pub fn success(&self) -> bool {
        self.verdict == Verdict::Found
    }
}

/// Whether a line showed something about the pod in trouble: the root-cause
/// choices open after the first such line (or when the learner asks to
/// answer). An action shows nothing by itself: it does not open them.
pub fn investigated(steps: &[Option<Command>]) -> bool {
    steps.iter().flatten().any(|command| !command.acts())
}

/// Scores the lines typed, each as the evidence it showed about the pod in
/// trouble (`None`: nothing, `kubectl::session::steps`) or the action it
/// took, in order, and the cause picked. An action counts like any step
/// where `interview.recommended` holds it and it comes in order, but only
/// after a read of the pod in trouble ([`Command::reads_the_pod`]): before
/// one, any action is a detour (docs/exercises.md "Interview mode").
pub fn score(interview: &Interview, steps: &[Option<Command>], cause: Option<usize>) -> Score {
    // `get events` shows what describe's Events section shows: it counts
    // for `describe` where describe is recommended and it is not.
    let stands_for = |command: Command| {
        if command == Command::GetEvents
            && !interview.recommended.contains(&Command::GetEvents)
            && interview.recommended.contains(&Command::Describe)
        {
            Command::Describe
        } else {
            command
        }
    };
    let mut followed = 0;
    let mut detours = 0;
    let mut acted_first = 0;
    let mut read = false;
    for step in steps {
        match step.map(stands_for) {
            // An action before the pod in trouble was read is a detour even
            // where the path acts: the path acts after reading.
            Some(command) if command.acts() && !read => {
                detours += 1;
                acted_first += 1;
            }
            Some(command) if interview.recommended.contains(&command) => {
                if interview.recommended.get(followed) == Some(&command) {
                    followed += 1;
                }
            }
            _ => detours += 1,
        }
        read |= step.is_some_and(Command::reads_the_pod);
    }
    let cause_correct = cause
        .and_then(|index| interview.causes.get(index))
        .is_some_and(|cause| cause.correct);
    let verdict = match (cause_correct, followed) {
        (false, _) => Verdict::Wrong,
        (true, 0) => Verdict::Guessed,
        (true, _) => Verdict::Found,
    };
    Score {
        followed,
        recommended: interview.recommended.len(),
        detours,
        acted_first,
        typed: steps.len(),
        cause_correct,
        verdict,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exercise::library;
    use crate::sim::{simulate, Options};

    #[test]
    fn every_interview_has_its_own_opaque_key() {
        let library = crate::exercise::library::all();
        let keys: Vec<String> = library
            .iter()
            .map(|exercise| interview_key(&exercise.id))
            .collect();
        for (exercise, key) in library.iter().zip(&keys) {
            assert_eq!(key.len(), 7, "{key}");
            assert!(key.starts_with('i') && key.chars().all(|c| c.is_ascii_alphanumeric()));
            for word in exercise.id.split('-').filter(|word| word.len() > 2) {
                assert!(!key.contains(word), "{key} names {word}");
            }
            assert_eq!(
                keys.iter().filter(|other| *other == key).count(),
                1,
                "{key}"
            );
        }
        assert_eq!(
            interview_key("oom-loading-peak"),
            interview_key("oom-loading-peak")
        );
        assert_ne!(
            interview_key("oom-loading-peak"),
            interview_key("oom-workers")
        );
    }

    #[test]
    fn the_crash_loop_interview_shows_the_symptom_and_the_evidence() {
        let exercise = library::find("liveness-crash-loop").expect("in the library");
        let interview = exercise.interview.as_ref().expect("has an interview");
        let run = simulate(&exercise.start, &Options::default());
        let symptom = symptom(&run, interview.at);
        assert!(symptom.starts_with("NAME"), "{symptom}");
        assert!(symptom.contains("CrashLoopBackOff"), "{symptom}");
        let context = ExecContext::new(&exercise.start, &run);
        let pod = focus_pod(&run, interview.at).expect("a pod");
        let (line, describe) = run_command(&context, Some(pod), Command::Describe, interview.at);
        assert_eq!(line, format!("kubectl describe pod {}", pod.name));
        assert!(describe.contains("Liveness probe failed"), "{describe}");
        let (_, previous) = run_command(&context, Some(pod), Command::LogsPrevious, interview.at);
        assert!(!previous.is_empty());
        let (_, events) = run_command(&context, Some(pod), Command::GetEvents, interview.at);
        assert!(events.starts_with("LAST SEEN   TYPE"), "{events}");
        assert!(events.contains("Killing"), "{events}");
        let (_, nodes) = run_command(&context, Some(pod), Command::GetNodes, interview.at);
        assert!(nodes.contains("gpu-0   Ready"), "{nodes}");
        let (line, node) = run_command(&context, Some(pod), Command::DescribeNode, interview.at);
        assert_eq!(line, "kubectl describe node gpu-0");
        assert!(node.contains("Non-terminated Pods:"), "{node}");
    }

    #[test]
    fn every_library_interview_renders_every_command() {
        for exercise in library::all() {
            let interview = exercise.interview.as_ref().expect("has an interview");
            let run = simulate(&exercise.start, &Options::default());
            let context = ExecContext::new(&exercise.start, &run);
            let pod = focus_pod(&run, interview.at);
            if pod.is_none() {
                // An object the API server refused has no pod to ask about:
                // the symptom is an empty list, and only commands that need
                // no pod are offered (`apply` shows the refusal).
                assert!(!run.refused.is_empty(), "{}: no pod", exercise.id);
                assert_eq!(
                    symptom(&run, interview.at),
                    "No resources found in default namespace.\n"
                );
                for command in &interview.commands {
                    assert!(!command.needs_pod(), "{}: {command:?}", exercise.id);
                }
                assert!(interview.recommended.contains(&Command::Apply));
            }
            for command in &interview.commands {
                let (line, output) = run_command(&context, pod, *command, interview.at);
                assert!(line.starts_with("kubectl "), "{}: {line}", exercise.id);
                // (`kubectl logs` of an unscheduled pod prints nothing,
                // kubectl-output.md §5; the others always print something.)
                if !command.needs_pod() {
                    assert!(!output.is_empty(), "{}: {line}", exercise.id);
                }
            }
        }
    }

    /// `kubectl apply` again on a refused object: the accepted objects'
    /// `unchanged` lines, then the API server's refusal (kubectl prints the
    /// errors after what it could apply).
    #[test]
    fn apply_shows_the_refusal_when_there_is_no_pod() {
        let exercise = library::find("fractional-gpu").expect("in the library");
        let at = exercise.interview.as_ref().expect("interview").at;
        let run = simulate(&exercise.start, &Options::default());
        let context = ExecContext::new(&exercise.start, &run);
        assert!(focus_pod(&run, at).is_none());
        let (line, output) = run_command(&context, None, Command::Apply, at);
        assert_eq!(line, "kubectl apply -f .");
        assert!(
            output.starts_with("The Deployment \"rerank\" is invalid: ")
                && output.contains("must be an integer"),
            "{output}"
        );
        assert!(!output.contains("unchanged"), "{output}");

        // With the fix, the Deployment exists (applied at 0, so unchanged)
        // and nothing is refused.
        let fixed = exercise
            .start
            .replace("nvidia.com/gpu: 0.5", "nvidia.com/gpu: 1");
        let run = simulate(&fixed, &Options::default());
        let context = ExecContext::new(&fixed, &run);
        let (_, output) = run_command(&context, focus_pod(&run, at), Command::Apply, at);
        assert_eq!(output, "deployment.apps/rerank unchanged\n");
    }

    #[test]
    fn the_silent_failure_shows_only_in_exec_env() {
        let exercise = library::find("silent-model-version").expect("in the library");
        let at = exercise.interview.as_ref().expect("interview").at;
        let run = simulate(&exercise.start, &Options::default());
        let context = ExecContext::new(&exercise.start, &run);
        let pod = focus_pod(&run, at).expect("a pod");
        let (_, describe) = run_command(&context, Some(pod), Command::Describe, at);
        // describe prints the sources and the value as written, never the
        // resolved version.
        assert!(describe.contains("rollback-pin"), "{describe}");
        assert!(!describe.contains("fraud-detector/6"), "{describe}");
        let (_, env) = run_command(&context, Some(pod), Command::ExecEnv, at);
        assert!(env.contains("MODEL_VERSION=6\n"), "{env}");
        assert!(
            env.contains("MODEL_URI=models:/fraud-detector/6\n"),
            "{env}"
        );
    }

    #[test]
    fn describe_node_shows_what_the_gpu_exercises_turn_on() {
        let check = |id: &str, wanted: &[&str], unwanted: &[&str]| {
            let exercise = library::find(id).expect("in the library");
            let at = exercise.interview.as_ref().expect("interview").at;
            let run = simulate(&exercise.start, &Options::default());
            let context = ExecContext::new(&exercise.start, &run);
            let pod = focus_pod(&run, at).expect("a pod");
            let (_, node) = run_command(&context, Some(pod), Command::DescribeNode, at);
            for text in wanted {
                assert!(node.contains(text), "{id}: {text}\n{node}");
            }
            for text in unwanted {
                assert!(!node.contains(text), "{id}: {text}\n{node}");
            }
        };
        // No device plugin: the node advertises no nvidia.com/gpu.
        check(
            "no-device-plugin",
            &["Name:", "gpu-0", "memory:"],
            &["nvidia.com/gpu:"],
        );
        // The taint is on the GPU node.
        check(
            "gpu-taint",
            &["Taints:", "nvidia.com/gpu=present:NoSchedule"],
            &[],
        );
        // A busy GPU: the first replica's request is allocated.
        check(
            "one-gpu-two-replicas",
            &[
                "nvidia.com/gpu:     1",
                "(1 in total)",
                "cpu                2 (12%)",
                "nvidia.com/gpu     1          1",
            ],
            &[],
        );
    }

    #[test]
    fn score_counts_the_recommended_steps_in_order_and_the_detours() {
        let exercise = library::find("liveness-crash-loop").expect("in the library");
        let interview = exercise.interview.expect("has an interview");
        let correct = interview.causes.iter().position(|c| c.correct);
        let wrong = interview.causes.iter().position(|c| !c.correct);
        let (describe, previous) = (Some(Command::Describe), Some(Command::LogsPrevious));
        let best = score(&interview, &[describe, previous], correct);
        assert_eq!(
            (best.followed, best.detours, best.typed, best.verdict),
            (2, 0, 2, Verdict::Found)
        );
        assert!(best.success());
        // Out of order: only the first step counts; the other is no detour.
        let reversed = score(&interview, &[previous, describe], correct);
        assert_eq!((reversed.followed, reversed.detours), (1, 0));
        // `get events` stands for describe's Events section.
        let events = score(&interview, &[Some(Command::GetEvents), previous], correct);
        assert_eq!(events.followed, 2);
        // A node where the cause is in the pod, and a line that showed
        // nothing about the pod in trouble: two detours.
        let wandering = score(
            &interview,
            &[Some(Command::GetNodes), None, describe],
            wrong,
        );
        assert_eq!(
            (
                wandering.followed,
                wandering.detours,
                wandering.typed,
                wandering.verdict
            ),
            (1, 2, 3, Verdict::Wrong)
        );
        assert!(!wandering.success());
    }

    /// An action before any read of the pod in trouble is a detour a
    /// reviewer notes ("deleted the pod before looking at why it
    /// restarts"); after the reads, an action the path does not take is a
    /// plain detour, and one it takes counts as its step, in order.
    #[test]
    fn an_action_before_reading_the_pod_is_a_detour() {
        let exercise = library::find("liveness-crash-loop").expect("in the library");
        let interview = exercise.interview.expect("has an interview");
        let correct = interview.causes.iter().position(|c| c.correct);
        let (describe, previous) = (Some(Command::Describe), Some(Command::LogsPrevious));
        let delete = Some(Command::DeletePod);
        let early = score(&interview, &[delete, describe, previous], correct);
        assert_eq!(
            (
                early.followed,
                early.detours,
                early.acted_first,
                early.typed
            ),
            (2, 1, 1, 3)
        );
        assert_eq!(early.verdict, Verdict::Found);
        // The same delete after reading: a detour (deleting does not fix a
        // crash loop), not an early one.
        let late = score(&interview, &[describe, previous, delete], correct);
        assert_eq!((late.followed, late.detours, late.acted_first), (2, 1, 0));
        // Without any delete: no detour at all.
        let clean = score(&interview, &[describe, previous], correct);
        assert_eq!((clean.detours, clean.acted_first), (0, 0));
        // A node read is no read of the pod: an action after it is early.
        let nodes_first = score(
            &interview,
            &[Some(Command::GetNodes), Some(Command::Drain), describe],
            correct,
        );
        assert_eq!(
            (
                nodes_first.followed,
                nodes_first.detours,
                nodes_first.acted_first
            ),
            (1, 2, 1)
        );
    }

    /// Where the recommended path ends with an action (`uncordon` after the
    /// drain), doing it after the reads counts as the last step; doing it
    /// first is an early detour, not a step, even though it is the answer.
    #[test]
    fn a_recommended_action_counts_only_after_reading() {
        let exercise = library::find("gpu-node-maintenance").expect("in the library");
        let interview = exercise.interview.expect("has an interview");
        assert_eq!(
            interview.recommended,
            [Command::Describe, Command::GetNodes, Command::Uncordon]
        );
        let correct = interview.causes.iter().position(|c| c.correct);
        let uncordon = Some(Command::Uncordon);
        let path = [Some(Command::Describe), Some(Command::GetNodes), uncordon];
        let full = score(&interview, &path, correct);
        assert_eq!((full.followed, full.recommended, full.detours), (3, 3, 0));
        assert!(full.success());
        let first = score(
            &interview,
            &[uncordon, Some(Command::Describe), Some(Command::GetNodes)],
            correct,
        );
        assert_eq!(
            (first.followed, first.detours, first.acted_first),
            (2, 1, 1)
        );
        // Acting without reading at all: the right cause is a guess, and
        // the action alone does not open the root-cause choices.
        assert!(!investigated(&[uncordon, None]));
        assert!(investigated(&[uncordon, Some(Command::GetNodes)]));
        let blind = score(&interview, &[uncordon], correct);
        assert_eq!((blind.followed, blind.verdict), (0, Verdict::Guessed));
        // `get events` stands for describe here too, and reads the pod.
        let events = score(&interview, &[Some(Command::GetEvents), uncordon], correct);
        assert_eq!(
            (events.followed, events.acted_first, events.detours),
            (1, 0, 0)
        );
    }

    /// `commands` are the reads offered; an action is typed in the
    /// terminal, so it may stand in `recommended` without being offered,
    /// and offering one is reported.
    #[test]
    fn an_action_is_recommended_never_offered() {
        let text = |commands: &str, recommended: &str| {
            format!("apiVersion: podlab.dev/v1alpha1\nkind: Exercise\nmetadata: {{ name: x }}\nspec:\n  title: {{ en: t, zh-TW: t }}\n  story: {{ en: s, zh-TW: s }}\n  goal: {{ en: g, zh-TW: g }}\n  explanation: {{ en: e, zh-TW: e }}\n  goals: [ maxRestarts: 0 ]\n  interview:\n    title: {{ en: t, zh-TW: t }}\n    story: {{ en: s, zh-TW: s }}\n    at: 1m\n    commands: [{commands}]\n    recommended: [{recommended}]\n    causes: [{{ text: {{ en: a, zh-TW: a }}, why: {{ en: b, zh-TW: b }}, correct: true }}]\n")
        };
        let (exercise, diagnostics) = crate::exercise::read(&text("describe", "describe, drain"));
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        let interview = exercise.and_then(|e| e.interview).expect("an interview");
        assert_eq!(interview.recommended, [Command::Describe, Command::Drain]);
        let (exercise, diagnostics) =
            crate::exercise::read(&text("describe, delete-pod", "describe"));
        assert!(
            diagnostics
                .iter()
                .any(|d| d.message.en.contains("an acting command (delete-pod")),
            "{diagnostics:?}"
        );
        assert!(exercise.expect("the rest lowers").interview.is_none());
        // A read that is recommended must still be offered.
        let (_, diagnostics) = crate::exercise::read(&text("describe", "describe, get-nodes"));
        assert!(
            diagnostics
                .iter()
                .any(|d| d.message.en.contains("must be one of `commands`")),
            "{diagnostics:?}"
        );
    }

    #[test]
    fn acting_commands_have_ids_words_and_lines() {
        for command in Command::ALL {
            assert_eq!(Command::parse(command.id()), Some(command));
            assert_eq!(command.acts(), command.acted().is_some(), "{command:?}");
            assert!(!(command.acts() && command.reads_the_pod()), "{command:?}");
            if let Some(words) = command.acted() {
                assert!(!words.en.is_empty() && !words.zh_tw.is_empty());
                let line = command.command_line("model-api-abc", "api", "gpu-0");
                assert!(line.starts_with("kubectl "), "{line}");
            }
        }
        let acting: Vec<&str> = Command::ALL
            .iter()
            .filter(|command| command.acts())
            .map(|command| command.id())
            .collect();
        assert_eq!(
            acting,
            [
                "delete-pod",
                "scale",
                "rollout-restart",
                "cordon",
                "uncordon",
                "drain",
                "patch",
                "label",
                "annotate"
            ]
        );
        assert_eq!(
            Command::Uncordon.command_line("", "", "gpu-0"),
            "kubectl uncordon gpu-0"
        );
        assert_eq!(
            Command::DeletePod.acted().expect("acts").zh_tw,
            "刪除了 Pod"
        );
    }

    /// The right cause with nothing run, or with only detours, is a guess:
    /// no success, and the verdict says so.
    #[test]
    fn a_right_guess_without_investigation_is_not_a_success() {
        let exercise = library::find("oom-loading-peak").expect("in the library");
        let interview = exercise.interview.expect("has an interview");
        let correct = interview.causes.iter().position(|c| c.correct);
        let guess = score(&interview, &[], correct);
        assert_eq!((guess.verdict, guess.typed), (Verdict::Guessed, 0));
        assert!(guess.cause_correct && !guess.success());
        assert!(guess.verdict.text().en.contains("a guess"));
        assert!(guess.verdict.text().zh_tw.contains("用猜的"));
        let detoured = score(&interview, &[Some(Command::GetNodes), None], correct);
        assert_eq!((detoured.verdict, detoured.detours), (Verdict::Guessed, 2));
        assert!(!investigated(&[None]));
        assert!(investigated(&[None, Some(Command::GetNodes)]));
    }

    #[test]
    fn a_bad_interview_is_reported() {
        let text = "apiVersion: podlab.dev/v1alpha1\nkind: Exercise\nmetadata: { name: x }\nspec:\n  title: { en: t, zh-TW: t }\n  story: { en: s, zh-TW: s }\n  goal: { en: g, zh-TW: g }\n  explanation: { en: e, zh-TW: e }\n  goals: [ maxRestarts: 0 ]\n  interview:\n    title: { en: t, zh-TW: t }\n    story: { en: s, zh-TW: s }\n    at: 1m\n    commands: [describe, kubectl-top]\n    causes: []\n";
        let (exercise, diagnostics) = crate::exercise::read(text);
        let messages: Vec<&str> = diagnostics.iter().map(|d| d.message.en.as_str()).collect();
        assert!(
            messages.iter().any(|m| m.contains("\"kubectl-top\"")),
            "{messages:?}"
        );
        assert!(
            messages
                .iter()
                .any(|m| m.contains("exactly one root-cause")),
            "{messages:?}"
        );
        assert!(exercise.expect("the rest lowers").interview.is_none());

        // Without its own title and story (the exercise's name the cause).
        let untitled = text
            .replace(
                "    title: { en: t, zh-TW: t }\n    story: { en: s, zh-TW: s }\n",
                "",
            )
            .replace(
                "causes: []",
                "causes: [{ text: { en: a, zh-TW: a }, why: { en: b, zh-TW: b }, correct: true }]",
            )
            .replace("describe, kubectl-top", "describe");
        let (exercise, diagnostics) = crate::exercise::read(&untitled);
        assert!(
            diagnostics
                .iter()
                .any(|d| d.message.en.contains("its own `title` and `story`")),
            "{diagnostics:?}"
        );
        assert!(exercise.expect("the rest lowers").interview.is_none());
    }
}

/// Interview cases hide their cause (issue 30): the interview's title and
/// story say what a colleague would report, and a learner cannot read the
/// cause from them. The check: none of the right cause's key terms (its
/// words of four letters or more, its acronyms and names such as `T4`,
/// `HPA`, `MODEL_VERSION`, minus the words any report of trouble uses), in
/// either language (the Chinese text's Latin words and its two-character
/// terms), and no number that the exercise's file states (a limit, a load
/// time, a count), in the title or the story.
#[cfg(test)]
mod hides_the_cause {
    use crate::exercise::library;

    /// Words that name no cause: what every report of trouble says.
    const COMMON_EN: &[&str] = &[
        "that",
        "than",
        "with",
        "from",
        "this",
        "they",
        "them",
        "their",
        "there",
        "every",
        "before",
        "after",
        "while",
        "still",
        "only",
        "which",
        "does",
        "have",
        "into",
        "over",
        "when",
        "because",
        "more",
        "less",
        "same",
        "never",
        "also",
        "once",
        "what",
        "pods",
        "pod",
        "model",
        "service",
        "container",
        "team",
        "each",
    ];
    /// Two-character Chinese terms that name no cause.
    const COMMON_ZH: &[&str] = &[
        "模型", "服務", "容器", "沒有", "所以", "一個", "每個", "之前", "之後", "因為", "還在",
        "已經", "就先", "起來", "時候", "一張", "它的", "都在", "上的", "流量",
    ];

    fn normal(word: &str) -> String {
        let lower = word.to_lowercase();
        lower
            .strip_suffix('s')
            .map_or(lower.clone(), str::to_string)
    }

    fn latin_words(text: &str) -> Vec<&str> {
        text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
            .map(|word| word.trim_matches('-'))
            .filter(|word| !word.is_empty())
            .collect()
    }

    /// A cause's key terms in its Latin words.
    fn key_terms(cause: &str) -> Vec<String> {
        latin_words(cause)
            .into_iter()
            .filter(|word| {
                let named = word.len() >= 2
                    && (word.chars().any(|c| c.is_ascii_digit())
                        || word.chars().skip(1).any(|c| c.is_ascii_uppercase()));
                (word.len() >= 4 || named) && !COMMON_EN.contains(&word.to_lowercase().as_str())
            })
            .map(normal)
            .collect()
    }

    fn cjk(c: char) -> bool {
        ('\u{4e00}'..='\u{9fff}').contains(&c)
    }

    /// The Chinese cause's two-character terms.
    fn cjk_terms(cause: &str) -> Vec<String> {
        let chars: Vec<char> = cause.chars().collect();
        chars
            .windows(2)
            .filter(|pair| pair.iter().all(|c| cjk(*c)))
            .map(|pair| pair.iter().collect::<String>())
            .filter(|term| !COMMON_ZH.contains(&term.as_str()))
            .collect()
    }

    /// Numbers as written (`8`, `10`, `0.5`), not digits inside a name
    /// (`P99`, `T4`, `mig-1g`).
    fn numbers(text: &str) -> Vec<String> {
        let chars: Vec<char> = text.chars().collect();
        let mut found = Vec::new();
        let mut index = 0;
        while index < chars.len() {
            if !chars[index].is_ascii_digit() {
                index += 1;
                continue;
            }
            let start = index;
            while index < chars.len()
                && (chars[index].is_ascii_digit()
                    || (chars[index] == '.'
                        && chars.get(index + 1).is_some_and(char::is_ascii_digit)))
            {
                index += 1;
            }
            let in_a_name = start > 0 && chars[start - 1].is_ascii_alphanumeric();
            if !in_a_name {
                found.push(chars[start..index].iter().collect());
            }
        }
        found
    }

    #[test]
    fn the_checks_find_what_they_look_for() {
        assert_eq!(
            numbers("uses 6 GiB, limit 8Gi, P99 on a T4, 0.5."),
            ["6", "8", "0.5"]
        );
        let terms = key_terms("The memory limit is below the loading peak");
        assert_eq!(terms, ["memory", "limit", "below", "loading", "peak"]);
        assert!(key_terms("The HPA scales on CPU").contains(&"hpa".to_string()));
        assert!(cjk_terms("記憶體 limit 低於載入尖峰").contains(&"尖峰".to_string()));
        // The heading the interview showed before issue 30 gives it away.
        let old: Vec<String> = latin_words("OOMKilled at the loading peak")
            .into_iter()
            .map(normal)
            .collect();
        assert!(terms.iter().any(|term| old.contains(term)));
        assert!(
            key_terms("Runs overlap because each needs the only GPU").contains(&"gpu".to_string())
        );
    }

    #[test]
    fn every_interview_title_and_story_hides_the_cause() {
        let mut found = Vec::new();
        for exercise in library::all() {
            let Some(interview) = &exercise.interview else {
                continue;
            };
            let id = &exercise.id;
            let cause = interview
                .causes
                .iter()
                .find(|cause| cause.correct)
                .expect("one right cause");
            let mut stated = exercise.start.clone();
            for text in [&interview.title, &interview.story] {
                stated = stated
                    .replace(text.en.as_str(), "")
                    .replace(text.zh_tw.as_str(), "");
            }
            let stated = numbers(&stated);
            let en_terms = key_terms(&cause.text.en);
            let zh_terms: Vec<String> = key_terms(&cause.text.zh_tw)
                .into_iter()
                .chain(cjk_terms(&cause.text.zh_tw))
                .collect();
            for (lang, text, terms) in [
                (
                    "en",
                    format!("{} {}", interview.title.en, interview.story.en),
                    &en_terms,
                ),
                (
                    "zh-TW",
                    format!("{} {}", interview.title.zh_tw, interview.story.zh_tw),
                    &zh_terms,
                ),
            ] {
                let words: Vec<String> = latin_words(&text).into_iter().map(normal).collect();
                for term in terms {
                    let said = if term.chars().any(cjk) {
                        text.contains(term.as_str())
                    } else {
                        words.contains(term)
                    };
                    if said {
                        found.push(format!("{id} ({lang}): the cause's term \"{term}\""));
                    }
                }
                for number in numbers(&text) {
                    if stated.contains(&number) {
                        found.push(format!("{id} ({lang}): the number {number}"));
                    }
                }
            }
        }
        assert!(found.is_empty(), "giveaways:\n{}", found.join("\n"));
    }
}
