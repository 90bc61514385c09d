// The embed (`?embed`): one view of the runs, a small bar, and the lesson caption, fitted to
// the iframe. The view's code is loaded when it is shown (an embed shows one; the bar and the
// caption paint first, and the runs are drawn once the engine is ready anyway).
import { lazy, Suspense } from 'react';
import { FitFrame } from '../components/FitFrame';
import { SeekProgress } from '../components/SeekProgress';
import { formatNs } from '../format';
import { ratesOf } from '../lib/rates';
import { Lesson, LinkBanner, RunError, RunKernel } from './parts';
import type { AppModel } from './useApp';

const BalanceView = lazy(() => import('../components/BalanceView').then((m) => ({ default: m.BalanceView })));
const CounterCharts = lazy(() => import('../components/Charts').then((m) => ({ default: m.CounterCharts })));
const RoundsChart = lazy(() => import('../components/Charts').then((m) => ({ default: m.RoundsChart })));
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
  return (
    <main className="embed" data-testid="embed" data-view={embedView}>
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
          <button type="button" data-testid="step" onClick={() => m.engine.step(stepNs)} disabled={!ready || finished || seeking} aria-keyshortcuts="ArrowRight" aria-label={`Step ${formatNs(stepNs)}`}>
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
        <Suspense fallback={viewLoading}>
          {ready && embedView !== 'results' && (
            <section className={`embed-views runs-${frames.length}`} aria-label="Runs" data-testid="runs">
              {embedView === 'charts' ? (
                <section className={m.embed.chart ? 'charts one-chart' : 'charts'} aria-label="Charts">
                  {m.embed.chart === 'rounds' ? (
                    m.reportsFit && <RoundsChart reports={m.reports.reports} />
                  ) : (
                    <CounterCharts runs={state.runs} frames={frames} series={state.series} counterNames={state.counterNames} only={m.embed.chart ?? undefined} />
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
                        <MemcgLruView info={run} frame={frames[i]!} testPrefix={`run-${i}-`} />
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
        </Suspense>
      </FitFrame>
    </main>
  );
}
