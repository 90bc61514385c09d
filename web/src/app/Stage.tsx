// The stage: the view the lesson points at (or the one the user picks), large, right under the
// top bar, with the lesson's caption docked beside it (over it on a phone). Every other view
// of the runs, the charts and the results follow below the stage, each shown exactly once.
import './type.css';
import * as Tabs from '@radix-ui/react-tabs';
import { useSyncExternalStore, type ReactNode } from 'react';
import { BalanceView } from '../components/BalanceView';
import { CounterCharts, RoundsChart } from '../components/Charts';
import { DiffTable } from '../components/DiffTable';
import { GenerationsView } from '../components/GenerationsView';
import { LruView } from '../components/LruView';
import { MrcChart, MrcProgress } from '../components/MrcChart';
import { MemcgLruView } from '../components/MemcgLruView';
import { RefaultView } from '../components/RefaultView';
import { ResultsPanel } from '../components/ResultsPanel';
import { ReplayFigures, RunCounters } from '../components/RunCounters';
import { formatNs } from '../format';
import { anyFlags } from '../lib/flags';
import { ratesOf } from '../lib/rates';
import { Lesson, RunKernel } from './parts';
import { RunBanner } from './RunEvents';
import type { AppModel } from './useApp';

export const STAGE_VIEWS = ['lists', 'balance', 'refaults', 'gens', 'memcg', 'charts', 'diff', 'results', 'mrc'] as const;
export type StageView = (typeof STAGE_VIEWS)[number];
const RUN_VIEWS: readonly StageView[] = ['lists', 'balance', 'refaults', 'gens', 'memcg'];
const LABELS: Record<StageView, string> = {
  lists: 'LRU lists',
  balance: 'Anon/file balance',
  refaults: 'Refaults',
  gens: 'Generations',
  memcg: 'memcgs',
  charts: 'Charts',
  diff: 'Side by side',
  results: 'Results',
  mrc: 'Miss-ratio curve',
};
/** The stage view of each view a lesson step can point at (lib/lesson.ts). */
export const LESSON_STAGE: Record<string, StageView> = { lru: 'lists', balance: 'balance', charts: 'charts', diff: 'diff', results: 'results' };

/** The views this state has: generations, memcgs, refault distances and a side-by-side table
 *  only where they exist. */
export function stageViews(m: AppModel): StageView[] {
  const f = m.frames;
  return STAGE_VIEWS.filter((v) =>
    v === 'gens'
      ? f.some((x) => x.gens)
      : v === 'memcg'
        ? f.some((x) => x.memcg)
        : v === 'refaults'
          ? f.some((x) => x.refault)
          : v === 'diff'
            ? f.length > 1
            : v === 'mrc'
              ? m.setup.traceOpen && m.trace.mrc !== null
              : true,
  );
}

/** A projector-sized window (at least 1800x900, so 1920x1080 with browser chrome): the stage shows its view in slide type, zoomed
 *  (stage.css), so that its body text is 24 px or more. */
const PROJECTOR = '(min-width: 1800px) and (min-height: 900px)';
const projectorQuery = typeof matchMedia === 'function' ? matchMedia(PROJECTOR) : null;
function useProjector(): boolean {
  return useSyncExternalStore(
    (on) => {
      projectorQuery?.addEventListener('change', on);
      return () => projectorQuery?.removeEventListener('change', on);
    },
    () => projectorQuery?.matches ?? false,
  );
}

/** The memcg view's SVG label font in slide type (the projector's stage). */
const PROJECTOR_LABEL_PX = 15;

/** One run's view `v` (null where this run has none of it). */
function runView(m: AppModel, i: number, v: StageView, projector = false): ReactNode {
  const { state, frames, theme } = m;
  const run = state.runs[i]!;
  const frame = frames[i]!;
  const p = `run-${i}-`;
  if (v === 'lists') return <LruView info={run} frame={frame} rates={ratesOf(state.series[i] ?? [])} testPrefix={p} theme={theme} />;
  if (v === 'balance') return <BalanceView info={run} frame={frame} testPrefix={p} />;
  if (v === 'refaults') return frame.refault ? <RefaultView info={run} view={frame.refault} testPrefix={p} /> : null;
  if (v === 'gens') return frame.gens ? <GenerationsView info={run} frame={frame} testPrefix={p} theme={theme} /> : null;
  if (v === 'memcg') return frame.memcg ? <MemcgLruView info={run} frame={frame} testPrefix={p} labelPx={projector ? PROJECTOR_LABEL_PX : undefined} /> : null;
  return null;
}

/** The runs side by side, each showing `views`; `primary` carries the runs' headers, counters
 *  and test ids (the stage when it shows a run view, else the first section below it). */
function Runs({ m, views, primary, className, projector = false }: { m: AppModel; views: readonly StageView[]; primary: boolean; className: string; projector?: boolean }) {
  const { state, frames } = m;
  if (views.length === 0) return null;
  return (
    <section className={`runs runs-${frames.length} ${className}`} aria-label={primary ? 'Runs' : 'More views of the runs'} data-testid={primary ? 'runs' : 'runs-more'} data-seq={primary ? state.seq : undefined}>
      {state.runs.map((run, i) => (
        <article key={run.variant + i} className="run" data-testid={primary ? `run-${i}` : `run-${i}-more`} data-variant={run.variant}>
          {primary && (
            <h2>
              {run.variant} <RunKernel run={run} kernel={state.kernel} testId={`run-${i}-kernel`} />{' '}
              <span className="muted small" data-testid={`run-${i}-time`}>
                {formatNs(frames[i]!.nowNs)}
              </span>
            </h2>
          )}
          {primary && <RunBanner m={m} i={i} />}
          <div className="run-body">{views.map((v) => <div key={v} className={`run-view run-view-${v}`}>{runView(m, i, v, projector)}</div>)}</div>
          {primary && <RunCounters frame={frames[i]!} counterNames={state.counterNames} testPrefix={`run-${i}-`} named={m.namedCounters} />}
          {primary && <ReplayFigures frame={frames[i]!} testPrefix={`run-${i}-`} />}
        </article>
      ))}
    </section>
  );
}

