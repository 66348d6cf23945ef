// DOCX files no one here wrote (mammoth's own test documents, test/fixtures/docx/README.md) printed
// through POST /api/templates/docx: their text, table cells, list items and picture survive.
import { describe, expect, it } from 'vitest';
import simpleList from '../fixtures/docx/simple-list.docx?inline';
import strikethrough from '../fixtures/docx/strikethrough.docx?inline';
import tables from '../fixtures/docx/tables.docx?inline';
import tinyPicture from '../fixtures/docx/tiny-picture.docx?inline';
import { api, createAccount } from '../helpers';
import { downloadDocument, pageTexts } from '../rendering-fixtures';

/** A fixture's bytes as base64 (Vite inlines it as a data URL). */
function base64Of(dataUrl: string): string {
  return dataUrl.slice(dataUrl.indexOf(',') + 1);
}

async function printed(dataUrl: string): Promise<Uint8Array> {
  const a = await createAccount();
  const res = await api('POST', '/api/templates/docx', { token: a.token, body: { documents: [{ name: 'real.docx', file: base64Of(dataUrl) }] } });
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
