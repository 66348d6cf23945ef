// The CMS signer info signed by a key held elsewhere (a QES provider's signatures/signHash): the same
// SignedData cms-signature.ts builds, but the signature value over the DER of the signed attributes
// (RFC 5652 § 5.4: encoded as a SET OF) comes from a function instead of a local CryptoKey.
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

const OID = {
  sha256: '2.16.840.1.101.3.4.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  sha256WithRSA: '1.2.840.113549.1.1.11',
  ecPublicKey: '1.2.840.10045.2.1',
  ecdsaWithSHA256: '1.2.840.10045.4.3.2',
} as const;

/**
 * A key held elsewhere: `signSignedAttributes` gets the DER that is signed (its SHA-256 is what the
 * provider signs) and returns the signature value — PKCS #1 v1.5 for RSA, DER (or raw r‖s) for ECDSA.
 */
export type RemoteSigner = {
  /** DER-encoded X.509 certificate of the remote key. */
  certificate: Uint8Array;
  /** DER of the issuers, embedded so verifiers can build the path. */
  chain?: Uint8Array[];
  signSignedAttributes: (signedAttributes: Uint8Array) => Promise<Uint8Array>;
};

/** Signs signer info 0 of `signedData` (signed attributes already set) with SHA-256 through `sign`. */
export async function signRemotely(signedData: pkijs.SignedData, certificate: pkijs.Certificate, sign: RemoteSigner['signSignedAttributes']): Promise<void> {
  const signerInfo = signedData.signerInfos[0];
  const keyAlgorithm = certificate.subjectPublicKeyInfo.algorithm.algorithmId;
  if (keyAlgorithm !== OID.rsaEncryption && keyAlgorithm !== OID.ecPublicKey) throw new Error(`A remote key of algorithm ${keyAlgorithm} cannot sign here (RSA or ECDSA only).`);
  const sha256 = () => new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256, algorithmParams: new asn1js.Null() });
  signedData.digestAlgorithms = [sha256()];
  signerInfo.digestAlgorithm = sha256();
  const isRsa = keyAlgorithm === OID.rsaEncryption;
  // RFC 4055 § 5: sha256WithRSAEncryption carries NULL parameters; RFC 5758 § 3.2: ECDSA ones carry none.
  signerInfo.signatureAlgorithm = isRsa
    ? new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256WithRSA, algorithmParams: new asn1js.Null() })
    : new pkijs.AlgorithmIdentifier({ algorithmId: OID.ecdsaWithSHA256 });
  const encoded = new Uint8Array(signerInfo.signedAttrs!.toSchema().toBER(false));
  // The attributes are signed as SET OF (tag 0x31), though they sit in the signer info as [0] IMPLICIT.
  encoded[0] = 0x31;
  let signature = await sign(encoded);
  if (!isRsa && signature[0] !== 0x30) signature = new Uint8Array(pkijs.createCMSECDSASignature(signature.slice().buffer as ArrayBuffer));
  signerInfo.signature = new asn1js.OctetString({ valueHex: signature });
}
