// PAdES signatures on PDFs produced with pdf-lib: a signature field whose dictionary reserves room for
// the CMS, then the byte ranges around that room are hashed and signed (ISO 32000-1 § 12.8.1).
import { PDFArray, PDFDict, PDFHexString, PDFName, PDFNumber, PDFString, type PDFDocument, type PDFRef } from 'pdf-lib';
import { pdfString } from './pdf-string';
import type { SigningIdentity } from './certificate';
import { toHex } from '../../lib/crypto';
import { createCadesDetachedSignature, type DocumentSigner } from './cms-signature';
import type { Timestamper } from './timestamp';
import { describeOriginal, writeIncrementalUpdate, type OriginalFile } from './incremental-update';
import type { ValidationData } from './validation-data';

export type SignatureDetails = {
  /** Who signs: shown by viewers as the signer (the account, for a seal). */
  name: string;
  reason?: string;
  location?: string;
  contactInfo?: string;
  signingTime?: Date;
  /** The signature field's name before its unique suffix: `Seal` unless given (`Signature` for a signer). */
  fieldTitle?: string;
  /**
   * An empty signature field of the document to sign into, with the picture its widget shows (a
   * certified form's, issue 33 › 6); otherwise a new invisible field is added.
   */
  target?: { field: PDFRef; widget: PDFRef; appearance: PDFRef };
};

/** Bytes reserved for the DER CMS: a 2048–4096-bit RSA chain fits with room for a timestamp token later. */
const CONTENTS_BYTES = 16_384;
const RANGE_PLACEHOLDER = '**********';
const encoder = new TextEncoder();

/** A signature dictionary with room for its contents: a CMS signature, or an RFC 3161 document timestamp. */
function signatureDictionary(pdf: PDFDocument, details: SignatureDetails | 'document-timestamp') {
  const byteRange = PDFArray.withContext(pdf.context);
  byteRange.push(PDFNumber.of(0));
  for (let i = 0; i < 3; i += 1) byteRange.push(PDFName.of(RANGE_PLACEHOLDER));
  const contents = PDFHexString.of('0'.repeat(CONTENTS_BYTES * 2));
  if (details === 'document-timestamp') {
    // ISO 32000-2 § 12.8.5: the time is the token's; a document timestamp names no signer.
    return pdf.context.obj({
      Type: 'DocTimeStamp',
      Filter: 'Adobe.PPKLite',
      SubFilter: 'ETSI.RFC3161',
      ByteRange: byteRange,
      Contents: contents,
    });
  }
  return pdf.context.obj({
    Type: 'Sig',
    Filter: 'Adobe.PPKLite',
    SubFilter: 'ETSI.CAdES.detached',
    ByteRange: byteRange,
    Contents: contents,
    M: PDFString.fromDate(details.signingTime ?? new Date()),
    // Names come from accounts and signers (a delegate types their own): never written unescaped.
    Name: pdfString(details.name),
    ...(details.reason ? { Reason: pdfString(details.reason) } : {}),
    ...(details.location ? { Location: pdfString(details.location) } : {}),
    ...(details.contactInfo ? { ContactInfo: pdfString(details.contactInfo) } : {}),
  });
}

/** Adds the signature (and its field, unless it signs into one the document has); returns the objects changed in place. */
function addSignatureField(pdf: PDFDocument, details: SignatureDetails | 'document-timestamp'): PDFRef[] {
  const { context } = pdf;
  const signature = signatureDictionary(pdf, details);
  if (details !== 'document-timestamp' && details.target) {
    const { field, widget, appearance } = details.target;
    context.lookup(field, PDFDict).set(PDFName.of('V'), context.register(signature));
    context.lookup(widget, PDFDict).set(PDFName.of('AP'), context.obj({ N: appearance }));
    pdf.catalog.getOrCreateAcroForm().dict.set(PDFName.of('SigFlags'), PDFNumber.of(3));
    return [field, widget];
  }
  const page = pdf.getPage(pdf.getPageCount() - 1);
  const title = details === 'document-timestamp' ? 'Timestamp' : (details.fieldTitle ?? 'Seal');
  // An invisible widget (zero rect, Print flag) on the last page: the seal is the certificate, not a picture.
  const widget = context.register(
    context.obj({
      Type: 'Annot',
      Subtype: 'Widget',
      FT: 'Sig',
      Rect: [0, 0, 0, 0],
      F: 4,
      T: pdfString(`${title} ${crypto.randomUUID()}`),
      V: context.register(signature),
      P: page.ref,
    }),
  );
  // Not page.node.addAnnot: pdf-lib would first normalise the page (its /Contents wrapped in q/Q, its
  // /Resources rewritten), a change to page content no certification allows (issue 33 › 6).
  const annots = page.node.lookup(PDFName.of('Annots'));
  if (annots instanceof PDFArray) annots.push(widget);
  else page.node.set(PDFName.of('Annots'), context.obj([widget]));
  const form = pdf.catalog.getOrCreateAcroForm();
  form.addField(widget);
  // SignaturesExist | AppendOnly (ISO 32000-1 Table 219).
  form.dict.set(PDFName.of('SigFlags'), PDFNumber.of(3));
  return [page.ref];
}

