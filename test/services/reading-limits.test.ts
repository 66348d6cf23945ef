// What pdf.js may decode and draw (src/services/pdf/reading-limits.ts): the Do count over content
// tokens, and the hostile files refused before pdf.js opens them, with the limit named.
import { PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { loadPdf } from '../../src/services/pdf/load-pdf';
import { openPdfJsDocument } from '../../src/services/pdf/pdfjs';
import { assertWithinReadingLimits, countDraws, READING_LIMITS, ReadingLimitExceeded } from '../../src/services/pdf/reading-limits';
import { makeForm } from '../fixtures/forms/made-form';
import { formDrawnTimes, spacesBehindType0Font, type3GlyphDrawingForm, withHugeImage } from '../fixtures/hostile-reading';
import { fromLatin1 } from '../fixtures/pdfs';

/** The reason the file is refused, or undefined; logs how long the measuring took (never asserted). */
async function refusal(label: string, bytes: Uint8Array): Promise<string | undefined> {
  const pdf = await loadPdf(bytes, { updateMetadata: false });
  const started = performance.now();
  try {
    assertWithinReadingLimits(pdf, 500);
    return undefined;
  } catch (error) {
    if (!(error instanceof ReadingLimitExceeded)) throw error;
    return error.message;
  } finally {
    console.log(`reading limits: ${label} measured in ${Math.round(performance.now() - started)} ms`);
  }
}

describe('countDraws', () => {
  it('counts each Do by the name before it, escapes undone and comments skipped', () => {
    const draws = countDraws(fromLatin1('q /X0 Do Q /X0 Do /X#31 % a comment\n Do /F1 12 Tf'));
    expect([...draws]).toEqual([
      ['X0', 2],
      ['X1', 1],
    ]);
  });

  it('does not count a Do inside a string, a hex string or inline image data', () => {
    const content = '(/X0 Do \\) /X0 Do) Tj <2F58> Tj /Span <</MCID 0>> BDC BI /W 4 /H 1 /CS /G /BPC 8 ID /X0 Do\nEI /X2 Do';
    expect([...countDraws(fromLatin1(content))]).toEqual([['X2', 1]]);
  });
});

describe('assertWithinReadingLimits', () => {
  it('lets an ordinary form through', async () => {
    expect(await refusal('drawn form', await makeForm())).toBeUndefined();
  });

  it('refuses a gigabyte of deflated spaces behind a Type0 font, naming the 32 MB limit', async () => {
    expect(await refusal('1 GB of spaces', await spacesBehindType0Font(1))).toBe(
      "page 1 needs more than 32 MB of decoded streams (its content, form XObjects, fonts and the pages before it), the limit for reading a PDF's text",
    );
  });

  it('refuses a form XObject drawn a million times, naming the 20,000 draws limit', async () => {
    expect(await refusal('a form drawn 1,000,000 times', await formDrawnTimes(1_000_000))).toBe(
      "page 1 draws form XObjects more than 20,000 times with the pages before it, counting forms inside forms, the limit for reading a PDF's text",
    );
  });

  it('refuses a Type3 glyph that draws a form a million times, naming the 20,000 draws limit', async () => {
    expect(await refusal('a Type3 glyph drawing a form 1,000,000 times', await type3GlyphDrawingForm(1_000_000))).toMatch(
      /^page 1 draws form XObjects more than 20,000 times/,
    );
  });

  it('lets a Type3 glyph that draws a form once through', async () => {
    expect(await refusal('a Type3 glyph drawing a form once', await type3GlyphDrawingForm(1))).toBeUndefined();
  });

  it('lets a form drawn a hundred times through', async () => {
    expect(await refusal('a form drawn 100 times', await formDrawnTimes(100))).toBeUndefined();
  });

  it('counts forms inside forms every time the outer form is drawn', async () => {
    // /Outer draws /Inner 200 times; the page draws /Outer 200 times: 40,200 draws from 400 Do's.
    const pdf = await PDFDocument.create();
    const page = pdf.addPage([612, 792]);
    const inner = pdf.context.register(
      PDFRawStream.of(pdf.context.obj({ Subtype: 'Form', BBox: [0, 0, 10, 10] }), fromLatin1('0 0 m 1 1 l S')),
    );
    const outer = pdf.context.register(
      PDFRawStream.of(
        pdf.context.obj({ Subtype: 'Form', BBox: [0, 0, 10, 10], Resources: { XObject: { Inner: inner } } }),
        fromLatin1('/Inner Do\n'.repeat(200)),
      ),
    );
    page.node.set(PDFName.of('Resources'), pdf.context.obj({ XObject: { Outer: outer } }));
    page.node.set(
      PDFName.of('Contents'),
      pdf.context.register(PDFRawStream.of(pdf.context.obj({}), fromLatin1('/Outer Do\n'.repeat(200)))),
    );
    expect(await refusal('nested forms', await pdf.save())).toMatch(/^page 1 draws form XObjects more than 20,000 times/);
  });

  it('measures a form without resources of its own with each page’s resources', async () => {
    // /Shared draws /X1: a short line on page 1, a form drawing /Line 30,000 times on page 2.
    const pdf = await PDFDocument.create();
    const form = (content: string) => PDFRawStream.of(pdf.context.obj({ Subtype: 'Form', BBox: [0, 0, 10, 10] }), fromLatin1(content));
    const shared = pdf.context.register(form('/X1 Do'));
    const line = pdf.context.register(form('0 0 m 1 1 l S'));
    const drawingLines = form('/Line Do\n'.repeat(30_000));
    drawingLines.dict.set(PDFName.of('Resources'), pdf.context.obj({ XObject: { Line: line } }));
    const heavy = pdf.context.register(drawingLines);
    for (const x1 of [line, heavy]) {
      const page = pdf.addPage([612, 792]);
      page.node.set(PDFName.of('Resources'), pdf.context.obj({ XObject: { Shared: shared, X1: x1 } }));
      page.node.set(PDFName.of('Contents'), pdf.context.register(PDFRawStream.of(pdf.context.obj({}), fromLatin1('/Shared Do'))));
    }
    expect(await refusal('a shared form drawing each page’s own X1', await pdf.save())).toMatch(
      /^page 2 draws form XObjects more than 20,000 times/,
    );
  });

  it('refuses a form that draws itself', async () => {
    const pdf = await PDFDocument.create();
    const page = pdf.addPage([612, 792]);
    const ref = pdf.context.nextRef();
    pdf.context.assign(
      ref,
      PDFRawStream.of(
        pdf.context.obj({ Subtype: 'Form', BBox: [0, 0, 10, 10], Resources: { XObject: { Me: ref } } }),
        fromLatin1('/Me Do'),
      ),
    );
    page.node.set(PDFName.of('Resources'), pdf.context.obj({ XObject: { Me: ref } }));
    page.node.set(PDFName.of('Contents'), pdf.context.register(PDFRawStream.of(pdf.context.obj({}), fromLatin1('/Me Do'))));
    expect(await refusal('a form drawing itself', await pdf.save())).toBe('page 1 draws a form XObject inside itself, which never ends');
  });

  it('does not decode a 10000 × 10000 image, which pdf.js is told to skip', async () => {
    expect(READING_LIMITS.imagePixels).toBeLessThan(10_000 * 10_000);
    expect(await refusal('a 10000 × 10000 image', await withHugeImage(await makeForm()))).toBeUndefined();
  });
});

describe('pdf.js as opened for reading', () => {
  it('leaves a 10000 × 10000 image undrawn and undecoded', { timeout: 120_000 }, async () => {
    const { pdfjs, task } = await openPdfJsDocument(await withHugeImage(await makeForm()));
    try {
      const page = await (await task.promise).getPage(1);
      const started = performance.now();
      const { fnArray } = await page.getOperatorList({ annotationMode: pdfjs.AnnotationMode.DISABLE });
      console.log(`reading limits: operator list of a page with a 10000 × 10000 image in ${Math.round(performance.now() - started)} ms`);
      expect(fnArray).not.toContain(pdfjs.OPS.paintImageXObject);
      expect(fnArray).toContain(pdfjs.OPS.constructPath);
    } finally {
      await task.destroy();
    }
  });
});
