// pdfString: the one encoder for text written into PDF objects (issue 28 › 3).
import { describe, expect, it } from 'vitest';
import { PDFDict, PDFDocument, PDFHexString, PDFName, PDFString } from 'pdf-lib';
import { pdfString } from '../../src/services/pdf/pdf-string';

/** Writes `text` as /Name of an object, saves, parses the file again and reads the string back. */
async function roundTrip(text: string): Promise<{ written: string; read: string }> {
  const pdf = await PDFDocument.create();
  pdf.addPage();
  const value = pdfString(text);
  const ref = pdf.context.register(pdf.context.obj({ Type: 'Sig', Name: value }));
  pdf.catalog.set(PDFName.of('Test'), ref);
  const loaded = await PDFDocument.load(await pdf.save({ useObjectStreams: false }));
  const read = loaded.catalog.lookup(PDFName.of('Test'), PDFDict).lookup(PDFName.of('Name'));
  expect(read instanceof PDFString || read instanceof PDFHexString).toBe(true);
  return { written: value.toString(), read: (read as PDFString | PDFHexString).decodeText() };
}

describe('pdfString', () => {
  it('escapes backslash, parentheses, CR and LF in an ASCII literal', () => {
    expect(pdfString('Mallory\\').toString()).toBe('(Mallory\\\\)');
    expect(pdfString('Acme (EU').toString()).toBe('(Acme \\(EU)');
    expect(pdfString("O'Brien (Jr.)\r\n").toString()).toBe("(O'Brien \\(Jr.\\)\\r\\n)");
  });

  it('writes anything else as UTF-16BE hex with a byte order mark', () => {
    expect(pdfString('Иван').toString()).toBe('<FEFF041804320430043D>');
    expect(pdfString('bell\u0007').toString()).toMatch(/^<FEFF/);
  });

  it('reads back exactly after a save and a parse', async () => {
    for (const text of ['Mallory\\', 'Acme (EU', "O'Brien (Jr.)", 'Иван', 'محمد', '👩‍💼 Zoë', 'a)\\(b\r\nc\td', '']) {
      expect((await roundTrip(text)).read).toBe(text);
    }
  });
});
