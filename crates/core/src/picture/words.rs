//! The words of the timeline and the stage around it, in English and
//! Traditional Chinese (Taiwan): what the live page and its picture both
//! show (the page's other words are in `web/src/i18n`). The Chinese follows
//! `shared/GLOSSARY-zh-TW.md`.

use crate::controls::Preset;
use crate::explain::timeline::{MarkerKind, State};
use crate::i18n::Text;
use crate::text;

pub fn title() -> Text {
    Text::new("podlab playground", "podlab 練習場")
}

pub fn tagline() -> Text {
    Text::new(
        "Lint Kubernetes ML workloads in your browser: nothing leaves this page.",
        "在瀏覽器裡檢查 Kubernetes ML 工作負載：內容不會離開這個頁面。",
    )
}

pub fn simulation_heading() -> Text {
    Text::new("Simulation", "模擬")
}

pub fn timeline_label() -> Text {
    Text::new("Timeline", "時間軸")
}

pub fn play() -> Text {
    Text::new("Play", "播放")
}

pub fn speed() -> Text {
    Text::new("Speed", "速度")
}

/// The scrubber's label.
pub fn simulated_time() -> Text {
    Text::new("Simulated time", "模擬時間")
}

/// The scrubber's spoken value: `12:00 of 15:00`.
pub fn time_of(at: &str, end: &str) -> Text {
    text!("{at} of {end}", "{at}／{end}")
}

pub fn no_pods() -> Text {
    Text::new(
        "No pods in this simulation: the text has no workload that could be read.",
        "這個模擬沒有 Pod：內容裡沒有可以讀取的工作負載。",
    )
}

/// The tooltip and accessible name of a lane's pod button.
pub fn select_pod(name: &str) -> Text {
    text!(
        "Show pod {name} in the kubectl panes",
        "在 kubectl 窗格顯示 Pod {name}"
    )
}

pub fn legend() -> Text {
    Text::new("Legend", "圖例")
}

pub fn memory() -> Text {
    Text::new("memory", "記憶體")
}

/// The memory limit line's label: `limit 8Gi`.
pub fn memory_limit(quantity: &str) -> Text {
    text!("limit {quantity}", "上限 {quantity}")
}

/// The legend's name for the dashed line.
pub fn limit_line() -> Text {
    Text::new("memory limit", "記憶體 limits")
}

pub fn no_memory_limit() -> Text {
    Text::new("no memory limit", "沒有記憶體 limits")
}

/// A segment's label (Kubernetes' words stay English, as the blog keeps them).
pub fn state(state: State) -> Text {
    match state {
        State::RunningNotReady => Text::new("Running, not Ready", "Running，尚未 Ready"),
        // kubectl's STATUS is `Init:N/M`: the lane says what the pod waits for.
        State::Init => Text::new(
            "Init: init containers running",
            "Init：init container 執行中",
        ),
        State::PodInitializing => Text::new(
            "PodInitializing: init done, starting",
            "PodInitializing：init 完成，啟動中",
        ),
        other => Text::new(other.id(), other.id()),
    }
}

/// An exit state's label with its exit codes, as `kubectl describe` prints
/// the last state (`Reason: Error`, `Exit Code: 143`): `Error (exit 143)`.
/// Other states, or no code, read as `state`.
pub fn state_with_exits(state: State, codes: &[i64]) -> Text {
    let base = self::state(state);
    if codes.is_empty() || !matches!(state, State::Error | State::OOMKilled) {
        return base;
    }
    let codes = codes
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    let (en, zh) = (base.en, base.zh_tw);
    text!("{en} (exit {codes})", "{zh}（exit code {codes}）")
}

/// A marker's tooltip title.
pub fn marker(kind: MarkerKind) -> Text {
    match kind {
        MarkerKind::ProbeFailure(probe) => {
            let (en, field) = (probe.title(), probe.field());
            text!("{en} probe failed", "{field} 失敗")
        }
        MarkerKind::Killing => Text::new(
            "Killing: the kubelet stops the container",
            "Killing：kubelet 停止容器",
        ),
        MarkerKind::Restart(count) => text!("Restart {count}", "第 {count} 次重啟"),
        MarkerKind::OOMKilled => Text::new(
            "OOMKilled: the kernel killed it at the memory limit",
            "OOMKilled：記憶體超過 limits，被核心終止",
        ),
    }
}

/// The legend's line for a merged glyph (`picture::draw::marker_glyphs`).
pub fn merged_markers() -> Text {
    Text::new(
        "merged markers and their count (hover for each)",
        "合併的標記與數量（滑過可看每一個）",
    )
}

/// The restart marker in the legend (the lane's tooltip gives the count).
pub fn restart_marker() -> Text {
    Text::new("Restart: the container started again", "重啟：容器再次啟動")
}

pub fn open_in_podlab() -> Text {
    Text::new("Open in podlab ↗", "在 podlab 開啟 ↗")
}

