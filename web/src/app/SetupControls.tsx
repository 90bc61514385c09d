// The full page's controls: scenario, variants, compare, play/step/reset, speed, the scrubber,
// knobs, the kernel flag overrides and the swappiness notes.
import { useState } from 'react';
import { Controls } from '../components/Controls';
import { FlagToggles } from '../components/FlagToggles';
import { Scrubber } from '../components/Scrubber';
import { kernelLabel, swappinessNote } from '../lib/flags';
import { SCENARIOS } from '../scenarios';
import type { AppModel } from './useApp';

export function SetupControls({ m }: { m: AppModel }) {
  const { state, setup, ready, seeking, seek } = m;
  // Kept mounted (and its open state held here) while a toggle reloads the runs.
  const [flagsOpen, setFlagsOpen] = useState(false);
  return (
    <Controls
      scenarios={SCENARIOS}
      scenarioName={setup.scenarioName}
      onScenario={m.openScenario}
      description={setup.file?.description ?? ''}
      variants={setup.variants}
      variant={setup.a}
      onVariant={(v) => {
        setup.setVariant(v);
        setup.setSideFlags((f) => [{}, f[1]]);
      }}
      compare={setup.compare}
      onCompare={setup.setCompare}
      variantB={setup.b}
      onVariantB={(v) => {
        setup.setVariantB(v);
        setup.setSideFlags((f) => [f[0], {}]);
      }}
      ready={ready && !seeking}
      playing={state.playing}
      finished={m.finished}
      onPlay={m.transport.togglePlay}
      onStep={() => m.engine.step(m.stepNs)}
      stepNs={m.stepNs}
      onReset={m.engine.reset}
      speedStep={setup.speedStep}
      onSpeedStep={setup.setSpeedStep}
      speed={setup.speed}
      nowNs={m.nowNs}
      endNs={m.endNs}
      realEndNs={m.realEndNs}
      status={m.status}
      swapPair={setup.swapPair}
      onSwapPair={setup.setSwapPair}
      scenarioText={setup.edited ?? setup.file?.text ?? ''}
      knobs={setup.knobs}
      onKnobs={setup.setKnobs}
      scrubber={<Scrubber nowNs={m.nowNs} maxNs={m.scrubMax} seek={seek} seekFromNs={state.seekFromNs} enabled={ready || seeking} onSeek={m.transport.pauseAndSeek} />}
      flagPanel={
        state.kernel &&
        state.runs.length > 0 && (
          <details className="flags-panel" data-testid="flags-panel" open={flagsOpen} onToggle={(e) => setFlagsOpen(e.currentTarget.open)}>
            <summary>Kernel flags: override a behaviour of {setup.compare ? 'either run' : 'the run'} (each flag names the kernel version that changed it)</summary>
            <div className="flags-sides">
              {state.runs.map((run, i) => (
                <FlagToggles
                  key={i}
                  kernel={state.kernel}
                  side={i}
                  run={run}
                  overrides={setup.sideFlags[i] ?? {}}
                  disabled={seeking || !ready}
                  onChange={(o) => setup.setSideFlags((f) => (i === 0 ? [o, f[1]] : [f[0], o]))}
                />
              ))}
            </div>
          </details>
        )
      }
      swappinessNote={
        <div className="swappiness-notes" aria-live="polite">
          {state.runs.map((run, i) => {
            const note = swappinessNote(kernelLabel(state.kernel, run.preset, run.kernel?.flags), run);
            return (
              note && (
                <p key={i} className="swappiness-note" data-testid={`swappiness-note-${i}`}>
                  {state.runs.length > 1 && <strong>{run.variant}: </strong>}
                  {note}
                </p>
              )
            );
          })}
        </div>
      }
    />
  );
}
