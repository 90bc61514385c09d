// The page: its state (app/useApp.ts, one hook per concern) rendered as an embed or in full.
import { EmbedApp } from './app/EmbedApp';
import { FullApp } from './app/FullApp';
import { useApp } from './app/useApp';

export function App() {
  const m = useApp();
  return m.embed.embed ? <EmbedApp m={m} /> : <FullApp m={m} />;
}
