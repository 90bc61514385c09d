// The message protocol between the page (main thread) and the engine worker.
//
// Everything that crosses the worker boundary is one of these messages, and
// each side validates what it receives (`parseToWorker` in the worker,
// `parseFromWorker` on the page): a malformed message becomes a ProtocolError,
// reported as an `error` message, never a crash or a silent hang.
//
//   page -> worker   load (scenario text and setup (knobs, a swappiness pair: the engine applies
//                    them) + the variants to run in lockstep + optional flag overrides per run +
//                    optionally which of those runs this worker holds: a page with two cores
//                    splits a comparison's runs over two workers, split.ts),
//                    step (advance every run by the same virtual time; answered by a frame),
//                    report (run every variant of a scenario to the end; answered by reports), or
//                    only one of them (answered by variantReport: the page runs the variants in a
//                    pool of workers),
//                    check (validate scenario text for the editor; answered by checked),
//                    assess (the engine's figures over given reports, e.g. a real kernel's; answered by assessed),
//                    seek (bring every run to a virtual time, from the nearest checkpoint; answered by
//                    seekProgress while it replays, then a frame),
//                    ahead (compute the runs' state at a virtual time in the background, e.g. a paused
//                    lesson's next step, so that a seek there restores it; answered by aheadProgress),
//                    traceScenario (the scenario the engine builds for a dropped trace's bytes),
//                    mrc (a trace scenario's miss-ratio plan with its LRU and OPT columns), mrcPoint
//                    (one kernel point of the curve run to its end; answered by mrcProgress, then
//                    mrcPoint)
//   worker -> page   ready (engine version, its flags and presets), loaded (scenario info and
//                    per-run constants, each run's flags and swappiness asked / cap / run),
//                    frame (per run: the engine's FrameView — list sizes, watermarks, dirty
//                    state, the LRU strips and sampled moves, the balance, refault, MGLRU
//                    generations and memcg LRU views — plus the counters and the new series
//                    rows as typed arrays, transferred),
//                    reports (the CLI's RunReport JSON per variant), variantReport (one variant's),
//                    reportProgress, checked (the problem of a checked text, with its line and
//                    column, or null), assessed, seekProgress, aheadProgress, traceScenario, mrc,
//                    mrcProgress, mrcPoint, error
//
// Every engine type here is generated from Rust (generated/views.ts); the worker is built with
// the page, so its answers are checked for their envelope only (message type and fields, typed
// arrays), not field by field. Untrusted input (links, dropped files) is checked where it
// enters (lib/linkCheck.ts, lib/kernelRun.ts).
//
// The page pulls: it sends `step` once per animation frame while playing and the
// next one only after the answer arrived, so the worker is never flooded.
// Bump PROTOCOL_VERSION on any incompatible change.
import type { FrameView, KernelInfo, LessonStepInfo, MrcReference, RunInfo, RunKernel, ScenarioInfo, ScenarioProblem, Setup, VariantInfo } from './generated/views';

export const PROTOCOL_VERSION = 13; // 3: kernel info, per-run flags; 4: lessons, check; 5: gens; 6: typed gens and memcg views; 7: frame stepMs; 8: seek, ahead, seriesStart; 9: report of one variant; 10: generated frames and run info; 11: the engine applies the knobs (setup); 12: a load's share of the runs (`runs`); 13: traces and miss-ratio curves

/** Largest single advance of virtual time accepted in one message (60 s). */
export const MAX_STEP_NS = 60_000_000_000;
/** At most this many runs in lockstep (compare mode shows two). */
export const MAX_RUNS = 4;

// ---------------------------------------------------------------- page -> worker

/** A scenario file: its name (e.g. "s000-thrash.toml"), its TOML text as the user has it
 *  (bundled or edited), and what is set on top of it (knobs, a swappiness pair), which the
 *  engine applies (`resolve_scenario`): the page writes no knob into the text itself. */
export interface ScenarioSource {
  name: string;
  text: string;
  setup?: Setup;
  /** The access traces its replay ops name, as the page holds them (a dropped file's bytes:
   *  the trace never leaves the browser); every worker that runs the scenario is given them. */
  traces?: TraceBytes[];
  /** A kernel point of its miss-ratio curve: the replaying task in a memcg of memory.max =
   *  this many pages (the engine's `mrc::kernel_scenario`) instead of the scenario as it is. */
  mrcPages?: number;
}

