//! The layers test (issue 20): the top-level modules of `crates/core/src`
//! and `web/src` only ever use modules of a lower layer.
//!
//! In the spirit of rust-analyzer's tidy tests, it reads the sources as text
//! (no compiler, no dependency), finds every `crate::…` and `super::…` path
//! that leaves a file's own top-level module, and fails naming the file, the
//! line and the import when one points at the same or a higher layer of
//! [`CORE`] or [`WEB`]. Two modules that use each other always produce such a
//! use, so a circle fails too, and says so.
//!
//! What it does not look at: comments, string literals, and items under
//! `#[cfg(test)]` (a module's tests may drive the whole pipeline, as the
//! integration tests in `tests/` do). The crate root (`lib.rs`) declares and
//! re-exports the modules and is above them all.

use std::collections::BTreeMap;
use std::path::Path;

/// `crates/core/src`, lowest layer first. A module uses only modules of the
/// rows above its own; modules of one row know nothing of each other.
/// ARCHITECTURE.md explains the order.
const CORE: &[&[&str]] = &[
    &["span", "number", "sort", "go_sort", "gpu"],
    &["i18n"],
    &["diagnostic"],
    &["manifest"],
    &["sched"],
    &["rules", "sim"],
    &["suppress"],
    &["lint", "config"],
    &["explain"],
    &["exercise", "controls", "share"],
    &["kubectl", "picture", "paste", "map"],
];

/// `web/src`, lowest layer first (`main.rs`, `worker.rs`, `lint_worker.rs`, `tools_worker.rs` and
/// `stage.rs` are the binaries' own crates).
const WEB: &[&[&str]] = &[
    &["findings", "pasted", "mapped"],
    &["persist", "perf", "library", "kubectl_worker"],
    &["i18n"],
    &["state"],
    &["view_model"],
    &["hooks"],
    &["components"],
    &["app"],
];

/// Uses that still climb, as (file, module used), each with its reason.
/// Empty is the goal; an entry here is a debt, not a permission.
const KNOWN_CLIMBS: &[(&str, &str)] = &[];

#[test]
fn layers_only_point_down_in_core() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    assert_layers("crates/core/src", &read_tree(&root), CORE);
}

#[test]
fn layers_only_point_down_in_web() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/src");
    let mut files = read_tree(&root);
    files.retain(|(path, _)| {
        ![
            "main.rs",
            "worker.rs",
            "lint_worker.rs",
            "tools_worker.rs",
            "stage.rs",
        ]
        .contains(&path.as_str())
    });
    assert_layers("web/src", &files, WEB);
}

fn assert_layers(prefix: &str, files: &[(String, String)], layers: &[&[&str]]) {
    assert!(
        files.iter().any(|(path, _)| path == "lib.rs"),
        "no lib.rs under {prefix}"
    );
    let problems: Vec<String> = check(files, layers)
        .into_iter()
        .filter(|problem| {
            !KNOWN_CLIMBS
                .iter()
                .any(|(file, used)| problem.file == *file && problem.used == *used)
        })
        .map(|problem| format!("{prefix}/{problem}"))
        .collect();
    assert!(
        problems.is_empty(),
        "{} import(s) against the layer order (crates/core/tests/layers.rs, ARCHITECTURE.md):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// Every `.rs` file under `root`, as (path relative to `root` with `/`, text).
/// Issue 20 item 4, "rooms of one size": no source file of a crate's `src/`
/// or of `web/src` is longer than this before its `#[cfg(test)]` module.
const MAX_ROOM_LINES: usize = 1000;

#[test]
fn layers_rooms_are_at_most_1000_lines_before_their_tests() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut roots = vec![workspace.join("web/src")];
    for krate in std::fs::read_dir(workspace.join("crates")).expect("crates/") {
        roots.push(krate.expect("directory entry").path().join("src"));
    }
    let mut too_long = Vec::new();
    for root in roots.iter().filter(|root| root.is_dir()) {
        for (path, text) in read_tree(root) {
            let lines = room_lines(&text);
            if lines > MAX_ROOM_LINES {
                too_long.push(format!("{}/{path}: {lines} lines", root.display()));
            }
        }
    }
    assert!(
        too_long.is_empty(),
        "split these along their seams (ARCHITECTURE.md):\n{}",
        too_long.join("\n")
    );
}

/// Lines before the first `#[cfg(test)]` at the start of a line.
fn room_lines(text: &str) -> usize {
    text.lines()
        .take_while(|line| !line.starts_with("#[cfg(test)]"))
        .count()
}

#[test]
fn room_lines_stop_at_the_test_module() {
    assert_eq!(room_lines("a\nb\n#[cfg(test)]\nmod tests {}\n"), 2);
    assert_eq!(room_lines("a\n    #[cfg(test)]\nb\n"), 3);
}

fn read_tree(root: &Path) -> Vec<(String, String)> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<(String, String)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|error| panic!("cannot read {}: {error}", dir.display()))
            .map(|entry| entry.expect("directory entry").path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, root, out);
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                let relative = path.strip_prefix(root).expect("under root");
                let name: Vec<String> = relative
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                let text = std::fs::read_to_string(&path)
                    .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));
                out.push((name.join("/"), text));
            }
        }
    }
    let mut out = Vec::new();
    walk(root, root, &mut out);
    out
}

