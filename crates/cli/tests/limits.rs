//! The built `podlab` binary against hostile and large inputs: an alias bomb
//! ("billion laughs"), an input over the 4 MiB limit and a large input under
//! it. Each run has a watchdog: a process still running after 30 s is killed
//! and the test fails.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::Value;

const PODLAB: &str = env!("CARGO_BIN_EXE_podlab");
const WATCHDOG: Duration = Duration::from_secs(30);
/// `Limits::default().max_bytes` in podlab-core.
const MAX_BYTES: usize = 4 * 1024 * 1024;

/// A directory of its own under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(label: &str) -> TempDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.as_nanos());
        let path = std::env::temp_dir().join(format!(
            "podlab-limits-{label}-{}-{nanos}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&path)
            .unwrap_or_else(|error| panic!("cannot create {}: {error}", path.display()));
        TempDir(path)
    }

    fn write(&self, name: &str, contents: &str) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, contents)
            .unwrap_or_else(|error| panic!("cannot write {}: {error}", path.display()));
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

struct Run {
    status: ExitStatus,
    stdout: String,
    stderr: String,
    elapsed: Duration,
}

/// Runs `podlab ARGS` (feeding `stdin` when given), killing it after the watchdog.
fn podlab(args: &[&str], stdin: Option<String>) -> Run {
    let started = Instant::now();
    let mut child = Command::new(PODLAB)
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|error| panic!("cannot start {PODLAB}: {error}"));
    let writer = stdin.map(|input| {
        let mut pipe = child.stdin.take().expect("stdin is piped");
        // A broken pipe (podlab exiting early) is not this test's concern.
        thread::spawn(move || {
            let _ = pipe.write_all(input.as_bytes());
        })
    });
    let mut stdout_pipe = child.stdout.take().expect("stdout is piped");
    let mut stderr_pipe = child.stderr.take().expect("stderr is piped");
    let stdout_reader = thread::spawn(move || {
        let mut out = String::new();
        let _ = stdout_pipe.read_to_string(&mut out);
        out
    });
    let stderr_reader = thread::spawn(move || {
        let mut out = String::new();
        let _ = stderr_pipe.read_to_string(&mut out);
        out
    });
    let status = loop {
        if let Some(status) = child.try_wait().expect("cannot wait for podlab") {
            break status;
        }
        if started.elapsed() > WATCHDOG {
            let _ = child.kill();
            let _ = child.wait();
            panic!("podlab {args:?} still running after {WATCHDOG:?}: killed (a hang?)");
        }
        thread::sleep(Duration::from_millis(20));
    };
    let elapsed = started.elapsed();
    if let Some(writer) = writer {
        writer.join().expect("the stdin writer thread panicked");
    }
    Run {
        status,
        stdout: stdout_reader.join().expect("the stdout reader panicked"),
        stderr: stderr_reader.join().expect("the stderr reader panicked"),
        elapsed,
    }
}

/// The `diagnostics` array of `--format json` output; fails the test when the
/// output is not that JSON.
fn diagnostics(run: &Run) -> Vec<Value> {
    let json: Value = serde_json::from_str(&run.stdout).unwrap_or_else(|error| {
        panic!(
            "stdout is not JSON ({error}); stderr: {}\nstdout starts: {}",
            run.stderr,
            run.stdout.chars().take(500).collect::<String>()
        )
    });
    json.get("diagnostics")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_else(|| panic!("no `diagnostics` array in {json}"))
}

fn rule_of(diagnostic: &Value) -> &str {
    diagnostic["rule"].as_str().unwrap_or("")
}

fn assert_exit(run: &Run, code: i32) {
    assert_eq!(
        run.status.code(),
        Some(code),
        "podlab exited with {:?} (expected {code}; a signal means a crash); stderr: {}",
        run.status,
        run.stderr
    );
}

/// Nested anchors: level 0 holds 10 strings, every next level 10 aliases of
/// the previous one, so level `levels - 1` stands for 10^levels strings.
fn billion_laughs(levels: usize) -> String {
    let lols = ["\"lol\""; 10].join(", ");
    let mut text = format!("a0: &a0 [{lols}]\n");
    for level in 1..levels {
        let previous = format!("*a{}", level - 1);
        let items = [previous.as_str(); 10].join(", ");
        text.push_str(&format!("a{level}: &a{level} [{items}]\n"));
    }
    text
}

