//! The words around an answer (`podlab diagnose`'s text and the page's
//! "From my cluster"), in English and Traditional Chinese (Taiwan:
//! 診斷／證據／修正／假設／重播, `shared/GLOSSARY-zh-TW.md`). The answer's
//! own sentences (the explanation, what was read) come with the answer.

use crate::i18n::Text;
use crate::text;

pub fn diagnosis() -> Text {
    Text::new("Diagnosis", "診斷")
}

pub fn evidence() -> Text {
    Text::new("Evidence (line of the paste)", "證據（貼上內容的行號）")
}

pub fn fix() -> Text {
    Text::new("Fix", "修正")
}

pub fn no_fix() -> Text {
    Text::new(
        "podlab cannot know the fix from the paste",
        "光看貼上的內容，podlab 無法知道該怎麼修",
    )
}

pub fn assumed() -> Text {
    Text::new("Assumed", "假設")
}

pub fn read() -> Text {
    Text::new("Read", "讀到")
}

pub fn pod() -> Text {
    Text::new("pod", "Pod")
}

pub fn replay() -> Text {
    Text::new("Replay", "重播")
}

/// Whether podlab's own `get pods` at `at` shows what was pasted.
pub fn replay_at(at: &str, matches: bool) -> Text {
    if matches {
        text!(
            "podlab's get pods at {at} shows the pasted STATUS and RESTARTS:",
            "podlab 在 {at} 的 get pods 和貼上的 STATUS、RESTARTS 相同："
        )
    } else {
        text!(
            "podlab's get pods at {at} (the pasted STATUS and RESTARTS were not reached within the paste's age):",
            "podlab 在 {at} 的 get pods（在貼上內容的 Pod 年齡內沒有出現相同的 STATUS、RESTARTS）："
        )
    }
}

/// A message compared between the paste and the replay.
pub fn compared(same: bool) -> Text {
    if same {
        Text::new("same as pasted", "和貼上的相同")
    } else {
        Text::new("differs from the paste", "和貼上的不同")
    }
}

pub fn with_the_fix() -> Text {
    Text::new("With the fix:", "套用修正後：")
}

pub fn open_it() -> Text {
    Text::new("Open it", "打開")
}

/// The page's link that opens the rebuilt text in the playground at `at`.
pub fn open_replay(at: &str) -> Text {
    text!(
        "Open the replay in the playground at {at}",
        "在練習場打開重播（{at}）"
    )
}

/// The page's title of an evidence line's button.
pub fn evidence_goto() -> Text {
    Text::new("Show this line in the paste", "在貼上的內容中顯示這一行")
}

pub fn other_pods() -> Text {
    Text::new("Pods in the paste", "貼上內容中的 Pod")
}
