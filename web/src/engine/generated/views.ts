// Generated from wasm-core/src/views.rs by ts-rs: do not edit.
// Regenerate: UPDATE_TS=1 cargo test --manifest-path wasm-core/Cargo.toml --test views_ts

export type ScanBalance = "SCAN_EQUAL" | "SCAN_FRACT" | "SCAN_FILE" | "SCAN_ANON";

export type ScanReason = "may_not_swap" | "no_swap" | "priority_zero" | "file_is_tiny" | "file_below_high" | "cache_trim" | "plenty_inactive_file" | "swappiness_zero" | "swappiness_max" | "fraction" | "anon_only";

export type BalanceEra = "rotation" | "cost" | "mglru" | "cost2016";

export type ScanDecision = { atNs: number, balance: ScanBalance, reason: ScanReason, 
/**
 * The lruvec (memcg id; 0 = root) scanned.
 */
lruvec: number, priority: number, 
/**
 * The swappiness this call used (memory.reclaim's, or vm.swappiness).
 */
swappiness: number, 
/**
 * SCAN_FRACT's weights [ap, fp] and denominator ([1, 1] and 1 for the other branches).
 */
fraction: [number, number], denominator: number, 
/**
 * Share of the scan each type got, [anon, file] in [0, 1]: the weights for SCAN_FRACT, the
 * scan targets for SCAN_EQUAL (proportional to list sizes), 1 and 0 otherwise.
 */
shares: [number, number], 
/**
 * <= 5.7: the scanned/rotated counts the weights came from (after their decay).
 */
recentScanned: [number, number], recentRotated: [number, number], 
/**
 * 5.8+: the costs the weights came from (the reclaim root's, read once per pass); the
 * 2016 series: its `numer[anon, file]` after the decay, with `cost_denom` its `denom`.
 */
anonCost: number, fileCost: number, costDenom: number, };

export type BalanceView = { era: BalanceEra, 
/**
 * The kernel function and version whose inputs are shown.
 */
source: string, 
/**
 * vm.swappiness the kernel runs with.
 */
swappiness: number, 
/**
 * The last get_scan_count call; None until reclaim has run it.
 */
last: ScanDecision | null, 
/**
 * How often get_scan_count chose SCAN_EQUAL, SCAN_FRACT, SCAN_FILE, SCAN_ANON.
 */
decisions: [number, number, number, number], 
/**
 * The root lruvec's inputs now: <= 5.7 scanned/rotated [anon, file], 5.8+ the costs.
 */
recentScanned: [number, number], recentRotated: [number, number], anonCost: number, fileCost: number, 
/**
 * Pages scanned so far by kswapd and direct reclaim (pgscan), and by the scenario's
 * forced scans (`scan_inactive_file`, which does not go through get_scan_count).
 */
pgscan: number, forcedScan: number, };

export type RefaultRecord = { atNs: number, 
/**
 * The address space (`space_names` index) and page index of the refaulting page.
 */
space: number, page: number, file: boolean, 
/**
 * The eviction lruvec's nonresident_age stored in the shadow entry, and its value now.
 */
evictionAge: number, nowAge: number, distance: number, workingsetSize: number, activated: boolean, };

export type RefaultView = { last: RefaultRecord | null, 
/**
 * Name of the refaulting page's address space.
 */
spaceName: string, 
/**
 * Shadow entries (evicted pages' timestamps) in that space now, in pages.
 */
shadowEntries: number, };

export type GenRow = { seq: number, 
/**
 * Virtual time since the generation was made (`lrugen.timestamps`), ms.
 */
ageMs: number, 
/**
 * Pages per tier 0..3 by the folio's generation counter, [anon, file].
 */
tiers: [[number, number, number, number], [number, number, number, number]], 
/**
 * Counts as the classic active list: one of the two youngest generations
 * (`lru_gen_is_active`, v6.1).
 */
active: boolean, };

export type CtrlPosView = { refaulted: number, total: number, gain: number, };

export type TypeReason = "swappiness_zero" | "swappiness_low" | "swappiness_max" | "older_anon" | "few_file_refaults" | "refault_rates";

