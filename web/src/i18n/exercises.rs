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

/// The hint button: which hint it shows, of how many.
pub fn hint(n: usize, total: usize) -> Text {
    text!("Show hint {n} of {total}", "看提示 {n}／{total}")
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

pub fn choices_after_a_command() -> Text {
    Text::new(
        "The root-cause choices appear once a command has shown something about the pod in trouble.",
        "等某個指令讓你看到出問題那個 Pod 的線索之後，根因選項才會出現。",
    )
}

pub fn ready_to_answer() -> Text {
    Text::new("I'm ready to answer", "我準備好回答了")
}

pub fn score_cause() -> Text {
    Text::new("Root cause", "根因")
}

pub fn right_or_wrong(right: bool) -> Text {
    if right {
        Text::new("right", "正確")
    } else {
        Text::new("wrong", "錯誤")
    }
}

pub fn score_steps() -> Text {
    Text::new("Recommended steps in order", "依序完成的建議步驟")
}

pub fn steps_of(followed: usize, total: usize, order: &str) -> Text {
    text!(
        "{followed} of {total} ({order})",
        "{followed}／{total}（{order}）"
    )
}

pub fn score_detours() -> Text {
    Text::new("Detours", "繞路")
}

pub fn score_typed() -> Text {
    Text::new("Commands typed", "輸入的指令")
}

/// The definitions of docs/exercises.md "Interview mode", beside the score.
pub fn score_definition() -> Text {
    Text::new(
        "In order: a recommended step counts only after the ones before it (get events stands for describe). A detour: a line that showed nothing about the pod in trouble (failed, another pod, get pods again) or evidence the recommended path does not need (such as apply before reading), and an action (delete pod, drain, scale…) before any read of the pod in trouble. Success: the right cause and at least one recommended step.",
        "依序：建議步驟要在前面的步驟之後做才算（get events 可代替 describe）。繞路：沒看到出問題 Pod 任何線索的指令（執行失敗、看別的 Pod、又跑 get pods）、建議路徑用不到的資訊（例如還沒讀就先 apply），以及還沒看過出問題的 Pod 就先動手（delete pod、drain、scale…）。成功：根因正確，且至少做了一個建議步驟。",
    )
}

pub fn solved_mark_with_solution() -> Text {
    Text::new("solved with the solution", "看解答解開")
}

pub fn solved_with_solution_banner() -> Text {
    Text::new(
        "Solved with the solution: every goal holds on the loaded solution. It is recorded as such; start over to solve it yourself.",
        "用解答解開：載入的解答讓所有目標都達成。進度會記成「看解答解開」；想自己解的話請重新開始。",
    )
}

pub fn next_exercise() -> Text {
    Text::new("Next exercise:", "下一題：")
}

pub fn solution_loaded() -> Text {
    Text::new("The solution replaced your text.", "解答已經取代你的文字。")
}

pub fn undo_solution() -> Text {
    Text::new("Undo: bring my text back", "復原：拿回我的文字")
}

/// The confirmation before the answer while hints are left.
pub fn confirm_answer(left: usize, total: usize) -> Text {
    text!(
        "{left} of {total} hints not shown yet. Show the answer anyway?",
        "還有 {left}／{total} 個提示沒看。還是要直接看答案嗎？"
    )
}

/// The confirmation before loading the solution while hints are left.
pub fn confirm_solution(left: usize, total: usize) -> Text {
    text!(
        "{left} of {total} hints not shown yet. Load the solution anyway? Undo brings your text back; it counts as solved with the solution.",
        "還有 {left}／{total} 個提示沒看。還是要載入解答嗎？按「復原」可拿回你的文字；這題會記成「看解答解開」。"
    )
}

pub fn keep_trying() -> Text {
    Text::new("Keep trying", "再想想")
}

pub fn interview_cases_intro() -> Text {
    Text::new(
        "Cases as a colleague reports them: find the cause in the terminal, then name it.",
        "同事回報的狀況：先在終端機裡找出原因，再說出根因。",
    )
}
