// The invitation, reminder and completed emails a signer gets, in all 18 locales (issue 31 › bars): one
// file snapshot per locale (test/emails/__snapshots__/<locale>.txt), rendered through the path a
// submission's transitions take (messagesFor: branding resolved, language chosen, links, layout). A
// locale that loses a string shows English there: no English sentence of the messages may appear in
// another locale's email besides the names and links we put in.
import { describe, expect, it } from 'vitest';
import { CATALOGS } from '../../src/lib/i18n/catalogs';
import { LOCALES, directionOf, type Locale } from '../../src/shared/i18n/locales';
import { messagesFor, type MessageSource } from '../../src/services/submissions/notifications';
import type { MessageKind } from '../../src/services/mail/compose';
import type { NewMessage } from '../../src/db/schema/index';

const KINDS = ['invitation', 'reminder', 'completion'] as const satisfies readonly MessageKind[];

/** A submission as the transitions hand it over: an account's template with its branding. */
const source: MessageSource = {
  account: { id: 1, name: 'Acme Lettings', locale: 'en-US' },
  serviceName: 'Signing Service',
  submission: { id: 7, expireAt: '2026-12-31T00:00:00.000Z', preferences: {}, sendEmail: true },
  linkBase: 'https://sign.example.com',
  template: { name: 'Tenancy 2027', preferences: { primary_button_color: '#0f766e' } },
};

const signer = { name: 'Ann Lee', email: 'ann@example.com', slug: 'AbC123xyz', phone: null };

function emailsIn(locale: Locale): Record<(typeof KINDS)[number], NewMessage> {
  const channels = { email: true, sms: false, whatsapp: false };
  return Object.fromEntries(KINDS.map((kind) => [kind, messagesFor(kind, source, { ...signer, language: locale }, channels)[0]])) as Record<
    (typeof KINDS)[number],
    NewMessage
  >;
}

/** The English catalog's own words of the email messages, without their variables: what must not leak. */
function englishFragments(): string[] {
  const keys = Object.keys(CATALOGS.en).filter((k) => /^email\.(invitation|reminder|completion)\.|^email\.(open_link|sent_with)$/.test(k));
  return keys
    .flatMap((k) => CATALOGS.en[k].split(/\{[^}]*\}|\n+/))
    .map((fragment) => fragment.replace(/^[\s,.:;!]+|[\s,.:;!]+$/g, ''))
    .filter((fragment) => fragment.length >= 4);
}

/** Everything a recipient reads in one email: subject, plain text and the HTML part's text. */
function readable(message: NewMessage): string {
  const htmlText = (message.html ?? '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
  return [message.subject ?? '', message.text, htmlText].join('\n');
}

describe('signer emails in every locale', () => {
  const fragments = englishFragments();

  it('checks for leaks with the English words of every email kind', () => {
    expect(fragments).toEqual(
      expect.arrayContaining(['has sent you', 'to sign', 'Review and sign', 'Or open this link', 'Download your copy']),
    );
  });

  it.each(LOCALES)('%s: invitation, reminder and completed emails match their snapshot', async (locale) => {
    const emails = emailsIn(locale);
    const file = KINDS.map((kind) => {
      const m = emails[kind];
      return [`===== ${kind}`, `Subject: ${m.subject}`, '', m.text, '', '----- html', m.html, ''].join('\n');
    }).join('\n');
    await expect(file).toMatchFileSnapshot(`./__snapshots__/${locale}.txt`);
  });

  it.each(LOCALES.filter((l) => l !== 'en'))('%s: no English sentence leaks into the emails', (locale) => {
    for (const [kind, message] of Object.entries(emailsIn(locale))) {
      expect(message.html).toContain(`<html lang="${locale}" dir="${directionOf(locale)}">`);
      const text = readable(message);
      const leaked = fragments.filter((fragment) => text.includes(fragment));
      expect([kind, leaked]).toEqual([kind, []]);
      // The names and links we put in are there.
      expect(text).toContain('Tenancy 2027');
      expect(text).toContain('https://sign.example.com/s/AbC123xyz');
    }
  });
});