/** One access trace: the name the scenario's replay op gives it, and its bytes. */
export interface TraceBytes {
  name: string;
  bytes: Uint8Array;
}

/** The trace formats the engine reads (scenario/trace.rs). */
export const TRACE_FORMATS = ['oracleGeneral', 'csv'] as const;
export type TraceFormat = (typeof TRACE_FORMATS)[number];
/** At most this many traces with one scenario. */
export const MAX_TRACES = 4;
/** At most this many cache sizes in a curve. */
export const MAX_MRC_POINTS = 64;

/** At most this many knob settings in a setup. */
export const MAX_KNOBS = 64;

export type ToWorker =
  /** Replace the runs with new ones: `variants` of this scenario (empty: its first variant), at t=0.
   *  `flags[i]` (optional) overrides behaviour flags of run i on top of its variant. `runs`
   *  (optional, ascending): the indices of the runs named this worker holds; it still builds
   *  every one, so that it refuses a load exactly when the others do (split.ts). */
  | { type: 'load'; scenario: ScenarioSource; variants: string[]; flags?: FlagOverrides[]; runs?: number[] }
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
  /** Validate scenario text (the editor's lint; with `setup`, the text it resolves to: a link's
   *  knobs); answer `checked` with the same id. */
  | { type: 'check'; id: number; text: string; setup?: Setup }
  /** The scenario's assessment (headline figures, verdicts) over these RunReport JSONs (a real
   *  kernel's run beside the model's, issue #27 §2); answer `assessed` with the same id. */
  | { type: 'assess'; id: number; scenario: ScenarioSource; reports: string[] }
  /** The scenario the engine builds to replay a dropped trace (`trace_scenario`); answer
   *  `traceScenario` with the same id: the text, or the problem (a bad record, by number). */
  | { type: 'traceScenario'; id: number; trace: TraceBytes; format: TraceFormat }
  /** The miss-ratio curve's plan and its LRU and OPT columns at `points` sizes (one replay op,
   *  its trace supplied); answer `mrc` with the same id. */
  | { type: 'mrc'; id: number; scenario: ScenarioSource; points: number }
  /** One kernel point: `variant` with the replaying task held to `pages` pages, run to its end;
   *  answer `mrcProgress` while it runs, then `mrcPoint` with its misses. */
  | { type: 'mrcPoint'; id: number; scenario: ScenarioSource; variant: string; pages: number; task: string; requests: number };

// ---------------------------------------------------------------- worker -> page

export type ErrorPhase = 'init' | 'protocol' | 'engine' | 'scenario';

/** Behaviour flag overrides of one run: flag name -> on/off (names as the engine exports them). */
export type FlagOverrides = Record<string, boolean>;

export type { KernelInfo, RunInfo, RunKernel, ScenarioInfo, Setup, VariantInfo };

/** The runs' common time: the furthest run's (a run that ended, or was killed, stays at its end
 *  while the others go on). The top bar, the link, exports and the side-by-side table use it. */
export const commonNowNs = (runs: readonly { nowNs: number }[]): number => runs.reduce((t, r) => Math.max(t, r.nowNs), 0);

/** The state of one run after a step: the engine's FrameView (sizes in pages), with the
 *  counters (pages or counts, `counterNames` order) and the time-series rows new since the
 *  previous frame (SERIES_COLUMNS each, engine/series.ts reads them by name) as typed arrays.
 *  `seriesStart`: the index of `series`' first row in the run's series, i.e. the rows the page
 *  holds from the previous frames, which after a seek back are fewer than it has (it drops the
 *  rest). */
