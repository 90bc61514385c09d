// web/pkg's wasm glue as EngineHost sees it: one table for the engine worker and for the
// tests that drive EngineHost in Node. The glue must be instantiated before a call.
import {
  assess,
  clear_traces,
  drop_stashed_traces,
  engine_version,
  kernel_info,
  last_panic,
  mrc_reference,
  resolve_scenario,
  restore_traces,
  scenario_check,
  scenario_info,
  set_trace,
  stash_traces,
  trace_scenario,
  WasmSimulation,
} from '../../pkg/reclaim_core.js';
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
    stash_traces();
    try {
      for (const t of traces) set_trace(t.name, t.bytes);
    } catch (err) {
      restore_traces();
      throw err;
    }
  },
  clearTraces: () => {
    drop_stashed_traces();
    clear_traces();
  },
  restoreTraces: () => restore_traces(),
  keepTraces: () => drop_stashed_traces(),
  traceScenario: (name, format) => trace_scenario(name, format),
  mrcReference: (text, points) => mrc_reference(text, points),
  createMrcPoint: (text, variant, pages) => WasmSimulation.fromMrcPoint(text, variant, pages),
};
