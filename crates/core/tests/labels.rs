//! The Scenario's `label` and `annotate` actions (`sim/metadata.rs`,
//! docs/simulator.md "Actions"): a pod's labels over time, its release
//! from its ReplicaSet, a node's labels and the scheduler, a Deployment's
//! own metadata, annotations in `describe`. Times in ms from t = 0.

mod common;

use common::{events_of, golden, is_generated, run_text};
use podlab_core::exercise::exec::ExecContext;
use podlab_core::manifest::read::read;
use podlab_core::manifest::scenario::{Act, Action, MetaTarget, Metadata};
use podlab_core::sim::Run;

const CRASH_LOOP: &str = "crash-loop-liveness-40s.yaml";

/// `text` with `actions` added to its Scenario's spec.
fn with_actions(text: &str, actions: &str) -> String {
    format!("{}\n  actions:\n{actions}", text.trim_end_matches('\n'))
}

/// `kubectl LINE` on `text`'s run at `at`: stdout.
fn kubectl(text: &str, run: &Run, line: &str, at: u64) -> String {
    let context = ExecContext::new(text, run);
    podlab_core::kubectl::run(&context, line, at).stdout
}

/// The crash loop's pod relabelled out of its ReplicaSet at 3 m: the
/// ReplicaSet releases it (no ownerReference, no `Controlled By`) and
/// creates a replacement at once; the released pod runs on, and no new
/// ReplicaSet appears (the template did not change).
#[test]
fn relabelling_a_pod_out_of_its_replica_set_releases_it() {
    let text = golden(CRASH_LOOP);
    let before = run_text(&text, 300);
    let name = before.pods[0].name.clone();
    let acted_text = with_actions(
        &text,
        &format!("    - {{ at: 3m, label: {{ pod: {name}, labels: {{ app: debug }} }} }}\n"),
    );
    let acted = run_text(&acted_text, 300);
    assert!(acted.action_errors.is_empty(), "{:?}", acted.action_errors);
    let released = &acted.pods[0];
    assert_eq!(released.name, name);
    assert_eq!(released.released, vec![(180_000, None)]);
    assert!(released.deleting.is_none(), "the released pod runs on");
    assert!(released
        .labels_at(179_999)
        .contains(&("app".into(), "model-api".into())));
    assert!(released
        .labels_at(180_000)
        .contains(&("app".into(), "debug".into())));
    // The replacement, made at once by the same ReplicaSet.
    let deployment = &acted.deployments[0];
    assert_eq!(deployment.replica_sets.len(), 1);
    let rs = &deployment.replica_sets[0].name;
    assert_eq!(acted.pods.len(), 2);
    let replacement = &acted.pods[1];
    assert_eq!(replacement.created, 180_000);
    assert!(
        is_generated(&replacement.name, &format!("{rs}-")),
        "{}",
        replacement.name
    );
    let created: Vec<_> = events_of(&acted, &format!("ReplicaSet/{rs}"))
        .into_iter()
        .filter(|(at, reason, _)| *at == 180_000 && *reason == "SuccessfulCreate")
        .collect();
    assert_eq!(created.len(), 1, "{created:?}");
    // describe: `Controlled By` until the release, then gone.
    let described = |at| kubectl(&acted_text, &acted, &format!("describe pod {name}"), at);
    assert!(described(170_000).contains(&format!("Controlled By:  ReplicaSet/{rs}")));
    assert!(!described(200_000).contains("Controlled By"));
    assert!(described(200_000).contains("app=debug"));
    // `get pods -l app=model-api` finds the replacement, not the orphan.
    let listed = kubectl(&acted_text, &acted, "get pods -l app=model-api", 200_000);
    assert!(
        listed.contains(&replacement.name) && !listed.contains(&name),
        "{listed}"
    );
    // Without the action: one pod, owned throughout.
    assert_eq!(before.pods.len(), 1);
    assert!(before.pods[0].released.is_empty());
}

