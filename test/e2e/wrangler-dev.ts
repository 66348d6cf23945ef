// Starts `wrangler dev` on a spare port with its own local state directory, seeds an account with a
// full-access token through `wrangler d1 execute`, and stops it afterwards.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const wranglerBin = join(root, 'node_modules', '.bin', 'wrangler');
const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true', NO_COLOR: '1' };

export type DevServer = { base: string; token: string; accountId: number; output(): string; stop(): Promise<void> };

function run(args: string[]): string {
  const result = spawnSync(wranglerBin, args, { cwd: root, encoding: 'utf8', env });
  if (result.status !== 0) throw new Error(`wrangler ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

export async function startDevServer(port: number): Promise<DevServer> {
  // The signing page's script and pdf.js must be in public/vendor (postinstall does this too).
  const vendor = spawnSync(process.execPath, [join(root, 'scripts', 'vendor-assets.mjs')], { cwd: root, encoding: 'utf8' });
  if (vendor.status !== 0) throw new Error(`vendor-assets failed: ${vendor.stderr}`);
  const state = mkdtempSync(join(tmpdir(), 'signing-e2e-'));
  run(['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', state]);
  // The app's token format (`tok_` + 40 base62; hex is within it): other shapes are refused unread.
  const token = `tok_${randomBytes(20).toString('hex')}`;
  const hash = createHash('sha256').update(token).digest('hex');
  run([
    'd1', 'execute', 'DB', '--local', '--persist-to', state,
    `--command=INSERT INTO accounts (name, plan) VALUES ('E2E Corp', 'pro');
     INSERT INTO users (account_id, email, name, role) VALUES (last_insert_rowid(), 'admin@e2e.test', 'Admin', 'admin');
     INSERT INTO access_tokens (account_id, user_id, name, token_hash, token_prefix) SELECT account_id, id, 'e2e', '${hash}', '${token.slice(0, 12)}' FROM users WHERE email = 'admin@e2e.test';`,
  ]);
  const sql = (command: string) => JSON.parse(run(['d1', 'execute', 'DB', '--local', '--persist-to', state, '--json', `--command=${command}`]))[0].results;
  const accountId = sql("SELECT id FROM accounts WHERE name = 'E2E Corp'")[0].id as number;

  const child: ChildProcess = spawn(wranglerBin, ['dev', '--port', String(port), '--ip', '127.0.0.1', '--persist-to', state, '--var', 'ENVIRONMENT:development',
    // A key of its own for this run (the sealing job encrypts the account's generated signing key); a
    // clean clone has no .dev.vars.
    '--var', `ENCRYPTION_KEY:${randomBytes(32).toString('base64')}`, '--show-interactive-dev-session=false'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited:\n${output}`);
    try {
      const res = await fetch(`${base}/api/openapi.json`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`wrangler dev did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  return {
    base,
    token,
    accountId,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.pid) {
        process.kill(-child.pid, 'SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      rmSync(state, { recursive: true, force: true });
    },
  };
}
