// Sealing never fails forever on one value (issue 21, point 3): a picture that cannot be drawn — stored
// before values were checked, or damaged — is drawn as a visible placeholder and noted in the audit
// trail, and the document is sealed with a valid signature all the same.
import { createExecutionContext, createMessageBatch, env, getQueueResult, SELF } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import worker from '../../src/index';
import type { SealingQueueBody } from '../../src/env';
import type { ShardStamp } from '../../src/lib/shard-queues';
import { api, createAccount, shardOf, type TestAccount } from '../helpers';
import { checkPdf } from '../pdf-tools';
import { completeValues, createTemplate, shardNumberOf, type TemplateFixture } from '../submission-fixtures';
import { page } from '../signing/fixtures';
import { CATALOGS, translatorFor } from '../../src/lib/i18n/catalogs';
import type { Locale } from '../../src/shared/i18n/locales';
import type { SubmissionEvent } from '../../src/db/schema/index';
import { auditTrailFor } from '../../src/services/sealing/audit-trail';
import type { SubmissionScope } from '../../src/services/submissions/submission-scope';

let owner: TestAccount;
let template: TemplateFixture;

beforeAll(async () => {
  owner = await createAccount({ name: 'Placeholder Co' });
  template = await createTemplate(owner.token, ['Buyer']);
});

/** A PNG header claiming `width`×`height`, with a token of pixel data (by default a damaged zlib stream). */
function pngClaiming(width: number, height: number, pixels = [0x78, 0x9c, 0xff, 0xff, 0xff, 0xff]): string {
  const be32 = (n: number) => [24, 16, 8, 0].map((s) => (n >>> s) & 0xff);
  const chunk = (type: string, data: number[]) => [...be32(data.length), ...[...type].map((c) => c.charCodeAt(0)), ...data, 0, 0, 0, 0];
  const bytes = [
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    ...chunk('IHDR', [...be32(width), ...be32(height), 8, 6, 0, 0, 0]),
    ...chunk('IDAT', pixels),
    ...chunk('IEND', []),
  ];
  return `data:image/png;base64,${btoa(String.fromCharCode(...bytes))}`;
}

/**
 * A completed one-signer submission whose stored signature is `signature`, written straight into D1
 * the way values stored before the checks existed are; completion reads stored values as they are.
 */
async function completedWithStoredSignature(signature: string, language?: Locale): Promise<number> {
  const res = await api('POST', '/api/submissions', {
    token: owner.token,
    body: {
      template_id: template.id,
      submitters: [
        { role: 'Buyer', email: `buyer-${crypto.randomUUID().slice(0, 8)}@example.com`, name: 'Bo Buyer', values: completeValues('Buyer') },
      ],
    },
  });
  expect(res.status).toBe(201);
  const submitter = res.json.submitters[0];
  // The signer reads the page in `language`: the audit page speaks the language their disclosure was shown in.
  if (language) {
    const body = { version: CATALOGS[language]['disclosure.version'], language };
    expect((await page('POST', `/s/${submitter.slug}/consent`, { body })).status).toBe(200);
  }
  const signatureUuid = template.fields.find((f) => f.name === 'Buyer Signature')!.uuid;
  await (await shardOf(owner.accountId))
    .prepare('UPDATE submitters SET "values" = json_set("values", \'$.\' || ?, ?) WHERE id = ?')
    .bind(signatureUuid, signature, submitter.id)
    .run();
  expect((await api('PUT', `/api/submitters/${submitter.id}`, { token: owner.token, body: { completed: true } })).status).toBe(200);
  return res.json.id;
}

let counter = 0;
async function runSealingQueue(submissionId: number) {
  const shard = await shardNumberOf(owner.accountId);
  const batch = createMessageBatch<SealingQueueBody & ShardStamp>('signing-service-sealing', [
    { id: `undrawable-${++counter}`, timestamp: new Date(), attempts: 1, body: { type: 'seal', submissionId, shard } },
  ]);
  const ctx = createExecutionContext();
  await worker.queue(batch, env, ctx);
  return getQueueResult(batch, ctx);
}

