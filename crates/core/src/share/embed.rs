//! An article's embed: the query parameters an author sets (README,
//! "Embedding") and the iframe code that carries them, written the same
//! way by `podlab share --embed` and the page's "Copy embed code" (issue 28:
//! one function, so both write the same parameters and the same height).

use super::ShareError;
use crate::i18n::Lang;

/// The tab a compact (embedded) page opens on: `?view=`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum View {
    #[default]
    Timeline,
    Yaml,
    Kubectl,
    Diagnosis,
}

impl View {
    pub const ALL: [View; 4] = [View::Timeline, View::Yaml, View::Kubectl, View::Diagnosis];

    pub fn id(self) -> &'static str {
        match self {
            View::Timeline => "timeline",
            View::Yaml => "yaml",
            View::Kubectl => "kubectl",
            View::Diagnosis => "diagnosis",
        }
    }

    pub fn parse(id: &str) -> Option<View> {
        View::ALL.into_iter().find(|view| view.id() == id)
    }
}

/// The sliders and pickers `?controls=` can name, in the order shown.
pub const CONTROL_IDS: [&str; 8] = [
    "startup",
    "memory",
    "workers",
    "gpu-memory",
    "traffic",
    "autoscaler",
    "cluster",
    "sharing",
];

/// The controls an embed shows when its link names none: the two that
/// decide the article's crash loop and OOM.
pub const EMBED_CONTROLS: [&str; 2] = ["startup", "memory"];

/// What an article author sets in the query string (README, "Embedding"):
/// `view=timeline|yaml|kubectl|diagnosis`, `at=12m` (the cursor's start,
/// a Kubernetes-style duration), `controls=startup,memory` (which controls
/// to show), `autoplay=1`, `cmd=kubectl%20describe%20pod%20m` (a line the
/// kubectl terminal runs on open, at `at`) and `lang=en|zh-TW`. Unknown
/// values are ignored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PageOptions {
    pub view: View,
    pub at: Option<u64>,
    /// `None`: every control (or `EMBED_CONTROLS` in an embed).
    pub controls: Option<Vec<&'static str>>,
    pub autoplay: bool,
    /// The terminal's line to run on open.
    pub cmd: Option<String>,
    /// The embed's language (`lang=`): the author's, so the reader needs
    /// no language button.
    pub lang: Option<Lang>,
}

