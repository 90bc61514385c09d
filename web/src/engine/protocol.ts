// The message protocol between the page (main thread) and the engine worker.
//
// Everything that crosses the worker boundary is one of these messages, and
// each side validates what it receives (`parseToWorker` in the worker,
// `parseFromWorker` on the page): a malformed message becomes a ProtocolError,
// reported as an `error` message, never a crash or a silent hang.
//
//   page -> worker   load (scenario text + the variants to run in lockstep + optional flag overrides per run),
//                    step (advance every run by the same virtual time; answered by a frame),
//                    report (run every variant of a scenario to the end; answered by reports), or
//                    only one of them (answered by variantReport: the page runs the variants in a
//                    pool of workers),
//                    check (validate scenario text for the editor; answered by checked),
//                    assess (the engine's figures over given reports, e.g. a real kernel's; answered by assessed),
//                    seek (bring every run to a virtual time, from the nearest checkpoint; answered by
//                    seekProgress while it replays, then a frame),
//                    ahead (compute the runs' state at a virtual time in the background, e.g. a paused
//                    lesson's next step, so that a seek there restores it; answered by aheadProgress)
//   worker -> page   ready (engine version, its flags and presets), loaded (scenario info and
//                    per-run constants, each run's flags and swappiness asked / cap / run),
//                    frame (per run: time, counters, list sizes, balance, LRU cells, sampled
//                    moves, new time-series rows as typed arrays, transferred; the views
//                    (balance, refault, MGLRU generations, memcg LRU) as the engine's typed
//                    objects, generated/views.ts),
//                    reports (the CLI's RunReport JSON per variant), variantReport (one variant's),
//                    reportProgress, checked (the problem
//                    of a checked text, with its line and column, or null), assessed,
//                    seekProgress, aheadProgress, error
//
// The page pulls: it sends `step` once per animation frame while playing and the
// next one only after the answer arrived, so the worker is never flooded.
// Bump PROTOCOL_VERSION on any incompatible change.
import { parseLessonSteps, type LessonStep } from '../lib/lesson';
import type { BalanceView, GensView, MemcgLruView, RefaultView, ScenarioProblem, Seg, TypeReason } from './generated/views';

export const PROTOCOL_VERSION = 9; // 3: kernel info, per-run flags; 4: lessons, check; 5: gens; 6: typed gens and memcg views; 7: frame stepMs; 8: seek, ahead, seriesStart; 9: report of one variant

/** Largest single advance of virtual time accepted in one message (60 s). */
export const MAX_STEP_NS = 60_000_000_000;
/** At most this many runs in lockstep (compare mode shows two). */
export const MAX_RUNS = 4;

// ---------------------------------------------------------------- page -> worker

/** A scenario file: its name (e.g. "s000-thrash.toml") and TOML text. */
export interface ScenarioSource {
  name: string;
  text: string;
}

export type ToWorker =
  /** Replace the runs with new ones: `variants` of this scenario (empty: its first variant), at t=0.
   *  `flags[i]` (optional) overrides behaviour flags of run i on top of its variant. */
  | { type: 'load'; scenario: ScenarioSource; variants: string[]; flags?: FlagOverrides[] }
  /** Advance every run `ns` of virtual time (runs that finished stay put), then send a frame. */
  | { type: 'step'; ns: number }
  /** Bring every run to virtual time `ns` (forwards or back; runs that finish first stay at
   *  their end): restore the nearest checkpoint at or before it and replay from there, saying
   *  how far with `seekProgress`; then send a frame. */
  | { type: 'seek'; ns: number }
  /** Compute the runs' state at `ns` in the background, between other messages, and keep it
   *  as a checkpoint (a paused lesson's next step); null stops it. */
  | { type: 'ahead'; ns: number | null }
  /** Run every variant of the scenario to the end in fresh simulations; answer `reports`. With
   *  `index`: only the scenario's variant `index` (in its order); answer `variantReport`. */
  | { type: 'report'; scenario: ScenarioSource; index?: number }
  /** Validate scenario text (the editor's lint); answer `checked` with the same id. */
  | { type: 'check'; id: number; text: string }
  /** The scenario's assessment (headline figures, verdicts) over these RunReport JSONs (a real
   *  kernel's run beside the model's, issue #27 §2); answer `assessed` with the same id. */
  | { type: 'assess'; id: number; text: string; reports: string[] };

// ---------------------------------------------------------------- worker -> page

export type ErrorPhase = 'init' | 'protocol' | 'engine' | 'scenario';

/** Behaviour flag overrides of one run: flag name -> on/off (names as the engine exports them). */
export type FlagOverrides = Record<string, boolean>;

/** What the engine says about its kernels (wasm `kernel_info`): flags and preset values. */
export interface KernelInfo {
  /** The engine's flag table: version (or posted series), kernel function, commit ('' when not known), one-line doc. */
  flags: { name: string; version: string; function: string; commit: string; doc: string }[];
  presets: { name: string; description: string; flags: FlagOverrides }[];
}

