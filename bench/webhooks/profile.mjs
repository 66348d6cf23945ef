// CPU profile of the webhook pipeline in wrangler dev's workerd, through its inspector: N events posted
// at a steady rate (POST /dev/events, as bench/webhooks/run.mjs does) until every first delivery has
// arrived at a local receiver; prints the self time of the Worker's functions per event, heaviest first,
// beside the CPU the whole workerd process used per event (/proc: D1, the queue broker and the Worker
// together), so what is JavaScript and what is the runtime can be told apart.
//
//   node bench/webhooks/profile.mjs [--events 1500] [--rate 300] [--dispatch inline] [--producer http] [--bare] [--out p.cpuprofile]
//
// `--bare` runs without the profiler (which slows the isolate) and prints only the processes' CPU.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inclusiveTimes, profileWorker, selfTimes, workerdCpuMs } from '../cpu-profile.mjs';
import { seedBenchAccount, smoke, startDev } from '../local-wrangler.mjs';

const arg = (name, fallback) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback);
// `--smoke` (bench/smoke.mjs, in CI): 30 events at 30/s, the same path.
const EVENTS = smoke ? 30 : Number(arg('--events', 1500));
const RATE = smoke ? 30 : Number(arg('--rate', 300));
const DISPATCH = arg('--dispatch', 'queue');
const PRODUCER = arg('--producer', 'worker');
const out = arg('--out', undefined);
// Functions whose whole time (their callees' included) is printed: the request, the consumer and their parts.
const PATHS = [
  'fetchPart',
  'queue',
  'drainOutbox',
  'attemptClaimed',
  'sendAttempt',
  'signDelivery',
  'recordAttempts',
  'outboxDrainMiddleware',
];
const WARM = smoke ? 5 : 100;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let arrived = 0;
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    arrived += 1;
    res.writeHead(200).end('ok');
  });
});
await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
const receiverPort = receiver.address().port;

const postEvents = (base, extra) =>
  fetch(`${base}/dev/events`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ account_id: 1, event: 'form.completed', dispatch: DISPATCH, ...extra }),
  }).then((r) => r.arrayBuffer());

/** As bench/webhooks/run.mjs: one request writing the events at the rate (`worker`), or one request per event (`http`). */
async function post(base, count) {
  if (PRODUCER === 'worker') return postEvents(base, { count, per_second: RATE });
  const started = Date.now();
  const posts = [];
  for (let i = 0; i < count; i += 1) {
    const wait = started + (i * 1000) / RATE - Date.now();
    if (wait > 0) await sleep(wait);
    posts.push(postEvents(base, {}));
  }
  await Promise.all(posts);
}

async function untilArrived(n) {
  const deadline = Date.now() + 180_000;
  while (arrived < n && Date.now() < deadline) await sleep(50);
}

const persist = mkdtempSync(path.join(tmpdir(), 'profile-webhooks-'));
let server;
try {
  const token = seedBenchAccount(persist);
  server = await startDev({ persist, vars: { WEBHOOK_ALLOW_HOSTS: `127.0.0.1:${receiverPort}` } });
  const created = await fetch(`${server.base}/api/webhooks`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Auth-Token': token },
    body: JSON.stringify({ url: `http://127.0.0.1:${receiverPort}/hook`, secret: 'profile-secret-0123456789abcdef' }),
  });
  if (created.status !== 201) throw new Error(`webhook create answered ${created.status}: ${await created.text()}`);
  await post(server.base, WARM); // warm the isolate and the tables
  await untilArrived(WARM);
  const cpuBefore = workerdCpuMs(server.pid);
  const drive = async () => {
    await post(server.base, EVENTS);
    await untilArrived(WARM + EVENTS);
  };
  // `--bare`: no profiler (it costs the isolate time), only the processes' CPU.
  const { profile, name } = process.argv.includes('--bare')
    ? await drive().then(() => ({ profile: { nodes: [], samples: [], timeDeltas: [] }, name: 'Cloudflare Worker (not profiled)' }))
    : await profileWorker(server, drive);
  const cpuAfter = workerdCpuMs(server.pid);
  const perProcess = [...cpuAfter].map(([p, ms]) => (ms - (cpuBefore.get(p) ?? 0)) / EVENTS);
  if (out) writeFileSync(out, JSON.stringify(profile));
  const { total, rows } = selfTimes(profile);
  console.log(
    `${name}: ${EVENTS} events at ${RATE}/s, dispatch ${DISPATCH}, producer ${PRODUCER}: Worker JS ${(total / EVENTS).toFixed(2)} ms per event; workerd processes ${perProcess.map((ms) => ms.toFixed(2)).join(' + ')} ms per event`,
  );
  const paths = inclusiveTimes(profile, PATHS);
  console.log(`  by path: ${PATHS.map((fn) => `${fn} ${(paths.get(fn) / EVENTS).toFixed(3)}`).join(' · ')} ms per event`);
  for (const [fn, ms] of rows.slice(0, 45)) console.log(`  ${(ms / EVENTS).toFixed(3).padStart(7)} ms  ${fn}`);
} finally {
  await server?.stop();
  receiver.close();
  rmSync(persist, { recursive: true, force: true });
}
