// Tenant isolation: a second account's token gets 404 on every id-taking route of the first.
// The list of routes comes from the OpenAPI document, so a new route without an entry here fails.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { sealSubmission } from '../../src/services/sealing/seal-submission';
import { addUser, api, createAccount, shardOf, type TestAccount } from '../helpers';
import { makePdf, toBase64 } from '../fixtures/pdfs';
import { receiverHook } from '../webhook-fixtures';
import { scopeOf } from '../shard-fixtures';
import { THUMBNAIL_WIDTH, thumbnailKey } from '../../src/services/templates/thumbnails';
import { docxSourceKey } from '../../src/services/templates/docx-documents';
import { agreementDocx } from '../docx-fixtures';

type Fixture = (owner: TestAccount) => Promise<Record<string, string | number>>;

/** For each templated path: how to make the owner's resource and the values of its parameters. */
const FIXTURES: Record<string, Fixture> = {
  '/users/{id}': async (owner) => ({ id: (await addUser(owner.accountId, 'editor')).userId }),
  '/access_tokens/{id}': async (owner) => ({ id: await ownTokenId(owner) }),
  '/access_tokens/{id}/revoke': async (owner) => ({ id: await ownTokenId(owner) }),
  '/templates/{id}': async (owner) => ({ id: (await ownTemplate(owner)).id }),
  '/templates/{id}/versions': async (owner) => ({ id: (await ownTemplate(owner)).id }),
  '/templates/{id}/documents': async (owner) => ({ id: (await ownTemplate(owner)).id }),
  '/templates/{id}/download': async (owner) => ({ id: (await ownTemplate(owner)).id }),
  '/templates/{id}/clone': async (owner) => ({ id: (await ownTemplate(owner)).id }),
  '/templates/{id}/documents/{document_id}': async (owner) => {
    const template = await ownTemplate(owner);
    return { id: template.id, document_id: template.documents[0].id };
  },
  // A DOCX source stored beside the document beforehand, as a DOCX upload keeps it (no printing needed).
  '/templates/{id}/documents/{document_id}/original': async (owner) => {
    const template = await ownTemplate(owner);
    const shard = await shardOf(owner.accountId);
    const row = await shard
      .prepare('SELECT r2_key FROM template_documents WHERE id = ?')
      .bind(template.documents[0].id)
      .first<{ r2_key: string }>();
    await env.FILES.put(docxSourceKey(row!.r2_key), agreementDocx);
    return { id: template.id, document_id: template.documents[0].id };
  },
  // The first page's thumbnail stored beforehand, so the owner's GET serves it without drawing.
  '/templates/{id}/documents/thumbnail': async (owner) => ({ id: (await ownTemplateWithThumbnail(owner)).id }),
  '/templates/{id}/documents/generate_thumbnail': async (owner) => ({ id: (await ownTemplate(owner)).id }),
  '/templates/{id}/ai/detect': async (owner) => ({ id: (await ownTemplate(owner)).id }),
  '/templates/{id}/ai/status': async (owner) => ({ id: (await ownTemplate(owner)).id }),
  '/webhooks/{id}': async (owner) => ({ id: (await receiverHook(owner.token)).hook.id }),
  '/webhooks/{id}/deliveries': async (owner) => ({ id: (await receiverHook(owner.token)).hook.id }),
  '/webhooks/{id}/test': async (owner) => ({ id: (await receiverHook(owner.token)).hook.id }),
  '/webhooks/{id}/deliveries/{delivery_id}': ownDelivery,
  '/webhooks/{id}/deliveries/{delivery_id}/redeliver': ownDelivery,
  '/templates/{id}/submissions': async (owner) => ({ id: (await ownTemplate(owner)).id }),
  '/submissions/{id}': async (owner) => ({ id: (await ownSubmission(owner)).id }),
  '/submissions/{id}/send': async (owner) => ({ id: (await ownSubmission(owner, true)).id }),
  '/submissions/{id}/archive': async (owner) => ({ id: (await ownSubmission(owner)).id }),
  '/submissions/{id}/documents': async (owner) => ({ id: (await ownSealedSubmission(owner)).id }),
  '/submissions/{id}/documents/{document_id}': async (owner) => {
    const { id } = await ownSealedSubmission(owner);
    const list = await api('GET', `/api/submissions/${id}/documents`, { token: owner.token });
    return { id, document_id: list.json.documents[0].id };
  },
  '/submissions/{id}/documents/{document_id}/link': async (owner) => {
    const { id } = await ownSealedSubmission(owner);
    const list = await api('GET', `/api/submissions/${id}/documents`, { token: owner.token });
    return { id, document_id: list.json.documents[0].id };
  },
  '/submissions/{id}/documents/reseal': async (owner) => ({ id: (await ownSealedSubmission(owner)).id }),
  '/submissions/{id}/legal_hold': async (owner) => ({ id: (await ownSubmission(owner)).id }),
  '/templates/{id}/bulk_send': async (owner) => ({ id: (await ownTemplate(owner)).id }),
  '/bulk_sends/{id}': async (owner) => ({ id: await ownBulkSend(owner) }),
  '/bulk_sends/{id}/rows': async (owner) => ({ id: await ownBulkSend(owner) }),
  '/submitters/{id}': async (owner) => ({ id: (await ownSubmission(owner)).submitters[0].id }),
  '/submitters/{id}/remind': async (owner) => ({ id: (await ownSubmission(owner)).submitters[0].id }),
  '/settings/saved_fields/{id}': async (owner) => {
    const res = await api('POST', '/api/settings/saved_fields', { token: owner.token, body: { name: 'Colour', field: { type: 'text' } } });
    return { id: res.json.id };
  },
  '/brands/{id}': async (owner) => {
    const res = await api('POST', '/api/brands', { token: owner.token, body: { name: 'Acme', branding: {} } });
    return { id: res.json.brand.id };
  },
  '/custom_domains/{id}': async (owner) => ({ id: await ownDomainId(owner) }),
  '/custom_domains/{id}/verify': async (owner) => ({ id: await ownDomainId(owner) }),
  '/payments/subscriptions/{id}': async (owner) => {
    const settings = await api('PUT', '/api/settings/payments', {
      token: owner.token,
      body: { stripe_secret_key: `sk_test_isolation${owner.accountId}`, stripe_webhook_secret: 'whsec_isolation' },
    });
    if (settings.status !== 200) throw new Error(`payment settings fixture: ${settings.status} ${settings.text}`);
    const { id: submission_id } = await ownSubmission(owner);
    const res = await api('POST', '/api/payments/subscribe', {
      token: owner.token,
      body: { submission_id, price: '9.00', currency: 'EUR', interval: 'month' },
    });
    if (res.status !== 201) throw new Error(`recurring payment fixture: ${res.status} ${res.text}`);
    return { id: res.json.id };
  },
};