/** The kernel of one run: its flags and what became of the swappiness the scenario asked for. */
export interface RunKernel {
  /** Effective flags of the run (variant + overrides). */
  flags: FlagOverrides;
  /** Flags of the variant as the scenario writes it. */
  baseFlags: FlagOverrides;
  /** vm.swappiness asked for, the kernel's cap, and what it runs with (a capped kernel refuses more). */
  swappiness: { asked: number; cap: number; runs: number };
}

export interface VariantInfo {
  name: string;
  preset: string;
}

/** Constants of one run, sent once on load. */
export interface RunInfo {
  variant: string;
  preset: string;
  /** Pages per simulated frame. */
  scale: number;
  /** Simulated frames (RAM / 4 KiB / scale). */
  frames: number;
  endNs: number;
  spaceNames: string[];
  kernel?: RunKernel;
  /** memcg LRU view: memcg names by id ("/" = root), only for scenarios with memcgs. */
  memcgNames?: string[];
}

/** The state of one run after a step. Sizes and counters in pages unless noted. */
/** The runs' common time: the furthest run's (a run that ended, or was killed, stays at its end
 *  while the others go on). The top bar, the link, exports and the side-by-side table use it. */
export const commonNowNs = (runs: readonly { nowNs: number }[]): number => runs.reduce((t, r) => Math.max(t, r.nowNs), 0);

export interface RunFrame {
  nowNs: number;
  finished: boolean;
  counters: Float64Array;
  /** inactive_anon, active_anon, inactive_file, active_file, unevictable, free (pages). */
  lru: Float64Array;
  /** min, low, high (pages). */
  watermarks: Float64Array;
  /** The balance view (wasm-core/src/views.rs; the type is generated from it). */
  balance: BalanceView;
  /** The last classic refault with its distance, once there has been one (views.rs). */
  refault?: RefaultView;
  /** Frames per LRU cell (the same for the four lists of a run). */
  bucket: number;
  /** Length of each of the four LRU lists in frames (head to tail). */
  listFrames: Uint32Array;
  /** The cells of the four lists one after the other, head to tail: owner space id + 1 of the
   *  bucket's majority of frames (0: none). List i has ceil(listFrames[i] / bucket) cells. */
  cells: Uint16Array;
  /** Sampled page moves, 5 numbers each: from list, to list, reason, from index, to index
   *  (index in frames from the list head where the move took place: the tail for pages
   *  reclaim takes, the head for pages added; -1 outside the four lists). */
  moves: Float64Array;
  /** Owner space names so far (spaces appear as tasks map memory); cell owner k names spaceNames[k - 1]. */
  spaceNames: string[];
  /** Moves recorded since the previous frame (before sampling; none after a seek). */
  movesSeen: number;
  /** New time-series rows since the previous frame, `seriesWidth` numbers each. */
  series: Float64Array;
  /** The index of `series`' first row in the run's series: the rows the page holds from the
   *  previous frames, which after a seek back are fewer than it has (it drops the rest). */
  seriesStart: number;
  /** The generations and PID controller of the root lruvec, or of the largest memcg's (the
   *  engine's `lru_gen_view`); absent when the run does not use the multi-gen LRU. */
  gens?: GensView;
  /** Which memcg's lruvec `gens` shows, when not the root's (the largest memcg). */
  gensMemcg?: number;
  /** memcg LRU view: the engine's `memcg_lru_view`, only when the run has memcgs
   *  (RunInfo.memcgNames). */
  memcg?: MemcgLruView;
}

/** What the core found wrong with scenario text: 1-based line and column (characters); the
 *  type is generated from wasm-core's `ScenarioError`. */
export type { ScenarioProblem };

export type FromWorker =
  /** The wasm engine is loaded. */
  | { type: 'ready'; protocol: number; engineVersion: string; kernel?: KernelInfo }
  /** A scenario is loaded; `counterNames[i]` names `counters[i]` of every frame. */
  | {
      type: 'loaded';
      scenario: string;
      title: string;
      description: string;
      variants: VariantInfo[];
      counterNames: string[];
      seriesWidth: number;
      runs: RunInfo[];
      /** The scenario's lesson steps, in time order (empty: no lesson). */
      lesson: LessonStep[];
    }
  /** The runs' state after a load or a step (`seq` increases by one each time). */
  /** `stepMs`: the worker's wall time advancing the runs for this frame (0 after a load); play
   *  sizes its steps by it (pace.ts). */
  | { type: 'frame'; seq: number; stepMs: number; runs: RunFrame[] }
  /** RunReport JSON per variant (scenario order) of a `report` request. */
  | { type: 'reports'; scenario: string; reports: string[]; /** JSON Assessment (generated/views.ts) */ assessment?: string }
  /** The RunReport JSON of variant `index` (named `variant`) of the scenario's `count`, for a
   *  `report` with an index. */
  | { type: 'variantReport'; scenario: string; index: number; count: number; variant: string; report: string }
  /** A `report` request on its way: variant `index` (named `variant`) of `count` has reached
   *  `nowNs` of at most `endNs`. */
  | { type: 'reportProgress'; scenario: string; index: number; count: number; variant: string; nowNs: number; endNs: number }
  /** A `seek` on its way: replaying from `fromNs` (a checkpoint's time, or where the runs were)
   *  to `toNs`, at `nowNs`. Sent when it starts and at most every SEEK_PROGRESS_MS of wall time. */
  | { type: 'seekProgress'; fromNs: number; toNs: number; nowNs: number }
  /** The `ahead` computation at `nowNs` of `toNs`; `done` once the state at `toNs` is kept. */
  | { type: 'aheadProgress'; toNs: number; nowNs: number; done: boolean }
  /** The answer to `check`: null when the text is a valid scenario. */
  | { type: 'checked'; id: number; problem: ScenarioProblem | null }
  /** The answer to `assess`: JSON Assessment (generated/views.ts). */
  | { type: 'assessed'; id: number; assessment: string }
  /** Something failed; `phase` says where. The page shows `message`. */
  | { type: 'error'; phase: ErrorPhase; message: string };

