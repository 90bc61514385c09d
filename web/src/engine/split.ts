// The live runs over two engine workers: with two cores or more, a comparison's runs are split
// by variant between two workers, each its own wasm module instance, so that their seeks and
// background (`ahead`) computations run in parallel (issue #44, item 7). To the page this is
// one engine: it sends the messages it sends one worker, and gets back one stream of answers,
// each worker's frames merged into one frame per request, in run order.
//
// How the answers are put together:
// - One request that the workers answer with frames (`load`, `step`, `seek`) is under way at a
//   time; what the page sends meanwhile (it pulls: little) is held and sent in order after it.
//   So each worker's answers belong to that request alone: a load's `loaded` and first frame,
//   a step's or a seek's frame.
// - `load` goes to every worker the runs need, each told which runs it holds (`runs`); every
//   worker builds all of them, so a load is refused by all or none: worker 0's word decides,
//   the others' refusals are the same and not repeated.
// - A step does bounded work, so one worker's runs may stop short of the other's: the worker
//   behind is stepped to the time of the one ahead (as one worker does with its runs), and its
//   two frames are merged into one (the series rows of both, the later view).
// - Progress of a seek or of the background computation (`ahead`): the least advanced worker's.
// - `report`, `check`, `assess` and the trace requests go to worker 0 only; a message of any
//   other type is an error (onError), not dropped.
import { startEngineWorker, type EngineClient, type EngineClientHandlers } from './client';
import { MAX_STEP_NS, type FromWorker, type RunFrame, type ToWorker } from './protocol';
import { SERIES_WIDTH } from './series';

type Msg = Exclude<FromWorker, { type: 'error' }>;
type Loaded = Extract<Msg, { type: 'loaded' }>;
type Frame = Extract<Msg, { type: 'frame' }>;
type Load = Extract<ToWorker, { type: 'load' }>;

/** How many workers hold the live runs: two with two cores or more, else one. */
export function livePartsFor(cores: number | undefined = typeof navigator === 'undefined' ? undefined : navigator.hardwareConcurrency): number {
  return (cores ?? 1) >= 2 ? 2 : 1;
}

/** The number of runs a load names (as the host counts them: none named is the first variant,
 *  or both of a swappiness pair). */
export const runCount = (m: Load): number => (m.variants.length > 0 ? m.variants.length : m.scenario.setup?.pair ? 2 : 1);

/** Run indices of each of `parts` workers for `n` runs: contiguous, in order. */
export function shares(n: number, parts: number): number[][] {
  const out: number[][] = Array.from({ length: Math.min(parts, n) }, () => []);
  for (let i = 0; i < n; i++) out[Math.floor((i * out.length) / n)]!.push(i);
  return out;
}

/** Merge `next` into `prev`, two frames of the same runs in a row (a catch-up step): the later
 *  view and counters, the series rows of both. */
export function absorb(prev: Frame, next: Frame): Frame {
  const runs = next.runs.map((r, i): RunFrame => {
    const p = prev.runs[i]!;
    // Rows `p` sent that `r` does not count as held (none after a plain step) are dropped.
    const keepRows = Math.max(0, Math.min(p.series.length / SERIES_WIDTH, r.seriesStart - p.seriesStart));
    const series = new Float64Array(keepRows * SERIES_WIDTH + r.series.length);
    series.set(p.series.subarray(0, keepRows * SERIES_WIDTH));
    series.set(r.series, keepRows * SERIES_WIDTH);
    return { ...r, series, seriesStart: Math.min(p.seriesStart, r.seriesStart) };
  });
  return { ...next, stepMs: prev.stepMs + next.stepMs, runs };
}

/** The catch-up rounds at most per frame (the host's lockstep bound). */
const CATCH_UP_ROUNDS = 64;

interface Part {
  client: EngineClient;
}

/** The request under way: the workers asked, the answers each still owes (a load: loaded and a
 *  frame; a step, a seek or a catch-up step: a frame) and those in so far. */
