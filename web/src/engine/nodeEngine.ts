// The real wasm engine (web/pkg, built by `npm run wasm`) as the worker host sees it, for tests
// that drive EngineHost in Node: instantiated synchronously, outside any worker.
import { readFileSync } from 'node:fs';
import { assess, engine_version, initSync, kernel_info, scenario_check, scenario_info, WasmSimulation } from '../../pkg/reclaim_core.js';
import type { EngineModule } from './host';

/** Instantiate web/pkg's wasm (call once, in beforeAll). */
export function initWasm(): void {
  initSync({ module: readFileSync(new URL('../../pkg/reclaim_core_bg.wasm', import.meta.url)) });
}

export const wasmEngine: EngineModule = {
  engineVersion: () => engine_version(),
  scenarioInfo: (t) => scenario_info(t),
  create: (t, v, f) => WasmSimulation.fromScenarioWithFlags(t, v, JSON.stringify(f ?? {})),
  kernelInfo: () => kernel_info(),
  scenarioCheck: (t) => scenario_check(t),
  assess: (t, r) => assess(t, r),
};