// ---------------------------------------------------------------- validation

export class ProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtocolError';
  }
}

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !ArrayBuffer.isView(v);
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (ArrayBuffer.isView(v)) return 'a typed array';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === 'number') return String(v);
  return typeof v === 'object' ? 'an object' : typeof v;
}

function what(msg: Obj): string {
  return typeof msg.type === 'string' ? `'${msg.type}' message` : 'value';
}

function field(msg: Obj, key: string): unknown {
  if (!(key in msg)) throw new ProtocolError(`${what(msg)} is missing '${key}'`);
  return msg[key];
}

function onlyKeys(msg: Obj, keys: string[]): void {
  for (const k of Object.keys(msg)) {
    if (!keys.includes(k)) throw new ProtocolError(`${what(msg)} has unknown field '${k}'`);
  }
}

function str(msg: Obj, key: string): string {
  const v = field(msg, key);
  if (typeof v !== 'string') throw new ProtocolError(`'${key}' must be a string, got ${describe(v)}`);
  return v;
}

function bool(msg: Obj, key: string): boolean {
  const v = field(msg, key);
  if (typeof v !== 'boolean') throw new ProtocolError(`'${key}' must be true or false, got ${describe(v)}`);
  return v;
}

/** A finite number in [min, max]; integers only when `integer`. */
function num(msg: Obj, key: string, min: number, max: number, integer = false): number {
  const v = field(msg, key);
  if (typeof v !== 'number' || !Number.isFinite(v)) {
    throw new ProtocolError(`'${key}' must be a finite number, got ${describe(v)}`);
  }
  if (integer && !Number.isInteger(v)) throw new ProtocolError(`'${key}' must be an integer, got ${v}`);
  if (v < min || v > max) throw new ProtocolError(`'${key}' must be between ${min} and ${max}, got ${v}`);
  return v;
}

function strings(msg: Obj, key: string): string[] {
  const v = field(msg, key);
  if (!Array.isArray(v) || !v.every((n) => typeof n === 'string')) {
    throw new ProtocolError(`'${key}' must be an array of strings`);
  }
  return [...v] as string[];
}

function typed<T>(msg: Obj, key: string, ctor: { new (n: number): T; name: string }): T {
  const v = field(msg, key);
  if (!(v instanceof ctor)) throw new ProtocolError(`'${key}' must be a ${ctor.name}, got ${describe(v)}`);
  return v;
}

function envelope(data: unknown): Obj & { type: string } {
  if (!isObj(data)) throw new ProtocolError(`message must be an object, got ${describe(data)}`);
  if (typeof data.type !== 'string') throw new ProtocolError(`message 'type' must be a string, got ${describe(data.type)}`);
  return data as Obj & { type: string };
}

function parseScenario(v: unknown): ScenarioSource {
  if (!isObj(v)) throw new ProtocolError(`'scenario' must be an object {name, text}, got ${describe(v)}`);
  onlyKeys(v, ['name', 'text']);
  return { name: str(v, 'name'), text: str(v, 'text') };
}

/** Validate a message the worker received. Throws ProtocolError. */
export function parseToWorker(data: unknown): ToWorker {
  const m = envelope(data);
  switch (m.type) {
    case 'load': {
      onlyKeys(m, ['type', 'scenario', 'variants', 'flags']);
      const variants = strings(m, 'variants');
      if (variants.length > MAX_RUNS) throw new ProtocolError(`at most ${MAX_RUNS} variants run in lockstep, got ${variants.length}`);
      const load: Extract<ToWorker, { type: 'load' }> = { type: 'load', scenario: parseScenario(field(m, 'scenario')), variants };
      if ('flags' in m) {
        const flags = m.flags;
        if (!Array.isArray(flags) || flags.length > MAX_RUNS) throw new ProtocolError(`'flags' must be an array of at most ${MAX_RUNS} objects`);
        load.flags = flags.map((f: unknown, i) => parseFlagMap(f, `flags[${i}]`));
      }
      return load;
    }
    case 'step':
      onlyKeys(m, ['type', 'ns']);
      return { type: 'step', ns: num(m, 'ns', 1, MAX_STEP_NS, true) };
    case 'seek':
      onlyKeys(m, ['type', 'ns']);
      return { type: 'seek', ns: num(m, 'ns', 0, BIG, true) };
    case 'ahead':
      onlyKeys(m, ['type', 'ns']);
      return { type: 'ahead', ns: field(m, 'ns') === null ? null : num(m, 'ns', 0, BIG, true) };
    case 'report':
      onlyKeys(m, ['type', 'scenario', 'index']);
      return { type: 'report', scenario: parseScenario(field(m, 'scenario')), ...('index' in m ? { index: num(m, 'index', 0, BIG, true) } : {}) };
    case 'check':
      onlyKeys(m, ['type', 'id', 'text']);
      return { type: 'check', id: num(m, 'id', 0, BIG, true), text: str(m, 'text') };
    case 'assess':
      onlyKeys(m, ['type', 'id', 'text', 'reports']);
      return { type: 'assess', id: num(m, 'id', 0, BIG, true), text: str(m, 'text'), reports: strings(m, 'reports') };
    default:
      throw new ProtocolError(`unknown message type ${describe(m.type)} sent to the engine worker`);
  }
}