interface Request {
  msg: ToWorker;
  parts: number;
  owed: number[];
  loaded: (Loaded | null)[];
  frames: (Frame | null)[];
  /** Why workers refused it, by worker (worker 0's reason was passed on). */
  refused: (string | null)[];
  rounds: number;
}

export class SplitEngine implements EngineClient {
  private parts: (Part | null)[] = [];
  /** Workers holding the current runs. */
  private active = 1;
  private request: Request | null = null;
  private held: ToWorker[] = [];
  private seq = 0;
  private seek: (Extract<Msg, { type: 'seekProgress' }> | null)[] = [];
  private ahead: { toNs: number | null; of: (Extract<Msg, { type: 'aheadProgress' }> | null)[] } = { toNs: null, of: [] };
  private disposed = false;

  constructor(
    private readonly handlers: EngineClientHandlers,
    private readonly maxParts: number,
    private readonly start: (handlers: EngineClientHandlers, name: string) => EngineClient,
  ) {
    this.part(0);
  }

  send(msg: ToWorker): void {
    switch (msg.type) {
      // Answered by one worker on their own (by id, or a report by index): worker 0, at once.
      case 'report':
      case 'check':
      case 'assess':
      case 'traceScenario':
      case 'mrc':
      case 'mrcPoint':
        return this.part(0).client.send(msg);
      case 'load':
      case 'seek':
      case 'step':
      case 'ahead':
        break;
      default: {
        // A message this engine has no route for (a newer page, a caller outside TypeScript) is
        // an error the page shows, never dropped without a word.
        const unknown: never = msg;
        return this.handlers.onError(`the live engine has no route for a '${String((unknown as { type?: unknown }).type)}' message`, false);
      }
    }
    if (this.request) {
      this.held.push(msg);
      return;
    }
    switch (msg.type) {
      case 'load': {
        const split = shares(runCount(msg), this.maxParts);
        if (split.length === 1) this.part(0).client.send(msg);
        else split.forEach((runs, k) => this.part(k).client.send({ ...msg, runs }));
        this.request = this.ask(msg, split.length, 2);
        return;
      }
      case 'seek':
      case 'step':
        if (msg.type === 'seek') this.seek = [];
        for (let k = 0; k < this.active; k++) this.part(k).client.send(msg);
        this.request = this.ask(msg, this.active, 1);
        return;
      case 'ahead':
        this.ahead = { toNs: msg.ns, of: [] };
        for (let k = 0; k < this.active; k++) this.part(k).client.send(msg);
    }
  }

  dispose(): void {
    this.disposed = true;
    for (const p of this.parts) p?.client.dispose();
    this.parts = [];
  }

  private ask(msg: ToWorker, parts: number, owed: number): Request {
    const none = () => Array.from({ length: parts }, () => null);
    return { msg, parts, owed: Array.from({ length: parts }, () => owed), loaded: none(), frames: none(), refused: none(), rounds: 0 };
  }

  /** Worker `k`, started on first use. */
  private part(k: number): Part {
    let p = this.parts[k];
    if (!p) {
      const handlers: EngineClientHandlers = {
        onMessage: (msg) => this.parts[k] === p && !this.disposed && this.onMessage(k, msg),
        onError: (message, fatal) => this.parts[k] === p && !this.disposed && this.onError(k, message, fatal),
      };
      p = { client: this.start(handlers, k === 0 ? 'reclaim-engine' : `reclaim-engine-${k + 1}`) };
      this.parts[k] = p;
    }
    return p;
  }

  private onError(k: number, message: string, fatal: boolean): void {
    // Worker 0 got every message the others did and refuses the same ones: its word stands.
    if (k === 0 || fatal) this.handlers.onError(message, fatal);
    const r = this.request;
    if (fatal || !r || k >= r.parts || r.owed[k] === 0) return;
    r.owed[k] = 0;
    r.refused[k] = message;
    this.answered();
  }

