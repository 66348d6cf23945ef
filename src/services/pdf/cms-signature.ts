// CMS SignedData for PAdES baseline B-B (ETSI EN 319 142-1 § 5.1; CAdES, RFC 5652): detached content,
// signed attributes contentType, messageDigest and ESS signing-certificate-v2 (RFC 5035). Signing
// time is not a signed attribute in PAdES; the PDF signature dictionary's /M carries it. With a
// timestamper it is B-T (§ 5.3): an RFC 3161 token over the signature value as the unsigned attribute
// id-aa-signatureTimeStampToken (RFC 3161 Appendix A).
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { SigningIdentity } from './certificate';
import type { Timestamper } from './timestamp';

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
} as const;

/** ESS SigningCertificateV2 with one ESSCertIDv2 (hash algorithm SHA-256, the default, so omitted). */
async function signingCertificateV2(certificateDer: Uint8Array): Promise<asn1js.Sequence> {
  const certHash = new Uint8Array(await crypto.subtle.digest('SHA-256', certificateDer));
  const essCertId = new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: certHash })] });
  return new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertId] })] });
}

/**
 * Whoever makes a signature value: a certificate (with the rest of its chain) and a function signing
 * the DER of the CMS signed attributes. A local key (the account's seal, an aes signer's key) or a
 * remote service (a QES provider's signHash, issue 18 › 3) fit the same shape.
 */
export type DocumentSigner = {
  /** DER-encoded X.509 certificate of the signing key. */
  certificate: Uint8Array;
  /** DER of the other certificates of its chain, embedded so verifiers can build the path. */
  chain?: Uint8Array[];
  /** The signature algorithm of what `sign` returns (e.g. sha256WithRSAEncryption), for the SignerInfo. */
  signatureAlgorithm: pkijs.AlgorithmIdentifier;
  /** The CMS signature value over `data` (SHA-256 hashed by the signer; ECDSA as a DER Ecdsa-Sig-Value). */
  sign(data: Uint8Array): Promise<Uint8Array>;
};

const SHA256 = '2.16.840.1.101.3.4.2.1';

/** A signer for a key held here, signing as pkijs would (its engine also DER-encodes ECDSA values). */
const localSigners = new WeakMap<SigningIdentity, Promise<DocumentSigner>>();

export function localSigner(identity: SigningIdentity): Promise<DocumentSigner> {
  let signer = localSigners.get(identity);
  if (!signer) {
    const engine = pkijs.getCrypto(true);
    signer = engine.getSignatureParameters(identity.privateKey, 'SHA-256').then(({ signatureAlgorithm, parameters }) => ({
      certificate: identity.certificate,
      chain: identity.chain,
      signatureAlgorithm,
      sign: async (data) =>
        new Uint8Array(
          await engine.signWithPrivateKey(data, identity.privateKey, parameters as pkijs.CryptoEngineSignWithPrivateKeyParams),
        ),
    }));
    localSigners.set(identity, signer);
  }
  return signer;
}

/** The parsed certificate and its ESS attribute, kept per certificate: parsing costs more than signing. */
const prepared = new WeakMap<
  Uint8Array,
  Promise<{ certificate: pkijs.Certificate; chain: pkijs.Certificate[]; essAttribute: asn1js.Sequence }>
>();

function prepare(signer: Pick<DocumentSigner, 'certificate' | 'chain'>) {
  let entry = prepared.get(signer.certificate);
  if (!entry) {
    entry = signingCertificateV2(signer.certificate).then((essAttribute) => ({
      certificate: pkijs.Certificate.fromBER(signer.certificate),
      chain: (signer.chain ?? []).map((der) => pkijs.Certificate.fromBER(der)),
      essAttribute,
    }));
    prepared.set(signer.certificate, entry);
  }
  return entry;
}

/**
 * Signs the SHA-256 `digest` of the PDF's byte ranges and returns the DER of a CMS ContentInfo to place
 * in the signature dictionary's /Contents.
 */
export async function createCadesDetachedSignature(
  digest: Uint8Array,
  signer: SigningIdentity | DocumentSigner,
  timestamper?: Timestamper,
): Promise<Uint8Array> {
  const documentSigner = 'sign' in signer ? signer : await localSigner(signer);
  const { certificate, chain, essAttribute } = await prepare(documentSigner);
  const sha256 = () => new pkijs.AlgorithmIdentifier({ algorithmId: SHA256, algorithmParams: new asn1js.Null() });
  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({ issuer: certificate.issuer, serialNumber: certificate.serialNumber }),
    digestAlgorithm: sha256(),
    signatureAlgorithm: documentSigner.signatureAlgorithm,
    signedAttrs: new pkijs.SignedAndUnsignedAttributes({
      type: 0,
      attributes: [
        new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: OID.data })] }),
        new pkijs.Attribute({ type: OID.messageDigest, values: [new asn1js.OctetString({ valueHex: digest })] }),
        new pkijs.Attribute({ type: OID.signingCertificateV2, values: [essAttribute] }),
      ],
    }),
  });
  // RFC 5652 § 5.4: the signature is over the DER of the signed attributes with an explicit SET tag
  // in place of their [0] IMPLICIT one.
  const signedAttributes = new Uint8Array(signerInfo.signedAttrs!.toSchema().toBER(false));
  signedAttributes[0] = 0x31;
  signerInfo.signature = new asn1js.OctetString({ valueHex: await documentSigner.sign(signedAttributes) });
  const signedData = new pkijs.SignedData({
    version: 1,
    digestAlgorithms: [sha256()],
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
    signerInfos: [signerInfo],
    certificates: [certificate, ...chain],
  });
  let token: Uint8Array | undefined;
  let placeholder: Uint8Array | undefined;
  if (timestamper) {
    const signatureValue = signerInfo.signature.valueBlock.valueHexView;
    token = await timestamper(new Uint8Array(await crypto.subtle.digest('SHA-256', signatureValue)));
    placeholder = placeholderOfLength(token.length);
    signerInfo.unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({
      type: 1,
      attributes: [
        new pkijs.Attribute({
          type: OID.signatureTimeStampToken,
          values: [
            placeholder
              ? new asn1js.OctetString({ valueHex: new Uint8Array(token.length - placeholder.length) })
              : asn1js.fromBER(token).result,
          ],
        }),
      ],
    });
  }
  const contentInfo = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
  const der = new Uint8Array(contentInfo.toSchema().toBER(false));
  if (token && placeholder) {
    // The one SignerInfo is the SignedData's last element and its token the last value written: the
    // placeholder ends the encoding, where the token's bytes go as the TSA wrote them.
    const at = der.length - token.length;
    if (!placeholder.every((b, i) => der[at + i] === b)) throw new Error('The timestamp token placeholder is not where it was written.');
    der.set(token, at);
  }
  return der;
}

/**
 * The header of an OCTET STRING encoding to exactly `length` bytes with a four-byte header (what a
 * timestamp token of 260 bytes to 64 KB needs), written in its place and then overwritten by the
 * token: encoding the token as its own bytes rather than parsing and re-encoding it with asn1js.
 * Undefined outside that range (the token is then parsed and re-encoded).
 */
function placeholderOfLength(length: number): Uint8Array | undefined {
  const contents = length - 4;
  if (contents < 256 || contents > 0xffff) return undefined;
  return new Uint8Array([0x04, 0x82, contents >> 8, contents & 0xff]);
}
