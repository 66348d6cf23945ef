// Sealing at signature level aes (issue 18 › 2): each signer's own PAdES signature by a certificate the
// account's CA issues to them, in completion order as incremental updates, then the platform seal.
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { shardScope, type ShardScope } from '../../src/db/shards';
import { sealSubmission } from '../../src/services/sealing/seal-submission';
import { api, createAccount, shardOf, type TestAccount } from '../helpers';
import { checkPdf } from '../pdf-tools';
import { dssFingerprints, pdfsigBlocks, signatureTimestampOf, signaturesIn, verifyTimestampToken } from '../signature-contents';
import { completedInOrder, completeValues, createTemplate, shardNumberOf, type TemplateFixture } from '../submission-fixtures';
import { page } from '../signing/fixtures';
import { inspectSignatures } from '../../src/services/pdf/verify';
import { CATALOGS, translatorFor } from '../../src/lib/i18n/catalogs';
import type { Locale } from '../../src/shared/i18n/locales';

const ROLES = ['Buyer', 'Seller', 'Witness'];
const NAMES: Record<string, string> = { Buyer: 'Ada Buyer', Seller: 'Ben Seller', Witness: 'Cleo Witness' };

let owner: TestAccount;
let template: TemplateFixture;
let scope: ShardScope;
let shard: D1Database;

beforeAll(async () => {
  owner = await createAccount({ name: 'Advanced Co' });
  scope = shardScope(env, await shardNumberOf(owner.accountId));
  shard = await shardOf(owner.accountId);
  expect((await api('PUT', '/api/settings/signature_level', { token: owner.token, body: { level: 'aes' } })).status).toBe(200);
  template = await createTemplate(owner.token, ROLES);
});

/** A submission at `level` whose three signers complete one after another. */
const completedSubmission = (level: 'aes' | 'ses') => completedInOrder(owner.token, template, level, NAMES);

const withTsa = (urls: string) => ({ ...scope, env: { ...scope.env, TSA_URLS: urls } });

async function sealedFile(submissionId: number): Promise<Uint8Array> {
  const row = await shard
    .prepare('SELECT r2_key FROM submission_documents WHERE submission_id = ?')
    .bind(submissionId)
    .first<{ r2_key: string }>();
  return new Uint8Array(await (await env.FILES.get(row!.r2_key))!.arrayBuffer());
}

type CertificateEvent = { submitter_id: number; data: string };
async function certificateEvents(submissionId: number) {
  const { results } = await shard
    .prepare(
      "SELECT submitter_id, data FROM submission_events WHERE submission_id = ? AND action = 'signer_certificate_issued' ORDER BY id",
    )
    .bind(submissionId)
    .all<CertificateEvent>();
  return results.map((r) => ({
    submitterId: r.submitter_id,
    ...(JSON.parse(r.data) as { subject: string; serial_number: string; issuer: string; sha256_fingerprint: string }),
  }));
}

