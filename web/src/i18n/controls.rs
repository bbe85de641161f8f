//! The words of the controls and the share bar, in English and Traditional
//! Chinese (Taiwan), following `shared/GLOSSARY-zh-TW.md` (滑桿, 載入時間,
//! 分享／複製連結／嵌入程式碼).

use podlab_core::i18n::Text;
use podlab_core::manifest::path::ProgramField;
use podlab_core::text;

pub fn controls_need_container() -> Text {
    Text::new(
        "Add a Deployment, Job or Pod with a container to use the sliders.",
        "加入一個有 container 的 Deployment、Job 或 Pod，就能使用滑桿。",
    )
}

// The sliders' names are the program numbers' own (`ProgramField::label`),
// which the outcome map's axes use too.

pub fn load_time() -> Text {
    ProgramField::Startup.label()
}

pub fn memory_steady() -> Text {
    ProgramField::MemorySteady.label()
}

pub fn memory_peak() -> Text {
    ProgramField::MemoryPeak.label()
}

pub fn workers() -> Text {
    ProgramField::Workers.label()
}

pub fn gpu_memory() -> Text {
    ProgramField::GpuMemory.label()
}

pub fn copy_link() -> Text {
    Text::new("Copy link", "複製連結")
}

pub fn copy_embed() -> Text {
    Text::new("Copy embed code", "複製嵌入程式碼")
}

pub fn share_heading() -> Text {
    Text::new("Share", "分享")
}

pub fn copied() -> Text {
    Text::new("Copied.", "已複製。")
}

/// When the clipboard refuses (no permission): the text is selected instead.
pub fn copy_by_hand() -> Text {
    Text::new(
        "Press Ctrl+C (⌘C) to copy the selected text.",
        "請按 Ctrl+C（⌘C）複製已選取的文字。",
    )
}

pub fn too_long_to_share(bytes: usize, max: usize) -> Text {
    text!(
        "This text is too long for a link: {bytes} bytes once compressed, at most {max}. Shorten it, or share the file itself (podlab share FILE).",
        "這段文字太長，放不進連結：壓縮後 {bytes} bytes，上限是 {max}。請縮短內容，或直接分享檔案（podlab share FILE）。"
    )
}

pub fn notice_corrupt_link() -> Text {
    Text::new(
        "The link is damaged or not a podlab link, so the default example is open instead.",
        "這個連結已損壞或不是 podlab 的連結，所以改為開啟預設範例。",
    )
}

pub fn notice_link_too_large() -> Text {
    Text::new(
        "The link's text is larger than podlab opens (256 KiB), so the default example is open instead.",
        "連結裡的文字超過 podlab 能開啟的大小（256 KiB），所以改為開啟預設範例。",
    )
}

pub fn dismiss() -> Text {
    Text::new("Dismiss", "關閉")
}

// ------------------------------------------------------------- layout

pub fn hide_editor() -> Text {
    Text::new("Hide the YAML", "收起 YAML")
}

pub fn show_editor() -> Text {
    Text::new("Show the YAML", "展開 YAML")
}

/// An exercise keeps podlab's own findings folded: finding the cause is
/// the learner's work.
/// The findings button before the worker's answer (no count yet).
pub fn show_findings_checking() -> Text {
    Text::new(
        "Show podlab's findings (checking…)",
        "顯示 podlab 的檢查結果（檢查中…）",
    )
}

/// The findings button when the worker could not lint (the list says why).
pub fn show_findings_uncounted() -> Text {
    Text::new("Show podlab's findings", "顯示 podlab 的檢查結果")
}

pub fn show_findings(count: usize) -> Text {
    text!(
        "Show podlab's findings ({count})",
        "顯示 podlab 的檢查結果（{count}）"
    )
}

pub fn show_answer() -> Text {
    Text::new("Show the answer", "顯示答案")
}

pub fn locked_lines(first: usize, last: usize) -> Text {
    text!(
        "Lines {first}–{last} (the Scenario's workload: how the program behaves) are locked in this exercise: fix the manifests.",
        "第 {first}–{last} 行（Scenario 的 workload：程式的行為）在這個練習題裡不能修改：請修正 manifest。"
    )
}

pub fn show_diagnosis() -> Text {
    Text::new("Show podlab's diagnosis", "顯示 podlab 的診斷")
}

pub fn min_replicas() -> Text {
    Text::new("HPA minReplicas", "HPA minReplicas")
}

pub fn max_replicas() -> Text {
    Text::new("HPA maxReplicas", "HPA maxReplicas")
}

pub fn hpa_target() -> Text {
    Text::new("HPA target per Pod", "HPA 每個 Pod 的目標")
}

pub fn add_autoscaler() -> Text {
    Text::new(
        "Add a HorizontalPodAutoscaler",
        "加上 HorizontalPodAutoscaler",
    )
}

pub fn scale_up_pods() -> Text {
    Text::new(
        "HPA scale-up: Pods per 15 s",
        "HPA 擴充：每 15 秒最多幾個 Pod",
    )
}

/// No `behavior`: the legacy limit.
pub fn scale_up_default() -> Text {
    Text::new(
        "default (up to ×2, at least 4)",
        "預設（最多加倍，至少可到 4）",
    )
}

/// The diagnosis card's row for an outcome that rests on an assumption.
pub fn assumption() -> Text {
    Text::new("Assumption", "假設")
}

/// After the symptom of such an outcome.
pub fn if_assumption_holds() -> Text {
    Text::new(" (if the assumption holds)", "（假設成立的話）")
}
