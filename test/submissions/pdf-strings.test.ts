// Names in signature dictionaries (issue 28 › 3): an account or signer name with parentheses, a
// backslash, Cyrillic, Arabic or emoji is written as a PDF-safe string at every signature level, and
// pdfsig, qpdf and a PDF reader read it back exactly.
import { env, SELF } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { shardScope, type ShardScope } from '../../src/db/shards';
import { sealSubmission } from '../../src/services/sealing/seal-submission';
import { api, createAccount, shardOf, type TestAccount, clientAddress } from '../helpers';
import { answerConsent, imitationCredentials } from '../csc-fixtures';
import { checkPdf, type PdfCheck } from '../pdf-tools';
import { pdfsigBlocks, signatureNames, signerCommonNames } from '../signature-contents';
import { acceptDisclosure, page } from '../signing/fixtures';
import { completedInOrder, completeValues, shardNumberOf, type TemplateFixture } from '../submission-fixtures';
import { makePdf, toBase64 } from '../fixtures/pdfs';

const ACCOUNT = 'Acme (EU';
/** Role → the signer's name: each one broke the signature dictionary it was written into. */
const NAMES: Record<string, string> = {
  Backslash: 'Mallory\\',
  Parentheses: "O'Brien (Jr.)",
  Cyrillic: 'Иван',
  Arabic: 'محمد',
  Emoji: '👩‍💼 Zoë',
};
const ROLES = Object.keys(NAMES);
const QES_CN = 'Erika Mustermann (RSA)';

/** createTemplate's fields (completeValues fills them) for five roles, a row of 0.15 of the page each. */
async function createTemplate(token: string, roles: string[]): Promise<TemplateFixture> {
  const fields = roles.flatMap((role, i) => [
    { name: `${role} Name`, type: 'text', role, required: true, areas: [{ page: 1, x: 0.1, y: 0.05 + i * 0.15, w: 0.3, h: 0.04 }] },
    { name: `${role} Date`, type: 'date', role, areas: [{ page: 1, x: 0.5, y: 0.05 + i * 0.15, w: 0.2, h: 0.04 }] },
    { name: `${role} Agree`, type: 'checkbox', role, areas: [{ page: 1, x: 0.75, y: 0.05 + i * 0.15, w: 0.04, h: 0.04 }] },
    {
      name: `${role} Signature`,
      type: 'signature',
      role,
      required: true,
      areas: [{ page: 1, x: 0.1, y: 0.1 + i * 0.15, w: 0.3, h: 0.06 }],
    },
  ]);
  const res = await api('POST', '/api/templates/pdf', {
    token,
    body: {
      name: 'Agreement',
      submitters: roles.map((name) => ({ name })),
      documents: [{ name: 'agreement.pdf', file: toBase64(await makePdf(1)) }],
      fields,
    },
  });
  expect(res.status).toBe(201);
  return { id: res.json.id, roles: res.json.submitters, fields: res.json.schema };
}

type Sealed = { bytes: Uint8Array; check: PdfCheck };

async function sealed(owner: TestAccount, submissionId: number): Promise<Sealed> {
  const scope: ShardScope = shardScope(env, await shardNumberOf(owner.accountId));
  expect(await sealSubmission(scope.env, scope, submissionId)).toBe('sealed');
  const shard = await shardOf(owner.accountId);
  const row = await shard
    .prepare('SELECT r2_key FROM submission_documents WHERE submission_id = ?')
    .bind(submissionId)
    .first<{ r2_key: string }>();
  const bytes = new Uint8Array(await (await env.FILES.get(row!.r2_key))!.arrayBuffer());
  return { bytes, check: await checkPdf(bytes) };
}

/**
 * Every CMS signature pdfsig lists, each required valid; the certificate common names in file order.
 * pdfsig prints a name as NSS formats it (RFC 4514: a backslash doubled), which is undone here.
 */
function validSigners(check: PdfCheck): string[] {
  const cms = pdfsigBlocks(check.pdfsig.output).filter((b) => b.includes('ETSI.CAdES.detached'));
  for (const block of cms) expect(block).toContain('Signature Validation: Signature is Valid.');
  return cms.map((b) => (/Signer Certificate Common Name: (.*)/.exec(b)?.[1] ?? '').replace(/\\(.)/g, '$1'));
}

function expectClean(check: PdfCheck) {
  expect(check.qpdf.output).toContain('No syntax or stream encoding errors found');
  expect(check.qpdf.code).toBe(0);
  expect(check.pdfsig.code).toBe(0);
}

