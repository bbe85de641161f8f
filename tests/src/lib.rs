//! Support for the end-to-end tests in `tests/`: a static server for the
//! built `dist/`, and a small WebDriver client driving Debian's headless
//! Chromium through `/usr/bin/chromedriver`.
//!
//! `cargo xtask test` builds `dist/` with `trunk build --release` and then runs
//! these tests with `PODLAB_DIST` pointing at it. Without a built site the
//! tests fail and say so; they never pass vacuously.

pub mod page;
pub mod server;
pub mod webdriver;

use std::path::PathBuf;

/// The workspace root (this crate lives in `tests/`).
pub fn workspace_root() -> PathBuf {
    let manifest_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest_dir
        .parent()
        .map(PathBuf::from)
        .unwrap_or(manifest_dir)
}

/// The built site: `$PODLAB_DIST`, else `dist/` at the workspace root.
///
/// Panics with instructions when there is none, so a missing build fails.
pub fn dist_dir() -> PathBuf {
    let dist = std::env::var_os("PODLAB_DIST")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("dist"));
    if !dist.join("index.html").is_file() {
        panic!(
            "no built site at {}: run `cargo xtask test`, which builds it with `trunk build --release` before the end-to-end tests",
            dist.display()
        );
    }
    dist
}

/// axe-core's `axe.min.js`: `$PODLAB_AXE` (set by `cargo xtask test`,
/// which installs it), else where that install puts it.
///
/// Panics with instructions when it is missing, so the accessibility
/// tests never pass without running axe.
pub fn axe_script() -> String {
    let path = std::env::var_os("PODLAB_AXE")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            workspace_root().join("target/tools/axe-core-4.14.1/node_modules/axe-core/axe.min.js")
        });
    std::fs::read_to_string(&path).unwrap_or_else(|error| {
        panic!(
            "no axe-core at {} ({error}): run `cargo xtask test`, which installs it from npm",
            path.display()
        )
    })
}

/// Where tests leave screenshots and logs: `target/e2e/`.
pub fn output_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target"));
    let dir = target.join("e2e");
    std::fs::create_dir_all(&dir)
        .unwrap_or_else(|error| panic!("cannot create {}: {error}", dir.display()));
    dir
}

/// A port on 127.0.0.1 that was free a moment ago.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind(("127.0.0.1", 0))
        .and_then(|listener| listener.local_addr())
        .map(|address| address.port())
        .unwrap_or_else(|error| panic!("no free port on 127.0.0.1: {error}"))
}

/// The median, the 95th percentile (nearest rank) and the maximum of
/// `values` (milliseconds), as the timing files write them; sorts them.
pub fn spread(values: &mut [f64]) -> String {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n == 0 {
        return "none".into();
    }
    let median = if n.is_multiple_of(2) {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    } else {
        values[n / 2]
    };
    let p95 = values[(n * 95).div_ceil(100) - 1];
    format!(
        "median {median:.1} ms, p95 {p95:.1} ms, max {:.1} ms",
        values[n - 1]
    )
}
