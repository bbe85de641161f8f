//! `podlab diagnose`'s reader (`paste`) on podlab's own kubectl output,
//! which is kubectl v1.35.2's byte for byte (docs/kubectl.md): for every
//! golden scenario and every exercise, at several times, every pod's
//! `describe`, `get pod -o yaml|json`, `get events`, `get pods` and `logs
//! --previous` → `paste::diagnose` → the kind `explain::diagnosis::diagnose`
//! finds for that pod at that time (`paste::kind_name`).
//!
//! Whole pastes must give exactly that kind. A part of the output (one
//! command's, cut at a line or a byte, without its Events, with kubectl ≤
//! 1.19's `kubelet, node-1` From column) may have lost the cause: then
//! `unknown` is right, but another kind never is. The counts are printed
//! (`cargo test -p podlab-core --test paste -- --nocapture`) and reported
//! in docs/diagnose.md.

use std::collections::BTreeMap;
use std::path::Path;

use podlab_core::exercise::exec::ExecContext;
use podlab_core::explain::diagnosis::diagnose;
use podlab_core::kubectl::run as kubectl;
use podlab_core::manifest::duration::Millis;
use podlab_core::paste::{self, kind_name};
use podlab_core::sim::{simulate, Options};
use proptest::prelude::*;

const TIMES_S: [u64; 4] = [20, 90, 300, 720];

/// The kinds `paste::replay` rebuilds from a describe (docs/diagnose.md).
const REPLAYED: [&str; 10] = [
    "liveness-kills-slow-start",
    "oom-killed",
    "shm-oom-killed",
    "pending-insufficient-gpu",
    "pending-untolerated-taint",
    "image-pull",
    "missing-config",
    // Not among the goldens' and exercises' pods: checked by the unit
    // tests of `paste/replay/pending.rs` and `replayed_pending_kinds`.
    "pending-node-affinity",
    "pending-insufficient-resources",
    "pending-cordoned-node",
];

fn texts() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut out = Vec::new();
    for dir in ["tests/golden", "exercises"] {
        let mut entries: Vec<_> = std::fs::read_dir(root.join(dir))
            .expect("directory")
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| {
                p.extension().is_some_and(|x| x == "yaml")
                    && !p.to_string_lossy().ends_with(".solution.yaml")
            })
            .collect();
        entries.sort();
        for path in entries {
            let text = std::fs::read_to_string(&path).expect("readable");
            out.push((
                format!("{dir}/{}", path.file_name().unwrap().to_string_lossy()),
                text,
            ));
        }
    }
    out
}

/// One case: a pod at a time, the expected kind and podlab's outputs.
struct Case {
    label: String,
    pod: String,
    expected: &'static str,
    describe: String,
    yaml: String,
    json: String,
    events: String,
    pods: String,
    logs: String,
}

fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (name, text) in texts() {
        let run = simulate(
            &text,
            &Options {
                until: Some(TIMES_S[TIMES_S.len() - 1] * 1000 + 1000),
            },
        );
        let context = ExecContext::new(&text, &run);
        for at_s in TIMES_S {
            let at: Millis = at_s * 1000;
            let diagnoses = diagnose(&run, at);
            for pod in run.pods.iter().filter(|p| p.exists_at(at)) {
                let expected = match diagnoses.iter().find(|d| d.pod == pod.name) {
                    Some(d) => {
                        let evidence = d.evidence.join("\n");
                        let liveness = evidence.contains("failed liveness probe");
                        kind_name(d.kind, &evidence, liveness)
                    }
                    None => "healthy",
                };
                let out = |line: &str| kubectl(&context, line, at).stdout;
                cases.push(Case {
                    label: format!("{name} at {at_s}s, pod {}", pod.name),
                    pod: pod.name.clone(),
                    expected,
                    describe: out(&format!("kubectl describe pod {}", pod.name)),
                    yaml: out(&format!("kubectl get pod {} -o yaml", pod.name)),
                    json: out(&format!("kubectl get pod {} -o json", pod.name)),
                    events: out("kubectl get events"),
                    pods: out("kubectl get pods"),
                    // The previous instance's log, or the current one's
                    // (a Failed pod under restartPolicy Never has no previous).
                    logs: Some(out(&format!("kubectl logs {} --previous", pod.name)))
                        .filter(|logs| !logs.is_empty())
                        .unwrap_or_else(|| out(&format!("kubectl logs {}", pod.name))),
                });
            }
        }
    }
    cases
}