/// One use that breaks the order.
#[derive(Debug)]
struct Problem {
    file: String,
    line: usize,
    user: String,
    used: String,
    import: String,
    why: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}: `{}` uses `{}` ({}): {}",
            self.file, self.line, self.user, self.used, self.why, self.import
        )
    }
}

/// One use of another top-level module.
#[derive(Clone, Debug)]
struct Use {
    file: String,
    line: usize,
    user: String,
    /// A top-level module, or `crate root` for an item of `lib.rs`.
    used: String,
    import: String,
}

const CRATE_ROOT: &str = "crate root";

/// The checker: `files` as (path under `src`, text), `layers` lowest first.
fn check(files: &[(String, String)], layers: &[&[&str]]) -> Vec<Problem> {
    let layer_of = |module: &str| layers.iter().position(|row| row.contains(&module));
    // Macros exported at the crate root (`crate::text!`) belong to the
    // module that defines them.
    let mut macros = BTreeMap::new();
    let mut test_only = Vec::new();
    let mut stripped = Vec::new();
    for (path, text) in files {
        let code = strip(text);
        test_only.extend(test_only_files(path, &code));
        let code = blank_test_items(&code);
        for name in exported_macros(&code) {
            macros.insert(name, top_module(path));
        }
        stripped.push((path.clone(), code));
    }
    let mut uses = Vec::new();
    let mut problems = Vec::new();
    for (path, code) in &stripped {
        let is_test = |test: &String| {
            path == test || (test.ends_with('/') && path.starts_with(test.as_str()))
        };
        if path == "lib.rs" || test_only.iter().any(is_test) {
            continue;
        }
        let user = top_module(path);
        if layer_of(&user).is_none() {
            problems.push(Problem {
                file: path.clone(),
                line: 1,
                user: user.clone(),
                used: user.clone(),
                import: String::new(),
                why: "a module missing from the layer table of crates/core/tests/layers.rs".into(),
            });
        }
        for found in uses_in(path, code) {
            let used = if layer_of(&found.used).is_some() || found.used == CRATE_ROOT {
                found.used.clone()
            } else if let Some(owner) = macros.get(&found.used) {
                owner.clone()
            } else {
                CRATE_ROOT.to_string()
            };
            if used != user {
                uses.push(Use { used, ..found });
            }
        }
    }
    for found in &uses {
        let (Some(from), to) = (layer_of(&found.user), layer_of(&found.used)) else {
            continue;
        };
        let why = match to {
            None => "an item of lib.rs, which is above every module".to_string(),
            Some(to) if to > from => format!("layer {to} is above layer {from}"),
            Some(to) if to == from => {
                format!("both are on layer {from}, which know nothing of each other")
            }
            Some(_) => continue,
        };
        let back = uses
            .iter()
            .find(|other| other.user == found.used && other.used == found.user);
        let why = match back {
            Some(back) => format!(
                "{why}; a circle: `{}` uses `{}` at {}:{}",
                back.user, back.used, back.file, back.line
            ),
            None => why,
        };
        problems.push(Problem {
            file: found.file.clone(),
            line: found.line,
            user: found.user.clone(),
            used: found.used.clone(),
            import: found.import.clone(),
            why,
        });
    }
    problems
}

