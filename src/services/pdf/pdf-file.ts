// What can be told about an upload without reading it as a PDF: the header sniff, whether it mentions a
// signature, and the refusal type.
// Kept apart from inspect-pdf.ts so code that only sniffs or refuses does not load pdf-lib (decisions.md › Cold start).
import { latin1 } from './pdf-syntax';

/** A reason an upload cannot be used, as the end of a sentence: "… is encrypted; remove the password …". */
export class UnusableDocument extends Error {}

/** Readers accept the header within the first 1024 bytes and %%EOF within the last 1024 (PDF 32000 § 7.5). */
export const SCAN_WINDOW = 1024;

export function looksLikePdf(bytes: Uint8Array): boolean {
  return latin1(bytes.subarray(0, SCAN_WINDOW)).includes('%PDF-');
}

/** Whether the bytes contain `/ByteRange` anywhere: signature dictionaries are never compressed. */
export function mentionsByteRange(bytes: Uint8Array): boolean {
  const needle = '/ByteRange';
  for (let at = bytes.indexOf(0x2f); at !== -1; at = bytes.indexOf(0x2f, at + 1)) {
    let i = 1;
    while (i < needle.length && bytes[at + i] === needle.charCodeAt(i)) i += 1;
    if (i === needle.length) return true;
  }
  return false;
}
