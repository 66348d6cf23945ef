// A document's text layer (issue 31 › 4): each page's lines of text with where they sit, so the signing
// page can put the words under the page image for a screen reader. Extracted once per template document,
// the first time a signer is shown it, with pdf.js (services/pdf/page-text.ts), and kept in R2 beside the
// PDF (`<key>/text-layer.json`, deleted with the document's derived files); decisions.md › Text layer.
import type { TemplateDocument } from '../../db/schema/index';

/** One line: its text and its box in fractions of the page from the top-left corner. */
export type TextLine = { text: string; x: number; y: number; w: number; h: number };
/** A page's lines in reading order (top to bottom, then along the line), and the page's size in points. */
export type TextPage = { width: number; height: number; lines: TextLine[] };
export type TextLayer = { pages: TextPage[] };

/** What one page keeps at most: a page past them is read up to them (docs/security.md › Screen readers). */
export const TEXT_LAYER_LIMITS = { linesPerPage: 2_000, charsPerPage: 20_000 } as const;

export function textLayerKey(document: Pick<TemplateDocument, 'r2Key'>): string {
  return `${document.r2Key}/text-layer.json`;
}

type Run = { text: string; x: number; y: number; size: number; width: number };

/** Runs on one baseline (within half a font size) join into one line, a space where a gap shows one. */
function linesOf(runs: Run[], view: [number, number, number, number]): TextPage {
  const [x0, y0, x1, y1] = view;
  const width = x1 - x0 || 1;
  const height = y1 - y0 || 1;
  const sorted = runs
    .filter((r) => r.text.trim())
    .sort((a, b) => (Math.abs(a.y - b.y) > Math.max(a.size, b.size) / 2 ? b.y - a.y : a.x - b.x));
  const joined: Run[] = [];
  for (const run of sorted) {
    const last = joined.at(-1);
    if (last && Math.abs(last.y - run.y) <= Math.max(last.size, run.size) / 2 && run.x >= last.x + last.width - last.size) {
      const gap = run.x - (last.x + last.width);
      const space = gap > last.size * 0.15 && !/\s$/.test(last.text) && !/^\s/.test(run.text) ? ' ' : '';
      last.text += space + run.text;
      last.width = Math.max(last.width, run.x + run.width - last.x);
      last.size = Math.max(last.size, run.size);
    } else joined.push({ ...run });
  }
  const lines: TextLine[] = [];
  let chars = 0;
  for (const run of joined) {
    if (lines.length >= TEXT_LAYER_LIMITS.linesPerPage || chars >= TEXT_LAYER_LIMITS.charsPerPage) break;
    const text = run.text
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, TEXT_LAYER_LIMITS.charsPerPage - chars);
    chars += text.length;
    // The glyphs rise about 0.8 of the font size above the baseline.
    const round = (v: number) => Math.round(Math.min(1, Math.max(0, v)) * 10_000) / 10_000;
    lines.push({
      text,
      x: round((run.x - x0) / width),
      y: round((y1 - run.y - run.size * 0.8) / height),
      w: round(run.width / width),
      h: round(run.size / height),
    });
  }
  return { width, height, lines };
}

/** The text layer of a PDF; a file pdf.js cannot read, or past READING_LIMITS, has none (empty pages). */
export async function extractTextLayer(bytes: Uint8Array): Promise<TextLayer> {
  // The PDF engines load on first use (decisions.md › Cold start).
  const [{ loadPdf }, { readPageText }] = await Promise.all([import('../pdf/load-pdf'), import('../pdf/page-text')]);
  try {
    const loaded = await loadPdf(bytes, { updateMetadata: false });
    const pages = await readPageText(bytes, loaded);
    return { pages: pages.map((p) => linesOf(p.runs, p.view)) };
  } catch {
    return { pages: [] };
  }
}

/** The stored text layer of a template document, extracted and stored first when it is not there yet. */
export async function documentTextLayer(bucket: R2Bucket, document: Pick<TemplateDocument, 'r2Key'>): Promise<TextLayer | null> {
  const stored = await bucket.get(textLayerKey(document));
  if (stored) return (await stored.json()) as TextLayer;
  const file = await bucket.get(document.r2Key);
  if (!file) return null;
  const layer = await extractTextLayer(new Uint8Array(await file.arrayBuffer()));
  await bucket.put(textLayerKey(document), JSON.stringify(layer), { httpMetadata: { contentType: 'application/json' } });
  return layer;
}
