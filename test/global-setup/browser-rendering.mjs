// For the Browser Rendering tests (HTML templates, thumbnails): puts the Chromium wrapper where
// miniflare looks for Chrome (scripts/browser-rendering.mjs), and starts a local HTTP server that
// records every request it gets, so a test can prove a rendered document fetched nothing from it.
// Tests read the hits of a path prefix with GET /__hits/<prefix>.
// Plain JavaScript: it runs in Node, and the TypeScript program is typed for workerd only.
import { createServer } from 'node:http';
import { installBrowserWrapper } from '../../scripts/browser-rendering.mjs';

/** @param {import('vitest/node').TestProject} project */
export default async function setup(project) {
  installBrowserWrapper();
  /** @type {string[]} */
  const hits = [];
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    if (path.startsWith('/__hits/')) {
      const prefix = `/${decodeURIComponent(path.slice('/__hits/'.length))}`;
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(hits.filter((hit) => hit.startsWith(prefix))));
      return;
    }
    hits.push(path);
    // A real PNG-looking answer is not needed: any fetch at all is what the tests look for.
    response.writeHead(200, { 'Content-Type': 'text/plain' }).end('LEAKED-FROM-HIT-RECORDER');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('hit recorder did not bind');
  project.provide('hitRecorderPort', address.port);
  return () => new Promise((resolve) => server.close(() => resolve(undefined)));
}
