// The size of a document the service stores (decisions.md › Limits not shown): the upload checks on the
// server (services/documents/ingest.ts) and the pdf.js loader in the browser (src/browser/pdf-pages.ts)
// read the same numbers, so a page never reads more than the service would have taken.

const MB = 1024 * 1024;

export const DOCUMENT_LIMITS = {
  /** One document's file, in bytes. */
  fileBytes: 20 * MB,
  /** Pages of all of a template's documents together (so of any one of them). */
  pagesPerTemplate: 500,
} as const;
