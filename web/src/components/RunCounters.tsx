// A few /proc/vmstat counters of one run as numbers (pages), beside its lists: what a flag
// or knob change does shows here at once, in the kernel's names.
import { formatCount } from '../format';
import type { RunFrame } from '../engine/protocol';
import './extra.css';

const SHOWN = ['pgscan_anon', 'pgscan_file', 'pgsteal_anon', 'pgsteal_file', 'workingset_refault_anon', 'workingset_refault_file', 'pswpin', 'pswpout', 'pgmajfault'];

export function RunCounters({ frame, counterNames, testPrefix }: { frame: RunFrame; counterNames: string[]; testPrefix: string }) {
  const shown = SHOWN.filter((n) => counterNames.includes(n));
  return (
    <dl className="run-counters" aria-label="Counters (pages)">
      {shown.map((n) => {
        const v = frame.counters[counterNames.indexOf(n)]!;
        return (
          <div key={n}>
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
