// Signing at level qes (issue 18 › 3) through the signing page and the CSC v2 imitation: each signer's
// revision is signed by the provider after they authorize it, and the seal goes on the last revision.
import { env, SELF } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { shardScope } from '../../src/db/shards';
import { sealSubmission } from '../../src/services/sealing/seal-submission';
import { CscClient } from '../../src/services/qes/csc-client';
import { api, createAccount, shardOf, type TestAccount, clientAddress } from '../helpers';
import { answerConsent, imitationCredentials, imitationSwitch } from '../csc-fixtures';
import { checkPdf } from '../pdf-tools';
import { dssFingerprints, pdfsigBlocks, sha256Hex, signatureTimestampOf, signaturesIn, verifyTimestampToken } from '../signature-contents';
import { createDb } from '../../src/db/client';
import { getAccount } from '../../src/db/queries/accounts';
import { beginQesSigning, finishQesSigning } from '../../src/services/sealing/qes-signing-flow';
import { signatureKey } from '../../src/services/sealing/qes-revisions';
import { loadSigning } from '../../src/services/signing/signing-session';
import { acceptDisclosure, page } from '../signing/fixtures';
import { createTemplate, shardNumberOf, type TemplateFixture } from '../submission-fixtures';
import { makePdf, toBase64 } from '../fixtures/pdfs';
import { CATALOGS, translatorFor } from '../../src/lib/i18n/catalogs';
import type { Locale } from '../../src/shared/i18n/locales';
import { inspectSignatures } from '../../src/services/pdf/verify';

const ROLES = ['Buyer', 'Seller'];
const NAMES: Record<string, string> = { Buyer: 'Ada Buyer', Seller: 'Ben Seller' };
const SIGNER_CN = 'Erika Mustermann (RSA)';

let owner: TestAccount;
let template: TemplateFixture;
let credentials: ReturnType<typeof imitationCredentials>;

beforeAll(async () => {
  owner = await createAccount({ name: 'Qualified Co' });
  credentials = imitationCredentials('cred-rsa');
  const res = await api('PUT', '/api/settings/signature_level', {
    token: owner.token,
    body: {
      level: 'qes',
      provider: 'Imitation Trust',
      qes_provider_api_url: credentials.apiUrl,
      qes_provider_api_key: credentials.apiKey,
      qes_certificate_id: credentials.certificateId,
    },
  });
  expect(res.status).toBe(200);
  template = await createTemplate(owner.token, ROLES);
});

type Signer = { id: number; slug: string; role: string };

async function qesSubmission(
  order: 'sequential' | 'parallel' = 'sequential',
  on: TemplateFixture = template,
): Promise<{ id: number; signers: Signer[] }> {
  const tag = crypto.randomUUID().slice(0, 8);
  const res = await api('POST', '/api/submissions', {
    token: owner.token,
    body: {
      template_id: on.id,
      submitters_order: order,
      preferences: { signature_level: 'qes' },
      submitters: on.roles.map(({ name: role }) => ({ role, name: NAMES[role], email: `${role.toLowerCase()}-${tag}@example.com` })),
    },
  });
  expect(res.status).toBe(201);
  return { id: res.json.id, signers: res.json.submitters.map((s: Signer) => ({ id: s.id, slug: s.slug, role: s.role })) };
}

/** A GET from the signer's browser, redirects not followed. */
async function browserGet(pathAndQuery: string) {
  const res = await SELF.fetch(`https://api.test${pathAndQuery}`, { redirect: 'manual', headers: { 'CF-Connecting-IP': clientAddress() } });
  return { status: res.status, location: res.headers.get('Location'), text: await res.text() };
}

/** The signer opens the form and accepts the disclosure (in `locale`, the page's language); their values to submit. */
async function fill(signer: Signer, on: TemplateFixture = template, locale: Locale = 'en'): Promise<Record<string, unknown>> {
  expect((await page('POST', `/s/${signer.slug}/open`, { body: {} })).status).toBe(200);
  if (locale === 'en') await acceptDisclosure(signer.slug);
  else {
    const body = { version: CATALOGS[locale]['disclosure.version'], language: locale };
    expect((await page('POST', `/s/${signer.slug}/consent`, { body })).status).toBe(200);
  }
  const uuid = (name: string) => on.fields.find((f) => f.name === `${signer.role} ${name}`)!.uuid;
  return {
    [uuid('Name')]: NAMES[signer.role],
    [uuid('Signature')]: NAMES[signer.role],
    [uuid('Date')]: '2026-11-27',
    [uuid('Agree')]: true,
  };
}