export type RunFrame = FrameView & { counters: Float64Array; series: Float64Array; seriesStart: number };

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
      /** The scenario text the runs run (the setup resolved by the engine): the TOML export. */
      text: string;
      /** The file as the user has it, before the setup: the knobs' scenario values and choices,
       *  its own variants and expectations. */
      file: ScenarioInfo;
      counterNames: string[];
      runs: RunInfo[];
      /** The scenario's lesson steps, in time order (empty: no lesson). */
      lesson: LessonStepInfo[];
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
  /** The answer to `check`: null when the text is a valid scenario (then `info`: the text's
   *  own, before the setup). A setup the engine refuses is a problem at line 0. */
  | { type: 'checked'; id: number; problem: ScenarioProblem | null; info?: ScenarioInfo }
  /** The answer to `assess`: JSON Assessment (generated/views.ts). */
  | { type: 'assessed'; id: number; assessment: string }
  /** The answer to `traceScenario`: the scenario text, or why there is none. */
  | { type: 'traceScenario'; id: number; text: string | null; problem: string | null }
  /** The answer to `mrc`: the plan and reference columns, or why there are none. */
  | { type: 'mrc'; id: number; reference: MrcReference | null; problem: string | null }
  /** An `mrcPoint` on its way (at most every REPORT_PROGRESS_MS of wall time). */
  | { type: 'mrcProgress'; id: number; nowNs: number; endNs: number }
  /** The answer to `mrcPoint`: the point's misses, or why it has none. */
  | { type: 'mrcPoint'; id: number; misses: number | null; problem: string | null }
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
  if (!isObj(v)) throw new ProtocolError(`'scenario' must be an object {name, text, setup?, traces?, mrcPages?}, got ${describe(v)}`);
  onlyKeys(v, ['name', 'text', 'setup', 'traces', 'mrcPages']);
  const out: ScenarioSource = { name: str(v, 'name'), text: str(v, 'text'), ...('setup' in v ? { setup: parseSetup(v.setup) } : {}) };
  if ('traces' in v) {
    const t = v.traces;
    if (!Array.isArray(t) || t.length > MAX_TRACES) throw new ProtocolError(`'scenario.traces' must be an array of at most ${MAX_TRACES} traces`);
    out.traces = t.map((x: unknown) => parseTrace(x));
  }
  if ('mrcPages' in v) out.mrcPages = num(v, 'mrcPages', 1, BIG, true);
  return out;
}

/** {name, bytes}; the engine checks the bytes (and their size against its budget). */
function parseTrace(v: unknown): TraceBytes {
  if (!isObj(v)) throw new ProtocolError(`a trace must be an object {name, bytes}, got ${describe(v)}`);
  onlyKeys(v, ['name', 'bytes']);
  return { name: str(v, 'name'), bytes: typed(v, 'bytes', Uint8Array) };
}

/** The shape of a Setup; the engine checks the names and values (and refuses unknown keys). */
function parseSetup(v: unknown): Setup {
  if (!isObj(v)) throw new ProtocolError(`'setup' must be an object {knobs, pair}, got ${describe(v)}`);
  onlyKeys(v, ['knobs', 'pair']);
  const knobs = v.knobs;
  if (!Array.isArray(knobs) || knobs.length > MAX_KNOBS) throw new ProtocolError(`'setup.knobs' must be an array of at most ${MAX_KNOBS} [name, value] pairs`);
  const pairs = knobs.map((k: unknown, i): [string, string] => {
    if (!Array.isArray(k) || k.length !== 2 || typeof k[0] !== 'string' || typeof k[1] !== 'string') throw new ProtocolError(`'setup.knobs[${i}]' must be a [name, value] pair of strings, got ${describe(k)}`);
    return [k[0], k[1]];
  });
  const p = v.pair;
  if (p === null || p === undefined) return { knobs: pairs, pair: null };
  if (!isObj(p)) throw new ProtocolError(`'setup.pair' must be null or {variant, swappiness}, got ${describe(p)}`);
  onlyKeys(p, ['variant', 'swappiness']);
  const sw = p.swappiness;
  const ok = (x: unknown) => typeof x === 'number' && Number.isInteger(x) && x >= 0 && x <= 0xffff_ffff;
  if (!Array.isArray(sw) || sw.length !== 2 || !sw.every(ok)) throw new ProtocolError(`'setup.pair.swappiness' must be two whole numbers, got ${describe(sw)}`);
  return { knobs: pairs, pair: { variant: str(p, 'variant'), swappiness: [sw[0] as number, sw[1] as number] } };
}