describe('an account named "Acme (EU" at level aes, with signers named Mallory\\, O\'Brien (Jr.), Иван, محمد and 👩‍💼 Zoë', () => {
  let owner: TestAccount;
  let template: TemplateFixture;
  beforeAll(async () => {
    owner = await createAccount({ name: ACCOUNT });
    expect((await api('PUT', '/api/settings/signature_level', { token: owner.token, body: { level: 'aes' } })).status).toBe(200);
    template = await createTemplate(owner.token, ROLES);
  });

  it('seals an ses submission that qpdf finds clean and pdfsig valid, the seal reading back the account name', async () => {
    const { bytes, check } = await sealed(owner, await completedInOrder(owner.token, template, 'ses', NAMES));
    expectClean(check);
    expect(validSigners(check)).toEqual([`${ACCOUNT} (${env.SERVICE_NAME})`]);
    expect(await signatureNames(bytes)).toEqual([ACCOUNT]);
  });

  it('seals an aes submission: every signer signature valid, certificate and /Name reading back each name exactly', async () => {
    const { bytes, check } = await sealed(owner, await completedInOrder(owner.token, template, 'aes', NAMES));
    expectClean(check);
    const names = ROLES.map((role) => NAMES[role]);
    expect(validSigners(check)).toEqual([...names, `${ACCOUNT} (${env.SERVICE_NAME})`]);
    expect(signerCommonNames(bytes)).toEqual([...names, `${ACCOUNT} (${env.SERVICE_NAME})`]);
    expect(await signatureNames(bytes)).toEqual([...names, ACCOUNT]);
  });

  it('seals the signature of a delegate who named themselves Mallory\\', async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const res = await api('POST', '/api/submissions', {
      token: owner.token,
      body: {
        template_id: template.id,
        preferences: { signature_level: 'aes' },
        submitters: ROLES.map((role) => ({
          role,
          name: `${role} Person`,
          email: `${role.toLowerCase()}-${tag}@example.com`,
          values: completeValues(role),
        })),
      },
    });
    expect(res.status).toBe(201);
    const [first, ...rest] = res.json.submitters as { id: number; slug: string }[];
    const delegated = await page('POST', `/s/${first.slug}/delegate`, { body: { email: `deputy-${tag}@example.com`, name: 'Mallory\\' } });
    expect(delegated.status).toBe(200);
    for (const submitter of [first, ...rest]) {
      expect((await api('PUT', `/api/submitters/${submitter.id}`, { token: owner.token, body: { completed: true } })).status).toBe(200);
    }
    const { bytes, check } = await sealed(owner, res.json.id);
    expectClean(check);
    expect(validSigners(check)[0]).toBe('Mallory\\');
    expect(signerCommonNames(bytes)[0]).toBe('Mallory\\');
    expect((await signatureNames(bytes))[0]).toBe('Mallory\\');
  });
});

describe('an account named "Acme (EU" at level qes, with the same signers', () => {
  let owner: TestAccount;
  let template: TemplateFixture;
  beforeAll(async () => {
    owner = await createAccount({ name: ACCOUNT });
    const credentials = imitationCredentials('cred-rsa');
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

  /** The signer fills the form, approves at the provider and comes back completed. */
  async function signThrough(signer: { slug: string; role: string }): Promise<void> {
    expect((await page('POST', `/s/${signer.slug}/open`, { body: {} })).status).toBe(200);
    await acceptDisclosure(signer.slug);
    const uuid = (name: string) => template.fields.find((f) => f.name === `${signer.role} ${name}`)!.uuid;
    const values = {
      [uuid('Name')]: NAMES[signer.role],
      [uuid('Signature')]: NAMES[signer.role],
      [uuid('Date')]: '2026-11-27',
      [uuid('Agree')]: true,
    };
    const submitted = await page('POST', `/s/${signer.slug}/submit`, { body: { values } });
    expect(submitted.status).toBe(200);
    const back = await answerConsent(submitted.json.authorization_url, 'approve');
    const res = await SELF.fetch(`https://api.test/s/${signer.slug}/qes/callback?${back}`, {
      redirect: 'manual',
      headers: { 'CF-Connecting-IP': clientAddress() },
    });
    expect(res.status).toBe(303);
  }

  it('seals a qes submission that qpdf finds clean and pdfsig valid, each /Name reading back exactly', async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const res = await api('POST', '/api/submissions', {
      token: owner.token,
      body: {
        template_id: template.id,
        preferences: { signature_level: 'qes' },
        submitters: ROLES.map((role) => ({ role, name: NAMES[role], email: `${role.toLowerCase()}-${tag}@example.com` })),
      },
    });
    expect(res.status).toBe(201);
    for (const signer of res.json.submitters) await signThrough(signer);
    const { bytes, check } = await sealed(owner, res.json.id);
    expectClean(check);
    expect(validSigners(check)).toEqual([...ROLES.map(() => QES_CN), `${ACCOUNT} (${env.SERVICE_NAME})`]);
    expect(await signatureNames(bytes)).toEqual([...ROLES.map((role) => NAMES[role]), ACCOUNT]);
  });
});