export type TypeCompare = { anon: CtrlPosView, file: CtrlPosView, 
/**
 * Anon's rate as positive_ctrl_err smooths it: (refaulted + 1) / (total + MIN_LRU_BATCH).
 */
anonRate: number, 
/**
 * File's refaulted / total (0 without history).
 */
fileRate: number, 
/**
 * The highest file rate that still picks file: anon_rate x file gain / anon gain.
 */
bound: number, };

export type GensView = { maxSeq: number, 
/**
 * min_seq of [anon, file].
 */
minSeq: [number, number], 
/**
 * From the older min_seq to max_seq.
 */
rows: Array<GenRow>, 
/**
 * Refault rate (refaulted / (evicted + protected)) per tier, [anon, file]; null before
 * the tier has any history.
 */
rates: [[number | null, number | null, number | null, number | null], [number | null, number | null, number | null, number | null]], 
/**
 * Highest evictable tier per type; tiers above it are protected at the next eviction.
 */
tierIdx: [number, number], 
/**
 * The type the next eviction takes at the current swappiness: 0 anon, 1 file.
 */
next: 0 | 1, reason: TypeReason, 
/**
 * Set when the PID controller's comparison decided (`few_file_refaults`, `refault_rates`).
 */
compare: TypeCompare | null, 
/**
 * MIN_LRU_BATCH in pages.
 */
batchPages: number, 
/**
 * The 6.14 controller (all tiers, gains 3:2) rather than 6.1's (tier 0, gains 2:1).
 */
rework: boolean, 
/**
 * The swappiness the choice was made at.
 */
swappiness: number, };

export type Seg = "default" | "head" | "tail";

export type MemcgPlace = { id: number, 
/**
 * Generation slot (`seq % nr_gens` is the old one).
 */
gen: number, bin: number, 
/**
 * Position in its bin, 0 = head.
 */
pos: number, seg: Seg, };

export type MemcgLruView = { 
/**
 * MGLRU root reclaim walks this structure (`lru_gen` and `memcg_lru` on).
 */
active: boolean, 
/**
 * The old generation's sequence number.
 */
seq: number, nrGens: number, oldGen: number, youngGen: number, 
/**
 * Every memcg on the memcg LRU, slot by slot, bin by bin, head to tail.
 */
places: Array<MemcgPlace>, 
/**
 * Memcgs per bin: `counts[gen][bin]`.
 */
counts: Array<[number, number, number, number, number, number, number, number]>, 
/**
 * Per memcg id, of its own lruvec (memory.stat without descendants, so the bars add up),
 * in pages; pgscan and pgsteal are the kswapd + direct sums.
 */
usage: Array<number>, pgscan: Array<number>, pgsteal: Array<number>, 
/**
 * The leaf memcgs (no children; not the root), by id.
 */
leaves: Array<number>, 
/**
 * S003's fairness: stddev / mean of the leaves' pgsteal, percent (`report::spread_pct`).
 */
pgstealSpreadPct: number | null, 
/**
 * Pages asked of memory.reclaim so far (writes that are over).
 */
reclaimRequestedPages: number, 
/**
 * S003's accuracy: the leaves' pgsteal over the pages asked, percent
 * (`report::accuracy_pct`); null before a write is over.
 */
reclaimAccuracyPct: number | null, 
/**
 * The memcg whose own lruvec holds the most pages (the root when none holds more).
 */
largest: number, };

export type LruList = "inactive_anon" | "active_anon" | "inactive_file" | "active_file";

export type ListSizes = { inactive_anon: number, active_anon: number, inactive_file: number, active_file: number, unevictable: number, free: number, };

export type WatermarkView = { min: number, low: number, high: number, };

export type DirtyState = { dirty: number, writeback: number, 
/**
 * The flushers start writing in the background above this.
 */
backgroundThresh: number, 
/**
 * Writers are throttled above this.
 */
thresh: number, };

export type MoveReason = "add" | "activate" | "deactivate" | "rotate" | "evict" | "refault" | "free";

export type ListPlace = { list: LruList, index: number, };

export type PageMove = { from: ListPlace | null, to: ListPlace | null, reason: MoveReason, };