/** Validate a message the worker received. Throws ProtocolError. */
export function parseToWorker(data: unknown): ToWorker {
  const m = envelope(data);
  switch (m.type) {
    case 'load': {
      onlyKeys(m, ['type', 'scenario', 'variants', 'flags', 'runs']);
      const variants = strings(m, 'variants');
      if (variants.length > MAX_RUNS) throw new ProtocolError(`at most ${MAX_RUNS} variants run in lockstep, got ${variants.length}`);
      const load: Extract<ToWorker, { type: 'load' }> = { type: 'load', scenario: parseScenario(field(m, 'scenario')), variants };
      if ('flags' in m) {
        const flags = m.flags;
        if (!Array.isArray(flags) || flags.length > MAX_RUNS) throw new ProtocolError(`'flags' must be an array of at most ${MAX_RUNS} objects`);
        load.flags = flags.map((f: unknown, i) => parseFlagMap(f, `flags[${i}]`));
      }
      if ('runs' in m) {
        const runs = m.runs;
        const ok = Array.isArray(runs) && runs.length >= 1 && runs.every((r: unknown, i) => Number.isInteger(r) && (r as number) >= 0 && (r as number) < MAX_RUNS && (i === 0 || (r as number) > (runs[i - 1] as number)));
        if (!ok) throw new ProtocolError(`'runs' must be ascending run indices below ${MAX_RUNS}, at least one, got ${describe(runs)}`);
        load.runs = [...(runs as number[])];
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
      onlyKeys(m, ['type', 'id', 'text', 'setup']);
      return { type: 'check', id: num(m, 'id', 0, BIG, true), text: str(m, 'text'), ...('setup' in m ? { setup: parseSetup(m.setup) } : {}) };
    case 'assess':
      onlyKeys(m, ['type', 'id', 'scenario', 'reports']);
      return { type: 'assess', id: num(m, 'id', 0, BIG, true), scenario: parseScenario(field(m, 'scenario')), reports: strings(m, 'reports') };
    case 'traceScenario': {
      onlyKeys(m, ['type', 'id', 'trace', 'format']);
      const format = str(m, 'format');
      if (!(TRACE_FORMATS as readonly string[]).includes(format)) throw new ProtocolError(`'format' must be one of ${TRACE_FORMATS.join(', ')}, got ${describe(format)}`);
      return { type: 'traceScenario', id: num(m, 'id', 0, BIG, true), trace: parseTrace(field(m, 'trace')), format: format as TraceFormat };
    }
    case 'mrc':
      onlyKeys(m, ['type', 'id', 'scenario', 'points']);
      return { type: 'mrc', id: num(m, 'id', 0, BIG, true), scenario: parseScenario(field(m, 'scenario')), points: num(m, 'points', 1, MAX_MRC_POINTS, true) };
    case 'mrcPoint':
      onlyKeys(m, ['type', 'id', 'scenario', 'variant', 'pages', 'task', 'requests']);
      return {
        type: 'mrcPoint',
        id: num(m, 'id', 0, BIG, true),
        scenario: parseScenario(field(m, 'scenario')),
        variant: str(m, 'variant'),
        pages: num(m, 'pages', 1, BIG, true),
        task: str(m, 'task'),
        requests: num(m, 'requests', 0, BIG, true),
      };
    default:
      throw new ProtocolError(`unknown message type ${describe(m.type)} sent to the engine worker`);
  }
}

const BIG = Number.MAX_SAFE_INTEGER;

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

/** The fields of each message from the worker (the envelope the page checks). */
const FROM_WORKER_KEYS: Record<FromWorker['type'], string[]> = {
  ready: ['type', 'protocol', 'engineVersion', 'kernel'],
  loaded: ['type', 'scenario', 'title', 'description', 'variants', 'text', 'file', 'counterNames', 'runs', 'lesson'],
  frame: ['type', 'seq', 'stepMs', 'runs'],
  reports: ['type', 'scenario', 'reports', 'assessment'],
  variantReport: ['type', 'scenario', 'index', 'count', 'variant', 'report'],
  reportProgress: ['type', 'scenario', 'index', 'count', 'variant', 'nowNs', 'endNs'],
  seekProgress: ['type', 'fromNs', 'toNs', 'nowNs'],
  aheadProgress: ['type', 'toNs', 'nowNs', 'done'],
  checked: ['type', 'id', 'problem', 'info'],
  assessed: ['type', 'id', 'assessment'],
  traceScenario: ['type', 'id', 'text', 'problem'],
  mrc: ['type', 'id', 'reference', 'problem'],
  mrcProgress: ['type', 'id', 'nowNs', 'endNs'],
  mrcPoint: ['type', 'id', 'misses', 'problem'],
  error: ['type', 'phase', 'message'],
};
const OPTIONAL: Partial<Record<FromWorker['type'], string[]>> = { ready: ['kernel'], reports: ['assessment'], checked: ['info'] };

function nonEmpty(m: Obj, key: string): unknown[] {
  const v = field(m, key);
  if (!Array.isArray(v) || v.length < 1) throw new ProtocolError(`'${key}' must be a non-empty array`);
  return v;
}

/** Check the envelope of a message the page received from the worker: a known type, its
 *  fields and no others, the protocol version, typed arrays where the frame transfers them.
 *  Throws ProtocolError. */
export function parseFromWorker(data: unknown): FromWorker {
  const m = envelope(data);
  const keys = FROM_WORKER_KEYS[m.type as FromWorker['type']];
  if (!keys || !Object.hasOwn(FROM_WORKER_KEYS, m.type)) throw new ProtocolError(`unknown message type ${describe(m.type)} from the engine worker`);
  onlyKeys(m, keys);
  for (const k of keys) {
    if (OPTIONAL[m.type as FromWorker['type']]?.includes(k)) continue;
    if (field(m, k) === undefined) throw new ProtocolError(`${what(m)} is missing '${k}'`);
  }
  switch (m.type) {
    case 'ready': {
      const protocol = num(m, 'protocol', 0, BIG, true);
      if (protocol !== PROTOCOL_VERSION) {
        throw new ProtocolError(`engine worker speaks protocol ${protocol}, the page speaks ${PROTOCOL_VERSION}`);
      }
      break;
    }
    case 'loaded':
      nonEmpty(m, 'runs');
      strings(m, 'counterNames');
      str(m, 'text');
      if (!isObj(field(m, 'file'))) throw new ProtocolError(`'file' must be an object (ScenarioInfo)`);
      break;
    case 'frame':
      num(m, 'seq', 0, BIG, true);
      num(m, 'stepMs', 0, BIG);
      for (const r of nonEmpty(m, 'runs')) {
        if (!isObj(r)) throw new ProtocolError(`each run frame must be an object, got ${describe(r)}`);
        typed(r, 'counters', Float64Array);
        typed(r, 'series', Float64Array);
        num(r, 'seriesStart', 0, BIG, true);
      }
      break;
    case 'variantReport':
    case 'reportProgress':
      str(m, 'scenario');
      str(m, 'variant');
      num(m, 'index', 0, BIG, true);
      num(m, 'count', 1, BIG, true);
      if (m.type === 'variantReport') str(m, 'report');
      else for (const k of ['nowNs', 'endNs']) num(m, k, 0, BIG);
      break;
    case 'seekProgress':
      for (const k of ['fromNs', 'toNs', 'nowNs']) num(m, k, 0, BIG);
      break;
    case 'traceScenario':
    case 'mrc':
    case 'mrcPoint': {
      num(m, 'id', 0, BIG, true);
      const answer = m.type === 'traceScenario' ? 'text' : m.type === 'mrc' ? 'reference' : 'misses';
      const p = field(m, 'problem');
      if (p !== null && typeof p !== 'string') throw new ProtocolError(`'problem' must be null or a string, got ${describe(p)}`);
      if ((field(m, answer) === null) === (p === null)) throw new ProtocolError(`${what(m)} must carry either '${answer}' or 'problem'`);
      break;
    }
    case 'mrcProgress':
      num(m, 'id', 0, BIG, true);
      for (const k of ['nowNs', 'endNs']) num(m, k, 0, BIG);
      break;
    case 'aheadProgress':
      for (const k of ['toNs', 'nowNs']) num(m, k, 0, BIG);
      if (typeof m.done !== 'boolean') throw new ProtocolError(`'done' must be true or false, got ${describe(m.done)}`);
      break;
    case 'checked': {
      const p = field(m, 'problem');
      if (p !== null && !isObj(p)) throw new ProtocolError(`'problem' must be null or an object, got ${describe(p)}`);
      break;
    }
    case 'error': {
      const phase = str(m, 'phase');
      if (phase !== 'init' && phase !== 'protocol' && phase !== 'engine' && phase !== 'scenario') {
        throw new ProtocolError(`error 'phase' must be init, protocol, engine or scenario, got ${describe(phase)}`);
      }
      str(m, 'message');
      break;
    }
  }
  return m as unknown as FromWorker;
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
    for (const a of [r.counters, r.series]) {
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
