// The page's side of the engine worker: starts it, validates what it sends,
// and turns every way it can fail into one `onError(text)` call.
import { errorText, parseFromWorker, type FromWorker, type ToWorker } from './protocol';

export interface EngineClientHandlers {
  onMessage(msg: Exclude<FromWorker, { type: 'error' }>): void;
  onError(message: string): void;
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
    handlers.onError(`The engine sent a message the page does not understand: ${errorText(err)}`);
    return;
  }
  if (msg.type === 'error') {
    const what = { init: 'The engine failed to load', protocol: 'The engine rejected a message', engine: 'The engine failed' };
    handlers.onError(`${what[msg.phase]}: ${msg.message}`);
  } else {
    handlers.onMessage(msg);
  }
}

export function startEngineWorker(handlers: EngineClientHandlers): EngineClient {
  let worker: Worker;
  try {
    worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'reclaim-engine' });
  } catch (err) {
    handlers.onError(`The engine worker could not be started: ${errorText(err)}`);
    return { send() {}, dispose() {} };
  }
  worker.onmessage = (e: MessageEvent) => dispatchFromWorker(e.data, handlers);
  worker.onmessageerror = () => handlers.onError('A message from the engine worker could not be read.');
  worker.onerror = (e: ErrorEvent) => {
    e.preventDefault();
    handlers.onError(
      e.message
        ? `The engine worker crashed: ${e.message}`
        : 'The engine worker failed to start (its script could not be loaded or evaluated).',
    );
  };
  return {
    send: (msg) => worker.postMessage(msg),
    dispose: () => worker.terminate(),
  };
}
