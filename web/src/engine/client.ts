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

export function startEngineWorker(handlers: EngineClientHandlers, name = 'reclaim-engine'): EngineClient {
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
