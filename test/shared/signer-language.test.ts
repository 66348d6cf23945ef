// Which language a signer is served in (issue 31 › 2): the order of the sources, the fallback from a
// regional tag to its base and then English, and the browser's Accept-Language list.
import { describe, expect, it } from 'vitest';
import { signerLocale } from '../../src/services/signing/signer-language';
import { acceptedLanguages, matchLocale } from '../../src/shared/i18n/locales';

describe('matching a language tag to a locale of ours', () => {
  it('takes a locale of ours as it is, whatever its case or separator', () => {
    expect([matchLocale('de'), matchLocale('PT-br'), matchLocale('zh_hans'), matchLocale('ar')]).toEqual(['de', 'pt-BR', 'zh-Hans', 'ar']);
  });

  it('falls back from a regional tag to its base language', () => {
    expect([matchLocale('de-AT'), matchLocale('fr-CA'), matchLocale('es-419'), matchLocale('pt'), matchLocale('zh-CN')]).toEqual([
      'de',
      'fr',
      'es',
      'pt-BR',
      'zh-Hans',
    ]);
  });

  it('has nothing for a language we do not serve, Traditional Chinese included, or for a malformed tag', () => {
    expect([matchLocale('fi'), matchLocale('zh-TW'), matchLocale('zh-Hant'), matchLocale('"><script>'), matchLocale('')]).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
  });
});

describe('the Accept-Language header', () => {
  it('lists tags by quality, keeping the order of equals and dropping * and q=0', () => {
    expect(acceptedLanguages('fr-CH, fr;q=0.9, en;q=0.8, de;q=0.95, *;q=0.5, ja;q=0')).toEqual(['fr-CH', 'de', 'fr', 'en']);
  });
});

describe('choosing a signer’s language', () => {
  const all = {
    chosen: 'ja',
    submitter: 'de',
    submission: 'fr',
    template: 'es',
    embed: 'it',
    account: 'nl-NL',
    acceptLanguage: 'pl',
  };

  it('lets the signer’s own choice on the page win, then the submitter’s language', () => {
    expect(signerLocale(all)).toBe('ja');
    expect(signerLocale({ ...all, chosen: null })).toBe('de');
  });

  it('then the submission’s, the template’s, the embed option, the account’s locale and the browser’s, in that order', () => {
    const { submitter, ...rest } = all;
    void submitter;
    expect(signerLocale({ ...rest, chosen: null })).toBe('fr');
    expect(signerLocale({ ...rest, chosen: null, submission: null })).toBe('es');
    expect(signerLocale({ ...rest, chosen: null, submission: null, template: null })).toBe('it');
    expect(signerLocale({ ...rest, chosen: null, submission: null, template: null, embed: null })).toBe('nl');
    expect(signerLocale({ acceptLanguage: 'pl, en;q=0.5' })).toBe('pl');
    expect(signerLocale({})).toBe('en');
  });

  it('serves the base of a regional tag, and English for a language we lack, rather than asking the next source', () => {
    expect(signerLocale({ submitter: 'de-AT', account: 'fr-FR' })).toBe('de');
    expect(signerLocale({ submitter: 'fi', account: 'fr-FR', acceptLanguage: 'ja' })).toBe('en');
  });

  it('walks the browser’s list to the first language we serve', () => {
    expect(signerLocale({ acceptLanguage: 'fi-FI, fi;q=0.9, sv;q=0.8, en;q=0.7' })).toBe('sv');
  });

  it('does not let an account locale that is still the default (en-US) hide the browser’s language', () => {
    expect(signerLocale({ account: 'en-US', acceptLanguage: 'ko-KR' })).toBe('ko');
    expect(signerLocale({ account: 'en-GB', acceptLanguage: 'ko-KR' })).toBe('en');
  });

  it('ignores a template language that is not text', () => {
    expect(signerLocale({ template: 42, account: 'uk-UA' })).toBe('uk');
  });
});
