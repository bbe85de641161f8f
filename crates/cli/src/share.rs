//! `podlab share`: the playground link that opens a file, or with
//! `--embed` the iframe code an article embeds: the same parameters,
//! height and picture as the page's "Copy embed code"
//! (`podlab_core::share::embed`, `podlab_core::picture::embed_code`).

use podlab_core::i18n::{Lang, Text};
use podlab_core::share::embed::{page_options, PageOptions, View, CONTROL_IDS};

use crate::{read_input, USAGE};

/// Where the playground is published unless `--base` says otherwise.
const DEFAULT_BASE: &str = "http://127.0.0.1:8080/";

/// `podlab share FILE [--base URL] [--embed [--view V] [--at T]
/// [--controls A,B] [--lang L] [--autoplay]]`.
pub fn share_command(args: &[String]) -> Result<u8, String> {
    use podlab_core::share::{self, ShareError};
    let mut base = DEFAULT_BASE.to_string();
    let mut embed = false;
    let mut file = None;
    let mut options = PageOptions::default();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let mut value = |name: &str| {
            iter.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value\n{USAGE}"))
        };
        match arg.as_str() {
            "--base" => base = value("--base")?,
            "--embed" => embed = true,
            "--view" => {
                let id = value("--view")?;
                options.view = View::parse(&id).ok_or_else(|| {
                    let ids: Vec<&str> = View::ALL.iter().map(|view| view.id()).collect();
                    format!("--view {id}: one of {}", ids.join(", "))
                })?;
            }
            "--at" => {
                let at = value("--at")?;
                options.at = Some(
                    podlab_core::manifest::duration::parse(&at)
                        .map_err(|_| format!("--at {at}: a duration such as 12m or 1m30s"))?,
                );
            }
            "--controls" => {
                let list = value("--controls")?;
                let unknown: Vec<&str> = list
                    .split(',')
                    .filter(|id| !id.is_empty() && !CONTROL_IDS.contains(id))
                    .collect();
                if !unknown.is_empty() {
                    return Err(format!(
                        "--controls: unknown {} (one of {})",
                        unknown.join(", "),
                        CONTROL_IDS.join(", ")
                    ));
                }
                options.controls = page_options(&format!("controls={list}")).controls;
            }
            "--lang" => {
                let code = value("--lang")?;
                options.lang =
                    Some(Lang::parse(&code).ok_or_else(|| format!("--lang {code}: en or zh-TW"))?);
            }
            "--autoplay" => options.autoplay = true,
            _ if file.is_none() && !arg.starts_with("--") => file = Some(arg.clone()),
            _ => return Err(USAGE.into()),
        }
    }
    let file = file.ok_or(USAGE)?;
    let text = read_input(&file)?;
    let too_long = |error: ShareError| match error {
        ShareError::TooLong { fragment_bytes } => format!(
            "{file} is too long for a link: {fragment_bytes} bytes once compressed (at most {})",
            share::MAX_FRAGMENT_BYTES
        ),
        other => format!("{file}: {other:?}"),
    };
    let base = base.split('#').next().unwrap_or(&base).to_string();
    if embed {
        let (code, pictured) =
            podlab_core::picture::embed_code(&base, &text, &options).map_err(too_long)?;
        outln!("{code}");
        if !pictured && options.view == View::Timeline {
            let note = Text::new(
                "note: the picture of the simulation does not fit in the link; the embed loads the simulator at once instead",
                "注意：模擬畫面放不進連結；這個嵌入會直接載入模擬器",
            );
            eprintln!("{}", note.get(options.lang.unwrap_or_default()));
        }
    } else {
        let fragment = share::encode(&text).map_err(too_long)?;
        outln!("{base}#{fragment}");
    }
    Ok(0)
}
