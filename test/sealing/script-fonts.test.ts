// Scripts in the sealed PDF (issue 31 › 3): values typed in Arabic, Hebrew, Japanese, Chinese and Korean
// are stamped with a font that has them (Arabic joined, Hebrew and Arabic right to left), and the audit
// page is in the language the signer saw, says which, and keeps names as entered. Read back from the
// really sealed file with pdftotext and pdffonts; pdfsig and qpdf check the file. The trail's events are
// named and described in that language too, with dates written by Intl in it.
import { env, SELF } from 'cloudflare:test';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client';
import { listSubmissionEvents } from '../../src/db/queries/submissions';
import { SUBMISSION_EVENT_ACTIONS, type SubmissionEvent } from '../../src/db/schema/index';
import { CATALOGS, translatorFor } from '../../src/lib/i18n/catalogs';
import { languageLine } from '../../src/services/pdf/audit-page';
import { assetFonts, DocumentFonts } from '../../src/services/pdf/fonts';
import { auditTrailFor, EVENT_NAMES } from '../../src/services/sealing/audit-trail';
import type { SubmissionScope } from '../../src/services/submissions/submission-scope';
import { LOCALES, type Locale } from '../../src/shared/i18n/locales';
import { api, shardOf } from '../helpers';
import { checkPdf, placedWords, type PdfCheck } from '../pdf-tools';
import { seal } from '../document-link-fixtures';
import { page, signingFixture } from '../signing/fixtures';

/** A one-signer form in `language`, the signer's name and the typed value in that script, sealed; with its trail. */
async function sealedIn(language: Locale, name: string, value: string): Promise<PdfCheck & { events: SubmissionEvent[] }> {
  const f = await signingFixture({
    fields: [
      { name: 'Value', type: 'text' },
      { name: 'Signature', type: 'signature' },
    ],
    submitters: [{ email: `script-${language}-${crypto.randomUUID()}@example.com`, name, language }],
  });
  const slug = f.submitters[0].slug;
  const consent = await page('POST', `/s/${slug}/consent`, { body: { version: CATALOGS[language]['disclosure.version'], language } });
  expect(consent.status).toBe(200);
  const submit = await page('POST', `/s/${slug}/submit`, { body: { values: { [f.field('Value')]: value, [f.field('Signature')]: name } } });
  expect(submit.status).toBe(200);
  await seal(f.account, f.submissionId);
  const list = await api('GET', `/api/submissions/${f.submissionId}/documents`, { token: f.account.token });
  expect(list.json.sealed).toBe(true);
  const res = await SELF.fetch(`https://api.test/api/submissions/${f.submissionId}/documents/${list.json.documents[0].id}`, {
    headers: { 'X-Auth-Token': f.account.token },
  });
  const check = await checkPdf(new Uint8Array(await res.arrayBuffer()));
  expect(check.pdfsig.output).toContain('Signature is Valid.');
  expect(check.qpdf.code).toBe(0);
  expect(check.qpdf.output).toContain('No syntax or stream encoding errors found');
  return { ...check, events: await listSubmissionEvents(createDb(await shardOf(f.account.accountId)), f.submissionId) };
}

/** The text of the document's own pages (before the audit trail, which starts with its title). */
function stampedText(check: PdfCheck, language: Locale): string {
  return check.text.output.split(CATALOGS[language]['audit.title'])[0]!;
}

/** The audit trail pages' text. */
function auditText(check: PdfCheck, language: Locale): string {
  const title = CATALOGS[language]['audit.title'];
  return check.text.output.slice(check.text.output.indexOf(title));
}

/** pdffonts rows: name, and whether embedded and subset. */
function fonts(check: PdfCheck): { name: string; embedded: boolean; subset: boolean }[] {
  return check.fonts.output
    .split('\n')
    .slice(2)
    .filter(Boolean)
    .map((line) => {
      const cells = line.trim().split(/\s+/);
      // name type [type…] encoding emb sub uni object ID: from the end, emb is the 6th last cell.
      return { name: cells[0]!, embedded: cells.at(-5) === 'yes', subset: cells.at(-4) === 'yes' };
    });
}

/** Every font but the standard 14 is embedded as a subset (tagged `ABCDEF+`), and one holds `family`. */
function expectEmbeddedSubsets(check: PdfCheck, family: string) {
  const custom = fonts(check).filter((f) => !/^Helvetica/.test(f.name));
  expect(custom.length).toBeGreaterThan(0);
  for (const font of custom) expect(font, font.name).toMatchObject({ embedded: true, subset: true });
  expect(custom.some((f) => new RegExp(`^[A-Z]{6}\\+${family}`).test(f.name))).toBe(true);
}