export type LruStrip = { list: LruList, 
/**
 * Frames on the list as the strip walks it. With MGLRU this can differ from the list's
 * size (by generation counters) while a page-table walk has moved a folio's generation in
 * its flags and `sort_folio` has not relinked it yet.
 */
frames: number, 
/**
 * Per cell of `bucket` frames: its majority owner, address space id + 1 (0: none).
 */
cells: Array<number>, };

export type LruView = { 
/**
 * Frames per cell (the same for the four strips).
 */
bucket: number, 
/**
 * The four lists in the engine's order (`LruList::ALL`).
 */
strips: [LruStrip, LruStrip, LruStrip, LruStrip], 
/**
 * Page moves since the last view, sampled evenly down to at most the number asked.
 */
moves: Array<PageMove>, 
/**
 * Moves recorded since the last view (before sampling; the trace keeps a bounded number).
 */
movesSeen: number, };

export type ReplayView = { requests: number, misses: number, lruMisses?: number, optMisses?: number, };

export type FrameView = { nowNs: number, finished: boolean, lists: ListSizes, watermarks: WatermarkView, dirty: DirtyState, lru: LruView, 
/**
 * Owner address space names so far (spaces appear as tasks map memory); a cell's owner k
 * names `spaceNames[k - 1]`.
 */
spaceNames: Array<string>, balance: BalanceView, 
/**
 * The last classic refault with its distance, once there has been one.
 */
refault?: RefaultView, 
/**
 * The generations and PID controller of the root lruvec, or of the largest memcg's;
 * absent when the run does not use the multi-gen LRU.
 */
gens?: GensView, 
/**
 * Which memcg's lruvec `gens` shows, when not the root's (the largest memcg).
 */
gensMemcg?: number, 
/**
 * The memcg LRU view, only when the run has memcgs besides the root.
 */
memcg?: MemcgLruView, 
/**
 * A trace replay's figures so far, only when the run replays one (filled by the
 * simulation: `Simulation::frame_view`).
 */
replay?: ReplayView, };

export type LessonView = "lru" | "balance" | "charts" | "diff" | "results";

export type LessonStepInfo = { 
/**
 * Virtual time at which the caption appears (ns).
 */
atNs: number, 
/**
 * Plain text: rendered as a text node, never as markup.
 */
caption: string, 
/**
 * The run pauses when it reaches `atNs`.
 */
pause: boolean, 
/**
 * The view the caption talks about.
 */
highlight: LessonView | null, 
/**
 * The step compares the variants: the page asks to tick Compare only while it is not.
 */
compare: boolean, };

export type VariantInfo = { name: string, preset: string, };

export type ScenarioInfo = { title: string, description: string, variants: Array<VariantInfo>, 
/**
 * Lesson steps in time order (empty: no lesson).
 */
lesson: Array<LessonStepInfo>, 
/**
 * The `[[devices]]` by name, in file order (the device knobs' choices).
 */
devices: Array<string>, 
/**
 * vm.swappiness of `[sysctl]` (the engine's default when the file does not set it).
 */
swappiness: number, 
/**
 * The text of each `[[expect]]`, in file order.
 */
expect: Array<string>, };

export type SwappinessPair = { variant: string, swappiness: [number, number], };

export type Setup = { knobs: Array<[string, string]>, pair: SwappinessPair | null, };

export type FlagInfo = { name: string, 
/**
 * The kernel version (or posted series) whose behaviour `true` follows.
 */
version: string, 
/**
 * The kernel function(s) whose behaviour it switches.
 */
function: string, 
/**
 * The mainline commit (abbreviated hash), "" when not known.
 */
commit: string, 
/**
 * One line: what turning the flag on changes.
 */
doc: string, };

export type PresetInfo = { name: string, description: string, flags: { [key in string]: boolean }, };

export type KernelInfo = { flags: Array<FlagInfo>, presets: Array<PresetInfo>, };

export type SwappinessInfo = { asked: number, cap: number, runs: number, };

export type RunKernel = { 
/**
 * Effective flags of the run (variant + per-run overrides).
 */
flags: { [key in string]: boolean }, 
/**
 * Flags of the variant as the scenario writes it.
 */
baseFlags: { [key in string]: boolean }, swappiness: SwappinessInfo, };

