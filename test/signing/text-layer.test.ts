// The document's text layer for screen readers (issue 31 › 4): GET /s/:slug/documents/:uuid/text gives
// each page's lines in reading order with their boxes, extracted once and kept in R2 beside the PDF.
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { api, shardOf } from '../helpers';
import { signingFixture } from './fixtures';
import { extractTextLayer, textLayerKey, type TextLayer } from '../../src/services/documents/text-layer';
import { loadPdfJs } from '../../src/services/pdf/pdfjs';

// pdf.js loads on first use, which takes tens of seconds on a loaded machine: once, before the tests' clocks.
beforeAll(() => loadPdfJs().then(() => undefined), 180_000);

async function documentKey(accountId: number, uuid: string): Promise<string> {
  const db = await shardOf(accountId);
  const row = await db.prepare('SELECT r2_key FROM template_documents WHERE uuid = ?').bind(uuid).first<{ r2_key: string }>();
  return row!.r2_key;
}

describe('GET /s/:slug/documents/:document_uuid/text', () => {
  it('gives every page its lines with boxes in fractions of the page', async () => {
    const f = await signingFixture();
    const res = await api('GET', `/s/${f.submitters[0].slug}/documents/${f.documents[0].uuid}/text`);
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('private, no-store');
    const layer = res.json as TextLayer;
    expect(layer.pages.map((p) => p.lines.map((l) => l.text))).toEqual([['Page 1'], ['Page 2']]);
    // makePdf draws "Page n" at (50, 742) in 12 pt on a 612 × 792 page.
    const line = layer.pages[0].lines[0];
    expect(layer.pages[0]).toMatchObject({ width: 612, height: 792 });
    expect(line.x).toBeCloseTo(50 / 612, 3);
    expect(line.y).toBeCloseTo((792 - 742 - 12 * 0.8) / 792, 3);
    expect(line.h).toBeCloseTo(12 / 792, 3);
    expect(line.w).toBeGreaterThan(0.04);
  }, 30_000);

  it('extracts once and afterwards serves what R2 holds', async () => {
    const f = await signingFixture();
    const key = textLayerKey({ r2Key: await documentKey(f.account.accountId, f.documents[0].uuid) });
    expect(await env.FILES.head(key)).toBeNull();
    await api('GET', `/s/${f.submitters[0].slug}/documents/${f.documents[0].uuid}/text`);
    expect(await env.FILES.head(key)).not.toBeNull();
    const kept: TextLayer = { pages: [{ width: 612, height: 792, lines: [{ text: 'as stored', x: 0, y: 0, w: 0.1, h: 0.02 }] }] };
    await env.FILES.put(key, JSON.stringify(kept));
    const again = await api('GET', `/s/${f.submitters[0].slug}/documents/${f.documents[0].uuid}/text`);
    expect(again.json).toEqual(kept);
  }, 30_000);

  it('refuses a signer whose turn has not come, and a document of another template', async () => {
    const f = await signingFixture({
      roles: ['First', 'Second'],
      fields: [
        { name: 'A', type: 'text', role: 'First' },
        { name: 'B', type: 'text', role: 'Second' },
      ],
    });
    expect((await api('GET', `/s/${f.submitters[1].slug}/documents/${f.documents[0].uuid}/text`)).status).toBe(404);
    const other = await signingFixture();
    expect((await api('GET', `/s/${f.submitters[0].slug}/documents/${other.documents[0].uuid}/text`)).status).toBe(404);
  });
});

describe('extractTextLayer', () => {
  it('orders lines top to bottom whatever order they were drawn in, and joins runs on one baseline', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const page = pdf.addPage([600, 800]);
    page.drawText('Signed at the bottom', { x: 60, y: 100, size: 12, font });
    page.drawText('Title on top', { x: 60, y: 740, size: 20, font });
    page.drawText('Second part', { x: 300, y: 500, size: 12, font });
    page.drawText('First part', { x: 60, y: 500, size: 12, font });
    const layer = await extractTextLayer(await pdf.save());
    expect(layer.pages[0].lines.map((l) => l.text)).toEqual(['Title on top', 'First part Second part', 'Signed at the bottom']);
  }, 30_000);

  it('gives a file pdf.js cannot read no pages rather than failing', async () => {
    expect(await extractTextLayer(new TextEncoder().encode('%PDF-1.7\nnot really'))).toEqual({ pages: [] });
  });
});
