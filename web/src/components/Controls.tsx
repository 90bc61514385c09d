// The top bar's controls (scenario and kernel pickers, compare mode, play / pause / step /
// reset, time, speed) and the setup panel (a knob comparison, the knobs that rewrite the
// scenario text, the kernel flag overrides).
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { VariantInfo } from '../engine/protocol';
import { formatNs, formatShortNs, formatSpeed, SPEED_STEPS } from '../format';
import { GlossaryTerm } from './GlossaryTerm';
import type { Overrides } from '../lib/knobs';
import type { ScenarioInfo } from '../engine/generated/views';
import type { ScenarioFile } from '../scenarios';

export type Knobs = Overrides;

const RAM_CHOICES = ['512MiB', '1GiB', '2GiB', '3GiB', '4GiB', '7GiB', '8GiB', '16GiB'];
const SCALE_CHOICES = [1, 2, 4, 8, 16, 32, 64];

interface TopProps {
  scenarios: ScenarioFile[];
  scenarioName: string;
  onScenario(name: string): void;
  description: string;
  variants: VariantInfo[];
  variant: string | null;
  onVariant(name: string): void;
  compare: boolean;
  onCompare(on: boolean): void;
  variantB: string | null;
  onVariantB(name: string): void;
  /** Compare mode turns a knob comparison off. */
  onSwapPair(pair: [number, number] | null): void;
  ready: boolean;
  playing: boolean;
  finished: boolean;
  onPlay(): void;
  onStep(): void;
  stepNs: number;
  onReset(): void;
  speedStep: number;
  onSpeedStep(step: number): void;
  speed: number;
  nowNs: number;
  /** The run's cap on virtual time (run.duration). */
  endNs: number;
  /** Where the run really ends (every task exited), once known (the results worker or the end
   *  of the run); null while unknown. */
  realEndNs: number | null;
  status: string;
  /** More buttons beside Reset (the page's Tools). */
  children?: ReactNode;
}

function VariantSelect({ id, label, variants, value, onChange }: { id: string; label: string; variants: VariantInfo[]; value: string | null; onChange(v: string): void }) {
  const preset = variants.find((v) => v.name === value)?.preset;
  return (
    <label className="field kernel-field">
      <span>{label}</span>
      <select data-testid={id} aria-label={label} value={value ?? ''} onChange={(e) => onChange(e.target.value)} disabled={variants.length === 0} title={preset ? `kernel ${preset}` : undefined}>
        {variants.map((v) => (
          <option key={v.name} value={v.name}>
            {v.name} ({v.preset})
          </option>
        ))}
      </select>
      <span className="sr-only" data-testid={`${id}-preset`}>
        kernel {preset ?? '—'}
      </span>
    </label>
  );
}

/** Virtual time reached per wall second while playing, over the last REACHED_WINDOW_MS; null
 *  until enough time has passed (or while paused). */
const REACHED_WINDOW_MS = 1500;
function useReachedSpeed(nowNs: number, playing: boolean): number | null {
  const samples = useRef<{ wall: number; ns: number }[]>([]);
  const [reached, setReached] = useState<number | null>(null);
  useEffect(() => {
    if (!playing) {
      samples.current = [];
      setReached(null);
      return;
    }
    const wall = performance.now();
    const s = samples.current;
    s.push({ wall, ns: nowNs });
    while (s.length > 2 && wall - s[1]!.wall >= REACHED_WINDOW_MS) s.shift();
    const first = s[0]!;
    if (wall - first.wall >= REACHED_WINDOW_MS / 2 && nowNs >= first.ns) setReached(((nowNs - first.ns) / (wall - first.wall)) * 1000);
  }, [nowNs, playing]);
  return reached;
}

/** The top bar's controls: scenario, kernel(s), Play (the one primary button), step, reset,
 *  time and speed. Everything else is in the tools panel. */
