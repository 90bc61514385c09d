// The engine host: everything the worker does, without the worker globals, so
// Vitest can drive it in Node against the real wasm engine.
//
// It loads the engine, answers `ready`, holds one simulation, advances it on
// `step` / on a timer while running, and sends snapshots. Every failure —
// loading the wasm, a malformed message, a throw or panic inside the engine —
// is sent to the page as an `error` message.
import {
  encodeError,
  encodeSnapshot,
  parseToWorker,
  PROTOCOL_VERSION,
  type FromWorker,
  type ScenarioSource,
  type ToWorker,
} from './protocol';

/** The part of the wasm facade (wasm-core/src/wasm.rs) the host uses. */
export interface EngineSimulation {
  step(ns: number): void;
  now_ns(): number;
  counter_names(): string[];
  counter_values(): Float64Array;
  free(): void;
}

export interface EngineModule {
  engineVersion(): string;
  /** A new simulation of a scenario (`new WasmSimulation()` for the built-in demo). */
  create(scenario: ScenarioSource): EngineSimulation;
}

export interface HostDeps {
  /** Load (instantiate) the wasm engine. */
  load(): Promise<EngineModule>;
  post(message: FromWorker, transfer?: Transferable[]): void;
  /** Schedule the next run tick; returns a cancel function. */
  schedule(fn: () => void, ms: number): () => void;
}

/** Real time between two run ticks (one snapshot per tick). */
export const TICK_MS = 16;

export class EngineHost {
  private engine: EngineModule | null = null;
  private ready: Promise<boolean> | null = null;
  private sim: EngineSimulation | null = null;
  private seq = 0;
  private sliceNs = 0;
  private cancelTick: (() => void) | null = null;

  constructor(private readonly deps: HostDeps) {}

  /** Load the engine and send `ready`, or an `init` error. Idempotent. */
  start(): Promise<boolean> {
    this.ready ??= this.deps.load().then(
      (engine) => {
        this.engine = engine;
        this.deps.post({ type: 'ready', protocol: PROTOCOL_VERSION, engineVersion: engine.engineVersion() });
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
      this.stopTicking();
      this.deps.post(encodeError('engine', err));
    }
  }

  get running(): boolean {
    return this.cancelTick !== null;
  }

  private dispatch(msg: ToWorker): void {
    switch (msg.type) {
      case 'load': {
        this.stopTicking();
        this.sim?.free();
        this.sim = null;
        const sim = this.engine!.create(msg.scenario);
        this.sim = sim;
        this.seq = 0;
        this.deps.post({ type: 'loaded', scenario: msg.scenario.name, counterNames: sim.counter_names() });
        this.sendSnapshot();
        return;
      }
      case 'run':
        this.requireSim();
        this.sliceNs = msg.sliceNs;
        if (!this.running) this.scheduleTick();
        this.sendSnapshot();
        return;
      case 'pause':
        this.stopTicking();
        if (this.sim) this.sendSnapshot();
        return;
      case 'step':
        this.requireSim().step(msg.ns);
        this.sendSnapshot();
        return;
    }
  }

  private requireSim(): EngineSimulation {
    if (!this.sim) throw new Error("no scenario loaded: send a 'load' message first");
    return this.sim;
  }

  private scheduleTick(): void {
    this.cancelTick = this.deps.schedule(() => this.tick(), TICK_MS);
  }

  private stopTicking(): void {
    this.cancelTick?.();
    this.cancelTick = null;
  }

  private tick(): void {
    if (!this.sim || !this.cancelTick) return;
    try {
      this.sim.step(this.sliceNs);
      this.scheduleTick();
      this.sendSnapshot();
    } catch (err) {
      this.stopTicking();
      this.deps.post(encodeError('engine', err));
    }
  }

  private sendSnapshot(): void {
    const sim = this.requireSim();
    const out = encodeSnapshot(this.seq++, sim.now_ns(), this.running, sim.counter_values());
    this.deps.post(out.message, out.transfer);
  }
}
