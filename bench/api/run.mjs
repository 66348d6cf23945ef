#!/usr/bin/env node
// bench/api: authenticated GET /api/user against `wrangler dev`, beside its floor — the same D1 read
// with no authentication or middleware (GET /dev/bench/user) — measured in the same run.
// Prints requests/s and p99 latency of both and the throughput ratio (target ≥ 0.7).
import { createHash } from 'node:crypto';
import { execFileSync, spawn } from 'node:child_process';
import autocannon from 'autocannon';

const PORT = Number(process.env.BENCH_PORT ?? 8790);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const base = `http://127.0.0.1:${PORT}`;
const env = { ...process.env, WRANGLER_SEND_METRICS: 'false' };

const setup = JSON.parse(execFileSync('node', ['scripts/setup.mjs', '--json'], { env, encoding: 'utf8' }).trim().split('\n').pop());
const tokenHash = createHash('sha256').update(setup.token).digest('hex');

const server = spawn('wrangler', ['dev', '--port', String(PORT), '--ip', '127.0.0.1'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
process.on('exit', () => server.kill('SIGTERM'));

async function waitForServer() {
  for (let i = 0; i < 360; i += 1) {
    try {
      const res = await fetch(`${base}/api/openapi.json`);
      if (res.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('wrangler dev did not start');
}

function run(title, path, headers = {}) {
  return new Promise((resolve, reject) => {
    autocannon({ url: `${base}${path}`, headers, duration: DURATION, connections: CONNECTIONS, title }, (err, result) => {
      if (err) return reject(err);
      const non2xx = result.non2xx + result.errors;
      resolve({ title, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx });
    });
  });
}

await waitForServer();
const floorPath = `/dev/bench/user?token_hash=${tokenHash}`;
const auth = { 'X-Auth-Token': setup.token };
// Warm both paths (isolate start, D1 file cache), then measure floor and subject back to back, twice,
// alternating so drift on a shared machine hits both alike.
await run('warm-up', floorPath);
await run('warm-up', '/api/user', auth);
const rounds = [];
for (let i = 0; i < 2; i += 1) {
  rounds.push([await run('floor', floorPath), await run('subject', '/api/user', auth)]);
}
server.kill('SIGTERM');

const avg = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const floor = { rps: avg(rounds.map((r) => r[0].rps)), p99: avg(rounds.map((r) => r[0].p99)), non2xx: rounds.reduce((n, r) => n + r[0].non2xx, 0) };
const subject = { rps: avg(rounds.map((r) => r[1].rps)), p99: avg(rounds.map((r) => r[1].p99)), non2xx: rounds.reduce((n, r) => n + r[1].non2xx, 0) };
console.log(`bench/api  (${CONNECTIONS} connections, ${DURATION}s × 2 rounds each)`);
console.log(`  floor    GET /dev/bench/user (same D1 read, no auth): ${floor.rps.toFixed(1)} req/s, p99 ${floor.p99} ms, non-2xx ${floor.non2xx}`);
console.log(`  subject  GET /api/user (token auth + middleware):     ${subject.rps.toFixed(1)} req/s, p99 ${subject.p99} ms, non-2xx ${subject.non2xx}`);
console.log(`  ratio    throughput ${(subject.rps / floor.rps).toFixed(2)} (target ≥ 0.70), p99 ${(subject.p99 / floor.p99).toFixed(2)}×`);
if (floor.non2xx || subject.non2xx) console.log('  warning: non-2xx responses were counted; the figures are not comparable');
process.exit(0);
