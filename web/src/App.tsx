// The page: its state (app/useApp.ts, one hook per concern) rendered as an embed or in full.
// Each is a chunk of its own, loaded when the page knows which it is (issue #48: an embed's
// first paint loads no editor, sweep or export code).
import { lazy, Suspense } from 'react';
import { useApp } from './app/useApp';

const EmbedApp = lazy(() => import('./app/EmbedApp').then((m) => ({ default: m.EmbedApp })));
const FullApp = lazy(() => import('./app/FullApp').then((m) => ({ default: m.FullApp })));

export function App() {
  const m = useApp();
  return <Suspense fallback={<p className="muted loading" role="status">Loading Reclaim Lab…</p>}>{m.embed.embed ? <EmbedApp m={m} /> : <FullApp m={m} />}</Suspense>;
}