/// The top-level module a file belongs to: `manifest/yaml.rs` → `manifest`.
fn top_module(path: &str) -> String {
    let first = path.split('/').next().unwrap_or(path);
    first.strip_suffix(".rs").unwrap_or(first).to_string()
}

/// The module path of a file: `manifest/yaml.rs` → [manifest, yaml].
fn module_path(path: &str) -> Vec<String> {
    let mut parts: Vec<String> = path
        .strip_suffix(".rs")
        .unwrap_or(path)
        .split('/')
        .map(str::to_string)
        .collect();
    if parts
        .last()
        .is_some_and(|last| last == "mod" || last == "lib")
    {
        parts.pop();
    }
    parts
}

/// The text with comments, string and char literals blanked (newlines kept,
/// so line numbers stay).
fn strip(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
        } else if (c == 'r' || (c == 'b' && next == Some('r')))
            && !chars
                .get(i.wrapping_sub(1))
                .is_some_and(|p| p.is_alphanumeric() || *p == '_')
            && {
                let start = if c == 'b' { i + 2 } else { i + 1 };
                let hashes = chars[start.min(chars.len())..]
                    .iter()
                    .take_while(|h| **h == '#')
                    .count();
                chars.get(start + hashes) == Some(&'"')
            }
        {
            // A raw string: r"…", r#"…"#, br"…".
            let start = if c == 'b' { i + 2 } else { i + 1 };
            let hashes = chars[start..].iter().take_while(|h| **h == '#').count();
            let body = start + hashes + 1;
            let mut end = body;
            while end < chars.len() {
                if chars[end] == '"'
                    && chars[end + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|h| **h == '#')
                        .count()
                        == hashes
                {
                    break;
                }
                end += 1;
            }
            let end = (end + 1 + hashes).min(chars.len());
            out.extend(chars[i..end].iter().map(|c| blank(*c)));
            i = end;
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if let Some(c) = chars.get(i) {
                    out.push(blank(*c));
                }
                i += 1;
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' {
            // A char literal ('x', '\n', '\u{1F600}'), or a lifetime ('a).
            let close = if next == Some('\\') {
                chars[i + 2..]
                    .iter()
                    .position(|c| *c == '\'')
                    .map(|p| i + 2 + p)
            } else if chars.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match close {
                Some(close) => {
                    out.extend(chars[i..=close].iter().map(|c| blank(*c)));
                    i = close + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Blanks every item under `#[cfg(test)]`: up to its `;` or the end of its
/// `{ … }` block.
fn blank_test_items(code: &str) -> String {
    let mut chars: Vec<char> = code.chars().collect();
    let marker: Vec<char> = "#[cfg(test)]".chars().collect();
    let mut i = 0;
    while i + marker.len() <= chars.len() {
        if chars[i..i + marker.len()] != marker[..] {
            i += 1;
            continue;
        }
        let mut j = i + marker.len();
        let mut depth = 0usize;
        while j < chars.len() {
            match chars[j] {
                '{' => depth += 1,
                '}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        break;
                    }
                }
                ';' if depth == 0 => break,
                _ => {}
            }
            j += 1;
        }
        let end = (j + 1).min(chars.len());
        for c in &mut chars[i..end] {
            if *c != '\n' {
                *c = ' ';
            }
        }
        i = end;
    }
    chars.into_iter().collect()
}

/// `macro_rules! name` marked `#[macro_export]`, in stripped code.
fn exported_macros(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[macro_export]") {
        rest = &rest[at + "#[macro_export]".len()..];
        let after = rest.trim_start();
        if let Some(definition) = after.strip_prefix("macro_rules!") {
            found.push(identifier(definition.trim_start()).to_string());
        }
    }
    found
}

