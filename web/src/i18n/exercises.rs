//! The words of the exercise pages (index, panel, interview mode), in English
//! and Traditional Chinese (Taiwan): 練習題／提示／解答／目標／面試模式
//! (`shared/GLOSSARY-zh-TW.md`).

use podlab_core::i18n::Text;
use podlab_core::text;

pub fn exercises() -> Text {
    Text::new("Exercises", "練習題")
}

pub fn exercises_intro() -> Text {
    Text::new(
        "Broken ML workloads to diagnose and fix. Each one is checked by the simulator, not by matching text.",
        "壞掉的 ML 工作負載，找出原因並修好。每一題都由模擬器檢查，而不是比對文字。",
    )
}

pub fn all_tags() -> Text {
    Text::new("all", "全部")
}

pub fn solved_mark() -> Text {
    Text::new("solved", "已解開")
}

pub fn practice() -> Text {
    Text::new("Fix it", "動手修")
}

pub fn interview_mode() -> Text {
    Text::new("Interview mode", "面試模式")
}

pub fn back_to_index() -> Text {
    Text::new("All exercises", "所有練習題")
}

pub fn playground() -> Text {
    Text::new("Playground", "練習場")
}

pub fn goal() -> Text {
    Text::new("Goal", "目標")
}

pub fn goals() -> Text {
    Text::new("Goals, checked live", "目標（即時檢查）")
}

pub fn hint() -> Text {
    Text::new("Show a hint", "看一個提示")
}

pub fn hint_n(n: usize, total: usize) -> Text {
    text!("Hint {n} of {total}", "提示 {n}／{total}")
}

pub fn explanation() -> Text {
    Text::new("Why it broke", "為什麼會壞")
}

pub fn show_solution() -> Text {
    Text::new("Load the solution", "載入解答")
}

pub fn reset() -> Text {
    Text::new("Start over", "重新開始")
}

pub fn solved_banner() -> Text {
    Text::new("Solved! Every goal holds.", "解開了！所有目標都達成。")
}

pub fn unknown_exercise(id: &str) -> Text {
    text!(
        "There is no exercise \"{id}\"; the playground is open instead.",
        "沒有「{id}」這個練習題，所以改為開啟練習場。"
    )
}

pub fn interview_symptom() -> Text {
    Text::new(
        "Symptom: this is what you see. What do you run next?",
        "症狀：你看到的是這樣。下一個指令要跑什麼？",
    )
}

pub fn interview_run() -> Text {
    Text::new("Run", "執行")
}

pub fn root_cause_question() -> Text {
    Text::new(
        "What is the most likely root cause?",
        "最可能的根因是什麼？",
    )
}

pub fn your_path() -> Text {
    Text::new("Your commands", "你下的指令")
}

pub fn recommended_path() -> Text {
    Text::new("Recommended", "建議的指令")
}

pub fn recommended_order() -> Text {
    Text::new(
        "Recommended order: describe → logs --previous → exec",
        "建議順序：describe → logs --previous → exec（排錯三連）",
    )
}

pub fn try_again() -> Text {
    Text::new("Try again", "再試一次")
}

pub fn loading_exercises() -> Text {
    Text::new("Loading the exercises…", "正在載入練習題…")
}

pub fn library_failed(error: &str) -> Text {
    text!(
        "The exercises could not be loaded ({error}); the playground still works.",
        "練習題載入失敗（{error}）；練習場仍然可以使用。"
    )
}
