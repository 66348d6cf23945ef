// Adding a shard (issue 14 › 4, docs/scaling.md › Adding a shard), the documented procedure run for
// real: a deployment with two shards holding accounts gets SHARD_2 in its config, `setup.mjs` (what
// `npm run setup` and, remotely, `npm run db:migrate` run) migrates it and gives it its id block, the
// server restarts with the new config, and the next account lands on the new, empty shard and works.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { copySetup, launchWranglerDev, setUpLocal, sqlOn, type LaunchedServer, type LocalSetup } from './wrangler-dev';
import { apiOf, fetchRetried, letterPdfBase64, preparedSetup } from './e2e-kit';

const PORT = Number(process.env.E2E_SHARD_PORT ?? 8797);
const ID_BLOCK_SIZE = 2 ** 32;

describe('adding a shard', () => {
  let dir = '';
  let setup: LocalSetup;
  let server: LaunchedServer | undefined;
  let before: { id: number; token: string }[];
  let added: { id: number; token: string };

  const api = apiOf(() => server!);
  // No keep-alive: wrangler closes idle connections, and the server restarts on the same port.
  const call = (method: string, path: string, auth: string, body?: unknown) =>
    api.call(method, path, body, { Authorization: `Bearer ${auth}`, Connection: 'close' });

  /** A new account through the partner control plane, with a full-access token for its admin. */
  async function newAccount(name: string) {
    const account = await call('POST', '/api/partner/v1/accounts', setup.partnerKey, { name, plan: 'pro' });
    if (account.status !== 201) throw new Error(`POST /accounts: ${account.status} ${account.text}`);
    const minted = await call('POST', `/api/partner/v1/accounts/${account.json.id}/access_tokens`, setup.partnerKey, {
      email: `admin@${name.toLowerCase()}.test`,
    });
    if (minted.status !== 201) throw new Error(`POST /access_tokens: ${minted.status} ${minted.text}`);
    return { id: account.json.id as number, token: minted.json.token as string };
  }

  const shardOf = (accountId: number) => sqlOn(setup, 'CONTROL_DB', `SELECT shard FROM accounts WHERE id = ${accountId}`)[0].shard;

  beforeAll(async () => {
    // Two shards in use: the dev account and two partner accounts spread over them. The deployment of
    // two shards is the run's setup, copied (what setup.mjs makes of a fresh directory); the procedure
    // below runs setup.mjs itself.
    setup = copySetup(await preparedSetup(), `http://127.0.0.1:${PORT}`);
    dir = setup.dir;
    server = await launchWranglerDev(PORT, dir, ['--config', setup.config], { keepState: true });
    before = [await newAccount('Early'), await newAccount('Second')];
    await server.stop();
    // The procedure: declare SHARD_2, apply migrations and the id block, restart with the new config.
    setup = await setUpLocal(dir, 3);
    server = await launchWranglerDev(PORT, dir, ['--config', setup.config], { keepState: true });
    added = await newAccount('Added');
  });

  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('places the accounts created before on the first two shards', () => {
    expect(new Set([setup.accountId, ...before.map((a) => a.id)].map(shardOf))).toEqual(new Set([0, 1]));
  });

  it('places the next account on the added shard, the least loaded one', () => {
    expect(shardOf(added.id)).toBe(2);
  });

  it("completes the new account's submission end to end, with its rows on the added shard in its id block", async () => {
    const template = await call('POST', '/api/templates/pdf', added.token, {
      name: 'Contract',
      documents: [{ name: 'contract', file: await letterPdfBase64() }],
      fields: [{ name: 'Name', type: 'text', areas: [{ page: 1, x: 0.1, y: 0.1, w: 0.3, h: 0.05 }] }],
    });
    expect(template.status).toBe(201);
    const created = await call('POST', '/api/submissions', added.token, {
      template_id: template.json.id,
      submitters: [{ email: 'signer@added.test', name: 'Signer', values: { Name: 'Signer' } }],
    });
    expect(created.status).toBe(201);
    const submission = created.json;
    expect(submission.id).toBeGreaterThanOrEqual(2 * ID_BLOCK_SIZE);
    expect(submission.id).toBeLessThan(3 * ID_BLOCK_SIZE);
    // The signing link resolves to the added shard from the slug alone.
    const page = await fetchRetried(submission.submitters[0].signing_url.replace(/^https?:\/\/[^/]+/, server!.base), {
      headers: { Connection: 'close' },
    });
    expect(page.status).toBe(200);
    const done = await call('PUT', `/api/submitters/${submission.submitters[0].id}`, added.token, { completed: true });
    expect(done.status).toBe(200);
    expect((await call('GET', `/api/submissions/${submission.id}`, added.token)).json.status).toBe('completed');
    expect(sqlOn(setup, 'SHARD_2', `SELECT status FROM submissions WHERE id = ${submission.id}`)).toEqual([{ status: 'completed' }]);
    for (const shard of ['SHARD_0', 'SHARD_1']) {
      expect(sqlOn(setup, shard, `SELECT count(*) AS n FROM submissions WHERE account_id = ${added.id}`)).toEqual([{ n: 0 }]);
    }
  });

  it('keeps serving the accounts placed before the shard was added', async () => {
    for (const account of before) {
      const templates = await call('GET', '/api/templates', account.token);
      expect(templates.status).toBe(200);
    }
  });
});
