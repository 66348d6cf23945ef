// DOCX uploads (spec › Template document: `.docx`; decisions.md › Documents in): each is unzipped within
// bounds, its variables listed, rendered with variables left as their `[[name]]` text, converted to
// HTML by mammoth and printed through Browser Rendering like an HTML template. The PDF is what fields
// are placed on; the original DOCX and its variable list are kept beside it in R2.
import { unprocessable } from '../../lib/errors';
import {
  docxHeaderFooter,
  docxVariables,
  fillDocx,
  HEADER_FOOTER_PARTS,
  looksLikeZip,
  unzipDocx,
  type DocxFiles,
  type VariableValues,
} from '../documents/docx';
import { copyStoredFiles, type Upload } from '../documents/ingest';
import { UnusableDocument } from '../pdf/pdf-file';
import type { BrowserLauncher } from '../rendering/browser-launches';
import { renderDocuments } from '../rendering/print-documents';

/** What a DOCX template document keeps, at `docxSourceKey(r2Key)`. */
export type DocxSource = { variables: string[] };

export const DOCX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

export function docxSourceKey(documentR2Key: string): string {
  return `${documentR2Key}/source.docx`;
}

export function docxVariablesKey(documentR2Key: string): string {
  return `${documentR2Key}/docx.json`;
}

export function isDocxUpload(upload: Upload): boolean {
  return looksLikeZip(upload.bytes);
}

/**
 * Readable tables and page breaks in the printed HTML; mammoth writes structure only. Bullets are a
 * text marker: Chromium paints its default disc as a shape, which leaves no bullet in the PDF's text.
 */
const DOCX_CSS =
  'ul{list-style-type:"\\2022  "}' +
  'body{font-family:"DejaVu Serif","Liberation Serif",serif;font-size:11pt;line-height:1.35}' +
  'table{border-collapse:collapse;margin:6pt 0}td,th{border:1px solid #444;padding:3pt 6pt;vertical-align:top}' +
  'p{margin:0 0 6pt}img{max-width:100%}.page-break{break-after:page;border:0;margin:0}';

/** A DOCX as printable HTML (mammoth: paragraphs, headings, lists, tables, images as data: URLs). */
export async function docxToHtml(docx: Uint8Array): Promise<string> {
  // Imported on the first DOCX, not with this module (decisions.md › Cold start).
  const { default: mammoth } = await import('mammoth');
  const { value } = await mammoth.convertToHtml(
    // `arrayBuffer` for mammoth's browser build (the Worker's), `buffer` for its Node build (scripts).
    { arrayBuffer: docx.buffer.slice(docx.byteOffset, docx.byteOffset + docx.byteLength) as ArrayBuffer, buffer: docx } as never,
    // Word's page breaks (<w:br w:type="page"/>) survive as an element that breaks the printed page.
    { styleMap: ["br[type='page'] => hr.page-break"] },
  );
  return `<!doctype html><html><head><meta charset="utf-8"><style>${DOCX_CSS}</style></head><body>${value}</body></html>`;
}

/** A DOCX filled with `values` as a printable page: body HTML, and its header and footer text. */
export async function printableDocx(files: DocxFiles, values: VariableValues): Promise<{ html: string; header?: string; footer?: string }> {
  const filled = await fillDocx(files, values);
  // Only the header and footer parts are inflated again, not a second copy of every image.
  const headerFooter = docxHeaderFooter(unzipDocx(filled, HEADER_FOOTER_PARTS));
  return { html: await docxToHtml(filled), ...headerFooter };
}

export type ConvertedDocx = { index: number; original: Uint8Array; variables: string[] };

/**
 * Replaces every DOCX upload by its printed PDF (in place) and returns what to keep for each. Every
 * unusable DOCX is named in one 422 before any browser starts.
 */
export async function convertDocxUploads(launcher: BrowserLauncher, uploads: Upload[]): Promise<ConvertedDocx[]> {
  const problems: string[] = [];
  const pending: (ConvertedDocx & { page: { html: string; header?: string; footer?: string } })[] = [];
  for (const [index, upload] of uploads.entries()) {
    if (!isDocxUpload(upload)) continue;
    try {
      const files = unzipDocx(upload.bytes);
      const variables = await docxVariables(files);
      pending.push({ index, original: upload.bytes, variables, page: await printableDocx(files, {}) });
    } catch (error) {
      if (!(error instanceof UnusableDocument)) {
        // mammoth's own failures on a damaged document (missing parts, bad XML) are the file's fault.
        problems.push(`${upload.label} could not be read as a DOCX file: ${(error as Error).message}.`);
        continue;
      }
      problems.push(`${upload.label} ${error.message}.`);
    }
  }
  if (problems.length) throw unprocessable(problems.length === 1 ? problems[0] : problems);
  if (!pending.length) return [];
  const pdfs = await renderDocuments(launcher, { documents: pending.map((p) => p.page), size: 'Letter' });
  pending.forEach((p, i) => {
    const upload = uploads[p.index];
    uploads[p.index] = { ...upload, name: upload.name.replace(/\.docx$/i, ''), bytes: pdfs[i], contentType: 'application/pdf' };
  });
  return pending.map(({ index, original, variables }) => ({ index, original, variables }));
}

/** Stores each converted document's original DOCX and variables under its PDF's key. */
export async function keepDocxSources(bucket: R2Bucket, documents: { r2Key: string }[], converted: ConvertedDocx[]): Promise<void> {
  await Promise.all(
    converted.flatMap(({ index, original, variables }) => {
      const key = documents[index].r2Key;
      const source: DocxSource = { variables };
      return [
        bucket.put(docxSourceKey(key), original, {
          httpMetadata: { contentType: DOCX_CONTENT_TYPE },
        }),
        bucket.put(docxVariablesKey(key), JSON.stringify(source), { httpMetadata: { contentType: 'application/json' } }),
      ];
    }),
  );
}

/**
 * Copies the DOCX source and variables of every copied document that has them (clone, merge), so the
 * copy's submissions are still filled per submission. Returns the keys written; on failure none remain.
 */
export async function copyDocxSources(bucket: R2Bucket, copies: { from: string; to: string }[]): Promise<string[]> {
  const docx = await Promise.all(copies.map(async (copy) => ((await bucket.head(docxVariablesKey(copy.from))) ? copy : null)));
  return copyStoredFiles(
    bucket,
    docx
      .filter((copy) => copy !== null)
      .flatMap(({ from, to }) => [
        { from: docxSourceKey(from), to: docxSourceKey(to) },
        { from: docxVariablesKey(from), to: docxVariablesKey(to) },
      ]),
  );
}
