// Certificates the account's CA issues to aes signers (issue 18 › 2): one per signature, for a key made
// for that signature, naming the signer by name and email, valid from their completion.
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { toHex } from '../../lib/crypto';
import { generateSignatureKey, KEY_USAGE, parseCertificate, signCertificate, type SigningIdentity } from '../pdf/certificate';
import { localSigner, type DocumentSigner } from '../pdf/cms-signature';
import { formatName } from '../pdf/distinguished-name';

const OID = {
  commonName: '2.5.4.3',
  emailAddress: '1.2.840.113549.1.9.1',
  subjectAltName: '2.5.29.17',
  subjectKeyIdentifier: '2.5.29.14',
} as const;

/** How the audit trail and the API name a certificate. */
export type CertificateDescription = { subject: string; issuer: string; serialNumber: string; sha256Fingerprint: string };

export async function describeCertificate(der: Uint8Array): Promise<CertificateDescription> {
  const certificate = parseCertificate(der);
  return {
    subject: formatName(certificate.subject),
    issuer: formatName(certificate.issuer),
    serialNumber: toHex(certificate.serialNumber.valueBlock.valueHexView),
    sha256Fingerprint: toHex(await crypto.subtle.digest('SHA-256', der)),
  };
}

export type SignerName = { name: string | null; email: string | null };

function subjectOf(person: SignerName): pkijs.RelativeDistinguishedNames {
  const typesAndValues = [
    new pkijs.AttributeTypeAndValue({
      type: OID.commonName,
      value: new asn1js.Utf8String({ value: person.name || person.email || 'Signer' }),
    }),
  ];
  if (person.email)
    typesAndValues.push(new pkijs.AttributeTypeAndValue({ type: OID.emailAddress, value: new asn1js.IA5String({ value: person.email }) }));
  return new pkijs.RelativeDistinguishedNames({ typesAndValues });
}

/** The CA's subject key identifier, for the issued certificate's authority key identifier. */
function keyIdentifierOf(der: Uint8Array): Uint8Array | undefined {
  const extension = parseCertificate(der).extensions?.find((e) => e.extnID === OID.subjectKeyIdentifier);
  return extension
    ? (asn1js.fromBER(extension.extnValue.valueBlock.valueHexView).result as asn1js.OctetString).valueBlock.valueHexView
    : undefined;
}

const CERTIFICATE_YEARS = 3;

/**
 * A key for one signature and its certificate from `ca`: subject CN (name, else email) and emailAddress,
 * subjectAltName rfc822Name, nonRepudiation. `notBefore` is the signer's completion (to the second, never
 * after it), so the certificate is valid at the signing time the signature records.
 */
export async function issueSignerCertificate(
  ca: SigningIdentity,
  person: SignerName,
  notBefore: Date,
): Promise<{ signer: DocumentSigner; description: CertificateDescription }> {
  const keys = await generateSignatureKey();
  const from = new Date(Math.floor(notBefore.getTime() / 1000) * 1000);
  const notAfter = new Date(Math.max(from.getTime(), Date.now()));
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + CERTIFICATE_YEARS);
  const altNames = person.email
    ? [
        new pkijs.Extension({
          extnID: OID.subjectAltName,
          extnValue: new pkijs.GeneralNames({ names: [new pkijs.GeneralName({ type: 1, value: person.email })] }).toSchema().toBER(false),
        }),
      ]
    : [];
  const { der } = await signCertificate({
    subject: subjectOf(person),
    issuer: { name: parseCertificate(ca.certificate).subject, privateKey: ca.privateKey, keyIdentifier: keyIdentifierOf(ca.certificate) },
    publicKey: keys.publicKey,
    notBefore: from,
    notAfter,
    isCa: false,
    keyUsage: [KEY_USAGE.digitalSignature, KEY_USAGE.nonRepudiation],
    extensions: altNames,
  });
  const signer = await localSigner({ certificate: der, privateKey: keys.privateKey, chain: [ca.certificate, ...(ca.chain ?? [])] });
  return { signer, description: await describeCertificate(der) };
}
