// The engine host: everything the worker does, without the worker globals, so
// Vitest can drive it in Node against the real wasm engine.
//
// It loads the engine, answers `ready`, holds the runs of one scenario (one per
// variant, advanced in lockstep), and answers each `step` with a frame. Every
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
} from './protocol';
import type { FrameView, ScenarioInfo } from './generated/views';

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
  run_to_end_json(): string;
  free(): void;
}

export interface EngineModule {
  engineVersion(): string;
  /** JSON ScenarioInfo; throws on a bad scenario. */
  scenarioInfo(text: string): string;
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
}

export interface HostDeps {
  /** Load (instantiate) the wasm engine. */
  load(): Promise<EngineModule>;
  post(message: FromWorker, transfer?: Transferable[]): void;
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

interface Run {
  sim: EngineSimulation;
  info: RunInfo;
  seriesSent: number;
}

export class EngineHost {
  private engine: EngineModule | null = null;
  private ready: Promise<boolean> | null = null;
  private runs: Run[] = [];
  private seq = 0;

  constructor(private readonly deps: HostDeps) {}

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

  private dispatch(msg: ToWorker): void {
    switch (msg.type) {
      case 'load':
        this.load(msg.scenario, msg.variants, msg.flags ?? []);
        return;
      case 'step':
        if (this.runs.length === 0) throw new Error("no scenario loaded: send a 'load' message first");
        {
          const t0 = performance.now();
          for (const r of this.runs) if (!r.sim.finished()) r.sim.step(msg.ns);
          this.lockstep();
          this.sendFrame(performance.now() - t0);
        }
        return;
      case 'report':
        this.report(msg.scenario);
        return;
      case 'check':
        this.deps.post({ type: 'checked', id: msg.id, problem: JSON.parse(this.engine!.scenarioCheck(msg.text)) });
        return;
      case 'assess':
        if (!this.engine!.assess) throw new Error('this engine build has no assess');
        this.deps.post({ type: 'assessed', id: msg.id, assessment: this.engine!.assess(msg.text, msg.reports) });
        return;
    }
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

  /** Parse the scenario; a bad one is a `scenario` error and keeps the current runs. */
  private parse(scenario: ScenarioSource): ScenarioInfo | null {
    try {
      return JSON.parse(this.engine!.scenarioInfo(scenario.text)) as ScenarioInfo;
    } catch (err) {
      this.deps.post(encodeError('scenario', err));
      return null;
    }
  }

  private load(scenario: ScenarioSource, wanted: string[], flags: FlagOverrides[]): void {
    const info = this.parse(scenario);
    if (!info) return;
    const names = wanted.length > 0 ? wanted : info.variants.slice(0, 1).map((v) => v.name);
    const runs: Run[] = [];
    try {
      for (const [i, name] of names.entries()) {
        const variant = info.variants.find((v) => v.name === name);
        if (!variant) throw new Error(`scenario ${scenario.name} has no variant "${name}"`);
        const sim = this.engine!.create(scenario.text, name, flags[i] ?? {});
        sim.set_move_trace(MOVE_CAPACITY);
        runs.push({ sim, seriesSent: 0, info: JSON.parse(sim.run_info()) as RunInfo });
      }
    } catch (err) {
      for (const r of runs) r.sim.free();
      this.deps.post(encodeError('scenario', err));
      return;
    }
    for (const r of this.runs) r.sim.free();
    this.runs = runs;
    this.seq = 0;
    const first = runs[0]!.sim;
    this.deps.post({
      type: 'loaded',
      scenario: scenario.name,
      title: info.title,
      description: info.description,
      variants: info.variants,
      counterNames: first.counter_names(),
      runs: runs.map((r) => r.info),
      lesson: info.lesson,
    });
    this.sendFrame(0);
  }

  private report(scenario: ScenarioSource): void {
    const info = this.parse(scenario);
    if (!info) return;
    const reports: string[] = [];
    const count = info.variants.length;
    for (const [index, v] of info.variants.entries()) {
      const sim = this.engine!.create(scenario.text, v.name);
      try {
        // Stepped in slices (the result does not depend on step sizes), with a progress message
        // at most every REPORT_PROGRESS_MS of wall time, so a long scenario shows how far it is.
        const progress = () =>
          this.deps.post({ type: 'reportProgress', scenario: scenario.name, index, count, nowNs: sim.now_ns(), endNs: sim.end_ns() });
        progress();
        let last = Date.now();
        while (!sim.finished()) {
          sim.step(REPORT_SLICE_NS);
          if (Date.now() - last >= REPORT_PROGRESS_MS) {
            progress();
            last = Date.now();
          }
        }
        reports.push(sim.run_to_end_json());
      } finally {
        sim.free();
      }
    }
    // The core evaluates the expectations and the headline figures: the page only shows them.
    const assessment = this.engine!.assess ? this.engine!.assess(scenario.text, reports) : undefined;
    this.deps.post({ type: 'reports', scenario: scenario.name, reports, ...(assessment ? { assessment } : {}) });
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
}

/** The state of one run: the engine's frame view, its counters and the new series rows. */
export function frameOf(run: Run): RunFrame {
  const { sim } = run;
  const view = JSON.parse(sim.frame_view(CELLS, MOVES_PER_FRAME)) as FrameView;
  const series = sim.series_from(run.seriesSent);
  run.seriesSent = sim.series_len();
  return { ...view, counters: sim.counter_values(), series };
}
