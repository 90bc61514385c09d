/// <reference types="vitest/config" />
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// `vite preview` serves the production build for Playwright. The port is 4173
// unless scripts/test-all picked another free one (RECLAIM_PREVIEW_PORT).
export const previewPort = Number(process.env.RECLAIM_PREVIEW_PORT ?? 4173);

// The build's files under /assets/ are named by their content's hash (the wasm module
// included), so `vite preview` may let the browser keep them for good: a second visit loads no
// JS or wasm again. (A static host should do the same for /assets/; index.html is never cached
// that way.) Both servers send the wasm as application/wasm, which instantiateStreaming needs.
const immutableAssets: Plugin = {
  name: 'reclaim-immutable-assets',
  configurePreviewServer(server) {
    server.middlewares.use((req, res, next) => {
      if (req.url?.startsWith('/assets/')) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      next();
    });
  },
};

// The shipped traces the page may serve (scenarios/traces/index.json, `served`): the build
// copies them and the manifest into dist/traces/, the dev server serves the same files. A trace
// that is not served (GPL-3.0 under this MIT page) is never copied: the page lists it with the
// reason and asks the user for the file.
interface ShippedTrace {
  file: string;
  served: boolean;
}
const tracesDir = here('./scenarios/traces/');
const tracesManifest = () => readFileSync(`${tracesDir}index.json`);
const servedTraces = () => (JSON.parse(tracesManifest().toString()) as { traces: ShippedTrace[] }).traces.filter((t) => t.served && /^[\w.-]+$/.test(t.file));
const shippedTraces: Plugin = {
  name: 'reclaim-shipped-traces',
  configureServer(server) {
    server.middlewares.use((req, res, next) => {
      const m = /^\/traces\/([^/?#]+)/.exec(req.url ?? '');
      if (!m) return next();
      const name = decodeURIComponent(m[1]!);
      if (name === 'index.json') return res.setHeader('Content-Type', 'application/json').end(tracesManifest());
      if (!servedTraces().some((t) => t.file === name)) return res.writeHead(404).end();
      res.setHeader('Content-Type', 'application/octet-stream').end(readFileSync(`${tracesDir}${name}`));
    });
  },
  generateBundle() {
    this.emitFile({ type: 'asset', fileName: 'traces/index.json', source: tracesManifest() });
    for (const t of servedTraces()) this.emitFile({ type: 'asset', fileName: `traces/${t.file}`, source: readFileSync(`${tracesDir}${t.file}`) });
  },
};

export default defineConfig({
  root: here('./web'),
  publicDir: here('./public'),
  plugins: [react(), immutableAssets, shippedTraces],
  // The engine worker imports the wasm-bindgen glue (ES module with
  // `new URL('…_bg.wasm', import.meta.url)`), so bundle workers as ES modules.
  worker: { format: 'es' },
  build: { outDir: here('./dist'), emptyOutDir: true },
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: previewPort, strictPort: true },
  test: {
    root: here('.'),
    include: ['web/src/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
  },
});
