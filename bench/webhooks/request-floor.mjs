// What one HTTP request costs the local runtime, beside the pipeline bench/webhooks measures: N POSTs at a
// steady rate to a bare Hono Worker (bench/startup/bare) and to the project's Worker (a path no route
// serves, so only the global middleware runs; and POST /dev/events, one event each), each under
// `wrangler dev`, with the CPU each workerd process used per request (/proc). Every request passes
// wrangler's proxy (one workerd) and the runtime's entry into the Worker (the other), which is why
// bench/webhooks writes its events from inside one request by default (run.mjs › --producer).
//
//   node bench/webhooks/request-floor.mjs [--requests 1500] [--rate 300]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { workerdCpuMs } from '../cpu-profile.mjs';
import { root, seedBenchAccount, smoke, startDev } from '../local-wrangler.mjs';

const arg = (name, fallback) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback);
const REQUESTS = smoke ? 30 : Number(arg('--requests', 1500));
const RATE = Number(arg('--rate', 300));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** CPU per request of each workerd process (heaviest first) over REQUESTS POSTs of `body` to `url` at RATE. */
async function measure(server, url, body) {
  const before = workerdCpuMs(server.pid);
  const started = Date.now();
  const posts = [];
  for (let i = 0; i < REQUESTS; i += 1) {
    const wait = started + (i * 1000) / RATE - Date.now();
    if (wait > 0) await sleep(wait);
    posts.push(fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body }).then((r) => r.arrayBuffer()));
  }
  await Promise.all(posts);
  await sleep(500);
  return [...workerdCpuMs(server.pid)].map(([p, ms]) => (ms - (before.get(p) ?? 0)) / REQUESTS).sort((a, b) => b - a);
}

const show = (label, perProcess) =>
  console.log(
    `  ${label.padEnd(34)} ${perProcess.map((ms) => `${ms.toFixed(2)} ms`).join(' + ')} = ${perProcess.reduce((a, b) => a + b, 0).toFixed(2)} ms`,
  );

const persist = mkdtempSync(path.join(tmpdir(), 'request-floor-'));
const servers = [];
try {
  console.log(`CPU per request of each workerd process, ${REQUESTS} POSTs at ${RATE}/s:`);
  const bare = await startDev({
    persist: path.join(persist, 'bare'),
    config: path.join(root, 'bench/startup/bare/wrangler.toml'),
    ready: '/',
  });
  servers.push(bare);
  show('bare Hono Worker (404)', await measure(bare, `${bare.base}/nothing`, '{}'));
  await bare.stop();
  seedBenchAccount(persist);
  const project = await startDev({ persist });
  servers.push(project);
  show('project, no route (404)', await measure(project, `${project.base}/dev/nothing`, '{}'));
  show(
    'project, POST /dev/events (1 event)',
    await measure(project, `${project.base}/dev/events`, JSON.stringify({ account_id: 1, event: 'form.completed' })),
  );
} finally {
  for (const server of servers) await server.stop();
  rmSync(persist, { recursive: true, force: true });
}
