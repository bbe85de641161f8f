//! The words of "From my cluster" (`?cluster`, issue 31), in English and
//! Traditional Chinese (Taiwan: 叢集, 貼上, 重播, 練習場;
//! `shared/GLOSSARY-zh-TW.md`). The answer's own words are
//! `podlab_core::paste::words`, shared with `podlab diagnose`.

use podlab_core::i18n::Text;

pub fn from_cluster() -> Text {
    Text::new("From my cluster", "從我的叢集")
}

pub fn cluster_heading() -> Text {
    Text::new(
        "From my cluster: what went wrong with a real pod",
        "從我的叢集：真實的 Pod 出了什麼問題",
    )
}

pub fn cluster_intro() -> Text {
    Text::new(
        "Paste what kubectl printed about a failing pod: kubectl describe pod, get pod -o yaml, get events, get pods, logs --previous, in any mix, even cut off. podlab reads it in this page: nothing is sent anywhere.",
        "貼上 kubectl 對出問題的 Pod 印出的內容：kubectl describe pod、get pod -o yaml、get events、get pods、logs --previous，混在一起或被截斷都可以。podlab 在這個頁面裡讀它，不會傳到任何地方。",
    )
}

pub fn paste_label() -> Text {
    Text::new("What kubectl printed", "kubectl 印出的內容")
}

pub fn try_example() -> Text {
    Text::new(
        "Try an example: the article's crash loop",
        "試試範例：文章裡的 CrashLoopBackOff",
    )
}

pub fn paste_waiting() -> Text {
    Text::new(
        "The diagnosis appears here once something is pasted.",
        "貼上內容後，診斷會出現在這裡。",
    )
}

pub fn paste_reading() -> Text {
    Text::new("Reading…", "讀取中…")
}

pub fn paste_unavailable() -> Text {
    Text::new(
        "The diagnosis's engine (kubectl-worker) could not load: reload the page while online.",
        "診斷的引擎（kubectl-worker）載入失敗：請在連線時重新載入頁面。",
    )
}
