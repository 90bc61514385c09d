// The time scrubber: a slider over the virtual time reached so far. Moving it back replays the runs
// from the start to the chosen time in the worker (the engine is deterministic and step-size
// independent, so the replayed state is exactly the one a fresh run reaches); a long replay
// shows its progress. Forward moves simply run on.
import { useRef, useState } from 'react';
import { formatNs } from '../format';
import './extra.css';

interface Props {
  nowNs: number;
  /** The slider's end: the furthest time reached (play runs further). */
  maxNs: number;
  /** A seek in progress: where it goes and where it started (0 for a replay). */
  seek: { ns: number; from: number } | null;
  enabled: boolean;
  onSeek(ns: number): void;
  /** Terminal events to mark on the bar (an OOM kill, a run's end). */
  events?: { ns: number; kind: string; label: string }[];
}

/** At least this many positions on the slider: its step is the power of ten that gives them
 *  (a step that changes only by decades as the range grows; arrows move one step). */
export const SCRUB_STEPS = 1000;

export function scrubStep(maxNs: number): number {
  return 10 ** Math.max(0, Math.floor(Math.log10(Math.max(1, maxNs) / SCRUB_STEPS)));
}

export function Scrubber({ nowNs, maxNs, seek, enabled, onSeek, events = [] }: Props) {
  const [draft, setDraft] = useState<number | null>(null);
  const dragging = useRef(false);
  const step = scrubStep(maxNs);
  const value = draft ?? seek?.ns ?? nowNs;
  const commit = (ns: number) => {
    setDraft(null);
    if (ns !== nowNs || seek) onSeek(ns);
  };
  const done = seek ? Math.min(1, Math.max(0, (nowNs - seek.from) / Math.max(1, seek.ns - seek.from))) : 1;
  return (
    <div className="scrubber" data-testid="scrubber" data-now-ns={nowNs}>
      <label className="field scrub-field">
        <span>
          Time reached <span className="muted small">· drag back to replay from the start to that moment (keys ← → PageUp PageDown Home End)</span>
        </span>
        <span className="scrub-track">
        <input
          type="range"
          min={0}
          max={Math.max(maxNs, step)}
          step={step}
          value={value}
          disabled={!enabled || maxNs <= 0}
          aria-label="Virtual time (scrub back or forward)"
          aria-valuetext={formatNs(value)}
          aria-keyshortcuts="ArrowLeft ArrowRight Home End PageUp PageDown"
          data-testid="scrub"
          onPointerDown={() => (dragging.current = true)}
          onPointerUp={(e) => {
            dragging.current = false;
            commit(Number((e.target as HTMLInputElement).value));
          }}
          onChange={(e) => {
            const ns = Number(e.target.value);
            // While dragging, only the label follows; the replay starts on release. Keys and
            // programmatic changes seek at once.
            if (dragging.current) setDraft(ns);
            else commit(ns);
          }}
        />
        {events.map((e, i) => (
          <span
            key={i}
            className={`scrub-event ${e.kind}`}
            style={{ left: `${(100 * Math.min(e.ns, maxNs)) / Math.max(maxNs, step)}%` }}
            title={e.label}
            aria-label={e.label}
            role="img"
            data-testid={`scrub-event-${e.kind}`}
          >
            {e.kind === 'oom' ? '✕' : '▮'}
          </span>
        ))}
        </span>
      </label>
      <span className="scrub-time" data-testid="scrub-target">
        {formatNs(value)}
      </span>
      {/* The space is kept while no seek runs, so the slider does not jump under the pointer. */}
      <span className="scrub-progress-box">
        {seek && (
          <span className="scrub-progress" role="status" data-testid="scrub-progress">
            {seek.from === 0 ? 'replaying from the start' : 'running on'} to {formatNs(seek.ns)}{' '}
            <progress max={1} value={done} aria-label={`Replay to ${formatNs(seek.ns)}`} /> {Math.round(done * 100)}%
          </span>
        )}
      </span>
    </div>
  );
}
