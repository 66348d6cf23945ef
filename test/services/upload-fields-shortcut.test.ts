// Issue 30 › 3: an uploaded PDF that surely brings neither text tags nor a form (nor usage rights or
// signatures) is stored as it came without pdf-lib's full parse, which cost as much as the rest of an
// upload; everything that may bring fields still takes the full parse, and its fields are found.
import { Buffer } from 'node:buffer';
import { PDFDocument, PDFName, PDFRawStream, StandardFonts, type PDFDict, type PDFPage, type SaveOptions } from 'pdf-lib';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { extractDocumentFields } from '../../src/services/templates/document-fields';
import { makeSignedPdf } from '../fixtures/pdfs';

// pdf.js (the text-tag reading) is transformed and loaded on first use, which takes the runner seconds once.
beforeAll(async () => {
  await extractDocumentFields(
    await contract(1, (pdf, pages) => addContent(pdf, pages[0], 'BT /F1 12 Tf 72 60 Td ({{Warm}}) Tj ET')),
    'warm-up',
  );
}, 120_000);

afterEach(() => {
  vi.restoreAllMocks();
});

/** A contract of `pages` pages, forty lines of text each (as bench/templates uploads), `edit` applied before saving. */
async function contract(
  pages: number,
  edit: (pdf: PDFDocument, pages: PDFPage[]) => void | Promise<void> = () => {},
  save: SaveOptions = {},
): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.TimesRoman);
  for (let i = 1; i <= pages; i += 1) {
    const page = pdf.addPage([612, 792]);
    for (let line = 0; line < 40; line += 1)
      page.drawText(`Clause ${i}.${line + 1}: the parties agree to the terms of this section.`, {
        x: 72,
        y: 740 - line * 15,
        size: 10,
        font,
      });
  }
  await edit(pdf, pdf.getPages());
  return pdf.save(save);
}

/** Extracts the fields of `bytes`, counting pdf-lib's full loads of it. */
async function extractCountingLoads(bytes: Uint8Array) {
  // Spying again returns the same spy: cleared, so calls earlier in the same test are not counted.
  const load = vi.spyOn(PDFDocument, 'load').mockClear();
  const result = await extractDocumentFields(bytes, 'documents[0]');
  return { ...result, loads: load.mock.calls.length };
}

/** A content stream of raw operators added to the page (compressed, as writers store content). */
function addContent(pdf: PDFDocument, page: PDFPage, operators: string): void {
  page.node.addContentStream(pdf.context.register(pdf.context.flateStream(operators)));
}

function fontsOf(pdf: PDFDocument, resources: PDFDict): PDFDict {
  return resources.lookup(PDFName.of('Font')) as PDFDict;
}

