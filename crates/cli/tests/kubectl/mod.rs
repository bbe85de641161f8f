//! Running a real kubectl (v1.35, installed by `cargo xtask test`, path in
//! `PODLAB_KUBECTL`) against a fake API server that serves a simulated run's
//! Pod and Event objects, so podlab's renderers can be compared with what
//! kubectl prints for the same objects.
//!
//! Clocks: kubectl computes ages (the Events table) from its own wall clock,
//! which cannot be faked for a static Go binary. So the objects served to it
//! carry real timestamps: a simulated time `t` becomes `base + t`, where
//! `base = now − T` (whole seconds) and `T` is the time the pod is described
//! at; podlab's renderer gets the same `T`, so both see the same ages. Every
//! run starts just after a wall-clock second turns and is repeated if kubectl
//! took a second or more, so kubectl's "now" lies in `[base + T, base + T + 1)`
//! and truncates to the same whole seconds as podlab's `T`. The absolute
//! times kubectl prints (`Start Time`, `Started`, `Finished`) are then moved
//! back by `base − EPOCH` (objects::shift_dates) to compare with podlab's
//! fixed epoch, 2026-01-01T00:00:00Z.
//!
//! Events with a sub-second time (a scheduler's `eventTime` at x.1 s) turn
//! their age over somewhere inside that second, so the harness also records
//! the simulated "now" (`unix now − base`, milliseconds) just before kubectl
//! starts and just after it returns, and accepts kubectl's text when it
//! equals podlab's rendered at either end (describe_kubectl.rs `mismatch`).

pub mod acts;
pub mod autoscalers;
pub mod deployments;
pub mod jobs;
pub mod lines;
pub mod nodes;
pub mod objects;
pub mod server;
pub mod services;
pub mod sets;
pub mod tables;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use self::server::ApiServer;

/// The kubectl that `cargo xtask test` installed. Fails (never skips) when
/// the variable is unset.
pub fn kubectl() -> PathBuf {
    let Some(path) = std::env::var_os("PODLAB_KUBECTL") else {
        panic!(
            "PODLAB_KUBECTL is not set: these tests compare podlab with a real kubectl v1.35. \
             Run `cargo xtask test`, which installs it into target/tools/kubectl-v1.35/ and sets \
             PODLAB_KUBECTL (or set PODLAB_KUBECTL=target/tools/kubectl-v1.35/kubectl yourself \
             after one `cargo xtask test`)"
        );
    };
    let path = PathBuf::from(path);
    let path = if path.is_relative() {
        // Relative to the workspace root, which is also this package's
        // directory (the root Cargo.toml is the `podlab` package).
        Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
    } else {
        path
    };
    assert!(
        path.is_file(),
        "PODLAB_KUBECTL={} is not a file; run `cargo xtask test` to install kubectl",
        path.display()
    );
    path
}

/// A directory of its own under the system's temp dir, removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(label: &str) -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "podlab-{label}-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir)
            .unwrap_or_else(|error| panic!("cannot create {}: {error}", dir.display()));
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A kubeconfig with one cluster (the fake server, plain HTTP), one user
/// without credentials and one context whose namespace is `default`.
pub fn write_kubeconfig(dir: &Path, server: &ApiServer) -> PathBuf {
    let path = dir.join("kubeconfig");
    let text = format!(
        "apiVersion: v1
kind: Config
clusters:
  - name: podlab
    cluster:
      server: {}
users:
  - name: podlab
    user: {{}}
contexts:
  - name: podlab
    context:
      cluster: podlab
      user: podlab
      namespace: default
current-context: podlab
preferences: {{}}
",
        server.url()
    );
    std::fs::write(&path, text)
        .unwrap_or_else(|error| panic!("cannot write {}: {error}", path.display()));
    path
}

/// What one kubectl run printed.
pub struct KubectlRun {
    pub stdout: String,
    pub stderr: String,
    pub success: bool,
}

/// Runs kubectl with the kubeconfig, a private discovery cache, UTC and a
/// clean environment, so nothing of the machine's own kubectl setup leaks in.
pub fn run_kubectl(dir: &Path, kubeconfig: &Path, args: &[&str]) -> KubectlRun {
    let cache = dir.join("cache");
    let output = Command::new(kubectl())
        .env_clear()
        .env("HOME", dir)
        .env("TZ", "UTC")
        .arg("--kubeconfig")
        .arg(kubeconfig)
        .arg("--cache-dir")
        .arg(&cache)
        .args(args)
        .output()
        .unwrap_or_else(|error| panic!("cannot run kubectl: {error}"));
    KubectlRun {
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        success: output.status.success(),
    }
}

/// Seconds since the Unix epoch, with the fraction.
pub fn unix_now() -> Duration {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("the clock is after 1970")
}

/// Sleeps until a wall-clock second has just begun; returns that second.
pub fn next_whole_second() -> u64 {
    let now = unix_now();
    let left =
        Duration::from_secs(1).saturating_sub(Duration::from_nanos(u64::from(now.subsec_nanos())));
    std::thread::sleep(left + Duration::from_millis(5));
    unix_now().as_secs()
}

/// A line diff of `expected` (podlab) and `actual` (kubectl): the longest
/// common subsequence of lines, printed with `-`/`+`/` ` markers and
/// trailing spaces made visible as `·`.
pub fn line_diff(expected: &str, actual: &str) -> String {
    let a: Vec<&str> = expected.lines().collect();
    let b: Vec<&str> = actual.lines().collect();
    let mut lcs = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let show = |line: &str| {
        let trimmed = line.trim_end_matches(' ');
        format!("{trimmed}{}", "·".repeat(line.len() - trimmed.len()))
    };
    let mut out = String::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            out.push_str(&format!("  {}\n", show(a[i])));
            i += 1;
            j += 1;
        } else if i < a.len() && (j == b.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            out.push_str(&format!("- {}\n", show(a[i])));
            i += 1;
        } else {
            out.push_str(&format!("+ {}\n", show(b[j])));
            j += 1;
        }
    }
    if expected.ends_with('\n') != actual.ends_with('\n') {
        out.push_str("(the two differ in the final newline)\n");
    }
    out
}
