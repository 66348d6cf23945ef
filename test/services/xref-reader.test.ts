// The fast read of uploads: page geometry through the xref, the same answer pdf-lib's full parse gives,
// and `undefined` (the full parse decides) for anything it does not follow.
import { describe, expect, it } from 'vitest';
import { PDFDocument, PDFHexString, PDFName, PDFNumber, PDFString } from 'pdf-lib';
import { readThroughXref } from '../../src/services/pdf/xref-reader';
import { inspectPdf } from '../../src/services/pdf/inspect-pdf';
import { describeOriginal, writeIncrementalUpdate } from '../../src/services/pdf/incremental-update';
import { makeEncryptedPdf, makePdf, realWorldPdf } from '../fixtures/pdfs';
import { handWrittenPdf, withHybridXref, withPredictedXrefStream } from '../fixtures/xref-forms';

/** What pdf-lib's full parse says about the same file. */
async function fullParse(bytes: Uint8Array) {
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true });
  const pages = pdf.getPages().map((page) => {
    const { width, height } = page.getCropBox();
    return { width, height, rotate: page.getRotation().angle };
  });
  return { encrypted: pdf.isEncrypted, pages };
}

/** Three pages of different sizes, the middle one rotated, the last with a crop box. */
async function mixedPages(useObjectStreams: boolean): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.addPage([612, 792]);
  pdf.addPage([595.28, 841.89]).setRotation({ type: 'degrees', angle: 90 } as never);
  pdf.addPage([1000, 500]).setCropBox(10, 20, 300.5, 400.25);
  return pdf.save({ useObjectStreams });
}

const PAGE = '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>';

