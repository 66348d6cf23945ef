// How much of a document the browser reads and draws: no more than the service stores
// (src/shared/document-limits.ts). Pure, so the tests run it without a browser.
import { DOCUMENT_LIMITS } from '../shared/document-limits';
import type { DocumentView } from '../shared/template-schema';

/** Why a download of `bytes` is stopped (larger than the service stores), or null when it may go on. */
export function tooLargeSentence(bytes: number): string | null {
  const limit = DOCUMENT_LIMITS.fileBytes;
  return bytes > limit ? `the file is larger than ${limit / (1024 * 1024)} MB, the most a document may be.` : null;
}

/** The pages of a document there are containers for: those the service counted, never more than a template may have. */
export function pagesOf(doc: Pick<DocumentView, 'page_count'>): number {
  return Math.min(doc.page_count, DOCUMENT_LIMITS.pagesPerTemplate);
}
