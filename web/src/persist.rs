//! Where the page's text comes from and where it goes: the URL fragment
//! (share links, `podlab_core::share`), the browser's localStorage
//! (autosave), and the query string (`?embed=1`, `?lang=`).
//!
//! The decisions are pure functions (tested natively); the thin browser
//! calls around them ignore failures (a private window without storage, a
//! history API that refuses) because the page must keep working without them.

use podlab_core::share::{self, ShareError};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// The localStorage key of the autosaved text.
pub const AUTOSAVE_KEY: &str = "podlab.text.v1";

/// Why the page did not open the text a link carried.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// The fragment was not a podlab link or was damaged.
    CorruptLink,
    /// The link's text inflates past the limit.
    LinkTooLarge,
    /// `?exercise=<id>` names no exercise of the library.
    UnknownExercise(String),
}

/// Where the first text came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    Link,
    Autosave,
    Default,
}

/// The text to open: a link's fragment wins, then the autosave, then the
/// default; a bad fragment opens the default with a notice (never a blank
/// page).
pub fn initial_text(
    fragment: &str,
    saved: Option<String>,
    default: &str,
) -> (String, Source, Option<Notice>) {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    if !fragment.is_empty() {
        match share::decode(fragment) {
            Ok(text) => return (text, Source::Link, None),
            Err(ShareError::TooLarge) => {
                return (
                    default.to_string(),
                    Source::Default,
                    Some(Notice::LinkTooLarge),
                )
            }
            Err(_) => {
                return (
                    default.to_string(),
                    Source::Default,
                    Some(Notice::CorruptLink),
                )
            }
        }
    }
    match saved {
        Some(text) if !text.trim().is_empty() => (text, Source::Autosave, None),
        _ => (default.to_string(), Source::Default, None),
    }
}

/// Whether the query string asks for the compact embedded layout.
pub fn is_embed(query: &str) -> bool {
    query
        .trim_start_matches('?')
        .split('&')
        .any(|pair| matches!(pair, "embed=1" | "embed=true" | "embed"))
}

// The embed's parameters and its iframe code are the core's
// (`podlab_core::share::embed`): `podlab share --embed` writes the same.
pub use podlab_core::share::embed::{
    at_param, page_options, percent_decode, percent_encode, query_param, query_without,
    PageOptions, View, CONTROL_IDS, EMBED_CONTROLS,
};

/// What the page shows, from its query string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Page {
    Playground,
    /// `?exercises`: the index.
    Exercises,
    /// `?exercise=<id>`: one exercise; with `&mode=interview`, its
    /// interview; `?interview=<key>`: the interview by its opaque key
    /// (`exercise::interview::interview_key`: the id names the cause), `id`
    /// holding the key until the library resolves it.
    Exercise {
        id: String,
        interview: bool,
    },
    /// `?cluster`: "From my cluster", a paste from a real cluster read
    /// (issue 31, `components/cluster.rs`).
    Cluster,
}

pub fn page(query: &str) -> Page {
    if let Some(key) = query_param(query, "interview").filter(|key| !key.is_empty()) {
        return Page::Exercise {
            id: key,
            interview: true,
        };
    }
    if let Some(id) = query_param(query, "exercise").filter(|id| !id.is_empty()) {
        let interview = query_param(query, "mode").as_deref() == Some("interview");
        return Page::Exercise { id, interview };
    }
    if query_param(query, "exercises").is_some() {
        return Page::Exercises;
    }
    if query_param(query, "cluster").is_some() {
        return Page::Cluster;
    }
    Page::Playground
}

/// The localStorage key of the autosaved text: one for the playground, one
/// per exercise (an exercise never overwrites the playground's text).
pub fn autosave_key(exercise: Option<&str>) -> String {
    match exercise {
        Some(id) => format!("podlab.exercise.{id}.v1"),
        None => AUTOSAVE_KEY.to_string(),
    }
}

/// The localStorage key of the progress before issue 30: the solved ids,
/// comma-separated. Read (as solved by the learner) while no
/// [`PROGRESS_KEY`] exists; never written again.
pub const OLD_PROGRESS_KEY: &str = "podlab.solved.v1";

