// Your own workload: give the page an access trace (drop it anywhere on the page, or choose it
// here); the engine builds a scenario that replays it, and its miss-ratio curve is drawn.
import './mrc.css';
import type { FetchFailure, Shipped, TraceStatus } from '../app/useTrace';
import type { HeldTrace } from '../app/useSetup';
import type { ShippedTrace } from '../lib/shippedTraces';

interface Props {
  status: TraceStatus;
  onFile(file: File): void;
  /** The trace scenario open, its point if one: offered to go back to the whole trace. */
  point: { variant: string; pages: number } | null;
  onWhole(): void;
  shipped: Shipped;
  onPick(t: ShippedTrace): void;
  /** The bundled lessons that replay a trace: (file name, title). */
  lessons: { name: string; title: string }[];
  onLesson(name: string): void;
}

export function TracePanel({ status, onFile, point, onWhole, shipped, onPick, lessons, onLesson }: Props) {
  return (
    <div className="trace-panel" data-testid="trace-panel">
      <p>
        Replay an access trace through the kernel&apos;s reclaim: libCacheSim&apos;s <strong>oracleGeneral</strong> binary (<code>.bin</code>, 24-byte records) or a{' '}
        <strong>CSV</strong> of <code>time,id,size[,op]</code>. Each object id becomes one 4 KiB page of a file, read through the page cache; the page draws the
        miss-ratio curve of plain LRU, OPT and each kernel. The file stays in this browser.
      </p>
      <label className="trace-drop">
        <span>Drop a trace anywhere on the page, or choose one: </span>
        <TraceFileInput testId="trace-input" onFile={(f) => onFile(f)} />
      </label>
      <ShippedList shipped={shipped} onPick={onPick} busy={status.phase === 'reading'} />
      {lessons.length > 0 && (
        <div className="trace-lessons">
          <h3>Lessons with a trace</h3>
          <ul>
            {lessons.map((l) => (
              <li key={l.name}>
                <button type="button" onClick={() => onLesson(l.name)} data-testid={`trace-lesson-${l.name}`}>
                  {l.title}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
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

/** The shipped traces: a Replay button for each one the page serves, the reason for each one it
 *  does not. */
function ShippedList({ shipped, onPick, busy }: { shipped: Shipped; onPick(t: ShippedTrace): void; busy: boolean }) {
  if (shipped.phase === 'loading') return <p className="muted">Loading the shipped traces…</p>;
  if (shipped.phase === 'error')
    return (
      <p className="error" data-testid="trace-shipped-error">
        The list of shipped traces is not available: {shipped.error}
      </p>
    );
  return (
    <div className="trace-shipped" data-testid="trace-shipped">
      <h3>Shipped traces</h3>
      <ul>
        {shipped.traces.map((t) => (
          <li key={t.file} data-testid={`trace-shipped-${t.file}`} data-served={t.served}>
            <strong>{t.title}</strong>{' '}
            <span className="muted">
              ({t.licence}; {t.source})
            </span>{' '}
            {t.served ? (
              <button type="button" onClick={() => onPick(t)} disabled={busy} data-testid={`trace-pick-${t.file}`}>
                Replay
              </button>
            ) : (
              <span className="trace-not-served" data-testid={`trace-not-served-${t.file}`}>
                Not served here: {t.reason} Drop the file to replay it.
              </span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A scenario (a lesson) that replays traces the page does not hold: which file it needs, why the
 *  page does not have it (not served, its list or its fetch failed: what, where and what to do),
 *  and where to give it. */
export function TraceNeeded({
  names,
  shipped,
  onFile,
  status,
  fetchFailed,
  onRetry,
  drop = true,
}: {
  names: readonly string[];
  shipped: Shipped;
  onFile(file: File, as: string): void;
  status: TraceStatus;
  fetchFailed: FetchFailure | null;
  onRetry(): void;
  /** Files dropped on the page are taken (not in an embed). */
  drop?: boolean;
}) {
  return (
    <section className="trace-needed" role="region" aria-label="Trace needed" data-testid="trace-needed">
      {names.map((name) => {
        const t = shipped.phase === 'ready' ? shipped.traces.find((x) => x.file === name) : undefined;
        const failed = fetchFailed?.name === name ? fetchFailed : null;
        if (t?.served && !failed)
          return (
            <p key={name} role="status" data-testid="trace-needed-fetching">
              Loading the trace this scenario replays, <code>{name}</code>…
            </p>
          );
        return (
          <div key={name} className="trace-needed-one">
            <p data-testid="trace-needed-reason" data-why={failed ? 'fetch' : shipped.phase === 'ready' ? (t ? 'not-served' : 'not-listed') : `list-${shipped.phase}`}>
              This scenario replays the trace <code>{name}</code>
              {failed ? (
                <>
                  , which this page serves, but {failed.error}. Try again, or give the file below.{' '}
                  <button type="button" onClick={onRetry} data-testid="trace-needed-retry">
                    Try again
                  </button>
                </>
              ) : t ? (
                <>, which this page cannot load by itself: {t.reason}</>
              ) : shipped.phase === 'loading' ? (
                <>. The page is still reading its list of shipped traces; you can give the file now.</>
              ) : shipped.phase === 'error' ? (
                <>
                  , and the page cannot tell whether it serves it: {shipped.error}. Give the file below (it is in Reclaim Lab&apos;s repository, in
                  scenarios/traces/), or reload the page once the site serves that list.
                </>
              ) : (
                <>, which is not one of the traces this page lists. Give the file below.</>
              )}
            </p>
            <label className="trace-drop">
              <span>{drop ? 'Give the file (drop it anywhere on the page, or choose it): ' : 'Give the file: '}</span>
              <TraceFileInput testId="trace-needed-input" onFile={(f) => onFile(f, name)} />
            </label>
          </div>
        );
      })}
      {status.error && (
        <p className="error" role="alert" data-testid="trace-needed-error">
          {status.error}
        </p>
      )}
    </section>
  );
}

/** The traces the open scenario replays, as held: which file each came from, and a chooser to
 *  give another in its place (a wrong file given, whatever its name). */
export function TracesInUse({ held, onFile }: { held: HeldTrace[]; onFile(file: File, as: string): void }) {
  return (
    <section className="traces-in-use" aria-label="Traces in use" data-testid="traces-in-use">
      {held.map((h) => (
        <div key={h.trace.name} className="trace-in-use" data-testid="trace-in-use" data-trace={h.trace.name} data-from={h.from}>
          <span>
            Replays <code>{h.trace.name}</code> {h.given ? 'from your file ' : 'as served at '}
            <strong data-testid="trace-in-use-from">{h.from}</strong> ({h.trace.bytes.length.toLocaleString('en')} bytes).
          </span>
          <label className="trace-replace">
            {h.given ? 'Give another file…' : 'Give your own file…'}
            <TraceFileInput testId="trace-replace-input" onFile={(f) => onFile(f, h.trace.name)} />
          </label>
        </div>
      ))}
    </section>
  );
}

/** A trace file chooser: hands over the chosen file, then clears itself so the same file can be
 *  chosen again. */
function TraceFileInput({ testId, onFile }: { testId: string; onFile: (f: File) => void }) {
  return (
    <input
      type="file"
      accept=".bin,.csv,application/octet-stream,text/csv"
      data-testid={testId}
      onChange={(e) => {
        const f = e.currentTarget.files?.[0];
        if (f) onFile(f);
        e.currentTarget.value = '';
      }}
    />
  );
}
