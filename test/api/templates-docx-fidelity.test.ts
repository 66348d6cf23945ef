// DOCX files no one here wrote (mammoth's own test documents, test/fixtures/docx/README.md) printed
// through POST /api/templates/docx: their text, table cells, list items and picture survive, and page 1
// of each still looks like its reference image in test/fixtures/docx/pages/.
import { describe, expect, it } from 'vitest';
import simpleList from '../fixtures/docx/simple-list.docx?inline';
import strikethrough from '../fixtures/docx/strikethrough.docx?inline';
import tables from '../fixtures/docx/tables.docx?inline';
import tinyPicture from '../fixtures/docx/tiny-picture.docx?inline';
import { buildDocx, pageBreak, paragraph, table } from '../docx-fixtures';
import { toBase64 } from '../fixtures/pdfs';
import { api, createAccount } from '../helpers';
import { comparePageImage } from '../pdf-tools';
import { downloadDocument, pageTexts } from '../rendering-fixtures';

/**
 * Share of ink allowed to differ from the reference (test/global/page-images.ts › differingInk). Measured
 * on these references: a reprint 0, the whole page moved by one pixel 0, by two pixels 0.21 (fails: look
 * at the new images and regenerate), one fixture's page against another's 0.82–1.0.
 */
const PAGE_IMAGE_TOLERANCE = 0.1;

/** A fixture's bytes as base64 (Vite inlines it as a data URL). */
function base64Of(dataUrl: string): string {
  return dataUrl.slice(dataUrl.indexOf(',') + 1);
}

const prints = new Map<string, Promise<Uint8Array>>();

/** Each fixture is printed once per file run: the text checks and the image checks share the PDF. */
function printed(dataUrl: string): Promise<Uint8Array> {
  let pdf = prints.get(dataUrl);
  if (!pdf) prints.set(dataUrl, (pdf = printOnce(dataUrl)));
  return pdf;
}

async function printOnce(dataUrl: string): Promise<Uint8Array> {
  const a = await createAccount();
  const res = await api('POST', '/api/templates/docx', {
    token: a.token,
    body: { documents: [{ name: 'real.docx', file: base64Of(dataUrl) }] },
  });
  if (res.status !== 201) throw new Error(`POST /api/templates/docx answered ${res.status}: ${res.text}`);
  return downloadDocument(a.token, res.json.id, res.json.documents[0].uuid);
}

describe('real DOCX files printed to PDF', { timeout: 60_000 }, () => {
  it('keeps a table’s cells in their rows, between the paragraphs around it', async () => {
    const [text] = await pageTexts(await printed(tables));
    expect(text).toMatch(/Above[\s\S]*Top left\s+Top right[\s\S]*Bottom left\s+Bottom right[\s\S]*Below/);
  });

  it('keeps list items as a list', async () => {
    const [text] = await pageTexts(await printed(simpleList));
    expect(text).toMatch(/•\s*Apple[\s\S]*•\s*Banana/);
  });

  it('keeps an embedded picture', async () => {
    const pdf = await printed(tinyPicture);
    expect(new TextDecoder('latin1').decode(pdf)).toMatch(/\/Subtype\s*\/Image/);
  });

  it('keeps struck-through text', async () => {
    const [text] = await pageTexts(await printed(strikethrough));
    expect(text).toContain("Today's Special: Salmon");
    expect(text).toContain('Sold out');
  });
});

describe('page images of real DOCX files', { timeout: 60_000 }, () => {
  const fixtures = { tables, 'simple-list': simpleList, 'tiny-picture': tinyPicture, strikethrough };

  for (const [name, dataUrl] of Object.entries(fixtures)) {
    it(`prints page 1 of ${name}.docx like its reference image`, async () => {
      const comparison = await comparePageImage(await printed(dataUrl), name);
      expect(comparison.width).toBe(comparison.reference.width);
      expect(comparison.differing).toBeLessThan(PAGE_IMAGE_TOLERANCE);
    });
  }

  it("tells a page from another document's reference image", async () => {
    const comparison = await comparePageImage(await printed(tables), 'simple-list', { readonly: true });
    expect(comparison.differing).toBeGreaterThan(PAGE_IMAGE_TOLERANCE);
  });
});

describe('page images of a DOCX with a header, a footer and a page break', { timeout: 60_000 }, () => {
  // mammoth's files have no header, footer or page break; this one is built here (test/docx-fixtures.ts).
  const headed = buildDocx(
    paragraph('Services agreement between the parties named below.') +
      table([
        ['Party', 'Role'],
        ['ACME Corp', 'Client'],
        ['Widget Ltd', 'Provider'],
      ]) +
      pageBreak +
      paragraph('Second page: signatures.'),
    { header: 'Services agreement, confidential', footer: 'Printed by the e-signature service' },
  );

  for (const page of [1, 2]) {
    it(`prints page ${page} with its header and footer like its reference image`, async () => {
      const comparison = await comparePageImage(
        await printed(`data:application/octet-stream;base64,${toBase64(headed)}`),
        `headed-p${page}`,
        { page },
      );
      expect(comparison.differing).toBeLessThan(PAGE_IMAGE_TOLERANCE);
    });
  }
});