/** The signer fills their form and submits: the answer names the provider's authorization URL. */
async function submit(signer: Signer, on: TemplateFixture = template, locale: Locale = 'en'): Promise<string> {
  const res = await page('POST', `/s/${signer.slug}/submit`, { body: { values: await fill(signer, on, locale) } });
  expect(res.status).toBe(200);
  expect(res.json.authorization_url).toMatch(/\/oauth2\/authorize\?/);
  return res.json.authorization_url;
}

/** The provider's redirect back, taken to the callback as the browser would. */
async function callback(signer: Signer, back: URLSearchParams) {
  return browserGet(`/s/${signer.slug}/qes/callback?${back}`);
}

async function statusOf(signer: Signer): Promise<string> {
  return (await api('GET', `/api/submitters/${signer.id}`, { token: owner.token })).json.status;
}

/** Submit, approve at the provider, come back: the signer is completed. */
async function signThrough(signer: Signer, on: TemplateFixture = template): Promise<void> {
  const url = await submit(signer, on);
  const res = await callback(signer, await answerConsent(url, 'approve'));
  expect(res.status).toBe(303);
  expect(res.location).toBe(`/s/${signer.slug}`);
  expect(await statusOf(signer)).toBe('completed');
}

/** Seals the submission (with the test TSA) and returns its sealed documents in template order. */
async function sealedFiles(submissionId: number): Promise<Uint8Array[]> {
  const shard = await shardOf(owner.accountId);
  const scope = shardScope(env, await shardNumberOf(owner.accountId));
  const withTsa = { ...scope, env: { ...scope.env, TSA_URLS: `${env.TEST_TSA_URL}/tsa` } };
  expect(await sealSubmission(withTsa.env, withTsa, submissionId)).toBe('sealed');
  const { results } = await shard
    .prepare('SELECT r2_key FROM submission_documents WHERE submission_id = ? ORDER BY template_document_id')
    .bind(submissionId)
    .all<{ r2_key: string }>();
  return Promise.all(results.map(async (row) => new Uint8Array(await (await env.FILES.get(row.r2_key))!.arrayBuffer())));
}

const sealedFile = async (submissionId: number) => (await sealedFiles(submissionId))[0];

describe('the reason inside each qes signer’s signature', () => {
  it('is written in the language the signer signed in; the seal’s stays English', async () => {
    const { id, signers } = await qesSubmission();
    const [buyer, seller] = signers;
    expect((await api('PUT', `/api/submitters/${buyer.id}`, { token: owner.token, body: { language: 'de' } })).status).toBe(200);
    const res = await callback(buyer, await answerConsent(await submit(buyer, template, 'de'), 'approve'));
    expect(res.status).toBe(303);
    await signThrough(seller);
    const reasons = (await inspectSignatures(await sealedFile(id)))
      .filter((s) => s.sub_filter === 'ETSI.CAdES.detached')
      .map((s) => s.reason);
    expect(reasons).toHaveLength(3);
    expect(reasons[0]).toMatch(/^Unterschrieben als Buyer im Vorgang \S+ \(qualifizierte elektronische Signatur\)$/);
    expect(reasons[1]).toMatch(/^Signed as Seller of submission \S+ \(qualified electronic signature\)$/);
    expect(reasons[2]).toMatch(/^Completed submission \S+: values and audit trail sealed by /);
  });
});

