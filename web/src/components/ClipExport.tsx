// "Clip (WebM)": record a virtual-time range of the run as a video (lib/clip.ts), with a
// progress bar and a Cancel button.
import { useRef, useState } from 'react';
import { formatNs } from '../format';
import { ClipCancelled, clipSupported } from '../lib/clip';

interface Props {
  ready: boolean;
  nowNs: number;
  /** Record frames from fromNs to toNs; resolves when saved. */
  record(fromNs: number, toNs: number, frames: number, onProgress: (done: number) => void, signal: AbortSignal): Promise<void>;
}

const FPS = 10;

export function ClipExport({ ready, nowNs, record }: Props) {
  const [from, setFrom] = useState('0');
  const [to, setTo] = useState('1');
  const [progress, setProgress] = useState<{ done: number; of: number } | null>(null);
  const [message, setMessage] = useState('');
  const abort = useRef<AbortController | null>(null);
  if (!clipSupported()) return null;
  const fromNs = Math.round(Number(from) * 1e9);
  const toNs = Math.round(Number(to) * 1e9);
  const valid = Number.isFinite(fromNs) && Number.isFinite(toNs) && fromNs >= 0 && toNs > fromNs && toNs - fromNs <= 600e9;
  const frames = valid ? Math.min(300, Math.max(2, Math.round(((toNs - fromNs) / 1e9) * 20))) : 0;
  const start = async () => {
    const c = new AbortController();
    abort.current = c;
    setMessage('');
    setProgress({ done: 0, of: frames });
    try {
      await record(fromNs, toNs, frames, (done) => setProgress({ done, of: frames }), c.signal);
      setMessage(`Clip saved: ${formatNs(fromNs)} to ${formatNs(toNs)}, ${frames} frames at ${FPS} per second.`);
    } catch (e) {
      setMessage(e instanceof ClipCancelled ? 'Clip cancelled.' : `The clip could not be recorded: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      abort.current = null;
      setProgress(null);
    }
  };
  return (
    <div className="control-row clip" role="group" aria-label="Clip">
      <span className="muted">Clip (WebM)</span>
      <label className="field inline">
        <span>from (s)</span>
        <input type="number" min={0} step="0.1" value={from} onChange={(e) => setFrom(e.target.value)} disabled={!!progress} data-testid="clip-from" />
      </label>
      <label className="field inline">
        <span>to (s)</span>
        <input type="number" min={0} step="0.1" value={to} onChange={(e) => setTo(e.target.value)} disabled={!!progress} data-testid="clip-to" />
      </label>
      <button type="button" className="ghost small-button" onClick={() => setTo((Math.max(nowNs, 1e8) / 1e9).toString())} disabled={!!progress}>
        to = now
      </button>
      {progress ? (
        <>
          <progress max={progress.of} value={progress.done} aria-label="Clip recording progress" data-testid="clip-progress" />
          <span className="small" data-testid="clip-count">
            {progress.done}/{progress.of}
          </span>
          <button type="button" className="ghost" onClick={() => abort.current?.abort()} data-testid="clip-cancel">
            Cancel
          </button>
        </>
      ) : (
        <button type="button" className="ghost" disabled={!ready || !valid} onClick={start} data-testid="clip-record">
          Record clip
        </button>
      )}
      <span className="muted small" role="status" data-testid="clip-status">
        {message}
      </span>
    </div>
  );
}