export type RunInfo = { variant: string, preset: string, 
/**
 * 4 KiB pages per simulated frame.
 */
scale: number, 
/**
 * Simulated frames (RAM / 4 KiB / scale).
 */
frames: number, endNs: number, kernel: RunKernel, 
/**
 * memcg names by id ("/" = root), only for scenarios with memcgs.
 */
memcgNames?: Array<string>, };

export type Unit = "ns" | "pages" | "count" | "cost";

export type SeriesColumn = { 
/**
 * The kernel's name of the figure (/proc/vmstat names for counters).
 */
name: string, unit: Unit, 
/**
 * A counter of /proc/vmstat (a running total over the run).
 */
counter: boolean, };

export type Percentiles = { p50: number, p95: number, p99: number, mean: number, count: number, };

export type TaskReport = { name: string, 
/**
 * Per-round wall times in virtual seconds (loops with record = "rounds").
 */
rounds_s?: Array<number>, 
/**
 * Operations per virtual second (loops with record = "ops").
 */
ops_per_s?: number, latency_ms?: Percentiles, 
/**
 * Time stalled in direct reclaim, per allocation that stalled.
 */
alloc_stall_ms?: Percentiles, 
/**
 * Time waiting for IO (major faults, read misses, pages locked for IO), per page access
 * that waited.
 */
io_wait_ms?: Percentiles, 
/**
 * Time a write was paused by dirty throttling (`balance_dirty_pages`), per page write
 * that was paused.
 */
dirty_throttle_ms?: Percentiles, major_faults: number, killed: boolean, };

export type OomKill = { task: string, time_s: number, freed_pages: number, };

export type MemcgReportFields = { name: string, 
/**
 * The parent's name; None for the root.
 */
parent: string | null, 
/**
 * memory.current at the end, pages.
 */
current_pages: number, 
/**
 * memory.events (hierarchical): low, high, max, oom, oom_kill.
 */
events: { [key in string]: number }, };

export type MemcgReport = MemcgReportFields & { [stat: string]: number | string | null | { [event: string]: number } };

export type RunReport = { 
/**
 * Scenario title.
 */
scenario: string, 
/**
 * Variant name (e.g. "before").
 */
variant: string, 
/**
 * Kernel preset of the variant.
 */
preset: string, 
/**
 * The swappiness the kernel really ran with (a capped kernel refuses larger values).
 */
swappiness: number, 
/**
 * Virtual seconds simulated.
 */
virtual_s: number, 
/**
 * /proc/vmstat names to page counts, over the whole run.
 */
counters: { [key in string]: number }, 
/**
 * The same counters measured from `run.measure_from` (equal to `counters` without it).
 */
measured: { [key in string]: number }, tasks: Array<TaskReport>, 
/**
 * OOM kills: task and virtual time.
 */
oom_kills: Array<OomKill>, 
/**
 * Scenarios with `[[memcgs]]`: every memcg, the root ("/") first, in creation order.
 */
memcgs?: Array<MemcgReport>, 
/**
 * Pages asked of memory.reclaim (all writes, all memcgs), where it was written.
 */
reclaim_requested_pages?: number, 
/**
 * Pages those writes reclaimed (as the kernel's loop counted them).
 */
reclaim_reclaimed_pages?: number, };

export type ScenarioProblem = { 
/**
 * 1-based line.
 */
line: number, 
/**
 * 1-based column, in characters.
 */
column: number, 
/**
 * Dotted path of the field, e.g. `tasks[0].program[2].size`; empty when unknown.
 */
field: string, 
/**
 * What is wrong and what is allowed.
 */
message: string, };

export type Check = { metric: string, variant?: string | null, over?: string | null, min?: number | null, max?: number | null, above?: number | null, below?: number | null, };

export type HeadlineRow = { metric: string, label: string, values: Array<number | null>, };

export type ResultRow = { label: string, 
/**
 * The task a per-task row belongs to (None for run-wide rows).
 */
task: string | null, 
/**
 * Decimals worth showing for this row's values.
 */
digits: number, values: Array<number | null>, };

