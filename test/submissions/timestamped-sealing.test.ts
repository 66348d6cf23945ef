// The sealing job with time-stamping authorities (decisions.md › Signature levels): with TSA_URLS every
// seal is timestamped, a TSA failure leaves the submission unsealed for the queue to retry, and
// production without TSA_URLS does not seal at all.
import { createExecutionContext, createMessageBatch, env, getQueueResult, waitOnExecutionContext } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import worker from '../../src/index';
import { shardScope, type ShardScope } from '../../src/db/shards';
import type { ShardStamp } from '../../src/lib/shard-queues';
import { sealSubmission } from '../../src/services/sealing/seal-submission';
import { SealingProblem } from '../../src/services/sealing/sealing-status';
import type { SealingQueueBody } from '../../src/env';
import { api, createAccount, shardOf, type TestAccount } from '../helpers';
import { checkPdf } from '../pdf-tools';
import { signatureTimestampOf, signaturesIn, verifyTimestampToken } from '../signature-contents';
import { completeValues, createTemplate, shardNumberOf, type TemplateFixture } from '../submission-fixtures';

const TSA_UP = `${env.TEST_TSA_URL}/tsa`;
const TSA_DOWN = `${env.TEST_TSA_URL}/tsa/unavailable`;

let owner: TestAccount;
let template: TemplateFixture;
let scope: ShardScope;
let shard: D1Database;

beforeAll(async () => {
  owner = await createAccount({ name: 'Timestamp Co' });
  scope = shardScope(env, await shardNumberOf(owner.accountId));
  shard = await shardOf(owner.accountId);
  template = await createTemplate(owner.token, ['Buyer']);
});

async function completedSubmission(): Promise<number> {
  const res = await api('POST', '/api/submissions', {
    token: owner.token,
    body: {
      template_id: template.id,
      submitters: [
        { role: 'Buyer', email: `buyer-${crypto.randomUUID().slice(0, 8)}@example.com`, values: completeValues('Buyer'), completed: true },
      ],
    },
  });
  expect(res.status).toBe(201);
  const submitter = res.json.submitters[0];
  if (submitter.status !== 'completed') {
    expect((await api('PUT', `/api/submitters/${submitter.id}`, { token: owner.token, body: { completed: true } })).status).toBe(200);
  }
  return res.json.id;
}

const withTsa = (urls: string | undefined, environment = 'test') => ({
  ...scope,
  env: { ...scope.env, TSA_URLS: urls, ENVIRONMENT: environment },
});

async function sealedFile(submissionId: number): Promise<Uint8Array> {
  const row = await shard
    .prepare('SELECT r2_key FROM submission_documents WHERE submission_id = ?')
    .bind(submissionId)
    .first<{ r2_key: string }>();
  return new Uint8Array(await (await env.FILES.get(row!.r2_key))!.arrayBuffer());
}

const sealedAt = async (id: number) =>
  (await shard.prepare('SELECT sealed_at FROM submissions WHERE id = ?').bind(id).first<{ sealed_at: string | null }>())!.sealed_at;