/// What `#[cfg(test)] mod name;` in `path` declares: the file `name.rs`
/// and everything under `name/`, all of it test code.
fn test_only_files(path: &str, code: &str) -> Vec<String> {
    let dir = module_path(path);
    let prefix = if dir.is_empty() {
        String::new()
    } else {
        format!("{}/", dir.join("/"))
    };
    let mut found = Vec::new();
    for (at, _) in code.match_indices("#[cfg(test)]") {
        let mut rest = code[at + "#[cfg(test)]".len()..].trim_start();
        while rest.starts_with("#[") {
            let end = rest.find(']').map_or(rest.len(), |end| end + 1);
            rest = rest[end..].trim_start();
        }
        for visibility in ["pub(crate) ", "pub(super) ", "pub "] {
            rest = rest.strip_prefix(visibility).unwrap_or(rest).trim_start();
        }
        if let Some(after) = rest.strip_prefix("mod ") {
            let name = identifier(after.trim_start());
            if !name.is_empty()
                && after.trim_start()[name.len()..]
                    .trim_start()
                    .starts_with(';')
            {
                found.push(format!("{prefix}{name}.rs"));
                found.push(format!("{prefix}{name}/"));
            }
        }
    }
    found
}

fn identifier(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// The uses of other top-level modules in one stripped file: `crate::x`,
/// `crate::{x, y::z}`, and `super::` chains that climb to the crate root.
fn uses_in(path: &str, code: &str) -> Vec<Use> {
    let user = top_module(path);
    let file_path = module_path(path);
    let mut found = Vec::new();
    // Inline modules (`mod x { … }`) open at these brace depths.
    let mut inline: Vec<usize> = Vec::new();
    let mut depth = 0usize;
    let bytes = code.as_bytes();
    let mut line = 1;
    let mut i = 0;
    let at_word_start =
        |i: usize| i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => line += 1,
            b'{' => depth += 1,
            b'}' => {
                if inline.last() == Some(&depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
            }
            b'm' if at_word_start(i) && code[i..].starts_with("mod ") => {
                let after = code[i + 4..].trim_start();
                let name = identifier(after);
                let rest = after[name.len()..].trim_start();
                if !name.is_empty() && rest.starts_with('{') {
                    inline.push(depth + 1);
                }
            }
            b'c' if at_word_start(i) && code[i..].starts_with("crate::") => {
                let rest = &code[i + "crate::".len()..];
                for (name, import) in targets(rest) {
                    found.push(Use {
                        file: path.to_string(),
                        line,
                        user: user.clone(),
                        used: name,
                        import: format!("crate::{import}"),
                    });
                }
            }
            b's' if at_word_start(i) && code[i..].starts_with("super::") => {
                let mut rest = &code[i..];
                let mut climbs = 0;
                while let Some(after) = rest.strip_prefix("super::") {
                    climbs += 1;
                    rest = after.trim_start();
                }
                let here = file_path.len() + inline.len();
                if climbs >= here {
                    let chain = "super::".repeat(climbs);
                    for (name, import) in targets(rest) {
                        found.push(Use {
                            file: path.to_string(),
                            line,
                            user: user.clone(),
                            used: name,
                            import: format!("{chain}{import}"),
                        });
                    }
                }
                i += "super::".len() * climbs;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    found
}

/// What a path after `crate::` names first: one module (`lint::read`) or,
/// for a group (`{lint, rules::Context}`), each member's first segment.
/// Returns (first segment, the path as written, for the message).
fn targets(rest: &str) -> Vec<(String, String)> {
    let rest = rest.trim_start();
    if let Some(group) = rest.strip_prefix('{') {
        let mut members = Vec::new();
        let mut depth = 0;
        let mut start = 0;
        for (at, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    members.push(&group[start..at]);
                    break;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    members.push(&group[start..at]);
                    start = at + 1;
                }
                _ => {}
            }
        }
        members
            .into_iter()
            .map(str::trim)
            .filter(|member| !member.is_empty())
            .filter_map(|member| {
                let name = identifier(member);
                (!name.is_empty() && name != "self").then(|| {
                    let written: String = member.split_whitespace().collect::<Vec<_>>().join(" ");
                    (name.to_string(), written)
                })
            })
            .collect()
    } else {
        let name = identifier(rest);
        if name.is_empty() {
            return Vec::new();
        }
        let written_end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':' || c == '!'))
            .unwrap_or(rest.len());
        let written = rest[..written_end].trim_end_matches(':');
        vec![(name.to_string(), written.to_string())]
    }
}