export function TopControls(p: TopProps) {
  const end = p.realEndNs ?? p.endNs;
  const progress = p.finished ? 1 : end > 0 ? Math.min(1, p.nowNs / end) : 0;
  const reached = useReachedSpeed(p.nowNs, p.playing && !p.finished);
  // The machine cannot keep up when it reaches clearly less than the speed asked for.
  const behind = reached !== null && reached < p.speed * 0.85;
  return (
    <div className="top-controls" role="group" aria-label="Simulation controls">
      <label className="field scenario-field">
        <span>Scenario</span>
        <select data-testid="scenario-select" aria-label="Scenario" value={p.scenarioName} onChange={(e) => p.onScenario(e.target.value)} title={p.description}>
          {p.scenarios.map((s) => (
            <option key={s.name} value={s.name}>
              {s.title}
            </option>
          ))}
        </select>
      </label>
      <div className="kernels">
        <VariantSelect id="variant-select" label="Kernel" variants={p.variants} value={p.variant} onChange={p.onVariant} />
        <label className="field checkbox compare-check">
          <input
            type="checkbox"
            data-testid="compare-toggle"
            checked={p.compare}
            onChange={(e) => {
              if (e.target.checked) p.onSwapPair(null);
              p.onCompare(e.target.checked);
            }}
          />
          <span>Compare</span>
        </label>
        {p.compare && <VariantSelect id="variant-b-select" label="against" variants={p.variants} value={p.variantB} onChange={p.onVariantB} />}
      </div>
      <div className="transport">
        <button type="button" className="primary play" data-testid="play-toggle" onClick={p.onPlay} disabled={!p.ready || p.finished} aria-keyshortcuts="Space">
          {p.playing ? 'Pause' : 'Play'}
        </button>
        <button type="button" className="ghost" data-testid="step" onClick={p.onStep} disabled={!p.ready || p.finished} aria-keyshortcuts="ArrowRight" data-step-ns={p.stepNs} title="One step of virtual time (→)">
          +{formatShortNs(p.stepNs)}
        </button>
        <button type="button" className="ghost" data-testid="reset" onClick={p.onReset} disabled={!p.ready} aria-keyshortcuts="r" title="Back to the start (r)">
          Reset
        </button>
        {p.children}
      </div>
      <div className="progress-box">
        <div className="facts">
          <span>
            <strong data-testid="virtual-time">{formatNs(p.nowNs)}</strong> <span className="muted">/</span>{' '}
            <span
              className="muted"
              data-testid="end-time"
              data-known={p.realEndNs !== null}
              title={p.realEndNs !== null ? 'where the run ends (every task has exited, or the duration cap)' : 'the run ends here at the latest (its duration cap), or earlier when every task has exited; the real end is known once the results are in'}
            >
              {p.realEndNs !== null ? formatNs(p.realEndNs) : `≤ ${formatNs(p.endNs)}`}
            </span>
          </span>
          <span className="status" data-testid="status">
            {p.status}
          </span>
        </div>
        <progress max={1} value={progress} aria-label="Progress through the run" data-testid="progress" />
      </div>
      <label className="field speed">
        <span>
          Speed <strong data-testid="speed">{formatSpeed(p.speed)}</strong>
          {behind && (
            <span className="speed-reached" data-testid="speed-reached" data-ns-per-s={Math.round(reached!)} title="This machine cannot simulate as fast as asked; this is the speed it reaches">
              {' '}
              · reaching <strong>{formatSpeed(reached!)}</strong> (the machine cannot keep up)
            </span>
          )}
        </span>
        <input
          type="range"
          min={0}
          max={SPEED_STEPS}
          step={1}
          value={p.speedStep}
          onChange={(e) => p.onSpeedStep(Number(e.target.value))}
          aria-label="Speed: virtual time per wall second"
          aria-valuetext={formatSpeed(p.speed)}
          aria-keyshortcuts="+ -"
          data-testid="speed-slider"
        />
      </label>
    </div>
  );
}

interface SetupProps {
  /** Compare one kernel at two swappiness values (null: off). */
  swapPair: [number, number] | null;
  onSwapPair(pair: [number, number] | null): void;
  onCompare(on: boolean): void;
  /** The swappiness knob's top: the highest cap of the runs shown (100 before 5.8, else 200). */
  swappinessMax: number;
  /** The cap of the kernel a knob comparison runs (the first run's): its default pair's top. */
  pairMax: number;
  /** The scenario file as the engine read it (its swappiness, its devices); null until then. */
  scenarioFile: ScenarioInfo | null;
  knobs: Knobs;
  onKnobs(k: Knobs): void;
  /** Slots filled by the page: the per-flag toggles, and the note shown beside the swappiness
   *  knob when a kernel refused the value. */
  flagPanel?: ReactNode;
  swappinessNote?: ReactNode;
}

/** The tools panel's setup tab: a knob comparison, the knobs, the kernel flag overrides. */
export function SetupPanel(p: SetupProps) {
  return (
    <section className="controls setup-panel" aria-label="Knobs and flags">
      <div className="control-row">
        <label className="field checkbox">
          <input
            type="checkbox"
            data-testid="compare-swappiness-toggle"
            checked={p.swapPair !== null}
            onChange={(e) => {
              if (e.target.checked) p.onCompare(false);
              p.onSwapPair(e.target.checked ? [0, p.pairMax] : null);
            }}
          />
          <span>
            Compare this kernel at two <GlossaryTerm term="swappiness">swappiness</GlossaryTerm> values
          </span>
        </label>
        {p.swapPair && <SwapPairFields pair={p.swapPair} max={p.pairMax} onPair={p.onSwapPair} />}
      </div>
      <KnobsPanel file={p.scenarioFile} knobs={p.knobs} onKnobs={p.onKnobs} note={p.swappinessNote} max={p.swappinessMax} />
      {p.flagPanel}
      <p className="muted small keys">Keys: Space play/pause · → step · PageDown/PageUp next/previous lesson step · + / − speed · r reset</p>
    </section>
  );
}

