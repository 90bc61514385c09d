// The "Embed…" dialog: the view (named in words, only those this scenario has), slide size,
// lesson and autoplay, a live preview of the embed as it will look, and the <iframe> snippet
// with a Copy button.
import { useState } from 'react';
import { embedUrl, iframeSnippet } from '../lib/embed';
import type { View } from '../lib/link';

export const VIEW_WORDS: Record<View, string> = {
  lru: 'LRU lists (pages moving between the four lists)',
  gens: 'MGLRU generations',
  balance: 'Balance: anon vs file scan decision',
  charts: 'Charts over time',
  results: 'Results table (before/after)',
  memcg: 'memcg LRU (per-cgroup reclaim order)',
};

const SIZES = [
  { label: 'Slide 960 × 540', w: 960, h: 540 },
  { label: 'Projector 1920 × 1080', w: 1920, h: 1080 },
  { label: 'Document 800 × 450', w: 800, h: 450 },
];

/** Widest preview in the dialog (px); the iframe is drawn at its real size and scaled down. */
const PREVIEW_W = 560;

interface Props {
  /** The page state's hash (without '#'). */
  hash: string;
  /** The views this scenario and mode can show. */
  views: View[];
  base: string;
}

export function EmbedDialogBody({ hash, views, base }: Props) {
  const [view, setView] = useState<View>(views[0] ?? 'lru');
  const [size, setSize] = useState(SIZES[0]!);
  const [autoplay, setAutoplay] = useState(false);
  const [lesson, setLesson] = useState(true);
  const [copied, setCopied] = useState('');
  const src = embedUrl(base, hash, view, autoplay, lesson);
  const snippet = iframeSnippet(src, size.w, size.h);
  const scale = Math.min(1, PREVIEW_W / size.w);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(snippet);
      setCopied('Snippet copied to the clipboard.');
    } catch {
      setCopied('The clipboard is not available here: select the snippet and copy it.');
    }
  };
  return (
    <form method="dialog" className="embed-form">
      <h2>Embed this page state</h2>
      <div className="control-row">
        <label className="field">
          <span>View</span>
          <select value={view} onChange={(e) => setView(e.target.value as View)} data-testid="embed-view">
            {views.map((v) => (
              <option key={v} value={v}>
                {VIEW_WORDS[v]}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Size</span>
          <select value={size.label} onChange={(e) => setSize(SIZES.find((s) => s.label === e.target.value)!)} data-testid="embed-size">
            {SIZES.map((s) => (
              <option key={s.label}>{s.label}</option>
            ))}
          </select>
        </label>
        <label className="field checkbox">
          <input type="checkbox" checked={lesson} onChange={(e) => setLesson(e.target.checked)} data-testid="embed-lesson" />
          <span>Lesson captions</span>
        </label>
        <label className="field checkbox">
          <input type="checkbox" checked={autoplay} onChange={(e) => setAutoplay(e.target.checked)} data-testid="embed-autoplay" />
          <span>Autoplay</span>
        </label>
      </div>
      <div className="embed-preview" style={{ width: size.w * scale, height: size.h * scale }} data-testid="embed-preview">
        <iframe
          key={src}
          src={src}
          title="Preview of the embed"
          width={size.w}
          height={size.h}
          style={{ transform: `scale(${scale})` }}
          data-testid="embed-preview-frame"
        />
      </div>
      <label className="field">
        <span>iframe snippet</span>
        <textarea readOnly rows={3} value={snippet} data-testid="embed-snippet" onFocus={(e) => e.target.select()} />
      </label>
      <div className="control-row">
        <button type="button" onClick={copy} data-testid="embed-copy">
          Copy snippet
        </button>
        <span className="muted small" role="status" data-testid="embed-copy-status">
          {copied}
        </span>
        <button type="submit" className="ghost">
          Close
        </button>
      </div>
      <p className="muted small">
        Keys in the embed: Space play/pause, PageDown/PageUp (a clicker) next/previous lesson step, → ← one time step. A host page drives it with
        postMessage and hears back its status, time and lesson step (docs/embedding.md, “Host API”).
      </p>
    </form>
  );
}