async function sealedPdf(submissionId: number): Promise<Uint8Array> {
  const list = await api('GET', `/api/submissions/${submissionId}/documents`, { token: owner.token });
  expect(list.json.sealed).toBe(true);
  const res = await SELF.fetch(`https://api.test/api/submissions/${submissionId}/documents/${list.json.documents[0].id}`, {
    headers: { 'X-Auth-Token': owner.token },
  });
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

describe('values that cannot be drawn', () => {
  it('seals a submission whose signature is data:image/png;base64,AAAA, with a boxed placeholder and a valid signature', async () => {
    const id = await completedWithStoredSignature('data:image/png;base64,AAAA');
    const result = await runSealingQueue(id);
    expect(result.retryMessages).toHaveLength(0);
    const { pdfsig, text } = await checkPdf(await sealedPdf(id));
    expect(pdfsig.output).toContain('Signature is Valid.');
    expect(pdfsig.output).toContain('Total document signed');
    expect(text.output).toContain('[image could not be drawn]');
  });

  it("notes the placeholder in the submission's trail and on the audit page", async () => {
    const id = await completedWithStoredSignature('data:image/png;base64,AAAA');
    await runSealingQueue(id);
    const row = await (await shardOf(owner.accountId))
      .prepare("SELECT data FROM submission_events WHERE submission_id = ? AND action = 'value_not_drawn'")
      .bind(id)
      .first<{ data: string }>();
    expect(JSON.parse(row!.data)).toMatchObject({ field: 'Buyer Signature', page: 1, reason: 'not a readable PNG or JPEG image' });
    const { text } = await checkPdf(await sealedPdf(id));
    // The audit page wraps long lines: the entry's start and its detail's start are on one line each.
    expect(text.output).toContain('value not drawn · Sealing');
    expect(text.output).toContain('Field "Buyer Signature" on page 1');
  });

  it('gives the reason on the audit page in the page’s language, keeping the English one in the trail', async () => {
    const id = await completedWithStoredSignature('data:image/png;base64,AAAA', 'de');
    await runSealingQueue(id);
    const row = await (await shardOf(owner.accountId))
      .prepare("SELECT data FROM submission_events WHERE submission_id = ? AND action = 'value_not_drawn'")
      .bind(id)
      .first<{ data: string }>();
    expect(JSON.parse(row!.data)).toMatchObject({ reason: 'not a readable PNG or JPEG image', why: { key: 'audit.undrawn.unreadable' } });
    const { text } = await checkPdf(await sealedPdf(id));
    // pdftotext wraps long lines (dropping a hyphen at a line's end): compared without white space and hyphens.
    const flat = text.output.replace(/[\s-]+/g, '');
    const t = translatorFor('de');
    expect(flat).toContain(
      t('audit.detail.placeholder_drawn', { field: 'Buyer Signature', page: '1', reason: t('audit.undrawn.unreadable') }).replace(
        /[\s-]+/g,
        '',
      ),
    );
    expect(flat).toContain('keinlesbaresPNGoderJPEGBild');
    expect(flat).not.toContain('notareadablePNG');
    // The placeholder drawn at the field and on the audit page is in the signer's language too.
    expect(flat).toContain(t('audit.undrawn.placeholder').replace(/[\s-]+/g, ''));
    expect(flat).toContain('[Bildkonntenichtgezeichnetwerden]');
    expect(flat).not.toContain('[imagecouldnotbedrawn]');
  });

  it('gives an oversized image’s reason in Japanese, its limits written as Japanese writes numbers', async () => {
    const id = await completedWithStoredSignature(pngClaiming(40_000, 40_000), 'ja');
    await runSealingQueue(id);
    const { text } = await checkPdf(await sealedPdf(id));
    const flat = text.output.replace(/[\s-]+/g, '');
    const reason = translatorFor('ja')('audit.undrawn.too_large', { width: '40000', height: '40000', side: 4096, pixels: 2048 * 2048 });
    expect(flat).toContain(reason.replace(/[\s-]+/g, ''));
    expect(flat).toContain('4,194,304');
  });

  it('draws a placeholder for a signature that is not even base64', async () => {
    const id = await completedWithStoredSignature('data:image/png;base64,AAAAA');
    const result = await runSealingQueue(id);
    expect(result.retryMessages).toHaveLength(0);
    const { pdfsig, text } = await checkPdf(await sealedPdf(id));
    expect(pdfsig.output).toContain('Signature is Valid.');
    expect(text.output).toContain('[image could not be drawn]');
  });

  it('draws a placeholder instead of decoding a PNG whose header claims 40000×40000 pixels', async () => {
    const id = await completedWithStoredSignature(pngClaiming(40_000, 40_000));
    const result = await runSealingQueue(id);
    expect(result.retryMessages).toHaveLength(0);
    const { pdfsig, text } = await checkPdf(await sealedPdf(id));
    expect(pdfsig.output).toContain('Signature is Valid.');
    expect(text.output).toContain('[image could not be drawn]');
    expect(text.output).toContain('40000×40000 pixels');
  });

  it('draws a placeholder for a PNG whose header is sound but whose pixel data is damaged', async () => {
    const id = await completedWithStoredSignature(pngClaiming(64, 64));
    const result = await runSealingQueue(id);
    expect(result.retryMessages).toHaveLength(0);
    const { pdfsig, text } = await checkPdf(await sealedPdf(id));
    expect(pdfsig.output).toContain('Signature is Valid.');
    expect(text.output).toContain('[image could not be drawn]');
    expect(text.output).toContain('the image could not be decoded');
  });
});

describe('a placeholder recorded by an earlier sealing, on a later audit page', () => {
  const event = (id: number, action: string, data: Record<string, unknown>) =>
    ({
      id,
      accountId: 1,
      submissionId: 1,
      submitterId: null,
      action,
      ip: null,
      userAgent: null,
      data,
      createdAt: '2026-11-27T12:00:00.000Z',
    }) as SubmissionEvent;
  const scope = {
    submission: { id: 1, slug: 'abc', completedAt: null },
    submitters: [{ id: 7, email: 'jo@example.com', name: 'Jo', role: 'Buyer', values: {} }],
    template: { name: 'T', fields: [] },
  } as unknown as SubmissionScope;
  const placed = { field: 'Buyer Signature', document: 'a.pdf', page: 1, reason: 'not a readable PNG or JPEG image' };

  it('says its reason in the page’s language; one recorded before the sentence existed keeps its English', () => {
    const trail = auditTrailFor(
      scope,
      [
        { ...event(1, 'disclosure_accepted', { version: 'v1', sha256: 'ab'.repeat(32), language: 'pl' }), submitterId: 7 },
        event(2, 'value_not_drawn', { ...placed, why: { key: 'audit.undrawn.unreadable' } }),
        event(3, 'value_not_drawn', placed),
        event(4, 'value_not_drawn', { ...placed, why: { key: 'signer_error.completed' } }),
      ],
      'b.pdf',
      'Signing',
    );
    const t = translatorFor('pl');
    const detail = (reason: string) =>
      t('audit.detail.value_not_drawn', { field: 'Buyer Signature', document: 'a.pdf', page: '1', reason });
    expect(trail.events.slice(1).map((e) => e.detail)).toEqual([
      detail('to nie jest czytelny obraz PNG ani JPEG'),
      detail('not a readable PNG or JPEG image'),
      detail('not a readable PNG or JPEG image'),
    ]);
  });
});