  private onMessage(k: number, msg: Msg): void {
    const r = this.request;
    switch (msg.type) {
      case 'ready':
        if (k === 0) this.handlers.onMessage(msg);
        return;
      case 'loaded':
      case 'frame':
        if (!r || k >= r.parts || r.owed[k] === 0) return; // not asked for (cannot happen)
        r.owed[k]!--;
        if (msg.type === 'loaded') r.loaded[k] = msg;
        else r.frames[k] = r.frames[k] ? absorb(r.frames[k]!, msg) : msg;
        return this.answered();
      case 'seekProgress': {
        this.seek[k] = msg;
        const known = this.seek.filter((s) => !!s);
        return this.handlers.onMessage({ ...msg, fromNs: Math.min(...known.map((s) => s.fromNs)), nowNs: Math.min(...known.map((s) => s.nowNs)) });
      }
      case 'aheadProgress': {
        if (msg.toNs !== this.ahead.toNs) return; // a goal since replaced
        this.ahead.of[k] = msg;
        const of = Array.from({ length: this.active }, (_, i) => this.ahead.of[i] ?? null);
        const known = of.filter((a) => !!a);
        return this.handlers.onMessage({ ...msg, nowNs: Math.min(...known.map((a) => a.nowNs)), done: of.every((a) => a?.done) });
      }
      default:
        this.handlers.onMessage(msg);
    }
  }

  /** When every worker asked has answered: catch up a worker behind, or pass the merged answer
   *  on, then send what was held. */
  private answered(): void {
    const r = this.request!;
    if (r.owed.some((n) => n > 0)) return;
    const refusal = r.refused.find((m) => m !== null);
    if (refusal !== undefined) {
      // Refused by all (worker 0 said why): the runs stay as they were, on the workers they were.
      if (r.msg.type === 'load') for (let k = this.active; k < r.parts; k++) this.drop(k);
      // Refused by another worker only (they build the same runs: not expected): the workers
      // no longer hold the same runs, so the engine cannot go on.
      if (r.refused[0] === null) this.handlers.onError(`A second engine worker refused what the first accepted: ${refusal}`, true);
    } else {
      if (!r.loaded[0] && this.lag(r)) return;
      if (r.msg.type === 'load') {
        for (let k = r.parts; k < this.active; k++) this.drop(k); // their runs and checkpoints go
        this.active = r.parts;
        this.seq = 0;
        this.handlers.onMessage({ ...r.loaded[0]!, runs: r.loaded.flatMap((l) => l!.runs) });
      }
      const frames = r.frames as Frame[];
      this.handlers.onMessage({ type: 'frame', seq: this.seq++, stepMs: Math.max(...frames.map((f) => f.stepMs)), runs: frames.flatMap((f) => f.runs) });
    }
    this.request = null;
    const held = this.held;
    this.held = [];
    for (const [i, m] of held.entries()) {
      this.send(m);
      if (this.request) {
        this.held.push(...held.slice(i + 1));
        return;
      }
    }
  }

  /** Whether a worker's runs are behind the others' (then it is stepped on: a catch-up). */
  private lag(r: Request): boolean {
    if (r.rounds >= CATCH_UP_ROUNDS) return false;
    const times = (r.frames as Frame[]).map((f) => {
      const live = f.runs.filter((x) => !x.finished);
      return live.length > 0 ? Math.max(...live.map((x) => x.nowNs)) : null;
    });
    const ahead = Math.max(...times.map((t) => t ?? -1));
    const behind = times.findIndex((t) => t !== null && t < ahead);
    if (behind < 0) return false;
    r.rounds++;
    r.owed[behind] = 1;
    this.part(behind).client.send({ type: 'step', ns: Math.min(MAX_STEP_NS, ahead - times[behind]!) });
    return true;
  }

  private drop(k: number): void {
    this.parts[k]?.client.dispose();
    this.parts[k] = null;
  }
}
/** The page's live engine: one worker, or with two cores or more two (a comparison's runs split
 *  between them). `start` starts one worker (tests pass in-process ones). */
export function startLiveEngine(
  handlers: EngineClientHandlers,
  parts = livePartsFor(),
  start: (handlers: EngineClientHandlers, name: string) => EngineClient = startEngineWorker,
): EngineClient {
  return parts <= 1 ? start(handlers, 'reclaim-engine') : new SplitEngine(handlers, parts, start);
}
