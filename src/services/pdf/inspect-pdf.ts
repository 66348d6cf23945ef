// Reads what a template needs from an uploaded PDF (page count, page sizes) and refuses what no signer could open.
import { ParseSpeeds, PDFDocument } from 'pdf-lib';
import type { CertifiedForm, PageDimensions } from '../../db/schema/index';
import { certifiedFormFields } from './certified-form';
import { DecodedSizeExceeded, STRUCTURE_STREAMS_BUDGET } from './bounded-decode';
import { loadPdf } from './load-pdf';
import { existingSignatures, type ExistingSignatures } from './existing-signatures';
import { acceptsIncrementalUpdate } from './incremental-update';
import { latin1 } from './pdf-syntax';
import { looksLikePdf, mentionsByteRange, SCAN_WINDOW, UnusableDocument } from './pdf-file';
import { readThroughXref, type PageGeometry, type XrefReading } from './xref-reader';

export { UnusableDocument } from './pdf-file';

export type DocumentFacts = {
  pageCount: number;
  pageDimensions: PageDimensions[];
  /** A certification allowing form filling and signing (DocMDP P=2/3): the form fields the template may use. */
  certifiedForm: CertifiedForm | null;
};

const TRAILER = '%%EOF';

const UNSIGNED: ExistingSignatures = { certification: null, approval: false, lock: null, usageRights: false };

/** Sizes in PDF points as a signer sees the page: the crop box, turned by the page's /Rotate. */
function visibleSize({ width, height, rotate }: PageGeometry): PageDimensions {
  const turned = ((rotate % 360) + 360) % 180 === 90;
  return turned ? { width: Math.abs(height), height: Math.abs(width) } : { width: Math.abs(width), height: Math.abs(height) };
}

/** What the checks below need to know, however the file was read. */
type PdfReading = XrefReading & { signatures: ExistingSignatures; formFields?: CertifiedForm['fields'] };

/**
 * The fast path: the page tree through the xref. A signature's /Contents must lie outside the bytes it
 * signs (the /ByteRange gap), so a signature dictionary is always an uncompressed object; a file without
 * the text `/ByteRange` carries none, and one with it takes the full parse, which checks precisely.
 */
async function readQuickly(bytes: Uint8Array): Promise<PdfReading | undefined> {
  if (mentionsByteRange(bytes)) return undefined;
  const reading = await readThroughXref(bytes);
  return reading && { ...reading, signatures: UNSIGNED };
}

/** The forgiving path: pdf-lib parses every object, recovering files whose xref is broken. */
async function readWholeFile(bytes: Uint8Array): Promise<PdfReading> {
  let pdf: PDFDocument;
  try {
    pdf = await loadPdf(bytes, {
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
  if (pdf.isEncrypted) return { encrypted: true, signatures: UNSIGNED, pages: [] };
  try {
    const pages = pdf.getPages().map((page) => ({ ...page.getCropBox(), rotate: page.getRotation().angle }));
    const signatures = existingSignatures(pdf);
    const formFields = signatures.certification && signatures.certification > 1 ? certifiedFormFields(pdf) : undefined;
    return { encrypted: false, signatures, pages, formFields };
  } catch {
    throw new UnusableDocument('is corrupt: its page tree cannot be read');
  }
}

/** What a DocMDP permission level allows (ISO 32000-1 Table 254), for the refusal. */
const CERTIFICATION_ALLOWS: Record<2 | 3, string> = { 2: 'form filling and signing', 3: 'form filling, annotations and signing' };

/**
 * Signed files are co-signed (issue 33 › 6; decisions.md › Issue 33: co-signing PDFs that are already
 * signed): the bytes are stored as uploaded, and values, audit page and seal are appended after them
 * as incremental updates, so an approval signature stays valid for the revision it signed. A
 * certification binds what may follow: P=1 forbids any change, so it is refused; P=2 and 3 allow
 * filling the document's own form fields and signing, which is all a template of it then does
 * (values as field values, signatures in signature fields, the audit trail a file of its own). A
 * signature whose field lock sets a permission (PDF 2.0) binds as a certification does, and is refused
 * as before. A file whose last cross-reference section cannot be found cannot take an update, and
 * re-saving it whole would void its signatures. Usage rights are no signature on the document: the
 * template path has dropped them already.
 */
function refuseSigned({ certification, approval, lock }: ExistingSignatures, bytes: Uint8Array): void {
  if (certification === 1) {
    throw new UnusableDocument(
      'is certified by its author against any change (DocMDP P=1); filling it in would break that certification, so upload the document as it was before it was certified',
    );
  }
  if (lock) {
    const allows = lock === 1 ? 'no further change' : `only ${CERTIFICATION_ALLOWS[lock]}`;
    throw new UnusableDocument(
      `is signed with a lock that allows ${allows} (FieldMDP P=${lock}); the values are drawn onto its pages, which that lock forbids, so upload the document as it was before it was signed`,
    );
  }
  if ((approval || certification) && !acceptsIncrementalUpdate(bytes)) {
    throw new UnusableDocument(
      'is digitally signed but its cross-reference data is damaged, so values cannot be added after the signature without invalidating it; ask the signer for an undamaged copy',
    );
  }
}

export async function inspectPdf(bytes: Uint8Array): Promise<DocumentFacts> {
  if (!looksLikePdf(bytes)) throw new UnusableDocument('is not a PDF file');
  if (!latin1(bytes.subarray(Math.max(0, bytes.length - SCAN_WINDOW))).includes(TRAILER)) {
    throw new UnusableDocument('is truncated or corrupt (no end-of-file marker); upload the complete PDF');
  }
  let pdf: PdfReading;
  try {
    pdf = (await readQuickly(bytes)) ?? (await readWholeFile(bytes));
  } catch (error) {
    if (!(error instanceof DecodedSizeExceeded)) throw error;
    throw new UnusableDocument(`is too large to read: its compressed objects expand past ${STRUCTURE_STREAMS_BUDGET / 1024 / 1024} MB`);
  }
  if (pdf.encrypted) throw new UnusableDocument('is encrypted or password-protected; upload a copy without a password');
  refuseSigned(pdf.signatures, bytes);
  if (pdf.pages.length === 0) throw new UnusableDocument('has no pages');
  const pageDimensions = pdf.pages.map(visibleSize);
  if (pageDimensions.some((d) => !Number.isFinite(d.width) || !Number.isFinite(d.height) || d.width <= 0 || d.height <= 0)) {
    throw new UnusableDocument('is corrupt: a page has no usable size');
  }
  const { certification } = pdf.signatures;
  const certifiedForm = certification === 2 || certification === 3 ? { permission: certification, fields: pdf.formFields ?? [] } : null;
  return { pageCount: pdf.pages.length, pageDimensions, certifiedForm };
}
