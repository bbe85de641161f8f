//! `docs/rules.md` and `docs/rules.zh-TW.md` are generated from the rule
//! registry; this test fails when they are out of date. Regenerate with
//! `PODLAB_UPDATE_DOCS=1 cargo test -p podlab-core --test docs`.

use std::path::Path;

use podlab_core::i18n::Lang;
use podlab_core::rules::doc::render_markdown;

#[test]
fn rule_docs_in_the_repository_match_the_registry() {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs");
    for (lang, file) in [(Lang::En, "rules.md"), (Lang::ZhTw, "rules.zh-TW.md")] {
        let path = docs.join(file);
        let wanted = render_markdown(lang);
        if std::env::var_os("PODLAB_UPDATE_DOCS").is_some() {
            std::fs::write(&path, &wanted).expect("docs/ is writable");
            continue;
        }
        let found = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            found == wanted,
            "docs/{file} is out of date: run `PODLAB_UPDATE_DOCS=1 cargo test -p podlab-core --test docs`"
        );
    }
}
