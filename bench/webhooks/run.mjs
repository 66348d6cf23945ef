// Webhook latency: time from an event being written to the outbox to its first delivery arriving at a
// local receiver, p50/p99 over N events through `wrangler dev` (real local Queue, D1 and consumer),
// printed beside the floor — the same POST made directly to the same receiver — and the ratio, and the
// D1 calls per event: the webhook consumer's and the inline dispatch's after each response (fan-out and
// delivery, counted by the Worker with D1_TIMING=true: GET /dev/events/d1-calls) and the producer's
// (each POST /dev/events, Server-Timing).
//
//   npm run bench:webhooks -- [--events 1000] [--rate 20] [--dispatch inline] [--producer http]   (npm puts the project's Node 22 on PATH)
//
// State lives in bench/results/ (gitignored) so the worktree's own .wrangler/ stays untouched.
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { seedBenchAccount } from '../local-wrangler.mjs';

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .map((a, i, all) => (a.startsWith('--') ? [a.slice(2), all[i + 1]] : []))
    .filter((e) => e.length),
);
// `--smoke`: 20 events at 20/s (bench/smoke.mjs, in CI).
const SMOKE = process.argv.includes('--smoke');
const EVENTS = SMOKE ? 20 : Number(args.events ?? 1000);
const RATE = SMOKE ? 20 : Number(args.rate ?? 20); // events per second
// Default: the events written as the API's writers do and fanned out by the queue's consumer.
// `--dispatch inline`: each request writes its events with their deliveries and sends the first attempts
// itself after the response (services/webhooks/immediate.ts), for a comparison in the same conditions.
const DISPATCH = args.dispatch === 'inline' ? 'inline' : 'queue';
// Default (`worker`): one request writes the events one at a time at the rate, each as an API write would
// (its own batch and drain request). `--producer http`: one HTTP request per event; locally every request
// also costs wrangler's proxy and the runtime's entry ~2.6 ms of CPU on the machine's two cores, beside
// the pipeline (README: the floor of a bare Hono Worker at the same rate).
const PRODUCER = args.producer === 'http' ? 'http' : 'worker';
const root = path.resolve(import.meta.dirname, '../..');
const state = path.join(root, 'bench/results/webhooks-state');
const SECRET = 'bench-secret-0123456789abcdef';

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function freePort() {
  return new Promise((resolve) => {
    const server = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// ——— the receiver: verifies the signature over the raw bytes, records first arrival per delivery id ———
const arrivals = new Map(); // delivery id -> { at, timestamp }
let duplicates = 0;
let badSignatures = 0;
const standard = new Webhook(SECRET, { format: 'raw' });
let floorArrivals = new Map();
const receiver = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const at = performance.timeOrigin + performance.now();
    const raw = Buffer.concat(chunks);
    if (req.url === '/floor') {
      floorArrivals.set(req.headers['x-floor-id'], at);
      res.writeHead(200).end('ok');
      return;
    }
    const expected = `sha256=${createHmac('sha256', SECRET).update(raw).digest('hex')}`;
    if (req.headers['x-webhook-signature'] !== expected) badSignatures += 1;
    try {
      standard.verify(raw, req.headers); // Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature
    } catch {
      badSignatures += 1;
    }
    const id = req.headers['x-webhook-delivery-id'];
    if (arrivals.has(id)) duplicates += 1;
    else arrivals.set(id, { at, timestamp: JSON.parse(raw.toString('utf8')).timestamp });
    res.writeHead(200).end('ok');
  });
});
await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
const receiverPort = receiver.address().port;

// ——— a fresh local D1 with an account and a full-access token ———
rmSync(state, { recursive: true, force: true });
mkdirSync(state, { recursive: true });
const wrangler = path.join(root, 'node_modules/.bin/wrangler');
// Migrations and id blocks on the control database and every shard, the account and its token:
// scripts/setup.mjs, as `npm run setup` does it.
const token = seedBenchAccount(state);

// ——— wrangler dev ———
const port = await freePort();
const dev = spawn(
  wrangler,
  [
    'dev',
    '--port',
    String(port),
    '--ip',
    '127.0.0.1',
    '--persist-to',
    state,
    '--var',
    `WEBHOOK_ALLOW_HOSTS:127.0.0.1:${receiverPort}`,
    '--var',
    'ENVIRONMENT:development',
    '--var',
    'D1_TIMING:true',
  ],
  { cwd: root, env: { ...process.env, WRANGLER_SEND_METRICS: 'false' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
);
let devLog = '';
dev.stdout.on('data', (d) => (devLog += d));
dev.stderr.on('data', (d) => (devLog += d));
const stopDev = () => {
  try {
    process.kill(-dev.pid, 'SIGTERM');
  } catch {
    /* not there yet: try again */
  }
};
process.on('exit', stopDev);
// A signal ends the process without 'exit' handlers running: stop wrangler dev (its own process group) first.
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
  process.on(signal, () => {
    stopDev();
    process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGHUP' ? 1 : 15));
  });
}
const base = `http://127.0.0.1:${port}`;
for (let i = 0; ; i += 1) {
  if (i > 120) throw new Error(`wrangler dev did not start:\n${devLog}`);
  try {
    if ((await fetch(`${base}/api/openapi.json`)).ok) break;
  } catch {
    /* not there yet: try again */
  }
  await sleep(500);
}

const created = await fetch(`${base}/api/webhooks`, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json', 'X-Auth-Token': token },
  body: JSON.stringify({ url: `http://127.0.0.1:${receiverPort}/hook`, secret: SECRET }),
});
if (created.status !== 201) throw new Error(`webhook create answered ${created.status}: ${await created.text()}`);

