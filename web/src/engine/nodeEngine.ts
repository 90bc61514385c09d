// The real wasm engine (web/pkg, built by `npm run wasm`) as the worker host sees it, for tests
// that drive EngineHost in Node: instantiated synchronously, outside any worker.
import { readFileSync } from 'node:fs';
import { initSync } from '../../pkg/reclaim_core.js';
import type { CheckResult, ScenarioChecker } from './checker';
import { EngineHost, type EngineModule } from './host';
import { wasmModule } from './wasmModule';

/** Instantiate web/pkg's wasm (call once, in beforeAll). */
export function initWasm(): void {
  initSync({ module: readFileSync(new URL('../../pkg/reclaim_core_bg.wasm', import.meta.url)) });
}

export const wasmEngine: EngineModule = wasmModule;

/** The editor's and the link's checker answered by an EngineHost in-process over the real
 *  engine (the page runs the same host in a worker). Call initWasm first. */
export function hostChecker(): ScenarioChecker {
  const waiting = new Map<number, (r: CheckResult) => void>();
  const host = new EngineHost({
    load: async () => wasmEngine,
    post: (m) => {
      if (m.type === 'checked') waiting.get(m.id)?.({ problem: m.problem, ...(m.info ? { info: m.info } : {}) });
      else if (m.type === 'error') throw new Error(m.message);
    },
  });
  const started = host.start();
  let id = 0;
  return {
    async check(text, setup) {
      await started;
      const n = id++;
      const answer = new Promise<CheckResult>((resolve) => waiting.set(n, resolve));
      await host.handle({ type: 'check', id: n, text, ...(setup ? { setup } : {}) });
      return answer;
    },
    dispose() {},
  };
}
