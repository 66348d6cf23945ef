// A plain deploy is production (issue 21 › 1, decisions.md › Production safety): the Worker booted with
// wrangler.toml's own vars — no .dev.vars, no --var — hides the development routes and error details.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchWranglerDev, type LaunchedServer } from './wrangler-dev';

const PORT = Number(process.env.E2E_PRODUCTION_PORT ?? 8798);

describe("wrangler.toml's own vars", () => {
  let server: LaunchedServer;

  beforeAll(async () => {
    // `--env-file` with an empty file makes wrangler skip .dev.vars (a developer's machine has one that
    // opts into development), so only wrangler.toml's [vars] apply. The state directory is fresh and
    // unmigrated: D1 has no tables, so a request that reaches a query fails for real.
    const state = mkdtempSync(join(tmpdir(), 'signing-production-'));
    const envFile = join(state, 'empty.env');
    writeFileSync(envFile, '');
    server = await launchWranglerDev(PORT, state, ['--env-file', envFile]);
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('answers 404 on the development outbox', async () => {
    const res = await fetch(`${server.base}/dev/outbox`);
    expect(res.status).toBe(404);
  });

  it('answers 404 on the development event forge', async () => {
    const res = await fetch(`${server.base}/dev/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(404);
  });

  it('answers a 500 with a reference and no detail', async () => {
    // A well-formed token reaches the token query, which fails on the unmigrated database.
    const res = await fetch(`${server.base}/api/user`, { headers: { 'X-Auth-Token': `tok_${'A'.repeat(40)}` } });
    expect(res.status).toBe(500);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.error).toBe('Internal server error.');
    expect(body.reference).toEqual(expect.any(String));
    expect(body).not.toHaveProperty('detail');
    expect(JSON.stringify(body)).not.toMatch(/no such table/i);
  });
});