/// A label the selector does not read changes the labels from its time
/// only: no release, no new pod; `get pods -l` and `--show-labels` read
/// the labels at the cursor's time.
#[test]
fn a_label_outside_the_selector_only_adds_the_label() {
    let text = golden(CRASH_LOOP);
    let name = run_text(&text, 60).pods[0].name.clone();
    let acted_text = with_actions(
        &text,
        &format!("    - {{ at: 3m, label: {{ pod: {name}, labels: {{ team: ml }} }} }}\n"),
    );
    let run = run_text(&acted_text, 300);
    assert_eq!(run.pods.len(), 1);
    assert!(run.pods[0].released.is_empty());
    assert!(!kubectl(&acted_text, &run, "get pods -l team=ml", 170_000).contains(&name));
    assert!(kubectl(&acted_text, &run, "get pods -l team=ml", 190_000).contains(&name));
    let shown = kubectl(&acted_text, &run, "get pods --show-labels", 190_000);
    assert!(
        shown.contains("app=model-api,pod-template-hash="),
        "{shown}"
    );
    assert!(shown.contains(",team=ml"), "{shown}");
    // A removal (`null`) at 4 m takes it away again.
    let removed_text = with_actions(
        &text,
        &format!("    - {{ at: 3m, label: {{ pod: {name}, labels: {{ team: ml }} }} }}\n    - {{ at: 4m, label: {{ pod: {name}, labels: {{ team: null }} }} }}\n"),
    );
    let run = run_text(&removed_text, 300);
    assert!(run.pods[0]
        .labels_at(200_000)
        .iter()
        .any(|(k, _)| k == "team"));
    assert!(!run.pods[0]
        .labels_at(250_000)
        .iter()
        .any(|(k, _)| k == "team"));
}

/// A Deployment that asks for `accelerator: nvidia-a100` on a cluster
/// whose nodes lack it, without and with `kubectl label node` at 2 m.
fn node_selector_text(actions: &str) -> String {
    format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{ name: trainer }}\nspec:\n  replicas: 1\n  selector: {{ matchLabels: {{ app: trainer }} }}\n  template:\n    metadata:\n      labels: {{ app: trainer }}\n    spec:\n      nodeSelector: {{ accelerator: nvidia-a100 }}\n      containers:\n        - name: train\n          image: registry.example.com/trainer:1.0\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: {{ name: labels }}\nspec:\n  workload:\n    - container: train\n      startup: 10s\n  cluster:\n    nodePools:\n      - name: gpu\n        count: 1\n        cpu: \"8\"\n        memory: 32Gi\n{actions}"
    )
}

/// `kubectl label node gpu-0 accelerator=nvidia-a100` at 2 m: the
/// scheduler's NodeAffinity filter reads the node's labels at each cycle
/// and the node update moves the pod back to the active queue, so the
/// Pending pod binds at 2 m; `describe node` shows the label from then.
#[test]
fn labelling_a_node_schedules_the_pending_pod() {
    let pending = run_text(&node_selector_text(""), 300);
    assert!(pending.pods[0].node.is_none(), "no node has the label");
    let failed = events_of(&pending, &format!("Pod/{}", pending.pods[0].name));
    assert!(failed
        .iter()
        .any(|(_, reason, message)| *reason == "FailedScheduling"
            && message.contains("didn't match Pod's node affinity/selector")));
    let text = node_selector_text(
        "  actions:\n    - { at: 2m, label: { node: gpu-0, labels: { accelerator: nvidia-a100 } } }\n",
    );
    let run = run_text(&text, 300);
    assert!(run.action_errors.is_empty(), "{:?}", run.action_errors);
    assert_eq!(run.pods[0].node, Some(("gpu-0".to_string(), 120_000)));
    let described = |at| kubectl(&text, &run, "describe node gpu-0", at);
    assert!(!described(110_000).contains("accelerator=nvidia-a100"));
    assert!(described(130_000).contains("accelerator=nvidia-a100"));
    let listed = kubectl(&text, &run, "get nodes --show-labels", 130_000);
    assert!(listed.contains("accelerator=nvidia-a100"), "{listed}");
    // A label the pod does not select: NodeAffinity's queueing hint
    // (`isSchedulableAfterNodeChange`) leaves the pod where it is, so the
    // scheduler's attempts are those of the run without the action.
    let unrelated = node_selector_text(
        "  actions:\n    - { at: 2m, label: { node: gpu-0, labels: { team: ml } } }\n",
    );
    let run = run_text(&unrelated, 300);
    assert!(run.pods[0].node.is_none());
    let pod = format!("Pod/{}", run.pods[0].name);
    assert_eq!(events_of(&run, &pod), failed);
    // A node that is not there: the action's error at its name.
    let wrong = node_selector_text(
        "  actions:\n    - { at: 2m, label: { node: gpu-9, labels: { accelerator: nvidia-a100 } } }\n",
    );
    let run = run_text(&wrong, 300);
    assert_eq!(run.action_errors.len(), 1);
    assert_eq!(run.action_errors[0].verb, "label");
    assert!(run.pods[0].node.is_none());
}

