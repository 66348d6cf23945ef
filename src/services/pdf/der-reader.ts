// A minimal reader of BER/DER element boundaries (X.690 § 8.1): tag, where the contents start and end.
// Enough to find the certificates inside a CMS SignedData or an OCSP response as the bytes they were
// written as, without building pkijs objects for everything around them (decisions.md › issue 30).

/**
 * One element: its identifier octet, where it starts, where its contents start and where it ends
 * (after the end-of-contents octets when its length is indefinite).
 */
export type DerElement = { tag: number; start: number; contentStart: number; end: number; indefinite?: true };

export class MalformedDer extends Error {}

const MAX_DEPTH = 32;

/** The element starting at `at` (an indefinite length is followed to its end-of-contents). */
export function readElement(bytes: Uint8Array, at: number, depth = 0): DerElement {
  if (depth > MAX_DEPTH) throw new MalformedDer('ASN.1 nested too deep.');
  if (at + 2 > bytes.length) throw new MalformedDer('ASN.1 element past the end.');
  const tag = bytes[at];
  // High tag numbers (low five bits all set) are not used by the structures read here.
  if ((tag & 0x1f) === 0x1f) throw new MalformedDer('ASN.1 high tag number.');
  let cursor = at + 1;
  const first = bytes[cursor++];
  if (first === 0x80) {
    if (!(tag & 0x20)) throw new MalformedDer('ASN.1 indefinite length on a primitive element.');
    const contentStart = cursor;
    while (!(bytes[cursor] === 0 && bytes[cursor + 1] === 0)) cursor = readElement(bytes, cursor, depth + 1).end;
    return { tag, start: at, contentStart, end: cursor + 2, indefinite: true };
  }
  let length = first;
  if (first & 0x80) {
    const count = first & 0x7f;
    if (count > 4 || cursor + count > bytes.length) throw new MalformedDer('ASN.1 length too long.');
    length = 0;
    for (let i = 0; i < count; i += 1) length = length * 256 + bytes[cursor++];
  }
  const end = cursor + length;
  if (end > bytes.length) throw new MalformedDer('ASN.1 element past the end.');
  return { tag, start: at, contentStart: cursor, end };
}

/** The elements inside a constructed one (an indefinite one's end-of-contents left out). */
export function childrenOf(bytes: Uint8Array, parent: DerElement): DerElement[] {
  const out: DerElement[] = [];
  const stop = parent.indefinite ? parent.end - 2 : parent.end;
  for (let at = parent.contentStart; at < stop; ) {
    const child = readElement(bytes, at);
    out.push(child);
    at = child.end;
  }
  return out;
}

export const bytesOf = (bytes: Uint8Array, element: DerElement) => bytes.subarray(element.start, element.end);
const contentsOf = (bytes: Uint8Array, element: DerElement) => bytes.subarray(element.contentStart, element.end);

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => v === b[i]);

const SEQUENCE = 0x30;
const SET = 0x31;
const OID = 0x06;
const INTEGER = 0x02;
const CONTEXT_0 = 0xa0;
const CONTEXT_1 = 0xa1;
/** id-aa-signatureTimeStampToken, 1.2.840.113549.1.9.16.2.14, as its DER contents. */
const SIGNATURE_TIMESTAMP = new Uint8Array([0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x09, 0x10, 0x02, 0x0e]);

function expect(element: DerElement | undefined, tag: number, what: string): DerElement {
  if (!element || element.tag !== tag) throw new MalformedDer(`Not a ${what}.`);
  return element;
}

/** id-signedData, 1.2.840.113549.1.7.2, as its DER contents. */
const SIGNED_DATA = new Uint8Array([0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02]);

/** The parts of a CMS ContentInfo holding SignedData (RFC 5652 § 5.1), each as the bytes it is written as. */
export type SignedDataParts = { encapContentInfo: Uint8Array; certificates: Uint8Array[]; signerInfos: Uint8Array[] };

