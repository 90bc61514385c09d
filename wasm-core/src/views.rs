//! The views the page draws, as typed structures crossing the wasm boundary as JSON. Their
//! TypeScript types are generated from these definitions (ts-rs) into
//! `web/src/engine/generated/views.ts`; `tests/views_ts.rs` fails when that file is stale
//! (`UPDATE_TS=1 cargo test --test views_ts` rewrites it).
use crate::mm::mm_types::NIL;
use crate::mm::mmzone::Mm;
use crate::mm::vmscan::balance::{BalanceEra, ScanBalance, ScanDecision, ScanReason};
use crate::mm::vmscan::lru_gen::{
    gen_from_seq, get_tier_idx, read_ctrl_pos, refs_and_tier, type_choice, CtrlPos, TypeReason,
    ANON, FILE, MAX_NR_GENS, MAX_NR_TIERS, MIN_LRU_BATCH,
};
use crate::mm::vmscan::memcg_lru::{Seg, MEMCG_NR_BINS};
use crate::mm::vmstat::C;
use serde::Serialize;
use ts_rs::TS;

pub mod info;
pub mod lru;
pub mod series;

/// The balance view: what the run's kernel balances anon against file on, and the last
/// `get_scan_count` decision with its branch and inputs. Counts are in 4 KiB pages.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BalanceView {
    pub era: BalanceEra,
    /// The kernel function and version whose inputs are shown.
    pub source: String,
    /// vm.swappiness the kernel runs with.
    pub swappiness: u32,
    /// The last get_scan_count call; None until reclaim has run it.
    pub last: Option<ScanDecision>,
    /// How often get_scan_count chose SCAN_EQUAL, SCAN_FRACT, SCAN_FILE, SCAN_ANON.
    pub decisions: [u64; 4],
    /// The root lruvec's inputs now: <= 5.7 scanned/rotated [anon, file], 5.8+ the costs.
    pub recent_scanned: [u64; 2],
    pub recent_rotated: [u64; 2],
    pub anon_cost: u64,
    pub file_cost: u64,
    /// Pages scanned so far by kswapd and direct reclaim (pgscan), and by the scenario's
    /// forced scans (`scan_inactive_file`, which does not go through get_scan_count).
    pub pgscan: u64,
    pub forced_scan: u64,
}

impl BalanceView {
    pub fn of(mm: &Mm) -> BalanceView {
        let era = mm.balance_era();
        let source = match era {
            BalanceEra::Rotation => "get_scan_count, mm/vmscan.c up to v5.7: weights from recent_scanned/recent_rotated",
            BalanceEra::Cost => "get_scan_count, mm/vmscan.c v5.8+: weights from anon_cost/file_cost (lru_note_cost)",
            BalanceEra::Mglru => "the multi-gen LRU (v6.1+): get_scan_count is not used; the PID controller chooses the type",
            BalanceEra::Cost2016 => "get_scan_count of the June 2016 RFC series (07/10, not mainline): weights from numer[anon, file] / denom (refault IO x32, rotations x1)",
        };
        let l = &mm.lruvecs[0];
        let c = |k: C| mm.counters.0[k as usize] * mm.scale;
        BalanceView {
            era,
            source: source.to_string(),
            swappiness: mm.swappiness,
            last: mm.trace.last_scan,
            decisions: mm.trace.balance_hist,
            recent_scanned: l.recent_scanned.map(|v| v * mm.scale),
            recent_rotated: l.recent_rotated.map(|v| v * mm.scale),
            anon_cost: l.anon_cost,
            file_cost: l.file_cost,
            pgscan: c(C::pgscan_kswapd) + c(C::pgscan_direct),
            forced_scan: mm.trace.forced_scan_pages,
        }
    }
}

/// The refault-distance drawing: the last refault of the classic LRU (`workingset_refault`)
/// and the shadow entries its address space holds now.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RefaultView {
    pub last: Option<crate::mm::workingset::RefaultRecord>,
    /// Name of the refaulting page's address space.
    pub space_name: String,
    /// Shadow entries (evicted pages' timestamps) in that space now, in pages.
    pub shadow_entries: u64,
}

