// DOCX parts read within bounds (src/services/documents/docx.ts): header text in one forward pass, and
// an unzip that refuses an oversized part naming the limit and inflates only the parts asked for.
import { strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { docxHeaderFooter, HEADER_FOOTER_PARTS, paragraphTexts, unzipDocx } from '../../src/services/documents/docx';
import { UnusableDocument } from '../../src/services/pdf/inspect-pdf';
import { buildDocx, paragraph } from '../docx-fixtures';

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

/** Runs `read`, logging how long it took (never asserted). */
function timed<T>(label: string, read: () => T): T {
  const started = performance.now();
  try {
    return read();
  } finally {
    console.log(`docx bounds: ${label} in ${Math.round(performance.now() - started)} ms`);
  }
}

function refusal(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    if (error instanceof UnusableDocument) return error.message;
    throw error;
  }
  throw new Error('not refused');
}

describe('paragraphTexts', () => {
  it('joins the text runs of each paragraph, skipping properties, tabs and empty runs', () => {
    const xml =
      `<w:hdr ${W}><w:p w:rsidR="00A1"><w:pPr><w:jc w:val="right"/></w:pPr><w:r><w:t>Acme </w:t></w:r><w:r><w:tab/><w:t xml:space="preserve">Ltd &amp; Co</w:t><w:t/></w:r></w:p>` +
      `<w:p/><w:p><w:r><w:t>Second</w:t></w:r></w:p><w:tbl/></w:hdr>`;
    expect(paragraphTexts(xml)).toEqual(['Acme Ltd &amp; Co', 'Second']);
  });

  it('reads a header of 150,000 unclosed <w:p > as no text, in one pass', () => {
    const xml = `<w:hdr ${W}>${'<w:p >'.repeat(150_000)}</w:hdr>`;
    expect(timed('150,000 unclosed <w:p', () => docxHeaderFooter({ 'word/header1.xml': strToU8(xml) }))).toEqual({
      header: undefined,
      footer: undefined,
    });
  });

  it('reads a paragraph of 150,000 unclosed <w:t > as no text, in one pass', () => {
    const xml = `<w:hdr ${W}><w:p>${'<w:t >'.repeat(150_000)}</w:p>${paragraph('After')}</w:hdr>`;
    expect(timed('150,000 unclosed <w:t', () => paragraphTexts(xml))).toEqual(['', 'After']);
  });
});

describe('unzipDocx', () => {
  it('refuses a 60 MB image, naming the 10 MB limit for one part', () => {
    const docx = zipSync({ ...unzipSync(buildDocx(paragraph('Hello'))), 'word/media/image1.png': new Uint8Array(60 * 1024 * 1024) });
    expect(timed('a 60 MB image', () => refusal(() => unzipDocx(docx)))).toBe(
      'has a part (word/media/image1.png) that expands past 10 MB, the limit for one image or other part of a DOCX',
    );
  });

  it('refuses parts that together expand past 32 MB', () => {
    const media = Object.fromEntries([1, 2, 3, 4].map((n) => [`word/media/image${n}.png`, new Uint8Array(9 * 1024 * 1024)]));
    const docx = zipSync({ ...unzipSync(buildDocx(paragraph('Hello'))), ...media });
    expect(refusal(() => unzipDocx(docx))).toBe('expands to more than 32 MB when unzipped');
  });

  it('inflates only the header and footer parts when asked for them', () => {
    const docx = zipSync({
      ...unzipSync(buildDocx(paragraph('Body'), { header: 'Top', footer: 'Bottom' })),
      'word/media/image1.png': new Uint8Array(8),
    });
    expect(Object.keys(unzipDocx(docx, HEADER_FOOTER_PARTS)).sort()).toEqual(['word/footer1.xml', 'word/header1.xml']);
  });
});
