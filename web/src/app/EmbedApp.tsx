// The embed (`?embed`): one view of the runs, a small bar, and the lesson caption, fitted to
// the iframe. Laid out for a 960x540 slide with no text under 14 px (embed.css): a view shows
// less there rather than shrink (one chart at a time, the generations without the controller's
// table, the LRU strips without their tools). The view's code is loaded when it is shown (an
// embed shows one; the bar and the caption paint first, and the runs are drawn once the engine
// is ready anyway).
import './type.css';
import './embed.css';
import { lazy, Suspense, useState } from 'react';
import { FitFrame } from '../components/FitFrame';
import { SeekProgress } from '../components/SeekProgress';
import { formatNs } from '../format';
import { EMBED_CHARTS, type EmbedChart } from '../lib/embed';
import { ratesOf } from '../lib/rates';
import { ReplayFigures } from '../components/RunCounters';
import { TraceNeeded, TracesInUse } from '../components/TracePanel';
import { Lesson, LinkBanner, RunError, RunKernel } from './parts';
import type { AppModel } from './useApp';

const BalanceView = lazy(() => import('../components/BalanceView').then((m) => ({ default: m.BalanceView })));
const EmbedCharts = lazy(() => import('./EmbedCharts').then((m) => ({ default: m.EmbedCharts })));
const GenerationsView = lazy(() => import('../components/GenerationsView').then((m) => ({ default: m.GenerationsView })));
const LruView = lazy(() => import('../components/LruView').then((m) => ({ default: m.LruView })));
const MemcgLruView = lazy(() => import('../components/MemcgLruView').then((m) => ({ default: m.MemcgLruView })));
const ResultsPanel = lazy(() => import('../components/ResultsPanel').then((m) => ({ default: m.ResultsPanel })));

const viewLoading = (
  <p className="muted" role="status">
    Loading the view…
  </p>
);

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
        {setup.missingTraces.length > 0 ? (
          <TraceNeeded names={setup.missingTraces} shipped={m.trace.shipped} onFile={m.trace.load} status={m.trace.status} fetchFailed={m.trace.fetchFailed} onRetry={m.trace.retry} drop={false} />
        ) : (
          setup.heldTraces.length > 0 && <TracesInUse held={setup.heldTraces} onFile={m.trace.load} />
        )}
        <Lesson m={m} />
        <Suspense fallback={viewLoading}>
          {ready && embedView !== 'results' && (
            <section className={`embed-views runs-${frames.length}`} aria-label="Runs" data-testid="runs">
              {embedView === 'charts' ? (
                <section className="charts one-chart" aria-label="Charts" data-chart={chart}>
                  <EmbedCharts m={m} chart={chart} tabs={m.embed.chart ? null : charts} onPick={setPicked} />
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
                        <LruView info={run} frame={frames[i]!} rates={ratesOf(state.series[i] ?? [])} testPrefix={`run-${i}-`} theme={theme} />
                        <ReplayFigures frame={frames[i]!} testPrefix={`run-${i}-`} />
                      </>
                    ) : embedView === 'memcg' ? (
                      frames[i]!.memcg ? (
                        <MemcgLruView info={run} frame={frames[i]!} testPrefix={`run-${i}-`} labelPx={14} compact={frames.length > 1} />
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
          {embedView === 'results' && <ResultsPanel reports={m.reports} expect={m.expect} knobsChanged={Object.keys(setup.knobs).length > 0} tasksClosed />}
        </Suspense>
      </FitFrame>
    </main>
  );
}
