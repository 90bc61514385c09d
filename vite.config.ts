/// <reference types="vitest/config" />
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

export default defineConfig({
  root: here('./web'),
  publicDir: here('./public'),
  plugins: [react(), immutableAssets],
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
