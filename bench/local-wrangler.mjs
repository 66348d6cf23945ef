// What the wrangler-based benchmarks share: free ports, local D1 set up as `npm run setup` does it
// (scripts/setup.mjs: the control database and every shard), SQL on one of them, waiting for a server.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');
export const benchEnv = { ...process.env, WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' };

/**
 * `--smoke`: one short iteration through the same code path, still printing the floor and the ratio
 * (the figures mean nothing then). bench/smoke.mjs runs every benchmark so in CI, so one that stops
 * working fails the build; a smoke run that hits a refusal or a non-2xx exits non-zero.
 */
export const smoke = process.argv.includes('--smoke');

/**
 * The `wrangler dev` bench/smoke.mjs started for the benchmarks that can share one (the repository's
 * Worker, development, the rate limit raised): `{ base, pid, persist, setup }`, setup being setup.mjs's
 * JSON with the account raised to enterprise and the admin's password set (BENCH_PASSWORD). Undefined
 * when a benchmark runs on its own.
 */
export function sharedServer() {
  const base = process.env.BENCH_SHARED_URL;
  if (!base) return undefined;
  return {
    base,
    pid: Number(process.env.BENCH_SHARED_PID),
    persist: process.env.BENCH_SHARED_STATE,
    setup: JSON.parse(process.env.BENCH_SHARED_SETUP),
  };
}

export async function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Runs SQL against one local database (`CONTROL_DB`, `SHARD_0`, …) kept in `persist`; returns wrangler's
 * JSON output. `config` is the wrangler config that declares it (default: the repository's).
 */
export function d1(persist, sql, { database = 'SHARD_0', config } = {}) {
  const configArgs = config ? ['--config', config] : [];
  return execFileSync(
    'npx',
    ['wrangler', 'd1', 'execute', database, ...configArgs, '--local', '--persist-to', persist, '--json', '--command', sql],
    {
      cwd: root,
      env: benchEnv,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
}

/** Resolves once `url` answers at all (any status), or fails after two minutes. */
export async function waitUp(url) {
  for (let i = 0; i < 240; i += 1) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  throw new Error(`${url} did not come up`);
}

/**
 * Sets up the local D1 in `persist` with `scripts/setup.mjs` (migrations and id blocks on the control
 * database and every shard of `config`, the dev account with a full-access token) and raises that
 * account to `enterprise`, so no plan limit interferes. Returns the token; the account is on SHARD_0.
 */
export function seedBenchAccount(persist, { config } = {}) {
  return seedBenchState(persist, { config }).token;
}

const SETUP_FILE = 'bench-setup.json';

/**
 * seedBenchAccount's state and setup.mjs's whole JSON (token, account and user ids, partner key, the
 * one-time password link). Under bench/smoke.mjs (`BENCH_SEEDED_STATE`, the repository's config) the
 * state it set up once is copied instead: setup.mjs takes a minute of wrangler calls on a busy machine.
 */
export function seedBenchState(persist, { config } = {}) {
  const seeded = process.env.BENCH_SEEDED_STATE;
  if (seeded && !config) {
    cpSync(seeded, persist, { recursive: true });
    return JSON.parse(readFileSync(path.join(persist, SETUP_FILE), 'utf8'));
  }
  const configArgs = config ? ['--config', config] : [];
  const out = execFileSync(process.execPath, ['scripts/setup.mjs', '--json', ...configArgs, '--persist-to', persist], {
    cwd: root,
    env: benchEnv,
    encoding: 'utf8',
  });
  const setup = JSON.parse(out.trim().split('\n').pop());
  d1(persist, `UPDATE accounts SET plan = 'enterprise' WHERE id = ${setup.account_id}`, { database: 'CONTROL_DB', config });
  writeFileSync(path.join(persist, SETUP_FILE), JSON.stringify(setup));
  return setup;
}

/**
 * `wrangler dev` of the repository's Worker (or `config`) on a free port over `persist`, in its own
 * process group so `stop()` ends its workerd too. Resolves once `ready` (a path) answers.
 */
export async function startDev({ persist, vars = {}, config, ready = '/api/openapi.json' }) {
  const [port, inspector] = [await freePort(), await freePort()];
  const configArgs = config ? ['--config', config] : [];
  const varArgs = Object.entries({ ENVIRONMENT: 'development', ...vars }).flatMap(([k, v]) => ['--var', `${k}:${v}`]);
  const child = spawn(
    path.join(root, 'node_modules', '.bin', 'wrangler'),
    [
      'dev',
      ...configArgs,
      '--port',
      String(port),
      '--inspector-port',
      String(inspector),
      '--ip',
      '127.0.0.1',
      '--persist-to',
      persist,
      '--log-level',
      'warn',
      '--show-interactive-dev-session=false',
      ...varArgs,
    ],
    // Output is shown or dropped: an unread pipe fills up and stalls wrangler.
    {
      cwd: root,
      env: benchEnv,
      stdio: ['ignore', process.env.BENCH_DEBUG ? 'inherit' : 'ignore', process.env.BENCH_DEBUG ? 'inherit' : 'ignore'],
      detached: true,
    },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const server = {
    base: `http://127.0.0.1:${port}`,
    pid: child.pid,
    /** Its DevTools port (`/json` lists the Worker): CPU profiles of the code under load. */
    inspector,
    async stop() {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        return; // already gone
      }
      await exited;
    },
  };
  try {
    // A wrangler that exits while starting (a port another one took meanwhile) is not waited on for minutes.
    await Promise.race([
      waitUp(`${server.base}${ready}`),
      exited.then((code) => {
        throw new Error(`wrangler dev (${config ?? 'wrangler.toml'}) exited with code ${code} before ${server.base} answered`);
      }),
    ]);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

/** The dev admin's password in every benchmark that signs in. */
export const BENCH_PASSWORD = 'bench password long enough';

/**
 * Chooses the dev admin's password through setup.mjs's one-time link (POST /password/set, as the
 * page's form posts it). bench/smoke.mjs does it once for its shared server and passes no link on.
 */
export async function setAdminPassword(base, setup) {
  if (!setup.set_password_url) return;
  const token = new URL(setup.set_password_url).searchParams.get('token');
  const res = await fetch(`${base}/password/set`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: base },
    body: new URLSearchParams({ token, password: BENCH_PASSWORD, password_confirmation: BENCH_PASSWORD }).toString(),
    redirect: 'manual',
  });
  await res.arrayBuffer();
  if (res.status !== 303) throw new Error(`POST /password/set: ${res.status}`);
}

/**
 * `call(method, path, body)` against `base` with `token` as X-Auth-Token: the JSON of a 2xx answer, else
 * an error naming the method, path, status and body.
 */
export function apiCaller(base, token) {
  return async (method, url, body) => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { 'X-Auth-Token': token, 'Content-Type': 'application/json' },
      body: body && JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
    return res.json();
  };
}

/**
 * The repository's wrangler.toml with the producer of `binding`'s queue given `delivery_delay` of
 * `seconds`, so its consumer gets nothing during a bench that times the requests sending to it and not
 * the background work they cause (deployed, that work runs in other isolates). Written beside it (so its
 * relative paths hold) as `.bench-<name>.wrangler.toml`; returns its path and a function that removes it.
 */
export function configHoldingQueue(root, binding, seconds, name) {
  const source = readFileSync(path.join(root, 'wrangler.toml'), 'utf8');
  const producer = `binding = "${binding}"\n`;
  if (!source.includes(producer)) throw new Error(`wrangler.toml: no ${binding} producer to hold`);
  const file = path.join(root, `.bench-${name}.wrangler.toml`);
  writeFileSync(file, source.replace(producer, `${producer}delivery_delay = ${seconds}\n`));
  return { config: file, remove: () => rmSync(file, { force: true }) };
}

/** The pids of a process and all its descendants (wrangler's node, both workerd processes, esbuild). */
export function processTree(pid) {
  let children = [];
  try {
    children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    /* not there yet: try again */
  }
  return [pid, ...children.flatMap(processTree)];
}

/** CPU time (user + system, ms) a process tree has used so far, from /proc; Linux only, else NaN. */
export function cpuMs(pids) {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      return NaN;
    }
  }
  return ticks * 10; // USER_HZ is 100 on Linux
}
