// Seals one completed document: values stamped at their areas, the audit trail appended, and a PAdES
// signature from the account's identity over the whole file.
import { ParseSpeeds, PDFDocument, PDFName, type PDFRef } from 'pdf-lib';
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
import { fillCertifiedForm, type SignatureTarget } from './certified-form';
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
  /**
   * A document certified for form filling (DocMDP P=2/3) takes no page: its audit trail is this file
   * of its own, sealed by the account, naming the sealed document's SHA-256 (issue 33 › 6).
   */
  auditTrail?: { bytes: Uint8Array; sha256: string };
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
    detail: t('audit.detail.placeholder_drawn', {
      field: value.field,
      page: String(value.page),
      reason: value.why ? t(value.why.key, value.why.values) : value.reason,
    }),
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

/** A file loaded for one more update: `certified` when its author allows form filling only (DocMDP P=2/3). */
type Opened = { pdf: PDFDocument; original: OriginalFile | null; certified: 2 | 3 | null };

/** The file loaded for one more update; `original` is null when its trailer needs repair (then saved whole). */
async function openForUpdate(bytes: Uint8Array): Promise<Opened> {
  // Fastest: parse without yielding to the event loop every 100 objects; the job has nothing to interleave.
  const pdf = await loadPdf(bytes, { updateMetadata: false, parseSpeed: ParseSpeeds.Fastest });
  // A signed upload is stored byte for byte, usage rights included (issue 33 › 6); filling voids them,
  // so the update drops them as the upload path drops an unsigned form's (existing-signatures.ts).
  if (pdf.catalog.has(PERMS)) dropUsageRights(pdf);
  const { certification } = pdf.catalog.has(PERMS) ? existingSignatures(pdf) : { certification: null };
  const certified = certification === 2 || certification === 3 ? certification : null;
  try {
    return { pdf, original: describeOriginal(bytes, pdf), certified };
  } catch (error) {
    // A file whose cross-reference chain pdf-lib had to repair cannot be updated incrementally; it is
    // re-saved whole instead (its original bytes then only survive as the SHA-256 on the audit page),
    // unless it is signed (issue 33 › 6): then the earlier signatures would silently break.
    if (!(error instanceof UnreadableTrailer)) throw error;
    const { approval, certification } = existingSignatures(pdf);
    if (approval || certification) throw new SignedFileNotAppendable(error.message);
    return { pdf, original: null, certified: null };
  }
}

const pagesOf = (pdf: PDFDocument, stamps: readonly FieldStamp[]): PDFRef[] =>
  [...new Set(stamps.map((s) => s.area.page))].map((n) => pdf.getPage(n - 1).ref);

/** What one update's values changed: the objects to rewrite, and a certified form's filled signature fields. */
type Applied = { touched: PDFRef[]; undrawn: UndrawnValue[]; signatures: SignatureTarget[] };

/**
 * The values of one update: drawn onto their pages, or on a certified form (issue 33 › 6) written
 * into its own fields, nothing drawn, the filled signature fields returned for signatures to go into.
 */
async function applyValues({ pdf, certified }: Opened, stamps: readonly FieldStamp[], fonts: DocumentFonts): Promise<Applied> {
  if (certified) return fillCertifiedForm(pdf, stamps, fonts);
  return { touched: pagesOf(pdf, stamps), undrawn: await stampFields(pdf, stamps, fonts), signatures: [] };
}

/** The stamps of the signature fields in `targets` (those a signature still has to go into). */
const stampsOf = (stamps: readonly FieldStamp[], targets: readonly SignatureTarget[]): FieldStamp[] =>
  stamps.filter((s) => targets.some((t) => t.name === s.field));

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

/**
 * A signer's step on the file so far: a fresh load, their stamps, their signature (issue 18 › 2). On a
 * certified form their signature goes into their first filled signature field; any further ones are
 * returned (`pending`) for the seal's steps.
 */
async function signerUpdate(
  bytes: Uint8Array,
  step: SignerStep,
  timestamper?: Timestamper,
  fontSource?: FontSource,
): Promise<{ signed: SignedPdf; undrawn: UndrawnValue[]; pending: FieldStamp[] }> {
  const opened = await openForUpdate(bytes);
  const { touched, undrawn, signatures } = await applyValues(opened, step.stamps, new DocumentFonts(opened.pdf, fontSource));
  const [own, ...others] = signatures;
  const details = { fieldTitle: 'Signature', ...step.signature, ...(own ? { target: own } : {}) };
  const signed = await signUpdate(opened.pdf, opened.original, touched, step.signer, details, timestamper);
  return { signed, undrawn, pending: stampsOf(step.stamps, others) };
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
  const opened = await openForUpdate(bytes);
  const { touched, undrawn, signatures } = await applyValues(opened, stamps, new DocumentFonts(opened.pdf, fontSource));
  const details = { fieldTitle: 'Signature', ...signature, ...(signatures[0] ? { target: signatures[0] } : {}) };
  const prepared = await prepareSignature(opened.pdf, opened.original, touched, details);
  return { prepared, undrawn };
}

