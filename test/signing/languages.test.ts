// The signer's language everywhere they meet us (issue 31 › 1–3): the signing page (right to left for
// Arabic), the language switch, the disclosure accepted per language, emails and SMS, the submitter's
// `language` on the API and in webhook payloads, and the public-link pages.
import { describe, expect, it } from 'vitest';
import { api } from '../helpers';
import { rowsOnAllShards } from '../submission-fixtures';
import { eventsOf, messagesTo, page, signingFixture, submitterRow } from './fixtures';
import { composeEmail, composeSms } from '../../src/services/mail/compose';
import { disclosureIn } from '../../src/services/signing/consent-disclosure';
import { CATALOGS } from '../../src/lib/i18n/catalogs';

/** The page's inlined data for its script. */
function pageData(html: string): { locale: string; messages: Record<string, string>; disclosure: Record<string, unknown> } {
  const raw = /<script type="application\/json" id="signing-data">(.*?)<\/script>/s.exec(html)?.[1];
  if (!raw) throw new Error('no signing data');
  return JSON.parse(raw);
}

describe('the signing page in the signer’s language', () => {
  it('is right to left with Arabic words and the Arabic disclosure for a submitter whose language is ar', async () => {
    const f = await signingFixture({ submitters: [{ email: 'layla@example.com', name: 'Layla', language: 'ar' }] });
    const res = await api('GET', `/s/${f.submitters[0].slug}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<html lang="ar" dir="rtl">');
    expect(res.text).toContain('الموافقة على استخدام السجلات والتوقيعات الإلكترونية');
    expect(res.text).toContain('جارٍ تحميل المستند…');
    expect(res.text).not.toContain('Loading the document');
    // The full text is one tap away, under a short summary.
    expect(res.text).toMatch(/<details id="disclosure-full"><summary>اقرأ الإفصاح كاملًا<\/summary>/);
    const data = pageData(res.text);
    expect(data.locale).toBe('ar');
    expect(data.disclosure).toMatchObject({
      locale: 'ar',
      version: CATALOGS.ar['disclosure.version'],
      sha256: (await disclosureIn('ar')).sha256,
    });
    // Only this language's messages for the script: the `client.` ones, none of another language.
    expect(data.messages['client.form.next']).toBe('التالي');
    expect(Object.keys(data.messages).every((k) => k.startsWith('client.'))).toBe(true);
    expect(res.text).not.toContain(CATALOGS.de['client.form.next']);
  });

  it('falls back from a regional tag to its base and from a language we lack to English', async () => {
    const f = await signingFixture({
      roles: ['First Party', 'Second Party'],
      order: 'parallel',
      submitters: [
        { email: 'anna@example.com', role: 'First Party', language: 'de-AT' },
        { email: 'aino@example.com', role: 'Second Party', language: 'fi' },
      ],
    });
    expect((await api('GET', `/s/${f.submitters[0].slug}`)).text).toContain('<html lang="de" dir="ltr">');
    const finnish = await api('GET', `/s/${f.submitters[1].slug}`, { headers: { 'Accept-Language': 'ja' } });
    expect(finnish.text).toContain('<html lang="en" dir="ltr">');
    expect(finnish.text).toContain('Loading the document…');
  });

  it('follows the submission’s language over the template’s, and the browser’s when nothing else is set', async () => {
    const both = await signingFixture({ preferences: { language: 'ja' }, submissionPreferences: { language: 'de' } });
    expect((await api('GET', `/s/${both.submitters[0].slug}`)).text).toContain('<html lang="de"');
    const template = await signingFixture({ preferences: { language: 'ja' } });
    expect((await api('GET', `/s/${template.submitters[0].slug}`, { headers: { 'Accept-Language': 'fr' } })).text).toContain(
      '<html lang="ja"',
    );
    const none = await signingFixture();
    const browser = await api('GET', `/s/${none.submitters[0].slug}`, { headers: { 'Accept-Language': 'fi, sv;q=0.9, en;q=0.5' } });
    expect(browser.text).toContain('<html lang="sv"');
  });

  it('keeps the language the signer picks with the switch for their link, over the submitter’s language', async () => {
    const f = await signingFixture({ submitters: [{ email: 'sam@example.com', language: 'de' }] });
    const slug = f.submitters[0].slug;
    const first = await api('GET', `/s/${slug}`);
    expect(first.text).toMatch(/<select id="language-select" name="lang">/);
    expect(first.text).toContain('<option value="ja" lang="ja">日本語</option>');
    const switched = await api('GET', `/s/${slug}?lang=ja`);
    expect(switched.text).toContain('<html lang="ja"');
    const cookie = switched.headers.get('Set-Cookie')!;
    expect(cookie).toMatch(new RegExp(`^signing_language_${slug}=ja;.*Path=/s/${slug}`));
    const later = await api('GET', `/s/${slug}`, { headers: { Cookie: cookie.split(';')[0] } });
    expect(later.text).toContain('<html lang="ja"');
    expect(later.text).toContain('<option value="ja" lang="ja" selected="">日本語</option>');
    // Another signer's link is not affected: the cookie is this link's.
    expect((await api('GET', `/s/${slug}`)).text).toContain('<html lang="de"');
  });

  it('records the disclosure accepted in the language shown, with that language’s version and hash', async () => {
    const f = await signingFixture({ submitters: [{ email: 'kenji@example.com', language: 'ja' }] });
    const slug = f.submitters[0].slug;
    const shown = pageData((await api('GET', `/s/${slug}`)).text).disclosure;
    const res = await page('POST', `/s/${slug}/consent`, { body: { version: shown.version, language: shown.locale } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ version: CATALOGS.ja['disclosure.version'], language: 'ja' });
    const [row] = await rowsOnAllShards<{ data: string }>(
      "SELECT data FROM submission_events WHERE submitter_id = ? AND action = 'disclosure_accepted'",
      f.submitters[0].id,
    );
    expect(JSON.parse(row.data)).toEqual({ version: shown.version, sha256: (await disclosureIn('ja')).sha256, language: 'ja' });
    expect((await disclosureIn('ja')).sha256).not.toBe((await disclosureIn('en')).sha256);
  });

  it('refuses a disclosure version that is not the shown language’s, changing nothing', async () => {
    const f = await signingFixture({ submitters: [{ email: 'omar@example.com', language: 'ar' }] });
    const res = await page('POST', `/s/${f.submitters[0].slug}/consent`, { body: { version: '2001-01-01', language: 'ar' } });
    expect(res.status).toBe(422);
    // Told in the language of the page, with both versions.
    expect(res.json.error).toBe(
      `الإصدار 2001-01-01 من الإفصاح ليس الإصدار الحالي (${CATALOGS.ar['disclosure.version']})؛ أعد تحميل الصفحة واقرأ الإفصاح الحالي.`,
    );
    expect((await submitterRow(f.submitters[0].id)).disclosure_accepted_at).toBeNull();
  });
});

describe('messages in the signer’s language', () => {
  it('writes the invitation in German for a German submitter, and keeps the sender’s own subject as written', async () => {
    await signingFixture({ submitters: [{ email: 'greta@example.com', name: 'Greta', language: 'de' }] });
    const [invitation] = await messagesTo('greta@example.com', 'invitation');
    expect(invitation.subject).toMatch(/hat Ihnen Signing test zum Unterzeichnen gesendet$/);
    expect(invitation.text).toContain('Guten Tag Greta,');
    expect(invitation.text).toContain('Prüfen und unterzeichnen: https://');
  });

  it('formats dates and plurals of German emails and SMS through Intl', () => {
    const context = {
      branding: { companyName: 'Acme', serviceName: 'Signing Service' },
      submitter: { name: 'Greta', email: 'greta@example.com', link: 'https://sign.test/s/abc' },
      template: { name: 'NDA' },
      submission: { expireAt: '2026-05-31T00:00:00.000Z' },
      locale: 'de' as const,
    };
    const expiry = composeEmail('expiry', context);
    expect(expiry.text).toContain('am 31. Mai 2026 abgelaufen');
    expect(expiry.html).toContain('<html lang="de" dir="ltr">');
    expect(composeSms('verification_code', { ...context, code: '123456' })).toBe(
      'Ihr Bestätigungscode für Acme lautet 123456. Er ist 10 Minuten gültig.',
    );
    expect(composeEmail('invitation', { ...context, locale: 'ar' }).html).toContain('<html lang="ar" dir="rtl">');
    const custom = composeEmail('invitation', { ...context, custom: { subject: 'Bitte {{template.name}} prüfen' } });
    expect(custom.subject).toBe('Bitte NDA prüfen');
  });
});

describe('the submitter’s language on the API', () => {
  it('is returned on submitters and carried in webhook payloads, in its canonical form', async () => {
    const f = await signingFixture({ submitters: [{ email: 'pia@example.com', language: 'pt-br' }] });
    const got = await api('GET', `/api/submitters/${f.submitters[0].id}`, { token: f.account.token });
    expect(got.json.language).toBe('pt-BR');
    const [created] = await eventsOf(f.account.accountId, 'form.created');
    expect(created.data.submitter.language).toBe('pt-BR');
  });

  it('changes with PUT /api/submitters/{id} and refuses a tag that is not BCP 47 with a sentence, changing nothing', async () => {
    const f = await signingFixture();
    const id = f.submitters[0].id;
    const put = await api('PUT', `/api/submitters/${id}`, { token: f.account.token, body: { language: 'uk' } });
    expect(put.status).toBe(200);
    expect(put.json.language).toBe('uk');
    expect((await api('GET', `/s/${f.submitters[0].slug}`)).text).toContain('<html lang="uk"');
    const bad = await api('PUT', `/api/submitters/${id}`, { token: f.account.token, body: { language: 'not a language!' } });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.json)).toContain('BCP 47');
    expect((await submitterRow(id)).language).toBe('uk');
  });

  it('refuses a submitter language that is not BCP 47 at create', async () => {
    const f = await signingFixture();
    const res = await api('POST', '/api/submissions', {
      token: f.account.token,
      body: { template_id: f.templateId, submitters: [{ email: 'x@example.com', language: '12' }] },
    });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.json)).toContain('BCP 47');
  });
});

describe('public-link pages', () => {
  it('speak the browser’s language', async () => {
    const res = await api('GET', '/l/not-a-token', { headers: { Accept: 'text/html', 'Accept-Language': 'de-CH, en;q=0.5' } });
    expect(res.status).toBe(404);
    expect(res.text).toContain('<html lang="de" dir="ltr">');
    expect(res.text).toContain('Link nicht gefunden');
  });
});
