// The full page: the top bar, the stage with the lesson's caption docked to it, everything
// else below the stage, and the tools panel (closed by default) beside it.
import { useState } from 'react';
import './stage.css';
import { WATCHDOG_MS } from '../engine/useEngine';
import { LinkBanner, RunError } from './parts';
import { Stage, type StageView } from './Stage';
import { Tools, type ToolTab } from './Tools';
import { TraceNeeded, TracesInUse } from '../components/TracePanel';
import { TopBar } from './TopBar';
import type { AppModel } from './useApp';

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
        <strong>New here?</strong> <span className="intro-more">This page simulates how Linux decides which memory pages to free when RAM runs out. </span>Press{' '}
        <strong>Play</strong> (or Space) and follow the captions of this first lesson.{' '}
        <span className="intro-more">Underlined terms explain themselves on hover; <strong>Tools</strong> holds the knobs, the scenario&apos;s file, sharing and more.</span>
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
  const { state } = m;
  const [toolsOpen, setToolsOpen] = useState(false);
  const [toolTab, setToolTab] = useState<ToolTab>('setup');
  const [view, setView] = useState<StageView>('lists');
  m.kernel.onFilesDropped.current = () => {
    setToolTab('kernel');
    setToolsOpen(true);
  };
  return (
    <main className={toolsOpen ? 'app tools-open' : 'app'}>
      <TopBar m={m} toolsOpen={toolsOpen} onTools={setToolsOpen} />
      <div className="page">
        <div className="page-main">
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
          {m.broken && <RunError error={state.error!} />}
          {m.trace.status.error && m.setup.missingTraces.length === 0 && (
            <div className="error" role="alert" data-testid="trace-error">
              {m.trace.status.error}{' '}
              <button type="button" className="ghost small-button" onClick={m.trace.clearError} data-testid="trace-error-dismiss">
                Dismiss
              </button>
            </div>
          )}
          {m.trace.status.phase === 'reading' && (
            <p className="muted" role="status" data-testid="trace-reading-banner">
              Reading {m.trace.status.name}…
            </p>
          )}
          {m.setup.missingTraces.length > 0 ? (
            <TraceNeeded names={m.setup.missingTraces} shipped={m.trace.shipped} onFile={m.trace.load} status={m.trace.status} fetchFailed={m.trace.fetchFailed} onRetry={m.trace.retry} />
          ) : (
            <>
              {m.setup.heldTraces.length > 0 && <TracesInUse held={m.setup.heldTraces} onFile={m.trace.load} />}
              <Stage m={m} view={view} onView={setView} intro={<Intro />} />
            </>
          )}
          <p className="muted small engine-line">
            engine <span data-testid="engine-version">{state.engineVersion ?? (state.phase === 'error' ? 'not loaded' : 'loading…')}</span>
          </p>
        </div>
        <Tools m={m} open={toolsOpen} tab={toolTab} onTab={setToolTab} onClose={() => setToolsOpen(false)} />
      </div>
    </main>
  );
}
