// Reads what a sealed PDF's signatures hold, for tests: each signature's /ByteRange, the DER in its
// /Contents, and the RFC 3161 token in a CMS signer's unsigned attributes.
import * as asn1js from 'asn1js';
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFRawStream, PDFRef, PDFString } from 'pdf-lib';
import * as pkijs from 'pkijs';

export type SignatureInFile = { byteRange: [number, number, number, number]; contents: Uint8Array; subFilter: string };

const latin1 = (bytes: Uint8Array) => new TextDecoder('latin1').decode(bytes);

/** Every signature of the file, in file order. */
export function signaturesIn(bytes: Uint8Array): SignatureInFile[] {
  const text = latin1(bytes);
  const out: SignatureInFile[] = [];
  for (const match of text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)) {
    const byteRange = match.slice(1, 5).map(Number) as [number, number, number, number];
    // Dictionaries copied from other files (a combined download keeps its sources' unused objects)
    // have ranges that do not frame a /Contents string here.
    if (byteRange[2] + byteRange[3] > bytes.length || bytes[byteRange[1]] !== 0x3c || bytes[byteRange[2] - 1] !== 0x3e) continue;
    const hex = text.slice(byteRange[1] + 1, byteRange[2] - 1);
    const contents = Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));
    // The dictionary around this /ByteRange: from the previous "obj" to the next "endobj".
    const start = text.lastIndexOf(' obj', match.index);
    const end = text.indexOf('endobj', match.index);
    const subFilter = /\/SubFilter\s*\/([A-Za-z0-9.]+)/.exec(text.slice(start, end))?.[1] ?? '';
    out.push({ byteRange, contents: trimDer(contents), subFilter });
  }
  return out;
}

/** The DER itself: /Contents is zero-padded after it. */
function trimDer(padded: Uint8Array): Uint8Array {
  const { offset, result } = asn1js.fromBER(padded);
  if (offset === -1 || result.error) throw new Error('The signature contents are not DER.');
  return padded.subarray(0, offset);
}

export function signedDataOf(cms: Uint8Array): pkijs.SignedData {
  const info = pkijs.ContentInfo.fromBER(cms);
  return new pkijs.SignedData({ schema: info.content });
}

const SIGNATURE_TIMESTAMP = '1.2.840.113549.1.9.16.2.14';

/** The signature-timestamp token of a CMS signature and the SHA-256 it must be over (the signature value). */
export async function signatureTimestampOf(cms: Uint8Array): Promise<{ token: Uint8Array; digestHex: string } | null> {
  const signerInfo = signedDataOf(cms).signerInfos[0];
  const attribute = signerInfo.unsignedAttrs?.attributes.find((a) => a.type === SIGNATURE_TIMESTAMP);
  if (!attribute) return null;
  const token = new Uint8Array(attribute.values[0].toBER(false));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', signerInfo.signature.valueBlock.valueHexView));
  return { token, digestHex: [...digest].map((b) => b.toString(16).padStart(2, '0')).join('') };
}

/** `openssl ts -verify` of a token over a digest, against the local TSA's test CA (test/global-setup/tsa.mjs). */
export async function verifyTimestampToken(
  tsaUrl: string,
  token: Uint8Array,
  digestHex: string,
): Promise<{ code: number; output: string }> {
  const res = await fetch(`${tsaUrl}/__verify?digest=${digestHex}`, { method: 'POST', body: token });
  return res.json();
}

/** pdfsig's report split per signature, in file order. */
export const pdfsigBlocks = (output: string): string[] => output.split(/^Signature #\d+:$/m).slice(1);

export const sha256Hex = async (der: Uint8Array) =>
  [...new Uint8Array(await crypto.subtle.digest('SHA-256', der))].map((b) => b.toString(16).padStart(2, '0')).join('');

/** SHA-256 fingerprints of the streams in the file's /DSS /Certs (or /CRLs). */
export async function dssFingerprints(bytes: Uint8Array, entry: 'Certs' | 'CRLs' = 'Certs'): Promise<string[]> {
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
  const dss = pdf.catalog.lookup(PDFName.of('DSS'), PDFDict);
  const items = dss.lookup(PDFName.of(entry), PDFArray);
  return Promise.all(items.asArray().map((ref) => sha256Hex((pdf.context.lookup(ref as PDFRef) as PDFRawStream).getContents())));
}

/** The /Name of every CMS signature (not document timestamps), in file order, decoded as a PDF text string. */
export async function signatureNames(bytes: Uint8Array): Promise<string[]> {
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
  const found: { at: number; name: string }[] = [];
  for (const [, object] of pdf.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict) || object.get(PDFName.of('Type')) !== PDFName.of('Sig')) continue;
    const range = object
      .lookup(PDFName.of('ByteRange'), PDFArray)
      .asArray()
      .map((n) => Number(n.toString()));
    const name = object.lookup(PDFName.of('Name'));
    found.push({ at: range[1], name: name instanceof PDFString || name instanceof PDFHexString ? name.decodeText() : '' });
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.name);
}

/** The common name in each CMS signature's signer certificate, in file order, as the certificate holds it. */
export function signerCommonNames(bytes: Uint8Array): string[] {
  return signaturesIn(bytes)
    .filter((s) => s.subFilter === 'ETSI.CAdES.detached')
    .map(({ contents }) => {
      const signedData = signedDataOf(contents);
      const sid = signedData.signerInfos[0].sid as pkijs.IssuerAndSerialNumber;
      const certificate = (signedData.certificates ?? []).find(
        (c): c is pkijs.Certificate => c instanceof pkijs.Certificate && c.serialNumber.isEqual(sid.serialNumber),
      );
      const cn = certificate?.subject.typesAndValues.find((t) => t.type === '2.5.4.3');
      return cn ? String(cn.value.valueBlock.value) : '';
    });
}