/// A Deployment's `label` and `annotate` change its own metadata only: the
/// same ReplicaSet and pods as without them (no rollout); `describe
/// deployment` shows them from their time.
#[test]
fn a_deployment_label_is_metadata_only() {
    let text = golden(CRASH_LOOP);
    let before = run_text(&text, 600);
    let acted_text = with_actions(
        &text,
        "    - { at: 3m, label: { deployment: model-api, labels: { team: ml } } }\n    - { at: 3m, annotate: { deployment: model-api, annotations: { owner: ml-platform } } }\n",
    );
    let acted = run_text(&acted_text, 600);
    assert!(acted.action_errors.is_empty(), "{:?}", acted.action_errors);
    assert_eq!(
        acted.deployments[0].replica_sets,
        before.deployments[0].replica_sets
    );
    assert_eq!(acted.pods, before.pods);
    let described = |at| kubectl(&acted_text, &acted, "describe deployment model-api", at);
    assert!(
        described(170_000).contains("Labels:                 <none>"),
        "{}",
        described(170_000)
    );
    let after = described(190_000);
    assert!(after.contains("Labels:                 team=ml"), "{after}");
    assert!(after.contains("owner: ml-platform"), "{after}");
    assert!(
        after.contains("deployment.kubernetes.io/revision: 1"),
        "{after}"
    );
}

/// A pod's and a node's annotations at T in `describe` and `-o yaml`.
#[test]
fn annotations_show_from_their_time() {
    let text = golden(CRASH_LOOP);
    let name = run_text(&text, 60).pods[0].name.clone();
    let acted_text = with_actions(
        &text,
        &format!("    - {{ at: 3m, annotate: {{ pod: {name}, annotations: {{ note: hello }} }} }}\n    - {{ at: 3m, annotate: {{ node: gpu-0, annotations: {{ maintenance: friday }} }} }}\n"),
    );
    let run = run_text(&acted_text, 300);
    assert!(run.action_errors.is_empty(), "{:?}", run.action_errors);
    let pod = |line: &str, at| kubectl(&acted_text, &run, &format!("{line} {name}"), at);
    assert!(pod("describe pod", 170_000).contains("Annotations:      <none>"));
    assert!(pod("describe pod", 190_000).contains("Annotations:      note: hello"));
    assert!(!pod("get pod -o yaml", 170_000).contains("note: hello"));
    assert!(pod("get pod -o yaml", 190_000).contains("note: hello"));
    let node = |at| kubectl(&acted_text, &run, "describe node gpu-0", at);
    assert!(!node(170_000).contains("maintenance: friday"));
    assert!(node(190_000).contains("maintenance: friday"));
}

/// `kubectl label` and `annotate` at the cursor give the actions that
/// `controls::record` writes into the Scenario; read back, they are the
/// same actions, and the next run performs them.
#[test]
fn label_and_annotate_from_the_terminal_are_recorded() {
    let text = golden(CRASH_LOOP);
    let run = run_text(&text, 720);
    let name = run.pods[0].name.clone();
    let context = ExecContext::new(&text, &run);
    let output = podlab_core::kubectl::run(
        &context,
        &format!("label pod {name} team=ml tier=\"\" app- --overwrite"),
        720_000,
    );
    assert_eq!(output.stdout, format!("pod/{name} labeled\n"));
    let expected = Act::Label(Metadata {
        target: MetaTarget::Pod,
        name: name.clone(),
        span: podlab_core::span::Span::empty(0),
        changes: vec![
            ("team".into(), Some("ml".into())),
            ("tier".into(), Some(String::new())),
            ("app".into(), None),
        ],
    });
    assert_eq!(output.acts, vec![expected]);
    let action = Action {
        at: 720_000,
        span: podlab_core::span::Span::empty(0),
        act: output.acts[0].clone(),
    };
    let recorded = podlab_core::controls::record(&text, &action).expect("recorded");
    assert!(
        recorded.ends_with(&format!(
            "  actions:\n    - {{ at: 12m, label: {{ pod: {name}, labels: {{ team: ml, tier: \"\", app: null }} }} }}\n"
        )),
        "{recorded}"
    );
    let reading = read(&recorded);
    let Act::Label(read_back) = &reading.scenario.actions[0].act else {
        panic!("{:?}", reading.scenario.actions);
    };
    assert_eq!(read_back.changes, output_changes(&output.acts[0]));
    let replayed = run_text(&recorded, 780);
    // `app` removed: out of the ReplicaSet's selector, released at 12 m.
    assert_eq!(replayed.pods[0].released, vec![(720_000, None)]);
    // annotate: a value with a space and a colon is quoted when written.
    let output = podlab_core::kubectl::run(
        &context,
        "annotate deploy/model-api note='fix: probe'",
        720_000,
    );
    assert_eq!(output.stdout, "deployment.apps/model-api annotated\n");
    let action = Action {
        at: 720_000,
        span: podlab_core::span::Span::empty(0),
        act: output.acts[0].clone(),
    };
    let recorded = podlab_core::controls::record(&text, &action).expect("recorded");
    assert!(
        recorded.ends_with("    - { at: 12m, annotate: { deployment: model-api, annotations: { note: \"fix: probe\" } } }\n"),
        "{recorded}"
    );
    assert_eq!(read(&recorded).scenario.actions[0].act.key(), "annotate");
}