pub fn views_label() -> Text {
    Text::new("What to show", "要顯示的內容")
}

/// The picture's invitation: everything on it is drawn, nothing runs yet.
pub fn run_live() -> Text {
    Text::new(
        "▶ Run it live: play, drag the sliders, open kubectl",
        "▶ 即時執行：播放、拖動滑桿、開啟 kubectl",
    )
}

/// Shown on the picture while the engine downloads after a tap.
pub fn loading_engine() -> Text {
    Text::new("Loading the simulator…", "正在載入模擬器…")
}

/// The picture's tooltip: who drew it and at what time.
pub fn drawn_by(version: &str, at: &str) -> Text {
    text!(
        "A picture of the simulation at {at}, drawn by podlab {version}; it runs live at the first touch.",
        "模擬在 {at} 時的畫面，由 podlab {version} 繪製；第一次操作時改為即時執行。"
    )
}

/// The tabs of the compact (embedded) page.
pub fn view_tab(view: crate::share::embed::View) -> Text {
    use crate::share::embed::View;
    match view {
        View::Timeline => Text::new("Timeline", "時間軸"),
        View::Yaml => Text::new("YAML", "YAML"),
        View::Kubectl => Text::new("kubectl", "kubectl"),
        View::Diagnosis => Text::new("Diagnosis", "診斷"),
    }
}

/// The editor's label (the picture shows the text where the editor goes).
pub fn editor_label() -> Text {
    Text::new(
        "Manifests and Scenario (YAML)",
        "Manifest 與 Scenario（YAML）",
    )
}

// The Scenario panel's words (the live page's `Controls` and the
// picture's panel, `picture::controls`).

pub fn controls_heading() -> Text {
    Text::new("Scenario", "情境設定")
}

pub fn cluster() -> Text {
    Text::new("Cluster", "叢集")
}

pub fn custom() -> Text {
    Text::new("As written in the text", "依文字內容（自訂）")
}

pub fn gpu_sharing() -> Text {
    Text::new("GPU sharing", "GPU 共用方式")
}

pub fn preset(preset: Preset) -> Text {
    match preset {
        Preset::OneT4 => Text::new("One T4 node (16 GiB)", "一個 T4 節點（16 GiB）"),
        Preset::OneL4 => Text::new("One L4 node (24 GiB)", "一個 L4 節點（24 GiB）"),
        Preset::TwoA100 => Text::new("Two A100-80GB nodes", "兩個 A100-80GB 節點"),
        Preset::NoDevicePlugin => Text::new(
            "GPU node without the device plugin",
            "沒有 device plugin 的 GPU 節點",
        ),
        Preset::TaintedGpuPool => Text::new(
            "Tainted GPU pool (nvidia.com/gpu:NoSchedule)",
            "有 taint 的 GPU 節點池（nvidia.com/gpu:NoSchedule）",
        ),
    }
}

pub fn sharing_none() -> Text {
    Text::new("None (one pod per GPU)", "不共用（一個 Pod 一張 GPU）")
}

pub fn sharing_time_slicing(replicas: i64) -> Text {
    text!(
        "Time-slicing, {replicas} replicas",
        "Time-slicing，{replicas} 份"
    )
}

pub fn sharing_mps(replicas: i64) -> Text {
    text!("MPS, {replicas} replicas", "MPS，{replicas} 份")
}

pub fn sharing_mig(layout: &str) -> Text {
    text!("MIG {layout}", "MIG {layout}")
}

/// A slider whose number the text does not state (issue 29): its tooltip.
pub fn assumed_value(value: &str) -> Text {
    text!(
        "assumed: podlab used {value}, which neither the manifest nor a Scenario states; drag the slider to state it",
        "假設值：podlab 使用 {value}，manifest 與 Scenario 都沒有寫明；拖動滑桿即可寫明"
    )
}

/// What a screen reader hears before an assumed value.
pub fn assumed_word() -> Text {
    Text::new("(assumed) ", "（假設值）")
}

/// Beside the controls' heading when a slider shows an assumed number.
pub fn assumed_key() -> Text {
    Text::new(
        "≈ assumed, not stated in the text",
        "≈ 假設值，內容裡沒有寫明",
    )
}

pub fn add_traffic() -> Text {
    Text::new("Send requests through a Service", "透過 Service 送出請求")
}

/// A GPU sharing choice's name in the picker, by its id
/// (`controls::sharing_options`).
pub fn sharing(id: &str) -> Text {
    match id {
        "none" => sharing_none(),
        "ts-2" => sharing_time_slicing(2),
        "ts-4" => sharing_time_slicing(4),
        "mps-2" => sharing_mps(2),
        "mps-4" => sharing_mps(4),
        "mig-7x1g" => sharing_mig("7 × 1g.10gb"),
        "mig-2x3g" => sharing_mig("2 × 3g.40gb"),
        _ => sharing_mig("1g.10gb + 2g.20gb + 3g.40gb"),
    }
}
