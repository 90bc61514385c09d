// Validation of scenario text for the editor, in an engine worker of its own
// (started when the editor first needs it), so checking while typing never
// waits for, or holds up, the live runs.
import { startEngineWorker, type EngineClient } from './client';
import type { ScenarioInfo, ScenarioProblem, Setup } from './protocol';

/** The core's verdict: the problem (null when valid) and, when valid, the text's own info. */
export interface CheckResult {
  problem: ScenarioProblem | null;
  info?: ScenarioInfo;
}

export interface ScenarioChecker {
  /** The core's verdict on `text` (resolved by `setup`, if given); rejects when the engine
   *  is unusable. */
  check(text: string, setup?: Setup): Promise<CheckResult>;
  dispose(): void;
}

export function startChecker(): ScenarioChecker {
  let client: EngineClient | null = null;
  let nextId = 0;
  const pending = new Map<number, { resolve(r: CheckResult): void; reject(e: Error): void }>();
  const failAll = (message: string) => {
    for (const p of pending.values()) p.reject(new Error(message));
    pending.clear();
  };
  const start = () =>
    startEngineWorker(
      {
        onMessage: (msg) => {
          if (msg.type !== 'checked') return;
          pending.get(msg.id)?.resolve({ problem: msg.problem, ...(msg.info ? { info: msg.info } : {}) });
          pending.delete(msg.id);
        },
        onError: (message, fatal) => {
          failAll(message);
          if (fatal) {
            client?.dispose();
            client = null; // the next check starts a fresh worker
          }
        },
      },
      'reclaim-check',
    );
  return {
    check(text, setup) {
      client ??= start();
      const id = nextId++;
      const c = client;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        c.send({ type: 'check', id, text, ...(setup ? { setup } : {}) });
      });
    },
    dispose() {
      failAll('the editor was closed');
      client?.dispose();
      client = null;
    },
  };
}