describe('scripts in the sealed PDF', () => {
  it('draws the audit page in Hebrew, right to left, naming the language, with a Hebrew name and value', async () => {
    const check = await sealedIn('he', 'דוד כהן', 'שלום עולם 2026');
    const trail = auditText(check, 'he');
    const he = CATALOGS.he;
    for (const key of ['audit.signers', 'audit.language', 'audit.events'] as const) expect(trail).toContain(he[key]);
    // "עברית (Hebrew, he)" right to left. pdftotext gives a line whose Latin part it shows left of the
    // Hebrew word either in that visual order or, on a page it reads as right to left (all of it Hebrew
    // now that the events are too), in logical order with the parentheses as drawn; bidi marks dropped.
    expect(trail.replace(/[\u202a-\u202e]/g, '')).toMatch(/\(Hebrew, he\) עברית|עברית \)\(Hebrew, he/);
    // The name as entered, in logical order as pdftotext reads it back.
    expect(trail).toContain('דוד כהן');
    expect(stampedText(check, 'he')).toContain('שלום עולם');
    expect(stampedText(check, 'he')).toContain('2026');
    expectEmbeddedSubsets(check, 'DejaVuSans');
    // Mirrored: the Hebrew labels sit at the right margin of the page. pdftotext -bbox gives a word's
    // characters in the order drawn, so the label's first word (rightmost) reads reversed there.
    const first = he['audit.language'].split(' ')[0]!;
    const label = placedWords(check.bbox).find((w) => w.text === [...first].reverse().join(''));
    expect(label, he['audit.language']).toBeDefined();
    expect(label!.xMax).toBeGreaterThan(595.28 - 48 - 2);
  });

  it('draws the audit page in Japanese with Noto Sans CJK, and the Japanese value on the page', async () => {
    const check = await sealedIn('ja', '山田太郎', '東京都千代田区');
    const trail = auditText(check, 'ja');
    for (const key of ['audit.signers', 'audit.language', 'audit.events'] as const) expect(trail).toContain(CATALOGS.ja[key]);
    expect(trail).toContain('日本語 (Japanese, ja)');
    expect(trail).toContain('山田太郎');
    expect(stampedText(check, 'ja')).toContain('東京都千代田区');
    expect(check.text.output).not.toContain('????');
    expectEmbeddedSubsets(check, 'NotoSansCJKjp-Regular');
  });

  it('stamps an Arabic value joined and right to left, and reads it back in logical order', async () => {
    const check = await sealedIn('ar', 'ليلى حسن', 'مرحبا بالعالم');
    expect(stampedText(check, 'ar')).toContain('مرحبا بالعالم');
    expect(auditText(check, 'ar')).toContain('ليلى حسن');
    expectEmbeddedSubsets(check, 'DejaVuSans');
  });

  it('stamps Chinese and Korean values with the CJK font', async () => {
    const zh = await sealedIn('zh-Hans', '王小明', '北京市海淀区');
    expect(stampedText(zh, 'zh-Hans')).toContain('北京市海淀区');
    expect(auditText(zh, 'zh-Hans')).toContain('王小明');
    expectEmbeddedSubsets(zh, 'NotoSansCJKjp-Regular');
    const ko = await sealedIn('ko', '김민준', '서울특별시');
    expect(stampedText(ko, 'ko')).toContain('서울특별시');
    expect(auditText(ko, 'ko')).toContain('김민준');
  });
});

/** Text compared without its spacing: pdftotext breaks the page's wrapped lines, CJK ones inside words. */
const unspaced = (text: string) => text.replace(/\s+/g, '');

/** What the page's disclosure line says for the trail's accepted disclosure, in `language`. */
function disclosureDetail(events: SubmissionEvent[], language: Locale): string {
  const accepted = events.find((e) => e.action === 'disclosure_accepted')!;
  return translatorFor(language)('audit.detail.disclosure_accepted', {
    version: String(accepted.data.version),
    sha256: String(accepted.data.sha256),
    language: languageLine(language),
    userAgent: accepted.userAgent ?? '—',
  });
}