// ——— N events at a steady rate, each its own outbox row, batch and drain request ———
console.log(
  `webhooks bench: ${EVENTS} events at ${RATE}/s through wrangler dev → receiver on :${receiverPort}, dispatch ${DISPATCH}, producer ${PRODUCER}`,
);
const startedAt = Date.now();
const posts = [];
let producerD1Calls = 0;
const postEvents = (extra) =>
  fetch(`${base}/dev/events`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ account_id: 1, event: 'form.completed', dispatch: DISPATCH, ...extra }),
  }).then(async (r) => {
    if (r.status !== 201) throw new Error(`/dev/events answered ${r.status}: ${await r.text()}`);
    producerD1Calls += Number(/desc="(\d+) calls"/.exec(r.headers.get('server-timing') ?? '')?.[1] ?? NaN);
  });
if (PRODUCER === 'worker') {
  // One request writes them one at a time at the rate (routes/dev/dev-events.ts › per_second).
  posts.push(postEvents({ count: EVENTS, per_second: RATE }));
} else {
  for (let i = 0; i < EVENTS; i += 1) {
    const due = startedAt + (i * 1000) / RATE;
    const wait = due - Date.now();
    if (wait > 0) await sleep(wait);
    posts.push(postEvents({}));
  }
}
await Promise.all(posts);
const postedIn = (Date.now() - startedAt) / 1000;
const deadline = Date.now() + 120_000;
while (arrivals.size < EVENTS && Date.now() < deadline) await sleep(200);
const elapsed = (Date.now() - startedAt) / 1000;
await sleep(1_000); // the last batch's records
const consumerD1 = await (await fetch(`${base}/dev/events/d1-calls`)).json();

const latencies = [...arrivals.values()].map((a) => a.at - Date.parse(a.timestamp)).sort((x, y) => x - y);

// ——— the floor: the same POST, made directly to the same receiver ———
const sampleBody = JSON.stringify({ event: 'form.completed', timestamp: new Date().toISOString(), data: { pad: 'x'.repeat(900) } });
const floor = [];
for (let i = 0; i < EVENTS; i += 1) {
  const id = String(i);
  const sent = performance.timeOrigin + performance.now();
  await fetch(`http://127.0.0.1:${receiverPort}/floor`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Floor-Id': id },
    body: sampleBody,
  });
  floor.push(floorArrivals.get(id) - sent);
}
floor.sort((x, y) => x - y);

stopDev();
receiver.close();
// The dev log (queue batches and their durations) for a look at where the time went.
writeFileSync(path.join(root, 'bench/results/webhooks-dev.log'), devLog);

const fmt = (ms) => `${ms.toFixed(1)} ms`;
const p50 = percentile(latencies, 50);
const p99 = percentile(latencies, 99);
const f50 = percentile(floor, 50);
const f99 = percentile(floor, 99);
console.log(
  `delivered ${arrivals.size}/${EVENTS} (duplicates ${duplicates}, bad signatures ${badSignatures}) in ${elapsed.toFixed(1)} s; the events were written in ${postedIn.toFixed(1)} s`,
);
console.log(`event → first delivery   p50 ${fmt(p50)}   p99 ${fmt(p99)}   max ${fmt(latencies[latencies.length - 1])}`);
console.log(`floor (direct POST)      p50 ${fmt(f50)}   p99 ${fmt(f99)}`);
console.log(`ratio                    p50 ×${(p50 / f50).toFixed(0)}   p99 ×${(p99 / f99).toFixed(0)}`);
const perEvent = (n) => (n / EVENTS).toFixed(3);
console.log(
  `D1 calls per event       consumer ${perEvent(consumerD1.calls)} (${consumerD1.calls} calls, ${consumerD1.ms} ms waiting)   inline ${perEvent(consumerD1.inline.calls)} (${consumerD1.inline.calls} calls after the responses, ${consumerD1.inline.ms} ms waiting)   producer ${perEvent(producerD1Calls)} (POST /dev/events)`,
);
process.exit(arrivals.size === EVENTS && duplicates === 0 && badSignatures === 0 ? 0 : 1);
