// The full page's runs side by side (every view of each), their differences and the charts.
import { BalanceView } from '../components/BalanceView';
import { CounterCharts, RoundsChart } from '../components/Charts';
import { DiffTable } from '../components/DiffTable';
import { GenerationsView } from '../components/GenerationsView';
import { LruView } from '../components/LruView';
import { MemcgLruView } from '../components/MemcgLruView';
import { RefaultView } from '../components/RefaultView';
import { RunCounters } from '../components/RunCounters';
import { formatNs } from '../format';
import { ratesOf } from '../lib/rates';
import { RunKernel } from './parts';
import type { AppModel } from './useApp';

export function RunsGrid({ m }: { m: AppModel }) {
  const { state, frames, theme } = m;
  const kernelRuns = m.kernel.kernelRuns;
  return (
    <>
      <section className={`runs runs-${frames.length}`} aria-label="Runs" data-testid="runs" data-seq={state.seq}>
        {state.runs.map((run, i) => (
          <article key={run.variant + i} className="run" data-testid={`run-${i}`} data-variant={run.variant}>
            <h2>
              {run.variant} <RunKernel run={run} kernel={state.kernel} testId={`run-${i}-kernel`} />{' '}
              <span className="muted small" data-testid={`run-${i}-time`}>
                {formatNs(frames[i]!.nowNs)}
              </span>
            </h2>
            <div className="run-body">
              <LruView info={run} frame={frames[i]!} rates={ratesOf(state.series[i] ?? [])} testPrefix={`run-${i}-`} theme={theme} />
              <BalanceView info={run} frame={frames[i]!} testPrefix={`run-${i}-`} />
              {frames[i]!.refault && <RefaultView info={run} view={frames[i]!.refault!} testPrefix={`run-${i}-`} />}
              {frames[i]!.gens && <GenerationsView info={run} frame={frames[i]!} testPrefix={`run-${i}-`} theme={theme} />}
            </div>
            {frames[i]!.memcg && <MemcgLruView info={run} frame={frames[i]!} testPrefix={`run-${i}-`} />}
            <RunCounters frame={frames[i]!} counterNames={state.counterNames} testPrefix={`run-${i}-`} />
          </article>
        ))}
      </section>
      {frames.length > 1 && <DiffTable runs={state.runs} frames={frames} counterNames={state.counterNames} />}
      <section className="charts" aria-label="Charts">
        <CounterCharts runs={state.runs} frames={frames} series={state.series} counterNames={state.counterNames} kernels={kernelRuns} />
        {m.reportsFit && <RoundsChart reports={m.reports.reports} kernels={kernelRuns} />}
      </section>
    </>
  );
}
