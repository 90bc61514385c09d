// The page's side of the engine worker: starts it, validates what it sends,
// and turns every way it can fail into one `onError(text)` call.
import { errorText, parseFromWorker, type FromWorker, type ToWorker } from './protocol';

export interface EngineClientHandlers {
  onMessage(msg: Exclude<FromWorker, { type: 'error' }>): void;
  /** `fatal`: the engine is unusable (it failed to load or crashed); otherwise the page keeps working. */
  onError(message: string, fatal: boolean): void;
}

export interface EngineClient {
  send(msg: ToWorker): void;
  dispose(): void;
}

/** Route one raw worker message to the handlers (exported for tests). */
export function dispatchFromWorker(data: unknown, handlers: EngineClientHandlers): void {
  let msg: FromWorker;
  try {
    msg = parseFromWorker(data);
  } catch (err) {
    handlers.onError(`The engine sent a message the page does not understand: ${errorText(err)}`, true);
    return;
  }
  if (msg.type === 'error') {
    const what = {
      init: 'The engine failed to load',
      protocol: 'The engine rejected a message',
      engine: 'The engine failed',
      scenario: 'The scenario could not be loaded',
    };
    handlers.onError(`${what[msg.phase]}: ${msg.message}`, msg.phase === 'init' || msg.phase === 'engine');
  } else {
    handlers.onMessage(msg);
  }
}

/** A client whose worker already runs, handed to the first who takes it: the messages it sent
 *  before then (its `ready`, or the error of a failed load) reach the taker's handlers in order,
 *  on a microtask after `take` returns (so the taker holds the client before any of them). */
export interface SpareClient {
  take(handlers: EngineClientHandlers): EngineClient;
  dispose(): void;
}

/** Start a client with `start` now and hold what it says until it is taken. */
export function spareClient(start: (handlers: EngineClientHandlers) => EngineClient): SpareClient {
  const held: ((h: EngineClientHandlers) => void)[] = [];
  let target: EngineClientHandlers | null = null;
  const client = start({
    onMessage: (msg) => (target ? target.onMessage(msg) : held.push((h) => h.onMessage(msg))),
    onError: (message, fatal) => (target ? target.onError(message, fatal) : held.push((h) => h.onError(message, fatal))),
  });
  return {
    take(handlers) {
      queueMicrotask(() => {
        for (const deliver of held.splice(0)) deliver(handlers);
        target = handlers;
      });
      return client;
    },
    dispose: () => client.dispose(),
  };
}

// One worker started ahead of need (prepareEngineWorker), by name.
let spare: { name: string; client: SpareClient } | null = null;

/** Start an engine worker of `name` now, while the page has nothing else to do, so that the next
 *  `startEngineWorker(…, name)` gets one whose module is already fetched, compiled and
 *  instantiated (a worker loads the engine as it starts) instead of starting one then. One spare
 *  at most; a spare of another name is ended. */
export function prepareEngineWorker(name: string): void {
  if (spare?.name === name) return;
  spare?.client.dispose();
  spare = null;
  const client = spareClient((handlers) => startEngineWorker(handlers, name));
  spare = { name, client };
}

export function startEngineWorker(handlers: EngineClientHandlers, name = 'reclaim-engine'): EngineClient {
  if (spare?.name === name) {
    const taken = spare.client;
    spare = null;
    return taken.take(handlers);
  }
  let worker: Worker;
  try {
    worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name });
  } catch (err) {
    handlers.onError(`The engine worker could not be started: ${errorText(err)}`, true);
    return { send() {}, dispose() {} };
  }
  worker.onmessage = (e: MessageEvent) => dispatchFromWorker(e.data, handlers);
  worker.onmessageerror = () => handlers.onError('A message from the engine worker could not be read.', true);
  worker.onerror = (e: ErrorEvent) => {
    e.preventDefault();
    handlers.onError(
      e.message
        ? `The engine worker crashed: ${e.message}`
        : 'The engine worker failed to start (its script could not be loaded or evaluated).',
      true,
    );
  };
  return {
    send: (msg) => worker.postMessage(msg),
    dispose: () => worker.terminate(),
  };
}
