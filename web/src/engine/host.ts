// The engine host: everything the worker does, without the worker globals, so
// Vitest can drive it in Node against the real wasm engine.
//
// It loads the engine, answers `ready`, holds the runs of one scenario (one per
// variant, advanced in lockstep; or its share of them, when the page splits them over two
// workers: split.ts), and answers each `step` with a frame. Every
// failure — loading the wasm, a malformed message, a bad scenario, a throw or
// panic inside the engine — is sent to the page as an `error` message.
import {
  encodeError,
  encodeFrame,
  parseToWorker,
  PROTOCOL_VERSION,
  type FlagOverrides,
  type FromWorker,
  type KernelInfo,
  type RunFrame,
  type RunInfo,
  type ScenarioSource,
  type ToWorker,
  type TraceBytes,
  type TraceFormat,
} from './protocol';
import { CheckpointStore, type Checkpoint } from './checkpoints';
import type { FrameView, MrcReference, ScenarioInfo, ScenarioProblem } from './generated/views';
import { stepTo, stepToward } from './stepTo';

/** The part of the wasm facade (wasm-core/wasm/src/lib.rs) the host uses. The views are the
 *  engine's JSON of the generated types (generated/views.ts). */
export interface EngineSimulation {
  step(ns: number): void;
  now_ns(): number;
  end_ns(): number;
  finished(): boolean;
  counter_names(): string[];
  /** Counter values in `counter_names` order. */
  counter_values(): Float64Array;
  /** The run's constants, JSON RunInfo. */
  run_info(): string;
  /** The run's state now, JSON FrameView: about `cells` LRU cells per full strip, the moves
   *  since the last call sampled down to `maxMoves`. */
  frame_view(cells: number, maxMoves: number): string;
  series_len(): number;
  /** Rows `from..` of the time series, SERIES_COLUMNS values each. */
  series_from(from: number): Float64Array;
  set_move_trace(capacity: number): void;
  /** Drop the moves recorded since the last frame (a seek's way is no animation). */
  discard_moves(): void;
  /** A checkpoint: an independent copy of the run as it is now (clone of the simulation). */
  snapshot?(): EngineSimulation;
  /** Bytes a snapshot holds on the wasm heap (0 for a run built from a scenario). */
  snapshot_bytes?(): number;
  run_to_end_json(): string;
  /** A finished miss-ratio point's misses: task `task`'s, which must have made all `requests`
   *  of its trace; throws naming how far it got otherwise. */
  mrc_misses?(task: string, requests: number): number;
  free(): void;
}

export interface EngineModule {
  engineVersion(): string;
  /** JSON ScenarioInfo; throws on a bad scenario. */
  scenarioInfo(text: string): string;
  /** The text a setup (JSON Setup: knobs, a swappiness pair) resolves to; throws an Error
   *  naming what is wrong. */
  resolve(text: string, setup: string): string;
  /** A new simulation of `variant` of the scenario text, with flag overrides on top of the
   *  variant; throws on a bad scenario or an unknown flag. */
  create(text: string, variant: string, flags?: FlagOverrides): EngineSimulation;
  /** JSON KernelInfo: every flag with its version and doc, every preset's values. */
  kernelInfo?(): string;
  /** JSON null for valid scenario text, else {line, column, field, message}; never throws. */
  scenarioCheck(text: string): string;
  /** JSON Assessment (headline rows, expectation verdicts) of the reports; throws on bad input. */
  assess?(text: string, reports: string[]): string;
  /** The message of the panic behind the last `RuntimeError: unreachable`, or "" (wasm.rs). */
  lastPanic?(): string;
  /** Set the traces supplied aside, then supply these: the engine copies their bytes into its
   *  memory. One it refuses (over its budget) puts the set aside back, and throws. */
  setTraces?(traces: TraceBytes[]): void;
  /** Forget the traces supplied and any set aside (their bytes are freed once no run holds them). */
  clearTraces?(): void;
  /** Put back the traces set aside by the last `setTraces` (a load refused after them). */
  restoreTraces?(): void;
  /** Let go of the traces set aside by the last `setTraces` (the runs built from them hold
   *  their own share until they are freed). */
  keepTraces?(): void;
  /** The scenario that replays trace `name` (supplied) in `format`; throws naming a bad record. */
  traceScenario?(name: string, format: TraceFormat): string;
  /** JSON MrcReference of the scenario at `points` sizes; throws on a scenario without one replay. */
  mrcReference?(text: string, points: number): string;
  /** A kernel point of the scenario's curve: `variant` with the replaying task held to `pages`. */
  createMrcPoint?(text: string, variant: string, pages: number): EngineSimulation;
}

