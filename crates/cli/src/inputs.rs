//! Where `podlab lint` finds its input and settings: `.podlab.yaml` from the
//! current directory upwards (or `--config`), directories walked for
//! `*.yaml`/`*.yml`, and the config's `exclude` patterns.

use std::path::{Path, PathBuf};

use podlab_core::config::{self, Config};
use podlab_core::span::LineIndex;

pub const CONFIG_NAME: &str = ".podlab.yaml";

/// A config read from a file, and the directory its paths are relative to.
pub struct Loaded {
    pub path: Option<PathBuf>,
    pub config: Config,
    pub dir: PathBuf,
}

/// The nearest `.podlab.yaml` from `start` upwards.
pub fn discover(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .map(|dir| dir.join(CONFIG_NAME))
        .find(|candidate| candidate.is_file())
}

/// Reads and parses a config file; a problem in it is an error naming the
/// file, line and column.
pub fn load(path: Option<PathBuf>, cwd: &Path) -> Result<Loaded, String> {
    let Some(path) = path else {
        return Ok(Loaded {
            path: None,
            config: Config::default(),
            dir: cwd.to_path_buf(),
        });
    };
    let text = std::fs::read_to_string(&path)
        .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
    let (config, problems, index) = config::parse(&text);
    if !problems.is_empty() {
        return Err(located(&path, &text, &index, &problems));
    }
    let dir = path
        .parent()
        .filter(|dir| !dir.as_os_str().is_empty())
        .map_or_else(|| cwd.to_path_buf(), Path::to_path_buf);
    Ok(Loaded {
        path: Some(path),
        config,
        dir,
    })
}

/// `file:line:column: message (help)`, one problem a line.
pub fn located(
    path: &Path,
    text: &str,
    index: &LineIndex,
    problems: &[podlab_core::diagnostic::Diagnostic],
) -> String {
    problems
        .iter()
        .map(|problem| {
            let at = index.line_col(text, problem.span.start);
            let help = problem
                .help
                .as_ref()
                .map(|help| format!(" ({})", help.en))
                .unwrap_or_default();
            format!(
                "{}:{}:{}: {}[{}]: {}{help}",
                path.display(),
                at.line,
                at.column,
                problem.severity.as_str(),
                problem.rule,
                problem.message.en
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The files an argument stands for: itself, or for a directory every
/// `*.yaml`/`*.yml` under it (hidden directories skipped, in path order, symlinks
/// not followed); in both cases minus what `exclude` names.
pub fn expand(arg: &str, loaded: &Loaded, cwd: &Path) -> Result<Vec<String>, String> {
    let path = Path::new(arg);
    if !path.is_dir() {
        return Ok(if excluded(path, loaded, cwd) {
            Vec::new()
        } else {
            vec![arg.to_string()]
        });
    }
    let mut out = Vec::new();
    let mut pending = vec![path.to_path_buf()];
    while let Some(dir) = pending.pop() {
        if excluded(&dir, loaded, cwd) {
            continue;
        }
        let entries = std::fs::read_dir(&dir)
            .map_err(|error| format!("cannot read {}: {error}", dir.display()))?;
        let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
        entries.sort_by_key(|entry| entry.file_name());
        let mut subdirs = Vec::new();
        for entry in entries {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() && !name.starts_with('.') {
                subdirs.push(entry.path());
            } else if kind.is_file()
                && (name.ends_with(".yaml") || name.ends_with(".yml"))
                && name != CONFIG_NAME
                && !excluded(&entry.path(), loaded, cwd)
            {
                out.push(entry.path().to_string_lossy().into_owned());
            }
        }
        pending.extend(subdirs);
    }
    // Path order, as `find | sort` would list them.
    out.sort();
    Ok(out)
}

/// Whether `exclude` names the path or a directory above it. A pattern
/// with no `/` but a trailing one matches a name at any depth (`vendor/`,
/// `*.tpl.yaml`); one with a `/` inside is anchored at the config's
/// directory (`charts/*/templates`). `*` and `?` stay within a name, `**`
/// crosses directories.
pub fn excluded(path: &Path, loaded: &Loaded, cwd: &Path) -> bool {
    if loaded.config.exclude.is_empty() {
        return false;
    }
    let absolute = cwd.join(path);
    let relative = absolute.strip_prefix(&loaded.dir).unwrap_or(&absolute);
    let names: Vec<String> = relative
        .components()
        .filter_map(|c| match c {
            std::path::Component::Normal(name) => Some(name.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect();
    loaded.config.exclude.iter().any(|pattern| {
        let pattern = pattern.trim_start_matches("./").trim_matches('/');
        if pattern.contains('/') {
            (1..=names.len()).any(|count| glob(pattern, &names[..count].join("/")))
        } else {
            names.iter().any(|name| glob(pattern, name))
        }
    })
}

/// Shell-style matching of a whole text: `*`, `?` within a name, `**` across.
pub fn glob(pattern: &str, text: &str) -> bool {
    fn matches(pattern: &[u8], text: &[u8]) -> bool {
        match pattern {
            [] => text.is_empty(),
            [b'*', b'*', rest @ ..] => {
                let rest = rest.strip_prefix(b"/").unwrap_or(rest);
                (0..=text.len()).any(|skip| matches(rest, &text[skip..]))
            }
            [b'*', rest @ ..] => (0..=text.len())
                .take_while(|&skip| skip == 0 || text[skip - 1] != b'/')
                .any(|skip| matches(rest, &text[skip..])),
            [b'?', rest @ ..] => {
                matches!(text, [c, tail @ ..] if *c != b'/' && matches(rest, tail))
            }
            [c, rest @ ..] => matches!(text, [t, tail @ ..] if t == c && matches(rest, tail)),
        }
    }
    matches(pattern.as_bytes(), text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_stay_within_names_unless_doubled() {
        assert!(glob("*.tpl.yaml", "a.tpl.yaml"));
        assert!(!glob("charts/*", "charts/a/b"));
        assert!(glob("charts/**/templates", "charts/a/b/templates"));
        assert!(glob("**/templates", "templates"));
        assert!(glob("v?ndor", "vendor"));
        assert!(!glob("vendor", "vendors"));
    }

    #[test]
    fn exclude_matches_names_anywhere_and_anchored_paths() {
        let loaded = |exclude: &[&str]| Loaded {
            path: None,
            config: Config {
                exclude: exclude.iter().map(|s| s.to_string()).collect(),
                ..Config::default()
            },
            dir: PathBuf::from("/repo"),
        };
        let cwd = Path::new("/repo");
        assert!(excluded(
            Path::new("a/vendor/x.yaml"),
            &loaded(&["vendor/"]),
            cwd
        ));
        assert!(!excluded(Path::new("a/x.yaml"), &loaded(&["vendor/"]), cwd));
        assert!(excluded(
            Path::new("charts/x/templates/d.yaml"),
            &loaded(&["charts/*/templates"]),
            cwd
        ));
        assert!(!excluded(
            Path::new("b/charts/x/templates/d.yaml"),
            &loaded(&["charts/*/templates"]),
            cwd
        ));
    }
}
