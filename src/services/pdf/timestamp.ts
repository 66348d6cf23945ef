// RFC 3161 time-stamp tokens from the time-stamping authorities in TSA_URLS (decisions.md › Signature
// levels): PAdES B-T's signature-timestamp and B-LTA's document timestamp. Every answer is checked —
// status granted, our hash, our nonce, a token the TSA's certificate signed — and anything else is a
// TimestampFailure: a seal is never made without the timestamp it promises.
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { signedDataParts, timestampResponseParts } from './der-reader';
import { knownCertificate } from './parsed-certificates';

const SHA256 = '2.16.840.1.101.3.4.2.1';
const MESSAGE_DIGEST = '1.2.840.113549.1.9.4';
const DIGESTS: Record<string, string> = {
  '1.3.14.3.2.26': 'SHA-1',
  [SHA256]: 'SHA-256',
  '2.16.840.1.101.3.4.2.2': 'SHA-384',
  '2.16.840.1.101.3.4.2.3': 'SHA-512',
};
const TST_INFO = '1.2.840.113549.1.9.16.1.4';
/** How long one authority may take before the next is tried. */
const TIMEOUT_MS = 10_000;

export class TimestampFailure extends Error {
  override name = 'TimestampFailure';
}

/** Obtains a time-stamp token (DER ContentInfo) over a SHA-256 digest. */
export type Timestamper = (sha256: Uint8Array) => Promise<Uint8Array>;

/** The authorities of a comma list, in order; empty when none is configured. */
export function timestampAuthorities(list: string | undefined): string[] {
  return (list ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter(Boolean);
}

const bytesEqual = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => v === b[i]);

function timestampRequest(digest: Uint8Array, nonce: Uint8Array): Uint8Array {
  const request = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: SHA256 }),
      hashedMessage: new asn1js.OctetString({ valueHex: digest }),
    }),
    nonce: new asn1js.Integer({ valueHex: nonce }),
    // The TSA's certificate travels in the token, so verifiers (and the DSS) have it.
    certReq: true,
  });
  return new Uint8Array(request.toSchema().toBER(false));
}

/** What is read of a token's SignedData: its signer, its certificates and its encapsulated TSTInfo. */
type TokenParts = { signerInfo: pkijs.SignerInfo; certificates: pkijs.Certificate[]; content: pkijs.EncapsulatedContentInfo };

/**
 * Whether the token's signer certificate signed it: its messageDigest attribute is the TSTInfo's hash
 * and the signature over the signed attributes verifies (RFC 5652 § 5.4). pkijs' SignedData.verify
 * wants the time-stamped data itself, and we only hold its hash. Whether the certificate is a TSA's
 * a verifier trusts is for the verifier (and the DSS) to tell.
 */
async function tokenSigned({ signerInfo, certificates, content }: TokenParts): Promise<boolean> {
  const sid = signerInfo.sid;
  const certificate = certificates.find(
    (c) => sid instanceof pkijs.IssuerAndSerialNumber && c.issuer.isEqual(sid.issuer) && c.serialNumber.isEqual(sid.serialNumber),
  );
  const hashName = DIGESTS[signerInfo.digestAlgorithm.algorithmId];
  const attributes = signerInfo.signedAttrs;
  const eContent = content.eContent;
  if (!certificate || !hashName || !attributes || !eContent) return false;
  const messageDigest = attributes.attributes.find((a) => a.type === MESSAGE_DIGEST)?.values[0];
  const contentHash = new Uint8Array(await crypto.subtle.digest(hashName, eContent.getValue()));
  if (!(messageDigest instanceof asn1js.OctetString) || !bytesEqual(new Uint8Array(messageDigest.valueBlock.valueHexView), contentHash))
    return false;
  // The signature is over the attributes DER-encoded as a SET, not with their [0] IMPLICIT tag.
  const signedBytes = new Uint8Array(attributes.encodedValue.slice(0));
  signedBytes[0] = 0x31;
  try {
    return await pkijs
      .getCrypto(true)
      .verifyWithPublicKey(signedBytes, signerInfo.signature, certificate.subjectPublicKeyInfo, signerInfo.signatureAlgorithm, hashName);
  } catch {
    return false;
  }
}

/**
 * The token's SignedData read part by part: its certificates through the per-isolate cache (the same
 * TSA certificate every time) rather than as a whole pkijs SignedData, which parses them again
 * (decisions.md › B-LTA over B-B). Null when it is not a CMS SignedData with one signer.
 */
