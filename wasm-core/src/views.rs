//! The views the page draws, as typed structures crossing the wasm boundary as JSON. Their
//! TypeScript types are generated from these definitions (ts-rs) into
//! `web/src/engine/generated/views.ts`; `tests/views_ts.rs` fails when that file is stale
//! (`UPDATE_TS=1 cargo test --test views_ts` rewrites it).
use crate::mm::vmscan::balance::{BalanceEra, ScanBalance, ScanDecision, ScanReason};
use crate::mm::vmstat::C;
use crate::sim::Simulation;
use serde::Serialize;
use ts_rs::TS;

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
    pub fn of(sim: &Simulation) -> BalanceView {
        let mm = &sim.mm;
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
            last: mm.last_scan,
            decisions: mm.balance_hist,
            recent_scanned: l.recent_scanned.map(|v| v * mm.scale),
            recent_rotated: l.recent_rotated.map(|v| v * mm.scale),
            anon_cost: l.anon_cost,
            file_cost: l.file_cost,
            pgscan: c(C::pgscan_kswapd) + c(C::pgscan_direct),
            forced_scan: mm.forced_scan_pages,
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
    pub fn of(sim: &Simulation) -> RefaultView {
        let mm = &sim.mm;
        let last = mm.last_refault;
        let space = last.and_then(|r| mm.spaces.get(r.space as usize));
        RefaultView {
            last,
            space_name: space.map(|s| s.name.clone()).unwrap_or_default(),
            shadow_entries: space
                .map(|s| s.shadow.iter().filter(|&&x| x != 0).count() as u64)
                .unwrap_or(0)
                * mm.scale,
        }
    }
}

/// The generated TypeScript: every view type, in dependency order.
pub fn typescript() -> String {
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
        crate::scenario::expect::Check::decl(&cfg),
        crate::report::HeadlineRow::decl(&cfg),
        crate::report::CheckVerdict::decl(&cfg),
        crate::report::Verdict::decl(&cfg),
        crate::report::Assessment::decl(&cfg),
    ] {
        out.push_str("export ");
        out.push_str(&decl);
        out.push_str("\n\n");
    }
    out.pop();
    out
}

/// A metric of the run now (`scenario::expect`), for a lesson step's facts: counters over the
/// whole run so far, task and run figures of the report so far, and the live `list.*` and
/// `balance.*` figures. None when a term has no value.
pub fn live_metric(sim: &Simulation, metric: &str) -> Option<f64> {
    use crate::scenario::expect::{terms, Term, LIVE_LISTS};
    let report = sim.report();
    let view = BalanceView::of(sim);
    let mut total = 0.0;
    for t in terms(metric).ok()? {
        total += match t {
            Term::Counter(c) => *report.counters.get(c).unwrap_or(&0) as f64,
            Term::Task(task, field) => crate::report::task_metric(&report, task, field)?,
            Term::Run(name) => crate::report::run_metric(&report, name)?,
            Term::Live(l) => {
                if let Some(list) = l.strip_prefix("list.") {
                    let i = LIVE_LISTS.iter().position(|x| *x == list)?;
                    // lru_sizes: inactive_anon, active_anon, inactive_file, active_file,
                    // unevictable, free (pages).
                    let sizes = sim.lru_sizes();
                    (if i == 4 { sizes[5] } else { sizes[i] }) as f64
                } else if let Some(reason) = l.strip_prefix("balance.reason.") {
                    let last = view.last.map(|d| serde_json::to_value(d.reason).ok());
                    let name = last.flatten().and_then(|v| v.as_str().map(str::to_string));
                    (name.as_deref() == Some(reason)) as u8 as f64
                } else {
                    let b = l.strip_prefix("balance.")?;
                    let i = crate::scenario::expect::LIVE_BALANCES
                        .iter()
                        .position(|x| *x == b)?;
                    view.decisions[i] as f64
                }
            }
        };
    }
    Some(total)
}
