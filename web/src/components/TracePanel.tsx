// Your own workload: give the page an access trace (drop it anywhere on the page, or choose it
// here); the engine builds a scenario that replays it, and its miss-ratio curve is drawn.
import './mrc.css';
import type { TraceStatus } from '../app/useTrace';

interface Props {
  status: TraceStatus;
  onFile(file: File): void;
  /** The trace scenario open, its point if one: offered to go back to the whole trace. */
  point: { variant: string; pages: number } | null;
  onWhole(): void;
}

export function TracePanel({ status, onFile, point, onWhole }: Props) {
  return (
    <div className="trace-panel" data-testid="trace-panel">
      <p>
        Replay an access trace through the kernel&apos;s reclaim: libCacheSim&apos;s <strong>oracleGeneral</strong> binary (<code>.bin</code>, 24-byte records) or a{' '}
        <strong>CSV</strong> of <code>time,id,size[,op]</code>. Each object id becomes one 4 KiB page of a file, read through the page cache; the page draws the
        miss-ratio curve of plain LRU, OPT and each kernel. The file stays in this browser.
      </p>
      <label className="trace-drop">
        <span>Drop a trace anywhere on the page, or choose one: </span>
        <input
          type="file"
          accept=".bin,.csv,application/octet-stream,text/csv"
          data-testid="trace-input"
          onChange={(e) => {
            const f = e.currentTarget.files?.[0];
            if (f) onFile(f);
            e.currentTarget.value = '';
          }}
        />
      </label>
      <p className="muted">
        A shipped sample, <code>scenarios/traces/cloudPhysicsIO.oracleGeneral.bin</code> in the project (GPL-3.0, so not served with this page), can be dropped here.
      </p>
      {status.phase === 'reading' && (
        <p className="muted" role="status" data-testid="trace-reading">
          Reading {status.name}…
        </p>
      )}
      {status.phase === 'ready' && (
        <p role="status" data-testid="trace-ready">
          {status.name} is open: play it, or see its miss-ratio curve below the stage.
        </p>
      )}
      {status.error && (
        <p className="error" role="alert" data-testid="trace-panel-error">
          {status.error}
        </p>
      )}
      {point && (
        <p data-testid="trace-point">
          The live view runs <strong>{point.variant}</strong> with the replay held to {point.pages.toLocaleString('en')} pages (a point of the curve).{' '}
          <button type="button" onClick={onWhole} data-testid="trace-whole">
            Back to the whole trace
          </button>
        </p>
      )}
    </div>
  );
}
