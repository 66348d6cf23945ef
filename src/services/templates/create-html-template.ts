// Templates from HTML (spec › Template document: `.html` rendered to PDF; decisions.md › Documents in):
// each document is printed through Browser Rendering, then created exactly like a PDF upload; the
// HTML source is kept beside each document's PDF in R2 for later re-rendering.
import type { BrowserLauncher } from '../rendering/browser-launches';
import type { PageSize } from '../rendering/html-to-pdf';
import { renderDocuments } from '../rendering/print-documents';
import { createTemplate, type TemplateWithDocuments } from './create-template';
import type { TemplateContext } from './template-records';

export type HtmlTemplateInput = {
  name?: string;
  external_id?: string | null;
  folder_name?: string;
  shared?: boolean;
  size: PageSize;
  header?: string;
  footer?: string;
  documents: { name?: string; html: string }[];
};

/** What re-rendering a document needs, stored as JSON at `htmlSourceKey(r2Key)`. */
export type HtmlSource = { html: string; html_header: string | null; html_footer: string | null; size: PageSize };

/** The HTML source of a document lives beside its PDF, under the PDF's key. */
export function htmlSourceKey(documentR2Key: string): string {
  return `${documentR2Key}/source.json`;
}

export async function createHtmlTemplate(
  ctx: TemplateContext,
  launcher: BrowserLauncher,
  input: HtmlTemplateInput,
): Promise<TemplateWithDocuments> {
  const pdfs = await renderDocuments(launcher, input);
  const documents = input.documents.map((document, i) => ({
    label: document.name ? `documents[${i}] "${document.name}"` : `documents[${i}]`,
    name: document.name?.trim() || input.name?.trim() || `Document ${i + 1}`,
    bytes: pdfs[i],
    contentType: 'application/pdf',
  }));
  const created = await createTemplate(ctx, { ...input, documents });
  // After the rows exist (their keys are chosen by the ingest): a lost write costs re-rendering only.
  await Promise.all(
    created.documents.map((document, i) => {
      const source: HtmlSource = {
        html: input.documents[i].html,
        html_header: input.header ?? null,
        html_footer: input.footer ?? null,
        size: input.size,
      };
      return ctx.bucket.put(htmlSourceKey(document.r2Key), JSON.stringify(source), { httpMetadata: { contentType: 'application/json' } });
    }),
  );
  return created;
}
