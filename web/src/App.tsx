import { CounterChart, seriesColor } from './components/CounterChart';
import { useEngine } from './engine/useEngine';
import { formatCount, formatNs } from './format';

export function App() {
  const { state, toggleRun } = useEngine();
  const { phase, engineVersion, scenario, counterNames, counters, nowNs, running, history, error } = state;

  return (
    <main className="app">
      <header>
        <h1>Reclaim Lab</h1>
        <p className="tagline">Linux page reclaim, simulated page by page.</p>
      </header>

      {error && (
        <div className="error" role="alert" data-testid="engine-error">
          {error}
        </div>
      )}

      <section className="toolbar" aria-label="Simulation controls">
        <button type="button" data-testid="run-toggle" onClick={toggleRun} disabled={phase !== 'ready'}>
          {running ? 'Pause' : 'Start'}
        </button>
        <dl className="facts">
          <div>
            <dt>Engine</dt>
            <dd data-testid="engine-version">{engineVersion ?? (phase === 'error' ? 'not loaded' : 'loading…')}</dd>
          </div>
          <div>
            <dt>Scenario</dt>
            <dd data-testid="scenario">{scenario ?? '—'}</dd>
          </div>
          <div>
            <dt>Virtual time</dt>
            <dd data-testid="virtual-time">{formatNs(nowNs)}</dd>
          </div>
          <div>
            <dt>Status</dt>
            <dd data-testid="status">{phase === 'ready' ? (running ? 'running' : 'paused') : phase}</dd>
          </div>
        </dl>
      </section>

      <section className="panels">
        <table className="counters" aria-label="Counters">
          <thead>
            <tr>
              <th>Counter</th>
              <th>Value</th>
            </tr>
          </thead>
          <tbody>
            {counterNames.map((name, i) => (
              <tr key={name}>
                <th scope="row">
                  <span className="swatch" style={{ background: seriesColor(name) }} />
                  {name}
                </th>
                <td data-testid={`counter-${name}`}>{counters ? formatCount(counters[i] ?? NaN) : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <CounterChart names={counterNames} history={history} />
      </section>
    </main>
  );
}