describe('a qes submission signed in order through the signing page', () => {
  let id: number;
  let signers: Signer[];
  let bytes: Uint8Array;
  beforeAll(async () => {
    ({ id, signers } = await qesSubmission());
    for (const signer of signers) await signThrough(signer);
    bytes = await sealedFile(id);
  });

  it('has both signers signatures by the provider certificate, then the seal and the document timestamp, all valid', async () => {
    const { pdfsig } = await checkPdf(bytes);
    const blocks = pdfsigBlocks(pdfsig.output);
    const cms = blocks.filter((b) => b.includes('ETSI.CAdES.detached'));
    expect(cms).toHaveLength(3);
    for (const block of cms) expect(block).toContain('Signature Validation: Signature is Valid.');
    expect(cms.map((b) => /Signer Certificate Common Name: (.*)/.exec(b)?.[1])).toEqual([
      SIGNER_CN,
      SIGNER_CN,
      `Qualified Co (${env.SERVICE_NAME})`,
    ]);
    // pdfsig cannot verify ETSI.RFC3161; it names the TSA and the whole file covered.
    expect(blocks.at(-1)).toContain('Signer Certificate Common Name: Test TSA');
    expect(blocks.at(-1)).toContain('Total document signed');
    expect(signaturesIn(bytes).map((x) => x.subFilter)).toEqual([
      'ETSI.CAdES.detached',
      'ETSI.CAdES.detached',
      'ETSI.CAdES.detached',
      'ETSI.RFC3161',
    ]);
  });

  it('holds the provider chain and its CAs CRLs in the DSS', async () => {
    const { chain } = await new CscClient(credentials, env).credentialInfo();
    const inDss = await dssFingerprints(bytes);
    for (const der of chain) expect(inDss).toContain(await sha256Hex(der));
    const crls = await dssFingerprints(bytes, 'CRLs');
    for (const ca of ['issuing', 'root']) {
      const crl = new Uint8Array(await (await fetch(`${env.TEST_CSC_URL}/crl/${ca}.crl`)).arrayBuffer());
      expect(crls).toContain(await sha256Hex(crl));
    }
  });

  it('names the provider certificate of each signer on the audit page', async () => {
    const { chain } = await new CscClient(credentials, env).credentialInfo();
    const { text } = await checkPdf(bytes);
    const flat = text.output.replace(/\s+/g, '');
    expect(flat).toContain(await sha256Hex(chain[0]));
    expect(flat.split('QualifiedsignaturethroughImitationTrust').length - 1).toBe(2);
  });

  it('is reported invalid once one byte the first signer signed changes', async () => {
    const text = new TextDecoder('latin1').decode(bytes);
    const at = text.indexOf('(Signed as Buyer');
    const [, , after, length] = signaturesIn(bytes)[0].byteRange;
    expect(at).toBeGreaterThan(after);
    expect(at).toBeLessThan(after + length);
    const tampered = bytes.slice();
    tampered[at + 11] = 0x62; // "Buyer" becomes "buyer"
    const { pdfsig } = await checkPdf(tampered);
    expect(pdfsig.output).not.toContain('Signature is Valid.');
  });

  it('records the qes identity with method csc in signing.complete', async () => {
    const shard = await shardOf(owner.accountId);
    const { results } = await shard
      .prepare("SELECT data FROM events WHERE account_id = ? AND event = 'signing.complete' ORDER BY id")
      .bind(owner.accountId)
      .all<{ data: string }>();
    const mine = results.map((r) => JSON.parse(r.data)).filter((d) => d.submission.id === id);
    expect(mine).toHaveLength(2);
    for (const data of mine) expect(data.identity).toMatchObject({ level: 'qes', provider: 'Imitation Trust', method: 'csc' });
  });
});

