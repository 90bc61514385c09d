// The embed (`?embed`): one view of the runs, a small bar, and the lesson caption, fitted to
// the iframe. Laid out for a 960x540 slide with no text under 14 px (embed.css): a view shows
// less there rather than shrink (one chart at a time, the generations without the controller's
// table, the LRU strips without their tools).
import './type.css';
import './embed.css';
import * as Tabs from '@radix-ui/react-tabs';
import { useState } from 'react';
import { BalanceView } from '../components/BalanceView';
import { CounterCharts, RoundsChart } from '../components/Charts';
import { FitFrame } from '../components/FitFrame';
import { GenerationsView } from '../components/GenerationsView';
import { LruView } from '../components/LruView';
import { MemcgLruView } from '../components/MemcgLruView';
import { ResultsPanel } from '../components/ResultsPanel';
import { SeekProgress } from '../components/SeekProgress';
import { formatNs } from '../format';
import { EMBED_CHARTS, type EmbedChart } from '../lib/embed';
import { ratesOf } from '../lib/rates';
import { Lesson, LinkBanner, RunError, RunKernel } from './parts';
import type { AppModel } from './useApp';

const CHART_LABELS: Record<EmbedChart, string> = { counters: 'Counters', free: 'Free memory', cost: 'Balance inputs', rounds: 'Rounds' };

/** One chart of the runs, large. */
function chartOf(m: AppModel, chart: EmbedChart) {
  const { state, frames } = m;
  return chart === 'rounds' ? (
    m.reportsFit && <RoundsChart reports={m.reports.reports} />
  ) : (
    <CounterCharts runs={state.runs} frames={frames} series={state.series} counterNames={state.counterNames} only={chart} />
  );
}

export function EmbedApp({ m }: { m: AppModel }) {
  const { state, frames, ready, finished, seeking, nowNs, stepNs, theme, setup } = m;
  const embedView = m.link.embedView;
  // One chart at a time, large: the link's `chart=`, else the one picked on the tabs.
  const [picked, setPicked] = useState<EmbedChart>('counters');
  const charts = EMBED_CHARTS.filter((c) => c !== 'rounds' || m.reportsFit);
  const chart = m.embed.chart ?? (charts.includes(picked) ? picked : 'counters');
  return (
    <main className="embed slide-type" data-testid="embed" data-view={embedView}>
      <h1 className="sr-only">Reclaim Lab: {setup.file?.title ?? setup.scenarioName}</h1>
      <FitFrame testId="embed-fit">
        <LinkBanner m={m} />
        {state.error &&
          (m.broken ? (
            <RunError error={state.error} />
          ) : (
            <div className="error" role="alert" data-testid="engine-error">
              {state.error}
            </div>
          ))}
        <div className="embed-bar">
          <button type="button" className="primary" data-testid="play-toggle" onClick={m.transport.togglePlay} disabled={!ready || finished || seeking} aria-keyshortcuts="Space" aria-label={state.playing ? 'Pause' : 'Play'}>
            {state.playing ? 'Pause' : 'Play'}
          </button>
          <button type="button" data-testid="step" onClick={() => m.engine.step(stepNs)} disabled={!ready || finished || seeking} aria-keyshortcuts="ArrowRight" aria-label={`Step ${formatNs(stepNs)}`} data-step-ns={stepNs}>
            +{formatNs(stepNs)}
          </button>
          <strong data-testid="virtual-time">{formatNs(nowNs)}</strong>
          {/* For tests: whether the next lesson step's state is computed in the background, and
              where the latest seek replayed from. */}
          <span className="status" data-testid="status" data-ahead={state.ahead ? (state.ahead.done ? `ready ${state.ahead.toNs}` : 'computing') : 'none'} data-seek-from-ns={state.seekFromNs ?? undefined}>
            {m.status}
          </span>
          {m.seek && <SeekProgress seek={m.seek} className="seek-progress" testId="seek-progress" />}
          <a className="muted small" href={`${location.pathname}${location.hash}`} target="_blank" rel="noreferrer">
            Reclaim Lab ↗
          </a>
        </div>
        <Lesson m={m} />
        {ready && embedView !== 'results' && (
          <section className={`embed-views runs-${frames.length}`} aria-label="Runs" data-testid="runs">
            {embedView === 'charts' ? (
              <section className="charts one-chart" aria-label="Charts" data-chart={chart}>
                {m.embed.chart ? (
                  chartOf(m, chart)
                ) : (
                  <Tabs.Root className="embed-chart-tabs" value={chart} onValueChange={(v) => setPicked(v as EmbedChart)}>
                    <Tabs.List className="tabs-list" aria-label="Which chart">
                      {charts.map((c) => (
                        <Tabs.Trigger key={c} value={c} className="tab" data-testid={`embed-chart-tab-${c}`}>
                          {CHART_LABELS[c]}
                        </Tabs.Trigger>
                      ))}
                    </Tabs.List>
                    <Tabs.Content value={chart} className="embed-chart">
                      {chartOf(m, chart)}
                    </Tabs.Content>
                  </Tabs.Root>
                )}
              </section>
            ) : (
              state.runs.map((run, i) => (
                <article key={run.variant + i} className="run" data-testid={`run-${i}`} data-variant={run.variant}>
                  <h2>
                    {run.variant} <RunKernel run={run} kernel={state.kernel} testId={`run-${i}-kernel`} />
                  </h2>
                  {embedView === 'gens' && frames[i]!.gens ? (
                    <GenerationsView info={run} frame={frames[i]!} testPrefix={`run-${i}-`} theme={theme} />
                  ) : embedView === 'lru' || embedView === 'gens' ? (
                    <>
                      {embedView === 'gens' && (
                        <p className="muted small" data-testid={`run-${i}-no-gens`}>
                          This variant runs the classic active/inactive LRU: no generations.
                        </p>
                      )}
                      <LruView info={run} frame={frames[i]!} rates={ratesOf(state.series[i] ?? [], state.counterNames, run.scale)} testPrefix={`run-${i}-`} theme={theme} />
                    </>
                  ) : embedView === 'memcg' ? (
                    frames[i]!.memcg ? (
                      <MemcgLruView info={run} frame={frames[i]!} testPrefix={`run-${i}-`} labelPx={14} />
                    ) : (
                      <p className="muted" data-testid={`run-${i}-memcg-none`}>
                        This scenario has no memory cgroups: the memcg LRU view has nothing to show.
                      </p>
                    )
                  ) : (
                    <BalanceView info={run} frame={frames[i]!} testPrefix={`run-${i}-`} />
                  )}
                </article>
              ))
            )}
          </section>
        )}
        {embedView === 'results' && <ResultsPanel reports={m.reports} expect={m.expect} knobsChanged={Object.keys(setup.knobs).length > 0} />}
      </FitFrame>
    </main>
  );
}
