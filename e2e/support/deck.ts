// A host page for embeds, served by the test from another origin than the embed's (another
// port), as a slide deck is: a real server, since Chromium keeps a page without an address (a
// routed one) from framing a local page.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from '@playwright/test';

/** Registers the server for the spec's tests; `origin` is set once it listens, `html` is what
 *  it serves (any path). */
export function deckServer(): { origin: string; html: string } {
  const deck = { origin: '', html: '' };
  let server: Server;
  test.beforeAll(async () => {
    server = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(deck.html));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    deck.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  test.afterAll(() => new Promise<void>((done) => server.close(() => done())));
  return deck;
}
