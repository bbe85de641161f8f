//! `podlab rules [ID|NAME]`: the rule list, or one rule's documentation.

use podlab_core::i18n::Lang;
use podlab_core::rules;

use crate::{lang_value, USAGE};

pub fn rules_command(args: &[String]) -> Result<u8, String> {
    let mut lang = Lang::En;
    let mut wanted = None;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--lang" => lang = lang_value(iter.next())?,
            _ if wanted.is_none() => wanted = Some(arg.clone()),
            _ => return Err(USAGE.into()),
        }
    }
    match wanted {
        None => out!("{}", rules::doc::render_list(lang)),
        Some(id) => {
            let rule = rules::find(&id)
                .ok_or_else(|| format!("no rule `{id}` (`podlab rules` lists them)"))?;
            out!("{}", rules::doc::render(rule, lang));
        }
    }
    Ok(0)
}