fn output_changes(act: &Act) -> Vec<(String, Option<String>)> {
    match act {
        Act::Label(change) | Act::Annotate(change) => change.changes.clone(),
        _ => Vec::new(),
    }
}

/// Two replicas behind a Service with steady traffic; one pod relabelled
/// out of the Service's selector (and so out of its ReplicaSet's) at 3 m.
fn served_text(actions: &str) -> String {
    format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{ name: model-api }}\nspec:\n  replicas: 2\n  selector: {{ matchLabels: {{ app: model-api }} }}\n  template:\n    metadata:\n      labels: {{ app: model-api }}\n    spec:\n      containers:\n        - name: api\n          image: registry.example.com/model-api:0.3.1\n          ports: [{{ containerPort: 8080 }}]\n          readinessProbe:\n            httpGet: {{ path: /health, port: 8080 }}\n            periodSeconds: 1\n---\napiVersion: v1\nkind: Service\nmetadata: {{ name: model-api }}\nspec:\n  selector: {{ app: model-api }}\n  ports: [{{ port: 80, targetPort: 8080 }}]\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: {{ name: served }}\nspec:\n  duration: 6m\n  workload:\n    - container: api\n      startup: 30s\n      serve: {{ concurrency: 16, latency: 50ms }}\n  traffic:\n    service: model-api\n    arrivals: uniform\n    rate:\n      - {{ at: 0s, rps: 10 }}\n{actions}"
    )
}

/// The Service's endpoints follow the pod's labels: relabelled out at
/// 3 m, the pod gets no new request once kube-proxy has the change, and
/// `describe service` no longer lists it; the ReplicaSet's replacement
/// takes its place once Ready.
#[test]
fn a_pod_relabelled_out_of_a_service_gets_no_more_requests() {
    let plain = run_text(&served_text(""), 360);
    let name = plain.pods[0].name.clone();
    let text = served_text(&format!(
        "  actions:\n    - {{ at: 3m, label: {{ pod: {name}, labels: {{ app: debug }} }} }}\n"
    ));
    let run = run_text(&text, 360);
    let traffic = run.traffic.as_ref().expect("traffic");
    let load = |run: &Run, pod: usize| -> (u32, u32) {
        let traffic = run.traffic.as_ref().expect("traffic");
        let at = traffic.pods.iter().position(|&p| p == pod).expect("served");
        let received = &traffic.per_pod[at].received;
        let sum = |range: std::ops::Range<usize>| received[range].iter().sum::<u32>();
        (sum(120..180), sum(200..360))
    };
    let (before, after) = load(&run, 0);
    assert!(before > 0, "it served before 3 m");
    assert_eq!(after, 0, "nothing after the relabel and kube-proxy's delay");
    assert!(load(&plain, 0).1 > 0, "without the action it serves on");
    // The replacement serves once Ready.
    let replacement = run
        .pods
        .iter()
        .position(|p| p.created == 180_000)
        .expect("replacement");
    assert!(traffic.pods.contains(&replacement));
    assert!(load(&run, replacement).1 > 0);
    // `describe service`'s Endpoints: the pod's address before, not after.
    let endpoints = |at| {
        let described = kubectl(&text, &run, "describe service model-api", at);
        let line = described
            .lines()
            .find(|line| line.starts_with("Endpoints:"));
        line.unwrap_or_default().to_string()
    };
    let address = podlab_core::explain::describe::pod_ip_at(&run.pods[0], 170_000)
        .expect("an address")
        .to_string();
    assert!(
        endpoints(170_000).contains(&address),
        "{}",
        endpoints(170_000)
    );
    assert!(
        !endpoints(300_000).contains(&address),
        "{}",
        endpoints(300_000)
    );
}

