// The electronic-records disclosure a signer accepts before signing (ESIGN Act 15 U.S.C. §7001(c),
// UETA §5; issue 18 › 5). Versioned: a change to the text is a new version with its own SHA-256, and
// the trail records which version (and hash) each signer accepted.

import { translatorFor } from '../../lib/i18n/catalogs';
import type { Translate } from '../../shared/i18n/translator';
import type { Locale } from '../../shared/i18n/locales';

export type Disclosure = { version: string; title: string; sections: { heading: string; text: string }[] };

/**
 * The disclosure in one language, from its catalog (src/shared/i18n/catalogs): each language's text
 * carries its own version (`disclosure.version`), so a translation changes its version and hash only.
 */
export function disclosureOf(t: Translate): Disclosure {
  return {
    version: t('disclosure.version'),
    title: t('disclosure.title'),
    sections: [
      { heading: t('disclosure.records.heading'), text: t('disclosure.records.text') },
      { heading: t('disclosure.paper.heading'), text: t('disclosure.paper.text') },
      { heading: t('disclosure.withdraw.heading'), text: t('disclosure.withdraw.text') },
      { heading: t('disclosure.system.heading'), text: t('disclosure.system.text') },
      { heading: t('disclosure.contact.heading'), text: t('disclosure.contact.text') },
    ],
  };
}

/** The English disclosure: the text every translation renders (built when asked, not at isolate start). */
export function englishDisclosure(): Disclosure {
  return disclosureOf(translatorFor('en'));
}

const shown = new Map<Locale, Promise<{ disclosure: Disclosure; sha256: string }>>();

/** The disclosure as shown in `locale`, with the SHA-256 of its text (computed once per isolate). */
export function disclosureIn(locale: Locale): Promise<{ disclosure: Disclosure; sha256: string }> {
  let hit = shown.get(locale);
  if (!hit) {
    const disclosure = disclosureOf(translatorFor(locale));
    hit = disclosureSha256(disclosure).then((sha256) => ({ disclosure, sha256 }));
    shown.set(locale, hit);
  }
  return hit;
}

/** SHA-256 (hex) of the disclosure text as shown: a test keeps it equal to disclosureSha256(englishDisclosure()). */
export const DISCLOSURE_SHA256 = 'ccc8dd915589d0e89dd25237260138efb2573f20645be13a87f1220daaee3d1c';

/** The text the hash covers: the title and every heading and paragraph, one per line, in order. */
export function disclosureText(disclosure: Disclosure): string {
  return [disclosure.title, ...disclosure.sections.flatMap((s) => [s.heading, s.text])].join('\n');
}

export async function disclosureSha256(disclosure: Disclosure): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(disclosureText(disclosure)));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
