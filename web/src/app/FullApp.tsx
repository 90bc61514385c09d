// The full page: header, first-visit line, controls, lesson, share/export, the scenario editor,
// the runs and charts, the real-kernel overlay, results and sweeps.
import { useState } from 'react';
import { ClipExport } from '../components/ClipExport';
import { KernelOverlay } from '../components/KernelOverlay';
import { ResultsPanel } from '../components/ResultsPanel';
import { ScenarioEditor } from '../components/ScenarioEditor';
import { SharePanel } from '../components/SharePanel';
import { SweepPanel } from '../components/SweepPanel';
import { WATCHDOG_MS } from '../engine/useEngine';
import { anyFlags } from '../lib/flags';
import { saveDraft } from '../lib/urlState';
import { Lesson, LinkBanner, RunError } from './parts';
import { RunsGrid } from './RunsGrid';
import { SetupControls } from './SetupControls';
import type { AppModel } from './useApp';
import { DEFAULT_SPEED_STEP } from './useSetup';
import { SCENARIOS } from '../scenarios';

/** localStorage key: the first-visit line was dismissed. */
const INTRO_KEY = 'reclaim-lab-intro-seen';

function Intro() {
  const [seen, setSeen] = useState(() => {
    try {
      return localStorage.getItem(INTRO_KEY) === '1';
    } catch {
      return false;
    }
  });
  if (seen) return null;
  return (
    <p className="intro" data-testid="intro">
      <span>
        <strong>New here?</strong> This page simulates how Linux decides which memory pages to free when RAM runs out. Press <strong>Play</strong> (or Space) and
        follow the captions of this first lesson; the seed experiments are further down the Scenario list. Underlined terms explain themselves on hover.
      </span>{' '}
      <button
        type="button"
        className="ghost small-button"
        data-testid="intro-dismiss"
        onClick={() => {
          setSeen(true);
          try {
            localStorage.setItem(INTRO_KEY, '1');
          } catch {
            /* private mode: the line comes back next time */
          }
        }}
      >
        Got it
      </button>
    </p>
  );
}

export function FullApp({ m }: { m: AppModel }) {
  const { state, setup, ready, seeking, theme, kernel, link } = m;
  const { file, edited, knobs } = setup;
  const knobsChanged = Object.keys(knobs).length > 0;
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
          <button type="button" className="ghost" onClick={() => m.setTheme(theme === 'dark' ? 'light' : 'dark')} title="Switch the colour theme" data-testid="theme-toggle">
            {theme === 'dark' ? 'Light theme' : 'Dark theme'}
          </button>
        </div>
      </header>

      <Intro />
      <LinkBanner m={m} />
      {state.error && !m.broken && (
        <div className="error" role="alert" data-testid="engine-error">
          {state.error}
        </div>
      )}
      {state.stalled && (
        <div className="error" role="alert" data-testid="engine-stalled">
          The engine has not answered for {WATCHDOG_MS / 1000} s.{' '}
          <button type="button" data-testid="engine-stop" onClick={m.engine.stop}>
            Stop
          </button>{' '}
          (restarts the engine and reloads the scenario from its start)
        </div>
      )}

      <SetupControls m={m} />
      <Lesson m={m} />
      <SharePanel
        makeLink={link.makeLink}
        exporters={m.exports.exporters}
        ready={ready && !seeking}
        resultsReady={m.resultsReady}
        views={m.embedViews}
        clip={<ClipExport ready={ready && !seeking} nowNs={m.nowNs} record={m.exports.recordClipRange} />}
      />
      {file && (
        <ScenarioEditor
          key={`${file.name}:${link.boot}`}
          original={file.text}
          edited={edited}
          onApply={setup.setEdited}
          initialDraft={link.restoredDraft}
          onDraft={(text) => {
            if (link.boot === 'done') saveDraft(file.name, edited ?? file.text, text);
          }}
        />
      )}
      {m.broken && <RunError error={state.error!} />}
      {ready && <RunsGrid m={m} />}
      {anyFlags(setup.runFlags) && (
        <p className="muted small" data-testid="results-flags-note">
          The results table runs the scenario&apos;s variants as written; the kernel flag overrides apply to the live runs above.
        </p>
      )}
      <KernelOverlay
        runs={kernel.kernelRuns}
        error={kernel.kernelError}
        onFiles={kernel.loadKernel}
        onRemove={(i) => kernel.setKernelRuns((runs) => runs.filter((_, j) => j !== i))}
        liveVariants={state.runs.map((r) => r.variant)}
        changed={knobsChanged || edited !== null || setup.swapPair !== null}
      />
      <ResultsPanel reports={m.reports} expect={m.expect} knobsChanged={knobsChanged} kernels={kernel.kernelRuns} kernelAssessment={m.kernelAssessment} />
      <SweepPanel scenarios={SCENARIOS} speedStep={DEFAULT_SPEED_STEP} />
    </main>
  );
}
