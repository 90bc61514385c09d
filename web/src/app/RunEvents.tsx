// A run's terminal events, where they happened: an OOM kill (who, when, why) and the run's end
// as a banner in that run's panel, and both as marks on the time bar. Live, the engine's
// `oom_kill` counter says a kill happened by this frame; the results worker's report of the
// same scenario text says who and exactly when (not with flag overrides: the report runs the
// variants as written).
import { formatNs } from '../format';
import { anyFlags } from '../lib/flags';
import type { AppModel } from './useApp';

export interface TimeEvent {
  ns: number;
  kind: 'oom' | 'end';
  run: number;
  label: string;
}

/** The report of run `i` when it is of exactly what runs live, else undefined. */
function reportOf(m: AppModel, i: number) {
  if (!m.reportsFit || anyFlags(m.setup.runFlags)) return undefined;
  const v = m.state.runs[i]?.variant;
  return m.reports.reports.find((r) => r.variant === v);
}

function oomCount(m: AppModel, i: number): number {
  const k = m.state.counterNames.indexOf('oom_kill');
  return k < 0 ? 0 : (m.frames[i]?.counters[k] ?? 0);
}

/** The events of every run reached so far (the time bar marks them). */
export function timeEvents(m: AppModel): TimeEvent[] {
  const out: TimeEvent[] = [];
  m.state.runs.forEach((run, i) => {
    const frame = m.frames[i];
    if (!frame) return;
    const who = m.state.runs.length > 1 ? `${run.variant}: ` : '';
    for (const k of reportOf(m, i)?.oom_kills ?? []) {
      const ns = Math.round(k.time_s * 1e9);
      // (A finished run shows all: the report's float seconds may round past its last frame.)
      if (frame.finished || ns <= frame.nowNs) out.push({ ns, kind: 'oom', run: i, label: `${who}OOM kill of ${k.task} at ${formatNs(ns)}` });
    }
    if (frame.finished) out.push({ ns: frame.nowNs, kind: 'end', run: i, label: `${who}run ended at ${formatNs(frame.nowNs)}` });
  });
  return out;
}

/** The banner in run `i`'s panel: an OOM kill, or the end of a run the other one outlives. */
export function RunBanner({ m, i }: { m: AppModel; i: number }) {
  const frame = m.frames[i]!;
  const kills = oomCount(m, i);
  const report = reportOf(m, i);
  const others = m.frames.some((f, j) => j !== i && !f.finished);
  if (kills > 0) {
    const known = (report?.oom_kills ?? []).filter((k) => frame.finished || k.time_s * 1e9 <= frame.nowNs);
    return (
      <div className="run-banner oom" role="alert" data-testid={`run-${i}-oom`}>
        <strong>Out of memory: {kills === 1 ? 'a task was' : `${kills} tasks were`} killed.</strong>{' '}
        {known.length > 0
          ? known.map((k) => `${k.task} at ${formatNs(Math.round(k.time_s * 1e9))} (${k.freed_pages.toLocaleString('en')} pages freed)`).join('; ') + '. '
          : ''}
        Reclaim could not free enough memory for an allocation, so the kernel&apos;s OOM killer ended a task (oom_kill {kills}).
        {frame.finished && <> The run ended at {formatNs(frame.nowNs)}: its lists and counters stay as they were then.</>}
      </div>
    );
  }
  if (frame.finished && others) {
    return (
      <div className="run-banner end" role="status" data-testid={`run-${i}-ended`}>
        This run ended at {formatNs(frame.nowNs)} (every task exited); the other run goes on. What is shown here is its state at its end.
      </div>
    );
  }
  return null;
}
