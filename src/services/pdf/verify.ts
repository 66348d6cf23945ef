// Reads the signatures of an uploaded PDF and checks each one (POST /api/tools/verify): which bytes it
// covers, whether the CMS verifies over them (ISO 32000-1 § 12.8; RFC 5652 § 5.6), and who signed.
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFNumber, PDFString } from 'pdf-lib';
import { loadPdf } from './load-pdf';
import { formatName } from './distinguished-name';

export type SignatureReport = {
  field_name: string | null;
  signer_subject: string | null;
  signer_common_name: string | null;
  /** From the signature dictionary's /M (the CMS carries no signing time in PAdES), ISO 8601. */
  signing_time: string | null;
  sub_filter: string | null;
  byte_range: number[];
  /** The ranges start at 0, end at the end of the file and leave out exactly the /Contents value. */
  covers_whole_document: boolean;
  /** The CMS verifies and its message digest matches the covered bytes. */
  integrity_valid: boolean;
  reason: string | null;
};

/** The file cannot be read as a PDF, so no signature in it can be checked (422 at POST /api/tools/verify). */
export class UnreadableForVerification extends Error {}

const COMMON_NAME = '2.5.4.3';

/** PDF date strings (D:YYYYMMDDHHmmSSOHH'mm') as ISO 8601 (ISO 32000-1 § 7.9.4). */
export function pdfDateToIso(value: string | undefined): string | null {
  const m = value && /^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?([Zz+-])?(\d{2})?'?(\d{2})?/.exec(value);
  if (!m) return null;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', sign, oh = '00', om = '00'] = m;
  const zone = !sign || sign.toUpperCase() === 'Z' ? 'Z' : `${sign}${oh}:${om}`;
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${zone}`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

function text(dict: PDFDict, key: string): string | undefined {
  const value = dict.lookup(PDFName.of(key));
  if (value instanceof PDFString || value instanceof PDFHexString) return value.decodeText();
  if (value instanceof PDFName) return value.decodeText();
  return undefined;
}

function byteRange(dict: PDFDict): number[] {
  const value = dict.lookup(PDFName.of('ByteRange'));
  if (!(value instanceof PDFArray)) return [];
  return value.asArray().map((n) => (n instanceof PDFNumber ? n.asNumber() : NaN));
}

/** The DER of the CMS, without the zero padding that fills the reserved /Contents. */
function cmsBytes(dict: PDFDict): Uint8Array | null {
  const value = dict.lookup(PDFName.of('Contents'));
  const bytes = value instanceof PDFHexString ? value.asBytes() : value instanceof PDFString ? value.asBytes() : null;
  if (!bytes) return null;
  const parsed = asn1js.fromBER(bytes);
  return parsed.offset === -1 ? null : bytes.subarray(0, parsed.offset);
}

function wellFormedRange(range: number[], fileLength: number): boolean {
  if (range.length !== 4 || range.some((n) => !Number.isSafeInteger(n) || n < 0)) return false;
  const [a, b, c, d] = range;
  return a === 0 && b < c && c + d <= fileLength;
}

const TST_INFO = '1.2.840.113549.1.9.16.1.4';

/** A document timestamp's time (RFC 3161 TSTInfo genTime); its dictionary has no /M (ISO 32000-2 § 12.8.5). */
function timestampTime(signedData: pkijs.SignedData): string | null {
  const content = signedData.encapContentInfo;
  if (content.eContentType !== TST_INFO || !content.eContent) return null;
  try {
    return pkijs.TSTInfo.fromBER(content.eContent.getValue()).genTime.toISOString();
  } catch {
    return null;
  }
}

async function verifyCms(
  cms: Uint8Array,
  covered: Uint8Array,
): Promise<{ valid: boolean; certificate: pkijs.Certificate | null; timestampedAt?: string | null }> {
  let signedData: pkijs.SignedData;
  try {
    const info = pkijs.ContentInfo.fromBER(cms);
    signedData = new pkijs.SignedData({ schema: info.content });
  } catch {
    return { valid: false, certificate: null };
  }
  const sid = signedData.signerInfos[0]?.sid;
  const certificate =
    signedData.certificates?.find(
      (c): c is pkijs.Certificate =>
        c instanceof pkijs.Certificate &&
        sid instanceof pkijs.IssuerAndSerialNumber &&
        c.serialNumber.isEqual(sid.serialNumber) &&
        c.issuer.isEqual(sid.issuer),
    ) ?? null;
  try {
    const data = covered.buffer.slice(covered.byteOffset, covered.byteOffset + covered.byteLength) as ArrayBuffer;
    // For a document timestamp (ETSI.RFC3161) pkijs also checks the token's imprint against `data`.
    const result = await signedData.verify({ signer: 0, data, checkChain: false, extendedMode: true });
    return {
      valid: result.signatureVerified === true,
      certificate: result.signerCertificate ?? certificate,
      timestampedAt: timestampTime(signedData),
    };
  } catch {
    return { valid: false, certificate };
  }
}

function commonName(certificate: pkijs.Certificate | null): string | null {
  const entry = certificate?.subject.typesAndValues.find((t) => t.type === COMMON_NAME);
  return entry ? String(entry.value.valueBlock.value) : null;
}

/** Every signature in the file, in file order of the bytes they cover. */
export async function inspectSignatures(bytes: Uint8Array): Promise<SignatureReport[]> {
  let pdf: PDFDocument;
  try {
    pdf = await loadPdf(bytes, { updateMetadata: false, ignoreEncryption: true });
  } catch {
    throw new UnreadableForVerification('file cannot be read as a PDF.');
  }
  const fieldNames = new Map<PDFDict, string>();
  for (const [, object] of pdf.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict) || object.lookup(PDFName.of('FT')) !== PDFName.of('Sig')) continue;
    const value = object.lookup(PDFName.of('V'));
    const name = text(object, 'T');
    if (value instanceof PDFDict && name) fieldNames.set(value, name);
  }

  const reports: SignatureReport[] = [];
  for (const [, object] of pdf.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict) || !object.has(PDFName.of('ByteRange')) || !object.has(PDFName.of('Contents'))) continue;
    const range = byteRange(object);
    const cms = cmsBytes(object);
    let integrity = false;
    let certificate: pkijs.Certificate | null = null;
    let whole = false;
    let timestampedAt: string | null | undefined;
    if (wellFormedRange(range, bytes.length) && cms) {
      const [, b, c, d] = range;
      const covered = new Uint8Array(b + d);
      covered.set(bytes.subarray(0, b), 0);
      covered.set(bytes.subarray(c, c + d), b);
      ({ valid: integrity, certificate, timestampedAt } = await verifyCms(cms, covered));
      // The gap must be exactly the hex string `<…>` of /Contents, and the second range must end the file.
      whole = c + d === bytes.length && bytes[b] === 0x3c /* < */ && bytes[c - 1] === 0x3e /* > */;
    }
    reports.push({
      field_name: fieldNames.get(object) ?? null,
      signer_subject: certificate ? formatName(certificate.subject) : null,
      signer_common_name: commonName(certificate),
      signing_time: pdfDateToIso(text(object, 'M')) ?? timestampedAt ?? null,
      sub_filter: text(object, 'SubFilter') ?? null,
      byte_range: range,
      covers_whole_document: whole,
      integrity_valid: integrity,
      reason: text(object, 'Reason') ?? null,
    });
  }
  return reports.sort((x, y) => (x.byte_range[3] ?? 0) + (x.byte_range[2] ?? 0) - ((y.byte_range[3] ?? 0) + (y.byte_range[2] ?? 0)));
}
