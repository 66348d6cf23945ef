// PDFs that claim more than they hold: decoding stays within its budget, and pdf-lib's load makes no
// entry for an xref row the data does not have, on the fast path and the full parse alike.
import { describe, expect, it } from 'vitest';
import { zlibSync } from 'fflate';
import { decodePDFRawStream, PDFContext, PDFName, PDFRawStream, PDFRef } from 'pdf-lib';
import {
  DecodedSizeExceeded,
  decodeStreamWithin,
  STRUCTURE_STREAMS_BUDGET,
  UndecodableStream,
} from '../../src/services/pdf/bounded-decode';
import { loadPdf } from '../../src/services/pdf/load-pdf';
import { inspectPdf } from '../../src/services/pdf/inspect-pdf';
import { readThroughXref } from '../../src/services/pdf/xref-reader';
import { pageInObjectStream, xrefStreamDeclaring } from '../fixtures/hostile-pdfs';

function stream(contents: Uint8Array, filter?: string | string[]): PDFRawStream {
  const context = PDFContext.create();
  const dict = context.obj({});
  if (filter)
    dict.set(PDFName.of('Filter'), typeof filter === 'string' ? PDFName.of(filter) : context.obj(filter.map((f) => PDFName.of(f))));
  return PDFRawStream.of(dict, contents);
}

const text = new TextEncoder().encode('BT /F1 12 Tf 72 720 Td (Hello) Tj ET\n'.repeat(500));

describe('decodeStreamWithin', () => {
  const deflated = zlibSync(text);
  // pdf-lib's own decoder runs where deflate's 1032:1 cannot pass the limit, slices of fflate elsewhere.
  const roomy = (deflated.length + 1) * 1032;

  it.each([
    ['by pdf-lib where the stream cannot pass the limit', roomy],
    ['in slices where it could', text.length],
  ])('inflates a Flate stream to the bytes pdf-lib decodes, %s', (_, limit) => {
    const flate = stream(deflated, 'FlateDecode');
    expect(decodeStreamWithin(flate, limit)).toEqual(decodePDFRawStream(flate).decode());
  });

  it.each([
    ['by pdf-lib', roomy],
    ['in slices', text.length],
  ])('inflates a Flate stream without its Adler-32 trailer, or with a wrong one, as pdf-lib does, %s', (_, limit) => {
    const wrong = Uint8Array.from(deflated);
    wrong[wrong.length - 1] ^= 0xff;
    for (const data of [deflated.subarray(0, deflated.length - 4), wrong]) {
      const flate = stream(data, 'FlateDecode');
      expect(decodeStreamWithin(flate, limit)).toEqual(decodePDFRawStream(flate).decode());
    }
  });

  it('inflates exactly up to the limit, and not a byte past it, with an intact trailer', () => {
    expect(decodeStreamWithin(stream(deflated, 'FlateDecode'), text.length)).toEqual(text);
    expect(() => decodeStreamWithin(stream(zlibSync(new Uint8Array(10_000_000)), 'FlateDecode'), 1_000_000)).toThrow(DecodedSizeExceeded);
  });

  it('decodes a chain of filters in order', () => {
    const hex = new TextEncoder().encode([...deflated].map((b) => b.toString(16).padStart(2, '0')).join('') + '>');
    expect(decodeStreamWithin(stream(hex, ['ASCIIHexDecode', 'FlateDecode']), roomy)).toEqual(text);
  });

  it('returns unfiltered data as it is', () => {
    expect(decodeStreamWithin(stream(text), text.length)).toEqual(text);
  });

  it('stops inflating once the output passes the limit', () => {
    expect(() => decodeStreamWithin(stream(deflated, 'FlateDecode'), text.length - 1)).toThrow(DecodedSizeExceeded);
  });

  it('reads pdf-lib’s decoders to the end over several steps', () => {
    const bytes = Uint8Array.from({ length: 150_000 }, (_, i) => (i * 7) % 251);
    const hex = new TextEncoder().encode([...bytes].map((b) => b.toString(16).padStart(2, '0')).join('') + '>');
    expect(decodeStreamWithin(stream(hex, 'ASCIIHexDecode'), bytes.length)).toEqual(bytes);
  });

  it('holds the limit for filters pdf-lib decodes', () => {
    const hex = new TextEncoder().encode('41'.repeat(1000) + '>');
    expect(() => decodeStreamWithin(stream(hex, 'ASCIIHexDecode'), 999)).toThrow(DecodedSizeExceeded);
    expect(decodeStreamWithin(stream(hex, 'ASCIIHexDecode'), 1000)).toHaveLength(1000);
  });

  it.each([
    ['by pdf-lib', roomy],
    ['in slices', text.length],
  ])('refuses a Flate stream without a zlib header %s', (_, limit) => {
    const raw = deflated.subarray(2, deflated.length - 4);
    expect(() => decodeStreamWithin(stream(raw, 'FlateDecode'), limit)).toThrow(UndecodableStream);
  });

  it.each([
    ['by pdf-lib', roomy],
    ['in slices', text.length],
  ])('refuses a Flate stream cut short %s', (_, limit) => {
    expect(() => decodeStreamWithin(stream(deflated.subarray(0, deflated.length / 2), 'FlateDecode'), limit)).toThrow(UndecodableStream);
  });
});

