// Self-signed X.509 signing certificates for accounts that have not uploaded their own (decisions.md
// › Signed output), built with pkijs over WebCrypto.
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

export type SigningIdentity = {
  /** DER-encoded X.509 certificate. */
  certificate: Uint8Array;
  privateKey: CryptoKey;
  /** DER of the rest of an uploaded chain (intermediates), embedded in the CMS so verifiers can build the path. */
  chain?: Uint8Array[];
};

const SIGNING_ALGORITHM = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const;

const OID = {
  commonName: '2.5.4.3',
  organizationName: '2.5.4.10',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  subjectKeyIdentifier: '2.5.29.14',
} as const;

function distinguishedName(commonName: string, organization: string): pkijs.RelativeDistinguishedNames {
  return new pkijs.RelativeDistinguishedNames({
    typesAndValues: [
      new pkijs.AttributeTypeAndValue({ type: OID.commonName, value: new asn1js.Utf8String({ value: commonName }) }),
      new pkijs.AttributeTypeAndValue({ type: OID.organizationName, value: new asn1js.Utf8String({ value: organization }) }),
    ],
  });
}

/**
 * A certificate serial from random bytes, as DER wants it (RFC 5280 § 4.1.2.2): positive (top bit clear)
 * and minimally encoded (first byte never zero — a leading zero byte before one below 0x80 is not DER,
 * and strict verifiers such as NSS, behind pdfsig and Firefox, refuse the certificate). 126 random bits.
 */
export function serialNumberBytes(random: Uint8Array): Uint8Array {
  const serial = random.slice();
  serial[0] = (serial[0] & 0x3f) | 0x40;
  return serial;
}

export type CertificateOptions = {
  commonName: string;
  organization: string;
  /** Validity in years from `notBefore`. */
  years?: number;
  notBefore?: Date;
};

/** A new RSA-2048 key pair and a self-signed certificate for document signing (keyUsage nonRepudiation). */
export async function generateSigningIdentity(options: CertificateOptions): Promise<SigningIdentity & { privateKeyPkcs8: Uint8Array }> {
  const keys = (await crypto.subtle.generateKey(
    { ...SIGNING_ALGORITHM, modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) },
    true,
    ['sign', 'verify'],
  )) as CryptoKeyPair;

  const certificate = new pkijs.Certificate();
  certificate.version = 2;
  certificate.serialNumber = new asn1js.Integer({ valueHex: serialNumberBytes(crypto.getRandomValues(new Uint8Array(16))) });
  const name = distinguishedName(options.commonName, options.organization);
  certificate.issuer = name;
  certificate.subject = name;
  const notBefore = options.notBefore ?? new Date();
  const notAfter = new Date(notBefore);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + (options.years ?? 10));
  certificate.notBefore.value = notBefore;
  certificate.notAfter.value = notAfter;
  await certificate.subjectPublicKeyInfo.importKey(keys.publicKey);

  const keyId = new Uint8Array(await crypto.subtle.digest('SHA-1', certificate.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView));
  // digitalSignature (bit 0) + nonRepudiation (bit 1): the bits a document-signing certificate needs.
  const keyUsage = new asn1js.BitString({ valueHex: new Uint8Array([0b1100_0000]).buffer, unusedBits: 6 });
  certificate.extensions = [
    new pkijs.Extension({ extnID: OID.basicConstraints, critical: true, extnValue: new pkijs.BasicConstraints({ cA: false }).toSchema().toBER(false) }),
    new pkijs.Extension({ extnID: OID.keyUsage, critical: true, extnValue: keyUsage.toBER(false) }),
    new pkijs.Extension({ extnID: OID.subjectKeyIdentifier, extnValue: new asn1js.OctetString({ valueHex: keyId }).toBER(false) }),
  ];
  await certificate.sign(keys.privateKey, 'SHA-256');

  return {
    certificate: new Uint8Array(certificate.toSchema(true).toBER(false)),
    privateKey: keys.privateKey,
    privateKeyPkcs8: new Uint8Array((await crypto.subtle.exportKey('pkcs8', keys.privateKey)) as ArrayBuffer),
  };
}

/** Re-creates a signing key from its stored PKCS#8 bytes. */
export function importSigningKey(pkcs8: Uint8Array): Promise<CryptoKey> {
  return crypto.subtle.importKey('pkcs8', pkcs8, SIGNING_ALGORITHM, false, ['sign']);
}

export function parseCertificate(der: Uint8Array): pkijs.Certificate {
  return pkijs.Certificate.fromBER(der);
}