// The checker itself, on small in-memory crates.

fn files(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(path, text)| (path.to_string(), text.to_string()))
        .collect()
}

const TWO_LAYERS: &[&[&str]] = &[&["low"], &["high"]];

fn messages(files: &[(String, String)], layers: &[&[&str]]) -> Vec<String> {
    check(files, layers)
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn layers_checker_reports_a_climbing_import_with_file_and_line() {
    let crate_files = files(&[
        ("lib.rs", "pub mod low;\npub mod high;\n"),
        (
            "low/mod.rs",
            "//! Low.\n\nuse crate::span::Span;\nuse crate::high::Thing;\n",
        ),
        ("high.rs", "use crate::span;\n"),
    ]);
    let found = messages(&crate_files, &[&["span"], &["low"], &["high"]]);
    assert_eq!(
        found,
        vec!["low/mod.rs:4: `low` uses `high` (layer 2 is above layer 1): crate::high::Thing"]
    );
}

#[test]
fn layers_checker_names_both_ends_of_a_circle() {
    let crate_files = files(&[
        ("lib.rs", ""),
        ("low.rs", "fn f() { crate::high::g() }\n"),
        ("high.rs", "use crate::{low::f, sort};\n"),
    ]);
    let found = messages(&crate_files, &[&["sort"], &["low"], &["high"]]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with("low.rs:1: `low` uses `high`")
            && found[0].contains("a circle: `high` uses `low` at high.rs:1"),
        "{found:?}"
    );
}

#[test]
fn layers_checker_reads_groups_super_chains_and_modules_of_one_row() {
    let crate_files = files(&[
        ("lib.rs", ""),
        (
            "low/deep.rs",
            "use super::super::{high::X, low};\nuse super::sibling;\n",
        ),
        ("high.rs", ""),
        ("side.rs", "use crate::low;\n"),
    ]);
    let found = messages(&crate_files, &[&["low", "side"], &["high"]]);
    assert_eq!(
        found,
        vec![
            "low/deep.rs:1: `low` uses `high` (layer 1 is above layer 0): super::super::high::X",
            "side.rs:1: `side` uses `low` (both are on layer 0, which know nothing of each other): crate::low",
        ]
    );
}

#[test]
fn layers_checker_skips_comments_strings_and_tests() {
    let crate_files = files(&[
        ("lib.rs", ""),
        (
            "low/code.rs",
            "//! Not `crate::high`.\nconst A: &str = \"crate::high\";\nconst B: &str = r#\"crate::high \"x\" \"#;\n/* crate::high */\nfn f<'a>(x: &'a str) -> char { 'c' }\n#[cfg(test)]\nmod tests {\n    use crate::high;\n    fn g() { if true { super::super::high::h() } }\n}\n",
        ),
        ("low/tests.rs", "use crate::high;\n"),
        ("low/mod.rs", "#[cfg(test)]\nmod tests;\n"),
        ("high.rs", ""),
    ]);
    assert_eq!(messages(&crate_files, TWO_LAYERS), Vec::<String>::new());
}

#[test]
fn layers_checker_follows_macros_to_their_module_and_flags_root_items() {
    let crate_files = files(&[
        ("lib.rs", "pub const DEFAULT: &str = \"\";\n"),
        (
            "low.rs",
            "use crate::shout;\nfn f() -> &'static str { crate::DEFAULT }\n",
        ),
        (
            "high.rs",
            "#[macro_export]\nmacro_rules! shout { () => {} }\n",
        ),
    ]);
    let found = messages(&crate_files, TWO_LAYERS);
    assert_eq!(
        found,
        vec![
            "low.rs:1: `low` uses `high` (layer 1 is above layer 0): crate::shout",
            "low.rs:2: `low` uses `crate root` (an item of lib.rs, which is above every module): crate::DEFAULT",
        ]
    );
}

#[test]
fn layers_checker_flags_a_module_missing_from_the_table() {
    let crate_files = files(&[("lib.rs", ""), ("stray.rs", "")]);
    let found = messages(&crate_files, TWO_LAYERS);
    assert_eq!(found.len(), 1);
    assert!(
        found[0].starts_with("stray.rs:1: `stray` uses `stray`"),
        "{found:?}"
    );
}