export type CheckVerdict = { 
/**
 * The condition in words.
 */
condition: string, variant: string, value: number | null, over?: string, base?: number, 
/**
 * The compared figure: `value`, or `value / base`; None when it could not be computed.
 */
figure: number | null, met: boolean, };

export type Verdict = { text: string, met: boolean | null, checks: Array<CheckVerdict>, };

export type Assessment = { headline: Array<HeadlineRow>, verdicts: Array<Verdict>, };

export type Plan = { trace: string, taskName: string, requests: number, footprint: number, sizes: Array<number>, };

export type MrcReference = { plan: Plan, lru: Array<number>, opt: Array<number>, };

export const LRU_LISTS = ["inactive_anon", "active_anon", "inactive_file", "active_file"] as const satisfies readonly LruList[];

export const MOVE_REASONS = ["add", "activate", "deactivate", "rotate", "evict", "refault", "free"] as const satisfies readonly MoveReason[];

export const LESSON_VIEWS = ["lru", "balance", "charts", "diff", "results"] as const satisfies readonly LessonView[];

/** The columns of a series row, in order (views/series.rs): values in pages unless the
 * unit says otherwise. */
export const SERIES_COLUMNS = [{"name":"t_ns","unit":"ns","counter":false},{"name":"inactive_anon","unit":"pages","counter":false},{"name":"active_anon","unit":"pages","counter":false},{"name":"inactive_file","unit":"pages","counter":false},{"name":"active_file","unit":"pages","counter":false},{"name":"unevictable","unit":"pages","counter":false},{"name":"free","unit":"pages","counter":false},{"name":"anon_cost","unit":"cost","counter":false},{"name":"file_cost","unit":"cost","counter":false},{"name":"recent_scanned_anon","unit":"pages","counter":false},{"name":"recent_scanned_file","unit":"pages","counter":false},{"name":"recent_rotated_anon","unit":"pages","counter":false},{"name":"recent_rotated_file","unit":"pages","counter":false},{"name":"pgpgin","unit":"pages","counter":true},{"name":"pgpgout","unit":"pages","counter":true},{"name":"pswpin","unit":"pages","counter":true},{"name":"pswpout","unit":"pages","counter":true},{"name":"pgalloc","unit":"pages","counter":true},{"name":"pgfree","unit":"pages","counter":true},{"name":"pgfault","unit":"count","counter":true},{"name":"pgmajfault","unit":"count","counter":true},{"name":"pgactivate","unit":"pages","counter":true},{"name":"pgdeactivate","unit":"pages","counter":true},{"name":"pgrefill","unit":"pages","counter":true},{"name":"pgrotated","unit":"pages","counter":true},{"name":"pgscan_kswapd","unit":"pages","counter":true},{"name":"pgscan_direct","unit":"pages","counter":true},{"name":"pgsteal_kswapd","unit":"pages","counter":true},{"name":"pgsteal_direct","unit":"pages","counter":true},{"name":"pgscan_anon","unit":"pages","counter":true},{"name":"pgscan_file","unit":"pages","counter":true},{"name":"pgsteal_anon","unit":"pages","counter":true},{"name":"pgsteal_file","unit":"pages","counter":true},{"name":"workingset_refault_anon","unit":"pages","counter":true},{"name":"workingset_refault_file","unit":"pages","counter":true},{"name":"workingset_activate_anon","unit":"pages","counter":true},{"name":"workingset_activate_file","unit":"pages","counter":true},{"name":"workingset_restore_anon","unit":"pages","counter":true},{"name":"workingset_restore_file","unit":"pages","counter":true},{"name":"allocstall","unit":"count","counter":true},{"name":"pageoutrun","unit":"count","counter":true},{"name":"nr_vmscan_write","unit":"pages","counter":true},{"name":"nr_vmscan_immediate_reclaim","unit":"pages","counter":true},{"name":"kswapd_low_wmark_hit_quickly","unit":"count","counter":true},{"name":"oom_kill","unit":"count","counter":true},{"name":"swap_ra","unit":"pages","counter":true},{"name":"swap_ra_hit","unit":"pages","counter":true}] as const satisfies readonly SeriesColumn[];

export type SeriesColumnName = (typeof SERIES_COLUMNS)[number]["name"];
