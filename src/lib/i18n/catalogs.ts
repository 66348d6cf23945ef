// Every locale's catalog (src/shared/i18n/catalogs), for the server: pages, emails, SMS and the audit page.
// The signing page's script gets only its locale's `client.*` messages, inlined in the page (clientMessages).
import en from '../../shared/i18n/catalogs/en.json';
import es from '../../shared/i18n/catalogs/es.json';
import fr from '../../shared/i18n/catalogs/fr.json';
import de from '../../shared/i18n/catalogs/de.json';
import it from '../../shared/i18n/catalogs/it.json';
import ptBr from '../../shared/i18n/catalogs/pt-BR.json';
import ptPt from '../../shared/i18n/catalogs/pt-PT.json';
import nl from '../../shared/i18n/catalogs/nl.json';
import pl from '../../shared/i18n/catalogs/pl.json';
import cs from '../../shared/i18n/catalogs/cs.json';
import uk from '../../shared/i18n/catalogs/uk.json';
import tr from '../../shared/i18n/catalogs/tr.json';
import sv from '../../shared/i18n/catalogs/sv.json';
import ja from '../../shared/i18n/catalogs/ja.json';
import ko from '../../shared/i18n/catalogs/ko.json';
import zhHans from '../../shared/i18n/catalogs/zh-Hans.json';
import ar from '../../shared/i18n/catalogs/ar.json';
import he from '../../shared/i18n/catalogs/he.json';
import { DEFAULT_LOCALE, type Locale } from '../../shared/i18n/locales';
import { translator, type Catalog, type Translate } from '../../shared/i18n/translator';

export const CATALOGS: Record<Locale, Catalog> = {
  en,
  es,
  fr,
  de,
  it,
  'pt-BR': ptBr,
  'pt-PT': ptPt,
  nl,
  pl,
  cs,
  uk,
  tr,
  sv,
  ja,
  ko,
  'zh-Hans': zhHans,
  ar,
  he,
};

const translators = new Map<Locale, Translate>();

/** The translator of a locale (compiled messages kept for the isolate's life). */
export function translatorFor(locale: Locale): Translate {
  let t = translators.get(locale);
  if (!t) {
    t = translator(locale, CATALOGS[locale], CATALOGS[DEFAULT_LOCALE]);
    translators.set(locale, t);
  }
  return t;
}

/** The messages the signing page's script formats itself (the `client.` keys), in one locale. */
export function clientMessages(locale: Locale): Catalog {
  const english = CATALOGS[DEFAULT_LOCALE];
  const own = CATALOGS[locale];
  return Object.fromEntries(
    Object.keys(english)
      .filter((k) => k.startsWith('client.'))
      .map((k) => [k, own[k] ?? english[k]]),
  );
}