export interface HostDeps {
  /** Load (instantiate) the wasm engine. */
  load(): Promise<EngineModule>;
  post(message: FromWorker, transfer?: Transferable[]): void;
  /** The seek checkpoints' budget and spacing (checkpoints.ts; defaults there). */
  checkpoints?: { budgetBytes?: number; spacingMs?: number };
  /** Let other messages in between two slices of background work (default: a macrotask). */
  yieldNow?(): Promise<void>;
  /** The clock (ms) that times engine work for the checkpoints' spacing and the background
   *  slices (default: performance.now). Tests pass one the engine's work drives, so that
   *  where checkpoints fall does not depend on how busy the machine is. */
  clock?(): number;
}

/** Cells per LRU strip when one list holds all of memory: a bucket is frames / CELLS frames. */
export const CELLS = 1024;
/** A `report` steps its runs this much virtual time at a time, and says how far it is at most
 *  this often (wall time). */
export const REPORT_SLICE_NS = 50_000_000;
export const REPORT_PROGRESS_MS = 250;
/** Page moves recorded per step (the rest are counted, not kept). */
export const MOVE_CAPACITY = 4096;
/** Page moves sent per run per frame (sampled evenly from those recorded). */
export const MOVES_PER_FRAME = 160;
/** A seek says how far it is at most this often (wall ms). */
export const SEEK_PROGRESS_MS = 100;
/** Background work (`ahead`) runs in slices of about this much wall time between messages. */
export const AHEAD_SLICE_MS = 40;

interface Run {
  sim: EngineSimulation;
  info: RunInfo;
  seriesSent: number;
}

/** Runs on their way to a virtual time: the live runs during a seek, or copies of them that
 *  compute ahead. `workMs`: engine work from t=0 along their timeline (checkpoints.ts). */
interface Timeline {
  sims: EngineSimulation[];
  workMs: number;
  /** Virtual ns per ms of work lately, to size the next chunk (0: not known yet). */
  rate: number;
}

/** Background work towards `toNs` on copies of the runs (`ahead`). */
interface AheadJob extends Timeline {
  toNs: number;
}

/** The runs' virtual time: the latest of them (runs in lockstep; a finished one stays at its end). */
function timeOf(sims: EngineSimulation[]): number {
  return Math.max(...sims.map((s) => s.now_ns()));
}

/** The time of the run furthest behind that can still go on (a background slice may stop the
 *  runs of a timeline at different times); the runs' time when all have finished. */
function lagOf(sims: EngineSimulation[]): number {
  const going = sims.filter((s) => !s.finished());
  return going.length > 0 ? Math.min(...going.map((s) => s.now_ns())) : timeOf(sims);
}
export class EngineHost {
  private engine: EngineModule | null = null;
  private ready: Promise<boolean> | null = null;
  // The traces live in the engine's memory only (one copy, shared by the runs, checkpoints and
  // the set a load puts aside): the host keeps no bytes of them, so that a message's copy is
  // garbage once handled. A refused load puts the engine's previous set back (restoreTraces).
  private runs: Run[] = [];
  private seq = 0;
  /** What the runs were built from, to build them again at t=0 (a seek before every checkpoint). */
  private built: { text: string; names: string[]; flags: FlagOverrides[]; mrcPages?: number } | null = null;
  /** Engine work (wall ms) of the live runs from t=0, and their virtual ns per ms lately. */
  private live: Timeline = { sims: [], workMs: 0, rate: 0 };
  /** Lesson step times: checkpoints there are pinned, and play stops there to take them. */
  private pins: number[] = [];
  private readonly checkpoints: CheckpointStore<EngineSimulation>;
  private ahead: AheadJob | null = null;