describe('sealing an aes submission with three signers', () => {
  let id: number;
  let bytes: Uint8Array;
  beforeAll(async () => {
    id = await completedSubmission('aes');
    const s = withTsa(`${env.TEST_TSA_URL}/tsa`);
    expect(await sealSubmission(s.env, s, id)).toBe('sealed');
    bytes = await sealedFile(id);
  });

  it('has four signatures pdfsig reports valid: the three signers in completion order, then the seal', async () => {
    const { pdfsig } = await checkPdf(bytes);
    const blocks = pdfsigBlocks(pdfsig.output);
    const cms = blocks.filter((b) => b.includes('ETSI.CAdES.detached'));
    expect(cms).toHaveLength(4);
    for (const block of cms) expect(block).toContain('Signature Validation: Signature is Valid.');
    expect(cms.map((b) => /Signer Certificate Common Name: (.*)/.exec(b)?.[1])).toEqual([
      'Ada Buyer',
      'Ben Seller',
      'Cleo Witness',
      `Advanced Co (${env.SERVICE_NAME})`,
    ]);
  });

  it('gives each signer a certificate from the account CA naming their name and email, recorded and on the audit page', async () => {
    const events = await certificateEvents(id);
    expect(events).toHaveLength(3);
    expect(events.map((e) => e.subject.split(',')[0])).toEqual(['CN=Ada Buyer', 'CN=Ben Seller', 'CN=Cleo Witness']);
    for (const event of events) {
      expect(event.subject).toMatch(/emailAddress=[a-z]+-[0-9a-f]{8}@example\.com$/);
      expect(event.issuer).toBe(`CN=Advanced Co Signer CA (${env.SERVICE_NAME}), O=Advanced Co`);
    }
    const { text } = await checkPdf(bytes);
    const flat = text.output.replace(/\s+/g, '');
    for (const event of events) {
      expect(flat).toContain(event.serial_number);
      expect(flat).toContain(event.sha256_fingerprint);
    }
  });

  it('holds the CA and every signer certificate in the DSS', async () => {
    const inDss = await dssFingerprints(bytes);
    for (const event of await certificateEvents(id)) expect(inDss).toContain(event.sha256_fingerprint);
    const ca = await shard
      .prepare("SELECT sha256_fingerprint FROM signing_identities WHERE account_id = ? AND source = 'ca'")
      .bind(owner.accountId)
      .first<{ sha256_fingerprint: string }>();
    expect(inDss).toContain(ca!.sha256_fingerprint);
  });

  it('timestamps every signature with a token openssl verifies', async () => {
    const signatures = signaturesIn(bytes).filter((s) => s.subFilter === 'ETSI.CAdES.detached');
    expect(signatures).toHaveLength(4);
    for (const signature of signatures) {
      const stamp = (await signatureTimestampOf(signature.contents))!;
      expect((await verifyTimestampToken(env.TEST_TSA_URL, stamp.token, stamp.digestHex)).output).toContain('Verification: OK');
    }
  });

  it('is reported invalid, every signature, once one byte the first signer signed changes', async () => {
    const text = new TextDecoder('latin1').decode(bytes);
    const at = text.indexOf('(Signed as Buyer');
    expect(at).toBeGreaterThan(0);
    const [, , after, length] = signaturesIn(bytes)[0].byteRange;
    expect(at).toBeGreaterThan(after);
    expect(at).toBeLessThan(after + length);
    const tampered = bytes.slice();
    tampered[at + 11] = 0x62; // "Buyer" becomes "buyer"
    const { pdfsig } = await checkPdf(tampered);
    expect(pdfsig.output).not.toContain('Signature is Valid.');
    expect(pdfsigBlocks(pdfsig.output).filter((b) => b.includes('ETSI.CAdES.detached'))).toHaveLength(4);
  });
});

describe('sealing an ses submission on an aes account', () => {
  it('keeps one seal and issues no signer certificate', async () => {
    const id = await completedSubmission('ses');
    expect(await sealSubmission(scope.env, scope, id)).toBe('sealed');
    const signatures = signaturesIn(await sealedFile(id));
    expect(signatures).toHaveLength(1);
    expect(await certificateEvents(id)).toHaveLength(0);
  });
});

describe('the reason inside each aes signer’s signature', () => {
  it('is in the language the signer signed in: the disclosure’s they accepted, else their messages’; the seal’s stays English', async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const languages: Record<string, string | undefined> = { Buyer: 'ja', Seller: undefined, Witness: 'de' };
    const res = await api('POST', '/api/submissions', {
      token: owner.token,
      body: {
        template_id: template.id,
        preferences: { signature_level: 'aes' },
        submitters: ROLES.map((role) => ({
          role,
          name: NAMES[role],
          email: `${role.toLowerCase()}-${tag}@example.com`,
          values: completeValues(role),
          ...(languages[role] ? { language: languages[role] } : {}),
        })),
      },
    });
    expect(res.status).toBe(201);
    const [buyer, seller, witness] = res.json.submitters as { id: number; slug: string }[];
    for (const s of [buyer, seller])
      expect((await api('PUT', `/api/submitters/${s.id}`, { token: owner.token, body: { completed: true } })).status).toBe(200);
    // The witness reads the page in Ukrainian (their choice on it), over the German they were sent.
    const consent = await page('POST', `/s/${witness.slug}/consent`, {
      body: { version: CATALOGS.uk['disclosure.version'], language: 'uk' },
    });
    expect(consent.status).toBe(200);
    expect((await api('PUT', `/api/submitters/${witness.id}`, { token: owner.token, body: { completed: true } })).status).toBe(200);
    expect(await sealSubmission(scope.env, scope, res.json.id)).toBe('sealed');
    const reasons = (await inspectSignatures(await sealedFile(res.json.id))).map((s) => s.reason);
    const slug = res.json.slug as string;
    const reason = (locale: Locale, role: string) => translatorFor(locale)('signature.reason', { role, submission: slug, level: 'aes' });
    expect(reasons).toEqual([
      reason('ja', 'Buyer'),
      reason('en', 'Seller'),
      reason('uk', 'Witness'),
      `Completed submission ${slug}: values and audit trail sealed by ${env.SERVICE_NAME}`,
    ]);
    expect(reasons[0]).toBe(`署名依頼 ${slug} の Buyer として署名 (高度電子署名)`);
    expect(reasons[2]).toBe(`Підписано як Witness у поданні ${slug} (удосконалений електронний підпис)`);
  });
});