describe('sealing with TSA_URLS', () => {
  it('seals with a signature-timestamp openssl verifies, and says B-LTA on the audit page', async () => {
    const id = await completedSubmission();
    const s = withTsa(TSA_UP);
    expect(await sealSubmission(s.env, s, id)).toBe('sealed');
    const bytes = await sealedFile(id);
    const { pdfsig, text } = await checkPdf(bytes);
    expect(pdfsig.output).toContain('Signature is Valid.');
    expect(text.output).toContain('PAdES B-LTA');
    const stamp = (await signatureTimestampOf(signaturesIn(bytes)[0].contents))!;
    expect((await verifyTimestampToken(env.TEST_TSA_URL, stamp.token, stamp.digestHex)).output).toContain('Verification: OK');
  });

  it('leaves the submission unsealed, with no document recorded, while the TSA is down, and seals it once the TSA is back', async () => {
    const id = await completedSubmission();
    const down = withTsa(TSA_DOWN);
    await expect(sealSubmission(down.env, down, id)).rejects.toThrow(/could not be timestamped, so the document was not sealed yet/);
    expect(await sealedAt(id)).toBeNull();
    const none = await shard
      .prepare('SELECT COUNT(*) AS n FROM submission_documents WHERE submission_id = ?')
      .bind(id)
      .first<{ n: number }>();
    expect(none!.n).toBe(0);

    const up = withTsa(TSA_UP);
    expect(await sealSubmission(up.env, up, id)).toBe('sealed');
    expect(await sealedAt(id)).not.toBeNull();
    expect(await signatureTimestampOf(signaturesIn(await sealedFile(id))[0].contents)).not.toBeNull();
  });

  it('has the queue retry the message while the TSA is down', async () => {
    const id = await completedSubmission();
    const batch = createMessageBatch<SealingQueueBody & ShardStamp>('signing-service-sealing', [
      { id: `tsa-down-${id}`, timestamp: new Date(), attempts: 1, body: { type: 'seal', submissionId: id, shard: scope.shard } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, { ...env, TSA_URLS: TSA_DOWN }, ctx);
    const result = await getQueueResult(batch, ctx);
    expect(result.retryMessages).toHaveLength(1);
    expect(await sealedAt(id)).toBeNull();
  });

  it('refuses to seal in production without TSA_URLS, with a reason the tenant can read', async () => {
    const id = await completedSubmission();
    const production = withTsa(undefined, 'production');
    const attempt = sealSubmission(production.env, production, id);
    await expect(attempt).rejects.toThrow(SealingProblem);
    await expect(attempt).rejects.toThrow(/no time-stamping authority configured \(TSA_URLS\)/);
    expect(await sealedAt(id)).toBeNull();
  });

  it('seals at B-B, saying so on the audit page, outside production without TSA_URLS', async () => {
    const id = await completedSubmission();
    const development = withTsa(undefined, 'development');
    expect(await sealSubmission(development.env, development, id)).toBe('sealed');
    const bytes = await sealedFile(id);
    expect(await signatureTimestampOf(signaturesIn(bytes)[0].contents)).toBeNull();
    expect((await checkPdf(bytes)).text.output).toContain('PAdES B-B');
  });
});

/** GET …/documents/combined through the Worker with TSA_URLS set as given. */
async function combinedWith(urls: string, id: number) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`https://api.test/api/submissions/${id}/documents/combined`, { headers: { 'X-Auth-Token': owner.token } }),
    { ...env, TSA_URLS: urls },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}

describe('the combined download with TSA_URLS', () => {
  it('is sealed at B-LTA: a timestamped seal and a document timestamp', async () => {
    const id = await completedSubmission();
    const s = withTsa(TSA_UP);
    await sealSubmission(s.env, s, id);
    const res = await combinedWith(TSA_UP, id);
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const signatures = signaturesIn(bytes);
    expect(signatures.map((x) => x.subFilter)).toEqual(['ETSI.CAdES.detached', 'ETSI.RFC3161']);
    expect(await signatureTimestampOf(signatures[0].contents)).not.toBeNull();
    expect((await checkPdf(bytes)).pdfsig.output).toContain('Signature is Valid.');
  });

  it('answers 502 with a readable sentence, and stores nothing, while the TSA is down', async () => {
    const id = await completedSubmission();
    const s = withTsa(TSA_UP);
    await sealSubmission(s.env, s, id);
    const res = await combinedWith(TSA_DOWN, id);
    expect(res.status).toBe(502);
    expect(((await res.json()) as { error: string }).error).toMatch(
      /^The combined document could not be timestamped just now; try again in a minute\./,
    );
    expect(await env.FILES.head(`sealed/${owner.accountId}/${id}/combined.pdf`)).toBeNull();
  });
});