  constructor(private readonly deps: HostDeps) {
    this.checkpoints = new CheckpointStore(deps.checkpoints?.budgetBytes, deps.checkpoints?.spacingMs);
  }

  /** Load the engine and send `ready`, or an `init` error. Idempotent. */
  start(): Promise<boolean> {
    this.ready ??= this.deps.load().then(
      (engine) => {
        this.engine = engine;
        const ready: Extract<FromWorker, { type: 'ready' }> = { type: 'ready', protocol: PROTOCOL_VERSION, engineVersion: engine.engineVersion() };
        if (engine.kernelInfo) ready.kernel = JSON.parse(engine.kernelInfo()) as KernelInfo;
        this.deps.post(ready);
        return true;
      },
      (err: unknown) => {
        this.deps.post(encodeError('init', err));
        return false;
      },
    );
    return this.ready;
  }

  /** Handle one message from the page (anything: it is validated here). */
  async handle(data: unknown): Promise<void> {
    let msg: ToWorker;
    try {
      msg = parseToWorker(data);
    } catch (err) {
      this.deps.post(encodeError('protocol', err));
      return;
    }
    if (!(await this.start())) return; // the init error was already reported
    try {
      this.dispatch(msg);
    } catch (err) {
      // A panic aborts the wasm call ("unreachable"): say what the engine said instead, and
      // drop the runs, whose state the abort left half-updated.
      const panic = this.engine?.lastPanic?.() ?? '';
      if (panic) {
        this.runs = [];
        this.deps.post({ type: 'error', phase: 'engine', message: `the engine stopped on an internal error (${panic})` });
      } else this.deps.post(encodeError('engine', err));
    }
  }

  get runCount(): number {
    return this.runs.length;
  }

  /** The checkpoints held: their times, bytes and the budget (tests, bench). */
  get checkpointStats(): { times: number[]; bytes: number; budgetBytes: number; evicted: number; copyMs: number } {
    const c = this.checkpoints;
    return { times: c.times(), bytes: c.bytes, budgetBytes: c.budgetBytes, evicted: c.evicted, copyMs: c.copyMs };
  }

  /** Resolves when no background work is under way (tests). */
  async aheadSettled(): Promise<void> {
    while (this.ahead) await this.yieldNow();
  }

  private dispatch(msg: ToWorker): void {
    // A load supplies its traces itself, so that a refused load leaves the running runs theirs.
    if ('scenario' in msg && msg.scenario.traces && msg.type !== 'load') this.supply(msg.scenario.traces);
    switch (msg.type) {
      case 'load':
        this.load(msg.scenario, msg.variants, msg.flags ?? [], msg.runs);
        return;
      case 'step':
        if (this.runs.length === 0) throw new Error("no scenario loaded: send a 'load' message first");
        {
          const t0 = this.now();
          this.stepLive(msg.ns);
          const stepMs = this.now() - t0;
          this.live.workMs += stepMs;
          this.checkpoint(this.live, false);
          this.sendFrame(stepMs);
        }
        return;
      case 'seek':
        if (this.runs.length === 0) throw new Error("no scenario loaded: send a 'load' message first");
        this.seek(msg.ns);
        return;
      case 'ahead':
        if (this.runs.length === 0) throw new Error("no scenario loaded: send a 'load' message first");
        this.startAhead(msg.ns);
        return;
      case 'report':
        this.report(msg.scenario, msg.index);
        return;
      case 'check':
        this.check(msg.id, msg.text, msg.setup);
        return;
      case 'assess':
        if (!this.engine!.assess) throw new Error('this engine build has no assess');
        this.deps.post({ type: 'assessed', id: msg.id, assessment: this.engine!.assess(this.resolve(msg.scenario), msg.reports) });
        return;
      case 'traceScenario':
        this.answer(msg.id, 'traceScenario', 'text', () => {
          this.supply([msg.trace]);
          return this.need(this.engine!.traceScenario)(msg.trace.name, msg.format);
        });
        return;
      case 'mrc':
        this.answer(msg.id, 'mrc', 'reference', () => JSON.parse(this.need(this.engine!.mrcReference)(this.resolve(msg.scenario), msg.points)) as MrcReference);
        return;
      case 'mrcPoint':
        this.answer(msg.id, 'mrcPoint', 'misses', () => this.mrcPoint(msg));
        return;
    }
  }