const BIG = Number.MAX_SAFE_INTEGER;

function lessonSteps(v: unknown): LessonStep[] {
  try {
    return parseLessonSteps(v);
  } catch (err) {
    throw new ProtocolError(err instanceof Error ? err.message : String(err));
  }
}

function parseProblem(p: Obj): ScenarioProblem {
  onlyKeys(p, ['line', 'column', 'field', 'message']);
  return { line: num(p, 'line', 1, BIG, true), column: num(p, 'column', 1, BIG, true), field: str(p, 'field'), message: str(p, 'message') };
}

function parseRunInfo(v: unknown): RunInfo {
  if (!isObj(v)) throw new ProtocolError(`each run must be an object, got ${describe(v)}`);
  onlyKeys(v, ['variant', 'preset', 'scale', 'frames', 'endNs', 'spaceNames', 'kernel', 'memcgNames']);
  const info: RunInfo = {
    variant: str(v, 'variant'),
    preset: str(v, 'preset'),
    scale: num(v, 'scale', 1, BIG, true),
    frames: num(v, 'frames', 0, BIG, true),
    endNs: num(v, 'endNs', 0, Number.MAX_VALUE),
    spaceNames: strings(v, 'spaceNames'),
  };
  if ('kernel' in v) info.kernel = parseRunKernel(v.kernel);
  if ('memcgNames' in v) info.memcgNames = strings(v, 'memcgNames'); // memcg LRU view
  return info;
}

/** flag name -> boolean; names are short identifiers. */
export function parseFlagMap(v: unknown, key: string): FlagOverrides {
  if (!isObj(v)) throw new ProtocolError(`'${key}' must be an object of flag names to true/false, got ${describe(v)}`);
  const out: FlagOverrides = {};
  for (const [name, on] of Object.entries(v)) {
    if (!/^[a-z0-9_]{1,64}$/.test(name)) throw new ProtocolError(`'${key}' has a malformed flag name ${describe(name)}`);
    if (typeof on !== 'boolean') throw new ProtocolError(`'${key}.${name}' must be true or false, got ${describe(on)}`);
    out[name] = on;
  }
  return out;
}

function parseRunKernel(v: unknown): RunKernel {
  if (!isObj(v)) throw new ProtocolError(`'kernel' must be an object, got ${describe(v)}`);
  onlyKeys(v, ['flags', 'baseFlags', 'swappiness']);
  const sw = field(v, 'swappiness');
  if (!isObj(sw)) throw new ProtocolError(`'swappiness' must be an object {asked, cap, runs}, got ${describe(sw)}`);
  onlyKeys(sw, ['asked', 'cap', 'runs']);
  return {
    flags: parseFlagMap(field(v, 'flags'), 'flags'),
    baseFlags: parseFlagMap(field(v, 'baseFlags'), 'baseFlags'),
    swappiness: { asked: num(sw, 'asked', 0, BIG, true), cap: num(sw, 'cap', 0, BIG, true), runs: num(sw, 'runs', 0, BIG, true) },
  };
}

/** The engine's kernel description (flags with version and doc, presets with values). */
export function parseKernelInfo(v: unknown): KernelInfo {
  if (!isObj(v)) throw new ProtocolError(`'kernel' must be an object, got ${describe(v)}`);
  onlyKeys(v, ['flags', 'presets']);
  const flags = field(v, 'flags');
  const presets = field(v, 'presets');
  if (!Array.isArray(flags) || !Array.isArray(presets)) throw new ProtocolError("'kernel' must hold arrays 'flags' and 'presets'");
  return {
    flags: flags.map((f: unknown) => {
      if (!isObj(f)) throw new ProtocolError('each kernel flag must be an object {name, version, function, commit, doc}');
      onlyKeys(f, ['name', 'version', 'function', 'commit', 'doc']);
      return { name: str(f, 'name'), version: str(f, 'version'), function: str(f, 'function'), commit: str(f, 'commit'), doc: str(f, 'doc') };
    }),
    presets: presets.map((p: unknown) => {
      if (!isObj(p)) throw new ProtocolError('each kernel preset must be an object {name, description, flags}');
      onlyKeys(p, ['name', 'description', 'flags']);
      return { name: str(p, 'name'), description: str(p, 'description'), flags: parseFlagMap(field(p, 'flags'), 'flags') };
    }),
  };
}