impl RefaultView {
    pub fn of(mm: &Mm) -> RefaultView {
        let last = mm.trace.last_refault;
        let space = last.and_then(|r| mm.spaces.get(r.space as usize));
        RefaultView {
            last,
            space_name: space.map(|s| s.name.clone()).unwrap_or_default(),
            shadow_entries: space.map(|s| s.nr_shadows()).unwrap_or(0) * mm.scale,
        }
    }
}

/// One generation of the generations view: pages per tier of each type. A type whose
/// min_seq is past `seq` has no such generation (its tiers are 0).
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GenRow {
    pub seq: u64,
    /// Virtual time since the generation was made (`lrugen.timestamps`), ms.
    pub age_ms: f64,
    /// Pages per tier 0..3 by the folio's generation counter, [anon, file].
    pub tiers: [[u64; MAX_NR_TIERS]; 2],
    /// Counts as the classic active list: one of the two youngest generations
    /// (`lru_gen_is_active`, v6.1).
    pub active: bool,
}

/// A PID controller position (`struct ctrl_pos`) in frames, with its gain.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, TS)]
pub struct CtrlPosView {
    pub refaulted: u64,
    pub total: u64,
    pub gain: u64,
}

impl From<CtrlPos> for CtrlPosView {
    fn from(p: CtrlPos) -> Self {
        CtrlPosView {
            refaulted: p.refaulted,
            total: p.total,
            gain: p.gain,
        }
    }
}

/// The comparison `positive_ctrl_err` made for `get_type_to_scan`: anon as the setpoint
/// (gain s), file as the process variable (gain 200 - s); all tiers (6.14+) or tier 0 (6.1).
/// File is chosen when `file_rate <= bound`, or when file has fewer refaults than the batch.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TypeCompare {
    pub anon: CtrlPosView,
    pub file: CtrlPosView,
    /// Anon's rate as positive_ctrl_err smooths it: (refaulted + 1) / (total + MIN_LRU_BATCH).
    pub anon_rate: f64,
    /// File's refaulted / total (0 without history).
    pub file_rate: f64,
    /// The highest file rate that still picks file: anon_rate x file gain / anon gain.
    pub bound: f64,
}

/// The generations view: the MGLRU state of one lruvec and its PID controller
/// (mm/vmscan.c v6.1 / v6.14: `read_ctrl_pos`, `get_tier_idx`, `get_type_to_scan`).
/// Generation sizes in pages; controller positions in frames.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GensView {
    pub max_seq: u64,
    /// min_seq of [anon, file].
    pub min_seq: [u64; 2],
    /// From the older min_seq to max_seq.
    pub rows: Vec<GenRow>,
    /// Refault rate (refaulted / (evicted + protected)) per tier, [anon, file]; null before
    /// the tier has any history.
    pub rates: [[Option<f64>; MAX_NR_TIERS]; 2],
    /// Highest evictable tier per type; tiers above it are protected at the next eviction.
    pub tier_idx: [u32; 2],
    /// The type the next eviction takes at the current swappiness: 0 anon, 1 file.
    #[ts(type = "0 | 1")]
    pub next: u8,
    pub reason: TypeReason,
    /// Set when the PID controller's comparison decided (`few_file_refaults`, `refault_rates`).
    pub compare: Option<TypeCompare>,
    /// MIN_LRU_BATCH in pages.
    pub batch_pages: u64,
    /// The 6.14 controller (all tiers, gains 3:2) rather than 6.1's (tier 0, gains 2:1).
    pub rework: bool,
    /// The swappiness the choice was made at.
    pub swappiness: u32,
}

