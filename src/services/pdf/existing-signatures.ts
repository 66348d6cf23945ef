// What signatures an uploaded PDF already carries, told apart by what they sign (ISO 32000-1 § 12.8):
// a usage-rights signature (Reader Extensions' /Perms /UR3, on the IRS W-9 and most Adobe-made forms)
// vouches for the viewer features a file may use and is not a signature on the document; a
// certification signature (/DocMDP) says which changes its author allows; any other is an approval.
import { PDFArray, PDFDict, PDFName, PDFNumber, PDFRef, type PDFDocument, type PDFObject } from 'pdf-lib';

const NAME = {
  ByteRange: PDFName.of('ByteRange'),
  Contents: PDFName.of('Contents'),
  Perms: PDFName.of('Perms'),
  Reference: PDFName.of('Reference'),
  TransformMethod: PDFName.of('TransformMethod'),
  TransformParams: PDFName.of('TransformParams'),
  P: PDFName.of('P'),
  DocMDP: PDFName.of('DocMDP'),
};
/** /Perms entries granting usage rights: UR3 (PDF 1.6 on), UR (its predecessor, Acrobat 5–7). */
const USAGE_RIGHTS = [PDFName.of('UR3'), PDFName.of('UR')];

export type ExistingSignatures = {
  /** The strictest DocMDP permission a certification grants (1 no changes, 2 forms and signing, 3 also annotations). */
  certification: 1 | 2 | 3 | null;
  /** Whether a signature other than usage rights and certification signs the document. */
  approval: boolean;
  /**
   * The strictest permission an approval signature's field lock sets (PDF 2.0: /P in the FieldMDP
   * transform's parameters, copied from the field's /Lock; ISO 32000-2 Tables 236, 257), which binds
   * later changes as a certification's does.
   */
  lock: 1 | 2 | 3 | null;
  /** Whether the file carries usage-rights signatures. */
  usageRights: boolean;
};

const isSignature = (object: PDFObject | undefined): object is PDFDict =>
  object instanceof PDFDict && object.has(NAME.ByteRange) && object.has(NAME.Contents);

/** The transform methods a signature dictionary's /Reference names (UR3, DocMDP, FieldMDP), with their /P. */
function transforms(signature: PDFDict): { method: string; p: number | undefined }[] {
  const references = signature.lookup(NAME.Reference);
  if (!(references instanceof PDFArray)) return [];
  return references.asArray().flatMap((entry) => {
    const reference = signature.context.lookup(entry);
    if (!(reference instanceof PDFDict)) return [];
    const method = reference.lookup(NAME.TransformMethod);
    const params = reference.lookup(NAME.TransformParams);
    const p = params instanceof PDFDict ? params.lookup(NAME.P) : undefined;
    return method instanceof PDFName ? [{ method: method.decodeText(), p: p instanceof PDFNumber ? p.asNumber() : undefined }] : [];
  });
}

/** The signature dictionaries the catalog's /Perms names for usage rights, with their refs when indirect. */
function usageRightsEntries(pdf: PDFDocument): { perms: PDFDict; key: PDFName; ref: PDFRef | undefined }[] {
  const perms = pdf.catalog.lookup(NAME.Perms);
  if (!(perms instanceof PDFDict)) return [];
  return USAGE_RIGHTS.filter((key) => perms.has(key)).map((key) => {
    const value = perms.get(key);
    return { perms, key, ref: value instanceof PDFRef ? value : undefined };
  });
}

/** The stricter of two permission levels; a value outside 1–3 is read as the strictest. */
const strictest = (known: 1 | 2 | 3 | null, p: number): 1 | 2 | 3 => Math.min(known ?? 3, p === 2 || p === 3 ? p : 1) as 1 | 2 | 3;

/** Every filled signature dictionary of the file (object streams included: pdf-lib has parsed them), sorted by kind. */
export function existingSignatures(pdf: PDFDocument): ExistingSignatures {
  const entries = usageRightsEntries(pdf);
  const usageRefs = new Set(entries.flatMap((e) => (e.ref ? [e.ref.objectNumber] : [])));
  const found: ExistingSignatures = { certification: null, approval: false, lock: null, usageRights: entries.length > 0 };
  for (const [ref, object] of pdf.context.enumerateIndirectObjects()) {
    if (!isSignature(object)) continue;
    const methods = transforms(object);
    const docMdp = methods.find((t) => t.method === 'DocMDP');
    if (docMdp) {
      // /P defaults to 2 (Table 254).
      found.certification = strictest(found.certification, docMdp.p ?? 2);
    } else if (usageRefs.has(ref.objectNumber) || methods.some((t) => t.method === 'UR3' || t.method === 'UR')) {
      found.usageRights = true;
    } else {
      found.approval = true;
      for (const { method, p } of methods) if (method === 'FieldMDP' && p !== undefined) found.lock = strictest(found.lock, p);
    }
  }
  return found;
}

/**
 * Drops the usage rights: the /Perms entries and their signature dictionaries, so a re-saved file
 * carries none. Filling the form voids them anyway (Reader then warns that the document "has been
 * changed since it was created and extended features are no longer available"); dropping them keeps
 * viewers quiet and leaves the file's own signatures as the only ones. Returns whether any were there.
 */
export function dropUsageRights(pdf: PDFDocument): boolean {
  const entries = usageRightsEntries(pdf);
  const dropped = new Set<number>();
  for (const { perms, key, ref } of entries) {
    perms.delete(key);
    if (ref) dropped.add(ref.objectNumber);
  }
  const perms = pdf.catalog.lookup(NAME.Perms);
  if (perms instanceof PDFDict && perms.keys().length === 0) pdf.catalog.delete(NAME.Perms);
  // Signature dictionaries naming the UR transform but not reached from /Perms (left by an earlier edit).
  for (const [ref, object] of pdf.context.enumerateIndirectObjects()) {
    if (isSignature(object) && transforms(object).some((t) => t.method === 'UR3' || t.method === 'UR')) dropped.add(ref.objectNumber);
  }
  for (const [ref] of pdf.context.enumerateIndirectObjects()) if (dropped.has(ref.objectNumber)) pdf.context.delete(ref);
  return entries.length > 0 || dropped.size > 0;
}

/**
 * How many filled signatures cover bytes within the first `length` only (/ByteRange's second range
 * ends there): those a file had before the updates appended after those bytes.
 */
export function signaturesWithin(pdf: PDFDocument, length: number): number {
  let count = 0;
  for (const [, object] of pdf.context.enumerateIndirectObjects()) {
    if (!isSignature(object)) continue;
    const range = object.lookup(NAME.ByteRange);
    const values = range instanceof PDFArray ? range.asArray() : [];
    const [, , start, size] = values.map((n) => (n instanceof PDFNumber ? n.asNumber() : Number.NaN));
    if (values.length === 4 && start + size <= length) count += 1;
  }
  return count;
}