/// The localStorage key of the progress: `id=how` pairs, comma-separated,
/// sorted by id, `how` being `solved` or `solution` ([`Solved`]).
pub const PROGRESS_KEY: &str = "podlab.progress.v2";

/// How an exercise was solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solved {
    /// The learner's own text made every goal hold.
    ByLearner,
    /// Every goal held on the text "Load the solution" put in the editor.
    WithSolution,
}

/// The exercises solved, by id, sorted.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Progress(pub Vec<(String, Solved)>);

impl Progress {
    pub fn get(&self, id: &str) -> Option<Solved> {
        self.0
            .iter()
            .find(|(known, _)| known == id)
            .map(|(_, how)| *how)
    }

    /// Records `id` solved `how`; solving it oneself outranks the
    /// solution, never the other way round.
    pub fn record(&mut self, id: &str, how: Solved) {
        match self.0.iter_mut().find(|(known, _)| known == id) {
            Some((_, known)) => {
                if how == Solved::ByLearner {
                    *known = how;
                }
            }
            None => {
                self.0.push((id.to_string(), how));
                podlab_core::sort::sort_by(&mut self.0, |a, b| a.0.cmp(&b.0));
            }
        }
    }

    /// The stored value (`PROGRESS_KEY`).
    pub fn encode(&self) -> String {
        let pairs: Vec<String> = self
            .0
            .iter()
            .map(|(id, how)| {
                let how = match how {
                    Solved::ByLearner => "solved",
                    Solved::WithSolution => "solution",
                };
                format!("{id}={how}")
            })
            .collect();
        pairs.join(",")
    }

    /// A stored value of [`PROGRESS_KEY`], or else of [`OLD_PROGRESS_KEY`]
    /// (ids only: solved by the learner, as the page said then). Unknown
    /// words and empty ids are skipped.
    pub fn decode(stored: Option<&str>, old: Option<&str>) -> Progress {
        let mut progress = Progress::default();
        match (stored, old) {
            (Some(stored), _) => {
                for pair in stored.split(',') {
                    let Some((id, how)) = pair.trim().split_once('=') else {
                        continue;
                    };
                    let how = match how {
                        "solved" => Solved::ByLearner,
                        "solution" => Solved::WithSolution,
                        _ => continue,
                    };
                    if !id.is_empty() {
                        progress.record(id, how);
                    }
                }
            }
            (None, Some(old)) => {
                for id in old.split(',').map(str::trim).filter(|id| !id.is_empty()) {
                    progress.record(id, Solved::ByLearner);
                }
            }
            (None, None) => {}
        }
        progress
    }
}

pub fn load_progress() -> Progress {
    Progress::decode(
        load(PROGRESS_KEY).as_deref(),
        load(OLD_PROGRESS_KEY).as_deref(),
    )
}

pub fn mark_solved(id: &str, how: Solved) {
    let mut progress = load_progress();
    progress.record(id, how);
    save(PROGRESS_KEY, &progress.encode());
}

/// The sessionStorage key of "From my cluster"'s paste: kept for the tab
/// (Back from the replay finds it), not across visits (a paste from a
/// real cluster names its nodes and images).
pub const PASTE_KEY: &str = "podlab.paste.v1";

pub fn load_paste() -> Option<String> {
    let storage = web_sys::window()?.session_storage().ok()??;
    storage.get_item(PASTE_KEY).ok()?
}

/// Saves the paste for the tab; silently nothing where storage is
/// unavailable or full.
pub fn save_paste(text: &str) {
    if let Some(storage) =
        web_sys::window().and_then(|window| window.session_storage().ok().flatten())
    {
        let _ = storage.set_item(PASTE_KEY, text);
    }
}

fn load(key: &str) -> Option<String> {
    let storage = web_sys::window()?.local_storage().ok()??;
    storage.get_item(key).ok()?
}

fn save(key: &str, value: &str) {
    if let Some(storage) =
        web_sys::window().and_then(|window| window.local_storage().ok().flatten())
    {
        let _ = storage.set_item(key, value);
    }
}

