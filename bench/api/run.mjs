#!/usr/bin/env node
// bench/api: authenticated GET /api/user against `wrangler dev`, beside its floor — the same D1 read
// with no authentication or middleware (GET /dev/bench/user) — measured in the same run. The subject
// includes the per-token rate limiter (a Durable Object call) and every other tenant middleware.
// Prints requests/s and p99 latency of both and the throughput ratio (target ≥ 0.7).
// `--smoke`: 2 s per run, one round, under bench/smoke.mjs on its shared server with the dev token
// alone (its rate limit is raised there, so rotating tokens is not needed).
import { createHash } from 'node:crypto';
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { sharedServer, smoke } from '../local-wrangler.mjs';

const PORT = Number(process.env.BENCH_PORT ?? 8790);
const DURATION = smoke ? 2 : Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const shared = sharedServer();
const base = shared?.base ?? `http://127.0.0.1:${PORT}`;
const env = { ...process.env, WRANGLER_SEND_METRICS: 'false' };

const setup =
  shared?.setup ?? JSON.parse(execFileSync('node', ['scripts/setup.mjs', '--json'], { env, encoding: 'utf8' }).trim().split('\n').pop());
const tokenHash = createHash('sha256').update(setup.token).digest('hex');

// The full middleware stays on, rate limiter included, at the real 120 requests/minute per token:
// the load rotates through TOKENS tokens of the dev user so none nears its limit (a non-2xx would be
// reported), and each token's limiter holds a production-sized log.
const TOKENS = Number(process.env.BENCH_TOKENS ?? 300);
const tokens = shared
  ? [setup.token]
  : Array.from(
      { length: TOKENS },
      () =>
        `tok_${randomBytes(30)
          .toString('base64')
          .replace(/[^0-9A-Za-z]/g, '')
          .slice(0, 40)
          .padEnd(40, '0')}`,
    );
let server;
if (!shared) {
  mkdirSync('.wrangler', { recursive: true });
  writeFileSync(
    '.wrangler/bench-api-tokens.sql',
    `INSERT INTO access_tokens (account_id, user_id, name, token_hash, token_prefix) VALUES ${tokens
      .map(
        (t, i) =>
          `(${setup.account_id}, ${setup.user_id}, 'bench ${i}', '${createHash('sha256').update(t).digest('hex')}', '${t.slice(0, 12)}')`,
      )
      .join(',\n')};`,
  );
  execFileSync('wrangler', ['d1', 'execute', 'CONTROL_DB', '--local', '--file=.wrangler/bench-api-tokens.sql'], {
    env: { ...env, CI: 'true' },
    stdio: 'ignore',
  });
  server = spawn('wrangler', ['dev', '--port', String(PORT), '--ip', '127.0.0.1', '--var', 'ENVIRONMENT:development'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  process.on('exit', () => server.kill('SIGTERM'));
}

async function waitForServer() {
  for (let i = 0; i < 360; i += 1) {
    try {
      const res = await fetch(`${base}/api/openapi.json`);
      if (res.ok) return;
    } catch {
      /* not there yet: try again */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('wrangler dev did not start');
}

function run(title, path, headers = {}, rotateTokens = false) {
  let next = 0;
  const requests = rotateTokens
    ? [
        {
          setupRequest: (request) => ({
            ...request,
            headers: { ...request.headers, 'X-Auth-Token': tokens[(next = (next + 1) % tokens.length)] },
          }),
        },
      ]
    : undefined;
  return new Promise((resolve, reject) => {
    autocannon({ url: `${base}${path}`, headers, requests, duration: DURATION, connections: CONNECTIONS, title }, (err, result) => {
      if (err) return reject(err);
      const non2xx = result.non2xx + result.errors;
      resolve({ title, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx });
    });
  });
}

await waitForServer();
const floorPath = `/dev/bench/user?token_hash=${tokenHash}`;
const auth = {};
// Warm both paths (isolate start, D1 file cache), then measure floor and subject back to back, twice,
// alternating so drift on a shared machine hits both alike.
await run('warm-up', floorPath);
await run('warm-up', '/api/user', auth, true);
const rounds = [];
for (let i = 0; i < (smoke ? 1 : 2); i += 1) {
  rounds.push([await run('floor', floorPath), await run('subject', '/api/user', auth, true)]);
}
server?.kill('SIGTERM');

const avg = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const floor = {
  rps: avg(rounds.map((r) => r[0].rps)),
  p99: avg(rounds.map((r) => r[0].p99)),
  non2xx: rounds.reduce((n, r) => n + r[0].non2xx, 0),
};
const subject = {
  rps: avg(rounds.map((r) => r[1].rps)),
  p99: avg(rounds.map((r) => r[1].p99)),
  non2xx: rounds.reduce((n, r) => n + r[1].non2xx, 0),
};
console.log(`bench/api  (${CONNECTIONS} connections, ${DURATION}s × 2 rounds each)`);
console.log(
  `  floor    GET /dev/bench/user (same D1 read, no auth): ${floor.rps.toFixed(1)} req/s, p99 ${floor.p99} ms, non-2xx ${floor.non2xx}`,
);
console.log(
  `  subject  GET /api/user (token auth + middleware):     ${subject.rps.toFixed(1)} req/s, p99 ${subject.p99} ms, non-2xx ${subject.non2xx}`,
);
console.log(`  ratio    throughput ${(subject.rps / floor.rps).toFixed(2)} (target ≥ 0.70), p99 ${(subject.p99 / floor.p99).toFixed(2)}×`);
if (floor.non2xx || subject.non2xx) console.log('  warning: non-2xx responses were counted; the figures are not comparable');
process.exit(smoke && (floor.non2xx || subject.non2xx || !floor.rps || !subject.rps) ? 1 : 0);