  /** Supply the traces a message carries to the engine (each message that names a scenario
   *  with traces brings them: a results worker holds none of its own). */
  private supply(traces: TraceBytes[]): void {
    // Nothing here needs the engine's previous set back (a load keeps it aside itself): let it go
    // before the new one is copied in, so that the engine never holds two sets at once.
    this.engine!.clearTraces?.();
    this.need(this.engine!.setTraces)(traces);
    this.engine!.keepTraces?.();
  }

  private need<F>(f: F | undefined): F {
    if (!f) throw new Error('this engine build cannot replay traces');
    return f;
  }

  /** Answer a request with its result, or with the engine's reason for none (a bad trace
   *  record, a scenario without a replay): the page shows it beside what asked. A panic is
   *  still an engine error (handle()). */
  private answer<K extends 'traceScenario' | 'mrc' | 'mrcPoint'>(id: number, type: K, key: string, work: () => unknown): void {
    let out: unknown;
    try {
      out = work();
    } catch (err) {
      const panic = this.engine?.lastPanic?.() ?? '';
      if (panic) throw new Error(`the engine stopped on an internal error (${panic})`);
      this.deps.post({ type, id, [key]: null, problem: err instanceof Error ? err.message : String(err) } as unknown as FromWorker);
      return;
    }
    this.deps.post({ type, id, [key]: out, problem: null } as unknown as FromWorker);
  }

  /** A simulation of `variant`: the scenario as it is, or its miss-ratio point of `mrcPages`. */
  private build(text: string, variant: string, flags: FlagOverrides, mrcPages?: number): EngineSimulation {
    if (mrcPages === undefined) return this.engine!.create(text, variant, flags);
    if (Object.keys(flags).length > 0) throw new Error('flag overrides do not apply to a miss-ratio point (it runs the variant as written)');
    return this.need(this.engine!.createMrcPoint)(text, variant, mrcPages);
  }

  /** One kernel point of a curve, run to its end in slices with progress: its misses. */
  private mrcPoint(msg: Extract<ToWorker, { type: 'mrcPoint' }>): number {
    const sim = this.build(this.resolve(msg.scenario), msg.variant, {}, msg.pages);
    try {
      runInSlices(sim, () => this.deps.post({ type: 'mrcProgress', id: msg.id, nowNs: sim.now_ns(), endNs: sim.end_ns() }));
      return this.need(sim.mrc_misses?.bind(sim))(msg.task, msg.requests);
    } finally {
      sim.free();
    }
  }

  /** Play's step: `ns` further, bounded work per run. A lesson step's time on the way is
   *  stopped at first and kept as a pinned checkpoint (results do not depend on where a run
   *  stops: the engine stops between instants only). */
  private stepLive(ns: number): void {
    const now = timeOf(this.live.sims);
    const pin = this.pins.find((t) => t > now && t <= now + ns && !this.checkpoints.has(t));
    if (pin !== undefined && this.runs.some((r) => r.sim.snapshot)) {
      for (const r of this.runs) stepTo(r.sim, pin);
      this.checkpoint(this.live, true);
      ns -= pin - now;
    }
    if (ns > 0) for (const r of this.runs) if (!r.sim.finished()) r.sim.step(ns);
    this.lockstep();
  }

  /** A step does bounded work, so a busy run may stop short of the others: bring the runs
   *  that lag to the time of the one ahead (a bounded number of further steps). */
  private lockstep(): void {
    for (let k = 0; k < 64; k++) {
      const live = this.runs.filter((r) => !r.sim.finished());
      const ahead = Math.max(...live.map((r) => r.sim.now_ns()));
      const behind = live.filter((r) => r.sim.now_ns() < ahead);
      if (behind.length === 0) return;
      for (const r of behind) r.sim.step(ahead - r.sim.now_ns());
    }
  }