/** Every event of the trail is named in `language` on the page; none by its English name. */
function expectEventNames(trail: string, events: SubmissionEvent[], language: Locale) {
  const catalog = CATALOGS[language];
  const actions = [...new Set(events.map((e) => e.action))];
  expect(actions).toEqual(expect.arrayContaining(['created', 'disclosure_accepted', 'completed', 'submission_completed']));
  for (const action of actions) {
    const key = EVENT_NAMES[action as keyof typeof EVENT_NAMES];
    expect(unspaced(trail), action).toContain(unspaced(catalog[key]!));
    expect(trail, action).not.toContain(`${action.replace(/_/g, ' ')} ·`);
  }
  // The sender created the submission: named in the page's language.
  expect(trail).toContain(`${catalog['audit.event.created']} · ${catalog['audit.actor.sender']}`);
}

describe('the audit trail events in the page language', () => {
  // German "27.11.2026, 18:05:03 UTC" (day first, dots), Japanese "2026/11/27 18:05:03 UTC": 24-hour clock, in UTC.
  it.each([
    {
      language: 'de',
      name: 'Jörg Müller',
      value: 'Grüße aus Köln',
      words: 'Offenlegung zu elektronischen Dokumenten in der Version',
      date: /\b\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}:\d{2} UTC\b/,
    },
    {
      language: 'ja',
      name: '佐藤花子',
      value: '大阪府大阪市',
      words: '電子記録に関する説明のバージョン',
      date: /\b\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} UTC\b/,
    },
  ] as const)('names and describes the events in $language, keeping version and hash, with its dates', async ({
    language,
    name,
    value,
    words,
    date,
  }) => {
    const check = await sealedIn(language, name, value);
    const trail = auditText(check, language);
    expectEventNames(trail, check.events, language);
    const detail = disclosureDetail(check.events, language);
    expect(detail).toContain(words);
    expect(unspaced(trail)).toContain(unspaced(detail));
    expect(trail).not.toContain('Accepted the electronic records disclosure');
    // The signer's state and how they were verified, in the same language.
    expect(trail).toContain(CATALOGS[language]['audit.signer_status.completed']);
    expect(trail).toContain(CATALOGS[language]['audit.verification_method.link']);
    expect(trail).not.toContain('Personal signing link');
    expect(trail).toMatch(date);
    expect(trail).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);
  });
});

describe('the names of trail actions', () => {
  it('gives every action a trail row can have a catalog key, written in every locale', () => {
    for (const action of SUBMISSION_EVENT_ACTIONS) {
      const key = EVENT_NAMES[action];
      expect(key, action).toBe(`audit.event.${action}`);
      for (const locale of LOCALES) expect(CATALOGS[locale][key], `${locale} ${action}`).toBeTruthy();
      // Written for each language, not copied from English (the names are words in every one of them).
      for (const locale of LOCALES.filter((l) => l !== 'en'))
        expect(CATALOGS[locale][key], `${locale} ${action}`).not.toBe(CATALOGS.en[key]);
    }
  });

  it('names an action outside the list by its own words, and the known ones in the page language', () => {
    const event = (id: number, action: string, data: Record<string, unknown> = {}) =>
      ({
        id,
        accountId: 1,
        submissionId: 1,
        submitterId: 7,
        action,
        ip: null,
        userAgent: null,
        data,
        createdAt: '2026-11-27T12:00:00.000Z',
      }) as SubmissionEvent;
    const scope = {
      submission: { id: 1, slug: 'abc', completedAt: null },
      submitters: [{ id: 7, email: 'jo@example.com', name: 'Jo', role: 'First Party', values: {} }],
      template: { name: 'T', fields: [] },
    } as unknown as SubmissionScope;
    const trail = auditTrailFor(
      scope,
      [
        event(1, 'disclosure_accepted', { version: 'v1', sha256: 'ab'.repeat(32), language: 'de' }),
        event(2, 'legacy_thing'),
        event(3, 'completed'),
      ],
      'doc.pdf',
      'Signing',
    );
    expect(trail.locale).toBe('de');
    expect(trail.events.map((e) => e.event)).toEqual([
      CATALOGS.de['audit.event.disclosure_accepted'],
      'legacy thing',
      CATALOGS.de['audit.event.completed'],
    ]);
    expect(trail.events[0]!.detail).toContain(`Version v1 (SHA-256 ${'ab'.repeat(32)}) auf Deutsch (German, de)`);
  });
});

describe('the font choice for single-font callers (AcroForm appearances)', () => {
  it('gives mostly Japanese text the CJK font from the static assets, and keeps what it lacks as ?', async () => {
    const fonts = new DocumentFonts(await PDFDocument.create(), assetFonts(env.ASSETS));
    const { font, text } = await fonts.forText('山田太郎 Ω');
    expect(font.name).toBe('NotoSansCJKjp-Regular');
    expect(text).toBe('山田太郎 ?');
  });
});