describe('readThroughXref', () => {
  it('reads a pdf-lib file with object streams and an xref stream as the full parse does', async () => {
    const bytes = await mixedPages(true);
    expect(await readThroughXref(bytes)).toEqual(await fullParse(bytes));
    expect((await readThroughXref(bytes))?.pages[2]).toEqual({ width: 300.5, height: 400.25, rotate: 0 });
  });

  it('reads a classic xref table as the full parse does', async () => {
    const bytes = await mixedPages(false);
    expect(await readThroughXref(bytes)).toEqual(await fullParse(bytes));
  });

  it('reads the real-world file as the full parse does', async () => {
    const bytes = realWorldPdf();
    const reading = await readThroughXref(bytes);
    expect(reading?.pages).toHaveLength(17);
    expect(reading).toEqual(await fullParse(bytes));
  });

  it('decodes an xref stream written with every PNG predictor', async () => {
    const bytes = await withPredictedXrefStream(await makePdf(12, [500, 700], {}).then(reSaveWithTable));
    expect(await readThroughXref(bytes)).toEqual({ encrypted: false, pages: Array(12).fill({ width: 500, height: 700, rotate: 0 }) });
  });

  it('finds the objects a hybrid file lists only in its /XRefStm stream', async () => {
    const original = await mixedPages(false);
    const pdf = await PDFDocument.load(original);
    const moved = pdf.getPages().map((page) => page.ref.objectNumber);
    const reading = await readThroughXref(withHybridXref(original, moved));
    expect(reading).toEqual(await fullParse(original));
  });

  it.each([
    ['a table', false],
    ['an xref stream', true],
  ])('takes the newest page box after an incremental update to a file with %s', async (_, useObjectStreams) => {
    const original = await makePdf(2, [612, 792]).then((b) => (useObjectStreams ? b : reSaveWithTable(b)));
    const pdf = await PDFDocument.load(original, { updateMetadata: false });
    const described = describeOriginal(original, pdf);
    const page = pdf.getPage(1);
    page.setMediaBox(0, 0, 300, 200);
    const { bytes } = writeIncrementalUpdate(pdf, described, [page.ref]);
    expect((await readThroughXref(bytes))?.pages).toEqual([
      { width: 612, height: 792, rotate: 0 },
      { width: 300, height: 200, rotate: 0 },
    ]);
  });

  it('inherits the media box and rotation from the page tree', async () => {
    const bytes = handWrittenPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 /MediaBox [0 0 400 300] /Rotate 270 >>',
      '<< /Type /Page /Parent 2 0 R >>',
      '<< /Type /Page /Parent 2 0 R /Rotate 0 /CropBox [5 5 105 55] >>',
    ]);
    expect(await readThroughXref(bytes)).toEqual({
      encrypted: false,
      pages: [
        { width: 400, height: 300, rotate: 270 },
        { width: 100, height: 50, rotate: 0 },
      ],
    });
    expect(await readThroughXref(bytes)).toEqual(await fullParse(bytes));
  });

  it('skims past strings, hex strings, comments and nested values in a page dictionary', async () => {
    const bytes = handWrittenPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      [
        '<< /Note (a >> b \\) (nested) /MediaBox [1 1 1 1]) % a comment with /MediaBox [0 0 1 1]',
        '/Hex <3e3e2f4d65646961426f78> /Nested << /A [1 [2 -3.5 .5] << /B (x) /C true /D null >>] /E /Name#20Escaped >>',
        '/Type /Page /Parent 2 0 R /Resources << /Font << /F1 4 0 R /F2 4 0 R >> >> /MediaBox 5 0 R >>',
      ].join('\n'),
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
      '[0 0 6 0 R 842]',
      '595',
    ]);
    expect(await readThroughXref(bytes)).toEqual({ encrypted: false, pages: [{ width: 595, height: 842, rotate: 0 }] });
    expect(await readThroughXref(bytes)).toEqual(await fullParse(bytes));
  });

  it('skims a page dictionary pdf-lib wrote with strings and hex strings in it', async () => {
    const pdf = await PDFDocument.create();
    const page = pdf.addPage([300, 400]);
    page.node.set(PDFName.of('Note'), PDFString.of('closing >> and (balanced) inside'));
    page.node.set(PDFName.of('Hex'), PDFHexString.fromText('>>'));
    page.node.set(PDFName.of('UserUnit'), PDFNumber.of(1));
    const bytes = await pdf.save();
    expect((await readThroughXref(bytes))?.pages).toEqual([{ width: 300, height: 400, rotate: 0 }]);
  });

  it('says a file whose trailer names an /Encrypt dictionary is encrypted', async () => {
    expect(await readThroughXref(await makeEncryptedPdf())).toEqual({ encrypted: true, pages: [] });
  });

  it('gives up on a file whose xref offsets do not point at their objects, which the full parse still reads', async () => {
    const good = await mixedPages(false);
    const shifted = new Uint8Array([...good.subarray(0, 20), ...new TextEncoder().encode('% a comment\n'), ...good.subarray(20)]);
    expect(await readThroughXref(shifted)).toBeUndefined();
    expect((await inspectPdf(shifted)).pageCount).toBe(3);
  });

  it('skips stream data by its /Length, direct or indirect', async () => {
    const content = 'BT /F1 12 Tf 72 712 Td (endstream endobj >>) Tj ET';
    const bytes = handWrittenPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents [4 0 R 5 0 R] >>',
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
      `<< /Length 6 0 R >>\nstream\n${content}\nendstream`,
      String(content.length),
    ]);
    expect((await readThroughXref(bytes))?.pages).toEqual([{ width: 612, height: 792, rotate: 0 }]);
  });

  it('gives up on a stream whose /Length is wrong', async () => {
    const bytes = handWrittenPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
      '<< /Length 3 >>\nstream\nBT ET\nendstream',
    ]);
    expect(await readThroughXref(bytes)).toBeUndefined();
  });

  it('gives up on a damaged object off the page tree, which the full parse refuses', async () => {
    const bytes = handWrittenPdf([
      '<< /Type /Catalog /Pages 2 0 R /Metadata 4 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      PAGE,
      '<< /Title (unbalanced ) ) >>',
    ]);
    expect(await readThroughXref(bytes)).toBeUndefined();
    await expect(inspectPdf(bytes)).rejects.toThrow('is corrupt and cannot be read as a PDF');
  });

  it('gives up on a file without startxref', async () => {
    const bytes = await makePdf(1);
    const text = new TextDecoder('latin1').decode(bytes).replace('startxref', 'startxxxx');
    expect(await readThroughXref(new Uint8Array([...text].map((c) => c.charCodeAt(0))))).toBeUndefined();
  });

  it('gives up on a page tree that loops, which the full parse refuses', async () => {
    const bytes = handWrittenPdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R 2 0 R] /Count 2 >>', PAGE]);
    expect(await readThroughXref(bytes)).toBeUndefined();
    await expect(inspectPdf(bytes)).rejects.toThrow('is corrupt: its page tree cannot be read');
  });

  it('gives up on a page without a media box, which the full parse refuses', async () => {
    const bytes = handWrittenPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R >>',
    ]);
    expect(await readThroughXref(bytes)).toBeUndefined();
    await expect(inspectPdf(bytes)).rejects.toThrow('is corrupt: its page tree cannot be read');
  });

  it('gives up on a reference to an object the xref does not list', async () => {
    const bytes = handWrittenPdf(['<< /Type /Catalog /Pages 9 0 R >>', '<< /Type /Pages /Kids [] /Count 0 >>']);
    expect(await readThroughXref(bytes)).toBeUndefined();
  });
});

/** pdf-lib's own file saved again with a classic table instead of object streams. */
async function reSaveWithTable(bytes: Uint8Array): Promise<Uint8Array> {
  return (await PDFDocument.load(bytes)).save({ useObjectStreams: false });
}
