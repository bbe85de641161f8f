//! The exercise library (issue 5): every exercise reads cleanly, its
//! starting file fails at least one goal, its reference solution passes all
//! of them; and every goal kind has a passing and a failing case.

use podlab_core::exercise::{self, goals, library, Goal};
use podlab_core::lint::lint;

#[test]
fn the_library_has_the_exercises_of_the_issue() {
    let all = library::all();
    assert_eq!(all.len(), library::FILES.len());
    assert!(all.len() >= 14);
    for tag in exercise::Tag::ALL {
        assert!(
            all.iter().any(|e| e.tags.contains(&tag)),
            "no exercise tagged {tag:?}"
        );
    }
}

#[test]
fn every_exercise_file_lints_without_reading_errors_and_lowers_cleanly() {
    for (id, start, solution) in library::FILES {
        let (exercise, diagnostics) = exercise::read(start);
        assert!(diagnostics.is_empty(), "{id}: {diagnostics:?}");
        let exercise = exercise.unwrap_or_else(|| panic!("{id} lowers"));
        assert_eq!(exercise.id, *id);
        assert!(exercise.interview.is_some(), "{id} has an interview");
        for file in [start, solution] {
            let report = lint(file);
            let bad: Vec<_> = report
                .diagnostics
                .iter()
                .filter(|d| matches!(d.rule, "PL001" | "PL002" | "PL005"))
                .collect();
            assert!(bad.is_empty(), "{id}: {bad:?}");
        }
    }
}

/// The page checks goals on its own run when it reaches the goals'
/// horizon, with the diagnostics its worker linted (`check_linted`): the
/// results are the same as `check`'s own simulation and lint, and for most
/// exercises the page's run is reused.
#[test]
fn checking_on_the_pages_run_gives_the_same_results() {
    use podlab_core::sim::{simulate, Options};
    let mut reused = 0;
    let all = library::all();
    for exercise in &all {
        let horizon = goals::horizon(exercise, &podlab_core::lint::read(&exercise.start));
        let solution = exercise.solution.clone().unwrap_or_default();
        for text in [&exercise.start, &solution] {
            let run = simulate(text, &Options::default());
            reused += usize::from(run.end == horizon);
            let checked = exercise::check(exercise, text);
            assert_eq!(
                exercise::check_with(exercise, text, Some(&run)),
                checked,
                "{}",
                exercise.id
            );
            let diagnostics = podlab_core::lint::lint(text).diagnostics;
            assert_eq!(
                exercise::check_linted(exercise, text, Some(&run), &diagnostics),
                checked,
                "{}",
                exercise.id
            );
        }
    }
    println!(
        "reused the page's run for {reused} of {} texts",
        all.len() * 2
    );
    assert!(reused >= all.len(), "reused {reused} of {}", all.len() * 2);
}

#[test]
fn every_start_fails_a_goal_and_every_solution_passes_all() {
    for exercise in library::all() {
        let id = &exercise.id;
        let start = exercise::check(&exercise, &exercise.start);
        assert!(
            !goals::solved(&start),
            "{id}: the starting file already passes: {start:#?}"
        );
        // The failure shows in the simulated cluster, not only in the
        // objects the API server would refuse.
        assert!(
            start.iter().any(|r| !r.passed && r.goal != Goal::Accepted),
            "{id}: only `accepted` fails: {start:#?}"
        );
        let solution = exercise
            .solution
            .clone()
            .expect("library exercises have a solution");
        let results = exercise::check(&exercise, &solution);
        let failed: Vec<_> = results.iter().filter(|r| !r.passed).collect();
        assert!(failed.is_empty(), "{id}: the solution fails {failed:#?}");
        // Both languages carry the observed value.
        for result in &results {
            assert!(!result.why.en.is_empty() && !result.why.zh_tw.is_empty());
        }
    }
}

#[test]
fn checking_is_deterministic() {
    let exercise = library::find("timeslice-neighbour").expect("in the library");
    assert_eq!(
        exercise::check(&exercise, &exercise.start),
        exercise::check(&exercise, &exercise.start)
    );
}

// ---- each goal kind, passing and failing --------------------------------------