const ERAS = ['rotation', 'cost', 'mglru', 'cost2016'];
const BALANCES = ['SCAN_EQUAL', 'SCAN_FRACT', 'SCAN_FILE', 'SCAN_ANON'];
const REASONS = ['may_not_swap', 'no_swap', 'priority_zero', 'file_is_tiny', 'file_below_high', 'cache_trim', 'plenty_inactive_file', 'swappiness_zero', 'swappiness_max', 'fraction', 'anon_only'];

function numbers(o: Obj, key: string, len: number, where = 'balance', nullable = false): void {
  const a = field(o, key);
  const ok = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) && x >= 0) || (nullable && x === null);
  if (!Array.isArray(a) || a.length !== len || !a.every(ok)) {
    throw new ProtocolError(`'${where}.${key}' must hold ${len} ${nullable ? 'numbers or nulls' : 'numbers'}, got ${describe(a)}`);
  }
}

function oneOf(o: Obj, key: string, allowed: string[], where = 'balance'): void {
  const x = field(o, key);
  if (typeof x !== 'string' || !allowed.includes(x)) throw new ProtocolError(`'${where}.${key}' must be one of ${allowed.join(', ')}, got ${describe(x)}`);
}

/** An array of counts (finite numbers >= 0) of any length. */
function counts(o: Obj, key: string, where: string): number[] {
  const a = field(o, key);
  if (!Array.isArray(a) || !a.every((x) => typeof x === 'number' && Number.isFinite(x) && x >= 0)) {
    throw new ProtocolError(`'${where}.${key}' must be an array of counts, got ${describe(a)}`);
  }
  return a as number[];
}

/** Every value of a generated string union, listed once (the compiler checks none is missing). */
const TYPE_REASONS = Object.keys({ swappiness_zero: 1, swappiness_low: 1, swappiness_max: 1, older_anon: 1, few_file_refaults: 1, refault_rates: 1 } satisfies Record<TypeReason, 1>);
const SEGS = Object.keys({ default: 1, head: 1, tail: 1 } satisfies Record<Seg, 1>);

/** The engine's generations view: checked field by field against the generated type, and its
 *  rows from the older min_seq to max_seq. */
export function parseGensView(v: unknown): GensView {
  if (!isObj(v)) throw new ProtocolError(`'gens' must be an object, got ${describe(v)}`);
  onlyKeys(v, ['maxSeq', 'minSeq', 'rows', 'rates', 'tierIdx', 'next', 'reason', 'compare', 'batchPages', 'rework', 'swappiness']);
  const maxSeq = num(v, 'maxSeq', 0, BIG, true);
  numbers(v, 'minSeq', 2, 'gens');
  numbers(v, 'tierIdx', 2, 'gens');
  num(v, 'next', 0, 1, true);
  oneOf(v, 'reason', TYPE_REASONS, 'gens');
  num(v, 'batchPages', 1, BIG, true);
  num(v, 'swappiness', 0, 201, true);
  bool(v, 'rework');
  const rates = field(v, 'rates');
  if (!Array.isArray(rates) || rates.length !== 2) throw new ProtocolError(`'gens.rates' must hold [anon, file], got ${describe(rates)}`);
  rates.forEach((r: unknown, ty) => numbers({ [ty]: r }, String(ty), 4, 'gens.rates', true));
  const rows = field(v, 'rows');
  if (!Array.isArray(rows) || rows.length < 1 || rows.length > 64) throw new ProtocolError(`'gens.rows' must hold 1..64 generations, got ${describe(rows)}`);
  rows.forEach((r: unknown, i) => {
    if (!isObj(r)) throw new ProtocolError(`'gens.rows[${i}]' must be an object, got ${describe(r)}`);
    onlyKeys(r, ['seq', 'ageMs', 'tiers', 'active']);
    bool(r, 'active');
    num(r, 'seq', 0, BIG, true);
    num(r, 'ageMs', 0, Number.MAX_VALUE);
    const t = field(r, 'tiers');
    if (!Array.isArray(t) || t.length !== 2) throw new ProtocolError(`'gens.rows[${i}].tiers' must hold [anon, file], got ${describe(t)}`);
    t.forEach((x: unknown, ty) => numbers({ [ty]: x }, String(ty), 4, `gens.rows[${i}].tiers`));
  });
  const g = v as unknown as GensView;
  const seqs = g.rows.map((r) => r.seq);
  if (seqs[0] !== Math.min(...g.minSeq) || seqs.some((s, i) => s !== seqs[0]! + i) || seqs.at(-1) !== maxSeq) {
    throw new ProtocolError(`'gens.rows' must run from the oldest min_seq to max_seq, got seqs ${seqs.join(', ')}`);
  }
  const c = field(v, 'compare');
  if (c !== null) {
    if (!isObj(c)) throw new ProtocolError(`'gens.compare' must be an object or null, got ${describe(c)}`);
    onlyKeys(c, ['anon', 'file', 'anonRate', 'fileRate', 'bound']);
    for (const k of ['anonRate', 'fileRate', 'bound']) num(c, k, 0, Number.MAX_VALUE);
    for (const k of ['anon', 'file']) {
      const p = field(c, k);
      if (!isObj(p)) throw new ProtocolError(`'gens.compare.${k}' must be an object, got ${describe(p)}`);
      onlyKeys(p, ['refaulted', 'total', 'gain']);
      for (const n of ['refaulted', 'total', 'gain']) num(p, n, 0, BIG, true);
    }
  }
  return g;
}

