// bench/limits: throughput of an authenticated read (GET /api/user) with the rate limiter and the
// idempotency middleware on, beside the same route with both off (the floor), in one run.
//
// Two `wrangler dev` processes serve the same code from separate local state: one as deployed
// (every request passes its token's RateLimiter Durable Object, at the real 120 requests/minute),
// one with LIMITS_DISABLED=true (honoured only in development). 120/min per token would stop a
// single-token benchmark within a second, so both servers get the same 400 tokens and the load
// rotates through them: no token nears its limit (asserted: any non-2xx is reported), and the
// limiter does exactly the work it does in production, one log of at most 120 entries per token.
// The idempotency middleware is mounted only on create/send routes, so on this read it costs
// nothing by construction. Rounds alternate on/off so drift on a shared machine hits both alike.
// Beside the throughput it prints the servers' CPU time per request (all processes of each wrangler
// dev), which moves far less than throughput when other work shares the machine.
// Usage: npm run bench:limits  (BENCH_ROUNDS, BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_MODE to vary)
// `--smoke`: one round of 1 s; under bench/smoke.mjs the "on" side is its shared server (its limit
// raised, still sending X-RateLimit-*) and both sides use the dev token alone.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { seedBenchState, sharedServer, smoke } from '../local-wrangler.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ROUNDS = smoke ? 1 : Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = smoke ? 1 : Number(process.env.BENCH_SECONDS ?? 8);
const shared = sharedServer();
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const TOKENS = Number(process.env.BENCH_TOKENS ?? 400);
/** `alternate` (default): rounds take turns; `concurrent`: both servers are loaded at once. */
const MODE = process.env.BENCH_MODE ?? 'alternate';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true' };

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function run(args) {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['wrangler', ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`wrangler ${args[0]} failed:\n${output}`))));
  });
}

/** Tenant tokens in the app's own format (`tok_` + 40 base62), stored as the app stores them: hashed. */
function makeTokens(count) {
  return Array.from({ length: count }, () => `tok_${Array.from(randomBytes(40), (b) => BASE62[b % 62]).join('')}`);
}

function seedSql(tokens) {
  const rows = tokens.map((token, i) => {
    const hash = createHash('sha256').update(token).digest('hex');
    return `(1, 1, 'bench ${i}', '${hash}', '${token.slice(0, 12)}')`;
  });
  return [`INSERT INTO access_tokens (account_id, user_id, name, token_hash, token_prefix) VALUES ${rows.join(',\n')};`].join('\n');
}