const SERVING: &str = "apiVersion: apps/v1
kind: Deployment
metadata: { name: api }
spec:
  replicas: 2
  selector: { matchLabels: { app: api } }
  template:
    metadata: { labels: { app: api } }
    spec:
      containers:
        - name: api
          image: registry.example.com/api:1.0
          ports: [{ containerPort: 8000 }]
          env:
            - { name: MODEL_VERSION, value: \"7\" }
          resources:
            limits: { memory: 8Gi, nvidia.com/gpu: 1 }
          startupProbe:
            httpGet: { path: /health, port: 8000 }
            periodSeconds: 10
            failureThreshold: 30
          readinessProbe:
            httpGet: { path: /health, port: 8000 }
            periodSeconds: 5
---
apiVersion: podlab.dev/v1alpha1
kind: Scenario
metadata: { name: s }
spec:
  duration: 10m
  workload:
    - { container: api, startup: 40s, memory: { steady: 4Gi, peak: 6Gi }, gpuMemory: 8Gi }
  cluster:
    nodePools:
      - name: gpu
        count: 2
        cpu: \"8\"
        memory: 32Gi
        gpu: { model: L4, count: 1 }
";

fn exercise_with(goal: &str) -> exercise::Exercise {
    let text = format!(
        "{SERVING}---\napiVersion: podlab.dev/v1alpha1\nkind: Exercise\nmetadata: {{ name: t }}\nspec:\n  title: {{ en: t, zh-TW: t }}\n  story: {{ en: s, zh-TW: s }}\n  goal: {{ en: g, zh-TW: g }}\n  explanation: {{ en: e, zh-TW: e }}\n  goals:\n    - {goal}\n"
    );
    let (exercise, diagnostics) = exercise::read(&text);
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    exercise.expect("lowers")
}

/// The result of the exercise's one written goal on `text`.
fn outcome(goal: &str, text: &str) -> (bool, String) {
    let exercise = exercise_with(goal);
    let results = exercise::check(&exercise, text);
    assert_eq!(results[0].goal, Goal::Accepted);
    let last = results.last().expect("a result");
    (last.passed, last.why.en.clone())
}

#[track_caller]
fn holds(goal: &str, text: &str) {
    let (passed, why) = outcome(goal, text);
    assert!(passed, "{goal} should hold: {why}");
}

#[track_caller]
fn fails(goal: &str, text: &str, because: &str) {
    let (passed, why) = outcome(goal, text);
    assert!(!passed, "{goal} should fail");
    assert!(why.contains(because), "{goal}: {why}");
}

#[test]
fn all_ready_within() {
    holds("allReady: { within: 5m }", SERVING);
    // 40 s of loading: not Ready 20 s in.
    fails("allReady: { within: 20s }", SERVING, "is not Ready");
    // Scaling down to dodge the goal is seen.
    fails(
        "allReady: { within: 5m }",
        &SERVING.replace("replicas: 2", "replicas: 1"),
        "1 pod(s) Ready; the exercise's workloads ask for 2",
    );
}

#[test]
fn max_restarts() {
    holds("maxRestarts: 0", SERVING);
    let crash = SERVING.replace("failureThreshold: 30", "failureThreshold: 2");
    fails("maxRestarts: 0", &crash, "restarted");
}

#[test]
fn job_succeeded() {
    let job = "apiVersion: batch/v1\nkind: Job\nmetadata: { name: train }\nspec:\n  backoffLimit: 1\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n        - name: main\n          image: registry.example.com/trainer:1.0\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: s }\nspec:\n  workload:\n    - { container: main, startup: 0s, runFor: 2m }\n";
    holds("jobSucceeded: { within: 5m, name: train }", job);
    fails(
        "jobSucceeded: { within: 1m, name: train }",
        job,
        "not Complete within 1m",
    );
    let failing = job.replace("runFor: 2m", "exit: { after: 5s, code: 1 }");
    fails(
        "jobSucceeded: { within: 5m }",
        &failing,
        "BackoffLimitExceeded",
    );
}

#[test]
fn no_pending() {
    holds("noPending: {}", SERVING);
    let one_node = SERVING.replace("count: 2\n", "count: 1\n");
    fails(
        "noPending: {}",
        &one_node,
        "was never scheduled: 0/1 nodes are available",
    );
}

#[test]
fn forbid_more_gpus_program_changes_and_taints() {
    holds("forbid: { moreGpus: true, programChanges: true }", SERVING);
    fails(
        "forbid: { moreGpus: true }",
        &SERVING.replace("count: 2\n", "count: 3\n"),
        "the cluster has 3 GPUs; the starting file had 2",
    );
    fails(
        "forbid: { programChanges: true }",
        &SERVING.replace("startup: 40s", "startup: 5s"),
        "program for container api changed",
    );
    let tainted = SERVING.replace(
        "gpu: { model: L4, count: 1 }",
        "gpu: { model: L4, count: 1 }\n        taints: [{ key: nvidia.com/gpu, value: present, effect: NoSchedule }]",
    );
    let exercise = {
        let mut exercise = exercise_with("forbid: { removeTaints: true }");
        exercise.start = tainted.clone();
        exercise
    };
    let results = exercise::check(&exercise, SERVING);
    let last = results.last().expect("a result");
    assert!(!last.passed);
    assert!(
        last.why
            .en
            .contains("lost its taint nvidia.com/gpu:NoSchedule"),
        "{}",
        last.why
    );
}

#[test]
fn max_memory_limit() {
    holds("maxMemoryLimit: 8Gi", SERVING);
    fails(
        "maxMemoryLimit: 4Gi",
        SERVING,
        "has a memory limit of 8Gi, more than 4Gi",
    );
    fails(
        "maxMemoryLimit: 16Gi",
        &SERVING.replace("limits: { memory: 8Gi, ", "limits: { "),
        "has no memory limit",
    );
}

/// Init containers count in the goals about containers (issue 29): one
/// whose download fails restarts (`Init:CrashLoopBackOff`), and its memory
/// limit is bounded like the app's.
#[test]
fn init_containers_count_in_restarts_and_memory_limits() {
    let with_init = |limit: &str, scenario: &str| {
        SERVING
            .replace(
                "    spec:\n      containers:\n",
                &format!("    spec:\n      initContainers:\n        - name: fetch\n          image: registry.example.com/fetch:1.0\n          resources: {{ limits: {{ memory: {limit} }} }}\n      containers:\n"),
            )
            .replace(
                "  workload:\n",
                &format!("  workload:\n    - {{ container: fetch, {scenario} }}\n"),
            )
    };
    let fetched = with_init("2Gi", "runFor: 10s");
    holds("maxRestarts: 0", &fetched);
    holds("maxMemoryLimit: 8Gi", &fetched);
    holds("readyOnlyWhenLoaded: {}", &fetched);
    let failing = with_init("2Gi", "exit: { after: 5s, code: 1 }");
    fails("maxRestarts: 0", &failing, "container fetch of api-");
    let large = with_init("16Gi", "runFor: 10s");
    fails(
        "maxMemoryLimit: 8Gi",
        &large,
        "container fetch has a memory limit of 16Gi, more than 8Gi",
    );
}

#[test]
fn exec_equals_reads_the_emulated_environment() {
    let goal = "exec: { container: api, command: printenv MODEL_VERSION, equals: \"7\" }";
    holds(goal, SERVING);
    fails(
        goal,
        &SERVING.replace("value: \"7\"", "value: \"6\""),
        "prints 6, not 7",
    );
}

#[test]
fn sees_gpu() {
    holds("seesGpu: { container: api }", SERVING);
    fails(
        "seesGpu: { container: api }",
        &SERVING.replace(
            "limits: { memory: 8Gi, nvidia.com/gpu: 1 }",
            "limits: { memory: 8Gi }",
        ),
        "No devices were found",
    );
}

#[test]
fn ready_only_when_loaded() {
    holds("readyOnlyWhenLoaded: {}", SERVING);
    let no_readiness = SERVING
        .replace("          startupProbe:\n            httpGet: { path: /health, port: 8000 }\n            periodSeconds: 10\n            failureThreshold: 30\n", "")
        .replace("          readinessProbe:\n            httpGet: { path: /health, port: 8000 }\n            periodSeconds: 5\n", "");
    fails(
        "readyOnlyWhenLoaded: {}",
        &no_readiness,
        "its model answers only from",
    );
}

/// `rolloutComplete` on the GPU trap (docs/rollouts.md): two replicas on
/// the two GPUs, rolled out at 1m. The default strategy's surge pod stays
/// Pending and the deadline passes at 60 + 600 + 1 s; `maxSurge: 0,
/// maxUnavailable: 1` completes.
#[test]
fn rollout_complete() {
    let rollout =
        "  rollout:\n    - { at: 1m, workload: api, image: registry.example.com/api:1.1 }\n";
    let stuck = SERVING.replace("duration: 10m", "duration: 12m") + rollout;
    let fixed = stuck.replace(
        "  replicas: 2\n",
        "  replicas: 2\n  strategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } }\n",
    );
    let mut exercise = exercise_with("rolloutComplete: api");
    exercise.start = stuck.clone();
    let outcome = |text: &str| {
        let results = exercise::check(&exercise, text);
        let last = results.last().expect("a result").clone();
        assert_eq!(last.goal.key(), "rolloutComplete");
        (last.passed, last.why)
    };
    let (passed, why) = outcome(&fixed);
    assert!(passed, "{why}");
    assert!(
        why.en
            .contains("Deployment api completed its rollout at 2m43s")
            && why.en.ends_with("2/2 pods updated and available"),
        "{why}"
    );
    assert!(why.zh_tw.contains("完成 rollout"), "{why}");
    let (passed, why) = outcome(&stuck);
    assert!(!passed);
    assert!(
        why.en
            .starts_with("at 11m1s, Progressing False ProgressDeadlineExceeded: ReplicaSet \"api-"),
        "{why}"
    );
    // Removing the Scenario's rollout is no fix.
    let (passed, why) = outcome(&fixed.replace(rollout, ""));
    assert!(!passed);
    assert!(
        why.en
            .contains("was never rolled out to registry.example.com/api:1.1"),
        "{why}"
    );
    // Rolled out too late to finish in the exercise's window.
    let (passed, why) = outcome(&fixed.replace("at: 1m,", "at: 11m50s,"));
    assert!(!passed);
    assert!(why.en.contains("of 2 pods updated"), "{why}");
    fails(
        "rolloutComplete: chat",
        SERVING,
        "there is no Deployment chat",
    );
}

#[test]
fn accepted_fails_on_what_the_api_server_rejects() {
    let exercise = exercise_with("maxRestarts: 0");
    let typo = SERVING.replace("readinessProbe", "readynessProbe");
    let results = exercise::check(&exercise, &typo);
    assert!(!results[0].passed);
    assert!(
        results[0].why.en.contains("readinessProbe"),
        "{}",
        results[0].why
    );
    let fractional = SERVING.replace("nvidia.com/gpu: 1", "nvidia.com/gpu: 0.5");
    assert!(!exercise::check(&exercise, &fractional)[0].passed);
    assert!(exercise::check(&exercise, SERVING)[0].passed);
    // The learner's copy of the Exercise document is not sent to the API
    // server: a mistake in it does not count.
    let with_exercise = format!(
        "{SERVING}---\napiVersion: podlab.dev/v1alpha1\nkind: Exercise\nmetadata: {{ name: t }}\nspec:\n  titel: x\n"
    );
    assert!(!lint(&with_exercise).diagnostics.is_empty());
    assert!(exercise::check(&exercise, &with_exercise)[0].passed);
}

#[test]
fn broken_exercise_files_never_panic() {
    for (_, start, _) in library::FILES {
        // Every few line-boundary prefixes, and the whole file with its
        // structure damaged in a few ways.
        for (index, _) in start.match_indices('\n').step_by(5) {
            let prefix = start.get(..index).unwrap_or("");
            let _ = exercise::read(prefix);
            let _ = lint(prefix);
        }
        for damaged in [
            start.replace("en: ", "en: [").replace("zh-TW:", "zh-TW: {"),
            start.replace("  goals:", "  goals: 3\n  x:"),
            start.replace("within: ", "within: -"),
            start.replace("- ", ""),
            start.replace(": ", ": &a ").replace("\n  ", "\n  *a "),
        ] {
            let _ = exercise::read(&damaged);
            let _ = lint(&damaged);
        }
    }
    let exercise = library::find("liveness-crash-loop").expect("in the library");
    let half: String = exercise
        .start
        .chars()
        .take(exercise.start.chars().count() / 2)
        .collect();
    for text in [
        "",
        "---\n",
        "kind: Exercise\n",
        "{",
        "spec: [",
        half.as_str(),
    ] {
        let results = exercise::check(&exercise, text);
        assert!(!goals::solved(&results), "{text:?} solves it");
    }
}

// ---- rendered interview outputs (insta snapshots) -----------------------------

fn interview_output(id: &str, command: exercise::Command) -> String {
    use podlab_core::exercise::{exec::ExecContext, interview};
    use podlab_core::sim::{simulate, Options};
    let exercise = library::find(id).expect("in the library");
    let at = exercise.interview.as_ref().expect("interview").at;
    let run = simulate(&exercise.start, &Options::default());
    let context = ExecContext::new(&exercise.start, &run);
    let pod = interview::focus_pod(&run, at).expect("a pod");
    let (line, output) = interview::run_command(&context, Some(pod), command, at);
    format!("$ {line}\n{output}")
}

#[test]
fn nvidia_smi_of_the_time_sliced_neighbour() {
    insta::assert_snapshot!(
        "timeslice_neighbour_nvidia_smi",
        interview_output("timeslice-neighbour", exercise::Command::ExecNvidiaSmi)
    );
}

#[test]
fn env_of_the_silent_failure() {
    insta::assert_snapshot!(
        "silent_model_version_env",
        interview_output("silent-model-version", exercise::Command::ExecEnv)
    );
}

#[test]
fn describe_node_with_the_gpu_taken() {
    insta::assert_snapshot!(
        "one_gpu_two_replicas_describe_node",
        interview_output("one-gpu-two-replicas", exercise::Command::DescribeNode)
    );
}

#[test]
fn get_events_of_the_cronjob_overlap() {
    insta::assert_snapshot!(
        "cronjob_overlap_get_events",
        interview_output("cronjob-overlap", exercise::Command::GetEvents)
    );
}

#[test]
fn the_ids_name_every_embedded_file_in_order() {
    let ids: Vec<&str> = library::FILES.iter().map(|(id, _, _)| *id).collect();
    assert_eq!(ids, library::IDS);
    for (id, start, solution) in library::FILES {
        let exercise = library::from_files(start, Some(solution)).expect("reads");
        assert_eq!(exercise.id, *id);
    }
}

/// Issue 12 item 3: the learner's editor holds only what the learner may
/// change. Its text names no cause (no comment, no Exercise document, no
/// `correct:` answer, no explanation), keeps every manifest and the
/// Scenario unchanged, and is judged exactly like the whole file: the start
/// fails the same goals, the solution (also shown without its Exercise
/// document) solves.
#[test]
fn the_learners_text_keeps_the_manifests_and_none_of_the_answers() {
    for exercise in library::all() {
        let id = &exercise.id;
        let learner = exercise::learner_text(&exercise.start);
        assert!(!learner.contains("kind: Exercise"), "{id}:\n{learner}");
        assert!(!learner.contains("correct:"), "{id}");
        assert!(
            !learner.contains(exercise.explanation.get(podlab_core::i18n::Lang::En)),
            "{id}"
        );
        assert!(
            learner
                .lines()
                .all(|line| !line.trim_start().starts_with('#')),
            "{id}: a comment line is left:\n{learner}"
        );
        // The same objects and Scenario as the whole file: the same run,
        // event for event.
        let options = podlab_core::sim::Options::default();
        let (whole, kept) = (
            podlab_core::sim::simulate(&exercise.start, &options),
            podlab_core::sim::simulate(&learner, &options),
        );
        // (Pod names hash the text they were made from, so compare the
        // rest of each event.)
        let shape = |run: &podlab_core::sim::Run| {
            run.events
                .iter()
                .map(|e| (e.at, e.reason, e.warning, e.field_path.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(shape(&kept), shape(&whole), "{id}");
        assert_eq!(kept.refused, whole.refused, "{id}");
        // Judged the same way: the start fails, and fails the same goals.
        let (on_whole, on_learner) = (
            exercise::check(&exercise, &exercise.start),
            exercise::check(&exercise, &learner),
        );
        assert!(!goals::solved(&on_learner), "{id}: the start solves");
        let passed =
            |results: &[exercise::GoalResult]| results.iter().map(|r| r.passed).collect::<Vec<_>>();
        assert_eq!(passed(&on_learner), passed(&on_whole), "{id}");
        let solution = exercise::learner_text(exercise.solution.as_deref().unwrap_or_default());
        assert!(!solution.contains("kind: Exercise"), "{id}");
        assert!(
            goals::solved(&exercise::check(&exercise, &solution)),
            "{id}: the solution as the learner sees it does not solve"
        );
    }
}

/// Issue 12 item 3: where a goal forbids changing the program, the page
/// locks the Scenario's `workload` entry: from its key's line to the end
/// of its value, nothing before or after it.
#[test]
fn the_workload_is_locked_only_where_a_goal_forbids_program_changes() {
    let liveness = library::find("liveness-crash-loop").expect("in the library");
    let text = exercise::learner_text(&liveness.start);
    let span = exercise::locked_span(&liveness, &text).expect("locked");
    let locked = &text[span.start..span.end];
    assert!(locked.starts_with("  workload:\n"), "{locked:?}");
    assert!(locked.contains("startup: 40s"), "{locked:?}");
    assert!(locked.trim_end().ends_with("peak: 6Gi }"), "{locked:?}");
    assert!(!text[..span.start].contains("workload"));
    let mut locked_any = 0;
    for exercise in library::all() {
        let forbids = exercise.goals.iter().any(|goal| {
            matches!(
                goal,
                Goal::Forbid {
                    program_changes: true,
                    ..
                }
            )
        });
        let span = exercise::locked_span(&exercise, &exercise::learner_text(&exercise.start));
        assert_eq!(span.is_some(), forbids, "{}", exercise.id);
        locked_any += usize::from(span.is_some());
    }
    assert!(locked_any >= 3, "{locked_any}");
}

/// The `edge` goal (docs/exercises.md, docs/map.md): the learner's number is
/// the edge of the starting file's healthy region: one step below says
/// "higher", one step above "lower", only the edge passes; and what else the
/// learner changed does not count (the runs are of the starting file).
#[test]
fn the_edge_goal_passes_only_at_the_edge() {
    let exercise = library::find("load-time-edge").expect("in the library");
    let start = library::FILES
        .iter()
        .find(|(id, _, _)| *id == "load-time-edge")
        .map(|(_, start, _)| *start)
        .expect("in the library");
    let edge_goal = |text: &str| {
        goals::check(&exercise, text)
            .into_iter()
            .find(|result| matches!(result.goal, Goal::Edge { .. }))
            .expect("an edge goal")
    };
    for (startup, passed, says) in [
        ("37s", false, "the edge is higher"),
        ("38s", true, "that is the edge"),
        ("39s", false, "the edge is lower"),
    ] {
        let text = start.replace("startup: 40s", &format!("startup: {startup}"));
        let result = edge_goal(&text);
        assert_eq!(result.passed, passed, "{startup}: {}", result.why.en);
        assert!(result.why.en.contains(says), "{startup}: {}", result.why.en);
        assert!(!result.why.zh_tw.is_empty() && result.why.zh_tw != result.why.en);
    }
    // A startupProbe added by the learner does not move the starting
    // file's edge: 45s is still past it.
    let text = start.replace("startup: 40s", "startup: 45s").replace(
        "          livenessProbe:",
        "          startupProbe:\n            httpGet: { path: /health, port: 8000 }\n            failureThreshold: 30\n          livenessProbe:",
    );
    assert!(!edge_goal(&text).passed);
}

/// `keepActions`: the starting file's actions must still happen, at their
/// times, however they are written; removing the drain or moving it is
/// seen (the exercise `gpu-node-maintenance` acts after its drain).
#[test]
fn keep_actions() {
    let maintenance = library::find("gpu-node-maintenance").expect("in the library");
    let solution = maintenance.solution.clone().expect("a solution");
    let keep = |text: &str| {
        exercise::check(&maintenance, text)
            .into_iter()
            .find(|result| result.goal == Goal::KeepActions)
            .map(|result| (result.passed, result.why.en))
            .expect("the goal is checked")
    };
    assert_eq!(
        keep(&solution),
        (true, "the starting file's 1 action(s) still happen".into())
    );
    // The same drain written in flow style, after the uncordon.
    let reordered = solution.replace(
        "    - at: 4m\n      drain: { node: gpu-0 }\n    - { at: 7m, uncordon: { node: gpu-0 } }",
        "    - { at: 7m, uncordon: { node: gpu-0 } }\n    - { at: 4m, drain: { node: gpu-0 } }",
    );
    assert_ne!(reordered, solution);
    assert!(keep(&reordered).0, "{:?}", keep(&reordered));
    for changed in [
        solution.replace("drain: { node: gpu-0 }", "cordon: { node: gpu-0 }"),
        solution.replace("- at: 4m\n", "- at: 5m\n"),
        solution.replace("    - at: 4m\n      drain: { node: gpu-0 }\n", ""),
    ] {
        assert_ne!(changed, solution);
        let (passed, why) = keep(&changed);
        assert!(!passed, "{why}");
        assert!(
            why.contains("action `drain` at 4m is gone or changed"),
            "{why}"
        );
    }
    // Without the drain the other goals would pass: `keepActions` is what
    // makes the answer an action after the maintenance.
    let undrained = maintenance
        .start
        .replace("    - at: 4m\n      drain: { node: gpu-0 }\n", "");
    let results = exercise::check(&maintenance, &undrained);
    let failed: Vec<&Goal> = results
        .iter()
        .filter(|result| !result.passed)
        .map(|result| &result.goal)
        .collect();
    assert_eq!(failed, [&Goal::KeepActions]);
}