async function ownDomainId(owner: TestAccount): Promise<number> {
  const res = await api('POST', '/api/custom_domains', {
    token: owner.token,
    body: { hostname: `sign-${crypto.randomUUID().slice(0, 8)}.isolation.example.com` },
  });
  return res.json.id;
}

/** Bodies that pass validation, so the request reaches the lookup that must answer 404. */
const BODIES: Record<string, unknown> = {
  'PUT /users/{id}': { name: 'Mallory' },
  'PUT /templates/{id}': { name: 'Mallory' },
  'POST /templates/{id}/submissions': { submitters: [{ email: 'mallory@example.com' }] },
  'PUT /submitters/{id}': { name: 'Mallory' },
  'POST /templates/{id}/bulk_send': { rows: [{ email: 'mallory@example.com' }], send_email: false },
};

/** A bulk send of one row (its chunk waits in the messages queue; the bulk send itself is readable). */
async function ownBulkSend(owner: TestAccount): Promise<number> {
  const template = await ownTemplate(owner);
  const res = await api('POST', `/api/templates/${template.id}/bulk_send`, {
    token: owner.token,
    body: { rows: [{ email: 'owner-signer@example.com' }], send_email: false },
  });
  if (res.status !== 202) throw new Error(`bulk send fixture: ${res.status} ${res.text}`);
  return res.json.id;
}

