//! The outcome map's panel (issue 32, `components/outcome_map.rs`): the
//! page's own words. The panel's other words (its heading, how to read it,
//! the axes' menus, the status) come with the map from the tools worker
//! (`crate::mapped`), and the drawing's from the core (`map::svg`).

use podlab_core::i18n::Text;

/// The kubectl section's switch that shows the map.
pub fn show_map() -> Text {
    Text::new("Outcome map", "結果地圖")
}

/// Before the worker's first answer.
pub fn map_updating() -> Text {
    Text::new("Simulating…", "模擬中…")
}

/// The tools worker did not load (offline before it was fetched).
pub fn map_unavailable() -> Text {
    Text::new(
        "The map could not be computed: its engine did not load. Reload the page while online.",
        "無法計算地圖：它的引擎沒有載入。請在連線時重新載入頁面。",
    )
}