describe('a qes signer who does not come back signed', () => {
  it('stays opened after the submit until the callback', async () => {
    const { signers } = await qesSubmission();
    const url = await submit(signers[0]);
    expect(await statusOf(signers[0])).toBe('opened');
    await callback(signers[0], await answerConsent(url, 'approve'));
    expect(await statusOf(signers[0])).toBe('completed');
  });

  it('sees the retry page after declining at the provider, and signs on retry', async () => {
    const { signers } = await qesSubmission();
    const [signer] = signers;
    const refused = await callback(signer, await answerConsent(await submit(signer), 'deny'));
    expect(refused.status).toBe(200);
    expect(refused.text).toContain('id="qes-retry"');
    expect(refused.text).toContain('You cancelled the signature at the qualified signature provider.');
    expect(await statusOf(signer)).toBe('opened');
    const retry = await browserGet(`/s/${signer.slug}/qes/retry`);
    expect(retry.status).toBe(303);
    expect(retry.location).toMatch(/\/oauth2\/authorize\?/);
    expect((await callback(signer, await answerConsent(retry.location!, 'approve'))).status).toBe(303);
    expect(await statusOf(signer)).toBe('completed');
  });

  it('sees the retry page when signHash fails, and signs on retry', async () => {
    const { signers } = await qesSubmission();
    const [signer] = signers;
    const back = await answerConsent(await submit(signer), 'approve');
    await imitationSwitch(credentials.prefix, 'fail-next', {
      method: 'signatures/signHash',
      status: 503,
      error: 'temporarily_unavailable',
    });
    const failed = await callback(signer, back);
    expect(failed.text).toContain('The qualified signature provider is temporarily unavailable.');
    expect(await statusOf(signer)).toBe('opened');
    const retry = await browserGet(`/s/${signer.slug}/qes/retry`);
    expect((await callback(signer, await answerConsent(retry.location!, 'approve'))).status).toBe(303);
    expect(await statusOf(signer)).toBe('completed');
  });

  it('sees the retry page when the provider is down as the code comes back, and signs on retry', async () => {
    const { signers } = await qesSubmission();
    const [signer] = signers;
    const back = await answerConsent(await submit(signer), 'approve');
    await imitationSwitch(credentials.prefix, 'outage', { count: 1 });
    const failed = await callback(signer, back);
    expect(failed.text).toContain('id="qes-retry"');
    expect(await statusOf(signer)).toBe('opened');
    const retry = await browserGet(`/s/${signer.slug}/qes/retry`);
    expect((await callback(signer, await answerConsent(retry.location!, 'approve'))).status).toBe(303);
    expect(await statusOf(signer)).toBe('completed');
  });

  it('is told, with no retry, when the form can no longer be completed by the time they come back', async () => {
    const { signers } = await qesSubmission('parallel');
    const [first, second] = signers;
    const back = await answerConsent(await submit(first), 'approve');
    await fill(second);
    expect((await page('POST', `/s/${second.slug}/decline`, { body: { reason: 'Not this week' } })).status).toBe(200);
    const refused = await callback(first, back);
    expect(refused.text).toContain('id="qes-refused"');
    expect(refused.text).toContain('Another signer declined this form, so it can no longer be completed.');
    expect(await statusOf(first)).toBe('opened');
  });

  it('is told in their own language, on the refused page, that another signer declined', async () => {
    const { signers } = await qesSubmission('parallel');
    const [first, second] = signers;
    expect((await api('PUT', `/api/submitters/${first.id}`, { token: owner.token, body: { language: 'de' } })).status).toBe(200);
    const back = await answerConsent(await submit(first, template, 'de'), 'approve');
    await fill(second);
    expect((await page('POST', `/s/${second.slug}/decline`, { body: { reason: 'Not this week' } })).status).toBe(200);
    const refused = await callback(first, back);
    expect(refused.text).toContain('id="qes-refused"');
    expect(refused.text).toContain('<html lang="de" dir="ltr">');
    expect(refused.text).toContain(translatorFor('de')('signer_error.other_declined'));
    expect(refused.text).toContain('Eine andere unterzeichnende Person hat dieses Formular abgelehnt');
    expect(await statusOf(first)).toBe('opened');
  });

  it('refuses the callback of an older submit once the signer submitted again, and signs with the newer', async () => {
    const { signers } = await qesSubmission();
    const [signer] = signers;
    const older = await answerConsent(await submit(signer), 'approve');
    const newer = await answerConsent(await submit(signer), 'approve');
    expect((await callback(signer, older)).text).toContain('id="qes-retry"');
    expect(await statusOf(signer)).toBe('opened');
    expect((await callback(signer, newer)).status).toBe(303);
    expect(await statusOf(signer)).toBe('completed');
  });

  it('cannot be completed through the API', async () => {
    const { signers } = await qesSubmission();
    const res = await api('PUT', `/api/submitters/${signers[0].id}`, { token: owner.token, body: { completed: true } });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.json.error)).toContain('signature level qes');
    expect(await statusOf(signers[0])).not.toBe('completed');
  });

  it('gets the provider sentence as a 502 when the provider is down at submit, and nothing is completed', async () => {
    const { signers } = await qesSubmission();
    const [signer] = signers;
    const values = await fill(signer);
    await imitationSwitch(credentials.prefix, 'outage', { count: 1 });
    const res = await page('POST', `/s/${signer.slug}/submit`, { body: { values } });
    expect(res.status).toBe(502);
    expect(res.json.error).toContain('temporarily unavailable');
    expect(await statusOf(signer)).toBe('opened');
  });

  it('refuses another signer state and a forged one', async () => {
    const { signers } = await qesSubmission('parallel');
    const [first, second] = signers;
    const theirs = await answerConsent(await submit(second), 'approve');
    await submit(first);
    const other = await callback(first, theirs);
    expect(other.text).toContain('id="qes-retry"');
    const forged = new URLSearchParams(theirs);
    forged.set('state', `${theirs.get('state')!.split('.')[0]}.AAAA`);
    expect((await callback(second, forged)).text).toContain('id="qes-retry"');
    expect(await statusOf(first)).toBe('opened');
    expect(await statusOf(second)).toBe('opened');
  });

  it('lets only one of two parallel signers sign the same revision; the other signs the new one on retry', async () => {
    const { id, signers } = await qesSubmission('parallel');
    const [first, second] = signers;
    const backFirst = await answerConsent(await submit(first), 'approve');
    const backSecond = await answerConsent(await submit(second), 'approve');
    expect((await callback(second, backSecond)).status).toBe(303);
    const lost = await callback(first, backFirst);
    expect(lost.text).toContain('Another signer signed this document');
    expect(await statusOf(first)).toBe('opened');
    const retry = await browserGet(`/s/${first.slug}/qes/retry`);
    expect((await callback(first, await answerConsent(retry.location!, 'approve'))).status).toBe(303);
    const { pdfsig } = await checkPdf(await sealedFile(id));
    const cms = pdfsigBlocks(pdfsig.output).filter((b) => b.includes('ETSI.CAdES.detached'));
    expect(cms).toHaveLength(3);
    for (const block of cms) expect(block).toContain('Signature Validation: Signature is Valid.');
  });
});

