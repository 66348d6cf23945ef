// A DocumentSigner (cms-signature.ts) for a key held elsewhere (a QES provider's signatures/signHash):
// the signature algorithm follows the certificate's key, and the signature value over the DER of the
// signed attributes (RFC 5652 § 5.4: encoded as a SET OF) comes from a function instead of a local key.
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { DocumentSigner } from './cms-signature';

const OID = {
  rsaEncryption: '1.2.840.113549.1.1.1',
  sha256WithRSA: '1.2.840.113549.1.1.11',
  ecPublicKey: '1.2.840.10045.2.1',
  ecdsaWithSHA256: '1.2.840.10045.4.3.2',
} as const;

/** The SHA-256 signature algorithm for a certificate's key; RSA and ECDSA only. */
export function sha256SignatureAlgorithm(certificate: pkijs.Certificate): pkijs.AlgorithmIdentifier {
  const keyAlgorithm = certificate.subjectPublicKeyInfo.algorithm.algorithmId;
  // RFC 4055 § 5: sha256WithRSAEncryption carries NULL parameters; RFC 5758 § 3.2: ECDSA ones carry none.
  if (keyAlgorithm === OID.rsaEncryption)
    return new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256WithRSA, algorithmParams: new asn1js.Null() });
  if (keyAlgorithm === OID.ecPublicKey) return new pkijs.AlgorithmIdentifier({ algorithmId: OID.ecdsaWithSHA256 });
  throw new Error(`A remote key of algorithm ${keyAlgorithm} cannot sign here (RSA or ECDSA only).`);
}

/** An ECDSA value as CMS wants it (DER Ecdsa-Sig-Value); a raw r‖s is converted, anything else kept. */
export function derSignatureValue(certificate: pkijs.Certificate, signature: Uint8Array): Uint8Array {
  const ecdsa = certificate.subjectPublicKeyInfo.algorithm.algorithmId === OID.ecPublicKey;
  return ecdsa && signature[0] !== 0x30
    ? new Uint8Array(pkijs.createCMSECDSASignature(signature.slice().buffer as ArrayBuffer))
    : signature;
}

/**
 * A signer whose `signSignedAttributes` gets the DER that is signed (its SHA-256 is what the provider
 * signs) and returns the signature value — PKCS #1 v1.5 for RSA, DER or raw r‖s for ECDSA.
 */
export function remoteSigner(
  certificateDer: Uint8Array,
  chain: readonly Uint8Array[],
  signSignedAttributes: (signedAttributes: Uint8Array) => Promise<Uint8Array>,
): DocumentSigner {
  const certificate = pkijs.Certificate.fromBER(certificateDer);
  return {
    certificate: certificateDer,
    chain: [...chain],
    signatureAlgorithm: sha256SignatureAlgorithm(certificate),
    sign: async (data) => derSignatureValue(certificate, await signSignedAttributes(data)),
  };
}
