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

/** `count` requests to one slug from `ip`, each refused by the same-origin check (no D1) but counted. */
async function spend(slug: string, count: number, ip: string) {
  for (let i = 0; i < count; i += 50) {
    const chunk = Array.from({ length: Math.min(50, count - i) }, () =>
      api('POST', `/s/${slug}/open`, { ip, headers: { Origin: 'https://elsewhere.test' } }),
    );
    await Promise.all(chunk);
  }
}

describe('refusals before the signer is known, in the language the request asks for', () => {
  it('answers an unknown link’s JSON 404 in the browser’s language, a regional tag falling back to its base', async () => {
    const res = await page('POST', '/s/NoSuchSigningLink/decline', {
      body: { reason: 'x' },
      headers: { 'Accept-Language': 'de-AT, en;q=0.5' },
    });
    expect(res.status).toBe(404);
    expect(res.json.error).toBe(translatorFor('de')('not_found.text'));
    expect(res.json.error).toBe('Der Link zum Unterzeichnen ist falsch oder nicht mehr gültig. Bitten Sie den Absender um einen neuen.');
  });

  it('answers an unknown link in English when the browser asks for a language we do not have', async () => {
    const res = await page('GET', '/s/NoSuchSigningLink/download', { headers: { 'Accept-Language': 'fi' } });
    expect(res.status).toBe(404);
    expect(res.json.error).toBe(translatorFor('en')('not_found.text'));
  });

  it('shows a browser an unknown link’s download as a page in its language', async () => {
    const res = await api('GET', '/s/NoSuchSigningLink/download', { headers: { Accept: 'text/html', 'Accept-Language': 'he' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('Content-Type')).toMatch(/^text\/html/);
    expect(res.text).toContain('<html lang="he" dir="rtl">');
    expect(res.text).toContain(translatorFor('he')('not_found.title'));
    expect(res.text).toContain(translatorFor('he')('not_found.text'));
  });

  it('follows the page’s language switch (?lang=) over the browser’s', async () => {
    const res = await api('GET', '/s/NoSuchSigningLink?lang=ko', { headers: { Accept: 'text/html', 'Accept-Language': 'de' } });
    expect(res.status).toBe(404);
    expect(res.text).toContain('<html lang="ko" dir="ltr">');
    expect(res.text).toContain(translatorFor('ko')('not_found.text'));
  });

  it('follows an embedding host’s language option over the browser’s', async () => {
    const res = await api('GET', '/s/NoSuchSigningLink?language=ja-JP', { headers: { Accept: 'text/html', 'Accept-Language': 'fr' } });
    expect(res.status).toBe(404);
    expect(res.text).toContain('<html lang="ja" dir="ltr">');
    expect(res.text).toContain(translatorFor('ja')('not_found.text'));
  });

  it('answers the 429 of a link in Japanese, with Retry-After, its seconds counted in the sentence', async () => {
    const ip = '203.0.113.41';
    await spend('RefusedLinkJa', 120, ip);
    const res = await api('POST', '/s/RefusedLinkJa/open', { ip, headers: { Origin: 'https://api.test', 'Accept-Language': 'ja' } });
    expect(res.status).toBe(429);
    const wait = Number(res.headers.get('Retry-After'));
    expect(wait).toBeGreaterThan(0);
    expect(res.json.error).toBe(translatorFor('ja')('signer_error.rate_limited', { seconds: wait }));
    expect(res.json.error).toContain(`${wait} 秒`);
  });

  it('shows a browser the 429 of a link as an Arabic page, right to left, keeping Retry-After', async () => {
    const ip = '203.0.113.42';
    await spend('RefusedLinkAr', 120, ip);
    const res = await api('GET', '/s/RefusedLinkAr', { ip, headers: { Accept: 'text/html', 'Accept-Language': 'ar-EG' } });
    expect(res.status).toBe(429);
    expect(res.headers.get('Retry-After')).toBeTruthy();
    expect(res.text).toContain('<html lang="ar" dir="rtl">');
    // Met inside an embedding app too: framed anywhere, since it runs no script and has nothing to click.
    expect(res.headers.get('Content-Security-Policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; frame-ancestors *");
    expect(res.headers.get('X-Frame-Options')).toBeNull();
    const t = translatorFor('ar');
    expect(res.text).toContain(t('signer_error.rate_limited_title'));
    expect(res.text).toContain(t('signer_error.rate_limited', { seconds: Number(res.headers.get('Retry-After')) }));
  });

  it('answers a body over the cap in Arabic', async () => {
    const f = await signingFixture({ fields: [{ name: 'Name', type: 'text' }] });
    const res = await page('PUT', `/s/${f.submitters[0].slug}/values`, {
      body: { values: {}, padding: 'p'.repeat(1024 * 1024) },
      headers: { 'Accept-Language': 'ar' },
    });
    expect(res.status).toBe(413);
    expect(res.json.error).toBe(translatorFor('ar')('signer_error.body_too_large', { size: '1 MB' }));
    expect(res.json.error).toBe('ما أرسلته الصفحة أكبر من 1 MB، وهو أقصى ما تقبله دفعة واحدة. استخدم ملفًا أو صورة أصغر ثم حاول مرة أخرى.');
  });

  it('answers a malformed body in French: not JSON, not sent as JSON, not a JSON object', async () => {
    const f = await signingFixture();
    const slug = f.submitters[0].slug;
    const french = { 'Accept-Language': 'fr-CA,fr;q=0.9' };
    const answers = [
      await page('POST', `/s/${slug}/submit`, { body: '{"values":', headers: { ...french, 'Content-Type': 'application/json' } }),
      await page('POST', `/s/${slug}/decline`, { body: '{"reason":"x"}', headers: { ...french, 'Content-Type': 'text/plain' } }),
      await page('POST', `/s/${slug}/decline`, { body: [], headers: french }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(400);
      expect(res.json.error).toBe('La page a envoyé quelque chose d’illisible. Rechargez la page, puis réessayez.');
    }
  });

  it('answers a public link’s 429 in the browser’s language', async () => {
    const ip = '203.0.113.43';
    for (let i = 0; i < 120; i += 40) await Promise.all(Array.from({ length: 40 }, () => api('GET', '/l/not-a-token', { ip })));
    const res = await api('GET', '/l/not-a-token', { ip, headers: { 'Accept-Language': 'tr' } });
    expect(res.status).toBe(429);
    expect(res.json.error).toBe(translatorFor('tr')('signer_error.rate_limited', { seconds: Number(res.headers.get('Retry-After')) }));
  });

  it('answers a public link’s JSON refusal in the browser’s language', async () => {
    const res = await api('GET', '/l/not-a-token', { headers: { Accept: 'application/json', 'Accept-Language': 'pl' } });
    expect(res.status).toBe(404);
    expect(res.json.error).toBe(translatorFor('pl')('link.not_found.text'));
  });
});

describe('a file value that names no upload of the signer', () => {
  it('is refused in the signer’s language', async () => {
    const f = await signingFixture({
      fields: [{ name: 'Proof', type: 'file' }],
      submitters: [{ email: 'signer@example.com', language: 'cs' }],
    });
    const res = await page('PUT', `/s/${f.submitters[0].slug}/values`, {
      body: { values: { [f.field('Proof')]: `attachment:${crypto.randomUUID()}` } },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(translatorFor('cs')('signer_error.upload_unknown', { name: 'Proof' }));
    expect(res.json.error).toBe('Soubor uvedený u pole „Proof“ jste sem nenahráli; nahrajte ho znovu.');
  });
});

describe('a known link’s documents asked for when they cannot be had', () => {
  it('answers a document that is not the form’s, and the signed copy before it exists, in the signer’s language', async () => {
    const f = await signingFixture({
      fields: [{ name: 'Full name', type: 'text' }],
      submitters: [{ email: 'signer@example.com', language: 'es' }],
    });
    const slug = f.submitters[0].slug;
    await acceptIn(slug, 'es');
    const t = translatorFor('es');

    const document = await page('GET', `/s/${slug}/documents/${crypto.randomUUID()}/text`);
    expect(document.status).toBe(404);
    expect(document.json.error).toBe(t('signer_error.document_unavailable'));

    const copy = await api('GET', `/s/${slug}/download`, { headers: { Accept: 'text/html' } });
    expect(copy.status).toBe(404);
    expect(copy.text).toContain('<html lang="es" dir="ltr">');
    expect(copy.text).toContain(t('signer_error.signed_copy_unavailable'));
    // Once the signer is known, their language wins over the browser's.
    expect((await api('GET', `/s/${slug}/download`, { headers: { 'Accept-Language': 'en' } })).json.error).toBe(
      translatorFor('es')('signer_error.signed_copy_unavailable'),
    );
  });
});
