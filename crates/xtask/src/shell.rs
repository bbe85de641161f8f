//! Running commands: every command is echoed before it runs, inherits the
//! terminal, and a failure becomes one error naming the command.
//!
//! Children get a PATH with cargo's bin directory and npm's binaryen first, so
//! the tools installed here win over older copies (Debian's binaryen 108
//! cannot read what Rust 1.95 emits; ../shared/TOOLCHAIN.md).

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use anyhow::{bail, Context, Result};

/// Prints a step's header line.
pub fn step(title: &str) {
    println!("\n==> {title}");
}

pub fn format_duration(duration: Duration) -> String {
    let seconds = duration.as_secs();
    format!("{}m{:02}s", seconds / 60, seconds % 60)
}

pub struct Shell {
    /// The workspace root (where Cargo.toml, Trunk.toml and dist/ are).
    pub root: PathBuf,
    path: OsString,
}

impl Shell {
    pub fn new() -> Result<Shell> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .ancestors()
            .nth(2)
            .context("invariant: xtask lives in crates/xtask of the workspace")?
            .to_path_buf();
        let mut dirs: Vec<PathBuf> = Vec::new();
        if let Some(npm_root) = capture_in(&root, OsStr::new("npm"), &["root", "-g"], None) {
            dirs.push(Path::new(npm_root.trim()).join("binaryen").join("bin"));
        }
        dirs.push(cargo_home().join("bin"));
        let inherited = std::env::var_os("PATH").unwrap_or_default();
        dirs.extend(std::env::split_paths(&inherited));
        let path = std::env::join_paths(dirs).context("PATH holds an unusable directory")?;
        Ok(Shell { root, path })
    }

    /// A command run in the workspace root with the tool-first PATH.
    pub fn command(&self, program: &str, args: &[&str]) -> Cmd {
        let mut command = Command::new(self.resolve(program));
        command
            .args(args)
            .current_dir(&self.root)
            .env("PATH", &self.path);
        Cmd {
            shown: std::iter::once(program)
                .chain(args.iter().copied())
                .collect::<Vec<_>>()
                .join(" "),
            command,
        }
    }

    pub fn cargo(&self, args: &[&str]) -> Cmd {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        let mut cmd = self.command(&cargo, args);
        cmd.shown = format!("cargo {}", args.join(" "));
        cmd
    }

    pub fn trunk(&self, args: &[&str]) -> Cmd {
        self.command("trunk", args)
    }

    /// The trimmed stdout and stderr of a command, or `None` if it cannot run
    /// or fails. For version checks.
    pub fn capture(&self, program: &str, args: &[&str]) -> Option<String> {
        capture_in(
            &self.root,
            self.resolve(program).as_os_str(),
            args,
            Some(&self.path),
        )
    }

    /// Finds a program on our PATH; `Command` itself would search the
    /// inherited PATH, not the one we give the child.
    fn resolve(&self, program: &str) -> PathBuf {
        if program.contains('/') {
            return PathBuf::from(program);
        }
        std::env::split_paths(&self.path)
            .map(|dir| dir.join(program))
            .find(|candidate| candidate.is_file())
            .unwrap_or_else(|| PathBuf::from(program))
    }
}

fn capture_in(root: &Path, program: &OsStr, args: &[&str], path: Option<&OsStr>) -> Option<String> {
    let mut command = Command::new(program);
    command.args(args).current_dir(root).stdin(Stdio::null());
    if let Some(path) = path {
        command.env("PATH", path);
    }
    let output = command.output().ok()?;
    if !output.status.success() {
        return None;
    }
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    Some(text.trim().to_owned())
}

fn cargo_home() -> PathBuf {
    std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(std::env::var_os("HOME").unwrap_or_else(|| "/root".into())).join(".cargo")
        })
}

pub struct Cmd {
    shown: String,
    command: Command,
}

impl Cmd {
    pub fn env(mut self, key: &str, value: impl AsRef<OsStr>) -> Cmd {
        self.command.env(key, value);
        self
    }

    /// Runs to completion with the terminal attached; fails unless exit 0.
    pub fn run(mut self) -> Result<()> {
        println!("$ {}", self.shown);
        let status = self
            .command
            .stdin(Stdio::null())
            .status()
            .with_context(|| format!("could not start `{}`", self.shown))?;
        if !status.success() {
            match status.code() {
                Some(code) => bail!("`{}` failed with exit code {code}", self.shown),
                None => bail!("`{}` was killed by a signal", self.shown),
            }
        }
        Ok(())
    }
}
