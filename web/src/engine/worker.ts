// The engine worker: loads the wasm engine and hands every message to EngineHost.
import init from '../../pkg/reclaim_core.js';
import { EngineHost } from './host';
import { encodeError, type FromWorker } from './protocol';
import { wasmModule } from './wasmModule';

// The worker global scope, typed by hand: the project compiles against the DOM lib.
interface WorkerScope {
  postMessage(message: FromWorker, transfer: Transferable[]): void;
  addEventListener(type: 'message', listener: (e: MessageEvent) => void): void;
  addEventListener(type: 'unhandledrejection', listener: (e: PromiseRejectionEvent) => void): void;
}
const scope = self as unknown as WorkerScope;

const host = new EngineHost({
  async load() {
    await init(); // fetches and instantiates reclaim_core_bg.wasm next to the glue
    return wasmModule;
  },
  post: (message, transfer = []) => scope.postMessage(message, transfer),
});

scope.addEventListener('message', (e) => void host.handle(e.data));
scope.addEventListener('unhandledrejection', (e) => scope.postMessage(encodeError('engine', e.reason), []));
void host.start();