/** The engine's memcg LRU view: checked field by field against the generated type, each memcg
 *  on it once, the bin counts matching the places, one bar per memcg. */
export function parseMemcgLruView(v: unknown): MemcgLruView {
  if (!isObj(v)) throw new ProtocolError(`'memcg' must be an object, got ${describe(v)}`);
  onlyKeys(v, ['active', 'seq', 'nrGens', 'oldGen', 'youngGen', 'places', 'counts', 'usage', 'pgscan', 'pgsteal', 'leaves', 'pgstealSpreadPct', 'reclaimRequestedPages', 'reclaimAccuracyPct', 'largest']);
  bool(v, 'active');
  num(v, 'seq', 0, BIG, true);
  const nrGens = num(v, 'nrGens', 2, 3, true);
  num(v, 'oldGen', 0, nrGens - 1, true);
  num(v, 'youngGen', 0, nrGens - 1, true);
  const n = counts(v, 'pgsteal', 'memcg').length;
  for (const k of ['usage', 'pgscan']) if (counts(v, k, 'memcg').length !== n) throw new ProtocolError(`'memcg.${k}' must hold ${n} values, one per memcg`);
  num(v, 'largest', 0, Math.max(0, n - 1), true);
  num(v, 'reclaimRequestedPages', 0, BIG);
  for (const k of ['pgstealSpreadPct', 'reclaimAccuracyPct']) if (field(v, k) !== null) num(v, k, 0, Number.MAX_VALUE);
  if (counts(v, 'leaves', 'memcg').some((id) => !Number.isInteger(id) || id < 1 || id >= n)) throw new ProtocolError(`'memcg.leaves' must be memcg ids 1..${n - 1}`);
  const bins = field(v, 'counts');
  if (!Array.isArray(bins) || bins.length !== nrGens) throw new ProtocolError(`'memcg.counts' must hold ${nrGens} generations, got ${describe(bins)}`);
  bins.forEach((b: unknown, gen) => numbers({ [gen]: b }, String(gen), 8, 'memcg.counts'));
  const places = field(v, 'places');
  if (!Array.isArray(places)) throw new ProtocolError(`'memcg.places' must be an array, got ${describe(places)}`);
  const seen = new Set<number>();
  places.forEach((p: unknown, i) => {
    if (!isObj(p)) throw new ProtocolError(`'memcg.places[${i}]' must be an object, got ${describe(p)}`);
    onlyKeys(p, ['id', 'gen', 'bin', 'pos', 'seg']);
    const id = num(p, 'id', 0, n - 1, true);
    num(p, 'gen', 0, nrGens - 1, true);
    num(p, 'bin', 0, 7, true);
    num(p, 'pos', 0, n, true);
    oneOf(p, 'seg', SEGS, `memcg.places[${i}]`);
    if (seen.has(id)) throw new ProtocolError(`'memcg.places' holds memcg ${id} twice`);
    seen.add(id);
  });
  const m = v as unknown as MemcgLruView;
  m.counts.forEach((row, gen) =>
    row.forEach((k, bin) => {
      const have = m.places.filter((p) => p.gen === gen && p.bin === bin).length;
      if (have !== k) throw new ProtocolError(`'memcg.counts[${gen}][${bin}]' is ${k}, but ${have} memcgs are placed there`);
    }),
  );
  return m;
}

/** The engine's balance view: checked field by field against the generated type. */
function parseBalanceView(v: unknown): BalanceView {
  if (!isObj(v)) throw new ProtocolError(`'balance' must be an object, got ${describe(v)}`);
  onlyKeys(v, ['era', 'source', 'swappiness', 'last', 'decisions', 'recentScanned', 'recentRotated', 'anonCost', 'fileCost', 'pgscan', 'forcedScan']);
  oneOf(v, 'era', ERAS);
  str(v, 'source');
  num(v, 'swappiness', 0, 200, true);
  for (const k of ['anonCost', 'fileCost', 'pgscan', 'forcedScan']) num(v, k, 0, Number.MAX_VALUE);
  numbers(v, 'decisions', 4);
  numbers(v, 'recentScanned', 2);
  numbers(v, 'recentRotated', 2);
  const last = field(v, 'last');
  if (last !== null) {
    if (!isObj(last)) throw new ProtocolError(`'balance.last' must be an object or null, got ${describe(last)}`);
    onlyKeys(last, ['atNs', 'balance', 'reason', 'lruvec', 'priority', 'swappiness', 'fraction', 'denominator', 'shares', 'recentScanned', 'recentRotated', 'anonCost', 'fileCost', 'costDenom']);
    oneOf(last, 'balance', BALANCES);
    oneOf(last, 'reason', REASONS);
    for (const k of ['atNs', 'lruvec', 'priority', 'swappiness', 'denominator', 'anonCost', 'fileCost', 'costDenom']) num(last, k, 0, Number.MAX_VALUE);
    for (const k of ['fraction', 'shares', 'recentScanned', 'recentRotated']) numbers(last, k, 2);
  }
  return v as unknown as BalanceView;
}

