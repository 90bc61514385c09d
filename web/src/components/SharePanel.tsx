// Share, embed and export: "Copy link" (clipboard, and a read-only field that
// works without clipboard permission), the embed dialog with its iframe snippet,
// and the export downloads.
import { useRef, useState, type ReactNode } from 'react';
import type { View } from '../lib/link';
import { EmbedDialogBody } from './EmbedDialog';

/** Each loads its code when first asked (useExports), so each may return a promise. */
export interface Exporters {
  csv(): void | Promise<void>;
  json(): void | Promise<void>;
  markdown(): void | Promise<void>;
  toml(): void | Promise<void>;
  png(): void | Promise<void>;
  svg(): void | Promise<void>;
}

interface Props {
  /** Encodes the current state (hash without '#'). */
  makeLink(): Promise<string>;
  exporters: Exporters;
  ready: boolean;
  resultsReady: boolean;
  /** The embed views that apply to this scenario and mode. */
  views: View[];
  /** The clip export's controls. */
  clip?: ReactNode;
}

const pageBase = () => `${location.origin}${location.pathname}`;

export function SharePanel({ makeLink, exporters, ready, resultsReady, views, clip }: Props) {
  const [link, setLink] = useState('');
  const [copied, setCopied] = useState<string | null>(null);
  const [embedOpen, setEmbedOpen] = useState(false);
  const [hash, setHash] = useState('');
  const dialog = useRef<HTMLDialogElement>(null);
  // An export whose code could not be loaded (or that failed) says so here.
  const [exportError, setExportError] = useState<string | null>(null);
  const run = (f: () => void | Promise<void>) => () => {
    setExportError(null);
    Promise.resolve()
      .then(f)
      .catch((e: unknown) => setExportError(`The export could not be made: ${e instanceof Error ? e.message : String(e)}`));
  };

  const copy = async () => {
    const url = `${pageBase()}#${await makeLink()}`;
    setLink(url);
    try {
      await navigator.clipboard.writeText(url);
      setCopied('Link copied to the clipboard.');
    } catch {
      setCopied('The clipboard is not available here: copy the link from the field.');
    }
  };
  const openEmbed = async () => {
    setHash(await makeLink());
    setEmbedOpen(true);
    dialog.current?.showModal();
  };

  return (
    <section className="share" aria-label="Share and export">
      <div className="control-row">
        <button type="button" onClick={copy} disabled={!ready} aria-label="Copy link to this page state" data-testid="copy-link">
          Copy link
        </button>
        <input className="link-field" readOnly value={link} placeholder="the link appears here" aria-label="Link to this page state" data-testid="link-field" onFocus={(e) => e.target.select()} />
        <button type="button" onClick={openEmbed} disabled={!ready} aria-label="Embed this page state in another page" data-testid="embed-open">
          Embed…
        </button>
        {copied && (
          <span className="muted small" role="status" data-testid="copy-status">
            {copied}
          </span>
        )}
      </div>
      <div className="control-row exports" role="group" aria-label="Export">
        <span className="muted">Export</span>
        <button type="button" className="ghost" disabled={!ready} onClick={run(exporters.csv)} aria-label="Download the time series as CSV" data-testid="export-csv">CSV</button>
        <button type="button" className="ghost" disabled={!ready} onClick={run(exporters.json)} aria-label="Download counters and time series as JSON" data-testid="export-json">JSON</button>
        <button type="button" className="ghost" disabled={!resultsReady} onClick={run(exporters.markdown)} aria-label="Download the results table as Markdown" data-testid="export-md">Results (Markdown)</button>
        <button type="button" className="ghost" onClick={run(exporters.toml)} aria-label="Download the scenario file (TOML)" data-testid="export-toml">Scenario (TOML)</button>
        <button type="button" className="ghost" disabled={!ready} onClick={run(exporters.png)} aria-label="Figure (PNG 2x): list sizes and counters, with the link that reopens it" data-testid="export-png">Figure (PNG 2x)</button>
        <button type="button" className="ghost" disabled={!ready} onClick={run(exporters.svg)} aria-label="Figure (SVG): list sizes and counters, with the link that reopens it" data-testid="export-svg">Figure (SVG)</button>
      </div>
      {exportError && (
        <p className="error" role="alert" data-testid="export-error">
          {exportError}
        </p>
      )}
      {clip}
      <dialog ref={dialog} className="embed-dialog" aria-label="Embed" data-testid="embed-dialog" onClose={() => setEmbedOpen(false)}>
        {embedOpen && <EmbedDialogBody hash={hash} views={views} base={pageBase()} />}
      </dialog>
    </section>
  );
}