/**
 * The audit trail of a certified document as a file of its own (no page may be added to it): the
 * trail's pages in a new PDF, sealed by the account like the document.
 */
async function separateAuditTrail(input: SealInput, trail: AuditTrail): Promise<{ bytes: Uint8Array; sha256: string }> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.setTitle(`Audit trail: ${trail.documentName}`);
  await appendAuditTrail(pdf, trail, new DocumentFonts(pdf, input.fontSource));
  const details = { ...input.signature, reason: `Audit trail of ${trail.documentName} (${trail.submissionRef})` };
  const { bytes } = await signWholePdf(pdf, input.signer, details, input.timestamper);
  return { bytes, sha256: await sha256Hex(bytes) };
}

/** The audit trail's line for a certified document: what was done to keep its certification valid. */
function certifiedEntry(level: 2 | 3, sha256: string, at: string, t: Translate): AuditEntry {
  return {
    at,
    event: t('audit.event.certification_kept'),
    actor: t('audit.actor.sealing'),
    ip: null,
    detail: t('audit.detail.certification_kept', { level, sha256 }),
  };
}

export async function sealDocument(input: SealInput): Promise<SealedDocument> {
  const originalSha256 = input.originalSha256 ?? (await sha256Hex(input.original));
  let current = input.original;
  const undrawn: UndrawnValue[] = [];
  const signatures: Uint8Array[] = [...(input.priorSignatures ?? [])];
  let pending: FieldStamp[] = [...input.stamps];
  for (const step of input.signerSteps ?? []) {
    const done = await signerUpdate(current, step, input.timestamper, input.fontSource);
    current = done.signed.bytes;
    signatures.push(done.signed.contents);
    undrawn.push(...done.undrawn);
    pending.push(...done.pending);
  }
  let opened = await openForUpdate(current);
  let fonts = new DocumentFonts(opened.pdf, input.fontSource);
  let applied = await applyValues(opened, pending, fonts);
  // A certified form's filled signature fields no signer signed (ses, or a signer's second one): each
  // is signed by the account in an update of its own, the first one with every other value.
  while (applied.signatures.length) {
    const [target, ...others] = applied.signatures;
    const details = {
      ...input.signature,
      fieldTitle: 'Signature',
      reason: `Field "${target.name}" signed as its signer gave it; ${input.signature.reason ?? input.signature.name}`,
      target,
    };
    const signed = await signUpdate(opened.pdf, opened.original, applied.touched, input.signer, details, input.timestamper);
    current = signed.bytes;
    signatures.push(signed.contents);
    undrawn.push(...applied.undrawn);
    pending = stampsOf(pending, others);
    opened = await openForUpdate(current);
    fonts = new DocumentFonts(opened.pdf, input.fontSource);
    applied = await applyValues(opened, pending, fonts);
  }
  const { pdf, original, certified } = opened;
  undrawn.push(...applied.undrawn);
  const at = new Date().toISOString();
  // At qes the file is already a revision holding our signers' signatures, which are not "elsewhere".
  // What the sealing adds to the page is written in the page's language, like the trail before it.
  const t = translatorFor(input.trail.locale ?? DEFAULT_LOCALE);
  const earlier = input.priorSignatures || certified ? null : earlierSignaturesEntry(pdf, input.original.length, at, t);
  const events = [...input.trail.events, ...(earlier ? [earlier] : []), ...undrawn.map((u) => undrawnEntry(u, at, t))];
  const signatureLevel = signatureLevelText(Boolean(input.timestamper), t);
  const trail = { ...input.trail, events, originalSha256, signatureLevel };
  if (!certified) await appendAuditTrail(pdf, trail, fonts);
  // The sealed file's own SHA-256 cannot be printed inside it; it is returned for the API and webhooks,
  // and the signature proves the file unchanged.
  const signed = await signUpdate(pdf, original, applied.touched, input.signer, input.signature, input.timestamper);
  signatures.push(signed.contents);
  // B-LTA: the validation data of every signature and its timestamp, then a document timestamp over all.
  const bytes = input.timestamper
    ? await addLongTermValidation(pdf, signed.bytes, await collectValidationData(signatures, input.fetcher), input.timestamper)
    : signed.bytes;
  const sha256 = await sha256Hex(bytes);
  if (!certified) return { bytes, sha256, originalSha256, undrawn };
  const auditTrail = await separateAuditTrail(input, { ...trail, events: [...events, certifiedEntry(certified, sha256, at, t)] });
  return { bytes, sha256, originalSha256, undrawn, auditTrail };
}