/** The engine's refault view: checked field by field against the generated type. */
function parseRefaultView(v: unknown): RefaultView {
  if (!isObj(v)) throw new ProtocolError(`'refault' must be an object, got ${describe(v)}`);
  onlyKeys(v, ['last', 'spaceName', 'shadowEntries']);
  str(v, 'spaceName');
  num(v, 'shadowEntries', 0, Number.MAX_VALUE);
  const last = field(v, 'last');
  if (last !== null) {
    if (!isObj(last)) throw new ProtocolError(`'refault.last' must be an object or null, got ${describe(last)}`);
    onlyKeys(last, ['atNs', 'space', 'page', 'file', 'evictionAge', 'nowAge', 'distance', 'workingsetSize', 'activated']);
    for (const k of ['atNs', 'space', 'page', 'evictionAge', 'nowAge', 'distance', 'workingsetSize']) num(last, k, 0, Number.MAX_VALUE);
    bool(last, 'file');
    bool(last, 'activated');
  }
  return v as unknown as RefaultView;
}

function parseRunFrame(v: unknown): RunFrame {
  if (!isObj(v)) throw new ProtocolError(`each run frame must be an object, got ${describe(v)}`);
  onlyKeys(v, ['nowNs', 'finished', 'counters', 'lru', 'watermarks', 'balance', 'bucket', 'listFrames', 'cells', 'moves', 'movesSeen', 'series', 'seriesStart', 'spaceNames', 'gens', 'gensMemcg', 'memcg', 'refault']);
  const f: RunFrame = {
    nowNs: num(v, 'nowNs', 0, Number.MAX_VALUE),
    finished: bool(v, 'finished'),
    counters: typed(v, 'counters', Float64Array),
    lru: typed(v, 'lru', Float64Array),
    watermarks: typed(v, 'watermarks', Float64Array),
    balance: parseBalanceView(field(v, 'balance')),
    bucket: num(v, 'bucket', 1, BIG, true),
    listFrames: typed(v, 'listFrames', Uint32Array),
    cells: typed(v, 'cells', Uint16Array),
    moves: typed(v, 'moves', Float64Array),
    movesSeen: num(v, 'movesSeen', 0, BIG, true),
    spaceNames: strings(v, 'spaceNames'),
    series: typed(v, 'series', Float64Array),
    seriesStart: num(v, 'seriesStart', 0, BIG, true),
  };
  if (f.lru.length !== 6) throw new ProtocolError(`'lru' must hold 6 sizes, got ${f.lru.length}`);
  if (f.watermarks.length !== 3) throw new ProtocolError(`'watermarks' must hold 3 values, got ${f.watermarks.length}`);
  if (f.listFrames.length !== 4) throw new ProtocolError(`'listFrames' must hold 4 lengths, got ${f.listFrames.length}`);
  const cells = [...f.listFrames].reduce((s, n) => s + Math.ceil(n / f.bucket), 0);
  if (f.cells.length !== cells) throw new ProtocolError(`'cells' must hold ${cells} cells, got ${f.cells.length}`);
  if (f.moves.length % 5 !== 0) throw new ProtocolError("'moves' must hold 5 numbers per move");
  if ('gens' in v) f.gens = parseGensView(field(v, 'gens'));
  if ('gensMemcg' in v) f.gensMemcg = num(v, 'gensMemcg', 1, 65535, true);
  if ('memcg' in v) f.memcg = parseMemcgLruView(field(v, 'memcg'));
  if ('refault' in v) f.refault = parseRefaultView(field(v, 'refault'));
  return f;
}

