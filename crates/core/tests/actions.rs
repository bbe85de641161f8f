//! The Scenario's actions that act on pods and nodes (issue 33, item 1):
//! `delete`, `cordon`, `uncordon`, `drain` (`sim/act.rs`, docs/simulator.md
//! "Actions"). Times in ms from t = 0.

mod common;

use common::{events_of, golden, is_generated, run_text};
use podlab_core::manifest::read::read;
use podlab_core::sim::{PodRun, Run};

const CRASH_LOOP: &str = "crash-loop-liveness-40s.yaml";

/// The golden `name` with `actions` added to its Scenario's spec.
fn with_actions(text: &str, actions: &str) -> String {
    format!("{}\n  actions:\n{actions}", text.trim_end_matches('\n'))
}

/// Restarts of the pod's first container by `at` (RESTARTS).
fn restarts(pod: &PodRun, at: u64) -> usize {
    pod.containers[0]
        .instances
        .iter()
        .filter(|i| i.started <= at)
        .count()
        .saturating_sub(1)
}

fn pod<'r>(run: &'r Run, name: &str) -> &'r PodRun {
    run.pods
        .iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no pod {name}"))
}

/// The article's crash loop at 12 m: the ReplicaSet's new pod starts the
/// same loop from RESTARTS 0; deleting does not fix it. Recording the
/// action changes nothing before 12 m (the seed leaves `actions` out).
#[test]
fn deleting_the_crash_looping_pod_starts_the_same_loop_in_a_new_pod() {
    let text = golden(CRASH_LOOP);
    let before = run_text(&text, 20 * 60);
    let name = before.pods[0].name.clone();
    let acted = run_text(
        &with_actions(
            &text,
            &format!("    - at: 12m\n      delete: {{ pod: {name} }}\n"),
        ),
        20 * 60,
    );
    assert!(acted.action_errors.is_empty(), "{:?}", acted.action_errors);
    // Nothing before 12 m moves: the same pod, uid and events.
    assert_eq!(acted.pods[0].name, name);
    assert_eq!(acted.pods[0].uid, before.pods[0].uid);
    let early = |run: &Run| {
        run.events
            .iter()
            .filter(|e| e.at < 720_000)
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(early(&acted), early(&before));
    // The old pod is deleted at 12 m; the replacement appears at once.
    assert_eq!(acted.pods.len(), 2);
    let old = &acted.pods[0];
    assert_eq!(old.deleting, Some(720_000));
    assert!(old.deleted.is_some_and(|gone| gone >= 720_000));
    let new = &acted.pods[1];
    let hash = old.template_hash.clone().unwrap_or_default();
    let prefix = format!("model-api-{hash}-");
    assert!(is_generated(&new.name, &prefix), "{}", new.name);
    assert_ne!(new.name, name);
    assert_eq!(new.created, 720_000);
    let rs = format!("ReplicaSet/model-api-{hash}");
    assert!(events_of(&acted, &rs).contains(&(
        720_000,
        "SuccessfulCreate",
        &*format!("Created pod: {}", new.name)
    )));
    // The same loop from RESTARTS 0: the new pod at 12 m + x restarted as
    // often as the first one at x.
    for x in [0, 60_000, 150_000, 300_000, 480_000] {
        assert_eq!(
            restarts(new, 720_000 + x),
            restarts(&before.pods[0], x),
            "at 12m + {x} ms"
        );
    }
    assert!(restarts(new, 1_200_000) >= 3);
}

/// A container running when its pod is deleted is stopped as the kubelet
/// stops it: `Killing`, then SIGTERM and the grace period; with
/// `gracePeriodSeconds` the grace is the delete's; `force` removes the
/// object at once.
#[test]
fn a_running_pod_is_killed_with_the_deletes_grace_and_force_removes_it_at_once() {
    let text = golden(CRASH_LOOP);
    let name = run_text(&text, 60).pods[0].name.clone();
    // At 20 s the first instance runs (started at 2 s, loading until 42 s).
    let graceful = run_text(
        &with_actions(
            &text,
            &format!("    - at: 20s\n      delete: {{ pod: {name}, gracePeriodSeconds: 5 }}\n"),
        ),
        120,
    );
    let old = pod(&graceful, &name);
    assert_eq!(old.deletion_grace, Some(5));
    assert!(events_of(&graceful, &format!("Pod/{name}")).contains(&(
        20_000,
        "Killing",
        "Stopping container api"
    )));
    // The program (shutdown 1 s) exits before the grace runs out.
    let exit = old.containers[0].instances[0].exit.as_ref().map(|e| e.at);
    assert_eq!(exit, Some(21_000));
    assert_eq!(old.deleted, Some(21_000));
    let forced = run_text(
        &with_actions(
            &text,
            &format!("    - at: 20s\n      delete: {{ pod: {name}, force: true }}\n"),
        ),
        120,
    );
    let old = pod(&forced, &name);
    assert_eq!(old.deletion_grace, Some(0));
    assert_eq!((old.deleting, old.deleted), (Some(20_000), Some(20_000)));
    assert_eq!(forced.pods.len(), 2);
}

/// A pod that does not exist at the action's time: the run says so at the
/// name's line and column, in both languages, and nothing happens.
#[test]
fn deleting_a_pod_that_does_not_exist_is_an_error_at_its_name() {
    let text = with_actions(
        &golden(CRASH_LOOP),
        "    - at: 1m\n      delete: { pod: model-api-nope }\n",
    );
    let run = run_text(&text, 120);
    assert_eq!(run.pods.len(), 1);
    assert_eq!(run.pods[0].deleting, None);
    assert_eq!(run.action_errors.len(), 1);
    let error = &run.action_errors[0];
    let at = read(&text).index.line_col(&text, error.span.start);
    let (line, column) = (at.line, at.column);
    let written = text.lines().nth(line - 1).unwrap_or_default();
    assert_eq!(&written[column - 1..], "model-api-nope }");
    let message = podlab_core::explain::actions::message(error);
    assert!(message.en.contains("`model-api-nope` does not exist at 1m"));
    assert!(message.zh_tw.contains("不存在"));
}

const ONE_GPU: &str = "\
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
          image: registry.example.com/model-api:0.3.1
          resources: { limits: { nvidia.com/gpu: 1 } }
      terminationGracePeriodSeconds: 30
---
apiVersion: apps/v1
kind: DaemonSet
metadata: { name: logs }
spec:
  selector: { matchLabels: { app: logs } }
  template:
    metadata: { labels: { app: logs } }
    spec:
      containers:
        - name: agent
          image: fluent/fluent-bit:3.0
---
apiVersion: v1
kind: Pod
metadata: { name: notebook }
spec:
  containers:
    - name: lab
      image: jupyter/base-notebook:2024
---
apiVersion: podlab.dev/v1alpha1
kind: Scenario
metadata: { name: one-gpu }
spec:
  duration: 10m
  workload:
    - container: \"*\"
      startup: 10s
";

/// `drain` on a one-GPU-node cluster: the node is cordoned, the
/// Deployment's pod and the bare pod are evicted, the DaemonSet's pod
/// stays; the replacement is Pending with NodeUnschedulable's reason, and
/// an uncordon lets it schedule.
#[test]
fn draining_the_only_gpu_node_leaves_the_replacement_pending_until_uncordon() {
    let text = with_actions(
        ONE_GPU,
        "    - at: 2m\n      drain: { node: gpu-0 }\n    - at: 5m\n      uncordon: { node: gpu-0 }\n",
    );
    let run = run_text(&text, 600);
    assert!(run.action_errors.is_empty(), "{:?}", run.action_errors);
    assert!(run.cordoned_at("gpu-0", 120_000));
    assert!(run.cordoned_at("gpu-0", 299_999));
    assert!(!run.cordoned_at("gpu-0", 300_000));
    let daemon = run
        .pods
        .iter()
        .find(|p| p.owner == "DaemonSet/logs")
        .expect("the DaemonSet's pod");
    assert_eq!(daemon.deleting, None);
    let notebook = pod(&run, "notebook");
    assert_eq!(notebook.deleting, Some(120_000));
    assert_eq!(
        run.pods.iter().filter(|p| p.name == "notebook").count(),
        1,
        "a bare pod is not replaced"
    );
    let api: Vec<&PodRun> = run
        .pods
        .iter()
        .filter(|p| p.owner == "Deployment/model-api")
        .collect();
    assert_eq!(api.len(), 2);
    assert_eq!(api[0].deleting, Some(120_000));
    let replacement = api[1];
    assert_eq!(replacement.created, 120_000);
    let failed: Vec<(u64, &str, &str)> = events_of(&run, &format!("Pod/{}", replacement.name))
        .into_iter()
        .filter(|(_, reason, _)| *reason == "FailedScheduling")
        .collect();
    assert_eq!(failed[0].0, 120_000);
    assert_eq!(
        failed[0].2,
        "0/1 nodes are available: 1 node(s) were unschedulable. no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."
    );
    // Bound after the uncordon (its back-off is over by then).
    let (node, bound) = replacement.node.clone().expect("scheduled after uncordon");
    assert_eq!(node, "gpu-0");
    assert_eq!(bound, 300_000);
}

/// A node cordoned at 0 s is cordoned as the cluster starts: no pod lands
/// on it first (the action is queued ahead of the workloads' pods), while a
/// delete at 0 s still follows them and finds its pod.
#[test]
fn a_cordon_at_0s_holds_from_the_start() {
    let text = with_actions(ONE_GPU, "    - at: 0s\n      cordon: { node: gpu-0 }\n");
    let run = run_text(&text, 120);
    assert!(run.action_errors.is_empty(), "{:?}", run.action_errors);
    let api = run
        .pods
        .iter()
        .find(|p| p.owner == "Deployment/model-api")
        .expect("the Deployment's pod");
    assert_eq!(api.node, None, "never bound to the cordoned node");
    let failed: Vec<(u64, &str, &str)> = events_of(&run, &format!("Pod/{}", api.name))
        .into_iter()
        .filter(|(_, reason, _)| *reason == "FailedScheduling")
        .collect();
    assert_eq!(failed[0].0, 0);
    assert!(
        failed[0].2.contains("1 node(s) were unschedulable"),
        "{}",
        failed[0].2
    );
    let deleted = with_actions(ONE_GPU, "    - at: 0s\n      delete: { pod: notebook }\n");
    let run = run_text(&deleted, 60);
    assert!(run.action_errors.is_empty(), "{:?}", run.action_errors);
    assert_eq!(pod(&run, "notebook").deleting, Some(0));
}

/// A StatefulSet's deleted pod comes back under the same name once gone.
#[test]
fn a_statefulset_pod_comes_back_under_its_name() {
    let text = "\
apiVersion: apps/v1
kind: StatefulSet
metadata: { name: db }
spec:
  replicas: 1
  serviceName: db
  selector: { matchLabels: { app: db } }
  template:
    metadata: { labels: { app: db } }
    spec:
      containers:
        - name: db
          image: postgres:16
---
apiVersion: podlab.dev/v1alpha1
kind: Scenario
metadata: { name: s }
spec:
  duration: 5m
  actions:
    - at: 1m
      delete: { pod: db-0 }
";
    let run = run_text(text, 300);
    let dbs: Vec<&PodRun> = run.pods.iter().filter(|p| p.name == "db-0").collect();
    assert_eq!(dbs.len(), 2);
    let gone = dbs[0].deleted.expect("the first db-0 is gone");
    assert!(gone >= 60_000);
    assert_eq!(dbs[1].created, gone);
    assert!(events_of(&run, "StatefulSet/db")
        .iter()
        .any(|(at, reason, message)| *at == gone
            && *reason == "SuccessfulCreate"
            && *message == "create Pod db-0 in StatefulSet db successful"));
}

/// The terminal's `kubectl delete pod` at 12 m records a typed action;
/// written into the text (`controls::record`), the next run performs it:
/// everything before 12 m as before, the ReplicaSet's new pod from then on.
#[test]
fn a_terminal_delete_recorded_in_the_text_is_simulated() {
    use podlab_core::exercise::exec::ExecContext;
    use podlab_core::kubectl::session::Session;
    use podlab_core::manifest::scenario::{Act, Delete};
    let text = golden(CRASH_LOOP);
    let run = run_text(&text, 900);
    let name = run.pods[0].name.clone();
    let context = ExecContext::new(&text, &run);
    let entry = Session::new().run(&context, &format!("kubectl delete pod {name}"), 720_000);
    assert_eq!(entry.output.exit_code, 0);
    assert_eq!(
        entry.output.stdout,
        format!("pod \"{name}\" deleted from default namespace\n")
    );
    let actions = entry.actions();
    assert_eq!(actions.len(), 1);
    assert_eq!(actions[0].at, 720_000);
    assert!(
        matches!(&actions[0].act, Act::Delete(Delete { pod, grace_period_seconds: None, force: false, .. }) if *pod == name)
    );
    let recorded = podlab_core::controls::record(&text, &actions[0]).expect("recorded");
    // Only the new lines: the rest of the text byte for byte.
    let added = format!("  actions:\n    - {{ at: 12m, delete: {{ pod: {name} }} }}\n");
    assert_eq!(recorded, format!("{text}{added}"));
    let replayed = run_text(&recorded, 900);
    assert!(replayed.action_errors.is_empty());
    assert_eq!(replayed.pods.len(), 2);
    assert_eq!(replayed.pods[0].name, name);
    assert_eq!(replayed.pods[1].created, 720_000);
    // A second action joins the list, in its style.
    let second = podlab_core::manifest::scenario::Action {
        at: 780_000,
        ..actions[0].clone()
    };
    let twice = podlab_core::controls::record(&recorded, &second).expect("recorded");
    assert_eq!(
        twice,
        format!("{recorded}    - {{ at: 13m, delete: {{ pod: {name} }} }}\n")
    );
    assert_eq!(read(&twice).scenario.actions.len(), 2);
    // A flow list gets `, item` before its `]`.
    let flow = format!("{text}  actions: [{{ at: 1m, cordon: {{ node: gpu-0 }} }}]\n");
    let flowed = podlab_core::controls::record(&flow, &actions[0]).expect("recorded");
    assert!(
        flowed.ends_with(&format!(
            "  actions: [{{ at: 1m, cordon: {{ node: gpu-0 }} }}, {{ at: 12m, delete: {{ pod: {name} }} }}]\n"
        )),
        "{flowed}"
    );
}

/// A text without a Scenario gets one holding the action; the terminal's
/// drain records `drain`, a drain kubectl refuses records the cordon it
/// did before refusing.
#[test]
fn drain_and_cordon_from_the_terminal_record_their_actions() {
    use podlab_core::exercise::exec::ExecContext;
    use podlab_core::kubectl::session::Session;
    use podlab_core::manifest::scenario::Act;
    let text = ONE_GPU;
    let run = run_text(text, 600);
    let context = ExecContext::new(text, &run);
    let mut session = Session::new();
    let refused = session.run(&context, "kubectl drain gpu-0 --ignore-daemonsets", 120_000);
    assert_eq!(refused.output.exit_code, 1);
    assert!(refused
        .output
        .stderr
        .contains("cannot delete cannot delete Pods that declare no controller (use --force to override): default/notebook"));
    assert!(matches!(&refused.actions()[0].act, Act::Cordon(node) if node.node == "gpu-0"));
    let drained = session.run(
        &context,
        "kubectl drain gpu-0 --ignore-daemonsets --force",
        120_000,
    );
    assert_eq!(drained.output.exit_code, 0, "{}", drained.output.stderr);
    assert!(drained.output.stdout.ends_with("node/gpu-0 drained\n"));
    let action = &drained.actions()[0];
    assert!(matches!(&action.act, Act::Drain(node) if node.node == "gpu-0"));
    let bare = "apiVersion: v1\nkind: Pod\nmetadata: { name: p }\nspec:\n  containers:\n    - name: c\n      image: i:1\n";
    let recorded = podlab_core::controls::record(bare, action).expect("recorded");
    assert!(recorded.starts_with(bare));
    assert!(recorded.ends_with("kind: Scenario\nmetadata:\n  name: actions\nspec:\n  actions:\n    - { at: 2m, drain: { node: gpu-0 } }\n"), "{recorded}");
    let replayed = run_text(&recorded, 300);
    assert!(replayed.cordoned_at("gpu-0", 120_000));
    assert_eq!(replayed.pods[0].deleting, Some(120_000));
}

/// The terminal's `kubectl scale` records the `scale` action the Scenario
/// already knows; a Deployment's own ReplicaSet records nothing (its
/// controller scales it back).
#[test]
fn a_terminal_scale_is_recorded_as_the_scenarios_scale() {
    use podlab_core::exercise::exec::ExecContext;
    use podlab_core::kubectl::session::Session;
    let text = golden(CRASH_LOOP);
    let run = run_text(&text, 900);
    let context = ExecContext::new(&text, &run);
    let mut session = Session::new();
    let entry = session.run(
        &context,
        "kubectl scale deploy/model-api --replicas=2",
        300_000,
    );
    assert_eq!(entry.output.stdout, "deployment.apps/model-api scaled\n");
    let action = &entry.actions()[0];
    let recorded = podlab_core::controls::record(&text, action).expect("recorded");
    assert!(recorded.ends_with("    - { at: 5m, scale: { name: model-api, replicas: 2 } }\n"));
    let replayed = run_text(&recorded, 900);
    assert_eq!(replayed.pods.len(), 2);
    assert_eq!(replayed.pods[1].created, 300_000);
    let rs = run.deployments[0].replica_sets[0].name.clone();
    let owned = session.run(
        &context,
        &format!("kubectl scale rs {rs} --replicas=2"),
        300_000,
    );
    assert_eq!(
        owned.output.stdout,
        format!("replicaset.apps/{rs} scaled\n")
    );
    assert!(owned.actions().is_empty());
    assert_eq!(owned.output.notes.len(), 1);
}

/// A recorded action travels in a share link (the link carries the text):
/// decoded, the run is the same, with the action performed.
#[test]
fn recorded_actions_round_trip_through_a_share_link() {
    let text = with_actions(ONE_GPU, "    - { at: 2m, drain: { node: gpu-0 } }\n");
    let fragment = podlab_core::share::encode(&text).expect("encoded");
    let decoded = podlab_core::share::decode(&fragment).expect("decoded");
    assert_eq!(decoded, text);
    let (sent, received) = (run_text(&text, 300), run_text(&decoded, 300));
    assert_eq!(sent, received);
    assert!(received.cordoned_at("gpu-0", 120_000));
}

/// A Job's deleted pod counts as failed (`isPodFailed`: deleted, not
/// Succeeded) and its replacement follows the pod-failure back-off (10 s
/// from the whole-second failure); a DaemonSet's comes back on the same
/// node, under a new name, once the old one is gone.
#[test]
fn job_and_daemonset_pods_are_replaced_as_their_controllers_do() {
    let job = "\
apiVersion: batch/v1
kind: Job
metadata: { name: train }
spec:
  backoffLimit: 3
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: trainer
          image: registry.example.com/train:1.0
---
apiVersion: podlab.dev/v1alpha1
kind: Scenario
metadata: { name: j }
spec:
  duration: 3m
  workload:
    - container: trainer
      runFor: 10m
";
    let name = run_text(job, 60).pods[0].name.clone();
    let text = with_actions(
        job,
        &format!("    - at: 20500ms\n      delete: {{ pod: {name} }}\n"),
    );
    let run = run_text(&text, 180);
    assert!(run.action_errors.is_empty(), "{:?}", run.action_errors);
    assert_eq!(run.jobs[0].failed, 1);
    assert_eq!(run.pods.len(), 2);
    assert!(is_generated(&run.pods[1].name, "train-"));
    assert_eq!(run.pods[1].created, 30_000);
    // The DaemonSet's pod on cpu-0, deleted at 30 s.
    let placement = golden("daemonset-statefulset-placement.yaml");
    let before = run_text(&placement, 60);
    let logs = before
        .pods
        .iter()
        .find(|p| p.owner == "DaemonSet/logs")
        .expect("a DaemonSet pod");
    let (name, node) = (logs.name.clone(), logs.node.clone().map(|(n, _)| n));
    let text = with_actions(
        &placement,
        &format!("    - at: 30s\n      delete: {{ pod: {name} }}\n"),
    );
    let run = run_text(&text, 120);
    let gone = pod(&run, &name).deleted.expect("gone");
    let new = run
        .pods
        .iter()
        .filter(|p| p.owner == "DaemonSet/logs")
        .find(|p| p.created == gone)
        .expect("a replacement when the old one is gone");
    assert_ne!(new.name, name);
    assert!(is_generated(&new.name, "logs-"));
    assert_eq!(new.node.clone().map(|(n, _)| n), node);
    assert!(events_of(&run, "DaemonSet/logs").contains(&(
        gone,
        "SuccessfulCreate",
        &*format!("Created pod: {}", new.name)
    )));
}

const TWO_REPLICAS: &str = "\
apiVersion: apps/v1
kind: Deployment
metadata: { name: model-api }
spec:
  replicas: 2
  selector: { matchLabels: { app: model-api } }
  template:
    metadata: { labels: { app: model-api } }
    spec:
      containers:
        - name: api
          image: registry.example.com/model-api:0.3.1
          readinessProbe:
            httpGet: { path: /health, port: 8080 }
            periodSeconds: 5
---
apiVersion: podlab.dev/v1alpha1
kind: Scenario
metadata: { name: restart }
spec:
  duration: 10m
  workload:
    - container: api
      startup: 20s
";

/// `restart` (`kubectl rollout restart`): the template's `restartedAt`
/// annotation gives a new pod-template-hash, so a new ReplicaSet rolls out
/// (25% surge of 2 → 1, 25% unavailable → 0: one new pod at a time) and
/// the old pods go as the new ones become available; nothing before it
/// moves.
#[test]
fn a_restart_rolls_out_a_new_replica_set_with_the_same_pods() {
    let before = run_text(TWO_REPLICAS, 600);
    let text = with_actions(
        TWO_REPLICAS,
        "    - { at: 5m, restart: { deployment: model-api } }\n",
    );
    let run = run_text(&text, 600);
    assert!(run.action_errors.is_empty(), "{:?}", run.action_errors);
    for (mine, theirs) in run.pods.iter().zip(&before.pods).take(2) {
        assert_eq!((&mine.name, &mine.uid), (&theirs.name, &theirs.uid));
    }
    let early = |run: &Run| {
        run.events
            .iter()
            .filter(|e| e.at < 300_000)
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(early(&run), early(&before));
    let deployment = &run.deployments[0];
    assert_eq!(deployment.replica_sets.len(), 2);
    let (old, new) = (&deployment.replica_sets[0], &deployment.replica_sets[1]);
    assert_ne!(old.hash, new.hash);
    assert_eq!(new.created, 300_000);
    assert_eq!(new.revision, 2);
    let fresh: Vec<&PodRun> = run
        .pods
        .iter()
        .filter(|p| p.template_hash.as_deref() == Some(new.hash.as_str()))
        .collect();
    assert_eq!(fresh.len(), 2);
    assert!(fresh
        .iter()
        .all(|p| is_generated(&p.name, &format!("model-api-{}-", new.hash))));
    // The same pod spec: only the template's annotation differs.
    assert_eq!(fresh[0].spec, run.pods[0].spec);
    // By the end both old pods are gone.
    assert!(run.pods[..2].iter().all(|p| p.deleted.is_some()));
    // A restart of a Deployment the text does not have is an error.
    let wrong = with_actions(
        TWO_REPLICAS,
        "    - { at: 5m, restart: { deployment: nope } }\n",
    );
    let run = run_text(&wrong, 600);
    assert_eq!(run.action_errors.len(), 1);
    assert_eq!(run.deployments[0].replica_sets.len(), 1);
}

/// The terminal's `kubectl rollout restart` at 5 m records `restart`; the
/// recorded text rolls out the new ReplicaSet.
#[test]
fn a_terminal_rollout_restart_is_recorded_and_rolls_out() {
    use podlab_core::exercise::exec::ExecContext;
    use podlab_core::kubectl::session::Session;
    let run = run_text(TWO_REPLICAS, 600);
    let context = ExecContext::new(TWO_REPLICAS, &run);
    let entry = Session::new().run(
        &context,
        "kubectl rollout restart deployment/model-api",
        300_000,
    );
    assert_eq!(entry.output.stdout, "deployment.apps/model-api restarted\n");
    let recorded =
        podlab_core::controls::record(TWO_REPLICAS, &entry.actions()[0]).expect("recorded");
    assert!(
        recorded.ends_with("  actions:\n    - { at: 5m, restart: { deployment: model-api } }\n"),
        "{recorded}"
    );
    let replayed = run_text(&recorded, 600);
    assert_eq!(replayed.deployments[0].replica_sets.len(), 2);
    assert_eq!(replayed.deployments[0].replica_sets[1].created, 300_000);
}

/// A Deployment whose limit is below the loading peak: OOMKilled at every
/// load (`oom-at-loading-peak.yaml`'s pod, as a Deployment).
const OOM_DEPLOYMENT: &str = "apiVersion: apps/v1
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
          image: registry.example.com/model-api:0.3.1
          resources:
            limits: { memory: 8Gi }
---
apiVersion: podlab.dev/v1alpha1
kind: Scenario
metadata: { name: oom }
spec:
  workload:
    - container: api
      startup: 40s
      memory: { steady: 6Gi, peak: 10Gi }
";

/// The pods of the Deployment's ReplicaSet `index` (in creation order).
fn pods_of_rs(run: &Run, index: usize) -> Vec<&PodRun> {
    let hash = &run.deployments[0].replica_sets[index].hash;
    run.pods
        .iter()
        .filter(|p| p.template_hash.as_deref() == Some(hash.as_str()))
        .collect()
}

/// The issue's Done-when: on the article's crash loop at 12 m, a patch
/// that adds a startupProbe (typed in the terminal, recorded in the text)
/// changes nothing before 12 m; from 12 m a new ReplicaSet's pod loads
/// under the startup probe and goes Ready with RESTARTS 0, and the
/// crash-looping pod goes once it is available (maxSurge 1,
/// maxUnavailable 0 of one replica: `rolling.go`).
#[test]
fn a_patch_adding_a_startup_probe_at_12m_recovers_from_then_on() {
    use podlab_core::exercise::exec::ExecContext;
    use podlab_core::kubectl::session::Session;
    let text = golden(CRASH_LOOP);
    let before = run_text(&text, 20 * 60);
    let context = ExecContext::new(&text, &before);
    let line = r#"kubectl patch deployment model-api -p '{"spec":{"template":{"spec":{"containers":[{"name":"api","startupProbe":{"httpGet":{"path":"/health","port":8000},"periodSeconds":10,"failureThreshold":30}}]}}}}'"#;
    let entry = Session::new().run(&context, line, 720_000);
    assert_eq!(entry.output.stdout, "deployment.apps/model-api patched\n");
    assert_eq!(entry.output.exit_code, 0);
    let recorded = podlab_core::controls::record(&text, &entry.actions()[0]).expect("recorded");
    assert!(
        recorded.ends_with("    - { at: 12m, patch: { deployment: model-api, spec: { template: { spec: { containers: [{ name: api, startupProbe: { httpGet: { path: /health, port: 8000 }, periodSeconds: 10, failureThreshold: 30 } }] } } } } }\n"),
        "{recorded}"
    );
    let reading = read(&recorded);
    assert!(
        reading
            .diagnostics
            .iter()
            .all(|d| d.severity != podlab_core::diagnostic::Severity::Error),
        "{:?}",
        reading.diagnostics
    );
    let run = run_text(&recorded, 20 * 60);
    assert!(run.action_errors.is_empty(), "{:?}", run.action_errors);
    let early = |run: &Run| {
        run.events
            .iter()
            .filter(|e| e.at < 720_000)
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(early(&run), early(&before));
    let deployment = &run.deployments[0];
    assert_eq!(deployment.replica_sets.len(), 2);
    let new_rs = &deployment.replica_sets[1];
    assert_eq!(new_rs.created, 720_000);
    assert_ne!(new_rs.hash, deployment.replica_sets[0].hash);
    let fresh = pods_of_rs(&run, 1);
    assert_eq!(fresh.len(), 1);
    let new = fresh[0];
    assert_eq!(new.created, 720_000);
    // Ready once loaded (40 s), never restarted; the old pod was still
    // crash-looping at 12 m and is deleted once the new one is available.
    let ready = (720_000..20 * 60_000)
        .step_by(1000)
        .find(|&t| new.ready_at(t))
        .expect("the new pod goes Ready");
    assert!((760_000..=800_000).contains(&ready), "Ready at {ready}");
    assert_eq!(restarts(new, 20 * 60_000), 0);
    assert!(new.ready_at(20 * 60_000 - 1));
    let old = &run.pods[0];
    assert!(restarts(old, 720_000) >= 5);
    let deleting = old.deleting.expect("the old pod is deleted");
    assert!(
        new.ready_at(deleting) && !new.ready_at(deleting - 1000),
        "{deleting} {ready}"
    );
}

/// `kubectl set resources` on the OOM loop at 5 m: the new limit reaches
/// the new ReplicaSet's pod, which loads past its 10 Gi peak and stays;
/// the same line again changes nothing and prints nothing, as kubectl
/// skips an empty patch (`set_resources.go`).
#[test]
fn set_resources_raises_the_limit_from_its_time_on() {
    use podlab_core::exercise::exec::ExecContext;
    use podlab_core::kubectl::session::Session;
    let before = run_text(OOM_DEPLOYMENT, 900);
    assert!(restarts(&before.pods[0], 300_000) >= 2);
    let context = ExecContext::new(OOM_DEPLOYMENT, &before);
    let line = "kubectl set resources deployment model-api -c api --limits=memory=12Gi";
    let entry = Session::new().run(&context, line, 300_000);
    assert_eq!(
        entry.output.stdout,
        "deployment.apps/model-api resource requirements updated\n"
    );
    let recorded =
        podlab_core::controls::record(OOM_DEPLOYMENT, &entry.actions()[0]).expect("recorded");
    assert!(recorded.ends_with("    - { at: 5m, patch: { deployment: model-api, spec: { template: { spec: { containers: [{ name: api, resources: { limits: { memory: 12Gi } } }] } } } } }\n"), "{recorded}");
    let run = run_text(&recorded, 900);
    let fresh = pods_of_rs(&run, 1);
    assert_eq!(fresh.len(), 1);
    assert_eq!(fresh[0].created, 300_000);
    assert_eq!(restarts(fresh[0], 900_000), 0);
    assert!(fresh[0].ready_at(899_999));
    // At 6 m the text holds the change: the same line is a no-op.
    let context = ExecContext::new(&recorded, &run);
    let again = Session::new().run(&context, line, 360_000);
    assert_eq!(
        (again.output.stdout.as_str(), again.output.exit_code),
        ("", 0)
    );
    assert!(again.actions().is_empty());
    // A container the template does not have.
    let wrong = Session::new().run(
        &context,
        "kubectl set resources deploy/model-api -c nope --limits=memory=12Gi",
        360_000,
    );
    assert_eq!(
        (wrong.output.stderr.as_str(), wrong.output.exit_code),
        ("error: unable to find container named nope\n", 1)
    );
    let empty = Session::new().run(&context, "kubectl set resources deploy model-api", 360_000);
    assert!(empty
        .output
        .stderr
        .starts_with("error: you must specify an update"));
}

/// Changes chain: a `set image` at 3 m, then a `rollout restart` at 6 m,
/// roll out from the object as the one before left it (the restart keeps
/// the new image), as the API server applies each patch to the stored
/// object; a patch of `spec.replicas` scales.
#[test]
fn template_changes_apply_to_the_object_as_the_last_one_left_it() {
    let text = with_actions(
        TWO_REPLICAS,
        "    - { at: 3m, patch: { deployment: model-api, spec: { template: { spec: { containers: [{ name: api, image: registry.example.com/model-api:0.4.0 }] } } } } }\n    - { at: 6m, restart: { deployment: model-api } }\n    - { at: 9m, patch: { deployment: model-api, type: merge, spec: { replicas: 3 } } }\n",
    );
    let run = run_text(&text, 900);
    assert!(run.action_errors.is_empty(), "{:?}", run.action_errors);
    let sets = &run.deployments[0].replica_sets;
    assert_eq!(sets.len(), 3);
    let image_of = |index: usize| {
        pods_of_rs(&run, index)
            .first()
            .and_then(|p| p.spec.containers[0].image.clone())
            .map(|image| image.value)
    };
    assert_eq!(
        image_of(1).as_deref(),
        Some("registry.example.com/model-api:0.4.0")
    );
    assert_eq!(
        image_of(2).as_deref(),
        Some("registry.example.com/model-api:0.4.0")
    );
    assert_eq!(sets[2].size_at(500_000), 2);
    assert_eq!(sets[2].size_at(599_999), 3);
    // A patch of a Deployment the text does not have is an error at its name.
    let wrong = with_actions(
        TWO_REPLICAS,
        "    - { at: 5m, patch: { deployment: nope, spec: { replicas: 3 } } }\n",
    );
    let run = run_text(&wrong, 600);
    assert_eq!(run.action_errors.len(), 1);
    let at = wrong.find("nope").expect("written");
    assert_eq!(run.action_errors[0].span.start, at);
}

/// `rollout undo`: after a `set image` at 3 m, an undo at 6 m brings the
/// written template back: no third ReplicaSet, the first one scales up
/// again and takes revision 3 (`SetNewReplicaSetAnnotations`); kubectl's
/// lines at each point (`rollback.go`), recorded as `undo`.
#[test]
fn rollout_undo_brings_the_previous_template_back() {
    use podlab_core::exercise::exec::ExecContext;
    use podlab_core::kubectl::session::Session;
    let image = "    - { at: 3m, patch: { deployment: model-api, spec: { template: { spec: { containers: [{ name: api, image: registry.example.com/model-api:0.4.0 }] } } } } }\n";
    let text = with_actions(TWO_REPLICAS, image);
    let run = run_text(&text, 600);
    let context = ExecContext::new(&text, &run);
    let at = |line: &str, ms: u64| Session::new().run(&context, line, ms).output;
    // Before the patch there is one revision.
    let early = at("kubectl rollout undo deployment model-api", 120_000);
    assert_eq!(
        (early.stderr.as_str(), early.exit_code),
        (
            "error: no rollout history found for deployment \"model-api\"\n",
            1
        )
    );
    let current = at(
        "kubectl rollout undo deployment/model-api --to-revision=2",
        360_000,
    );
    assert_eq!(
        current.stdout,
        "deployment.apps/model-api skipped rollback (current template already matches revision 2)\n"
    );
    assert!(current.acts.is_empty());
    let missing = at(
        "kubectl rollout undo deployment/model-api --to-revision=7",
        360_000,
    );
    assert_eq!(
        missing.stderr,
        "error: unable to find specified revision 7 in history\n"
    );
    let entry = Session::new().run(
        &context,
        "kubectl rollout undo deployment/model-api",
        360_000,
    );
    assert_eq!(
        entry.output.stdout,
        "deployment.apps/model-api rolled back\n"
    );
    let recorded = podlab_core::controls::record(&text, &entry.actions()[0]).expect("recorded");
    assert!(
        recorded.ends_with("    - { at: 6m, undo: { deployment: model-api } }\n"),
        "{recorded}"
    );
    let undone = run_text(&recorded, 600);
    assert!(
        undone.action_errors.is_empty(),
        "{:?}",
        undone.action_errors
    );
    let sets = &undone.deployments[0].replica_sets;
    assert_eq!(sets.len(), 2);
    assert_eq!(
        (sets[0].revision_at(300_000), sets[0].revision_at(360_000)),
        (1, 3)
    );
    assert_eq!(sets[1].revision_at(599_999), 2);
    assert_eq!(sets[0].size_at(599_999), 2);
    assert_eq!(sets[1].size_at(599_999), 0);
    // The first ReplicaSet's new pods run the written image again.
    let back: Vec<&PodRun> = pods_of_rs(&undone, 0)
        .into_iter()
        .filter(|p| p.created >= 360_000)
        .collect();
    assert_eq!(back.len(), 2);
    assert!(back.iter().all(|p| {
        p.spec.containers[0]
            .image
            .as_ref()
            .map(|i| i.value.as_str())
            == Some("registry.example.com/model-api:0.3.1")
    }));
    // At 7 m, after the undo, the text's history has revisions 2 and 3:
    // the same undo goes back to 0.4.0.
    let context = ExecContext::new(&recorded, &undone);
    let again = Session::new().run(
        &context,
        "kubectl rollout undo deployment/model-api",
        420_000,
    );
    assert_eq!(
        again.output.stdout,
        "deployment.apps/model-api rolled back\n"
    );
    // An undo with nothing to go back to is the run's error at its name.
    let nothing = with_actions(
        TWO_REPLICAS,
        "    - { at: 5m, undo: { deployment: model-api } }\n",
    );
    let run = run_text(&nothing, 600);
    assert_eq!(run.action_errors.len(), 1);
    assert_eq!(run.deployments[0].replica_sets.len(), 1);
}

/// `TWO_REPLICAS` with one GPU each, on two one-GPU nodes: a new image
/// rolls out from 2 m and sticks (25% of 2: maxSurge 1, maxUnavailable 0;
/// the surge pod waits for a GPU no node has free).
fn two_gpu_replicas() -> String {
    let gpu = "          resources: { limits: { nvidia.com/gpu: 1 } }\n          readinessProbe:";
    let text = TWO_REPLICAS
        .replace("          readinessProbe:", gpu)
        .replace("  duration: 10m\n", "  duration: 12m\n");
    format!("{text}  cluster:\n    nodePools:\n      - {{ name: gpu, count: 2, cpu: \"8\", memory: 32Gi, gpu: {{ model: A100-80GB, count: 1 }} }}\n")
}

/// `kubectl set image` at 2 m, as the terminal records it.
const NEW_IMAGE: &str = "    - { at: 2m, patch: { deployment: model-api, spec: { template: { spec: { containers: [{ name: api, image: registry.example.com/model-api:0.4.0 }] } } } } }\n";

/// A `patch` of the strategy alone (PL507's fix: `maxSurge: 0,
/// maxUnavailable: 1`, what `kubectl patch deployment model-api -p
/// '{"spec":{"strategy":{"rollingUpdate":{"maxSurge":0,"maxUnavailable":1}}}}'`
/// records) makes no new ReplicaSet but the controller reads it at its
/// next sync (`syncDeployment` reads the object afresh): the stuck rollout
/// takes an old pod down, the new pod gets its GPU, and the rollout
/// completes; `describe deployment` shows each strategy at its time.
#[test]
fn a_patched_strategy_unsticks_a_rollout_waiting_for_a_gpu() {
    let base = two_gpu_replicas();
    assert!(base.contains("nvidia.com/gpu: 1") && base.contains("duration: 12m"));
    unstick(&base, NEW_IMAGE);
    // The same rollout written as the Scenario's `rollout`: the patch's
    // object carries its image (the rollout is in the chain), so the patch
    // is no rollback to the written image.
    let rolled = format!(
        "{base}  rollout:\n    - {{ at: 2m, workload: model-api, image: registry.example.com/model-api:0.4.0 }}\n"
    );
    unstick(&rolled, "");
}

fn unstick(base: &str, image_action: &str) {
    let patched = with_actions(
        base,
        &format!("{image_action}    - {{ at: 5m, patch: {{ deployment: model-api, spec: {{ strategy: {{ rollingUpdate: {{ maxSurge: 0, maxUnavailable: 1 }} }} }} }} }}\n"),
    );
    let stuck = if image_action.is_empty() {
        run_text(base, 720_000)
    } else {
        run_text(&with_actions(base, image_action), 720_000)
    };
    assert_eq!(stuck.deployments[0].replica_sets.len(), 2);
    let new_ready = |run: &Run| {
        pods_of_rs(run, 1)
            .iter()
            .filter(|pod| pod.deleted.is_none() && pod.ready_at(719_000))
            .count()
    };
    assert_eq!(new_ready(&stuck), 0, "stuck: the surge pod never schedules");
    let run = run_text(&patched, 720_000);
    assert!(run.action_errors.is_empty(), "{:?}", run.action_errors);
    assert_eq!(
        run.deployments[0].replica_sets.len(),
        2,
        "a strategy patch makes no ReplicaSet"
    );
    assert_eq!(new_ready(&run), 2, "the rollout completes");
    assert_eq!(
        run.deployments[0].replica_sets[1].images,
        vec![(
            "api".to_string(),
            "registry.example.com/model-api:0.4.0".to_string()
        )],
        "the new image stays"
    );
    assert!(
        pods_of_rs(&run, 0)
            .iter()
            .all(|pod| pod.deleted.is_some_and(|at| at >= 300_000)),
        "the old pods go from 5 m"
    );
    // Before 5 m nothing moved.
    let pods_at = |run: &Run, at: u64| {
        run.pods
            .iter()
            .filter(|pod| pod.active_at(at))
            .map(|pod| {
                let bound = pod.node.clone().filter(|(_, when)| *when <= at);
                (pod.name.clone(), bound, pod.ready_at(at))
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(pods_at(&run, 299_000), pods_at(&stuck, 299_000));
    let describe =
        |at| podlab_core::explain::deployment::describe_deployment(&run, &run.deployments[0], at);
    assert!(
        describe(240_000).contains("RollingUpdateStrategy:  25% max unavailable, 25% max surge"),
        "{}",
        describe(240_000)
    );
    assert!(
        describe(360_000).contains("RollingUpdateStrategy:  1 max unavailable, 0 max surge"),
        "{}",
        describe(360_000)
    );
}