impl GensView {
    /// Lruvec `lv` (0 = root); None when it does not exist.
    #[allow(clippy::needless_range_loop)] // parallel [gen][type][tier] arrays
    pub fn of(mm: &Mm, lv: usize) -> Option<GensView> {
        let lg = &mm.lruvecs.get(lv)?.lrugen;
        let rework = mm.flags.mglru_rework;
        let first = lg.min_seq[0].min(lg.min_seq[1]);
        // Pages per (slot, type, tier) by the generation counter.
        let mut by = [[[0u64; MAX_NR_TIERS]; 2]; MAX_NR_GENS as usize];
        for g in 0..MAX_NR_GENS as usize {
            for ty in 0..2 {
                let mut f = lg.lists[g][ty].head;
                while f != NIL {
                    let fi = f as usize;
                    let (_, tier) = refs_and_tier(mm.frames.folio[fi].flags, rework);
                    by[mm.frames.gen[fi] as usize - 1][ty][tier] += 1;
                    f = mm.frames.next[fi];
                }
            }
        }
        let rows = (first..=lg.max_seq)
            .map(|seq| {
                let g = gen_from_seq(seq);
                let mut tiers = [[0; MAX_NR_TIERS]; 2];
                for ty in 0..2 {
                    if seq >= lg.min_seq[ty] {
                        tiers[ty] = by[g][ty].map(|n| n * mm.scale);
                    }
                }
                GenRow {
                    seq,
                    age_ms: mm.now.saturating_sub(lg.timestamps[g]) as f64 / 1e6,
                    tiers,
                    active: lg.is_active_seq(seq),
                }
            })
            .collect();
        let rates = [ANON, FILE].map(|ty| {
            std::array::from_fn(|t| {
                let p = read_ctrl_pos(lg, ty, t, 1);
                (p.total > 0).then(|| p.refaulted as f64 / p.total as f64)
            })
        });
        let batch = (MIN_LRU_BATCH / mm.scale).max(1);
        let s = mm.swappiness;
        let choice = type_choice(lg, s, rework, batch);
        let mut idx = [
            get_tier_idx(lg, ANON, rework, batch),
            get_tier_idx(lg, FILE, rework, batch),
        ];
        // 6.1-6.13: the chosen type's threshold comes from the comparison with the other type.
        if let Some(t) = choice.tier {
            idx[choice.ty] = t;
        }
        let compare = choice.compared.map(|(sp, pv)| {
            // positive_ctrl_err's inequality, read as rates.
            let anon_rate = (sp.refaulted + 1) as f64 / (sp.total + batch) as f64;
            TypeCompare {
                anon: sp.into(),
                file: pv.into(),
                anon_rate,
                file_rate: if pv.total > 0 {
                    pv.refaulted as f64 / pv.total as f64
                } else {
                    0.0
                },
                bound: anon_rate * pv.gain as f64 / sp.gain as f64,
            }
        });
        Some(GensView {
            max_seq: lg.max_seq,
            min_seq: lg.min_seq,
            rows,
            rates,
            tier_idx: idx.map(|t| t as u32),
            next: choice.ty as u8,
            reason: choice.reason,
            compare,
            batch_pages: batch * mm.scale,
            rework,
            swappiness: s,
        })
    }
}

/// Where a memcg sits on the memcg LRU (`lrugen.gen`, its bin, `lrugen.seg`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, TS)]
pub struct MemcgPlace {
    pub id: u32,
    /// Generation slot (`seq % nr_gens` is the old one).
    pub gen: u32,
    pub bin: u32,
    /// Position in its bin, 0 = head.
    pub pos: u32,
    pub seg: Seg,
}

/// The memcg LRU view: the per-node memcg LRU (v6.3 `lru_gen_rotate_memcg` / `shrink_many`),
/// each memcg's own usage, pgscan and pgsteal, and S003's headline figures now (computed as
/// `report` computes them at the end).
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct MemcgLruView {
    /// MGLRU root reclaim walks this structure (`lru_gen` and `memcg_lru` on).
    pub active: bool,
    /// The old generation's sequence number.
    pub seq: u64,
    pub nr_gens: u32,
    pub old_gen: u32,
    pub young_gen: u32,
    /// Every memcg on the memcg LRU, slot by slot, bin by bin, head to tail.
    pub places: Vec<MemcgPlace>,
    /// Memcgs per bin: `counts[gen][bin]`.
    pub counts: Vec<[u32; MEMCG_NR_BINS]>,
    /// Per memcg id, of its own lruvec (memory.stat without descendants, so the bars add up),
    /// in pages; pgscan and pgsteal are the kswapd + direct sums.
    pub usage: Vec<u64>,
    pub pgscan: Vec<u64>,
    pub pgsteal: Vec<u64>,
    /// The leaf memcgs (no children; not the root), by id.
    pub leaves: Vec<u32>,
    /// S003's fairness: stddev / mean of the leaves' pgsteal, percent (`report::spread_pct`).
    pub pgsteal_spread_pct: Option<f64>,
    /// Pages asked of memory.reclaim so far (writes that are over).
    pub reclaim_requested_pages: u64,
    /// S003's accuracy: the leaves' pgsteal over the pages asked, percent
    /// (`report::accuracy_pct`); null before a write is over.
    pub reclaim_accuracy_pct: Option<f64>,
    /// The memcg whose own lruvec holds the most pages (the root when none holds more).
    pub largest: u32,
}

