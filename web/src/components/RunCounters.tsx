// A few /proc/vmstat counters of one run as numbers (pages), under the stage's view: what a
// flag or knob change does shows here at once, in the kernel's names. A counter the lesson's
// caption names is shown too, marked, so a caption never names a counter nobody can see.
import { formatCount } from '../format';
import type { RunFrame } from '../engine/protocol';
import './extra.css';

const SHOWN = ['pgscan_anon', 'pgscan_file', 'pgsteal_anon', 'pgsteal_file', 'workingset_refault_anon', 'workingset_refault_file', 'pswpin', 'pswpout', 'pgmajfault'];
const NONE: string[] = [];

export function RunCounters({ frame, counterNames, testPrefix, named = NONE, only = false }: { frame: RunFrame; counterNames: string[]; testPrefix: string; named?: string[]; only?: boolean }) {
  const shown = (only ? named : [...named.filter((n) => !SHOWN.includes(n)), ...SHOWN]).filter((n) => counterNames.includes(n));
  return (
    <dl className="run-counters" aria-label="Counters (pages)">
      {shown.map((n) => {
        const v = frame.counters[counterNames.indexOf(n)]!;
        return (
          <div key={n} className={named.includes(n) ? 'named' : undefined} data-named={named.includes(n) || undefined}>
            <dt>{n}</dt>
            <dd data-testid={`${testPrefix}counter-${n}`} data-pages={v}>
              {formatCount(v)}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

/** A trace replay's figures so far, as the engine reports them: its requests and this kernel's
 *  misses, and, where the scenario runs them beside it (`reference = true`), plain LRU's and
 *  OPT's misses of the same requests at the same cache size (what the trace lesson's captions
 *  quote). */
export function ReplayFigures({ frame, testPrefix }: { frame: RunFrame; testPrefix: string }) {
  const r = frame.replay;
  if (!r) return null;
  const item = (label: string, v: number, id: string) => (
    <div>
      <dt>{label}</dt>
      <dd data-testid={`${testPrefix}replay-${id}`}>{formatCount(v)}</dd>
    </div>
  );
  return (
    <dl className="run-counters replay-figures" aria-label="Trace replay so far" data-testid={`${testPrefix}replay`}>
      {item('requests', r.requests, 'requests')}
      {item('misses (this kernel)', r.misses, 'misses')}
      {r.lruMisses !== undefined && item('plain LRU misses', r.lruMisses, 'lru')}
      {r.optMisses !== undefined && item('OPT misses', r.optMisses, 'opt')}
    </dl>
  );
}
