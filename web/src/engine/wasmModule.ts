// web/pkg's wasm glue as EngineHost sees it: one table for the engine worker and for the
// tests that drive EngineHost in Node. The glue must be instantiated before a call.
import { assess, clear_traces, engine_version, kernel_info, last_panic, mrc_reference, resolve_scenario, scenario_check, scenario_info, set_trace, trace_scenario, WasmSimulation } from '../../pkg/reclaim_core.js';
import type { EngineModule } from './host';

export const wasmModule: EngineModule = {
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