impl MemcgLruView {
    pub fn of(mm: &Mm) -> MemcgLruView {
        let l = &mm.memcg_lru;
        let memcgs = &mm.memcgs.list;
        let mut places = Vec::new();
        let mut counts = Vec::new();
        for gen in 0..l.nr_gens {
            let mut c = [0u32; MEMCG_NR_BINS];
            for (bin, list) in l.fifo[gen].iter().enumerate() {
                c[bin] = list.len() as u32;
                for (pos, &lv) in list.iter().enumerate() {
                    places.push(MemcgPlace {
                        id: lv as u32,
                        gen: gen as u32,
                        bin: bin as u32,
                        pos: pos as u32,
                        seg: l.place[lv as usize].map_or(Seg::Default, |p| p.seg),
                    });
                }
            }
            counts.push(c);
        }
        let own =
            |m: &crate::mm::memcg::Memcg, a: C, b: C| (m.stat.get(a) + m.stat.get(b)) * mm.scale;
        let usage: Vec<u64> = memcgs
            .iter()
            .map(|m| {
                let children: u64 = m.children.iter().map(|&c| memcgs[c as usize].usage).sum();
                (m.usage - children) * mm.scale
            })
            .collect();
        let pgsteal: Vec<u64> = memcgs
            .iter()
            .map(|m| own(m, C::pgsteal_kswapd, C::pgsteal_direct))
            .collect();
        let leaves: Vec<u32> = (1..memcgs.len())
            .filter(|&id| memcgs[id].children.is_empty())
            .map(|id| id as u32)
            .collect();
        let leaf_steal: Vec<u64> = leaves.iter().map(|&id| pgsteal[id as usize]).collect();
        let requested = reclaim_requested_pages(mm);
        let largest = (1..usage.len()).fold(
            0,
            |best, id| if usage[id] > usage[best] { id } else { best },
        );
        MemcgLruView {
            active: mm.flags.lru_gen && mm.flags.memcg_lru,
            seq: l.seq,
            nr_gens: l.nr_gens as u32,
            old_gen: l.old_gen() as u32,
            young_gen: l.young_gen() as u32,
            places,
            counts,
            usage,
            pgscan: memcgs
                .iter()
                .map(|m| own(m, C::pgscan_kswapd, C::pgscan_direct))
                .collect(),
            pgsteal_spread_pct: crate::report::spread_pct(&leaf_steal),
            reclaim_accuracy_pct: crate::report::accuracy_pct(leaf_steal.iter().sum(), requested),
            reclaim_requested_pages: requested,
            pgsteal,
            leaves,
            largest: largest as u32,
        }
    }
}

/// Pages asked of memory.reclaim so far (writes that are over), summed over the memcgs: as
/// `RunReport::reclaim_requested_pages`.
pub fn reclaim_requested_pages(mm: &Mm) -> u64 {
    mm.memcgs
        .list
        .iter()
        .map(|m| m.reclaim_requested)
        .sum::<u64>()
        * mm.scale
}

