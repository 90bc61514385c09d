// Share, embed and export: "Copy link" (clipboard, and a read-only field that
// works without clipboard permission), the embed dialog with its iframe snippet,
// and the export downloads.
import { useRef, useState } from 'react';
import { embedUrl, iframeSnippet } from '../lib/embed';
import { VIEWS, type View } from '../lib/link';

export interface Exporters {
  csv(): void;
  json(): void;
  markdown(): void;
  toml(): void;
  png(): void;
  svg(): void;
}

interface Props {
  /** Encodes the current state (hash without '#'). */
  makeLink(): Promise<string>;
  exporters: Exporters;
  ready: boolean;
  resultsReady: boolean;
}

const pageBase = () => `${location.origin}${location.pathname}`;

export function SharePanel({ makeLink, exporters, ready, resultsReady }: Props) {
  const [link, setLink] = useState('');
  const [copied, setCopied] = useState<string | null>(null);
  const [embedOpen, setEmbedOpen] = useState(false);
  const [hash, setHash] = useState('');
  const [view, setView] = useState<View>('lru');
  const [autoplay, setAutoplay] = useState(false);
  const [size, setSize] = useState({ w: 800, h: 450 });
  const dialog = useRef<HTMLDialogElement>(null);

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
  const snippet = iframeSnippet(embedUrl(pageBase(), hash, view, autoplay), size.w, size.h);

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
        <button type="button" className="ghost" disabled={!ready} onClick={exporters.csv} aria-label="Download the time series as CSV" data-testid="export-csv">CSV</button>
        <button type="button" className="ghost" disabled={!ready} onClick={exporters.json} aria-label="Download counters and time series as JSON" data-testid="export-json">JSON</button>
        <button type="button" className="ghost" disabled={!resultsReady} onClick={exporters.markdown} aria-label="Download the results table as Markdown" data-testid="export-md">Results (Markdown)</button>
        <button type="button" className="ghost" onClick={exporters.toml} aria-label="Download the scenario file (TOML)" data-testid="export-toml">Scenario (TOML)</button>
        <button type="button" className="ghost" disabled={!ready} onClick={exporters.png} aria-label="Download the LRU view as PNG" data-testid="export-png">LRU (PNG)</button>
        <button type="button" className="ghost" disabled={!ready} onClick={exporters.svg} aria-label="Download the counters chart as SVG" data-testid="export-svg">Chart (SVG)</button>
      </div>
      <dialog ref={dialog} className="embed-dialog" aria-label="Embed" data-testid="embed-dialog" onClose={() => setEmbedOpen(false)}>
        {embedOpen && (
          <form method="dialog">
            <h2>Embed this page state</h2>
            <div className="control-row">
              <label className="field">
                <span>View</span>
                <select value={view} onChange={(e) => setView(e.target.value as View)} aria-label="Embedded view" data-testid="embed-view">
                  {VIEWS.map((v) => (
                    <option key={v}>{v}</option>
                  ))}
                </select>
              </label>
              <label className="field">
                <span>Width</span>
                <input type="number" min={200} max={4000} value={size.w} onChange={(e) => setSize({ ...size, w: Number(e.target.value) || 800 })} aria-label="iframe width (px)" />
              </label>
              <label className="field">
                <span>Height</span>
                <input type="number" min={150} max={4000} value={size.h} onChange={(e) => setSize({ ...size, h: Number(e.target.value) || 450 })} aria-label="iframe height (px)" />
              </label>
              <label className="field checkbox">
                <input type="checkbox" checked={autoplay} onChange={(e) => setAutoplay(e.target.checked)} aria-label="Autoplay" />
                <span>Autoplay</span>
              </label>
            </div>
            <textarea readOnly rows={4} value={snippet} aria-label="iframe snippet" data-testid="embed-snippet" onFocus={(e) => e.target.select()} />
            <p className="muted small">
              The host page can send <code>{"{type:'reclaimlab', action:'play'|'pause'|'seek', ns}"}</code> or{' '}
              <code>{"{type:'reclaimlab', action:'set', knob, value}"}</code> with postMessage.
            </p>
            <button type="submit" aria-label="Close the embed dialog">Close</button>
          </form>
        )}
      </dialog>
    </section>
  );
}