describe('a qes signer of a template with two documents', () => {
  it('authorizes one signature per document and gets both signed and sealed', async () => {
    const created = await api('POST', '/api/templates/pdf', {
      token: owner.token,
      body: {
        name: 'Two documents',
        submitters: [{ name: 'Buyer' }],
        documents: [
          { name: 'first.pdf', file: toBase64(await makePdf(1)) },
          { name: 'second.pdf', file: toBase64(await makePdf(2)) },
        ],
      },
    });
    expect(created.status, created.text).toBe(201);
    const area = (y: number, h = 0.04) => [{ attachment_uuid: created.json.documents[0].uuid, page: 1, x: 0.1, y, w: 0.3, h }];
    const updated = await api('PUT', `/api/templates/${created.json.id}`, {
      token: owner.token,
      body: {
        fields: [
          { name: 'Buyer Name', type: 'text', role: 'Buyer', required: true, areas: area(0.1) },
          { name: 'Buyer Signature', type: 'signature', role: 'Buyer', required: true, areas: area(0.2, 0.06) },
          { name: 'Buyer Date', type: 'date', role: 'Buyer', areas: area(0.3) },
          { name: 'Buyer Agree', type: 'checkbox', role: 'Buyer', areas: area(0.4) },
        ],
      },
    });
    expect(updated.status, updated.text).toBe(200);
    const fields = (await api('GET', `/api/templates/${created.json.id}`, { token: owner.token })).json.schema;
    const two: TemplateFixture = { id: created.json.id, roles: created.json.submitters, fields };
    const { id, signers } = await qesSubmission('sequential', two);
    const url = await submit(signers[0], two);
    expect(new URL(url).searchParams.get('numSignatures')).toBe('2');
    expect((await callback(signers[0], await answerConsent(url, 'approve'))).status).toBe(303);
    const files = await sealedFiles(id);
    expect(files).toHaveLength(2);
    for (const file of files) {
      const cms = pdfsigBlocks((await checkPdf(file)).pdfsig.output).filter((b) => b.includes('ETSI.CAdES.detached'));
      expect(cms.map((b) => /Signer Certificate Common Name: (.*)/.exec(b)?.[1])).toEqual([
        SIGNER_CN,
        `Qualified Co (${env.SERVICE_NAME})`,
      ]);
      for (const block of cms) expect(block).toContain('Signature Validation: Signature is Valid.');
    }
  });
});

describe('a qes signer signing where a TSA is configured', () => {
  it('gets a signature timestamp in their CMS (B-T), as the seal does', async () => {
    const { signers } = await qesSubmission();
    const [signer] = signers;
    const values = await fill(signer);
    const withTsa = { ...env, TSA_URLS: `${env.TEST_TSA_URL}/tsa` };
    const db = createDb(await shardOf(owner.accountId));
    const account = (await getAccount(createDb(env.CONTROL_DB), owner.accountId))!;
    const load = async () => (await loadSigning(db, account, signer.slug))!;
    const ctx = { db, account, serviceName: env.SERVICE_NAME, apiBase: 'https://api.test', linkSecret: env.ENCRYPTION_KEY };
    const redirectUri = `https://api.test/s/${signer.slug}/qes/callback`;
    const url = await beginQesSigning(withTsa, ctx, await load(), values, redirectUri);
    const signing = await load();
    await finishQesSigning(withTsa, ctx, signing, await answerConsent(url, 'approve'));
    const cms = await env.FILES.get(signatureKey(signing.scope.submission, signer.id, signing.scope.template.documents[0].id));
    const stamp = await signatureTimestampOf(new Uint8Array(await cms!.arrayBuffer()));
    expect(stamp).not.toBeNull();
    expect((await verifyTimestampToken(env.TEST_TSA_URL, stamp!.token, stamp!.digestHex)).output).toContain('Verification: OK');
    expect(await statusOf(signer)).toBe('completed');
  });
});