/// A ReplicaSet written in the text (no Deployment) releases a pod
/// relabelled out of its selector and replaces it at once; deleting the
/// orphan later makes no other pod (it has no owner any more).
#[test]
fn a_bare_replica_set_releases_and_the_orphan_is_not_replaced_again() {
    let text = |actions: &str| {
        format!(
            "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {{ name: workers }}\nspec:\n  replicas: 1\n  selector: {{ matchLabels: {{ app: workers }} }}\n  template:\n    metadata:\n      labels: {{ app: workers }}\n    spec:\n      containers:\n        - name: work\n          image: registry.example.com/work:1\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: {{ name: rs }}\nspec:\n  workload:\n    - container: work\n      startup: 5s\n{actions}"
        )
    };
    let name = run_text(&text(""), 30).pods[0].name.clone();
    let run = run_text(
        &text(&format!(
            "  actions:\n    - {{ at: 1m, label: {{ pod: {name}, labels: {{ app: other }} }} }}\n    - {{ at: 2m, delete: {{ pod: {name} }} }}\n"
        )),
        240,
    );
    assert!(run.action_errors.is_empty(), "{:?}", run.action_errors);
    assert_eq!(run.pods[0].released, vec![(60_000, None)]);
    let names: Vec<&str> = run.pods.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        run.pods.len(),
        2,
        "the orphan and one replacement: {names:?}"
    );
    assert_eq!(run.pods[1].created, 60_000);
    assert!(is_generated(&run.pods[1].name, "workers-"));
    assert!(run.pods[0].deleting.is_some(), "the orphan was deleted");
}

/// The released pod relabelled back at 4 m is adopted again (`ClaimPods`
/// adopts a matching orphan): its ReplicaSet, one pod over, deletes the
/// one `ActivePodsWithRanks` ranks first (`SuccessfulDelete`). Both are
/// Ready then (no readinessProbe), the replacement for 18 s and the
/// adopted pod for 38 s: Ready for less time goes first, before restart
/// counts are compared, so the replacement is deleted; no other pod.
#[test]
fn relabelling_the_orphan_back_adopts_it_and_the_replica_set_deletes_one() {
    let text = golden(CRASH_LOOP);
    let name = run_text(&text, 60).pods[0].name.clone();
    let acted_text = with_actions(
        &text,
        &format!("    - {{ at: 3m, label: {{ pod: {name}, labels: {{ app: debug }} }} }}\n    - {{ at: 4m, label: {{ pod: {name}, labels: {{ app: model-api }} }} }}\n"),
    );
    let run = run_text(&acted_text, 300);
    assert!(run.action_errors.is_empty(), "{:?}", run.action_errors);
    let adopted = &run.pods[0];
    assert_eq!(adopted.released, vec![(180_000, Some(240_000))]);
    assert!(!adopted.owned_at(200_000) && adopted.owned_at(240_000));
    assert_eq!(run.pods.len(), 2, "no other replacement");
    let replacement = &run.pods[1].name;
    let rs = &run.deployments[0].replica_sets[0].name;
    let deleted: Vec<_> = events_of(&run, &format!("ReplicaSet/{rs}"))
        .into_iter()
        .filter(|(_, reason, _)| *reason == "SuccessfulDelete")
        .collect();
    let message = format!("Deleted pod: {replacement}");
    assert_eq!(deleted, [(240_000, "SuccessfulDelete", message.as_str())]);
    assert_eq!(run.pods[1].deleting, Some(240_000));
    assert!(adopted.deleting.is_none(), "the adopted pod stays");
    let described = kubectl(&acted_text, &run, &format!("describe pod {name}"), 241_000);
    assert!(
        described.contains(&format!("Controlled By:  ReplicaSet/{rs}")),
        "{described}"
    );
}