/// One valid Deployment document of about 1 KiB, named `model-{n}`.
fn deployment(n: usize) -> String {
    format!(
        "---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: model-{n}
  labels: {{app: model-{n}}}
spec:
  replicas: 1
  selector:
    matchLabels: {{app: model-{n}}}
  template:
    metadata:
      labels: {{app: model-{n}}}
    spec:
      containers:
        - name: server
          image: ghcr.io/example/model-server:1.{n}
          ports:
            - containerPort: 8000
          resources:
            requests: {{cpu: \"2\", memory: 8Gi, nvidia.com/gpu: 1}}
            limits: {{memory: 8Gi, nvidia.com/gpu: 1}}
          readinessProbe:
            httpGet: {{path: /ready, port: 8000}}
            periodSeconds: 5
          volumeMounts:
            - {{name: cache, mountPath: /cache}}
      volumes:
        - name: cache
          emptyDir: {{}}
"
    )
}

/// Valid Deployment documents adding up to at least `bytes`.
fn many_deployments(bytes: usize) -> String {
    let mut text = String::with_capacity(bytes + 2048);
    let mut n = 0;
    while text.len() < bytes {
        text.push_str(&deployment(n));
        n += 1;
    }
    text
}

fn path_str(path: &Path) -> &str {
    path.to_str().expect("temp paths are UTF-8")
}

#[test]
fn billion_laughs_stops_at_the_alias_limit() {
    let dir = TempDir::new("bomb");
    for levels in [9, 10] {
        let bomb = billion_laughs(levels);
        let file = dir.write(&format!("bomb-{levels}.yaml"), &bomb);
        let run = podlab(&["lint", path_str(&file), "--format", "json"], None);
        assert_exit(&run, 1);
        let found = diagnostics(&run);
        let limit = found
            .iter()
            .find(|diagnostic| rule_of(diagnostic) == "PL005")
            .unwrap_or_else(|| panic!("no PL005 for a {levels}-level alias bomb: {found:?}"));
        assert_eq!(limit["severity"], "error", "{limit}");
        assert_eq!(limit["name"], "input-limit", "{limit}");
        let message = limit["message"].as_str().unwrap_or("");
        assert!(
            message.contains("alias"),
            "the message should say that aliases hit the limit: {message}"
        );
        eprintln!("bomb of {levels} levels: PL005 in {:?}", run.elapsed);

        // The same bomb on standard input.
        let run = podlab(&["lint", "-", "--format", "json"], Some(bomb));
        assert_exit(&run, 1);
        assert!(
            diagnostics(&run)
                .iter()
                .any(|diagnostic| rule_of(diagnostic) == "PL005"),
            "no PL005 for the bomb on stdin: {}",
            run.stdout
        );
    }
}

#[test]
fn input_over_four_mib_is_refused_with_the_limit_named() {
    let text = many_deployments(5 * 1000 * 1000);
    assert!(text.len() > MAX_BYTES);
    let dir = TempDir::new("large");
    let file = dir.write("five-mb.yaml", &text);
    let run = podlab(&["lint", path_str(&file), "--format", "json"], None);
    assert_exit(&run, 1);
    let found = diagnostics(&run);
    assert_eq!(
        found.iter().map(rule_of).collect::<Vec<_>>(),
        vec!["PL005"],
        "exactly one diagnostic, the size limit: {found:?}"
    );
    let limit = &found[0];
    assert_eq!(limit["severity"], "error", "{limit}");
    assert_eq!(limit["name"], "input-limit", "{limit}");
    assert_eq!((&limit["line"], &limit["column"]), (&1.into(), &1.into()));
    let message = limit["message"].as_str().unwrap_or("");
    let size_kib = format!("{} KiB", text.len() / 1024);
    let limit_kib = format!("{} KiB", MAX_BYTES / 1024);
    assert!(
        message.contains(&size_kib) && message.contains(&limit_kib),
        "the message should name the size ({size_kib}) and the limit ({limit_kib}): {message}"
    );
    // The text output says the same in words, without a crash.
    let run = podlab(&["lint", path_str(&file)], None);
    assert_exit(&run, 1);
    assert!(
        run.stdout.contains("PL005") && run.stdout.contains(&limit_kib),
        "text output: {}",
        run.stdout
    );
    eprintln!(
        "{} bytes refused in {:?}: {message}",
        text.len(),
        run.elapsed
    );
}

#[test]
fn three_mb_of_valid_deployments_is_read_completely() {
    let text = many_deployments(3 * 1000 * 1000);
    assert!(text.len() < MAX_BYTES);
    let documents = text.matches("\nkind: Deployment\n").count();
    let dir = TempDir::new("under");
    let file = dir.write("three-mb.yaml", &text);
    let run = podlab(&["lint", path_str(&file), "--format", "json"], None);
    assert!(
        matches!(run.status.code(), Some(0 | 1)),
        "podlab exited with {:?}; stderr: {}",
        run.status,
        run.stderr
    );
    let found = diagnostics(&run);
    let refused: Vec<&Value> = found
        .iter()
        .filter(|diagnostic| matches!(rule_of(diagnostic), "PL001" | "PL005"))
        // The note that a long report was cut (lint::MAX_DIAGNOSTICS) is info.
        .filter(|diagnostic| diagnostic["severity"] != "info")
        .collect();
    assert!(
        refused.is_empty(),
        "valid YAML under the limits got syntax/limit diagnostics: {refused:?}"
    );
    let line_count = text.lines().count() + 1;
    for diagnostic in &found {
        let line = diagnostic["line"].as_u64().unwrap_or(0);
        assert!(line >= 1 && line as usize <= line_count, "{diagnostic}");
    }
    eprintln!(
        "{} bytes, {documents} Deployments: exit {:?}, {} diagnostics in {:?}",
        text.len(),
        run.status.code(),
        found.len(),
        run.elapsed
    );
}