/// A query value with `%XX` and `+` decoded (as UTF-8; a broken escape is
/// kept as written).
pub fn percent_decode(value: &str) -> String {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        let hex = bytes
            .get(at + 1..at + 3)
            .and_then(|pair| std::str::from_utf8(pair).ok())
            .and_then(|pair| u8::from_str_radix(pair, 16).ok());
        match (byte, hex) {
            (b'%', Some(decoded)) => {
                out.push(decoded);
                at += 3;
                continue;
            }
            (b'+', _) => out.push(b' '),
            _ => out.push(byte),
        }
        at += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A query value with everything but `A-Z a-z 0-9 - _ . ~` escaped.
pub fn percent_encode(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for byte in value.bytes() {
        if byte.is_ascii_alphanumeric() || b"-_.~".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// The value of `name` in a query string (`?exercise=oom-workers&lang=en`).
pub fn query_param(query: &str, name: &str) -> Option<String> {
    query.trim_start_matches('?').split('&').find_map(|pair| {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        (key == name).then(|| value.to_string())
    })
}

/// The pairs of a query string (without its `?`) whose key is not one of
/// `dropped`, in their order.
pub fn query_without<'q>(query: &'q str, dropped: &[&str]) -> Vec<&'q str> {
    query
        .split('&')
        .filter(|pair| {
            let key = pair.split_once('=').map_or(*pair, |(key, _)| key);
            !pair.is_empty() && !dropped.contains(&key)
        })
        .collect()
}

pub fn page_options(query: &str) -> PageOptions {
    let view = query_param(query, "view")
        .and_then(|id| View::parse(&id))
        .unwrap_or_default();
    let at = query_param(query, "at").and_then(|at| crate::manifest::duration::parse(&at).ok());
    let controls = query_param(query, "controls").map(|list| {
        CONTROL_IDS
            .into_iter()
            .filter(|id| list.split([',', '+', ' ']).any(|named| named == *id))
            .collect()
    });
    let autoplay = matches!(
        query_param(query, "autoplay").as_deref(),
        Some("1" | "true" | "")
    );
    let cmd = query_param(query, "cmd")
        .map(|cmd| percent_decode(&cmd))
        .filter(|cmd| !cmd.trim().is_empty());
    let lang = query_param(query, "lang").and_then(|code| Lang::parse(&code));
    PageOptions {
        view,
        at,
        controls,
        autoplay,
        cmd,
        lang,
    }
}

/// `12m`, `1m30s`, `45s`: the cursor as `at=` writes it.
pub fn at_param(ms: u64) -> String {
    let seconds = ms / 1000;
    match (seconds / 60, seconds % 60) {
        (0, s) => format!("{s}s"),
        (m, 0) => format!("{m}m"),
        (m, s) => format!("{m}m{s}s"),
    }
}

/// The height the iframe code asks for, for `pods` pods (at most 4 are
/// counted: past them the frame scrolls): the compact layout (CSS
/// `.app.embed`) at an article column's 700 px, read off the release
/// build's embed (`target/e2e/embed-700x560-*.png`): about 250 px for the
/// tab row, the stage's controls, the axis, the folded legend, the
/// scrubber, `kubectl get pods` and the link under it, 145 px per pod's
/// lanes, and 56 px per row of controls (three to a row at 700 px). A
/// narrower column is taller; the frame also tells the article its height
/// as it changes (`web/facade.js`, README "Embedding"), so an article with
/// the snippet fits it exactly.
pub fn embed_height(options: &PageOptions, pods: usize) -> u32 {
    let controls = options
        .controls
        .as_ref()
        .map_or(EMBED_CONTROLS.len(), Vec::len) as u32;
    let pods = pods.clamp(1, 4) as u32;
    250 + 145 * pods + 56 * controls.div_ceil(3)
}

/// The iframe code for `fragment` (`share::encode` or
/// `encode_with_picture`) on the page at `base`: the same link with
/// `embed=1` and the author's parameters, written out so an author sees
/// what can be changed, at `embed_height`.
pub fn embed_code(
    base: &str,
    fragment: &str,
    options: &PageOptions,
    pods: usize,
) -> Result<String, ShareError> {
    let base = base.split('#').next().unwrap_or(base);
    // The page's own view parameters are replaced by the ones given.
    let (path, query) = base.split_once('?').unwrap_or((base, ""));
    let kept = query_without(
        query,
        &["embed", "view", "at", "controls", "autoplay", "cmd", "lang"],
    );
    let mut params = kept.join("&");
    if !params.is_empty() {
        params.push('&');
    }
    let controls = options
        .controls
        .clone()
        .unwrap_or_else(|| EMBED_CONTROLS.to_vec())
        .join(",");
    params.push_str(&format!(
        "embed=1&view={}&at={}&controls={controls}&autoplay={}",
        options.view.id(),
        at_param(options.at.unwrap_or(0)),
        u8::from(options.autoplay)
    ));
    if let Some(lang) = options.lang {
        params.push_str(&format!("&lang={}", lang.code()));
    }
    if let Some(cmd) = &options.cmd {
        params.push_str(&format!("&cmd={}", percent_encode(cmd)));
    }
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    Ok(format!(
        "<iframe src=\"{path}?{params}#{fragment}\" width=\"100%\" height=\"{}\" style=\"border:0\" loading=\"lazy\" title=\"podlab\"></iframe>",
        embed_height(options, pods)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn article_parameters() {
        let options = page_options(
            "?embed=1&view=kubectl&at=1m30s&controls=memory,bogus,startup&autoplay=1&lang=zh-TW",
        );
        assert_eq!(options.view, View::Kubectl);
        assert_eq!(options.at, Some(90_000));
        // In the page's order, unknown names dropped.
        assert_eq!(options.controls, Some(vec!["startup", "memory"]));
        assert!(options.autoplay);
        assert_eq!(options.lang, Some(Lang::ZhTw));
        let plain = page_options("?view=nonsense&at=soon&lang=fr");
        assert_eq!(plain, PageOptions::default());
        assert_eq!(at_param(0), "0s");
        assert_eq!(at_param(45_999), "45s");
        assert_eq!(at_param(720_000), "12m");
        assert_eq!(at_param(750_000), "12m30s");
    }

    #[test]
    fn the_code_asks_for_what_the_page_reads_back() {
        let options = PageOptions {
            at: Some(12 * 60_000),
            lang: Some(Lang::ZhTw),
            ..PageOptions::default()
        };
        let code = embed_code(
            "http://127.0.0.1:8080/?lang=en&embed=1&view=yaml",
            "#v1.abc",
            &options,
            1,
        )
        .expect("short");
        assert!(
            code.contains("src=\"http://127.0.0.1:8080/?embed=1&view=timeline&at=12m&controls=startup,memory&autoplay=0&lang=zh-TW#v1.abc\""),
            "{code}"
        );
        assert!(code.contains(&format!("height=\"{}\"", embed_height(&options, 1))));
        let src = code.split('"').nth(1).expect("src");
        let query = &src[src.find('?').expect("query")..src.find('#').expect("fragment")];
        assert_eq!(
            page_options(query),
            PageOptions {
                controls: Some(vec!["startup", "memory"]),
                ..options
            }
        );
    }

    #[test]
    fn the_height_grows_with_pods_and_controls() {
        let two = PageOptions::default();
        let one = PageOptions {
            controls: Some(vec!["startup"]),
            ..PageOptions::default()
        };
        let four = PageOptions {
            controls: Some(vec!["startup", "memory", "workers", "gpu-memory"]),
            ..PageOptions::default()
        };
        assert!(embed_height(&one, 1) == embed_height(&two, 1));
        assert!(embed_height(&two, 1) < embed_height(&four, 1));
        assert!(embed_height(&two, 1) < embed_height(&two, 2));
        assert_eq!(embed_height(&two, 9), embed_height(&two, 4));
    }

    #[test]
    fn a_terminal_line_travels_in_cmd() {
        let line = "kubectl logs model-api-7d4 --previous | 中";
        assert_eq!(percent_decode(&percent_encode(line)), line);
        assert_eq!(percent_encode("describe pod m"), "describe%20pod%20m");
        assert_eq!(percent_decode("describe+pod%20m%2"), "describe pod m%2");
        let options = page_options("?view=kubectl&at=12m&cmd=kubectl+describe+pod+m");
        assert_eq!(options.cmd.as_deref(), Some("kubectl describe pod m"));
        assert_eq!(page_options("?cmd=+").cmd, None);
    }
}