describe('an xref stream declaring two billion rows it does not hold', () => {
  it.each([
    ['rows of no width', '[0 0 0]'],
    ['rows of four bytes', '[1 2 1]'],
  ])('with %s is loaded by pdf-lib from the objects themselves', async (_, widths) => {
    const pdf = await loadPdf(xrefStreamDeclaring(widths, '[0 2000000000]'), { updateMetadata: false });
    expect(pdf.getPageCount()).toBe(1);
  });

  it('is left to the full parse by the xref reader', async () => {
    expect(await readThroughXref(xrefStreamDeclaring('[0 0 0]', '[0 2000000000]'))).toBeUndefined();
    expect(await readThroughXref(xrefStreamDeclaring('[1 2 1]', '[0 2000000000]'))).toBeUndefined();
  });

  it('is accepted as an upload with its one page', async () => {
    expect(await inspectPdf(xrefStreamDeclaring('[1 2 1]', '[0 2000000000]'))).toEqual({
      pageCount: 1,
      pageDimensions: [{ width: 612, height: 792 }],
      certifiedForm: null,
    });
  });
});

describe('an object stream', () => {
  it('is read through the xref and by the full parse when it fits the budget', async () => {
    const bytes = pageInObjectStream(1024);
    expect(await readThroughXref(bytes)).toEqual({ encrypted: false, pages: [{ width: 612, height: 792, rotate: 0 }] });
    expect((await loadPdf(bytes, { updateMetadata: false, throwOnInvalidObject: true })).getPageCount()).toBe(1);
  });

  it('that expands past the budget is refused as an upload with a sentence', async () => {
    const bomb = pageInObjectStream(STRUCTURE_STREAMS_BUDGET + 1);
    expect(bomb.length).toBeLessThan(64 * 1024);
    await expect(inspectPdf(bomb)).rejects.toThrow('is too large to read: its compressed objects expand past 32 MB');
  });

  it('that expands past the budget is not parsed by pdf-lib’s load', async () => {
    const bomb = pageInObjectStream(STRUCTURE_STREAMS_BUDGET + 1);
    await expect(loadPdf(bomb, { updateMetadata: false, throwOnInvalidObject: true })).rejects.toThrow();
    // The forgiving load skips the stream it may not decode, so the page stored in it is missing.
    const forgiving = await loadPdf(bomb, { updateMetadata: false });
    expect(forgiving.context.lookup(PDFRef.of(3, 0))).toBeUndefined();
    expect(forgiving.context.lookup(PDFRef.of(2, 0))).toBeDefined();
  });
});