async function ownSubmission(owner: TestAccount, draft = false): Promise<{ id: number; submitters: { id: number }[] }> {
  const template = await ownTemplate(owner);
  const res = await api('POST', '/api/submissions', {
    token: owner.token,
    body: { template_id: template.id, draft, submitters: [{ email: 'owner-signer@example.com' }] },
  });
  if (res.status !== 201) throw new Error(`submission fixture: ${res.status} ${res.text}`);
  return res.json;
}

/** A completed submission whose documents the sealing job has produced. */
async function ownSealedSubmission(owner: TestAccount): Promise<{ id: number }> {
  const submission = await ownSubmission(owner);
  const done = await api('PUT', `/api/submitters/${submission.submitters[0].id}`, { token: owner.token, body: { completed: true } });
  if (done.status !== 200) throw new Error(`completion fixture: ${done.status} ${done.text}`);
  await sealSubmission(env, await scopeOf(owner.accountId), submission.id);
  return submission;
}

/** A logged delivery of the owner's endpoint (a test send is logged like any other). */
async function ownDelivery(owner: TestAccount) {
  const { hook } = await receiverHook(owner.token);
  const sent = await api('POST', `/api/webhooks/${hook.id}/test`, { token: owner.token, body: { event: 'form.completed' } });
  return { id: hook.id, delivery_id: sent.json.delivery_id };
}

async function ownTemplate(owner: TestAccount): Promise<{ id: string; documents: { id: number }[] }> {
  const res = await api('POST', '/api/templates/pdf', {
    token: owner.token,
    body: { name: 'Owned', documents: [{ name: 'doc', file: toBase64(await makePdf()) }] },
  });
  return res.json;
}

async function ownTemplateWithThumbnail(owner: TestAccount): Promise<{ id: string }> {
  const template = await ownTemplate(owner);
  const shard = await shardOf(owner.accountId);
  const row = await shard
    .prepare('SELECT r2_key FROM template_documents WHERE id = ?')
    .bind(template.documents[0].id)
    .first<{ r2_key: string }>();
  await env.FILES.put(thumbnailKey(row!.r2_key, THUMBNAIL_WIDTH.default, 1), new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
  return template;
}

async function ownTokenId(owner: TestAccount): Promise<number> {
  const res = await api('GET', '/api/access_tokens', { token: owner.token });
  return res.json.data[0].id;
}

describe('tenant isolation', async () => {
  const doc = (await api('GET', '/api/openapi.json')).json as { paths: Record<string, Record<string, unknown>> };
  const operations = Object.entries(doc.paths)
    // Signing page routes (/s/{slug}) belong to no account: the slug is the credential (test/signing).
    // Public document links (/l/{token}) likewise: the token is (test/api/document-links-download.test.ts).
    // The per-account Stripe webhook takes no tenant credential: Stripe's signature with that account's
    // secret is (test/payments/payment-settings.test.ts).
    // The SMS provider's status callbacks take no API token either, only the provider's signature over the
    // URL (another account's path is a different URL): test/signing/phone-verification.test.ts.
    // The embed routes take only an embed JWT, never an API token: another account's id is 404 there by
    // test/embed/embed-routes.test.ts, with a token of the other account.
    .filter(
      ([path]) =>
        path.includes('{') &&
        !path.startsWith('/s/') &&
        !path.startsWith('/l/') &&
        !path.startsWith('/payments/webhook/') &&
        !path.startsWith('/sms/status/') &&
        !path.startsWith('/embed/'),
    )
    .flatMap(([path, ops]) => Object.keys(ops).map((method) => ({ method: method.toUpperCase(), path })));

  it('has a fixture for every id-taking route', () => {
    const missing = operations.map((op) => op.path).filter((path) => !FIXTURES[path]);
    expect(missing).toEqual([]);
  });

  for (const { method, path } of operations) {
    it(`answers 404 to another account on ${method} ${path}`, async () => {
      const owner = await createAccount();
      const intruder = await createAccount();
      const params = await FIXTURES[path](owner);
      const url = `/api${path.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name]))}`;
      const body = BODIES[`${method} ${path}`] ?? (method === 'GET' || method === 'DELETE' ? undefined : {});
      const res = await api(method, url, { token: intruder.token, body });
      expect(res.status).toBe(404);
      // The owner still sees it: the 404 is isolation, not a missing fixture.
      if (method === 'GET') expect((await api(method, url, { token: owner.token })).status).toBe(200);
    });
  }
});
