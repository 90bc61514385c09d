// The tools panel beside the stage, closed by default: knobs and flags, the scenario text,
// share and export, real kernel runs, sweeps. Each tab stays mounted while hidden, so a draft,
// a loaded kernel run or a running sweep survives closing the panel.
import * as Tabs from '@radix-ui/react-tabs';
import { useState } from 'react';
import { ClipExport } from '../components/ClipExport';
import { SetupPanel } from '../components/Controls';
import { FlagToggles } from '../components/FlagToggles';
import { KernelOverlay } from '../components/KernelOverlay';
import { ScenarioEditor } from '../components/ScenarioEditor';
import { SharePanel } from '../components/SharePanel';
import { SweepPanel } from '../components/SweepPanel';
import { TracePanel } from '../components/TracePanel';
import { kernelLabel, swappinessNote } from '../lib/flags';
import { saveDraft } from '../lib/urlState';
import { replaysTrace, SCENARIOS, TRACE_LESSONS } from '../scenarios';
import type { AppModel } from './useApp';
import { DEFAULT_SPEED_STEP } from './useSetup';

/** A sweep's workers get no traces: the scenarios that replay one are left out. */
const SWEEPABLE = SCENARIOS.filter((s) => !replaysTrace(s));

export const TOOL_TABS = [
  ['setup', 'Knobs & flags'],
  ['scenario', 'Scenario'],
  ['share', 'Share & export'],
  ['kernel', 'Real kernel'],
  ['trace', 'Your trace'],
  ['sweeps', 'Sweeps'],
] as const;
export type ToolTab = (typeof TOOL_TABS)[number][0];

interface Props {
  m: AppModel;
  open: boolean;
  tab: ToolTab;
  onTab(tab: ToolTab): void;
  onClose(): void;
}

function Flags({ m }: { m: AppModel }) {
  const { state, setup, ready, seeking } = m;
  // Kept mounted (and its open state held here) while a toggle reloads the runs.
  const [open, setOpen] = useState(false);
  if (!state.kernel || state.runs.length === 0) return null;
  // A knob comparison runs both sides with one set of overrides.
  const runs = setup.swapPair ? state.runs.slice(0, 1) : state.runs;
  return (
    <details className="flags-panel" data-testid="flags-panel" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Kernel flags: override a behaviour of {setup.compare ? 'either run' : setup.swapPair ? 'both runs' : 'the run'} (each flag names the kernel version that changed it)</summary>
      <div className="flags-sides">
        {runs.map((run, i) => (
          <FlagToggles key={i} kernel={state.kernel} side={i} run={run} overrides={setup.sideFlags[i] ?? {}} disabled={seeking || !ready} onChange={(o) => setup.setSideFlags((f) => (i === 0 ? [o, f[1]] : [f[0], o]))} />
        ))}
      </div>
    </details>
  );
}

export function Tools({ m, open, tab, onTab, onClose }: Props) {
  const { state, setup, ready, seeking, kernel, link } = m;
  const { file, edited, knobs } = setup;
  const panels: Record<ToolTab, React.ReactNode> = {
    setup: (
      <SetupPanel
        swapPair={setup.swapPair}
        onSwapPair={setup.setSwapPair}
        onCompare={setup.setCompare}
        // The knob reaches the highest cap of the runs shown: comparing a kernel capped at
        // 100 with one that takes 200, 115 is asked of both and the capped side's note says so.
        swappinessMax={Math.max(100, ...state.runs.map((r) => r.kernel?.swappiness.cap ?? 200))}
        pairMax={state.runs[0]?.kernel?.swappiness.cap ?? 200}
        scenarioFile={state.scenario === file?.name ? state.file : null}
        knobs={knobs}
        onKnobs={setup.setKnobs}
        flagPanel={<Flags m={m} />}
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
    ),
    scenario: (
      <>
        <p className="scenario-description" data-testid="scenario-description">
          {file?.description ?? ''}
        </p>
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
      </>
    ),
    share: (
      <SharePanel
        makeLink={link.makeLink}
        exporters={m.exports.exporters}
        ready={ready && !seeking}
        resultsReady={m.resultsReady}
        views={m.embedViews}
        clip={<ClipExport ready={ready && !seeking} nowNs={m.nowNs} record={m.exports.recordClipRange} />}
      />
    ),
    kernel: (
      <KernelOverlay
        runs={kernel.kernelRuns}
        error={kernel.kernelError}
        onFiles={kernel.loadKernel}
        onRemove={(i) => kernel.setKernelRuns((runs) => runs.filter((_, j) => j !== i))}
        liveVariants={state.runs.map((r) => r.variant)}
        changed={Object.keys(knobs).length > 0 || edited !== null || setup.swapPair !== null}
      />
    ),
    trace: (
      <TracePanel
        status={m.trace.status}
        onFile={m.trace.load}
        point={setup.traceOpen && setup.trace?.mrcPages != null ? { variant: setup.a ?? '', pages: setup.trace.mrcPages } : null}
        onWhole={m.trace.openWhole}
        shipped={m.trace.shipped}
        onPick={m.trace.pick}
        lessons={TRACE_LESSONS}
        onLesson={m.openScenario}
      />
    ),
    sweeps: <SweepPanel scenarios={SWEEPABLE} speedStep={DEFAULT_SPEED_STEP} />,
  };
  return (
    <aside id="tools" className="tools" aria-label="Tools" data-testid="tools" hidden={!open}>
      <Tabs.Root value={tab} onValueChange={(v) => onTab(v as ToolTab)}>
        <div className="tools-head">
          <Tabs.List className="tabs-list" aria-label="Tools">
            {TOOL_TABS.map(([id, label]) => (
              <Tabs.Trigger key={id} value={id} className="tab" data-testid={`tools-tab-${id}`}>
                {label}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          <button type="button" className="ghost" onClick={onClose} aria-label="Close the tools" data-testid="tools-close">
            ✕
          </button>
        </div>
        {TOOL_TABS.map(([id]) => (
          <Tabs.Content key={id} value={id} forceMount hidden={tab !== id} className="tools-body" data-testid={`tools-${id}`}>
            {panels[id]}
          </Tabs.Content>
        ))}
      </Tabs.Root>
    </aside>
  );
}
