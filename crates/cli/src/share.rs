//! `podlab share [--embed]`: the playground link that opens a file, or the
//! iframe code that embeds it.

use crate::{read_input, USAGE};

/// Where the playground is published unless `--base` says otherwise.
const DEFAULT_BASE: &str = "http://127.0.0.1:8080/";

/// `podlab share`: a link (or with `--embed` an iframe) that opens the text.
pub fn share_command(args: &[String]) -> Result<u8, String> {
    use podlab_core::share::{self, ShareError};
    let mut base = DEFAULT_BASE.to_string();
    let mut embed = false;
    let mut file = None;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--base" => base = iter.next().ok_or("--base needs a URL")?.clone(),
            "--embed" => embed = true,
            _ if file.is_none() => file = Some(arg.clone()),
            _ => return Err(USAGE.into()),
        }
    }
    let file = file.ok_or(USAGE)?;
    let text = read_input(&file)?;
    let fragment = share::encode(&text).map_err(|error| match error {
        ShareError::TooLong { fragment_bytes } => format!(
            "{file} is too long for a link: {fragment_bytes} bytes once compressed (at most {})",
            share::MAX_FRAGMENT_BYTES
        ),
        other => format!("{file}: {other:?}"),
    })?;
    let base = base.split('#').next().unwrap_or(&base).to_string();
    if embed {
        let separator = if base.contains('?') { '&' } else { '?' };
        outln!(
            "<iframe src=\"{base}{separator}embed=1#{fragment}\" width=\"100%\" height=\"720\" style=\"border:0\" loading=\"lazy\" title=\"podlab\"></iframe>"
        );
    } else {
        outln!("{base}#{fragment}");
    }
    Ok(0)
}