  /** The text the scenario's setup resolves to (the engine applies the knobs and the pair);
   *  throws what the engine refuses. The last one is kept: load, report and assess ask again. */
  private resolved: { text: string; setup: string; out: string } | null = null;
  private resolve(scenario: ScenarioSource): string {
    if (!scenario.setup) return scenario.text;
    const setup = JSON.stringify(scenario.setup);
    const r = this.resolved;
    if (r && r.text === scenario.text && r.setup === setup) return r.out;
    const out = this.engine!.resolve(scenario.text, setup);
    this.resolved = { text: scenario.text, setup, out };
    return out;
  }

  /** The editor's or a link's check: the text, resolved by its setup, through the parser. */
  private check(id: number, text: string, setup?: ScenarioSource['setup']): void {
    let resolved: string;
    try {
      resolved = this.resolve({ name: '', text, ...(setup ? { setup } : {}) });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.deps.post({ type: 'checked', id, problem: { line: 0, column: 0, field: '', message } });
      return;
    }
    const problem = JSON.parse(this.engine!.scenarioCheck(resolved)) as ScenarioProblem | null;
    const info = problem ? undefined : (JSON.parse(this.engine!.scenarioInfo(text)) as ScenarioInfo);
    this.deps.post({ type: 'checked', id, problem, ...(info ? { info } : {}) });
  }

  /** Parse the scenario as its setup resolves it: the text run, its info, and the file's own
   *  info; a bad one is a `scenario` error and keeps the current runs. */
  private parse(scenario: ScenarioSource): { text: string; info: ScenarioInfo; file: ScenarioInfo } | null {
    try {
      const text = this.resolve(scenario);
      const info = JSON.parse(this.engine!.scenarioInfo(text)) as ScenarioInfo;
      const file = text === scenario.text ? info : (JSON.parse(this.engine!.scenarioInfo(scenario.text)) as ScenarioInfo);
      return { text, info, file };
    } catch (err) {
      this.deps.post(encodeError('scenario', err));
      return null;
    }
  }

  /** `held`: the indices of the runs named this worker keeps (all when absent); the others are
   *  built too, so that a load is refused here exactly when another worker's share is. */
  private load(scenario: ScenarioSource, wanted: string[], allFlags: FlagOverrides[], held?: number[]): void {
    // The load's traces replace the engine's only if the load is taken: the runs shown meanwhile
    // (and their seeks, which build them again) keep the traces they replay, which the engine
    // set aside (refused traces put them back by themselves).
    const restore = () => scenario.traces && this.engine!.restoreTraces?.();
    if (scenario.traces) {
      try {
        this.need(this.engine!.setTraces)(scenario.traces);
      } catch (err) {
        this.deps.post(encodeError('scenario', err));
        return;
      }
    }
    const parsed = this.parse(scenario);
    if (!parsed) {
      restore();
      return;
    }
    const { text, info, file } = parsed;
    // No variants named: the first, or both of a swappiness pair (named by the engine).
    const allNames = wanted.length > 0 ? wanted : info.variants.slice(0, scenario.setup?.pair ? 2 : 1).map((v) => v.name);
    const keep = held ?? allNames.map((_, i) => i);
    const runs: Run[] = [];
    try {
      if (keep.some((i) => i >= allNames.length)) throw new Error(`this load names ${allNames.length} run(s): there is no run ${Math.max(...keep) + 1} to hold`);
      for (const [i, name] of allNames.entries()) {
        const variant = info.variants.find((v) => v.name === name);
        if (!variant) throw new Error(`scenario ${scenario.name} has no variant "${name}"`);
        const sim = this.build(text, name, allFlags[i] ?? {}, scenario.mrcPages);
        if (!keep.includes(i)) {
          sim.free();
          continue;
        }
        sim.set_move_trace(MOVE_CAPACITY);
        runs.push({ sim, seriesSent: 0, info: JSON.parse(sim.run_info()) as RunInfo });
      }
    } catch (err) {
      for (const r of runs) r.sim.free();
      restore();
      this.deps.post(encodeError('scenario', err));
      return;
    }
    if (scenario.traces) this.engine!.keepTraces?.();
    const names = keep.map((i) => allNames[i]!);
    const flags = keep.map((i) => allFlags[i] ?? {});
    this.stopAhead();
    this.checkpoints.clear();
    // The checkpoints' budget is the page's: a worker holding part of the runs gets that share.
    this.checkpoints.share(keep.length / allNames.length);
    for (const r of this.runs) r.sim.free();
    this.runs = runs;
    this.seq = 0;
    this.built = { text, names, flags, ...(scenario.mrcPages !== undefined ? { mrcPages: scenario.mrcPages } : {}) };
    this.live = { sims: runs.map((r) => r.sim), workMs: 0, rate: 0 };
    this.pins = info.lesson.map((st) => st.atNs);
    const first = runs[0]!.sim;
    this.deps.post({
      type: 'loaded',
      scenario: scenario.name,
      title: info.title,
      description: info.description,
      variants: info.variants,
      text,
      file,
      counterNames: first.counter_names(),
      runs: runs.map((r) => r.info),
      lesson: info.lesson,
    });
    this.sendFrame(0);
  }