/** Validate a message the page received from the worker. Throws ProtocolError. */
export function parseFromWorker(data: unknown): FromWorker {
  const m = envelope(data);
  switch (m.type) {
    case 'ready': {
      onlyKeys(m, ['type', 'protocol', 'engineVersion', 'kernel']);
      const protocol = num(m, 'protocol', 0, BIG, true);
      if (protocol !== PROTOCOL_VERSION) {
        throw new ProtocolError(`engine worker speaks protocol ${protocol}, the page speaks ${PROTOCOL_VERSION}`);
      }
      const ready: Extract<FromWorker, { type: 'ready' }> = { type: 'ready', protocol, engineVersion: str(m, 'engineVersion') };
      if ('kernel' in m) ready.kernel = parseKernelInfo(m.kernel);
      return ready;
    }
    case 'loaded': {
      onlyKeys(m, ['type', 'scenario', 'title', 'description', 'variants', 'counterNames', 'seriesWidth', 'runs', 'lesson']);
      const variants = field(m, 'variants');
      const runs = field(m, 'runs');
      if (!Array.isArray(variants)) throw new ProtocolError("'variants' must be an array");
      if (!Array.isArray(runs) || runs.length < 1) throw new ProtocolError("'runs' must be a non-empty array");
      return {
        type: 'loaded',
        scenario: str(m, 'scenario'),
        title: str(m, 'title'),
        description: str(m, 'description'),
        variants: variants.map((v: unknown) => {
          if (!isObj(v)) throw new ProtocolError('each variant must be an object {name, preset}');
          onlyKeys(v, ['name', 'preset']);
          return { name: str(v, 'name'), preset: str(v, 'preset') };
        }),
        counterNames: strings(m, 'counterNames'),
        seriesWidth: num(m, 'seriesWidth', 1, 10_000, true),
        runs: runs.map(parseRunInfo),
        lesson: lessonSteps(field(m, 'lesson')),
      };
    }
    case 'frame': {
      onlyKeys(m, ['type', 'seq', 'stepMs', 'runs']);
      const runs = field(m, 'runs');
      if (!Array.isArray(runs) || runs.length < 1) throw new ProtocolError("'runs' must be a non-empty array");
      return { type: 'frame', seq: num(m, 'seq', 0, BIG, true), stepMs: num(m, 'stepMs', 0, BIG), runs: runs.map(parseRunFrame) };
    }
    case 'reports':
      onlyKeys(m, ['type', 'scenario', 'reports', 'assessment']);
      return { type: 'reports', scenario: str(m, 'scenario'), reports: strings(m, 'reports'), ...('assessment' in m ? { assessment: str(m, 'assessment') } : {}) };
    case 'variantReport':
      onlyKeys(m, ['type', 'scenario', 'index', 'count', 'variant', 'report']);
      return {
        type: 'variantReport',
        scenario: str(m, 'scenario'),
        index: num(m, 'index', 0, BIG, true),
        count: num(m, 'count', 1, BIG, true),
        variant: str(m, 'variant'),
        report: str(m, 'report'),
      };
    case 'reportProgress':
      onlyKeys(m, ['type', 'scenario', 'index', 'count', 'variant', 'nowNs', 'endNs']);
      return {
        type: 'reportProgress',
        scenario: str(m, 'scenario'),
        index: num(m, 'index', 0, BIG, true),
        count: num(m, 'count', 1, BIG, true),
        variant: str(m, 'variant'),
        nowNs: num(m, 'nowNs', 0, BIG),
        endNs: num(m, 'endNs', 0, BIG),
      };
    case 'seekProgress':
      onlyKeys(m, ['type', 'fromNs', 'toNs', 'nowNs']);
      return { type: 'seekProgress', fromNs: num(m, 'fromNs', 0, BIG), toNs: num(m, 'toNs', 0, BIG), nowNs: num(m, 'nowNs', 0, BIG) };
    case 'aheadProgress':
      onlyKeys(m, ['type', 'toNs', 'nowNs', 'done']);
      return { type: 'aheadProgress', toNs: num(m, 'toNs', 0, BIG), nowNs: num(m, 'nowNs', 0, BIG), done: bool(m, 'done') };
    case 'assessed':
      onlyKeys(m, ['type', 'id', 'assessment']);
      return { type: 'assessed', id: num(m, 'id', 0, BIG, true), assessment: str(m, 'assessment') };
    case 'checked': {
      onlyKeys(m, ['type', 'id', 'problem']);
      const p = field(m, 'problem');
      if (p !== null && !isObj(p)) throw new ProtocolError(`'problem' must be null or an object, got ${describe(p)}`);
      return { type: 'checked', id: num(m, 'id', 0, BIG, true), problem: p === null ? null : parseProblem(p) };
    }
    case 'error': {
      onlyKeys(m, ['type', 'phase', 'message']);
      const phase = str(m, 'phase');
      if (phase !== 'init' && phase !== 'protocol' && phase !== 'engine' && phase !== 'scenario') {
        throw new ProtocolError(`error 'phase' must be init, protocol, engine or scenario, got ${describe(phase)}`);
      }
      return { type: 'error', phase, message: str(m, 'message') };
    }
    default:
      throw new ProtocolError(`unknown message type ${describe(m.type)} from the engine worker`);
  }
}

// ---------------------------------------------------------------- encoding

/** A message and the buffers to transfer (not copy) with it. */
export interface Outgoing<M> {
  message: M;
  transfer: Transferable[];
}

/** A frame message; every typed array's buffer is transferred to the page. */
export function encodeFrame(seq: number, stepMs: number, runs: RunFrame[]): Outgoing<FromWorker> {
  const transfer: Transferable[] = [];
  for (const r of runs) {
    for (const a of [r.counters, r.lru, r.watermarks, r.listFrames, r.cells, r.moves, r.series]) {
      if (!transfer.includes(a.buffer as ArrayBuffer)) transfer.push(a.buffer as ArrayBuffer);
    }
  }
  return { message: { type: 'frame', seq, stepMs, runs }, transfer };
}

/** An error message; any thrown value becomes readable text. */
export function encodeError(phase: ErrorPhase, err: unknown): Extract<FromWorker, { type: 'error' }> {
  return { type: 'error', phase, message: errorText(err) };
}

export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message ? `${err.name}: ${err.message}` : err.name;
  if (typeof err === 'string' && err) return err;
  try {
    return `unexpected error: ${JSON.stringify(err)}`;
  } catch {
    return 'unexpected error';
  }
}
