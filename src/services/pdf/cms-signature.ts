// CMS SignedData for PAdES baseline B-B (ETSI EN 319 142-1 § 5.1; CAdES, RFC 5652): detached content,
// signed attributes contentType, messageDigest and ESS signing-certificate-v2 (RFC 5035). Signing
// time is not a signed attribute in PAdES; the PDF signature dictionary's /M carries it. With a
// timestamper it is B-T (§ 5.3): an RFC 3161 token over the signature value as the unsigned attribute
// id-aa-signatureTimeStampToken (RFC 3161 Appendix A).
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { SigningIdentity } from './certificate';
import { signRemotely, type RemoteSigner } from './cms-remote-signing';
import type { Timestamper } from './timestamp';

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
} as const;

/** A local key, or one held elsewhere (a QES provider) that signs the signed attributes through a function. */
export type CadesSigner = SigningIdentity | RemoteSigner;

/** ESS SigningCertificateV2 with one ESSCertIDv2 (hash algorithm SHA-256, the default, so omitted). */
async function signingCertificateV2(certificateDer: Uint8Array): Promise<asn1js.Sequence> {
  const certHash = new Uint8Array(await crypto.subtle.digest('SHA-256', certificateDer));
  const essCertId = new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: certHash })] });
  return new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertId] })] });
}

/** The parsed certificate and its ESS attribute, kept per identity: parsing costs more than signing. */
const prepared = new WeakMap<Uint8Array, Promise<{ certificate: pkijs.Certificate; chain: pkijs.Certificate[]; essAttribute: asn1js.Sequence }>>();

function prepare(signer: CadesSigner) {
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
export async function createCadesDetachedSignature(digest: Uint8Array, signer: CadesSigner, timestamper?: Timestamper): Promise<Uint8Array> {
  const { certificate, chain, essAttribute } = await prepare(signer);
  const signedData = new pkijs.SignedData({
    version: 1,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
    signerInfos: [
      new pkijs.SignerInfo({
        version: 1,
        sid: new pkijs.IssuerAndSerialNumber({ issuer: certificate.issuer, serialNumber: certificate.serialNumber }),
      }),
    ],
    certificates: [certificate, ...chain],
  });
  signedData.signerInfos[0].signedAttrs = new pkijs.SignedAndUnsignedAttributes({
    type: 0,
    attributes: [
      new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: OID.data })] }),
      new pkijs.Attribute({ type: OID.messageDigest, values: [new asn1js.OctetString({ valueHex: digest })] }),
      new pkijs.Attribute({ type: OID.signingCertificateV2, values: [essAttribute] }),
    ],
  });
  if ('privateKey' in signer) await signedData.sign(signer.privateKey, 0, 'SHA-256');
  else await signRemotely(signedData, certificate, signer.signSignedAttributes);
  if (timestamper) {
    const signerInfo = signedData.signerInfos[0];
    const signatureValue = signerInfo.signature.valueBlock.valueHexView;
    const token = await timestamper(new Uint8Array(await crypto.subtle.digest('SHA-256', signatureValue)));
    signerInfo.unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({
      type: 1,
      attributes: [new pkijs.Attribute({ type: OID.signatureTimeStampToken, values: [asn1js.fromBER(token).result] })],
    });
  }
  const contentInfo = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
  return new Uint8Array(contentInfo.toSchema().toBER(false));
}