async function startServer(name, vars, tokens) {
  const persist = join(root, '.wrangler', 'bench-limits', name);
  rmSync(persist, { recursive: true, force: true });
  // Account 1 and its admin (user 1) on the control database and every shard, set up by scripts/setup.mjs.
  const setup = seedBenchState(persist);
  if (!tokens.includes(setup.token)) {
    const seed = join(root, '.wrangler', 'bench-limits', `${name}-seed.sql`);
    writeFileSync(seed, seedSql(tokens));
    await run(['d1', 'execute', 'CONTROL_DB', '--local', '--persist-to', persist, '--file', seed]);
  }
  const port = await freePort();
  const inspector = await freePort();
  const varArgs = Object.entries({ ENVIRONMENT: 'development', ...vars }).flatMap(([k, v]) => ['--var', `${k}:${v}`]);
  // Its own process group, so stopping it also stops the workerd it starts (and nothing else).
  const child = spawn(
    'npx',
    [
      'wrangler',
      'dev',
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--inspector-port',
      String(inspector),
      '--persist-to',
      persist,
      '--show-interactive-dev-session=false',
      '--log-level',
      'warn',
      ...varArgs,
    ],
    { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'], detached: true },
  );
  const server = { name, base: `http://127.0.0.1:${port}`, tokens, pgid: child.pid, stop: () => process.kill(-child.pid, 'SIGTERM') };
  for (let i = 0; i < 240; i += 1) {
    try {
      if ((await fetch(`${server.base}/api/openapi.json`)).ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  server.stop();
  throw new Error(`wrangler dev (${name}) did not start`);
}

/**
 * CPU seconds (user + system) used so far by every process of a server's process group (wrangler,
 * workerd). Per request this is steadier than throughput on a machine shared with other work:
 * other load slows both servers, but it does not change how much CPU one request costs.
 */
function groupCpuSeconds(pgid) {
  const ticks = 100; // USER_HZ on Linux
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the parenthesised command name: state ppid pgrp … utime(14) stime(15).
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== pgid) continue;
      total += (Number(fields[11]) + Number(fields[12])) / ticks;
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

let next = 0;

async function load(server, seconds) {
  const cpuBefore = process.platform === 'linux' ? groupCpuSeconds(server.pgid) : NaN;
  const result = await autocannon({
    url: `${server.base}/api/user`,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        setupRequest: (request) => {
          next = (next + 1) % server.tokens.length;
          return { ...request, headers: { ...request.headers, 'X-Auth-Token': server.tokens[next] } };
        },
      },
    ],
  });
  const cpuMs = ((groupCpuSeconds(server.pgid) - cpuBefore) * 1000) / Math.max(1, result.requests.total);
  return {
    cpuMs,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

const servers = [];
try {
  const tokens = shared ? [shared.setup.token] : makeTokens(TOKENS);
  const on = shared ? { name: 'on', base: shared.base, tokens, pgid: shared.pid } : await startServer('on', {}, tokens);
  if (!shared) servers.push(on);
  const off = await startServer('off', { LIMITS_DISABLED: 'true' }, tokens);
  servers.push(off);

  const probe = await fetch(`${on.base}/api/user`, { headers: { 'X-Auth-Token': tokens[0] } });
  const probeOff = await fetch(`${off.base}/api/user`, { headers: { 'X-Auth-Token': tokens[0] } });
  if (!probe.headers.get('X-RateLimit-Limit') || probeOff.headers.get('X-RateLimit-Limit')) {
    throw new Error('the "on" server must send X-RateLimit-* headers and the "off" server must not');
  }

  // Warm-up: one request per token (creates each token's Durable Object on the "on" side, as a
  // token's first request of the day does in production), then JIT and D1 page cache.
  for (const server of [on, off]) {
    for (let i = 0; i < tokens.length; i += 16) {
      await Promise.all(
        tokens
          .slice(i, i + 16)
          .map((token) => fetch(`${server.base}/api/user`, { headers: { 'X-Auth-Token': token } }).then((r) => r.arrayBuffer())),
      );
    }
    await load(server, smoke ? 1 : 3);
  }
  const totals = { on: [], off: [] };
  const report = (round, server, r) =>
    console.log(
      `round ${round} ${server.name.padEnd(3)} ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  cpu ${r.cpuMs.toFixed(2)} ms/req  non-2xx ${r.non2xx}  errors ${r.errors}`,
    );
  for (let round = 1; round <= ROUNDS; round += 1) {
    if (MODE === 'concurrent') {
      // Both servers loaded at the same time: the same machine load for both, and no idle gap in
      // which local workerd evicts the limiter objects (after 10 s; production keeps them 70–140 s).
      const results = await Promise.all([on, off].map((server) => load(server, SECONDS)));
      [on, off].forEach((server, i) => {
        totals[server.name].push(results[i]);
        report(round, server, results[i]);
      });
      continue;
    }
    for (const server of round % 2 ? [on, off] : [off, on]) {
      const r = await load(server, SECONDS);
      totals[server.name].push(r);
      report(round, server, r);
    }
  }
  const mean = (rs) => rs.reduce((sum, r) => sum + r.rps, 0) / rs.length;
  const withLimits = mean(totals.on);
  const floor = mean(totals.off);
  const cpu = (rs) => rs.reduce((sum, r) => sum + r.cpuMs, 0) / rs.length;
  const failures = [...totals.on, ...totals.off].reduce((sum, r) => sum + r.non2xx + r.errors, 0);
  console.log('');
  console.log(`GET /api/user, ${CONNECTIONS} connections, ${TOKENS} tokens, ${ROUNDS} × ${SECONDS} s per side, ${MODE}`);
  console.log(`rate limiting + idempotency on : ${withLimits.toFixed(0)} req/s`);
  console.log(`floor (limits off)             : ${floor.toFixed(0)} req/s`);
  console.log(`ratio                          : ${(withLimits / floor).toFixed(2)} (target ≥ 0.80)`);
  if (process.platform === 'linux') {
    const cpuOn = cpu(totals.on);
    const cpuOff = cpu(totals.off);
    console.log(
      `server CPU per request         : on ${cpuOn.toFixed(2)} ms, off ${cpuOff.toFixed(2)} ms; ratio off/on ${(cpuOff / cpuOn).toFixed(2)}`,
    );
  }
  if (failures) console.log(`warning: ${failures} non-2xx responses or errors; the figures are not comparable`);
  if (smoke && failures) process.exitCode = 1;
} finally {
  for (const server of servers) {
    try {
      server.stop();
    } catch {
      // already gone
    }
  }
}