  /** Every variant to the end, one after the other (`reports`), or only variant `only`
   *  (`variantReport`: the page's pool of results workers runs the variants side by side). */
  private report(scenario: ScenarioSource, only?: number): void {
    const parsed = this.parse(scenario);
    if (!parsed) return;
    const { text, info } = parsed;
    const count = info.variants.length;
    if (only !== undefined) {
      const v = info.variants[only];
      if (!v) throw new Error(`scenario ${scenario.name} has no variant ${only + 1} (it has ${count})`);
      const report = this.runToEnd(scenario, text, v.name, only, count);
      this.deps.post({ type: 'variantReport', scenario: scenario.name, index: only, count, variant: v.name, report });
      return;
    }
    const reports = info.variants.map((v, index) => this.runToEnd(scenario, text, v.name, index, count));
    // The core evaluates the expectations and the headline figures: the page only shows them.
    const assessment = this.engine!.assess ? this.engine!.assess(text, reports) : undefined;
    this.deps.post({ type: 'reports', scenario: scenario.name, reports, ...(assessment ? { assessment } : {}) });
  }

  /** Variant `variant` (`index` of `count`) in a fresh simulation to its end: its RunReport JSON. */
  private runToEnd(scenario: ScenarioSource, text: string, variant: string, index: number, count: number): string {
    const name = scenario.name;
    const sim = this.build(text, variant, {}, scenario.mrcPages);
    try {
      // Stepped in slices (the result does not depend on step sizes), with a progress message
      // at most every REPORT_PROGRESS_MS of wall time, so a long scenario shows how far it is.
      runInSlices(sim, () =>
        this.deps.post({ type: 'reportProgress', scenario: name, index, count, variant, nowNs: sim.now_ns(), endNs: sim.end_ns() }),
      );
      return sim.run_to_end_json();
    } finally {
      sim.free();
    }
  }

  /** `stepMs`: wall time spent advancing the runs for this frame (not building it). */
  private sendFrame(stepMs: number): void {
    const out = encodeFrame(
      this.seq++,
      stepMs,
      this.runs.map((r) => frameOf(r)),
    );
    this.deps.post(out.message, out.transfer);
  }

  // ------------------------------------------------------------------ seeking, checkpoints

  private now(): number {
    return this.deps.clock ? this.deps.clock() : performance.now();
  }

  private yieldNow(): Promise<void> {
    return this.deps.yieldNow ? this.deps.yieldNow() : new Promise((resolve) => setTimeout(resolve, 0));
  }

  /** Keep a checkpoint of `line` where it is, when one is due there (or `pinned`: a lesson
   *  step's time). Only runs in lockstep (every live run at the same time) are kept. */
  private checkpoint(line: Timeline, pinned: boolean): void {
    const sims = line.sims;
    if (!sims.every((s) => s.snapshot && s.snapshot_bytes)) return;
    const ns = timeOf(sims);
    if (ns === 0 || !sims.every((s) => s.finished() || s.now_ns() === ns)) return;
    if (pinned ? this.checkpoints.has(ns) : !this.checkpoints.due(ns, line.workMs)) return;
    const t0 = this.now();
    const runs = sims.map((s) => s.snapshot!());
    this.checkpoints.copyMs = this.now() - t0;
    const bytes = runs.reduce((b, r) => b + r.snapshot_bytes!(), 0);
    this.checkpoints.add({ ns, workMs: line.workMs, runs, bytes, pinned });
  }

