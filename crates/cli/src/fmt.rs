//! `podlab fmt --reindent`: PL001's fix applied to a file.

use podlab_core::i18n::Lang;
use podlab_core::lint::lint;

use crate::{lang_value, read_input, USAGE};

/// `podlab fmt --reindent`: applies the fixes of PL001's flattened-paste
/// diagnostics (the edits the page's Fix button applies) and lints the result.
pub fn fmt_command(args: &[String]) -> Result<u8, String> {
    let mut lang = Lang::En;
    let (mut reindent, mut write) = (false, false);
    let mut file = None;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--reindent" => reindent = true,
            "--write" => write = true,
            "--lang" => lang = lang_value(iter.next())?,
            _ if arg.starts_with("--") => return Err(format!("unknown option `{arg}`\n{USAGE}")),
            _ if file.is_none() => file = Some(arg.clone()),
            _ => return Err(USAGE.into()),
        }
    }
    let file = file.ok_or(USAGE)?;
    if !reindent {
        return Err(format!(
            "`podlab fmt` needs `--reindent` (the only formatting it does)\n{USAGE}"
        ));
    }
    if write && file == "-" {
        return Err("--write needs a file, not standard input".into());
    }
    let text = read_input(&file)?;
    let report = lint(&text);
    let mut edits = Vec::new();
    for diagnostic in &report.diagnostics {
        let Some(fix) = &diagnostic.fix else { continue };
        if diagnostic.rule == podlab_core::manifest::yaml::RULE_SYNTAX.0 {
            let line = report.index.line_col(&text, diagnostic.span.start).line;
            eprintln!("{file}:{line}: {}", fix.description.get(lang));
            // Each flattened document's fix mends all of them
            // (`reindent::fix_all`): one is enough.
            edits.extend(fix.edits.iter().cloned());
            break;
        }
    }
    if edits.is_empty() {
        eprintln!(
            "{file}: {}",
            podlab_core::text!(
                "no document has lost its indentation; nothing changed",
                "沒有文件遺失縮排；未做任何變更"
            )
            .get(lang)
        );
    }
    let result = podlab_core::diagnostic::apply_edits(&text, &edits);
    if write {
        if result != text {
            std::fs::write(&file, &result)
                .map_err(|error| format!("cannot write {file}: {error}"))?;
        }
    } else {
        out!("{result}");
    }
    Ok(u8::from(lint(&result).has_errors()))
}