/// The share link for a text on the page at `base` (the page's address
/// without its fragment), or why there is none.
pub fn link(base: &str, text: &str) -> Result<String, ShareError> {
    let base = base.split('#').next().unwrap_or(base);
    share::encode(text).map(|fragment| format!("{base}#{fragment}"))
}

/// The link with the terminal's last line: `at=` the time it ran and
/// `cmd=` the line, so the page opens with its output (issue 17 item 5).
pub fn command_link(base: &str, text: &str, at: u64, cmd: &str) -> Result<String, ShareError> {
    let base = base.split('#').next().unwrap_or(base);
    let (path, query) = base.split_once('?').unwrap_or((base, ""));
    let mut params = query_without(query, &["at", "cmd"]);
    let at = format!("at={}", at_param(at));
    let cmd = format!("cmd={}", percent_encode(cmd));
    params.push(&at);
    params.push(&cmd);
    share::encode(text).map(|fragment| format!("{path}?{}#{fragment}", params.join("&")))
}

/// The iframe code that embeds the text, with the picture of its run at
/// `options.at` in the link (`podlab_core::picture::embed_code`, which
/// `podlab share --embed` calls too).
pub fn embed_code(base: &str, text: &str, options: &PageOptions) -> Result<String, ShareError> {
    podlab_core::picture::embed_code(base, text, options).map(|(code, _)| code)
}

/// The full page for an embed's text: its address without the embed's
/// parameters, with its fragment (the text).
pub fn full_page_href(base: &str, fragment: &str) -> String {
    let base = base.split('#').next().unwrap_or(base);
    let (path, query) = base.split_once('?').unwrap_or((base, ""));
    let kept = query_without(query, &["embed", "view", "controls", "autoplay"]);
    let query = if kept.is_empty() {
        String::new()
    } else {
        format!("?{}", kept.join("&"))
    };
    format!("{path}{query}{fragment}")
}

/// The page's address without the fragment.
pub fn page_base() -> String {
    web_sys::window()
        .and_then(|window| window.location().href().ok())
        .map(|href| href.split('#').next().unwrap_or_default().to_string())
        .unwrap_or_default()
}

/// Removes the picture the page showed before its engine was in
/// (`#facade`, `web/facade.js`), keeping the reader's scroll position.
pub fn remove_facade() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Some(document) = window.document() else {
        return;
    };
    if let Some(root) = document.document_element() {
        let _ = root.remove_attribute("data-pl-loading");
        let _ = root.set_attribute("data-pl-live", "");
    }
    let Some(facade) = document.get_element_by_id("facade") else {
        return;
    };
    let (x, y) = (
        window.scroll_x().unwrap_or(0.0),
        window.scroll_y().unwrap_or(0.0),
    );
    facade.remove();
    window.scroll_to_with_x_and_y(x, y);
}

/// The current fragment (with `#`), or empty.
pub fn fragment() -> String {
    web_sys::window()
        .and_then(|window| window.location().hash().ok())
        .unwrap_or_default()
}

/// The current query string (with `?`), or empty.
pub fn query() -> String {
    web_sys::window()
        .and_then(|window| window.location().search().ok())
        .unwrap_or_default()
}

/// The text the playground's picture shows when a slider moved on it
/// before this engine was in (`web/facade.js`, answered by the first
/// screen's engine): the picture's editor, which the live page opens on
/// (the autosave holds it too, where storage works). `None` without a
/// picture, or when the picture still shows the default text.
pub fn picture_text(default: &str) -> Option<String> {
    let text = web_sys::window()?
        .document()?
        .query_selector("#facade .editor-picture")
        .ok()??
        .text_content()?;
    (text != default && !text.trim().is_empty()).then_some(text)
}

/// The autosaved text, if storage works and holds one.
pub fn load_autosave(exercise: Option<&str>) -> Option<String> {
    load(&autosave_key(exercise))
}