  /** Step `line` towards `toNs` for about `sliceMs` of wall time (Infinity: until there), in
   *  chunks of virtual time sized by its rate so that a due checkpoint is taken between them
   *  and lesson step times are stopped at (pinned). Returns whether it got there (or every
   *  run finished). */
  private advance(line: Timeline, toNs: number, sliceMs: number): boolean {
    const t0 = this.now();
    for (;;) {
      const now = lagOf(line.sims);
      if (now >= toNs || line.sims.every((s) => s.finished())) return true;
      if (this.now() - t0 >= sliceMs) return false;
      const chunkMs = Math.min(sliceMs, this.checkpoints.spacingMs) / 2;
      const chunk = line.rate > 0 ? Math.max(1_000_000, Math.round(line.rate * chunkMs)) : 10_000_000;
      const pin = this.pins.find((t) => t > now && t <= toNs);
      const stop = Math.min(toNs, now + chunk, pin ?? Infinity);
      // The rate is a guess from the work just done (a quiet stretch of a run can cover virtual
      // time hundreds of times faster than the reclaim that follows): a chunk that outlasts
      // the slice stops there, after the engine's current step (bounded work), and no later.
      const c0 = this.now();
      for (const s of line.sims) stepToward(s, stop, () => this.now() - t0 >= sliceMs);
      const ms = this.now() - c0;
      line.workMs += ms;
      line.rate = (lagOf(line.sims) - now) / Math.max(ms, 0.1);
      this.checkpoint(line, stop === pin);
    }
  }

  /** Where to replay to `toNs` from: the live runs, the background copies or a checkpoint,
   *  whichever is latest at or before it (null: only a new run at t=0 is). */
  private sourceFor(toNs: number): { kind: 'live' | 'ahead'; line: Timeline } | { kind: 'checkpoint'; cp: Checkpoint<EngineSimulation> } | null {
    const liveNs = timeOf(this.live.sims);
    const cp = this.checkpoints.atOrBefore(toNs);
    const aheadNs = this.ahead ? timeOf(this.ahead.sims) : -1;
    let best: { kind: 'live' | 'ahead'; line: Timeline } | { kind: 'checkpoint'; cp: Checkpoint<EngineSimulation> } | null = null;
    let bestNs = -1;
    if (liveNs <= toNs) [best, bestNs] = [{ kind: 'live', line: this.live }, liveNs];
    if (this.ahead && aheadNs <= toNs && aheadNs > bestNs) [best, bestNs] = [{ kind: 'ahead', line: this.ahead }, aheadNs];
    if (cp && cp.ns > bestNs) best = { kind: 'checkpoint', cp };
    return best;
  }

  /** New copies of the runs at a checkpoint, or built afresh at t=0 (null). */
  private restore(cp: Checkpoint<EngineSimulation> | null): Timeline {
    if (cp) return { sims: cp.runs.map((s) => s.snapshot!()), workMs: cp.workMs, rate: this.live.rate };
    const b = this.built!;
    const sims = b.names.map((name, i) => {
      const sim = this.build(b.text, name, b.flags[i] ?? {}, b.mrcPages);
      sim.set_move_trace(MOVE_CAPACITY);
      return sim;
    });
    return { sims, workMs: 0, rate: this.live.rate };
  }

  /** Make `line` the live runs (freeing the ones it replaces). */
  private adopt(line: Timeline): void {
    if (line === this.live) return;
    for (const r of this.runs) if (!line.sims.includes(r.sim)) r.sim.free();
    this.runs.forEach((r, i) => (r.sim = line.sims[i]!));
    this.live = line;
  }

