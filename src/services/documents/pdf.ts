// Reads what a template needs from an uploaded PDF (page count, page sizes) and refuses what no signer could open.
import { ParseSpeeds, PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import type { PageDimensions } from '../../db/schema/index';

export type DocumentFacts = { pageCount: number; pageDimensions: PageDimensions[] };

/** A reason an upload cannot be used, as the end of a sentence: "… is encrypted; remove the password …". */
export class UnusableDocument extends Error {}

const HEADER = '%PDF-';
const TRAILER = '%%EOF';
/** Readers accept the header within the first 1024 bytes and %%EOF within the last 1024 (PDF 32000 § 7.5). */
const SCAN_WINDOW = 1024;

/** Byte-per-character text, enough to find the ASCII markers (windows-1252 differs only above 0x7f). */
const LATIN1 = new TextDecoder('latin1');

function latin1(bytes: Uint8Array): string {
  return LATIN1.decode(bytes);
}

export function looksLikePdf(bytes: Uint8Array): boolean {
  return latin1(bytes.subarray(0, SCAN_WINDOW)).includes(HEADER);
}

const BYTE_RANGE = PDFName.of('ByteRange');
const CONTENTS = PDFName.of('Contents');

/**
 * Whether any object is a filled signature dictionary (a /ByteRange with /Contents, ISO 32000-1
 * § 12.8.1). pdf-lib has parsed object streams too, so signatures stored compressed are found;
 * an empty signature field (no value yet) is not a signature.
 */
function isDigitallySigned(pdf: PDFDocument): boolean {
  return pdf.context.enumerateIndirectObjects().some(([, object]) => object instanceof PDFDict && object.has(BYTE_RANGE) && object.has(CONTENTS));
}

/** Sizes in PDF points as a signer sees the page: the crop box, turned by the page's /Rotate. */
function visibleSize(page: ReturnType<PDFDocument['getPage']>): PageDimensions {
  const { width, height } = page.getCropBox();
  const turned = ((page.getRotation().angle % 360) + 360) % 180 === 90;
  return turned ? { width: Math.abs(height), height: Math.abs(width) } : { width: Math.abs(width), height: Math.abs(height) };
}

export async function inspectPdf(bytes: Uint8Array): Promise<DocumentFacts> {
  if (!looksLikePdf(bytes)) throw new UnusableDocument('is not a PDF file');
  if (!latin1(bytes.subarray(Math.max(0, bytes.length - SCAN_WINDOW))).includes(TRAILER)) {
    throw new UnusableDocument('is truncated or corrupt (no end-of-file marker); upload the complete PDF');
  }
  let pdf: PDFDocument;
  try {
    pdf = await PDFDocument.load(bytes, {
      // The PDF is read, never re-saved: the stored bytes are the uploaded bytes.
      updateMetadata: false,
      throwOnInvalidObject: true,
      parseSpeed: ParseSpeeds.Fastest,
      // Checked below through isEncrypted: pdf-lib's own error class is ES5-compiled and fails instanceof.
      ignoreEncryption: true,
    });
  } catch {
    throw new UnusableDocument('is corrupt and cannot be read as a PDF');
  }
  if (pdf.isEncrypted) throw new UnusableDocument('is encrypted or password-protected; upload a copy without a password');
  // Stamped values would be changes after signing, which certification signatures forbid and viewers
  // flag on approval ones (decisions.md › Signed output), so such files are refused, never silently broken.
  if (isDigitallySigned(pdf)) {
    throw new UnusableDocument('is already digitally signed; filling it in would invalidate that signature, so upload the document as it was before signing');
  }
  let pages: ReturnType<PDFDocument['getPages']>;
  try {
    pages = pdf.getPages();
  } catch {
    throw new UnusableDocument('is corrupt: its page tree cannot be read');
  }
  if (pages.length === 0) throw new UnusableDocument('has no pages');
  const pageDimensions = pages.map(visibleSize);
  if (pageDimensions.some((d) => !Number.isFinite(d.width) || !Number.isFinite(d.height) || d.width <= 0 || d.height <= 0)) {
    throw new UnusableDocument('is corrupt: a page has no usable size');
  }
  return { pageCount: pages.length, pageDimensions };
}
