// What the wrangler-based benchmarks share: free ports, a local D1 they can seed, waiting for a server.
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
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

/** Runs SQL against the local D1 kept in `persist` (wrangler d1 execute --local); returns its JSON output. */
export function d1(persist, sql) {
  return execFileSync('npx', ['wrangler', 'd1', 'execute', 'DB', '--local', '--persist-to', persist, '--json', '--command', sql], {
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
 * Applies the migrations to the local D1 in `persist` and creates account 1 (`enterprise`, so no plan
 * limit interferes) with an admin and a full-access API token; returns the token.
 */
export function seedBenchAccount(persist) {
  execFileSync('npx', ['wrangler', 'd1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persist], { cwd: root, env: benchEnv, stdio: 'ignore' });
  const token = `tok_${randomBytes(20).toString('hex')}`; // the app's format: tok_ + 40 base62
  const hash = createHash('sha256').update(token).digest('hex');
  d1(persist, "INSERT INTO accounts (name, plan) VALUES ('Bench', 'enterprise')");
  d1(persist, "INSERT INTO users (account_id, email, name, role) VALUES (1, 'bench@example.com', 'Bench', 'admin')");
  d1(persist, `INSERT INTO access_tokens (account_id, user_id, name, token_hash, token_prefix) VALUES (1, 1, 'bench', '${hash}', '${token.slice(0, 12)}')`);
  return token;
}