describe('the upload shortcut', () => {
  it('reads a 50-page contract without tags or form through the xref alone, storing the bytes as they came', async () => {
    const bytes = await contract(50);
    const { bytes: stored, fields, loads } = await extractCountingLoads(bytes);
    expect(fields).toEqual([]);
    expect(stored).toBe(bytes);
    expect(loads).toBe(0);
  });

  it('takes the full parse for a tag in compressed content on page 37, and finds it', async () => {
    const bytes = await contract(50, async (pdf, pages) => {
      const font = await pdf.embedFont(StandardFonts.Helvetica);
      pages[36].drawText('{{Buyer Name;role=Buyer}}', { x: 72, y: 80, size: 12, font });
    });
    const { fields, loads } = await extractCountingLoads(bytes);
    expect(loads).toBeGreaterThan(0);
    expect(fields).toEqual([
      expect.objectContaining({ name: 'Buyer Name', role: 'Buyer', areas: [expect.objectContaining({ page: 37 })] }),
    ]);
  });

  it('takes the full parse for a tag written in hex, upper or lower case, whitespace between', async () => {
    for (const hex of ['<7b7B4e616d657d7d>', '<7B \n 7b4E616D657D7D>', '<7 B7\nb4E616D657D7D>']) {
      const bytes = await contract(3, (pdf, pages) => addContent(pdf, pages[2], `BT /F1 12 Tf 72 60 Td ${hex} Tj ET`));
      expect((await extractCountingLoads(bytes)).loads).toBeGreaterThan(0);
    }
  });

  // Any brace is enough: a tag whose braces a writer kerned apart, or escaped, is not a `{{` in the bytes.
  it('takes the full parse for braces kerned apart in a TJ array or written as octal escapes, and finds the tag', async () => {
    for (const operators of [
      'BT /F1 12 Tf 72 60 Td [({) -15 ({Witness}) -15 (}})] TJ ET',
      'BT /F1 12 Tf 72 60 Td (\\173\\173Witness\\175\\175) Tj ET',
      'BT /F1 12 Tf 72 60 Td [<7B> -15 <7B5769746E657373> 0 <7D7D>] TJ ET',
    ]) {
      const bytes = await contract(2, (pdf, pages) => addContent(pdf, pages[1], operators));
      const { fields, loads } = await extractCountingLoads(bytes);
      expect(loads, operators).toBeGreaterThan(0);
      expect(fields, operators).toEqual([expect.objectContaining({ name: 'Witness', areas: [expect.objectContaining({ page: 2 })] })]);
    }
  });

  it('keeps the shortcut for hex text whose digits only look like 7B across two bytes', async () => {
    // 0x57 0xB0: "57B0" holds the digits 7 and B side by side, but no byte 7B (whitespace between digits is skipped).
    const bytes = await contract(2, (pdf, pages) => addContent(pdf, pages[1], 'BT /F1 12 Tf 72 60 Td <57B0 57 B0> Tj ET'));
    expect((await extractCountingLoads(bytes)).loads).toBe(0);
  });

  it('keeps the shortcut for an escaped backslash before the digits 173, and for 7B outside strings', async () => {
    // `\\173` in a literal string is a backslash, then "173"; `/F7B` is a name, `7 B` no hex string.
    const bytes = await contract(2, (pdf, pages) =>
      addContent(pdf, pages[1], 'BT /F1 12 Tf 72 60 Td (C:\\\\173) Tj ET /F7B gs 1 0 0 1 7 B'),
    );
    expect((await extractCountingLoads(bytes)).loads).toBe(0);
  });

  it('reads a long hex string of digits that look like 7B at odd places in linear time', async () => {
    // `<5 7B7B…>`: every 7B follows an odd number of digits. Walking back to the `<` from each was quadratic.
    const hex = `<5${'7B'.repeat(400_000)}>`;
    const bytes = await contract(1, (pdf, pages) => addContent(pdf, pages[0], `BT /F1 12 Tf 72 60 Td ${hex} Tj ET`));
    expect((await extractCountingLoads(bytes)).loads).toBe(0);
  }, 20_000);

  it('takes the full parse for a tag only a form XObject shows', async () => {
    const bytes = await contract(2, (pdf, pages) => {
      const xobject = pdf.context.flateStream('BT /F1 12 Tf 0 0 Td ({{Witness}}) Tj ET', {
        Type: 'XObject',
        Subtype: 'Form',
        BBox: [0, 0, 200, 20],
      });
      const ref = pdf.context.register(xobject);
      pages[1].node.Resources()!.set(PDFName.of('XObject'), pdf.context.obj({ Stamp: ref }));
      addContent(pdf, pages[1], 'q 1 0 0 1 72 72 cm /Stamp Do Q');
    });
    expect((await extractCountingLoads(bytes)).loads).toBeGreaterThan(0);
  });

  it('takes the full parse for a two-byte font, on the page or inherited from the page tree', async () => {
    const type0 = (pdf: PDFDocument) => pdf.context.register(pdf.context.obj({ Type: 'Font', Subtype: 'Type0', BaseFont: 'Anything' }));
    const onPage = await contract(2, (pdf, pages) => {
      fontsOf(pdf, pages[1].node.Resources()!).set(PDFName.of('F9'), type0(pdf));
    });
    expect((await extractCountingLoads(onPage)).loads).toBeGreaterThan(0);
    // The pages keep no resources of their own: /Resources on the tree's root applies to all (ISO 32000-1 § 7.7.3.4).
    const inherited = await contract(2, (pdf, pages) => {
      const resources = pdf.context.obj({ Font: pdf.context.obj({ F9: type0(pdf) }) });
      pdf.catalog.Pages().set(PDFName.of('Resources'), resources);
      for (const page of pages) page.node.delete(PDFName.of('Resources'));
    });
    expect((await extractCountingLoads(inherited)).loads).toBeGreaterThan(0);
  });

  // Without `Type0` or a `#` escape anywhere in the file's objects no font can be two-byte, and the pages'
  // fonts are not read; a name escaped as `/Type#30` is Type0 all the same (ISO 32000-1 § 7.3.5).
  it('takes the full parse for a two-byte font whose name is written with # escapes, not for another escaped name', async () => {
    /** A file whose page 2 names a font `/Subtype /<subtype>`, written uncompressed and the name then escaped in place. */
    const escaped = async (subtype: string) => {
      const bytes = await contract(
        2,
        (pdf, pages) => {
          const font = pdf.context.register(pdf.context.obj({ Type: 'Font', Subtype: subtype, BaseFont: 'AnythingXY' }));
          fontsOf(pdf, pages[1].node.Resources()!).set(PDFName.of('F9'), font);
        },
        { useObjectStreams: false },
      );
      // `/TypeN` becomes `/Type#3N`, two bytes longer, and the base font two shorter: every offset holds.
      const text = Buffer.from(bytes).toString('latin1');
      const edited = text.replace(`/Subtype /${subtype}`, `/Subtype /Type#3${subtype.at(-1)}`).replace('/AnythingXY', '/Anything');
      expect(edited.length).toBe(text.length);
      expect(edited).not.toContain('Type0');
      return new Uint8Array(Buffer.from(edited, 'latin1'));
    };
    expect((await extractCountingLoads(await escaped('Type0'))).loads).toBeGreaterThan(0);
    expect((await extractCountingLoads(await escaped('Type1'))).loads).toBe(0);
  });

  // Fonts and form XObjects are read once per file, not once per page (bench/templates: pdf-lib names the
  // same font anew for every line); what is skipped is the same object, never the same name.
  it('reads a font once for all the pages, yet takes the full parse for a two-byte font a later page names the same', async () => {
    const bytes = await contract(3, (pdf, pages) => {
      const name = fontsOf(pdf, pages[0].node.Resources()!).keys()[0];
      const type0 = pdf.context.register(pdf.context.obj({ Type: 'Font', Subtype: 'Type0', BaseFont: 'Anything' }));
      fontsOf(pdf, pages[2].node.Resources()!).set(name, type0);
    });
    expect((await extractCountingLoads(bytes)).loads).toBeGreaterThan(0);
  });

  it('reads a letterhead form XObject once for all the pages, yet finds a tag in another one a later page names the same', async () => {
    const stamp = (pdf: PDFDocument, text: string) =>
      pdf.context.register(
        pdf.context.flateStream(`BT /F1 12 Tf 0 0 Td (${text}) Tj ET`, { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 200, 20] }),
      );
    /** Every page shows the letterhead /Head; the last one, given `lastText`, a form of its own under that name. */
    const letterhead = (lastText?: string) =>
      contract(3, (pdf, pages) => {
        const shared = stamp(pdf, 'ACME Ltd');
        pages.forEach((page, i) => {
          const head = i === 2 && lastText ? stamp(pdf, lastText) : shared;
          page.node.Resources()!.set(PDFName.of('XObject'), pdf.context.obj({ Head: head }));
          addContent(pdf, page, 'q 1 0 0 1 72 740 cm /Head Do Q');
        });
      });
    expect((await extractCountingLoads(await letterhead())).loads).toBe(0);
    const tagged = await letterhead('{{Witness}}');
    expect((await extractCountingLoads(tagged)).loads).toBeGreaterThan(0);
  });

  it('takes the full parse for a form (its catalog compressed in an object stream) and imports the field', async () => {
    const bytes = await contract(2, (pdf, pages) => {
      pdf.getForm().createTextField('Employee').addToPage(pages[0], { x: 72, y: 100, width: 200, height: 20 });
    });
    const { fields, loads } = await extractCountingLoads(bytes);
    expect(loads).toBeGreaterThan(0);
    expect(fields).toEqual([expect.objectContaining({ name: 'Employee', type: 'text' })]);
  });

  it('takes the full parse for usage rights (/Perms) and for signature dictionaries', async () => {
    const withPerms = await contract(1, (pdf) => {
      pdf.catalog.set(PDFName.of('Perms'), pdf.context.obj({}));
    });
    expect((await extractCountingLoads(withPerms)).loads).toBeGreaterThan(0);
    const signed = await makeSignedPdf();
    const { bytes: stored, loads } = await extractCountingLoads(signed);
    expect(loads).toBeGreaterThan(0);
    expect(stored).toBe(signed);
  });

  it('takes the full parse when a content stream names its filter by reference', async () => {
    const bytes = await contract(1, (pdf, pages) => {
      const stream = pdf.context.flateStream('BT /F1 12 Tf 72 60 Td (plain) Tj ET');
      stream.dict.set(PDFName.of('Filter'), pdf.context.register(PDFName.of('FlateDecode')));
      expect(stream).toBeInstanceOf(PDFRawStream);
      pages[0].node.addContentStream(pdf.context.register(stream));
    });
    expect((await extractCountingLoads(bytes)).loads).toBeGreaterThan(0);
  });
  // Page dictionaries are skimmed, not parsed: their resources' /Font and /XObject values are read each
  // once by their bytes, whether written in place, shared by reference, or inline font dictionaries.
  it('reads resources shared by reference, and takes the full parse for a two-byte font in them', async () => {
    const shared = (withType0: boolean) =>
      contract(3, (pdf, pages) => {
        const fonts = fontsOf(pdf, pages[0].node.Resources()!);
        if (withType0) {
          fonts.set(PDFName.of('F9'), pdf.context.register(pdf.context.obj({ Type: 'Font', Subtype: 'Type0', BaseFont: 'Anything' })));
        }
        const ref = pdf.context.register(pages[0].node.Resources()!);
        for (const page of pages) page.node.set(PDFName.of('Resources'), ref);
      });
    const plain = await extractCountingLoads(await shared(false));
    expect(plain.loads).toBe(0);
    expect(plain.fields).toEqual([]);
    expect((await extractCountingLoads(await shared(true))).loads).toBeGreaterThan(0);
  });

  it('takes the full parse for a two-byte font written in place in the font dictionary', async () => {
    const bytes = await contract(2, (pdf, pages) => {
      fontsOf(pdf, pages[1].node.Resources()!).set(
        PDFName.of('F9'),
        pdf.context.obj({ Type: 'Font', Subtype: 'Type0', BaseFont: 'Anything' }),
      );
    });
    expect((await extractCountingLoads(bytes)).loads).toBeGreaterThan(0);
  });
});
