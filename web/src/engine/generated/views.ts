// Generated from wasm-core/src/views.rs by ts-rs: do not edit.
// Regenerate: UPDATE_TS=1 cargo test --manifest-path wasm-core/Cargo.toml --test views_ts

export type ScanBalance = "SCAN_EQUAL" | "SCAN_FRACT" | "SCAN_FILE" | "SCAN_ANON";

export type ScanReason = "may_not_swap" | "no_swap" | "priority_zero" | "file_is_tiny" | "file_below_high" | "cache_trim" | "plenty_inactive_file" | "swappiness_zero" | "swappiness_max" | "fraction";

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

export type Check = { metric: string, variant?: string | null, over?: string | null, min?: number | null, max?: number | null, above?: number | null, below?: number | null, };

export type HeadlineRow = { metric: string, label: string, values: Array<number | null>, };

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
