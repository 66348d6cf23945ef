// Checks a PDF with pdfsig and qpdf, and compares one of its pages with a reference image, through the local
// tools server (test/global/pdf-tools-server.ts).
import { env } from 'cloudflare:test';

type ToolResult = { code: number; output: string };
export type PdfCheck = { pdfsig: ToolResult; qpdf: ToolResult; text: ToolResult; bbox: ToolResult; fonts: ToolResult };

/** A word pdftotext -bbox found: page (from 1) and box in points from the page's top-left. */
export type PlacedWord = { page: number; text: string; xMin: number; yMin: number; xMax: number; yMax: number };

/** The words of `pdftotext -bbox` output, page by page. */
export function placedWords(bbox: ToolResult): PlacedWord[] {
  const words: PlacedWord[] = [];
  let page = 0;
  for (const line of bbox.output.split('\n')) {
    if (line.includes('<page ')) page += 1;
    const m = line.match(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*)<\/word>/);
    if (m) words.push({ page, text: m[5], xMin: +m[1], yMin: +m[2], xMax: +m[3], yMax: +m[4] });
  }
  return words;
}

/** How a page of a PDF compares with a reference image (test/global/page-images.ts › PageComparison). */
export type PageComparison = {
  differing: number;
  width: number;
  height: number;
  reference: { width: number; height: number };
  updated: boolean;
};

/**
 * Page `page` (1 by default) of `pdf` drawn by pdftoppm and compared with
 * `test/fixtures/docx/pages/<reference>.png`: `differing` is the share of ink with no ink within a pixel
 * in the other image (0 same, near 1 unrelated). `readonly` keeps UPDATE_PAGE_IMAGES=1 from rewriting
 * the reference (a page compared with another's).
 */
export async function comparePageImage(pdf: Uint8Array, reference: string, { page = 1, readonly = false } = {}): Promise<PageComparison> {
  const query = `reference=${encodeURIComponent(reference)}&page=${page}${readonly ? '&readonly=1' : ''}`;
  const res = await fetch(`${env.PDF_TOOLS_URL}/page-image?${query}`, { method: 'POST', body: pdf });
  if (!res.ok) throw new Error(`page image comparison failed: ${await res.text()}`);
  return res.json();
}

export async function checkPdf(bytes: Uint8Array): Promise<PdfCheck> {
  const res = await fetch(env.PDF_TOOLS_URL, { method: 'POST', body: bytes });
  if (!res.ok) throw new Error(`pdf tools server answered ${res.status}`);
  return res.json();
}
