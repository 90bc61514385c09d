// Validation of scenario text for the editor, in an engine worker of its own
// (started when the editor first needs it), so checking while typing never
// waits for, or holds up, the live runs.
import { startEngineWorker, type EngineClient } from './client';
import type { ScenarioProblem } from './protocol';

export interface ScenarioChecker {
  /** The core's verdict on `text`: null when valid; rejects when the engine is unusable. */
  check(text: string): Promise<ScenarioProblem | null>;
  dispose(): void;
}

export function startChecker(): ScenarioChecker {
  let client: EngineClient | null = null;
  let nextId = 0;
  const pending = new Map<number, { resolve(p: ScenarioProblem | null): void; reject(e: Error): void }>();
  const failAll = (message: string) => {
    for (const p of pending.values()) p.reject(new Error(message));
    pending.clear();
  };
  const start = () =>
    startEngineWorker(
      {
        onMessage: (msg) => {
          if (msg.type !== 'checked') return;
          pending.get(msg.id)?.resolve(msg.problem);
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
    check(text) {
      client ??= start();
      const id = nextId++;
      const c = client;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        c.send({ type: 'check', id, text });
      });
    },
    dispose() {
      failAll('the editor was closed');
      client?.dispose();
      client = null;
    },
  };
}