export function signedDataParts(cms: Uint8Array): SignedDataParts {
  const [contentType, explicit] = childrenOf(cms, expect(readElement(cms, 0), SEQUENCE, 'CMS ContentInfo'));
  if (!sameBytes(contentsOf(cms, expect(contentType, OID, 'CMS content type')), SIGNED_DATA)) throw new MalformedDer('Not CMS SignedData.');
  const [signedData] = childrenOf(cms, expect(explicit, CONTEXT_0, 'CMS content'));
  const fields = childrenOf(cms, expect(signedData, SEQUENCE, 'CMS SignedData'));
  // version, digestAlgorithms, encapContentInfo, [0] certificates?, [1] crls?, signerInfos
  const set = fields.find((f, i) => i >= 3 && f.tag === CONTEXT_0);
  const signerInfos = expect(fields[fields.length - 1], SET, 'CMS SignerInfos');
  return {
    encapContentInfo: bytesOf(cms, expect(fields[2], SEQUENCE, 'CMS EncapsulatedContentInfo')),
    // Other certificate formats are context-tagged; only X.509 certificates (SEQUENCEs) are read.
    certificates: set
      ? childrenOf(cms, set)
          .filter((c) => c.tag === SEQUENCE)
          .map((c) => bytesOf(cms, c))
      : [],
    signerInfos: childrenOf(cms, signerInfos).map((info) => bytesOf(cms, expect(info, SEQUENCE, 'CMS SignerInfo'))),
  };
}

/**
 * The certificates a CMS ContentInfo (SignedData) carries, then those of the timestamp tokens in its
 * signers' unsigned attributes, each as the bytes it is written as in the CMS.
 */
export function cmsCertificates(cms: Uint8Array, depth = 0): Uint8Array[] {
  if (depth > 4) throw new MalformedDer('Timestamp tokens nested too deep.');
  const { certificates, signerInfos } = signedDataParts(cms);
  const fromTokens: Uint8Array[] = [];
  for (const signerInfo of signerInfos) {
    const unsigned = childrenOf(signerInfo, readElement(signerInfo, 0)).find((f) => f.tag === CONTEXT_1);
    if (!unsigned) continue;
    for (const attribute of childrenOf(signerInfo, unsigned)) {
      const [type, values] = childrenOf(signerInfo, expect(attribute, SEQUENCE, 'CMS attribute'));
      if (!sameBytes(contentsOf(signerInfo, expect(type, OID, 'attribute type')), SIGNATURE_TIMESTAMP)) continue;
      for (const token of childrenOf(signerInfo, expect(values, SET, 'attribute values'))) {
        fromTokens.push(...cmsCertificates(bytesOf(signerInfo, token), depth + 1));
      }
    }
  }
  return [...certificates, ...fromTokens];
}

/**
 * A TimeStampResp (RFC 3161 § 2.4.2): its PKIStatus, and its token (a CMS ContentInfo) as written,
 * when it carries one.
 */
export function timestampResponseParts(response: Uint8Array): { status: number; token?: Uint8Array } {
  const [statusInfo, token] = childrenOf(response, expect(readElement(response, 0), SEQUENCE, 'TimeStampResp'));
  const [status] = childrenOf(response, expect(statusInfo, SEQUENCE, 'PKIStatusInfo'));
  const value = contentsOf(response, expect(status, INTEGER, 'PKIStatus'));
  // PKIStatus is 0–5: one octet; anything longer is no status we know.
  const code = value.length === 1 ? value[0] : 0xff;
  return { status: code, ...(token ? { token: bytesOf(response, token) } : {}) };
}

/** The certificates a BasicOCSPResponse (RFC 6960 § 4.2.1) carries in its [0] certs, as written. */
export function basicOcspCertificates(basic: Uint8Array): Uint8Array[] {
  const fields = childrenOf(basic, expect(readElement(basic, 0), SEQUENCE, 'BasicOCSPResponse'));
  const explicit = fields.find((f, i) => i >= 3 && f.tag === CONTEXT_0);
  if (!explicit) return [];
  const [sequence] = childrenOf(basic, explicit);
  return childrenOf(basic, expect(sequence, SEQUENCE, 'certificate list')).map((c) => bytesOf(basic, c));
}
