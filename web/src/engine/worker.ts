// The engine worker: loads the wasm engine and hands every message to EngineHost.
import init, { assess, clear_traces, engine_version, kernel_info, last_panic, mrc_reference, resolve_scenario, scenario_check, scenario_info, set_trace, trace_scenario, WasmSimulation } from '../../pkg/reclaim_core.js';
import { EngineHost } from './host';
import { encodeError, type FromWorker } from './protocol';

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
    return {
      engineVersion: () => engine_version(),
      scenarioInfo: (text) => scenario_info(text),
      resolve: (text, setup) => resolve_scenario(text, setup),
      create: (text, variant, flags) => WasmSimulation.fromScenarioWithFlags(text, variant, JSON.stringify(flags ?? {})),
      kernelInfo: () => kernel_info(),
      scenarioCheck: (text) => scenario_check(text),
      assess: (text, reports) => assess(text, reports),
      lastPanic: () => last_panic(),
      setTraces: (traces) => {
        clear_traces();
        for (const t of traces) set_trace(t.name, t.bytes);
      },
      traceScenario: (name, format) => trace_scenario(name, format),
      mrcReference: (text, points) => mrc_reference(text, points),
      createMrcPoint: (text, variant, pages) => WasmSimulation.fromMrcPoint(text, variant, pages),
    };
  },
  post: (message, transfer = []) => scope.postMessage(message, transfer),
});

scope.addEventListener('message', (e) => void host.handle(e.data));
scope.addEventListener('unhandledrejection', (e) => scope.postMessage(encodeError('engine', e.reason), []));
void host.start();
