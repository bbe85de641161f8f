//! The first screen's engine (issue 28 item 2; docs/size.md "The slider's
//! path"): the simulator and the picture's drawing, without Yew, the
//! editor or any panel. On the playground `web/facade.js` fetches it before
//! the page's engine and answers a slider moved on the picture with it: the
//! text with the slider's number written in (`controls::apply`, as the live
//! page writes it), then the Scenario panel and the stage drawn again by
//! the same functions the picture and the live page use. The page's engine
//! follows and opens on the text the picture left (`persist`).
//!
//! Built by Trunk as a `data-type="worker"` binary only for its
//! `no-modules` glue (`stage-engine.js` defines `wasm_bindgen`); it runs on
//! the page's main thread, where a worker's extra round trips would cost
//! more than the drawing (docs/size.md).

use podlab_core::controls::{self, sliders};
use podlab_core::i18n::Lang;
use podlab_core::picture;
use wasm_bindgen::prelude::*;

/// `text` with the program slider `testid` at `number` (the input's
/// `valueAsNumber`) written into its Scenario; `None` when no slider has
/// that id or the text cannot take the change (the picture then stays).
#[wasm_bindgen]
pub fn slide(text: &str, testid: &str, number: f64) -> Option<String> {
    let change = sliders::change(testid, number)?;
    controls::apply(text, &change).ok()
}

/// The playground picture's Scenario panel and stage for `text` in `lang`
/// (`en`, `zh-TW`): `[panel, stage]`.
#[wasm_bindgen]
pub fn redraw(text: &str, lang: &str) -> Vec<String> {
    let (panel, stage) = picture::playground_parts(text, Lang::parse(lang).unwrap_or_default());
    vec![panel, stage]
}

fn main() {}