/// Saves the text; silently does nothing where storage is unavailable.
/// Runs `work` after the browser has drawn the next frame (an animation
/// frame, then a task), so saving the text and the link (a DEFLATE of the
/// whole text, localStorage, `history.replaceState`: 2-4 ms measured) is
/// not on the way from a change to the screen (`perf`). A hidden tab draws
/// no frames: its work waits until it is shown.
pub fn after_frame(work: impl FnOnce() + 'static) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let callback = Closure::once_into_js(move || {
        gloo::timers::callback::Timeout::new(0, work).forget();
    });
    let _ = window.request_animation_frame(callback.unchecked_ref());
}

pub fn autosave(exercise: Option<&str>, text: &str) {
    save(&autosave_key(exercise), text);
}

/// Replaces the fragment without a new history entry (so Back leaves the
/// page instead of walking through every keystroke); an empty fragment
/// when the text is too long for a link.
pub fn write_fragment(text: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let fragment = share::encode(text)
        .map(|f| format!("#{f}"))
        .unwrap_or_default();
    let url = format!("{}{fragment}", page_base());
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_wins_over_the_autosave() {
        let fragment = format!("#{}", share::encode("kind: Pod\n").expect("short"));
        let (text, source, notice) = initial_text(&fragment, Some("saved".into()), "default");
        assert_eq!(
            (text.as_str(), source, notice),
            ("kind: Pod\n", Source::Link, None)
        );
    }

    #[test]
    fn a_corrupt_link_opens_the_default_with_a_notice() {
        let (text, source, notice) = initial_text("#v1.!!!", Some("saved".into()), "default");
        assert_eq!(text, "default");
        assert_eq!(source, Source::Default);
        assert_eq!(notice, Some(Notice::CorruptLink));
        let (_, _, notice) = initial_text("#something-else", None, "default");
        assert_eq!(notice, Some(Notice::CorruptLink));
    }

    #[test]
    fn the_autosave_then_the_default() {
        assert_eq!(
            initial_text("", Some("saved".into()), "default"),
            ("saved".to_string(), Source::Autosave, None)
        );
        assert_eq!(
            initial_text("#", Some("  \n".into()), "default"),
            ("default".to_string(), Source::Default, None)
        );
    }

    #[test]
    fn pages_from_the_query_string() {
        assert_eq!(page(""), Page::Playground);
        assert_eq!(page("?lang=en"), Page::Playground);
        assert_eq!(page("?exercises"), Page::Exercises);
        assert_eq!(page("?lang=zh-TW&exercises=1"), Page::Exercises);
        assert_eq!(
            page("?exercise=oom-workers&embed=1"),
            Page::Exercise {
                id: "oom-workers".into(),
                interview: false
            }
        );
        assert_eq!(
            page("?exercise=gpu-taint&mode=interview"),
            Page::Exercise {
                id: "gpu-taint".into(),
                interview: true
            }
        );
        assert_eq!(
            page("?interview=i0a1b2c&lang=zh-TW"),
            Page::Exercise {
                id: "i0a1b2c".into(),
                interview: true
            }
        );
        assert_eq!(page("?exercise="), Page::Playground);
    }

    #[test]
    fn progress_and_autosave_keys() {
        let mut progress = Progress::default();
        progress.record("b", Solved::WithSolution);
        progress.record("a", Solved::ByLearner);
        assert_eq!(progress.encode(), "a=solved,b=solution");
        // Solving it oneself later outranks the solution, not the reverse.
        progress.record("b", Solved::ByLearner);
        progress.record("a", Solved::WithSolution);
        assert_eq!(progress.encode(), "a=solved,b=solved");
        assert_ne!(autosave_key(Some("x")), autosave_key(None));
        assert_ne!(PROGRESS_KEY, OLD_PROGRESS_KEY);
    }

    /// The progress stored before issue 30 (`podlab.solved.v1`, ids only)
    /// is read as solved by the learner while no new value exists; the new
    /// value wins once written, and round-trips.
    #[test]
    fn progress_migrates_from_the_old_key() {
        let old = Progress::decode(None, Some(" b, ,a,a"));
        assert_eq!(
            old.0,
            vec![
                ("a".to_string(), Solved::ByLearner),
                ("b".to_string(), Solved::ByLearner)
            ]
        );
        assert_eq!(old.encode(), "a=solved,b=solved");
        let new = Progress::decode(Some("c=solution,a=solved,x=maybe,=solved"), Some("b"));
        assert_eq!(new.get("c"), Some(Solved::WithSolution));
        assert_eq!(new.get("a"), Some(Solved::ByLearner));
        assert_eq!(
            new.get("b"),
            None,
            "the old key is not read once the new exists"
        );
        assert_eq!(new.get("x"), None);
        assert_eq!(Progress::decode(Some(&new.encode()), None), new);
        assert_eq!(Progress::decode(None, None), Progress::default());
    }

    #[test]
    fn embed_mode_and_links() {
        assert!(is_embed("?embed=1"));
        assert!(is_embed("?lang=zh-TW&embed=1"));
        assert!(!is_embed("?lang=en"));
        assert!(!is_embed("?embedded=1"));
        let link = link("http://127.0.0.1:8080/?lang=en#old", "kind: Pod\n").expect("short");
        assert!(
            link.starts_with("http://127.0.0.1:8080/?lang=en#v1."),
            "{link}"
        );
        let options = PageOptions {
            at: Some(12 * 60_000),
            ..PageOptions::default()
        };
        let code = embed_code(
            "http://127.0.0.1:8080/?lang=en&embed=1&view=yaml",
            "kind: Pod\n",
            &options,
        )
        .expect("short");
        // The page's `lang=` gives way to the embed's (none given here).
        assert!(
            code.contains("src=\"http://127.0.0.1:8080/?embed=1&view=timeline&at=12m&controls=startup,memory&autoplay=0#v2."),
            "{code}"
        );
        assert!(code.contains("height=\""), "{code}");
        assert!(code.starts_with("<iframe ") && code.ends_with("</iframe>"));
        // What the code asks for is what the page reads back.
        let src = code.split('"').nth(1).expect("src");
        let query = &src[src.find('?').expect("query")..src.find('#').expect("fragment")];
        assert!(is_embed(query));
        assert_eq!(
            page_options(query),
            PageOptions {
                controls: Some(vec!["startup", "memory"]),
                ..options
            }
        );
    }

    #[test]
    fn an_embed_opens_the_full_page_with_its_text() {
        assert_eq!(
            full_page_href("http://h/p/?embed=1&lang=en&view=yaml&at=3m", "#v1.abc"),
            "http://h/p/?lang=en&at=3m#v1.abc"
        );
        assert_eq!(full_page_href("http://h/?embed=1", ""), "http://h/");
    }

    #[test]
    fn a_terminal_line_travels_in_cmd() {
        let line = "kubectl logs model-api-7d4 --previous | 中";
        assert_eq!(percent_decode(&percent_encode(line)), line);
        assert_eq!(percent_encode("describe pod m"), "describe%20pod%20m");
        assert_eq!(percent_decode("describe+pod%20m%2"), "describe pod m%2");
        let options = page_options("?view=kubectl&at=12m&cmd=kubectl+describe+pod+m");
        assert_eq!(options.cmd.as_deref(), Some("kubectl describe pod m"));
        assert_eq!(options.at, Some(720_000));
        assert_eq!(page_options("?cmd=+").cmd, None);
        let link = command_link(
            "http://h/?lang=en&at=1m&cmd=old#v1.x",
            "kind: Pod\n",
            720_000,
            "kubectl describe pod m",
        )
        .expect("short");
        assert!(
            link.starts_with("http://h/?lang=en&at=12m&cmd=kubectl%20describe%20pod%20m#v1."),
            "{link}"
        );
        let code = embed_code(
            "http://h/",
            "kind: Pod\n",
            &PageOptions {
                cmd: Some("get pods".into()),
                ..PageOptions::default()
            },
        )
        .expect("short");
        assert!(code.contains("&autoplay=0&cmd=get%20pods#v2."), "{code}");
    }
}
