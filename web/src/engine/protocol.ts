// The message protocol between the page (main thread) and the engine worker.
//
// Everything that crosses the worker boundary is one of these messages, and
// each side validates what it receives (`parseToWorker` in the worker,
// `parseFromWorker` on the page): a malformed message becomes a ProtocolError,
// reported as an `error` message, never a crash or a silent hang.
//
// Shape, meant to grow:
//   page -> worker   load (a scenario in), run / pause / step (virtual time)
//   worker -> page   ready (engine version), loaded (counter names),
//                    snapshot (time + counter values, typed array), events
//                    (page movements for the animation), error
// Bump PROTOCOL_VERSION on any incompatible change.

export const PROTOCOL_VERSION = 1;

/** Largest single advance of virtual time accepted in one message (10 s):
 *  a bigger one could keep the worker busy for a long time. */
export const MAX_STEP_NS = 10_000_000_000;

// ---------------------------------------------------------------- page -> worker

/** Where a scenario comes from. Only the engine's built-in demo exists so far;
 *  scenario files (TOML text) will be a second kind. */
export type ScenarioSource = { kind: 'builtin'; name: 'demo' };

export type ToWorker =
  /** Replace the current simulation with a new one of this scenario (paused, at t=0). */
  | { type: 'load'; scenario: ScenarioSource }
  /** Run until paused: each tick advances `sliceNs` of virtual time, then sends a snapshot. */
  | { type: 'run'; sliceNs: number }
  | { type: 'pause' }
  /** Advance `ns` of virtual time once, then send a snapshot. */
  | { type: 'step'; ns: number };

// ---------------------------------------------------------------- worker -> page

/** One thing the engine did, for the animation (none are produced yet). */
export interface EngineEvent {
  tNs: number;
  kind: string;
}

export type ErrorPhase = 'init' | 'protocol' | 'engine';

export type FromWorker =
  /** The wasm engine is loaded. */
  | { type: 'ready'; protocol: number; engineVersion: string }
  /** A scenario is loaded; `counterNames[i]` names `snapshot.counters[i]`. */
  | { type: 'loaded'; scenario: string; counterNames: string[] }
  /** The simulation's state after a step or tick (`seq` increases by one each time). */
  | { type: 'snapshot'; seq: number; nowNs: number; running: boolean; counters: Float64Array }
  | { type: 'events'; events: EngineEvent[] }
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
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === 'number') return String(v);
  return typeof v === 'object' ? 'an object' : typeof v;
}

/** What a validation error names: "'step' message", "event", … */
function what(msg: Obj): string {
  return typeof msg.type === 'string' ? `'${msg.type}' message` : 'event';
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

function envelope(data: unknown): Obj & { type: string } {
  if (!isObj(data)) throw new ProtocolError(`message must be an object, got ${describe(data)}`);
  if (typeof data.type !== 'string') throw new ProtocolError(`message 'type' must be a string, got ${describe(data.type)}`);
  return data as Obj & { type: string };
}

function parseScenario(v: unknown): ScenarioSource {
  if (!isObj(v)) throw new ProtocolError(`'scenario' must be an object, got ${describe(v)}`);
  if (v.kind !== 'builtin') throw new ProtocolError(`scenario 'kind' must be "builtin", got ${describe(v.kind)}`);
  if (v.name !== 'demo') throw new ProtocolError(`unknown built-in scenario ${describe(v.name)} (known: "demo")`);
  return { kind: 'builtin', name: 'demo' };
}

/** Validate a message the worker received. Throws ProtocolError. */
export function parseToWorker(data: unknown): ToWorker {
  const m = envelope(data);
  switch (m.type) {
    case 'load':
      onlyKeys(m, ['type', 'scenario']);
      return { type: 'load', scenario: parseScenario(field(m, 'scenario')) };
    case 'run':
      onlyKeys(m, ['type', 'sliceNs']);
      return { type: 'run', sliceNs: num(m, 'sliceNs', 1, MAX_STEP_NS, true) };
    case 'pause':
      onlyKeys(m, ['type']);
      return { type: 'pause' };
    case 'step':
      onlyKeys(m, ['type', 'ns']);
      return { type: 'step', ns: num(m, 'ns', 1, MAX_STEP_NS, true) };
    default:
      throw new ProtocolError(`unknown message type ${describe(m.type)} sent to the engine worker`);
  }
}

/** Validate a message the page received from the worker. Throws ProtocolError. */
export function parseFromWorker(data: unknown): FromWorker {
  const m = envelope(data);
  switch (m.type) {
    case 'ready': {
      onlyKeys(m, ['type', 'protocol', 'engineVersion']);
      const protocol = num(m, 'protocol', 0, Number.MAX_SAFE_INTEGER, true);
      if (protocol !== PROTOCOL_VERSION) {
        throw new ProtocolError(`engine worker speaks protocol ${protocol}, the page speaks ${PROTOCOL_VERSION}`);
      }
      return { type: 'ready', protocol, engineVersion: str(m, 'engineVersion') };
    }
    case 'loaded': {
      onlyKeys(m, ['type', 'scenario', 'counterNames']);
      const names = field(m, 'counterNames');
      if (!Array.isArray(names) || !names.every((n) => typeof n === 'string' && n.length > 0)) {
        throw new ProtocolError("'counterNames' must be an array of non-empty strings");
      }
      return { type: 'loaded', scenario: str(m, 'scenario'), counterNames: [...names] as string[] };
    }
    case 'snapshot': {
      onlyKeys(m, ['type', 'seq', 'nowNs', 'running', 'counters']);
      const counters = field(m, 'counters');
      if (!(counters instanceof Float64Array)) {
        throw new ProtocolError(`'counters' must be a Float64Array, got ${describe(counters)}`);
      }
      return {
        type: 'snapshot',
        seq: num(m, 'seq', 0, Number.MAX_SAFE_INTEGER, true),
        nowNs: num(m, 'nowNs', 0, Number.MAX_VALUE),
        running: bool(m, 'running'),
        counters,
      };
    }
    case 'events': {
      onlyKeys(m, ['type', 'events']);
      const events = field(m, 'events');
      if (!Array.isArray(events)) throw new ProtocolError(`'events' must be an array, got ${describe(events)}`);
      return {
        type: 'events',
        events: events.map((e: unknown) => {
          if (!isObj(e) || 'type' in e) throw new ProtocolError(`each event must be an object {tNs, kind}, got ${describe(e)}`);
          onlyKeys(e, ['tNs', 'kind']);
          return { tNs: num(e, 'tNs', 0, Number.MAX_VALUE), kind: str(e, 'kind') };
        }),
      };
    }
    case 'error': {
      onlyKeys(m, ['type', 'phase', 'message']);
      const phase = str(m, 'phase');
      if (phase !== 'init' && phase !== 'protocol' && phase !== 'engine') {
        throw new ProtocolError(`error 'phase' must be init, protocol or engine, got ${describe(phase)}`);
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

/** A snapshot; the counters' buffer is transferred to the page. */
export function encodeSnapshot(seq: number, nowNs: number, running: boolean, counters: Float64Array): Outgoing<FromWorker> {
  return { message: { type: 'snapshot', seq, nowNs, running, counters }, transfer: [counters.buffer] };
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
