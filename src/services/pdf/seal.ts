// Seals one completed document: values stamped at their areas, the audit trail appended, and a PAdES
// signature from the account's identity over the whole file.
import { ParseSpeeds, PDFName, type PDFDocument, type PDFRef } from 'pdf-lib';
import { loadPdf } from './load-pdf';
import { sha256Hex } from '../../lib/crypto';
import { appendAuditTrail, type AuditEntry, type AuditTrail } from './audit-page';
import type { SigningIdentity } from './certificate';
import type { DocumentSigner } from './cms-signature';
import { DocumentFonts, type FontSource } from './fonts';
import { dropUsageRights, existingSignatures, signaturesWithin } from './existing-signatures';
import { describeOriginal, UnreadableTrailer, type OriginalFile } from './incremental-update';
import {
  addLongTermValidation,
  prepareSignature,
  signPdfIncrementally,
  signWholePdf,
  type PreparedSignature,
  type SignatureDetails,
  type SignedPdf,
} from './pades';
import { collectValidationData } from './validation-data';
import { stampFields, type FieldStamp, type UndrawnValue } from './stamp';
import type { Timestamper } from './timestamp';
import { translatorFor } from '../../lib/i18n/catalogs';
import { DEFAULT_LOCALE } from '../../shared/i18n/locales';
import type { Translate } from '../../shared/i18n/translator';

export type SealInput = {
  original: Uint8Array;
  stamps: readonly FieldStamp[];
  trail: Omit<AuditTrail, 'originalSha256'>;
  signer: SigningIdentity;
  signature: SignatureDetails;
  /**
   * The time-stamping authorities' client (TSA_URLS): the seal is then B-T. Without one it is B-B,
   * which only development and tests allow (decisions.md › Signature levels), and the audit page says so.
   */
  timestamper?: Timestamper;
  /** How OCSP responders are reached (bench/seal times it); the global fetch otherwise. */
  fetcher?: typeof fetch;
  /**
   * aes (issue 18 › 2): each signer's values and own signature, in signing order, each an incremental
   * update before the audit page and the seal. `stamps` then holds only what no signer signs.
   */
  signerSteps?: readonly SignerStep[];
  /**
   * qes (issue 18 › 3): the CMS of signatures `original` already carries (each qes signer's), whose
   * certificates and revocation data go into the DSS with the seal's.
   */
  priorSignatures?: readonly Uint8Array[];
  /** The document as first uploaded, when `original` is a later revision of it (qes). */
  originalSha256?: string;
  /** Fonts kept out of the bundle (CJK), read when a value or the audit page needs them (fonts.ts). */
  fontSource?: FontSource;
};

/** One signer's part of the file: their values stamped, then their signature over everything so far. */
export type SignerStep = { stamps: readonly FieldStamp[]; signer: DocumentSigner; signature: SignatureDetails };

export type SealedDocument = {
  bytes: Uint8Array;
  sha256: string;
  originalSha256: string;
  /** Pictures drawn as placeholders; the audit page lists them too. */
  undrawn: UndrawnValue[];
};

/** The audit page's sentence on the level the document is sealed at, in the page's language. */
export function signatureLevelText(timestamped: boolean, t: Translate): string {
  return t(timestamped ? 'audit.signature_level.b_lta' : 'audit.signature_level.b_b');
}

/** How the audit page records a value drawn as a placeholder. */
export function undrawnEntry(value: UndrawnValue, at: string, t: Translate): AuditEntry {
  return {
    at,
    event: t('audit.event.value_not_drawn'),
    actor: t('audit.actor.sealing'),
    ip: null,
    detail: t('audit.detail.placeholder_drawn', { field: value.field, page: String(value.page), reason: value.reason }),
  };
}

const PERMS = PDFName.of('Perms');

/**
 * A file carrying signatures made elsewhere whose cross-reference chain cannot be continued: re-saving
 * it whole would void those signatures, so it is not sealed (the upload refuses such files: inspect-pdf.ts).
 */
export class SignedFileNotAppendable extends Error {}

/**
 * The audit page's line for a document that came signed by others (issue 33 › 6), or null: told by the
 * signatures whose byte ranges end within the upload, which ours, appended later, never do.
 */
function earlierSignaturesEntry(pdf: PDFDocument, uploadLength: number, at: string, t: Translate): AuditEntry | null {
  const count = signaturesWithin(pdf, uploadLength);
  if (count === 0) return null;
  return {
    at,
    event: t('audit.event.earlier_signatures_kept'),
    actor: t('audit.actor.sealing'),
    ip: null,
    detail: t('audit.detail.earlier_signatures_kept', { count }),
  };
}

