// Refusals a signer meets on /s/<slug> and its JSON calls are in the signer's language (issue 31 › 1):
// decline, delegate, witness, uploads, payments, submit. The tenant API answers the same refusals in English.
import { describe, expect, it } from 'vitest';
import { api } from '../helpers';
import { page, signingFixture } from './fixtures';
import { CATALOGS, translatorFor } from '../../src/lib/i18n/catalogs';
import type { Locale } from '../../src/shared/i18n/locales';

const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='), (c) =>
  c.charCodeAt(0),
);

const fields = [
  { name: 'Full name', type: 'text' },
  { name: 'Photo', type: 'image', required: false },
  { name: 'Deposit', type: 'payment', preferences: { amount: '25.00', currency: 'EUR' } },
];

/** The signer accepts the disclosure in the language their page shows it in (its version is that language's). */
function acceptIn(slug: string, locale: Locale, headers: Record<string, string> = {}) {
  return page('POST', `/s/${slug}/consent`, { body: { version: CATALOGS[locale]['disclosure.version'], language: locale }, headers });
}

function upload(slug: string, fieldUuid: string | null, bytes: Uint8Array) {
  const form = new FormData();
  if (fieldUuid) form.append('field_uuid', fieldUuid);
  form.append('file', new File([bytes], 'upload.png'));
  return api('POST', `/s/${slug}/attachments`, { body: form, headers: { Origin: 'https://api.test' } });
}

/** Every refusal a signer can meet before completing, with what each answered. */
async function refusalsFor(language: Locale) {
  const f = await signingFixture({ fields, submitters: [{ email: 'signer@example.com', name: 'Signer', language }] });
  const slug = f.submitters[0].slug;
  const answers = {
    submitBeforeDisclosure: await page('POST', `/s/${slug}/submit`, { body: { values: {} } }),
    declineWithoutReason: await page('POST', `/s/${slug}/decline`, { body: { reason: ' ' } }),
    declineTooLong: await page('POST', `/s/${slug}/decline`, { body: { reason: 'x'.repeat(1001) } }),
    delegateToSelf: await page('POST', `/s/${slug}/delegate`, { body: { email: 'SIGNER@example.com' } }),
    delegateBadEmail: await page('POST', `/s/${slug}/delegate`, { body: { email: 'nope' } }),
    witnessBeforeCompleting: await page('POST', `/s/${slug}/invite_witness`, { body: { email: 'w@example.com' } }),
    uploadToTextField: await upload(slug, f.field('Full name'), PNG),
    uploadNotAnImage: await upload(slug, f.field('Photo'), new TextEncoder().encode('<svg></svg>')),
    checkoutWithoutStripe: await page('POST', `/s/${slug}/payments/${f.field('Deposit')}/checkout`, { body: {} }),
    unknownField: await page('PUT', `/s/${slug}/values`, { body: { values: { 'not-a-field': 'x' } } }),
  };
  await acceptIn(slug, language);
  const submitUnpaid = await page('POST', `/s/${slug}/submit`, { body: { values: { [f.field('Full name')]: 'Ann' } } });
  return { ...answers, submitUnpaid };
}

/** What each refusal says in `locale`, from that locale's catalog. */
function expected(locale: Locale) {
  const t = translatorFor(locale);
  return {
    submitBeforeDisclosure: t('signer_error.disclosure_first'),
    declineWithoutReason: t('signer_error.decline_reason_missing'),
    declineTooLong: t('signer_error.decline_reason_too_long', { max: 1000 }),
    delegateToSelf: t('signer_error.delegate_self'),
    delegateBadEmail: t('signer_error.email_invalid'),
    witnessBeforeCompleting: t('signer_error.witness_complete_first'),
    uploadToTextField: t('signer_error.upload_not_taken', { name: 'Full name' }),
    uploadNotAnImage: t('client.field_error.image', { name: 'Photo' }),
    checkoutWithoutStripe: t('signer_error.payment_not_set_up'),
    unknownField: t('signer_error.not_your_field', { field: 'not-a-field' }),
    submitUnpaid: t('signer_error.payment_required', { name: 'Deposit', amount: '25.00 EUR' }),
  };
}

describe('refusals on the signing routes, in the signer’s language', () => {
  it.each(['de', 'ar'] as const)('answers a %s signer in their language, never in English', async (locale) => {
    const answers = await refusalsFor(locale);
    const sentences = expected(locale);
    const english = expected('en');
    for (const [name, res] of Object.entries(answers) as [keyof typeof sentences, (typeof answers)[keyof typeof answers]][]) {
      expect([name, res.status >= 400 && res.status < 500]).toEqual([name, true]);
      expect([name, res.json.error]).toEqual([name, sentences[name]]);
      expect([name, res.json.error]).not.toEqual([name, english[name]]);
    }
  });

  it('words them as each language is written', async () => {
    const german = await refusalsFor('de');
    expect(german.declineWithoutReason.json.error).toBe('Geben Sie einen Grund für die Ablehnung an.');
    expect(german.declineTooLong.json.error).toBe('Der Grund darf höchstens 1.000 Zeichen lang sein.');
    expect(german.submitUnpaid.json.error).toBe('Bezahlen Sie „Deposit“ (25.00 EUR), bevor Sie das Formular abschließen.');
    const arabic = await refusalsFor('ar');
    expect(arabic.delegateToSelf.json.error).toBe('فوّض شخصًا آخر: هذا عنوان بريدك الإلكتروني.');
    expect(arabic.uploadToTextField.json.error).toBe('الحقل «Full name» لا يقبل ملفًا مرفوعًا.');
    // Every sentence the catalogs hold for signers has a German and an Arabic wording of its own.
    const keys = Object.keys(CATALOGS.en).filter((k) => k.startsWith('signer_error.'));
    for (const key of keys) {
      expect([key, CATALOGS.de[key]]).not.toEqual([key, CATALOGS.en[key]]);
      expect([key, CATALOGS.ar[key]]).not.toEqual([key, CATALOGS.en[key]]);
    }
  });

  it('follows the language the signer picked on the page, for every required field left blank', async () => {
    const f = await signingFixture({ submitters: [{ email: 'signer@example.com', language: 'de' }] });
    const slug = f.submitters[0].slug;
    const switched = await page('GET', `/s/${slug}?lang=ar`);
    const headers = { Cookie: switched.headers.get('Set-Cookie')!.split(';')[0] };
    const declined = await page('POST', `/s/${slug}/decline`, { body: { reason: '' }, headers });
    const t = translatorFor('ar');
    expect(declined.json.error).toBe(t('signer_error.decline_reason_missing'));
    expect((await acceptIn(slug, 'ar', headers)).status).toBe(200);
    const submitted = await page('POST', `/s/${slug}/submit`, { body: { values: {} }, headers });
    expect(submitted.status).toBe(422);
    expect(submitted.json.error).toEqual([
      t('client.field_error.required', { name: 'Full name' }),
      t('client.field_error.required', { name: 'Signature' }),
    ]);
  });
});

describe('the same refusals on the tenant API', () => {
  it('stay in English whatever the caller’s Accept-Language', async () => {
    const f = await signingFixture({
      fields: [{ name: 'Full name', type: 'text' }],
      submitters: [{ email: 'signer@example.com', language: 'de' }],
    });
    const res = await api('PUT', `/api/submitters/${f.submitters[0].id}`, {
      token: f.account.token,
      body: { completed: true },
      headers: { 'Accept-Language': 'de' },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('Field "Full name" is required.');
  });
});
