//! What the page is told about a scenario and each of its runs, once per load, and the state
//! of a run it is sent after every step (`FrameView`).
use super::lru::{DirtyState, ListSizes, LruView, WatermarkView};
use super::{BalanceView, GensView, MemcgLruView, RefaultView};
use crate::mm::mmzone::{Mm, TracedMove};
use crate::scenario::lesson::View;
use crate::scenario::Scenario;
use crate::variant::flag_docs::FlagValues;
use serde::Serialize;
use ts_rs::TS;

/// A variant of the scenario: its name and kernel preset.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct VariantInfo {
    pub name: String,
    pub preset: String,
}

/// A lesson step as the page shows it (`scenario::lesson::LessonStep` without its facts).
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct LessonStepInfo {
    /// Virtual time at which the caption appears (ns).
    pub at_ns: u64,
    /// Plain text: rendered as a text node, never as markup.
    pub caption: String,
    /// The run pauses when it reaches `atNs`.
    pub pause: bool,
    /// The view the caption talks about.
    pub highlight: Option<View>,
    /// The step compares the variants: the page asks to tick Compare only while it is not.
    pub compare: bool,
}

/// A parsed, valid scenario as the page lists it.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct ScenarioInfo {
    pub title: String,
    pub description: String,
    pub variants: Vec<VariantInfo>,
    /// Lesson steps in time order (empty: no lesson).
    pub lesson: Vec<LessonStepInfo>,
    /// The `[[devices]]` by name, in file order (the device knobs' choices).
    pub devices: Vec<String>,
    /// vm.swappiness of `[sysctl]` (the engine's default when the file does not set it).
    pub swappiness: u32,
    /// The text of each `[[expect]]`, in file order.
    pub expect: Vec<String>,
}

impl ScenarioInfo {
    pub fn of(scn: &Scenario) -> ScenarioInfo {
        ScenarioInfo {
            title: scn.title.clone(),
            description: scn.description.clone(),
            variants: scn
                .variants
                .iter()
                .map(|v| VariantInfo {
                    name: v.name.clone(),
                    preset: v.preset.clone(),
                })
                .collect(),
            lesson: scn
                .lesson
                .iter()
                .map(|s| LessonStepInfo {
                    at_ns: s.at.ns(),
                    caption: s.caption.trim().to_string(),
                    pause: s.pause,
                    highlight: s.highlight,
                    compare: s.compare,
                })
                .collect(),
            devices: scn.devices.iter().map(|d| d.name.clone()).collect(),
            swappiness: scn.sysctl.swappiness,
            expect: scn.expect.iter().map(|e| e.text.clone()).collect(),
        }
    }
}

/// vm.swappiness of one run: asked for by the scenario, the kernel's cap, and what it runs with
/// (a capped kernel refuses larger values).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, TS)]
pub struct SwappinessInfo {
    pub asked: u32,
    pub cap: u32,
    pub runs: u32,
}

/// The kernel of one run: its flags and what became of the swappiness the scenario asked for.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RunKernel {
    /// Effective flags of the run (variant + per-run overrides).
    pub flags: FlagValues,
    /// Flags of the variant as the scenario writes it.
    pub base_flags: FlagValues,
    pub swappiness: SwappinessInfo,
}

/// Constants of one run, sent once on load.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RunInfo {
    pub variant: String,
    pub preset: String,
    /// 4 KiB pages per simulated frame.
    pub scale: u64,
    /// Simulated frames (RAM / 4 KiB / scale).
    pub frames: u64,
    pub end_ns: u64,
    pub kernel: RunKernel,
    /// memcg names by id ("/" = root), only for scenarios with memcgs.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub memcg_names: Option<Vec<String>>,
}

/// The state of one run after a step: everything the views draw but the bulk arrays (counters
/// and new series rows travel as typed arrays). Sizes in pages.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct FrameView {
    pub now_ns: u64,
    pub finished: bool,
    pub lists: ListSizes,
    pub watermarks: WatermarkView,
    pub dirty: DirtyState,
    pub lru: LruView,
    /// Owner address space names so far (spaces appear as tasks map memory); a cell's owner k
    /// names `spaceNames[k - 1]`.
    pub space_names: Vec<String>,
    pub balance: BalanceView,
    /// The last classic refault with its distance, once there has been one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub refault: Option<RefaultView>,
    /// The generations and PID controller of the root lruvec, or of the largest memcg's;
    /// absent when the run does not use the multi-gen LRU.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub gens: Option<GensView>,
    /// Which memcg's lruvec `gens` shows, when not the root's (the largest memcg).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub gens_memcg: Option<u32>,
    /// The memcg LRU view, only when the run has memcgs besides the root.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub memcg: Option<MemcgLruView>,
    /// A trace replay's figures so far, only when the run replays one (filled by the
    /// simulation: `Simulation::frame_view`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub replay: Option<ReplayView>,
}

/// A trace replay's figures so far (the lesson facts' `replay.*`): its requests, the kernel's
/// misses among them, and, with `reference = true`, what plain LRU and OPT of the memcg's size
/// missed of the same requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ReplayView {
    #[ts(type = "number")]
    pub requests: u64,
    #[ts(type = "number")]
    pub misses: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub lru_misses: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub opt_misses: Option<u64>,
}

impl FrameView {
    /// The frame of a run at `now_ns` (`finished` as the simulation says), with the moves drained
    /// from the trace since the last frame: LRU cells for about `cells` cells per full strip, at
    /// most `max_moves` moves.
    pub fn of(
        mm: &Mm,
        now_ns: u64,
        finished: bool,
        moves: &[TracedMove],
        cells: u32,
        max_moves: usize,
    ) -> FrameView {
        let memcg = (mm.memcgs.list.len() > 1).then(|| MemcgLruView::of(mm));
        let gens_lv = memcg.as_ref().map_or(0, |m| m.largest);
        let gens = if mm.flags.lru_gen {
            GensView::of(mm, gens_lv as usize)
        } else {
            None
        };
        FrameView {
            now_ns,
            finished,
            lists: ListSizes::of(mm),
            watermarks: WatermarkView::of(mm),
            dirty: DirtyState::of(mm),
            lru: LruView::of(mm, moves, cells, max_moves),
            space_names: mm.spaces.iter().map(|s| s.name.clone()).collect(),
            balance: BalanceView::of(mm),
            refault: mm.trace.last_refault.map(|_| RefaultView::of(mm)),
            gens_memcg: (gens.is_some() && gens_lv > 0).then_some(gens_lv),
            gens,
            memcg,
            replay: None,
        }
    }
}