/** The file loaded for one more update; `original` is null when its trailer needs repair (then saved whole). */
async function openForUpdate(bytes: Uint8Array): Promise<{ pdf: PDFDocument; original: OriginalFile | null }> {
  // Fastest: parse without yielding to the event loop every 100 objects; the job has nothing to interleave.
  const pdf = await loadPdf(bytes, { updateMetadata: false, parseSpeed: ParseSpeeds.Fastest });
  // A signed upload is stored byte for byte, usage rights included (issue 33 › 6); filling voids them,
  // so the update drops them as the upload path drops an unsigned form's (existing-signatures.ts).
  if (pdf.catalog.has(PERMS)) dropUsageRights(pdf);
  try {
    return { pdf, original: describeOriginal(bytes, pdf) };
  } catch (error) {
    // A file whose cross-reference chain pdf-lib had to repair cannot be updated incrementally; it is
    // re-saved whole instead (its original bytes then only survive as the SHA-256 on the audit page),
    // unless it is signed (issue 33 › 6): then the earlier signatures would silently break.
    if (!(error instanceof UnreadableTrailer)) throw error;
    const { approval, certification } = existingSignatures(pdf);
    if (approval || certification) throw new SignedFileNotAppendable(error.message);
    return { pdf, original: null };
  }
}

const pagesOf = (pdf: PDFDocument, stamps: readonly FieldStamp[]): PDFRef[] =>
  [...new Set(stamps.map((s) => s.area.page))].map((n) => pdf.getPage(n - 1).ref);

/**
 * One write only per loaded document, appended to the bytes it was loaded from (an incremental update):
 * pdf-lib writes subset fonts when flushed, so a second write would lose glyphs.
 */
function signUpdate(
  pdf: PDFDocument,
  original: OriginalFile | null,
  pages: PDFRef[],
  signer: SigningIdentity | DocumentSigner,
  details: SignatureDetails,
  timestamper?: Timestamper,
): Promise<SignedPdf> {
  return original
    ? signPdfIncrementally(pdf, original, pages, signer, details, timestamper)
    : signWholePdf(pdf, signer, details, timestamper);
}

/** A signer's step on the file so far: a fresh load, their stamps, their signature (issue 18 › 2). */
async function signerUpdate(
  bytes: Uint8Array,
  step: SignerStep,
  timestamper?: Timestamper,
  fontSource?: FontSource,
): Promise<{ signed: SignedPdf; undrawn: UndrawnValue[] }> {
  const { pdf, original } = await openForUpdate(bytes);
  const undrawn = await stampFields(pdf, step.stamps, new DocumentFonts(pdf, fontSource));
  const signed = await signUpdate(
    pdf,
    original,
    pagesOf(pdf, step.stamps),
    step.signer,
    { fieldTitle: 'Signature', ...step.signature },
    timestamper,
  );
  return { signed, undrawn };
}

/**
 * A qes signer's revision before the provider signs (issue 18 › 3): a fresh load of the file so far,
 * their stamps, and a reserved signature whose byte ranges are hashed; the CMS comes later.
 */
export async function prepareSignerRevision(
  bytes: Uint8Array,
  stamps: readonly FieldStamp[],
  signature: SignatureDetails,
  fontSource?: FontSource,
): Promise<{ prepared: PreparedSignature; undrawn: UndrawnValue[] }> {
  const { pdf, original } = await openForUpdate(bytes);
  const undrawn = await stampFields(pdf, stamps, new DocumentFonts(pdf, fontSource));
  const prepared = await prepareSignature(pdf, original, pagesOf(pdf, stamps), { fieldTitle: 'Signature', ...signature });
  return { prepared, undrawn };
}

export async function sealDocument(input: SealInput): Promise<SealedDocument> {
  const originalSha256 = input.originalSha256 ?? (await sha256Hex(input.original));
  let current = input.original;
  const undrawn: UndrawnValue[] = [];
  const signatures: Uint8Array[] = [...(input.priorSignatures ?? [])];
  for (const step of input.signerSteps ?? []) {
    const done = await signerUpdate(current, step, input.timestamper, input.fontSource);
    current = done.signed.bytes;
    signatures.push(done.signed.contents);
    undrawn.push(...done.undrawn);
  }
  const { pdf, original } = await openForUpdate(current);
  const fonts = new DocumentFonts(pdf, input.fontSource);
  undrawn.push(...(await stampFields(pdf, input.stamps, fonts)));
  const at = new Date().toISOString();
  // At qes the file is already a revision holding our signers' signatures, which are not "elsewhere".
  // What the sealing adds to the page is written in the page's language, like the trail before it.
  const t = translatorFor(input.trail.locale ?? DEFAULT_LOCALE);
  const earlier = input.priorSignatures ? null : earlierSignaturesEntry(pdf, input.original.length, at, t);
  const events = [...input.trail.events, ...(earlier ? [earlier] : []), ...undrawn.map((u) => undrawnEntry(u, at, t))];
  const signatureLevel = signatureLevelText(Boolean(input.timestamper), t);
  await appendAuditTrail(pdf, { ...input.trail, events, originalSha256, signatureLevel }, fonts);
  // The sealed file's own SHA-256 cannot be printed inside it; it is returned for the API and webhooks,
  // and the signature proves the file unchanged.
  const signed = await signUpdate(pdf, original, pagesOf(pdf, input.stamps), input.signer, input.signature, input.timestamper);
  signatures.push(signed.contents);
  // B-LTA: the validation data of every signature and its timestamp, then a document timestamp over all.
  const bytes = input.timestamper
    ? await addLongTermValidation(pdf, signed.bytes, await collectValidationData(signatures, input.fetcher), input.timestamper)
    : signed.bytes;
  return { bytes, sha256: await sha256Hex(bytes), originalSha256, undrawn };
}