/** A knob that is either "scenario" (no override) or one of `choices` ([value, label]). */
function KnobSelect(p: { label: string; ariaLabel?: string; testId: string; value: string | undefined; choices: [string, string][]; onChange(v: string | undefined): void }) {
  return (
    <label className="field">
      <span>{p.label}</span>
      <select value={p.value ?? ''} onChange={(e) => p.onChange(e.target.value || undefined)} aria-label={p.ariaLabel ?? p.label} data-testid={p.testId}>
        <option value="">scenario</option>
        {p.choices.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

function KnobsPanel({ file, knobs, onKnobs, note, max }: { file: ScenarioInfo | null; knobs: Knobs; onKnobs(k: Knobs): void; note?: ReactNode; max: number }) {
  const [draft, setDraft] = useState<Knobs>(knobs);
  useEffect(() => setDraft(knobs), [knobs]);
  const devices = file?.devices ?? [];
  // The scenario's own value as the engine read it ("…" until it has).
  const scenarioSwappiness = file?.swappiness;
  const dirty = JSON.stringify(draft) !== JSON.stringify(knobs);
  const set = (patch: Partial<Knobs>) => {
    const next: Knobs = { ...draft, ...patch };
    for (const k of Object.keys(next) as (keyof Knobs)[]) if (next[k] === undefined) delete next[k];
    setDraft(next);
  };
  return (
    <form
      className="knobs"
      aria-label="Knobs (override the scenario)"
      onSubmit={(e) => {
        e.preventDefault();
        onKnobs(draft);
      }}
    >
      <label className="field">
        <span>
          <GlossaryTerm term="swappiness">swappiness</GlossaryTerm>{' '}
          <strong data-testid="knob-swappiness-value">{draft.swappiness ?? `${scenarioSwappiness ?? '…'} (scenario)`}</strong>
        </span>
        <input
          type="range"
          min={0}
          max={max}
          value={draft.swappiness ?? scenarioSwappiness ?? 0}
          disabled={draft.swappiness === undefined && scenarioSwappiness === undefined}
          onChange={(e) => set({ swappiness: Number(e.target.value) })}
          aria-label="swappiness"
          data-testid="knob-swappiness"
        />
      </label>
      {note}
      <KnobSelect label="RAM" testId="knob-ram" value={draft.ram} choices={RAM_CHOICES.map((r) => [r, r])} onChange={(v) => set({ ram: v })} />
      <KnobSelect label="swap device" testId="knob-swap-device" value={draft.swapDevice} choices={devices.map((d) => [d, d])} onChange={(v) => set({ swapDevice: v })} />
      <KnobSelect label="file device" testId="knob-file-device" value={draft.fileDevice} choices={devices.map((d) => [d, d])} onChange={(v) => set({ fileDevice: v })} />
      <KnobSelect
        label="frame scale"
        ariaLabel="frame scale (pages per simulated frame)"
        testId="knob-frame-scale"
        value={draft.frameScale === undefined ? undefined : String(draft.frameScale)}
        choices={SCALE_CHOICES.map((n) => [String(n), `${n} page${n > 1 ? 's' : ''}/frame`])}
        onChange={(v) => set({ frameScale: v === undefined ? undefined : Number(v) })}
      />
      <label className="field">
        <span>seed</span>
        <input type="number" min={0} step={1} value={draft.seed ?? ''} placeholder="scenario" onChange={(e) => set({ seed: e.target.value === '' ? undefined : Math.max(0, Math.round(Number(e.target.value))) })} aria-label="seed" data-testid="knob-seed" className="seed" />
      </label>
      <div className="field knob-buttons">
        <button type="submit" disabled={!dirty} data-testid="knobs-apply">
          Apply knobs
        </button>
        <button type="button" className="ghost" disabled={Object.keys(knobs).length === 0 && !dirty} onClick={() => onKnobs({})} data-testid="knobs-clear">
          Scenario defaults
        </button>
      </div>
    </form>
  );
}

/** The two swappiness values of a knob comparison (each 0..max: a kernel before 5.8 caps at 100). */
function SwapPairFields({ pair, max, onPair }: { pair: [number, number]; max: number; onPair(p: [number, number]): void }) {
  const [draft, setDraft] = useState(pair);
  useEffect(() => setDraft(pair), [pair]);
  const field = (i: 0 | 1) => (
    <label className="field">
      <span>{i === 0 ? 'swappiness A' : 'against B'}</span>
      <input
        type="number"
        min={0}
        max={max}
        value={draft[i]}
        className="seed"
        aria-label={i === 0 ? 'swappiness A' : 'swappiness B'}
        data-testid={`swap-pair-${i}`}
        onChange={(e) => {
          const v = Math.min(max, Math.max(0, Math.round(Number(e.target.value) || 0)));
          setDraft(i === 0 ? [v, draft[1]] : [draft[0], v]);
        }}
      />
    </label>
  );
  return (
    <form
      className="swap-pair"
      onSubmit={(e) => {
        e.preventDefault();
        onPair(draft);
      }}
    >
      {field(0)}
      {field(1)}
      <button type="submit" className="ghost" disabled={draft[0] === pair[0] && draft[1] === pair[1]} data-testid="swap-pair-apply">
        Apply
      </button>
    </form>
  );
}