/// The generated TypeScript (`web/src/engine/generated/views.ts`): every type that crosses the
/// wasm boundary or is read from a file the page loads, in dependency order, then the value
/// lists the page iterates (each checked against its generated union) and the series schema.
pub fn typescript() -> String {
    use crate::mm::mmzone::MoveReason;
    use crate::scenario::lesson::View;
    use crate::variant::flag_docs::{FlagInfo, KernelInfo, PresetInfo};
    use info::*;
    use lru::*;
    let cfg = ts_rs::Config::new().with_large_int("number");
    let mut out = String::from(
        "// Generated from wasm-core/src/views.rs by ts-rs: do not edit.\n\
         // Regenerate: UPDATE_TS=1 cargo test --manifest-path wasm-core/Cargo.toml --test views_ts\n\n",
    );
    for decl in [
        ScanBalance::decl(&cfg),
        ScanReason::decl(&cfg),
        BalanceEra::decl(&cfg),
        ScanDecision::decl(&cfg),
        BalanceView::decl(&cfg),
        crate::mm::workingset::RefaultRecord::decl(&cfg),
        RefaultView::decl(&cfg),
        GenRow::decl(&cfg),
        CtrlPosView::decl(&cfg),
        TypeReason::decl(&cfg),
        TypeCompare::decl(&cfg),
        GensView::decl(&cfg),
        Seg::decl(&cfg),
        MemcgPlace::decl(&cfg),
        MemcgLruView::decl(&cfg),
        LruList::decl(&cfg),
        ListSizes::decl(&cfg),
        WatermarkView::decl(&cfg),
        DirtyState::decl(&cfg),
        MoveReason::decl(&cfg),
        ListPlace::decl(&cfg),
        PageMove::decl(&cfg),
        LruStrip::decl(&cfg),
        LruView::decl(&cfg),
        info::ReplayView::decl(&cfg),
        FrameView::decl(&cfg),
        View::decl(&cfg),
        LessonStepInfo::decl(&cfg),
        VariantInfo::decl(&cfg),
        ScenarioInfo::decl(&cfg),
        crate::scenario::knobs::SwappinessPair::decl(&cfg),
        crate::scenario::knobs::Setup::decl(&cfg),
        FlagInfo::decl(&cfg),
        PresetInfo::decl(&cfg),
        KernelInfo::decl(&cfg),
        SwappinessInfo::decl(&cfg),
        RunKernel::decl(&cfg),
        RunInfo::decl(&cfg),
        series::Unit::decl(&cfg),
        series::SeriesColumn::decl(&cfg),
        crate::report::Percentiles::decl(&cfg),
        crate::report::TaskReport::decl(&cfg),
        crate::report::OomKill::decl(&cfg),
        crate::report::MemcgReport::decl(&cfg),
        // The flattened memory.stat map: every key beside the fields is a counter in pages.
        "type MemcgReport = MemcgReportFields & { [stat: string]: number | string | null | { [event: string]: number } };".to_string(),
        crate::report::RunReport::decl(&cfg),
        crate::scenario::parse::ScenarioError::decl(&cfg),
        crate::scenario::expect::Check::decl(&cfg),
        crate::report::HeadlineRow::decl(&cfg),
        crate::report::ResultRow::decl(&cfg),
        crate::report::CheckVerdict::decl(&cfg),
        crate::report::Verdict::decl(&cfg),
        crate::report::Assessment::decl(&cfg),
        crate::mrc::Plan::decl(&cfg),
        crate::mrc::MrcReference::decl(&cfg),
    ] {
        out.push_str("export ");
        out.push_str(&decl);
        out.push_str("\n\n");
    }
    out.push_str(&value_list("LRU_LISTS", &LruList::ALL, &cfg));
    out.push_str(&value_list("MOVE_REASONS", &MoveReason::ALL, &cfg));
    out.push_str(&value_list("LESSON_VIEWS", &View::ALL, &cfg));
    out.push_str(
        "/** The columns of a series row, in order (views/series.rs): values in pages unless the\n \
         * unit says otherwise. */\n",
    );
    out.push_str(&format!(
        "export const SERIES_COLUMNS = {} as const satisfies readonly SeriesColumn[];\n\n",
        serde_json::to_string(&series::columns()).unwrap()
    ));
    out.push_str("export type SeriesColumnName = (typeof SERIES_COLUMNS)[number][\"name\"];\n");
    out
}

/// `export const NAME = [...] as const satisfies readonly T[];` for every value of a unit-only
/// enum T. Panics when `all` misses a member of T's generated union, so `tests/views_ts.rs`
/// fails rather than the page missing a value.
fn value_list<T: Serialize + TS>(name: &str, all: &[T], cfg: &ts_rs::Config) -> String {
    let values: Vec<String> = all
        .iter()
        .map(|v| serde_json::to_string(v).unwrap())
        .collect();
    let decl = T::decl(cfg);
    let union = decl
        .split_once('=')
        .map_or("", |(_, u)| u)
        .trim()
        .trim_end_matches(';');
    let mut members: Vec<&str> = union.split('|').map(str::trim).collect();
    let mut listed: Vec<&str> = values.iter().map(String::as_str).collect();
    members.sort_unstable();
    listed.sort_unstable();
    assert_eq!(
        members,
        listed,
        "{name} must list every member of {}",
        T::name(cfg)
    );
    format!(
        "export const {name} = [{}] as const satisfies readonly {}[];\n\n",
        values.join(", "),
        T::name(cfg)
    )
}