  /** `seek`: the runs at `toNs`, from the latest state at or before it; progress while it
   *  replays, then a frame. */
  private seek(toNs: number): void {
    const src = this.sourceFor(toNs);
    let line: Timeline;
    if (src?.kind === 'ahead') {
      line = src.line; // the background copies become the runs
      this.ahead = null;
    } else if (src?.kind === 'live') line = this.live;
    else line = this.restore(src?.kind === 'checkpoint' ? src.cp : null);
    this.adopt(line);
    const fromNs = lagOf(line.sims);
    const progress = () => this.deps.post({ type: 'seekProgress', fromNs, toNs, nowNs: lagOf(line.sims) });
    progress();
    while (!this.advance(line, toNs, SEEK_PROGRESS_MS)) progress();
    // Moves recorded on the way are not a frame's worth of animation: drop them.
    for (const s of line.sims) s.discard_moves();
    this.sendFrame(0);
  }

  /** `ahead`: compute the state at `toNs` on copies, in slices between messages. */
  private startAhead(toNs: number | null): void {
    if (toNs === null || !this.runs.every((r) => r.sim.snapshot)) return this.stopAhead();
    if (this.ahead?.toNs === toNs) return;
    const at = this.checkpoints.atOrBefore(toNs);
    if (at?.ns === toNs || timeOf(this.live.sims) >= toNs) {
      this.stopAhead();
      this.deps.post({ type: 'aheadProgress', toNs, nowNs: toNs, done: true });
      return;
    }
    // Keep the copies on their way if they are still before the new goal.
    if (this.ahead && timeOf(this.ahead.sims) <= toNs) {
      this.ahead.toNs = toNs;
      return;
    }
    this.stopAhead();
    const src = this.sourceFor(toNs);
    const line: Timeline =
      src?.kind === 'live' ? { sims: this.live.sims.map((s) => s.snapshot!()), workMs: this.live.workMs, rate: this.live.rate } : this.restore(src?.kind === 'checkpoint' ? src.cp : null);
    const job: AheadJob = { ...line, toNs };
    this.ahead = job;
    void this.runAhead(job);
  }

  private async runAhead(job: AheadJob): Promise<void> {
    let last = this.now();
    for (;;) {
      await this.yieldNow();
      if (this.ahead !== job) return; // stopped, replaced, or taken over by a seek
      let done: boolean;
      try {
        done = this.advance(job, job.toNs, AHEAD_SLICE_MS);
      } catch (err) {
        this.stopAhead();
        this.deps.post(encodeError('engine', err));
        return;
      }
      if (done) {
        this.checkpoint(job, true);
        this.ahead = null;
        this.deps.post({ type: 'aheadProgress', toNs: job.toNs, nowNs: timeOf(job.sims), done: true });
        for (const s of job.sims) s.free();
        return;
      }
      if (this.now() - last >= REPORT_PROGRESS_MS) {
        last = this.now();
        this.deps.post({ type: 'aheadProgress', toNs: job.toNs, nowNs: lagOf(job.sims), done: false });
      }
    }
  }

  private stopAhead(): void {
    const job = this.ahead;
    this.ahead = null;
    if (job) for (const s of job.sims) s.free();
  }
}

/** The state of one run: the engine's frame view, its counters and the new series rows. */
export function frameOf(run: Run): RunFrame {
  const { sim } = run;
  const view = JSON.parse(sim.frame_view(CELLS, MOVES_PER_FRAME)) as FrameView;
  // After a seek back the run has fewer rows than the page holds: it keeps the common ones.
  const seriesStart = Math.min(run.seriesSent, sim.series_len());
  const series = sim.series_from(seriesStart);
  run.seriesSent = sim.series_len();
  return { ...view, counters: sim.counter_values(), series, seriesStart };
}

/** Run `sim` to its end in slices of REPORT_SLICE_NS (the result does not depend on step
 *  sizes), calling `progress` at the start and at most every REPORT_PROGRESS_MS of wall time. */
function runInSlices(sim: EngineSimulation, progress: () => void): void {
  progress();
  let last = Date.now();
  while (!sim.finished()) {
    sim.step(REPORT_SLICE_NS);
    if (Date.now() - last >= REPORT_PROGRESS_MS) {
      progress();
      last = Date.now();
    }
  }
}
