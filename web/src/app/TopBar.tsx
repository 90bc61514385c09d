// The one compact bar above the stage: the name, scenario, kernel(s), Play, time, speed, the
// time bar, and the buttons that open the tools panel and switch the theme.
import { TopControls } from '../components/Controls';
import { Scrubber } from '../components/Scrubber';
import { SCENARIOS } from '../scenarios';
import { timeEvents } from './RunEvents';
import type { AppModel } from './useApp';

interface Props {
  m: AppModel;
  toolsOpen: boolean;
  onTools(open: boolean): void;
}

export function TopBar({ m, toolsOpen, onTools }: Props) {
  const { state, setup, ready, seeking, seek, theme } = m;
  return (
    <header className="topbar" data-testid="topbar">
      <div className="topbar-row">
        <h1 className="brand" title={`Reclaim Lab: Linux page reclaim, simulated page by page (engine ${state.engineVersion ?? '…'})`}>
          Reclaim Lab
        </h1>
        <TopControls
          scenarios={setup.trace ? [...SCENARIOS, setup.trace.file] : SCENARIOS}
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
          onSwapPair={setup.setSwapPair}
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
        >
          <button type="button" className={toolsOpen ? 'tools-toggle on' : 'tools-toggle'} aria-expanded={toolsOpen} aria-controls="tools" data-testid="tools-toggle" onClick={() => onTools(!toolsOpen)} title="Knobs and flags, the scenario text, share and export, real kernel runs, sweeps">
            {toolsOpen ? 'Close tools' : 'Tools…'}
          </button>
          <button type="button" className="ghost theme-toggle" onClick={() => m.setTheme(theme === 'dark' ? 'light' : 'dark')} title="Switch the colour theme" data-testid="theme-toggle">
            {theme === 'dark' ? 'Light' : 'Dark'}
          </button>
        </TopControls>
      </div>
      <Scrubber nowNs={m.nowNs} maxNs={m.scrubMax} seek={seek} seekFromNs={m.state.seekFromNs} enabled={ready || seeking} onSeek={m.transport.pauseAndSeek} events={timeEvents(m)} />
    </header>
  );
}
