//! Names that survive an edit (issue 29, item 13): a run's seed is a
//! function of the objects read, not of the text's bytes, and a
//! Deployment's `pod-template-hash` a function of its pod template alone,
//! as `controller.ComputeHash` makes it
//! (`kubernetes/kubernetes:pkg/controller/controller_utils.go`;
//! `manifest/canonical.rs`, docs/simulator.md "Names and the seed").

use podlab_core::manifest::read::read;
use podlab_core::sim::{simulate, Options, Run};

const DEPLOYMENT: &str = "\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: model-api
spec:
  replicas: 2
  selector:
    matchLabels:
      app: model-api
  template:
    metadata:
      labels:
        app: model-api
    spec:
      containers:
        - name: api
          image: registry.example.com/model-api:0.3.1
          resources:
            limits:
              memory: 4Gi
          livenessProbe:
            httpGet:
              path: /health
              port: 8080
            initialDelaySeconds: 10
";

/// The same objects: comments, blank lines, flow style, quoting and key
/// order changed.
const DEPLOYMENT_REWRITTEN: &str = "\
# the model server
kind: Deployment
apiVersion: apps/v1
metadata: { name: \"model-api\" }

spec:
  template:
    spec:
      containers:
      - livenessProbe:
          initialDelaySeconds: 10     # slow start
          httpGet: { port: 8080, path: /health }
        resources: { limits: { memory: 4Gi } }
        image: 'registry.example.com/model-api:0.3.1'
        name: api
    metadata: { labels: { app: model-api } }
  selector: { matchLabels: { app: model-api } }
  replicas: 2
";

const SCENARIO: &str = "\
---
apiVersion: podlab.dev/v1alpha1
kind: Scenario
metadata: { name: s }
spec:
  duration: 10m
  workload:
    - container: api
      startup: 40s
";

fn run(text: &str) -> Run {
    simulate(text, &Options::default())
}

fn names(run: &Run) -> Vec<&str> {
    run.pods.iter().map(|pod| pod.name.as_str()).collect()
}

fn hashes(run: &Run) -> Vec<Option<&str>> {
    run.pods
        .iter()
        .map(|pod| pod.template_hash.as_deref())
        .collect()
}

#[test]
fn whitespace_comments_and_key_order_give_the_same_run() {
    let written = format!("{DEPLOYMENT}{SCENARIO}");
    let rewritten = format!("{DEPLOYMENT_REWRITTEN}{SCENARIO}");
    assert_ne!(written, rewritten);
    assert_eq!(read(&written).seed, read(&rewritten).seed);
    let (a, b) = (run(&written), run(&rewritten));
    assert_eq!(names(&a), names(&b));
    assert_eq!(a.events, b.events);
    assert_eq!(a.seed, b.seed);
    // Trailing spaces and a comment in the Scenario change nothing either.
    let commented = written.replace("startup: 40s", "startup: 40s   # measured");
    assert_eq!(run(&commented).events, a.events);
}

#[test]
fn the_template_hash_follows_the_template() {
    let base = run(&format!("{DEPLOYMENT}{SCENARIO}"));
    let hash = hashes(&base)[0].expect("a Deployment's pod has a hash");
    assert!(base
        .pods
        .iter()
        .all(|pod| pod.name.starts_with(&format!("model-api-{hash}-"))));
    // A change of the template: a new hash.
    let changed = run(&format!(
        "{}{SCENARIO}",
        DEPLOYMENT.replace("initialDelaySeconds: 10", "initialDelaySeconds: 20")
    ));
    assert_ne!(hashes(&changed)[0], Some(hash));
    let labelled = run(&format!(
        "{}{SCENARIO}",
        DEPLOYMENT.replace(
            "        app: model-api\n    spec:",
            "        app: model-api\n        tier: gpu\n    spec:"
        )
    ));
    assert_ne!(hashes(&labelled)[0], Some(hash));
    // A change outside the template (replicas): the same hash, as the
    // Deployment controller keeps the ReplicaSet when only replicas change.
    let scaled = run(&format!(
        "{}{SCENARIO}",
        DEPLOYMENT.replace("replicas: 2", "replicas: 3")
    ));
    assert_eq!(hashes(&scaled)[0], Some(hash));
    // Another Deployment beside it, and the Scenario's numbers: the same hash.
    let other = "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: { name: other }\nspec:\n  selector: { matchLabels: { app: other } }\n  template:\n    metadata: { labels: { app: other } }\n    spec: { containers: [{ name: web, image: nginx:1.27 }] }\n";
    let beside = run(&format!("{DEPLOYMENT}{other}{SCENARIO}"));
    assert_eq!(hashes(&beside)[0], Some(hash));
}

#[test]
fn an_action_recorded_at_t_changes_nothing_before_t() {
    let plain = format!("{DEPLOYMENT}{SCENARIO}");
    let with_action = format!(
        "{plain}  actions:\n    - {{ at: 5m, scale: {{ name: model-api, replicas: 1 }} }}\n"
    );
    let (a, b) = (run(&plain), run(&with_action));
    assert_eq!(a.seed, b.seed);
    let before = |run: &Run| {
        run.events
            .iter()
            .filter(|event| event.at < 300_000)
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(before(&a), before(&b));
    assert_eq!(names(&a), names(&b));
    // After T the action acts: the scale-down deletes a pod.
    assert!(b
        .events
        .iter()
        .any(|event| event.at >= 300_000 && event.reason == "SuccessfulDelete"));
}

/// A slider moves the Scenario's program (its load time): the program
/// behaves differently, but the pods keep their names. The seed leaves the
/// Scenario out: in Kubernetes the API server draws a pod's name and the
/// Deployment controller hashes the template, and neither sees how the
/// program behaves or which cluster it runs on (docs/simulator.md).
#[test]
fn a_slider_on_the_program_renames_no_pod() {
    let slow = run(&format!("{DEPLOYMENT}{SCENARIO}"));
    let fast = run(&format!(
        "{DEPLOYMENT}{}",
        SCENARIO.replace("startup: 40s", "startup: 5s")
    ));
    assert_ne!(slow.events, fast.events, "the program changed");
    assert_eq!(names(&slow), names(&fast));
    assert_eq!(hashes(&slow), hashes(&fast));
    // The cluster too.
    let cluster = SCENARIO.replace(
        "  workload:",
        "  cluster:\n    nodePools: [{ name: big, count: 2, cpu: 16, memory: 64Gi }]\n  workload:",
    );
    let moved = run(&format!("{DEPLOYMENT}{cluster}"));
    assert_eq!(names(&slow), names(&moved));
    // The Scenario's own `seed` is the one Scenario field that re-draws.
    let reseeded = run(&format!(
        "{DEPLOYMENT}{}",
        SCENARIO.replace("duration: 10m", "duration: 10m\n  seed: 7")
    ));
    assert_ne!(names(&slow), names(&reseeded));
    assert_eq!(hashes(&slow), hashes(&reseeded));
}

/// The Scenario's `rollout` gives the new ReplicaSet the hash of the
/// template written with the new image, and a rollback to the first image
/// reuses the first ReplicaSet.
#[test]
fn a_rollout_hashes_the_new_template() {
    let rolled = run(&format!(
        "{DEPLOYMENT}{SCENARIO}  rollout:\n    - {{ at: 60s, workload: model-api, image: registry.example.com/model-api:0.3.2 }}\n"
    ));
    let written_new = run(&format!(
        "{}{SCENARIO}",
        DEPLOYMENT.replace("model-api:0.3.1", "model-api:0.3.2")
    ));
    let deployment = rolled
        .deployments
        .iter()
        .find(|d| d.name == "model-api")
        .expect("the Deployment is kept");
    let rs: Vec<&str> = deployment
        .replica_sets
        .iter()
        .map(|rs| rs.hash.as_str())
        .collect();
    assert_eq!(rs.len(), 2);
    assert_eq!(Some(rs[1]), hashes(&written_new)[0]);
    assert_eq!(
        Some(rs[0]),
        hashes(&run(&format!("{DEPLOYMENT}{SCENARIO}")))[0]
    );
}
