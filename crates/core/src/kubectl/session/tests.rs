use super::*;
use crate::exercise::interview::{focus_pod, score};
use crate::exercise::library;
use crate::sim::{simulate, Options, Run};

/// One pod with a ConfigMap in its environment and a memory-backed
/// /dev/shm, healthy after a 60 s load.
const HEALTHY: &str = "apiVersion: v1
kind: ConfigMap
metadata: { name: model-config }
data:
  MODEL_NAME: fraud
---
apiVersion: apps/v1
kind: Deployment
metadata: { name: model-api }
spec:
  replicas: 1
  selector: { matchLabels: { app: model-api } }
  template:
    metadata: { labels: { app: model-api } }
    spec:
      containers:
        - name: api
          image: ghcr.io/acme/api:1.0
          envFrom:
            - configMapRef: { name: model-config }
          volumeMounts:
            - { name: dshm, mountPath: /dev/shm }
          resources:
            limits: { memory: 12Gi }
          ports: [{ containerPort: 8080 }]
      volumes:
        - name: dshm
          emptyDir: { medium: Memory, sizeLimit: 2Gi }
---
apiVersion: podlab.dev/v1alpha1
kind: Scenario
metadata: { name: s }
spec:
  duration: 5m
  workload:
    - container: api
      startup: 60s
      memory: { steady: 2Gi, peak: 3Gi }
      shm: 256Mi
      workers: 2
  cluster:
    nodePools:
      - { name: cpu, count: 1, cpu: \"16\", memory: 64Gi }
";

fn pod_name(run: &Run) -> String {
    run.pods.first().expect("a pod").name.clone()
}

#[test]
fn exec_it_sh_opens_a_shell_whose_lines_run_in_the_container_until_exit() {
    let run = simulate(HEALTHY, &Options::default());
    let context = ExecContext::new(HEALTHY, &run);
    let pod = pod_name(&run);
    let mut session = Session::new();
    assert_eq!(session.prompt(), "$ ");
    let open = session.run(&context, &format!("kubectl exec -it {pod} -- sh"), 120_000);
    assert_eq!(open.prompt, "$ ");
    assert_eq!(open.output.exit_code, 0);
    assert_eq!(open.output.stdout, "");
    assert_eq!(session.prompt(), "# ");
    assert_eq!(
        session.shell(),
        Some(&Shell {
            pod: pod.clone(),
            container: "api".into()
        })
    );

    let env = session.run(&context, "env", 120_000);
    assert_eq!(env.prompt, "# ");
    assert!(
        env.output.stdout.contains("MODEL_NAME=fraud\n"),
        "{}",
        env.output.stdout
    );
    assert_eq!(env.reveals, Some(interview::Command::ExecEnv));
    assert_eq!(env.pods, [pod.as_str()]);

    let echo = session.run(
        &context,
        "echo model is $MODEL_NAME ${MODEL_NAME}x $NOPE.",
        120_000,
    );
    assert_eq!(echo.output.stdout, "model is fraud fraudx .\n");

    let df = session.run(&context, "df -h /dev/shm", 120_000);
    // min(node 64Gi, pod limit 12Gi, sizeLimit 2Gi) = 2Gi; 2 × 256Mi used.
    assert_eq!(
        df.output.stdout,
        "Filesystem      Size  Used Avail Use% Mounted on\n\
         tmpfs           2.0G  512M  1.5G  25% /dev/shm\n"
    );

    let unknown = session.run(&context, "python -c 1", 120_000);
    assert_eq!(unknown.output.exit_code, 127);
    assert!(unknown.output.notes[0]
        .en
        .contains("does not emulate `python`"));

    let exit = session.run(&context, "exit 3", 120_000);
    assert_eq!(exit.output.stderr, "command terminated with exit code 3\n");
    assert_eq!(session.prompt(), "$ ");
    assert_eq!(session.shell(), None);
}

#[test]
fn a_shell_cannot_open_in_a_container_that_is_not_running_and_ends_when_it_stops() {
    let exercise = library::find("liveness-crash-loop").expect("in the library");
    let run = simulate(&exercise.start, &Options::default());
    let context = ExecContext::new(&exercise.start, &run);
    let pod = pod_name(&run);
    let container = &run.pods[0].containers[0];
    // A time the first instance runs, and one it has exited.
    let running = container.instances[0].started + 1_000;
    let exited = container.instances[0].exit.as_ref().expect("killed").at + 1;
    let mut session = Session::new();
    let refused = session.run(&context, &format!("exec -it {pod} -- bash"), exited);
    assert_eq!(refused.output.exit_code, 1);
    assert!(
        refused
            .output
            .stderr
            .starts_with("error: Internal error occurred: unable to upgrade connection"),
        "{}",
        refused.output.stderr
    );
    assert_eq!(session.shell(), None);

    session.run(&context, &format!("exec -it {pod} -- sh"), running);
    assert!(session.shell().is_some());
    let after = session.run(&context, "env", exited);
    assert_eq!(after.output.exit_code, 1);
    assert!(after.output.notes[0].en.contains("the shell has ended"));
    assert_eq!(session.shell(), None);

    let missing = session.run(&context, "exec -it nothing -- sh", running);
    assert_eq!(
        missing.output.stderr,
        "Error from server (NotFound): pods \"nothing\" not found\n"
    );
}

#[test]
fn apply_needs_a_file_and_answers_unchanged() {
    let run = simulate(HEALTHY, &Options::default());
    let context = ExecContext::new(HEALTHY, &run);
    let mut session = Session::new();
    let bare = session.run(&context, "kubectl apply", 0);
    // kubectl v1.35.2, run without -f or -k.
    assert_eq!(bare.output.stderr, "error: must specify one of -f and -k\n");
    assert_eq!(bare.output.exit_code, 1);
    let applied = session.run(&context, "kubectl apply -f model.yaml", 0);
    assert_eq!(
        applied.output.stdout,
        "deployment.apps/model-api unchanged\n"
    );
    assert_eq!(applied.reveals, Some(interview::Command::Apply));
}

#[test]
fn tab_offers_commands_flags_types_and_the_names_that_exist_then() {
    let run = simulate(HEALTHY, &Options::default());
    let context = ExecContext::new(HEALTHY, &run);
    let pod = pod_name(&run);
    let session = Session::new();
    let offer = |line: &str| session.complete(&context, line, 120_000);
    assert_eq!(offer("").candidates, ["kubectl"]);
    assert_eq!(
        offer("kubectl lo"),
        Completion {
            from: 8,
            candidates: vec!["logs".into()]
        }
    );
    assert_eq!(offer("k describe p").candidates, ["pod"]);
    assert_eq!(offer("kubectl describe pod m").candidates, [pod.as_str()]);
    assert_eq!(offer("kubectl describe pod m").from, 21);
    assert_eq!(offer("kubectl logs m").candidates, [pod.as_str()]);
    assert_eq!(
        offer(&format!("kubectl logs {pod} --prev")).candidates,
        ["--previous"]
    );
    assert_eq!(
        offer(&format!("kubectl logs {pod} -c ")).candidates,
        ["api"]
    );
    assert_eq!(offer("kubectl exec -it m").candidates, [pod.as_str()]);
    assert_eq!(
        offer(&format!("kubectl exec -it {pod} -- nv")).candidates,
        ["nvidia-smi"]
    );
    assert_eq!(offer("kubectl get no").candidates, ["nodes"]);
    assert_eq!(offer("kubectl get al").candidates, ["all"]);
    assert_eq!(offer("kubectl describe con").candidates, ["configmap"]);
    assert_eq!(offer("kubectl describe sec").candidates, ["secret"]);
    assert_eq!(offer("kubectl get nodes c").candidates, ["cpu-0"]);
    // The acting commands: their subcommands, objects and flags.
    assert_eq!(offer("kubectl rollout u").candidates, ["undo"]);
    assert_eq!(offer("kubectl set r").candidates, ["resources"]);
    let deployment = format!("deployment/{}", run.deployments[0].name);
    assert_eq!(
        offer("kubectl set resources d").candidates,
        [deployment.as_str()]
    );
    assert_eq!(offer("kubectl patch d").candidates, [deployment.as_str()]);
    assert_eq!(
        offer(&format!("kubectl set resources {deployment} --li")).candidates,
        ["--limits=memory="]
    );
    assert_eq!(offer("kubectl delete pod m").candidates, [pod.as_str()]);
    assert_eq!(offer("kubectl drain c").candidates, ["cpu-0"]);
    assert_eq!(offer("kubectl label n").candidates, ["node"]);
    assert_eq!(offer("kubectl label node c").candidates, ["cpu-0"]);
    assert_eq!(offer("kubectl annotate pod m").candidates, [pod.as_str()]);
    assert_eq!(
        offer("kubectl label node cpu-0 a=b --ov").candidates,
        ["--overwrite"]
    );
    assert_eq!(offer("kubectl get pods -o w").candidates, ["wide"]);
    assert_eq!(
        offer("kubectl get pods -o js").candidates,
        ["json", "jsonpath={.items[*].metadata.name}"]
    );
    let labels = offer("kubectl get pods -l ").candidates;
    assert!(
        labels.iter().any(|label| label.starts_with("app=")),
        "{labels:?}"
    );
    assert_eq!(
        offer("kubectl get pods --no-h").candidates,
        ["--no-headers"]
    );
    assert!(offer("kubectl frob x")
        .candidates
        .iter()
        .all(|c| c.starts_with('x')));

    let mut shell = Session::new();
    shell.run(&context, &format!("exec -it {pod} -- sh"), 120_000);
    let offer = |line: &str| shell.complete(&context, line, 120_000);
    assert_eq!(offer("nv").candidates, ["nvidia-smi"]);
    assert_eq!(offer("df ").candidates, ["-h"]);
    assert_eq!(offer("df -h /d").candidates, ["/dev/shm"]);
    assert_eq!(offer("e").candidates, ["env", "echo", "exit"]);
}

/// The article's commands typed in the crash-loop interview at 5:00, while
/// the container waits out its back-off: `logs` then reads the last
/// terminated instance (`validateContainerLogStatus`), the same one
/// `--previous` reads, and counts as it; full marks.
#[test]
fn typed_commands_score_the_interview_and_logs_in_back_off_reads_the_previous_instance() {
    let exercise = library::find("liveness-crash-loop").expect("in the library");
    let interview = exercise.interview.as_ref().expect("an interview");
    let run = simulate(&exercise.start, &Options::default());
    let context = ExecContext::new(&exercise.start, &run);
    let at = interview.at;
    let focus = focus_pod(&run, at).expect("a pod").name.clone();
    let prefix = &focus[..1];
    let mut session = Session::new();
    let typed: Vec<Entry> = [
        format!("kubectl describe pod {prefix}"),
        format!("kubectl logs {focus}"),
        format!("kubectl logs {focus} --previous"),
        "kubectl get pods".to_string(),
        "kubectl describe pod nothing".to_string(),
    ]
    .iter()
    .map(|line| session.run(&context, line, at))
    .collect();
    assert!(typed[0].output.stdout.contains("Liveness probe failed"));
    assert_eq!(typed[1].output.stdout, typed[2].output.stdout);
    let path = evidence(&typed, Some(&focus));
    assert_eq!(
        path,
        [
            interview::Command::Describe,
            interview::Command::LogsPrevious,
            interview::Command::LogsPrevious
        ]
    );
    let right = interview.causes.iter().position(|c| c.correct);
    // Scored line by line: `get pods` again and the NotFound showed nothing
    // about the pod in trouble, two detours among five lines.
    let lines = steps(&typed, Some(&focus));
    assert_eq!(lines.iter().flatten().copied().collect::<Vec<_>>(), path);
    assert_eq!((lines[3], lines[4]), (None, None));
    let scored = score(interview, &lines, right);
    assert_eq!(
        (
            scored.followed,
            scored.recommended,
            scored.detours,
            scored.typed
        ),
        (2, 2, 2, 5)
    );
    assert!(scored.cause_correct && scored.success());
    let remarks: Vec<Option<Text>> = typed
        .iter()
        .map(|entry| remark(&run, interview, entry, Some(&focus)))
        .collect();
    assert_eq!(remarks[0..4], [None, None, None, None]);
    assert!(remarks[4]
        .as_ref()
        .expect("NotFound")
        .en
        .starts_with("nothing learned"));
}

/// In the worker-OOM interview at 5:00 the container runs again after its
/// restarts: `logs` shows the new instance, only loading, and gets the
/// remark (the article's point); `--previous` shows the one that died.
#[test]
fn logs_without_previous_on_a_restarted_running_container_gets_the_remark() {
    let exercise = library::find("oom-workers").expect("in the library");
    let interview = exercise.interview.as_ref().expect("an interview");
    let run = simulate(&exercise.start, &Options::default());
    let context = ExecContext::new(&exercise.start, &run);
    let at = interview.at;
    let focus = focus_pod(&run, at).expect("a pod").name.clone();
    let mut session = Session::new();
    let logs = session.run(&context, &format!("kubectl logs {focus}"), at);
    let previous = session.run(&context, &format!("kubectl logs {focus} --previous"), at);
    assert_ne!(logs.output.stdout, previous.output.stdout);
    assert_eq!(
        evidence(&[logs.clone(), previous.clone()], Some(&focus)),
        [interview::Command::Logs, interview::Command::LogsPrevious]
    );
    let said = remark(&run, interview, &logs, Some(&focus)).expect("a remark");
    assert!(said.en.contains("add `--previous`"), "{}", said.en);
    assert!(said.zh_tw.contains("--previous"));
    assert_eq!(remark(&run, interview, &previous, Some(&focus)), None);
}

#[test]
fn get_events_counts_for_describe_where_describe_is_recommended() {
    let exercise = library::find("liveness-crash-loop").expect("in the library");
    let interview = exercise.interview.as_ref().expect("an interview");
    assert!(interview
        .recommended
        .contains(&interview::Command::Describe));
    let path = [
        Some(interview::Command::GetEvents),
        Some(interview::Command::LogsPrevious),
    ];
    let scored = score(interview, &path, None);
    assert_eq!((scored.followed, scored.detours), (2, 0));
    let path = [
        Some(interview::Command::GetNodes),
        Some(interview::Command::LogsPrevious),
    ];
    let scored = score(interview, &path, None);
    assert_eq!((scored.followed, scored.detours), (0, 1));
}

/// Issue 30: `kubeclt` is not a program; bash says so, podlab asks whether
/// `kubectl` was meant. A kubectl word without `kubectl` stays kubectl's.
#[test]
fn a_mistyped_kubectl_gets_what_a_shell_prints_and_a_suggestion() {
    let run = simulate(HEALTHY, &Options::default());
    let context = ExecContext::new(HEALTHY, &run);
    let mut session = Session::default();
    for (line, program) in [
        ("kubeclt get pods", "kubeclt"),
        ("$ kubetcl describe pod x", "kubetcl"),
        ("kubect", "kubect"),
    ] {
        let entry = session.run(&context, line, 60_000);
        assert_eq!(
            entry.output.stderr,
            format!("bash: {program}: command not found\n"),
            "{line}"
        );
        assert_eq!(entry.output.exit_code, 127);
        assert!(entry.output.notes[0].en.contains("did you mean `kubectl`?"));
        assert!(entry.output.notes[0].zh_tw.contains("`kubectl`"));
        assert!(entry.output.stdout.is_empty());
    }
    // Not near `kubectl`, or a kubectl command: kubectl's own words.
    let entry = session.run(&context, "frobnicate", 60_000);
    assert_eq!(
        entry.output.stderr,
        "error: unknown command \"frobnicate\" for \"kubectl\"\n"
    );
    let entry = session.run(&context, "get pods", 60_000);
    assert_eq!(entry.output.exit_code, 0);
    assert!(entry.output.stdout.starts_with("NAME"));
}

/// The interview of exercise `id`: the exercise, its run, and the name of
/// the pod it is about.
fn interview_of(id: &str) -> (crate::exercise::Exercise, Run, String) {
    let exercise = library::find(id).expect("in the library");
    let at = exercise.interview.as_ref().expect("an interview").at;
    let run = simulate(&exercise.start, &Options::default());
    let focus = focus_pod(&run, at).expect("a pod").name.clone();
    (exercise, run, focus)
}

/// `lines` typed one after another in the interview's terminal, at its time.
fn typed(exercise: &crate::exercise::Exercise, run: &Run, lines: &[String]) -> Vec<Entry> {
    let at = exercise.interview.as_ref().expect("an interview").at;
    let context = ExecContext::new(&exercise.start, run);
    let mut session = Session::new();
    lines
        .iter()
        .map(|line| session.run(&context, line, at))
        .collect()
}

/// Issue 33 item 4: the acting commands typed in interview mode are steps.
/// In the drained-node interview, `uncordon` first is an early detour with
/// the reviewer's remark in both languages; after `describe` and `get
/// nodes` it is the recommended path's last step, full marks, and what it
/// records is the exercise's answer.
#[test]
fn an_action_typed_before_reading_is_an_early_detour_and_after_it_a_step() {
    let (exercise, run, focus) = interview_of("gpu-node-maintenance");
    let interview = exercise.interview.clone().expect("an interview");
    let right = interview.causes.iter().position(|c| c.correct);
    let uncordon = "kubectl uncordon gpu-0".to_string();
    let describe = format!("kubectl describe pod {focus}");
    let get_nodes = "kubectl get nodes".to_string();

    let early = typed(&exercise, &run, &[uncordon.clone(), describe.clone()]);
    assert_eq!(early[0].output.stdout, "node/gpu-0 uncordoned\n");
    assert_eq!(early[0].reveals, Some(interview::Command::Uncordon));
    let lines = steps(&early, Some(&focus));
    assert_eq!(
        lines,
        [
            Some(interview::Command::Uncordon),
            Some(interview::Command::Describe)
        ]
    );
    let scored = score(&interview, &lines, right);
    assert_eq!(
        (scored.followed, scored.detours, scored.acted_first),
        (1, 1, 1)
    );
    let notes = remarks(&run, &interview, &early, Some(&focus));
    let note = notes[0].as_ref().expect("a remark on the early action");
    assert!(
        note.en
            .starts_with("a detour: uncordoned the node before looking at the pod in trouble"),
        "{}",
        note.en
    );
    assert!(
        note.zh_tw.contains("就先對節點下了 uncordon"),
        "{}",
        note.zh_tw
    );
    assert_eq!(notes[1], None);

    let path = typed(&exercise, &run, &[describe, get_nodes, uncordon]);
    assert!(
        path[0]
            .output
            .stdout
            .contains("1 node(s) were unschedulable"),
        "{}",
        path[0].output.stdout
    );
    assert!(path[1].output.stdout.contains("Ready,SchedulingDisabled"));
    let scored = score(&interview, &steps(&path, Some(&focus)), right);
    assert_eq!(
        (
            scored.followed,
            scored.recommended,
            scored.detours,
            scored.acted_first
        ),
        (3, 3, 0, 0)
    );
    assert!(scored.success());
    assert_eq!(
        remarks(&run, &interview, &path, Some(&focus)),
        [None, None, None]
    );
    // The uncordon, recorded at the interview's time, solves the exercise.
    let mut text = exercise.start.clone();
    for action in path[2].actions() {
        text = crate::controls::record(&text, &action).expect("recorded");
    }
    let failed: Vec<String> = crate::exercise::check(&exercise, &text)
        .into_iter()
        .filter(|result| !result.passed)
        .map(|result| result.why.en)
        .collect();
    assert!(failed.is_empty(), "{failed:?}");
    assert!(crate::exercise::check(&exercise, &exercise.start)
        .iter()
        .any(|result| !result.passed));
}

/// The stuck rollout's interview answered by acting: `scale --replicas=2`
/// typed after the reads is the path's last step, and recorded it lets the
/// rollout complete (an old pod gives its GPU to the surge pod); deleting
/// one old pod instead is no recommended step and only moves the rollout
/// on by one replica (the ReplicaSet recreates it, the next surge pod waits).
#[test]
fn the_stuck_rollout_is_answered_by_scaling_down_not_by_deleting_a_pod() {
    let (exercise, run, focus) = interview_of("rollout-stuck-on-gpus");
    let interview = exercise.interview.clone().expect("an interview");
    let right = interview.causes.iter().position(|c| c.correct);
    let at = interview.at;
    let old = run
        .pods
        .iter()
        .find(|pod| pod.exists_at(at) && pod.name != focus)
        .expect("an old pod")
        .name
        .clone();
    let scale = "kubectl scale deployment model-api --replicas=2".to_string();
    let path = typed(
        &exercise,
        &run,
        &[
            format!("kubectl describe pod {focus}"),
            "kubectl describe node gpu-0".into(),
            scale,
            format!("kubectl delete pod {old}"),
        ],
    );
    assert_eq!(path[2].output.stdout, "deployment.apps/model-api scaled\n");
    assert_eq!(
        path[3].output.stdout,
        format!("pod \"{old}\" deleted from default namespace\n")
    );
    let lines = steps(&path, Some(&focus));
    assert_eq!(
        lines[2..],
        [
            Some(interview::Command::Scale),
            Some(interview::Command::DeletePod)
        ]
    );
    let scored = score(&interview, &lines, right);
    assert_eq!(
        (scored.followed, scored.detours, scored.acted_first),
        (3, 1, 0)
    );
    let notes = remarks(&run, &interview, &path, Some(&focus));
    assert_eq!(notes[..3], [None, None, None]);
    assert!(notes[3]
        .as_ref()
        .is_some_and(|note| note.en.starts_with("a detour")));

    let rollout = |entry: &Entry| {
        let mut text = exercise.start.clone();
        for action in entry.actions() {
            text = crate::controls::record(&text, &action).expect("recorded");
        }
        let run = simulate(&text, &Options::default());
        let context = ExecContext::new(&text, &run);
        let line = "kubectl rollout status deployment model-api";
        // The Scenario's end, 15 minutes.
        Session::new()
            .run(&context, line, 15 * 60_000)
            .output
            .stdout
    };
    let scaled = rollout(&path[2]);
    assert!(scaled.contains("successfully rolled out"), "{scaled}");
    let deleted = rollout(&path[3]);
    assert!(
        deleted.contains("2 out of 3 new replicas have been updated"),
        "{deleted}"
    );
}

/// The interview classic on the article's crash loop: `kubectl delete pod`
/// typed before anything else is a step of the path, scored as an early
/// detour with the reviewer's remark; the same transcript without it has
/// no detour.
#[test]
fn deleting_the_crash_looping_pod_first_is_noted() {
    let (exercise, run, focus) = interview_of("liveness-crash-loop");
    let interview = exercise.interview.clone().expect("an interview");
    let right = interview.causes.iter().position(|c| c.correct);
    let delete = format!("kubectl delete pod {focus}");
    let reads = [
        format!("kubectl describe pod {focus}"),
        format!("kubectl logs {focus} --previous"),
    ];
    let with_delete: Vec<String> = std::iter::once(delete).chain(reads.clone()).collect();
    let entries = typed(&exercise, &run, &with_delete);
    assert_eq!(
        entries[0].output.stdout,
        format!("pod \"{focus}\" deleted from default namespace\n")
    );
    let scored = score(&interview, &steps(&entries, Some(&focus)), right);
    assert_eq!(
        (
            scored.followed,
            scored.detours,
            scored.acted_first,
            scored.typed
        ),
        (2, 1, 1, 3)
    );
    let notes = remarks(&run, &interview, &entries, Some(&focus));
    assert!(notes[0].as_ref().is_some_and(|note| note
        .en
        .starts_with("a detour: deleted the pod before looking")
        && note.zh_tw.contains("就先刪除了 Pod")));
    assert_eq!(notes[1..], [None, None]);

    let entries = typed(&exercise, &run, &reads);
    let scored = score(&interview, &steps(&entries, Some(&focus)), right);
    assert_eq!(
        (scored.followed, scored.detours, scored.acted_first),
        (2, 0, 0)
    );
}

/// `kubectl label` and `annotate` typed in interview mode are acting steps,
/// each with its own words.
#[test]
fn label_and_annotate_are_acting_steps() {
    let (exercise, run, _) = interview_of("gpu-node-maintenance");
    let lines = [
        "kubectl label node gpu-0 maintenance=done".to_string(),
        "kubectl annotate node gpu-0 note=x".to_string(),
    ];
    let entries = typed(&exercise, &run, &lines);
    assert_eq!(entries[0].output.stdout, "node/gpu-0 labeled\n");
    assert_eq!(entries[0].reveals, Some(interview::Command::Label));
    assert_eq!(entries[1].output.stdout, "node/gpu-0 annotated\n");
    assert_eq!(entries[1].reveals, Some(interview::Command::Annotate));
    for command in [interview::Command::Label, interview::Command::Annotate] {
        let acted = command.acted().expect("an acting command");
        assert!(!acted.en.is_empty() && !acted.zh_tw.is_empty());
        assert_eq!(interview::Command::parse(command.id()), Some(command));
    }
}
