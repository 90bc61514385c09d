import { useCallback, useEffect, useMemo, useState } from 'react';
import { BalanceView } from './components/BalanceView';
import { CounterCharts, RoundsChart } from './components/Charts';
import { Controls, type Knobs } from './components/Controls';
import { DiffTable } from './components/DiffTable';
import { LruView } from './components/LruView';
import { ratesOf } from './lib/rates';
import { ResultsPanel } from './components/ResultsPanel';
import { ScenarioEditor } from './components/ScenarioEditor';
import type { ScenarioSource } from './engine/protocol';
import { useEngine } from './engine/useEngine';
import { useReports } from './engine/useReports';
import { formatNs, speedAt } from './format';
import { applyOverrides, expectTexts } from './lib/scenarioText';
import { SCENARIOS } from './scenarios';

export const DEFAULT_SPEED_STEP = 10; // 250 ms of virtual time per second

export function App() {
  const { state, load, setPlaying, step, setSpeed, reset } = useEngine();
  const [scenarioName, setScenarioName] = useState(SCENARIOS[0]?.name ?? '');
  const [variant, setVariant] = useState<string | null>(null);
  const [compare, setCompare] = useState(false);
  const [variantB, setVariantB] = useState<string | null>(null);
  const [knobs, setKnobs] = useState<Knobs>({});
  /** The scenario text as edited by hand (null: the file as it is). */
  const [edited, setEdited] = useState<string | null>(null);
  const [speedStep, setSpeedStep] = useState(DEFAULT_SPEED_STEP);
  const [theme, setTheme] = useState<'light' | 'dark'>(() =>
    typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light',
  );

  const file = SCENARIOS.find((s) => s.name === scenarioName) ?? null;
  const source: ScenarioSource | null = useMemo(
    () => (file ? { name: file.name, text: applyOverrides(edited ?? file.text, knobs) } : null),
    [file, knobs, edited],
  );
  const reports = useReports(source);
  const expect = useMemo(() => (file ? expectTexts(file.text) : []), [file]);
  const speed = speedAt(speedStep);

  useEffect(() => setSpeed(speed), [speed, setSpeed]);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);

  // (Re)load whenever the scenario, its knobs, the variants or compare mode change.
  const variants = state.scenario === scenarioName ? state.variants : [];
  const a = variant ?? variants[0]?.name ?? null;
  const b = variantB ?? variants.find((v) => v.name !== a)?.name ?? a;
  // Until the user picks, the engine runs the first variant (no reload when its name arrives).
  const wanted = compare ? (a && b ? [a, b] : []) : variant ? [variant] : [];
  const wantedKey = wanted.join('\u0000');
  useEffect(() => {
    if (source) load(source, wantedKey ? wantedKey.split('\u0000') : []);
  }, [source, wantedKey, load]);

  const frames = state.frames;
  const ready = state.phase === 'ready' && frames.length > 0 && frames.length === state.runs.length;
  const finished = ready && frames.every((f) => f.finished);
  const stepNs = Math.max(1_000_000, Math.round(speed / 10));
  const togglePlay = useCallback(() => {
    if (ready && !finished) setPlaying(!state.playing);
  }, [ready, finished, state.playing, setPlaying]);

  // Keyboard: space play/pause, right arrow step, +/- speed, r reset.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA') && (t as HTMLInputElement).type !== 'checkbox') return;
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === ' ') {
        e.preventDefault();
        togglePlay();
      } else if (e.key === 'ArrowRight' || e.key === 'ArrowUp') {
        e.preventDefault();
        if (ready && !finished) step(stepNs);
      } else if (e.key === '+' || e.key === '=') {
        setSpeedStep((s) => Math.min(24, s + 1));
      } else if (e.key === '-' || e.key === '_') {
        setSpeedStep((s) => Math.max(0, s - 1));
      } else if (e.key === 'r') {
        reset();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [togglePlay, step, stepNs, ready, finished, reset]);

  const nowNs = frames[0]?.nowNs ?? 0;
  const endNs = state.runs[0]?.endNs ?? 0;

  return (
    <main className="app">
      <header className="top">
        <div>
          <h1>Reclaim Lab</h1>
          <p className="tagline">Linux page reclaim, simulated page by page.</p>
        </div>
        <div className="top-right">
          <span className="muted">
            engine <span data-testid="engine-version">{state.engineVersion ?? (state.phase === 'error' ? 'not loaded' : 'loading…')}</span>
          </span>
          <button type="button" className="ghost" onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')} aria-label="Switch colour theme" data-testid="theme-toggle">
            {theme === 'dark' ? 'Light theme' : 'Dark theme'}
          </button>
        </div>
      </header>

      {state.error && (
        <div className="error" role="alert" data-testid="engine-error">
          {state.error}
        </div>
      )}

      <Controls
        scenarios={SCENARIOS}
        scenarioName={scenarioName}
        onScenario={(n) => {
          setScenarioName(n);
          setVariant(null);
          setVariantB(null);
          setKnobs({});
          setEdited(null);
        }}
        description={file?.description ?? ''}
        variants={variants}
        variant={a}
        onVariant={setVariant}
        compare={compare}
        onCompare={setCompare}
        variantB={b}
        onVariantB={setVariantB}
        ready={ready}
        playing={state.playing}
        finished={finished}
        onPlay={togglePlay}
        onStep={() => step(stepNs)}
        stepNs={stepNs}
        onReset={reset}
        speedStep={speedStep}
        onSpeedStep={setSpeedStep}
        speed={speed}
        nowNs={nowNs}
        endNs={endNs}
        status={state.phase === 'error' ? 'error' : !ready ? 'loading' : finished ? 'finished' : state.playing ? 'running' : 'paused'}
        scenarioText={edited ?? file?.text ?? ''}
        knobs={knobs}
        onKnobs={setKnobs}
      />

      {file && <ScenarioEditor key={file.name} original={file.text} edited={edited} onApply={setEdited} />}

      {ready && (
        <>
          <section className={`runs runs-${frames.length}`} aria-label="Runs" data-testid="runs" data-seq={state.seq}>
            {state.runs.map((run, i) => (
              <article key={run.variant + i} className="run" data-testid={`run-${i}`} data-variant={run.variant}>
                <h2>
                  {run.variant} <span className="muted">({run.preset})</span>{' '}
                  <span className="muted small" data-testid={`run-${i}-time`}>
                    {formatNs(frames[i]!.nowNs)}
                  </span>
                </h2>
                <div className="run-body">
                <LruView
                  info={run}
                  frame={frames[i]!}
                  rates={ratesOf(state.series[i] ?? [], state.counterNames, run.scale)}
                  testPrefix={`run-${i}-`}
                  theme={theme}
                />
                <BalanceView info={run} frame={frames[i]!} testPrefix={`run-${i}-`} />
                </div>
              </article>
            ))}
          </section>
          {frames.length > 1 && <DiffTable runs={state.runs} frames={frames} counterNames={state.counterNames} />}
          <section className="charts" aria-label="Charts">
            <CounterCharts runs={state.runs} frames={frames} series={state.series} counterNames={state.counterNames} />
            {reports.text === source?.text && <RoundsChart reports={reports.reports} />}
          </section>
        </>
      )}

      <ResultsPanel reports={reports} expect={expect} />
    </main>
  );
}
