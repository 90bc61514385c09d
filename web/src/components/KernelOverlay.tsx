// A real kernel's run beside the model (issue #27 §2): open or drop the JSON of
// `reclaim kernel FILE --kernel K --json` (or `reclaim validate --json`); the results table gets
// a column per kernel run and the charts its series, dashed. This panel says which kernel build
// and accelerator ran, what the run does not reproduce (its notes), and why a file was refused.
import { kernelRunLabel, type KernelRun } from '../lib/kernelRun';
import './kernel.css';

export interface KernelError {
  text: string;
  /** A bundled scenario the refused runs belong to: offered to open with them. */
  open?: { title: string; onOpen: () => void };
}

interface Props {
  runs: KernelRun[];
  error: KernelError | null;
  onFiles: (files: File[]) => void;
  onRemove: (index: number) => void;
  /** Variants the live runs show (the counters chart overlays a kernel run of one of them). */
  liveVariants: string[];
  /** The model runs the scenario with knob changes or edits the kernel run did not have. */
  changed: boolean;
}

export function KernelOverlay({ runs, error, onFiles, onRemove, liveVariants, changed }: Props) {
  return (
    <section className="kernel-overlay" aria-label="Real kernel run" data-testid="kernel-overlay" data-runs={runs.length}>
      <h2>Real kernel run: the model against Linux</h2>
      <p className="muted small">
        Run this scenario on a real kernel with <code>npm run reclaim -- kernel FILE --kernel debian-6.1 --json &gt; run.json</code> (after{' '}
        <code>scripts/setup-kernel</code>), then open the file here or drop it onto the page. Its numbers join the results table as a{' '}
        <strong>real kernel</strong> column and the charts as dashed lines.
      </p>
      <label className="kernel-file">
        Kernel run (JSON){' '}
        <input
          type="file"
          accept=".json,application/json"
          multiple
          data-testid="kernel-file"
          onChange={(e) => {
            const files = [...(e.currentTarget.files ?? [])];
            e.currentTarget.value = ''; // the same file again is a new load
            if (files.length) onFiles(files);
          }}
        />
      </label>
      {error && (
        <p className="error" role="alert" data-testid="kernel-error">
          {error.text}
          {error.open && (
            <>
              {' '}
              <button type="button" className="small-button" data-testid="kernel-open-scenario" onClick={error.open.onOpen}>
                Open “{error.open.title}” with this run
              </button>
            </>
          )}
        </p>
      )}
      {runs.length > 0 && (
        <ul className="kernel-runs" data-testid="kernel-runs">
          {runs.map((r, i) => (
            <li key={`${r.kernel.name}:${r.report.variant}`} data-testid={`kernel-run-${i}`} data-variant={r.report.variant} data-kernel={r.kernel.name}>
              <span className="kernel-tag">real kernel</span> <strong>{r.report.variant}</strong> on{' '}
              <span data-testid={`kernel-run-${i}-label`}>{kernelRunLabel(r).replace(/^real kernel /, '')}</span>
              <span className="muted small">
                {' '}
                — {r.report.preset}, swappiness {r.report.swappiness}
                {r.guest && `, guest ${r.guest.ram_mib} MiB (${r.guest.kernel_reserved_kb} kB reserved by the kernel), ${r.guest.cpus} CPU${r.guest.cpus === 1 ? '' : 's'}`}
                {r.wall_s !== null && `, wall ${r.wall_s.toFixed(1)} s`}; {r.file}
              </span>{' '}
              <button type="button" className="ghost small-button" data-testid={`kernel-run-${i}-remove`} onClick={() => onRemove(i)} aria-label={`Remove the real kernel run of ${r.report.variant} on ${r.kernel.name}`}>
                Remove
              </button>
              {!liveVariants.includes(r.report.variant) && (
                <p className="muted small" data-testid={`kernel-run-${i}-hidden`}>
                  The counters chart shows this run when variant {r.report.variant} runs above (choose it, or Compare).
                </p>
              )}
              {r.notes.length > 0 && (
                <ul className="kernel-notes small" data-testid={`kernel-run-${i}-notes`}>
                  {r.notes.map((n, j) => (
                    <li key={j}>{n}</li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      )}
      {runs.some((r) => r.accelerator === 'tcg') && (
        <p className="muted small" data-testid="kernel-tcg">
          Under QEMU TCG the guest CPU is several times slower than native and device throttles are wall-clock true: compare counters, and the shape of
          the round times, not the seconds.
        </p>
      )}
      {runs.length > 0 && changed && (
        <p className="muted small" data-testid="kernel-changed">
          The model runs the scenario with your changes (knobs or edits); the kernel ran the file as written.
        </p>
      )}
    </section>
  );
}
