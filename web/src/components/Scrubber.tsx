// The time scrubber: a slider over the virtual time reached so far. Moving it back restores the
// worker's nearest checkpoint before the chosen time and replays from there (the engine is
// deterministic and step-size independent, so the state is exactly the one a fresh run
// reaches); a long replay shows its progress. Forward moves run on from where the runs are.
import { useRef, useState } from 'react';
import { formatNs } from '../format';
import { SeekProgress, type SeekState } from './SeekProgress';
import './extra.css';

interface Props {
  nowNs: number;
  /** The slider's end: the furthest time reached (play runs further). */
  maxNs: number;
  /** A seek in progress: where it replays from, where it goes and how far it is. */
  seek: SeekState | null;
  /** Where the latest seek replayed from, as the worker said (a data attribute, for tests). */
  seekFromNs?: number | null;
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

export function Scrubber({ nowNs, maxNs, seek, seekFromNs, enabled, onSeek, events = [] }: Props) {
  const [draft, setDraft] = useState<number | null>(null);
  const dragging = useRef(false);
  const step = scrubStep(maxNs);
  const value = draft ?? seek?.toNs ?? nowNs;
  const commit = (ns: number) => {
    setDraft(null);
    if (ns !== nowNs || seek) onSeek(ns);
  };
  return (
    <div className="scrubber" data-testid="scrubber" data-now-ns={nowNs} data-seek-from-ns={seekFromNs ?? undefined}>
      <label className="field scrub-field">
        <span>
          Time reached <span className="muted small">· drag back to see an earlier moment (keys ← → PageUp PageDown Home End)</span>
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
      <span className="scrub-progress-box">{seek && <SeekProgress seek={seek} className="scrub-progress" testId="scrub-progress" />}</span>
    </div>
  );
}