function indexOfBytes(haystack: Uint8Array, needle: Uint8Array, from = 0): number {
  const first = needle[0];
  const last = haystack.length - needle.length;
  outer: for (let i = haystack.indexOf(first, from); i !== -1 && i <= last; i = haystack.indexOf(first, i + 1)) {
    for (let j = 1; j < needle.length; j += 1) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** SHA-256 over byte ranges without joining them into one copy (a sealed file may be tens of MB). */
async function digestRanges(parts: readonly Uint8Array[]): Promise<Uint8Array> {
  const stream = new crypto.DigestStream('SHA-256');
  const writer = stream.getWriter();
  for (const part of parts) await writer.write(part);
  await writer.close();
  return new Uint8Array(await stream.digest);
}

/** What a filled signature's /Contents holds, made from the SHA-256 of the byte ranges. */
type ContentsMaker = (digest: Uint8Array) => Promise<Uint8Array>;

export type SignedPdf = { bytes: Uint8Array /** The DER written into /Contents. */; contents: Uint8Array };

/**
 * Fills the reserved signature of a saved PDF in place: writes the /ByteRange, hashes the covered
 * bytes and writes the contents (a CMS, or a timestamp token) into /Contents. The file length never
 * changes, so the ranges stay true. `from` is where to start looking for the placeholder (the start
 * of the update that added it).
 */
async function fillReserved(bytes: Uint8Array, from: number, make: ContentsMaker): Promise<SignedPdf> {
  const placeholder = encoder.encode(`<${'0'.repeat(CONTENTS_BYTES * 2)}>`);
  const contentsStart = indexOfBytes(bytes, placeholder, from);
  if (contentsStart === -1) throw new Error('The PDF has no reserved signature contents.');
  const contentsEnd = contentsStart + placeholder.length;

  const rangeMarker = encoder.encode(`/${RANGE_PLACEHOLDER}`);
  const rangeOpen = bytes.lastIndexOf(0x5b /* [ */, indexOfBytes(bytes, rangeMarker, from));
  const rangeClose = bytes.indexOf(0x5d /* ] */, rangeOpen);
  if (rangeOpen < 0 || rangeClose < 0) throw new Error('The PDF has no reserved byte range.');
  const ranges = [0, contentsStart, contentsEnd, bytes.length - contentsEnd];
  const rangeText = `[${ranges.join(' ')}`;
  const width = rangeClose - rangeOpen;
  if (rangeText.length > width) throw new Error('The byte range does not fit its placeholder.');
  bytes.set(encoder.encode(rangeText.padEnd(width, ' ')), rangeOpen);

  const digest = await digestRanges([bytes.subarray(0, contentsStart), bytes.subarray(contentsEnd)]);
  const contents = await make(digest);
  if (contents.length > CONTENTS_BYTES) throw new Error(`The signature (${contents.length} bytes) exceeds the reserved ${CONTENTS_BYTES}.`);
  bytes.set(encoder.encode(toHex(contents)), contentsStart + 1);
  return { bytes, contents };
}

const cadesContents =
  (signer: SigningIdentity | DocumentSigner, timestamper?: Timestamper): ContentsMaker =>
  (digest) =>
    createCadesDetachedSignature(digest, signer, timestamper);

/**
 * Signs a pdf-lib document with a PAdES signature by re-saving the whole file; returns the final bytes.
 * B-B, or B-T with a timestamper.
 */
export async function signPdf(
  pdf: PDFDocument,
  signer: SigningIdentity | DocumentSigner,
  details: SignatureDetails,
  timestamper?: Timestamper,
): Promise<Uint8Array> {
  return (await signWholePdf(pdf, signer, details, timestamper)).bytes;
}

/** signPdf, also returning the CMS it wrote. */
export async function signWholePdf(
  pdf: PDFDocument,
  signer: SigningIdentity | DocumentSigner,
  details: SignatureDetails,
  timestamper?: Timestamper,
): Promise<SignedPdf> {
  addSignatureField(pdf, details);
  // Without object streams the reserved /Contents stays literal text in the file, where it can be filled.
  const bytes = await pdf.save({ useObjectStreams: false });
  return fillReserved(bytes, 0, cadesContents(signer, timestamper));
}

/**
 * Signs the changes made to a loaded document as one incremental update appended to its original
 * bytes (decisions.md › Signed output): only new and changed objects are written, and the signature
 * covers the whole resulting file.
 */
export async function signPdfIncrementally(
  pdf: PDFDocument,
  original: OriginalFile,
  touchedPages: readonly PDFRef[],
  signer: SigningIdentity | DocumentSigner,
  details: SignatureDetails,
  timestamper?: Timestamper,
): Promise<SignedPdf> {
  // The widget's page gains an annotation: it is rewritten too (an original page when a signer signs).
  const widgetPage = addSignatureField(pdf, details);
  // Embeds fonts and images registered with the document; save() would do this first.
  await pdf.flush();
  const { bytes, updateStart } = writeIncrementalUpdate(pdf, original, [...touchedPages, ...widgetPage]);
  return fillReserved(bytes, updateStart, cadesContents(signer, timestamper));
}

/** A signature reserved and its byte ranges fixed, waiting for a CMS made elsewhere (a QES provider). */
export type PreparedSignature = {
  bytes: Uint8Array;
  /** SHA-256 of the byte ranges: what the CMS's messageDigest must be. */
  digest: Uint8Array;
  /** Where the update holding the reserved /Contents starts. */
  updateStart: number;
};

/**
 * signPdfIncrementally's first half (the whole file re-saved when `original` is null): the update is
 * written and its ranges hashed, the /Contents left empty for embedPreparedSignature.
 */
export async function prepareSignature(
  pdf: PDFDocument,
  original: OriginalFile | null,
  touchedPages: readonly PDFRef[],
  details: SignatureDetails,
): Promise<PreparedSignature> {
  const widgetPage = addSignatureField(pdf, details);
  let written: { bytes: Uint8Array; updateStart: number };
  if (original) {
    await pdf.flush();
    written = writeIncrementalUpdate(pdf, original, [...touchedPages, ...widgetPage]);
  } else {
    written = { bytes: await pdf.save({ useObjectStreams: false }), updateStart: 0 };
  }
  let digest: Uint8Array = new Uint8Array(0);
  const { bytes } = await fillReserved(written.bytes, written.updateStart, async (d) => {
    digest = d;
    return new Uint8Array(0);
  });
  return { bytes, digest, updateStart: written.updateStart };
}

/** Writes a CMS into the /Contents prepareSignature left empty; the ranges and length do not change. */
export function embedPreparedSignature(prepared: Pick<PreparedSignature, 'bytes' | 'updateStart'>, contents: Uint8Array): Uint8Array {
  const placeholder = encoder.encode(`<${'0'.repeat(CONTENTS_BYTES * 2)}>`);
  const at = indexOfBytes(prepared.bytes, placeholder, prepared.updateStart);
  if (at === -1) throw new Error('The prepared PDF has no empty signature contents.');
  if (contents.length > CONTENTS_BYTES) throw new Error(`The signature (${contents.length} bytes) exceeds the reserved ${CONTENTS_BYTES}.`);
  const bytes = prepared.bytes.slice();
  bytes.set(encoder.encode(toHex(contents)), at + 1);
  return bytes;
}

/**
 * PAdES B-LT and B-LTA (ETSI EN 319 142-1 §§ 5.4, 5.5) as one more incremental update of a signed
 * file: a document security store (/DSS with /Certs, /OCSPs, /CRLs; ISO 32000-2 § 12.8.4.3) holding
 * the validation data, and a document timestamp (/SubFilter /ETSI.RFC3161) over the whole file,
 * DSS included. `pdf` is the document the file was saved from, still in memory: the update only
 * adds objects and rewrites the catalog, the form and the last page, so the earlier signature's
 * objects stay as written. The timestamp's own validation data is for the next archive timestamp.
 */
export async function addLongTermValidation(
  pdf: PDFDocument,
  signed: Uint8Array,
  data: ValidationData,
  timestamper: Timestamper,
): Promise<Uint8Array> {
  const original = describeOriginal(signed, pdf);
  const { context } = pdf;
  const streams = (items: Uint8Array[]) => items.map((bytes) => context.register(context.stream(bytes)));
  const dss = context.obj({ Type: 'DSS', Certs: streams(data.certificates), OCSPs: streams(data.ocsps), CRLs: streams(data.crls) });
  pdf.catalog.set(PDFName.of('DSS'), context.register(dss));
  const touched = addSignatureField(pdf, 'document-timestamp');
  const { bytes, updateStart } = writeIncrementalUpdate(pdf, original, touched);
  return (await fillReserved(bytes, updateStart, timestamper)).bytes;
}
