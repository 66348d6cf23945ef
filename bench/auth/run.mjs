#!/usr/bin/env node
// bench/auth (issue 16): in one run against one `wrangler dev`,
//  1. the same GET /api/templates with the dev API token and with an OAuth bearer, alternating, and the
//     throughput ratio oauth / api_token (target ≥ 0.9). The bearer comes through the real HTTP flow:
//     the dev admin's password is set from setup's one-time link (POST /password/set), POST /login gives
//     a session cookie, the consent form of GET /oauth/authorize is posted with its CSRF token, and the
//     code is exchanged at POST /oauth/token with its PKCE verifier. Both credentials go through the
//     per-credential rate limiter (a Durable Object call), its limit raised with RATE_LIMIT_PER_MINUTE
//     (development only) so no request is refused;
//  2. the KDF's time per sign-in: N sequential POST /login with a wrong password (one scrypt verify each)
//     minus N sequential POST /login with a password over 256 bytes (refused before any KDF), both
//     through the same route, origin check and sign-in throttle. Each attempt uses a fresh email and
//     CF-Connecting-IP, so the throttle (10 per 15 minutes per email and per address) never refuses one.
// `--smoke`: 2 s per throughput run, 2 sign-ins per series, under bench/smoke.mjs on its shared server.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { BENCH_PASSWORD, seedBenchState, setAdminPassword, sharedServer, smoke, startDev } from '../local-wrangler.mjs';

const DURATION = smoke ? 2 : Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const SIGN_INS = smoke ? 2 : Number(process.env.BENCH_SIGN_INS ?? 20);

const shared = sharedServer();
const persist = mkdtempSync(join(tmpdir(), 'bench-auth-'));
process.on('exit', () => rmSync(persist, { recursive: true, force: true }));
const setup = shared?.setup ?? seedBenchState(persist);
const server = shared ? undefined : await startDev({ persist, vars: { RATE_LIMIT_PER_MINUTE: '100000000' } });
const { base } = shared ?? server;

const must = (res, status, what) => {
  if (res.status !== status) throw new Error(`${what}: ${res.status}`);
  return res;
};
const formBody = (fields) => new URLSearchParams(fields).toString();
const formHeaders = { 'Content-Type': 'application/x-www-form-urlencoded', Origin: base };

/** The OAuth bearer, through the HTTP flow a browser and a client would take. */
async function oauthBearer() {
  await setAdminPassword(base, setup);
  const signIn = must(
    await fetch(`${base}/login`, {
      method: 'POST',
      headers: formHeaders,
      body: formBody({ email: 'admin@example.com', password: BENCH_PASSWORD }),
      redirect: 'manual',
    }),
    303,
    'POST /login',
  );
  const cookie = signIn.headers.get('set-cookie').split(';')[0];

  const redirectUri = 'http://127.0.0.1:9/callback';
  const client = await (
    await fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_name: 'bench/auth', redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' }),
    })
  ).json();
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: redirectUri,
    scope: 'templates:read',
    state: 'bench',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const consent = await must(
    await fetch(`${base}/oauth/authorize?${query}`, { headers: { Cookie: cookie } }),
    200,
    'GET /oauth/authorize',
  ).text();
  // The consent form's hidden inputs (csrf_token and the request's parameters), posted back with Allow.
  const form = consent.slice(consent.indexOf('action="/oauth/authorize"'));
  const fields = Object.fromEntries(
    [...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [
      m[1],
      m[2].replaceAll('&amp;', '&').replaceAll('&quot;', '"'),
    ]),
  );
  const allowed = must(
    await fetch(`${base}/oauth/authorize`, {
      method: 'POST',
      headers: { ...formHeaders, Cookie: cookie },
      body: formBody({ ...fields, decision: 'allow' }),
      redirect: 'manual',
    }),
    303,
    'POST /oauth/authorize',
  );
  const code = new URL(allowed.headers.get('location')).searchParams.get('code');
  const tokens = await must(
    await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: formHeaders,
      body: formBody({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        code_verifier: verifier,
        client_id: client.client_id,
      }),
    }),
    200,
    'POST /oauth/token',
  ).json();
  return tokens.access_token;
}

