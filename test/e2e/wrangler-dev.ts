// Starts `wrangler dev` on a spare port with its own directory: a copy of wrangler.toml with the chosen
// number of shards, its .dev.vars and the local state, set up by `scripts/setup.mjs` exactly as
// `npm run setup` sets up a developer's machine (migrations and id blocks on every database, the dev
// account with a full-access token). Stops it afterwards. A run sets up once (test/e2e/shared-server.ts)
// and servers of two shards start from a copy of that state (copySetup), which is what setup would
// have made; setup itself runs in the main process without blocking it (the shared server's requests).
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { request as httpsRequest } from 'node:https';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { writeShardedConfig } from '../../scripts/local-config.mjs';

const root = join(import.meta.dirname, '..', '..');
const wranglerBin = join(root, 'node_modules', '.bin', 'wrangler');
const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true', NO_COLOR: '1' };

export type DevServer = LaunchedServer & LocalSetup;

/** `setPasswordUrl`: the dev admin's one-time link to choose a password (null once they have one). */
export type LocalSetup = {
  dir: string;
  config: string;
  token: string;
  accountId: number;
  partnerKey: string;
  setPasswordUrl: string | null;
};

/** Runs a script of scripts/ with Node; its stdout. */
async function runScript(name: string, args: string[] = []): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [join(root, 'scripts', name), ...args], {
      cwd: root,
      encoding: 'utf8',
      env,
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    throw new Error(`${name} failed:\n${stdout ?? ''}\n${stderr ?? (err as Error).message}`);
  }
}

/** The signing page's script and pdf.js must be in public/vendor, built from the current source (postinstall does this too). */
export async function vendorAssets(): Promise<void> {
  await runScript('vendor-assets.mjs');
}

/**
 * Writes `<dir>/wrangler.toml` with `shards` shards and runs `scripts/setup.mjs` against it (the D1
 * state in `dir` too). Running it again on the same directory with more shards is the local form of
 * docs/scaling.md › Adding a shard.
 */
export async function setUpLocal(dir: string, shards: number, baseUrl?: string): Promise<LocalSetup> {
  const config = writeShardedConfig(dir, shards);
  const args = ['--json', '--config', config, '--persist-to', dir, ...(baseUrl ? ['--base-url', baseUrl] : [])];
  const out = JSON.parse((await runScript('setup.mjs', args)).trim().split('\n').pop()!);
  return { dir, config, token: out.token, accountId: out.account_id, partnerKey: out.partner_key, setPasswordUrl: out.set_password_url };
}

/**
 * A fresh directory holding a copy of `prepared` (its config, .dev.vars, credentials and D1 state: the
 * copied config's paths are absolute, into the repository), with setup's one-time link on `baseUrl`.
 */
export function copySetup(prepared: LocalSetup, baseUrl: string): LocalSetup {
  const dir = mkdtempSync(join(tmpdir(), 'signing-e2e-'));
  cpSync(prepared.dir, dir, { recursive: true });
  const link = prepared.setPasswordUrl && new URL(prepared.setPasswordUrl);
  return {
    ...prepared,
    dir,
    config: join(dir, 'wrangler.toml'),
    setPasswordUrl: link ? `${baseUrl}${link.pathname}${link.search}` : null,
  };
}

/** Runs SQL on one local database (`CONTROL_DB`, `SHARD_n`) of a setup; returns the result rows. */
export function sqlOn(setup: LocalSetup, database: string, command: string): Record<string, unknown>[] {
  const result = spawnSync(
    wranglerBin,
    ['d1', 'execute', database, '--local', '--config', setup.config, '--persist-to', setup.dir, '--json', `--command=${command}`],
    { cwd: root, encoding: 'utf8', env },
  );
  if (result.status !== 0) throw new Error(`wrangler d1 execute ${database} failed:\n${result.stdout}\n${result.stderr}`);
  return JSON.parse(result.stdout)[0].results;
}

/**
 * `vars`: extra Worker variables for this server (wrangler's `--var KEY:VALUE`). `https`: served over
 * https (`--local-protocol https`, wrangler's self-signed certificate), as integrations that load
 * `https://<host>/…` need; the browser must ignore certificate errors and Node must call it with devFetch.
 * `from`: a prepared setup of two shards to start from a copy of (e2e-kit.ts › preparedSetup, whose run
 * built the vendor assets already) instead of building the assets and setting up anew.
 */
export async function startDevServer(
  port: number,
  {
    shards = 2,
    vars = {},
    https = false,
    from,
  }: { shards?: number; vars?: Record<string, string>; https?: boolean; from?: LocalSetup } = {},
): Promise<DevServer> {
  const base = `${https ? 'https' : 'http'}://127.0.0.1:${port}`;
  if (from && shards !== 2) throw new Error('a prepared setup has two shards');
  if (!from) await vendorAssets();
  const setup = from ? copySetup(from, base) : await setUpLocal(mkdtempSync(join(tmpdir(), 'signing-e2e-')), shards, base);
  const varArgs = Object.entries(vars).flatMap(([key, value]) => ['--var', `${key}:${value}`]);
  const server = await launchWranglerDev(port, setup.dir, ['--config', setup.config, ...varArgs], { https });
  return { ...server, ...setup };
}

export type DevResponse = { status: number; ok: boolean; text: string };

/**
 * A request to a local server from Node. Over https it accepts wrangler's self-signed certificate, for
 * this one request only (Node's fetch has no such option without a dispatcher package).
 */
export async function devFetch(
  url: string,
  { method = 'GET', headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<DevResponse> {
  if (!url.startsWith('https:')) {
    const res = await fetch(url, { method, headers, body });
    return { status: res.status, ok: res.ok, text: await res.text() };
  }
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { method, headers, rejectUnauthorized: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        resolve({ status, ok: status >= 200 && status < 300, text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

export type LaunchedServer = { base: string; output(): string; stop(): Promise<void> };

/**
 * Runs `wrangler dev` on `port` with the local state in `state` (removed on stop) and waits until it
 * answers. `args` are added to wrangler's own (`--config`, `--var`, `--env-file`, …). `keepState` leaves
 * the state for a later server (a restart with another config); `https` serves it over https.
 */
export async function launchWranglerDev(
  port: number,
  state: string,
  args: string[],
  { keepState = false, https = false } = {},
): Promise<LaunchedServer> {
  const flags = ['--port', String(port), '--ip', '127.0.0.1', '--persist-to', state];
  if (https) flags.push('--local-protocol', 'https');
  const child: ChildProcess = spawn(wranglerBin, ['dev', ...flags, ...args, '--show-interactive-dev-session=false'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const base = `${https ? 'https' : 'http'}://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited:\n${output}`);
    try {
      const res = await devFetch(`${base}/api/openapi.json`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`wrangler dev did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  return {
    base,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.pid) {
        process.kill(-child.pid, 'SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      if (!keepState) rmSync(state, { recursive: true, force: true });
    },
  };
}
