// The CPU a new isolate spends on its first request, per part of the app (src/app-parts.ts): the entry's
// startup, the part built on first use and the request itself, profiled the way `wrangler check startup`
// profiles startup (the same miniflare wrangler runs, the inspector's CPU profiler, active time without
// idle), over the modules the project's custom build wrote (dist/worker). Each request gets a fresh
// isolate. The bindings are local and empty (no tables, no tokens), so every request is refused or fails
// after its part is built: what it measures is the price of the part, not of the work.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { devtoolsCall } from '../cpu-profile.mjs';

/** The first requests measured: one per part, and an API read. */
export const FIRST_REQUESTS = [
  ['api', 'GET /api/templates'],
  ['signing', 'GET /s/NoSuchSlug000000'],
  ['all', 'GET /login'],
];

// The entry is imported inside the profiled request, as \`wrangler check startup\` does, so its startup
// counts; no Durable Object is bound, since re-exporting its class would import the entry before.
const PROFILER = `
export default {
  async fetch(request, env, ctx) {
    const { method, url } = await request.json();
    const entry = await import('./index.mjs');
    const response = await entry.default.fetch(new Request(url, { method }), env, ctx);
    await response.arrayBuffer();
    return new Response(String(response.status));
  },
};`;

/** A package as wrangler itself resolves it (miniflare and ws come with wrangler, not as dependencies of ours). */
function fromWrangler(root, name) {
  const wrangler = createRequire(createRequire(path.join(root, 'package.json')).resolve('wrangler'));
  return import(wrangler.resolve(name));
}

/** Active CPU ms (garbage collection included, idle excluded) of the profile, as `check startup` counts it. */
function activeMs(profile) {
  const names = new Map(profile.nodes.map((n) => [n.id, n.callFrame.functionName]));
  let active = 0;
  profile.timeDeltas.forEach((delta, i) => {
    if (names.get(profile.samples[i]) !== '(idle)') active += delta;
  });
  return active / 1000;
}

/** A Miniflare running `builtDir`'s modules with `main` (source text) as the Worker, in a fresh isolate. */
async function freshIsolate(root, builtDir, main) {
  const { Miniflare, convertV4MiniflareOptions } = await fromWrangler(root, 'miniflare');
  const modules = readdirSync(builtDir)
    .filter((name) => /\.(mjs|js|ttf)$/.test(name))
    .map((name) => ({
      type: name.endsWith('.ttf') ? 'Data' : 'ESModule',
      path: path.join(builtDir, name),
      contents: readFileSync(path.join(builtDir, name)),
    }));
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      name: 'profiler',
      compatibilityDate: '2026-11-01',
      compatibilityFlags: ['nodejs_compat'],
      modulesRoot: builtDir,
      modules: [{ type: 'ESModule', path: path.join(builtDir, 'first-request-profiler.mjs'), contents: main }, ...modules],
      bindings: { ENVIRONMENT: 'production', SERVICE_NAME: 'Signing Service', TSA_URLS: '' },
      d1Databases: ['CONTROL_DB', 'SHARD_0', 'SHARD_1'],
      r2Buckets: ['FILES'],
      inspectorPort: 0,
      handleStructuredLogs: () => undefined,
    }),
  );
  await mf.ready;
  return mf;
}

/** Profiles one first request in a fresh isolate: `{ ms, status }`. */
export async function profileFirstRequest(root, builtDir, request) {
  const { default: WebSocket } = await fromWrangler(root, 'ws');
  const [method, pathname] = request.split(' ');
  const mf = await freshIsolate(root, builtDir, PROFILER);
  try {
    const inspector = await mf.getInspectorURL();
    const ws = new WebSocket(new URL('/core:user:profiler', inspector.href).href);
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    await devtoolsCall(ws, 1, 'Profiler.enable');
    await devtoolsCall(ws, 2, 'Profiler.start');
    const response = await mf.dispatchFetch('https://profiler.test/', {
      method: 'POST',
      body: JSON.stringify({ method, url: `https://bench.test${pathname}` }),
    });
    const status = Number(await response.text());
    const { profile } = await devtoolsCall(ws, 3, 'Profiler.stop');
    ws.close();
    return { ms: activeMs(profile), status };
  } finally {
    await mf.dispose();
  }
}

/** A Worker whose request imports `entry` (a module beside it) when asked to, and otherwise does nothing. */
const importer = (entry) => `
export default {
  async fetch(request) {
    if (new URL(request.url).pathname === '/import') await import('./${entry}');
    return new Response('ok');
  },
};`;

/**
 * The evaluation of `entry` (a module of `builtDir`) in a fresh isolate, in wall-clock ms: a request that
 * imports it, less the fastest of three that do not, sent next in the same (now warm) isolate, after one
 * that warmed the path; `{ ms, spread }`, spread being how far those three differ (the timer's noise, so
 * `ms` may come out below zero when the evaluation is smaller). The CPU profiler cannot tell: workerd
 * samples too rarely for a few milliseconds (a profile of the request often holds one sample, or none
 * in active time).
 */
export async function timeEntryEvaluation(root, builtDir, entry = 'index.mjs') {
  const mf = await freshIsolate(root, builtDir, importer(entry));
  const timed = async (pathname) => {
    const started = performance.now();
    const response = await mf.dispatchFetch(`https://profiler.test${pathname}`);
    await response.text();
    return performance.now() - started;
  };
  try {
    await timed('/warm');
    const importing = await timed('/import');
    const plain = [await timed('/plain'), await timed('/plain'), await timed('/plain')];
    return { ms: importing - Math.min(...plain), spread: Math.max(...plain) - Math.min(...plain) };
  } finally {
    await mf.dispose();
  }
}
