// A QES provider's signature turned into the PDF's CMS (ETSI.CAdES.detached), built by the same code as
// the platform's own signatures (src/services/pdf/cms-signature.ts) with a remote signer. The signer
// authorizes, and the provider signs, the SHA-256 of the DER of the signed attributes; those are fixed
// by the document digest and the certificate alone (no signing time: PAdES keeps it in /M), so the hash
// computed before the signer's trip to the provider is the one signed after it.
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { derSignatureValue, remoteSigner, sha256SignatureAlgorithm } from '../pdf/cms-remote-signing';
import { createCadesDetachedSignature, type DocumentSigner } from '../pdf/cms-signature';
import type { Timestamper } from '../pdf/timestamp';
import { QesProviderError } from './provider-error';

class SignedAttributesCaptured extends Error {
  constructor(readonly der: Uint8Array) {
    super('signed attributes captured');
  }
}

const sha256 = async (bytes: Uint8Array) => new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));

/** The hash to authorize and have signed (CSC `hashes`) for a PDF whose byte ranges hash to `digest`. */
export async function signedAttributesHash(digest: Uint8Array, chain: readonly Uint8Array[]): Promise<Uint8Array> {
  const capture = remoteSigner(chain[0], chain.slice(1), (der) => Promise.reject(new SignedAttributesCaptured(der)));
  try {
    await createCadesDetachedSignature(digest, capture);
  } catch (error) {
    if (error instanceof SignedAttributesCaptured) return sha256(error.der);
    throw error;
  }
  throw new Error('The CMS was built without signing its signed attributes.');
}

/** Whether `signature` is the certificate's key's signature of `data` (SHA-256; RSA PKCS #1 v1.5 or ECDSA). */
async function signatureVerifies(certificate: pkijs.Certificate, data: Uint8Array, signature: Uint8Array): Promise<boolean> {
  try {
    const der = derSignatureValue(certificate, signature);
    return await pkijs
      .getCrypto(true)
      .verifyWithPublicKey(
        data,
        new asn1js.OctetString({ valueHex: der }),
        certificate.subjectPublicKeyInfo,
        sha256SignatureAlgorithm(certificate),
        'SHA-256',
      );
  } catch {
    return false;
  }
}

/**
 * A signer whose key is at the provider: `signHash` gets the hash of the signed attributes and returns
 * the provider's signature value, which is checked against the certificate before it is embedded — a
 * wrong or foreign signature is a QesProviderError, never a PDF with a broken signature.
 */
export function providerSigner(chain: readonly Uint8Array[], signHash: (hash: Uint8Array) => Promise<Uint8Array>): DocumentSigner {
  if (chain.length === 0) throw new QesProviderError('bad_response', 'The QES provider gave no certificate for the credential.');
  let certificate: pkijs.Certificate;
  try {
    certificate = pkijs.Certificate.fromBER(chain[0]);
  } catch {
    throw new QesProviderError('bad_response', 'The QES provider’s certificate is not a DER X.509 certificate.');
  }
  try {
    sha256SignatureAlgorithm(certificate);
  } catch {
    throw new QesProviderError('bad_response', 'The QES provider’s key is neither RSA nor ECDSA.');
  }
  return remoteSigner(chain[0], chain.slice(1), async (der) => {
    const signature = await signHash(await sha256(der));
    if (!(await signatureVerifies(certificate, der, signature))) {
      throw new QesProviderError('bad_response', 'The QES provider’s signature does not verify with the credential’s certificate.');
    }
    return signature;
  });
}

/**
 * The CMS for `digest` from a signHash result: the provider's chain (signer first) and its signature
 * value over signedAttributesHash(digest, chain). B-T when a timestamper is given, as for local keys.
 */
export function cmsFromSignHash(
  digest: Uint8Array,
  chain: readonly Uint8Array[],
  signatureValue: Uint8Array,
  timestamper?: Timestamper,
): Promise<Uint8Array> {
  return createCadesDetachedSignature(
    digest,
    providerSigner(chain, async () => signatureValue),
    timestamper,
  );
}
