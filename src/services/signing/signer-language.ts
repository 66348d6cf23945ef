// Which language a signer is served in (issue 31 › 2): the first source that is set decides, as
// integrators expect (a submitter's `language` is not overruled by the account's); a language we do not
// have falls back to its base (`de-AT` → `de`) and then English. Only the browser's Accept-Language, a
// list of its own, is walked until a tag of ours. An account's locale that is still the column's
// default (en-US) was never chosen, so it does not hide the browser's (docs/decisions.md › Signer languages).
import {
  acceptedLanguages,
  ACCOUNT_DEFAULT_LOCALE,
  chooseLocale,
  DEFAULT_LOCALE,
  matchLocale,
  type Locale,
} from '../../shared/i18n/locales';

export type LanguageSources = {
  /** The signer's own choice on the page (the language switch), kept for that signer. */
  chosen?: string | null;
  /** The submitter's `language` (API, create or update). */
  submitter?: string | null;
  /** The submission's `language`. */
  submission?: string | null;
  /** The template's `preferences.language`. */
  template?: unknown;
  /** The embedding host's `language` option (the frame's query). */
  embed?: string | null;
  /** The account's `locale` (e.g. `en-US`). */
  account?: string | null;
  /** The browser's `Accept-Language` header. */
  acceptLanguage?: string | null;
};

export function signerLocale(sources: LanguageSources): Locale {
  const set = [
    sources.chosen,
    sources.submitter,
    sources.submission,
    typeof sources.template === 'string' ? sources.template : null,
    sources.embed,
    sources.account === ACCOUNT_DEFAULT_LOCALE ? null : sources.account,
  ].find((tag) => typeof tag === 'string' && tag.trim() !== '');
  if (set) return matchLocale(set) ?? DEFAULT_LOCALE;
  return chooseLocale(acceptedLanguages(sources.acceptLanguage));
}