function tokenParts(token: Uint8Array): TokenParts | null {
  try {
    const parts = signedDataParts(token);
    if (parts.signerInfos.length !== 1) return null;
    return {
      signerInfo: pkijs.SignerInfo.fromBER(parts.signerInfos[0]),
      certificates: parts.certificates.map((der) => knownCertificate(der).certificate),
      content: pkijs.EncapsulatedContentInfo.fromBER(parts.encapContentInfo),
    };
  } catch {
    return null;
  }
}

/** Checks a TimeStampResp against what was asked (RFC 3161 § 2.4.2) and returns its token's DER, as the TSA wrote it. */
export async function readTimestampResponse(der: Uint8Array, digest: Uint8Array, nonce: Uint8Array): Promise<Uint8Array> {
  let response: { status: number; token?: Uint8Array };
  try {
    response = timestampResponseParts(der);
  } catch {
    throw new TimestampFailure('The time-stamping authority answered something that is not a time-stamp response.');
  }
  // granted (0) or grantedWithMods (1); anything else carries no token.
  if (response.status > 1 || !response.token) {
    throw new TimestampFailure(`The time-stamping authority refused the request (status ${response.status}).`);
  }
  const token = response.token;
  const parts = tokenParts(token);
  if (!parts) throw new TimestampFailure('The time-stamp token is not CMS SignedData.');
  const content = parts.content;
  if (content.eContentType !== TST_INFO || !content.eContent) throw new TimestampFailure('The time-stamp token holds no TSTInfo.');
  const info = pkijs.TSTInfo.fromBER(content.eContent.getValue());
  const imprint = info.messageImprint;
  if (imprint.hashAlgorithm.algorithmId !== SHA256 || !bytesEqual(new Uint8Array(imprint.hashedMessage.valueBlock.valueHexView), digest)) {
    throw new TimestampFailure('The time-stamp token is over a different hash than the one sent.');
  }
  if (!info.nonce || !bytesEqual(new Uint8Array(info.nonce.valueBlock.valueHexView), nonce)) {
    throw new TimestampFailure('The time-stamp token carries a different nonce than the one sent (a replayed or mixed-up answer).');
  }
  if (!(await tokenSigned(parts))) throw new TimestampFailure('The time-stamp token does not carry a valid signature of its authority.');
  return token.slice();
}

/** Positive INTEGER bytes: a leading zero bit. */
function newNonce(): Uint8Array {
  const nonce = crypto.getRandomValues(new Uint8Array(8));
  nonce[0] = (nonce[0] & 0x7f) | 0x01;
  return nonce;
}

async function askAuthority(url: string, digest: Uint8Array, fetcher: typeof fetch): Promise<Uint8Array> {
  const nonce = newNonce();
  let res: Response;
  try {
    res = await fetcher(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/timestamp-query', Accept: 'application/timestamp-reply' },
      body: timestampRequest(digest, nonce),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw new TimestampFailure(
      `The time-stamping authority could not be reached (${error instanceof Error ? error.name : 'network error'}).`,
    );
  }
  if (!res.ok) throw new TimestampFailure(`The time-stamping authority answered HTTP ${res.status}.`);
  return readTimestampResponse(new Uint8Array(await res.arrayBuffer()), digest, nonce);
}

/**
 * A Timestamper trying each authority (through `fetcher`, which bench/seal times) in order until one gives a good token. When all fail, the last
 * failure is thrown and names every authority tried (their host only: a URL may carry credentials).
 */
export function timestamperFor(urls: readonly string[], fetcher: typeof fetch = fetch): Timestamper {
  if (urls.length === 0) throw new Error('A timestamper needs at least one time-stamping authority.');
  return async (digest) => {
    const failures: string[] = [];
    for (const url of urls) {
      try {
        return await askAuthority(url, digest, fetcher);
      } catch (error) {
        if (!(error instanceof TimestampFailure)) throw error;
        let host = 'an authority';
        try {
          host = new URL(url).host;
        } catch {
          // An unparseable entry is reported as "an authority"; fetch already failed on it.
        }
        failures.push(`${host}: ${error.message}`);
      }
    }
    throw new TimestampFailure(`No time-stamping authority gave a valid timestamp. ${failures.join(' ')}`);
  };
}
