// What the wrangler-based benchmarks share: free ports, local D1 set up as `npm run setup` does it
// (scripts/setup.mjs: the control database and every shard), SQL on one of them, waiting for a server.
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');
export const benchEnv = { ...process.env, WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' };

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
  return execFileSync('npx', ['wrangler', 'd1', 'execute', database, ...configArgs, '--local', '--persist-to', persist, '--json', '--command', sql], {
    cwd: root,
    env: benchEnv,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
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
  const configArgs = config ? ['--config', config] : [];
  const out = execFileSync(process.execPath, ['scripts/setup.mjs', '--json', ...configArgs, '--persist-to', persist], { cwd: root, env: benchEnv, encoding: 'utf8' });
  const setup = JSON.parse(out.trim().split('\n').pop());
  d1(persist, `UPDATE accounts SET plan = 'enterprise' WHERE id = ${setup.account_id}`, { database: 'CONTROL_DB', config });
  return setup.token;
}