/// The paste's kind for `pod`: its own entry, or the answer's when the
/// paste names no pod.
fn kind_for(answer: &paste::Answer, pod: &str) -> &'static str {
    answer
        .pods
        .iter()
        .find(|(name, _)| name == pod)
        .map(|(_, kind)| *kind)
        .or(if answer.pod.is_none() {
            Some(answer.kind)
        } else {
            None
        })
        .unwrap_or("unknown")
}

fn whole(case: &Case) -> String {
    format!(
        "$ kubectl get pods\n{}\n$ kubectl describe pod {pod}\n{}\n$ kubectl logs {pod} --previous\n{}",
        case.pods,
        case.describe,
        case.logs,
        pod = case.pod
    )
}

/// kubectl ≤ 1.19's describe: `kubelet, <node>` in From, no field path
/// prefix on the message.
fn old_format(describe: &str) -> String {
    describe
        .lines()
        .map(|line| {
            let line = line.replacen(" kubelet            ", " kubelet, node-1   ", 1);
            match line.split_once("spec.containers{") {
                Some((before, after)) => match after.split_once("}: ") {
                    Some((_, message)) => format!("{before}{message}"),
                    None => line,
                },
                None => line,
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn without_events(describe: &str) -> String {
    describe
        .split("\nEvents:")
        .next()
        .unwrap_or(describe)
        .to_string()
}

/// A small deterministic generator for the cut positions.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % below.max(1)
    }
}

fn cut_at_byte(text: &str, mut at: usize) -> &str {
    while at > 0 && !text.is_char_boundary(at) {
        at -= 1;
    }
    &text[..at.min(text.len())]
}

/// `expected` is a finer kind of `read`: an OOM kill whose /dev/shm share
/// the part does not show is still an OOM kill (docs/diagnose.md).
fn refines(expected: &str, read: &str) -> bool {
    matches!((expected, read), ("shm-oom-killed", "oom-killed"))
}

#[derive(Default)]
struct Tally {
    right: usize,
    unknown: usize,
    coarser: usize,
    wrong: Vec<String>,
}

impl Tally {
    fn check(&mut self, case: &Case, what: &str, paste: &str, exact: bool) {
        let answer = paste::diagnose(paste);
        let kind = kind_for(&answer, &case.pod);
        if kind == case.expected {
            self.right += 1;
        } else if kind == "unknown" && !exact {
            self.unknown += 1;
        } else if !exact && refines(case.expected, kind) {
            self.coarser += 1;
        } else {
            self.wrong.push(format!(
                "{} ({what}): expected {}, read {kind}",
                case.label, case.expected
            ));
            if std::env::var_os("PASTE_DEBUG").is_some() {
                println!("--- {} ({what})\n{paste}\n--- {answer:?}", case.label);
            }
        }
    }
}

#[test]
fn round_trip_over_goldens_and_exercises() {
    let cases = cases();
    assert!(cases.len() > 100, "{} cases", cases.len());
    let mut tallies: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    let mut random = Lcg(31);
    for case in &cases {
        *kinds.entry(case.expected).or_default() += 1;
        let whole_text = whole(case);
        tallies
            .entry("whole")
            .or_default()
            .check(case, "whole", &whole_text, true);
        let with_logs = |text: &str| {
            format!(
                "{text}\n$ kubectl logs {} --previous\n{}",
                case.pod, case.logs
            )
        };
        tallies
            .entry("describe")
            .or_default()
            .check(case, "describe", &case.describe, false);
        tallies.entry("describe+logs").or_default().check(
            case,
            "describe+logs",
            &with_logs(&case.describe),
            false,
        );
        tallies.entry("yaml+logs").or_default().check(
            case,
            "yaml+logs",
            &with_logs(&case.yaml),
            false,
        );
        tallies.entry("json+logs").or_default().check(
            case,
            "json+logs",
            &with_logs(&case.json),
            false,
        );
        let listed = format!("{}\n{}", case.pods, case.events);
        tallies.entry("get pods+events").or_default().check(
            case,
            "get pods+events",
            &listed,
            false,
        );
        tallies.entry("no events").or_default().check(
            case,
            "no events",
            &with_logs(&without_events(&case.describe)),
            false,
        );
        tallies.entry("old From").or_default().check(
            case,
            "old From",
            &with_logs(&old_format(&case.describe)),
            false,
        );
        for _ in 0..3 {
            let lines: Vec<&str> = whole_text.lines().collect();
            let at = random.next(lines.len() + 1);
            let from = random.next(at + 1);
            let cut = lines[from..at].join("\n");
            tallies.entry("line cuts").or_default().check(
                case,
                &format!("lines {from}..{at}"),
                &cut,
                false,
            );
            let byte = random.next(whole_text.len() + 1);
            tallies.entry("byte cuts").or_default().check(
                case,
                &format!("first {byte} bytes"),
                cut_at_byte(&whole_text, byte),
                false,
            );
        }
    }
    // Every describe of a kind the replay rebuilds gives a replay that
    // shows, within the pasted age, the pasted STATUS and RESTARTS (and
    // the scheduler's or the kubelet's message), and whose fix recovers.
    let mut replays: BTreeMap<&str, [usize; 4]> = BTreeMap::new();
    let mut failures = Vec::new();
    for case in cases.iter().filter(|c| REPLAYED.contains(&c.expected)) {
        let answer = paste::diagnose(&case.describe);
        let tally = replays.entry(case.expected).or_default();
        tally[0] += 1;
        let Some(replay) = &answer.replay else {
            failures.push(format!("{}: no replay ({})", case.label, answer.kind));
            continue;
        };
        tally[1] += 1;
        tally[2] += usize::from(replay.matches);
        tally[3] += usize::from(replay.fixed_recovers);
        if !replay.matches || !replay.fixed_recovers {
            failures.push(format!(
                "{}: matches {} recovers {}: {:?}",
                case.label, replay.matches, replay.fixed_recovers, replay.compared
            ));
        }
        // The replay's own numbers are in the answer's `assumed`.
        for a in &replay.assumed {
            assert!(answer.assumed.contains(a), "{}: {a:?}", case.label);
        }
    }
    // A Pending pod's `kubectl get events` alone (no describe: its request
    // is assumed from the message) when the answer is about that pod.
    let mut from_events = [0usize; 3];
    for case in cases.iter().filter(|c| c.expected.starts_with("pending-")) {
        let answer = paste::diagnose(&case.events);
        if answer.pod.as_deref() != Some(case.pod.as_str()) {
            continue;
        }
        from_events[0] += 1;
        let Some(replay) = &answer.replay else {
            failures.push(format!("{} (get events): no replay", case.label));
            continue;
        };
        from_events[1] += usize::from(replay.matches);
        from_events[2] += usize::from(replay.fixed_recovers);
        if !replay.matches || !replay.fixed_recovers {
            failures.push(format!(
                "{} (get events): {:?}",
                case.label, replay.compared
            ));
        }
    }
    let mut report = format!(
        "{} cases (pod × time); expected kinds: {kinds:?}\nreplays (describe cases / replays made / matched / fix recovers): {replays:?}\nPending pods' get events alone (answered about the pod / matched / fix recovers): {from_events:?}\n",
        cases.len()
    );
    for line in &failures {
        println!("REPLAY {line}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let mut wrong = Vec::new();
    for (what, tally) in &tallies {
        report.push_str(&format!(
            "{what}: {} right, {} unknown, {} coarser (oom-killed for shm-oom-killed), {} wrong\n",
            tally.right,
            tally.unknown,
            tally.coarser,
            tally.wrong.len()
        ));
        wrong.extend(tally.wrong.iter().cloned());
    }
    println!("{report}");
    for line in &wrong {
        println!("WRONG {line}");
    }
    assert!(
        wrong.is_empty(),
        "{report}\n{} wrong:\n{}",
        wrong.len(),
        wrong
            .iter()
            .take(60)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// The done-when of issue 31, on the seed's crash loop at 12 minutes.
#[test]
fn seed_crash_loop_describe() {
    let case = cases()
        .into_iter()
        .find(|c| {
            c.label
                .starts_with("tests/golden/crash-loop-liveness-40s.yaml at 720s")
        })
        .expect("the seed's crash loop");
    let answer = paste::diagnose(&case.describe);
    assert_eq!(answer.kind, "liveness-kills-slow-start", "{answer:?}");
    let quoted = |needle: &str| answer.evidence.iter().any(|l| l.text.contains(needle));
    assert!(quoted("Liveness probe failed"), "{answer:?}");
    assert!(quoted("Back-off restarting failed container"), "{answer:?}");
    assert!(answer
        .fix
        .as_deref()
        .is_some_and(|f| f.starts_with("startupProbe:")));
    // The replay: podlab's own get pods within the paste's age [12m, 13m)
    // shows the pasted STATUS and RESTARTS, and the fix recovers.
    let replay = answer.replay.as_ref().expect("a replay");
    assert!(replay.matches, "{replay:?}");
    assert!((720_000..780_000).contains(&replay.at), "{replay:?}");
    assert!(
        replay.get_pods.contains("CrashLoopBackOff   7"),
        "{}",
        replay.get_pods
    );
    assert!(
        replay.fixed_get_pods.contains("1/1     Running"),
        "{}",
        replay.fixed_get_pods
    );
    assert!(replay.link.is_some());
    // Each evidence line is the paste's line of that number.
    let lines: Vec<&str> = case.describe.lines().collect();
    for line in &answer.evidence {
        assert_eq!(lines[line.number - 1].trim(), line.text, "{line:?}");
    }
}

/// The Pending kinds no golden or exercise shows: podlab's own describe of
/// a pod whose nodeSelector no node matches, of one that asks for more CPU
/// and memory than a node has (two nodes, one full of another pod), and of
/// one that tolerates a taint but not the other, read back and replayed.
#[test]
fn replayed_pending_kinds() {
    let texts = [
        (
            "pending-node-affinity",
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: picky }\nspec:\n  replicas: 1\n  selector: { matchLabels: { app: picky } }\n  template:\n    metadata: { labels: { app: picky } }\n    spec:\n      nodeSelector: { gpu-type: h100 }\n      containers:\n        - name: api\n          image: registry.example.com/picky:1\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: s }\nspec:\n  cluster:\n    nodePools:\n      - { name: a, count: 2, labels: { gpu-type: l4 } }\n",
        ),
        (
            "pending-insufficient-resources",
            "apiVersion: v1\nkind: Pod\nmetadata: { name: first }\nspec:\n  containers:\n    - name: w\n      image: registry.example.com/w:1\n      resources: { requests: { cpu: \"6\", memory: 8Gi } }\n---\napiVersion: v1\nkind: Pod\nmetadata: { name: big }\nspec:\n  containers:\n    - name: api\n      image: registry.example.com/big:1\n      resources: { requests: { cpu: \"4\", memory: 40Gi } }\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: s }\nspec:\n  cluster:\n    nodePools:\n      - { name: small, count: 1, cpu: \"8\", memory: 32Gi }\n",
        ),
        (
            "pending-cordoned-node",
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: waits }\nspec:\n  replicas: 1\n  selector: { matchLabels: { app: waits } }\n  template:\n    metadata: { labels: { app: waits } }\n    spec:\n      containers:\n        - name: api\n          image: registry.example.com/waits:1\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: s }\nspec:\n  cluster:\n    nodePools:\n      - { name: a, count: 2 }\n  actions:\n    - { at: 0s, cordon: { node: a-0 } }\n    - { at: 0s, cordon: { node: a-1 } }\n",
        ),
        (
            "pending-untolerated-taint",
            "apiVersion: v1\nkind: Pod\nmetadata: { name: half }\nspec:\n  tolerations: [{ key: team, operator: Equal, value: ml, effect: NoSchedule }]\n  containers:\n    - name: api\n      image: registry.example.com/half:1\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: s }\nspec:\n  cluster:\n    nodePools:\n      - { name: a, count: 1, taints: [{ key: team, value: ml, effect: NoSchedule }, { key: spot, value: \"true\", effect: NoSchedule }] }\n",
        ),
    ];
    for (kind, text) in texts {
        let run = simulate(
            text,
            &Options {
                until: Some(301_000),
            },
        );
        let context = ExecContext::new(text, &run);
        let pod = run
            .pods
            .iter()
            .find(|p| p.node.is_none())
            .expect("a Pending pod");
        let describe = kubectl(
            &context,
            &format!("kubectl describe pod {}", pod.name),
            300_000,
        )
        .stdout;
        let answer = paste::diagnose(&describe);
        assert_eq!(answer.kind, kind, "{describe}");
        let replay = answer.replay.as_ref().expect("a replay");
        assert!(
            replay.matches,
            "{kind}: {:?}\n{}",
            replay.compared, replay.text
        );
        assert!(replay.fixed_recovers, "{kind}: {}", replay.fixed_get_pods);
        println!("{kind}: {:?}", replay.compared.last());
        if kind == "pending-node-affinity" {
            // The fix is `kubectl label node`: the answer's line, and the
            // replay's fixed text labels a node that has room at 0 s
            // (`sim/metadata.rs`) instead of adding one.
            assert_eq!(
                answer.fix.as_deref(),
                Some("kubectl label node NODE gpu-type=h100")
            );
            assert!(
                replay
                    .fixed_text
                    .contains("label: { node: pool0-0, labels: { gpu-type: \"h100\" } }"),
                "{}",
                replay.fixed_text
            );
            assert!(replay.fix_note.en.contains("kubectl label node pool0-0"));
        }
    }
}

/// A replay that cannot reach the paste says so: the OOM golden's describe
/// at 12 minutes with its restart count edited (6 → 9) is not matched, and
/// the RESTARTS comparison names both numbers.
#[test]
fn replay_reports_a_paste_it_cannot_reach() {
    let case = cases()
        .into_iter()
        .find(|c| {
            c.label
                .starts_with("tests/golden/oom-at-loading-peak.yaml at 720s")
        })
        .expect("the OOM golden at 12 minutes");
    let replay = paste::diagnose(&case.describe).replay.expect("a replay");
    assert!(replay.matches, "{:?}", replay.compared);
    let edited = case
        .describe
        .replace("Restart Count:  6", "Restart Count:  9");
    assert_ne!(edited, case.describe);
    let replay = paste::diagnose(&edited).replay.expect("a replay");
    assert!(!replay.matches, "{:?}", replay.compared);
    let restarts = replay
        .compared
        .iter()
        .find(|c| c.what == "RESTARTS")
        .expect("RESTARTS compared");
    assert_eq!(restarts.pasted, "9");
    assert!(!restarts.same, "{restarts:?}");
}

/// The reader's tolerance: prompts, markdown, redacted names, a cut last line.
#[test]
fn pasted_from_a_chat() {
    let case = cases()
        .into_iter()
        .find(|c| {
            c.label
                .starts_with("tests/golden/crash-loop-liveness-40s.yaml at 720s")
        })
        .expect("the seed's crash loop");
    let redacted = case.describe.replace("gpu-node-1", "<worker>.example.org");
    let mut chat = format!(
        "**Here is my pod:**\n```\nuser@box:~$ kubectl describe pod {}\n{redacted}```\n",
        case.pod
    );
    chat.truncate(chat.len() - 30);
    let answer = paste::diagnose(&chat);
    assert_eq!(answer.kind, "liveness-kills-slow-start", "{answer:?}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    /// Never a panic on any bytes, and never more than the paste's lines
    /// as evidence.
    #[test]
    fn any_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..2000)) {
        let text = String::from_utf8_lossy(&bytes);
        let answer = paste::diagnose(&text);
        let lines = text.split('\n').count();
        prop_assert!(answer.evidence.iter().all(|l| l.number >= 1 && l.number <= lines));
    }

    /// Never a panic on kubectl-like tokens glued at random.
    #[test]
    fn kubectl_tokens(parts in proptest::collection::vec(proptest::sample::select(vec![
        "Name:  x\n", "Events:\n", "  Type  Reason  Age  From  Message\n", "  Warning  BackOff  5m (x3 over ",
        "  Normal  Killing  <invalid>  kubelet, n  Container a failed liveness probe\n", "Containers:\n", "  a:\n",
        "    State:  Waiting\n", "      Reason:  CrashLoopBackOff\n", "    Last State:  Terminated\n", "      Exit Code:  137\n",
        "apiVersion: v1\n", "status:\n", "  containerStatuses:\n", "  - lastState:\n", "      terminated:\n",
        "        reason: OOMKilled\n", "{\n", "    \"status\": {\n", "NAME  READY  STATUS  RESTARTS  AGE\n",
        "x  0/1  CrashLoopBackOff  7 (2m ago)  12m\n", "x 0/1 Error 3 1m\n", "$ kubectl logs x\n", "```\n", "**", "\r", "\t", " ", "模",
        "12m  Warning  FailedScheduling  pod/x  0/1 nodes are available: 1 Insufficient nvidia.com/gpu.\n",
    ]), 0..80)) {
        let text: String = parts.concat();
        let _ = paste::diagnose(&text);
    }
}

/// Bounded work: a paste far over the limits is read in its first lines.
#[test]
fn huge_paste() {
    let line =
        "  Warning  BackOff  5m (x3 over 9m)  kubelet  Back-off restarting failed container\n";
    let text = line.repeat(100_000);
    let answer = paste::diagnose(&text);
    assert!(
        answer.recognised.en.contains("only the first"),
        "{}",
        answer.recognised.en
    );
}

/// Real pastes from public threads (`tests/fixtures/paste/*.txt`): each
/// file's `#! ` lines give its source, what it shows, the thread's cause
/// as far as it was read, and the kind the pasted part shows; the rest is
/// the paste, unchanged.
#[test]
fn real_pastes_from_public_threads() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/paste");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("fixtures")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable");
        let (meta, paste): (Vec<&str>, Vec<&str>) =
            text.lines().partition(|l| l.starts_with("#! "));
        assert!(
            meta.iter()
                .any(|l| l.starts_with("#! source: https://github.com/")),
            "{}: no source",
            path.display()
        );
        let expected = meta
            .iter()
            .find_map(|l| l.strip_prefix("#! kind the paste shows: "))
            .and_then(|k| k.split_whitespace().next())
            .expect("the kind the paste shows");
        let answer = paste::diagnose(&(paste.join("\n") + "\n"));
        println!("{}: {}", path.display(), answer.kind);
        assert_eq!(answer.kind, expected, "{}: {answer:?}", path.display());
    }
}