function run(title, headers) {
  return new Promise((resolve, reject) => {
    autocannon({ url: `${base}/api/templates`, headers, duration: DURATION, connections: CONNECTIONS, title }, (err, result) => {
      if (err) return reject(err);
      resolve({ rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx + result.errors });
    });
  });
}

/** Milliseconds for `n` sequential POST /login, each from a fresh address with a fresh (unknown) email. */
async function timeSignIns(n, password) {
  const started = performance.now();
  for (let i = 0; i < n; i += 1) {
    const email = `bench-${randomBytes(6).toString('hex')}@example.com`;
    const ip = `10.${i % 250}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    const res = await fetch(`${base}/login`, {
      method: 'POST',
      headers: { ...formHeaders, 'CF-Connecting-IP': ip },
      body: formBody({ email, password }),
      redirect: 'manual',
    });
    await res.text();
    if (res.status === 429) throw new Error('a sign-in was throttled: the figures would not measure the KDF');
  }
  return performance.now() - started;
}

const bearer = await oauthBearer();
const api = { 'X-Auth-Token': setup.token };
const oauth = { Authorization: `Bearer ${bearer}` };

// Warm both (isolate, D1 cache, the limiter objects), then alternate twice so drift hits both alike.
await run('warm-up', api);
await run('warm-up', oauth);
const rounds = [];
for (let i = 0; i < (smoke ? 1 : 2); i += 1) rounds.push([await run('api_token', api), await run('oauth', oauth)]);

const wrong = 'x'.repeat(20);
const tooLong = 'x'.repeat(300);
await timeSignIns(smoke ? 1 : 3, wrong);
await timeSignIns(smoke ? 1 : 3, tooLong);
const kdfRuns = [];
const cheapRuns = [];
for (let i = 0; i < (smoke ? 1 : 2); i += 1) {
  kdfRuns.push(await timeSignIns(SIGN_INS, wrong));
  cheapRuns.push(await timeSignIns(SIGN_INS, tooLong));
}
await server?.stop();

const avg = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const apiToken = {
  rps: avg(rounds.map((r) => r[0].rps)),
  p99: avg(rounds.map((r) => r[0].p99)),
  non2xx: sum(rounds.map((r) => r[0].non2xx)),
};
const bearerRun = {
  rps: avg(rounds.map((r) => r[1].rps)),
  p99: avg(rounds.map((r) => r[1].p99)),
  non2xx: sum(rounds.map((r) => r[1].non2xx)),
};
const perKdf = avg(kdfRuns) / SIGN_INS;
const perCheap = avg(cheapRuns) / SIGN_INS;
console.log(`bench/auth  (GET /api/templates, ${CONNECTIONS} connections, ${DURATION}s × 2 rounds each)`);
console.log(
  `  api_token  X-Auth-Token tok_…:          ${apiToken.rps.toFixed(1)} req/s, p99 ${apiToken.p99} ms, non-2xx ${apiToken.non2xx}`,
);
console.log(
  `  oauth      Authorization: Bearer oat_…: ${bearerRun.rps.toFixed(1)} req/s, p99 ${bearerRun.p99} ms, non-2xx ${bearerRun.non2xx}`,
);
console.log(`  ratio      oauth / api_token throughput ${(bearerRun.rps / apiToken.rps).toFixed(2)} (target ≥ 0.90)`);
console.log(
  `  sign-in    POST /login wrong password ${perKdf.toFixed(1)} ms, over-long password (no KDF) ${perCheap.toFixed(1)} ms (${SIGN_INS} sequential × 2)`,
);
console.log(`  KDF        ≈ ${(perKdf - perCheap).toFixed(1)} ms of scrypt (N=2^14, r=8, p=1) per sign-in, wall time in local workerd`);
if (apiToken.non2xx || bearerRun.non2xx) console.log('  warning: non-2xx responses were counted; the figures are not comparable');
process.exit(smoke && (apiToken.non2xx || bearerRun.non2xx || !apiToken.rps || !bearerRun.rps) ? 1 : 0);