function Charts({ m }: { m: AppModel }) {
  const kernelRuns = m.kernel.kernelRuns;
  return (
    <section className="charts" aria-label="Charts">
      <CounterCharts runs={m.state.runs} frames={m.frames} series={m.state.series} kernels={kernelRuns} />
      {m.reportsFit && <RoundsChart reports={m.reports.columns.map((c) => c.report)} kernels={kernelRuns} />}
    </section>
  );
}

function Results({ m }: { m: AppModel }) {
  return (
    <>
      {anyFlags(m.setup.runFlags) && (
        <p className="muted small" data-testid="results-flags-note">
          The results table runs the scenario&apos;s variants as written; the kernel flag overrides apply to the live runs.
        </p>
      )}
      <ResultsPanel reports={m.reports} expect={m.expect} knobsChanged={Object.keys(m.setup.knobs).length > 0} kernels={m.kernel.kernelRuns} />
    </>
  );
}

/** The trace's miss-ratio curve, its progress, and which point the live view runs. */
function Mrc({ m }: { m: AppModel }) {
  const mrc = m.trace.mrc;
  if (!mrc) return null;
  const t = m.setup.trace;
  const opened = t?.mrcPages != null && m.setup.a ? { variant: m.setup.a, pages: t.mrcPages } : null;
  return (
    <section className="mrc-view" aria-label="Miss-ratio curve" data-testid="mrc-view">
      <MrcProgress mrc={mrc} />
      <MrcChart mrc={mrc} opened={opened} onOpen={m.trace.openPoint} />
      <p className="muted">
        {opened ? (
          <>
            The live view runs {opened.variant} with the replay held to {opened.pages.toLocaleString('en')} pages (memory.max of its memcg).{' '}
            <button type="button" onClick={m.trace.openWhole} data-testid="mrc-whole">
              Back to the whole trace
            </button>
          </>
        ) : (
          'Each kernel point is a run of that variant with the replay in a memcg of that many pages; click one to watch it.'
        )}
      </p>
    </section>
  );
}

function Other({ m, v }: { m: AppModel; v: StageView }) {
  if (v === 'mrc') return <Mrc m={m} />;
  if (v === 'charts') return <Charts m={m} />;
  if (v === 'diff') return <DiffTable runs={m.state.runs} frames={m.frames} counterNames={m.state.counterNames} />;
  if (v === 'results') return <Results m={m} />;
  return null;
}

/** The counters the caption names, per run, when the stage shows no run's panel (which has
 *  them): a caption never names a counter the stage does not show. */
function NamedCounters({ m }: { m: AppModel }) {
  const { state, frames } = m;
  if (m.namedCounters.length === 0) return null;
  return (
    <div className="stage-named" data-testid="stage-named-counters">
      {state.runs.map((run, i) => (
        <div key={i} className="stage-named-run">
          {state.runs.length > 1 && <strong>{run.variant}: </strong>}
          <RunCounters frame={frames[i]!} counterNames={state.counterNames} testPrefix={`stage-${i}-`} named={m.namedCounters} only />
        </div>
      ))}
    </div>
  );
}

interface Props {
  m: AppModel;
  view: StageView;
  onView(v: StageView): void;
  /** The first-visit line, in the caption's place until the lesson has a step to show. */
  intro: ReactNode;
}

export function Stage({ m, view, onView, intro }: Props) {
  const views = stageViews(m);
  const shown = views.includes(view) ? view : 'lists';
  const onStage = RUN_VIEWS.includes(shown);
  const rest = views.filter((v) => v !== shown);
  const projector = useProjector();
  return (
    <>
      <section className="stage" aria-label="Stage" data-testid="stage" data-view={shown}>
        <Tabs.Root className="stage-main" value={shown} onValueChange={(v) => onView(v as StageView)}>
          <Tabs.List className="tabs-list stage-tabs" aria-label="What the stage shows">
            {views.map((v) => (
              <Tabs.Trigger key={v} value={v} className="tab" data-testid={`stage-tab-${v}`}>
                {LABELS[v]}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          <Tabs.Content value={shown} className={`stage-view${projector ? ' slide-type projector' : ''}${m.ready ? '' : ' loading'}`} data-testid="stage-view">
            {m.ready && (onStage ? <Runs m={m} views={[shown]} primary className="stage-runs" projector={projector} /> : <Other m={m} v={shown} />)}
            {m.ready && !onStage && <NamedCounters m={m} />}
          </Tabs.Content>
        </Tabs.Root>
        <div className="stage-caption" data-testid="stage-caption">
          {intro}
          {/* The lesson's place, kept while the engine loads, so the stage does not move when it comes. */}
          {!m.ready && /^\[\[lesson\]\]/m.test(m.setup.file?.text ?? '') && <div className="lesson-placeholder" aria-hidden="true" />}
          <Lesson m={m} onView={(h) => onView(LESSON_STAGE[h] ?? 'lists')} />
        </div>
      </section>
      {m.ready && (
        <div className="below-stage" data-testid="below-stage">
          <Runs m={m} views={rest.filter((v) => RUN_VIEWS.includes(v))} primary={!onStage} className="runs-below" />
          {rest
            .filter((v) => !RUN_VIEWS.includes(v))
            .map((v) => (
              <Other key={v} m={m} v={v} />
            ))}
        </div>
      )}
    </>
  );
}
