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
  authorityKeyIdentifier: '2.5.29.35',
} as const;

export function distinguishedName(commonName: string, organization: string): pkijs.RelativeDistinguishedNames {
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

/** A new RSA-2048 key pair for signing (RSASSA-PKCS1-v1_5 with SHA-256). */
async function rsaKeyPair(): Promise<CryptoKeyPair> {
  return (await crypto.subtle.generateKey({ ...SIGNING_ALGORITHM, modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) }, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
}

/** keyUsage bits as DER (RFC 5280 § 4.2.1.3): bit 0 digitalSignature … bit 6 cRLSign, first bit highest. */
function keyUsageExtension(bits: readonly number[]): pkijs.Extension {
  const byte = bits.reduce((value, bit) => value | (0x80 >> bit), 0);
  const unusedBits = 7 - Math.max(...bits);
  return new pkijs.Extension({
    extnID: OID.keyUsage,
    critical: true,
    extnValue: new asn1js.BitString({ valueHex: new Uint8Array([byte]).buffer, unusedBits }).toBER(false),
  });
}

export const KEY_USAGE = { digitalSignature: 0, nonRepudiation: 1, keyCertSign: 5, cRLSign: 6 } as const;

export type CertificateBody = {
  subject: pkijs.RelativeDistinguishedNames;
  /** The issuer's name and key; the subject's own for a self-signed certificate. */
  issuer: { name: pkijs.RelativeDistinguishedNames; privateKey: CryptoKey; keyIdentifier?: Uint8Array };
  publicKey: CryptoKey;
  notBefore: Date;
  notAfter: Date;
  isCa: boolean;
  keyUsage: readonly number[];
  /** More extensions (subjectAltName, …). */
  extensions?: pkijs.Extension[];
};

/** An X.509 v3 certificate signed by its issuer's key, as DER, with its subject key identifier. */
export async function signCertificate(body: CertificateBody): Promise<{ der: Uint8Array; keyIdentifier: Uint8Array }> {
  const certificate = new pkijs.Certificate();
  certificate.version = 2;
  certificate.serialNumber = new asn1js.Integer({ valueHex: serialNumberBytes(crypto.getRandomValues(new Uint8Array(16))) });
  certificate.issuer = body.issuer.name;
  certificate.subject = body.subject;
  certificate.notBefore.value = body.notBefore;
  certificate.notAfter.value = body.notAfter;
  await certificate.subjectPublicKeyInfo.importKey(body.publicKey);
  const keyIdentifier = new Uint8Array(
    await crypto.subtle.digest('SHA-1', certificate.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView),
  );
  certificate.extensions = [
    new pkijs.Extension({
      extnID: OID.basicConstraints,
      critical: true,
      extnValue: new pkijs.BasicConstraints({ cA: body.isCa }).toSchema().toBER(false),
    }),
    keyUsageExtension(body.keyUsage),
    new pkijs.Extension({ extnID: OID.subjectKeyIdentifier, extnValue: new asn1js.OctetString({ valueHex: keyIdentifier }).toBER(false) }),
    ...(body.issuer.keyIdentifier
      ? [
          new pkijs.Extension({
            extnID: OID.authorityKeyIdentifier,
            extnValue: new pkijs.AuthorityKeyIdentifier({ keyIdentifier: new asn1js.OctetString({ valueHex: body.issuer.keyIdentifier }) })
              .toSchema()
              .toBER(false),
          }),
        ]
      : []),
    ...(body.extensions ?? []),
  ];
  await certificate.sign(body.issuer.privateKey, 'SHA-256');
  return { der: new Uint8Array(certificate.toSchema(true).toBER(false)), keyIdentifier };
}

/** A certificate's validity: from `notBefore` (now by default) for `years`. */
function validity(options: Pick<CertificateOptions, 'notBefore' | 'years'>, defaultYears: number): { notBefore: Date; notAfter: Date } {
  const notBefore = options.notBefore ?? new Date();
  const notAfter = new Date(notBefore);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + (options.years ?? defaultYears));
  return { notBefore, notAfter };
}

/** A new RSA-2048 key pair and a self-signed certificate for it, with its PKCS#8 for storing. */
async function selfSigned(
  options: CertificateOptions,
  defaultYears: number,
  isCa: boolean,
  keyUsage: readonly number[],
): Promise<SigningIdentity & { privateKeyPkcs8: Uint8Array }> {
  const keys = await rsaKeyPair();
  const name = distinguishedName(options.commonName, options.organization);
  const { der } = await signCertificate({
    subject: name,
    issuer: { name, privateKey: keys.privateKey },
    publicKey: keys.publicKey,
    ...validity(options, defaultYears),
    isCa,
    keyUsage,
  });
  return {
    certificate: der,
    privateKey: keys.privateKey,
    privateKeyPkcs8: new Uint8Array((await crypto.subtle.exportKey('pkcs8', keys.privateKey)) as ArrayBuffer),
  };
}

/** A new RSA-2048 key pair and a self-signed certificate for document signing (keyUsage nonRepudiation). */
export function generateSigningIdentity(options: CertificateOptions): Promise<SigningIdentity & { privateKeyPkcs8: Uint8Array }> {
  // digitalSignature + nonRepudiation: the bits a document-signing certificate needs.
  return selfSigned(options, 10, false, [KEY_USAGE.digitalSignature, KEY_USAGE.nonRepudiation]);
}

/**
 * A new RSA-2048 certificate authority (self-signed, cA, keyCertSign and cRLSign) for issuing signer
 * certificates (issue 18 › 2).
 */
export function generateCertificateAuthority(options: CertificateOptions): Promise<SigningIdentity & { privateKeyPkcs8: Uint8Array }> {
  return selfSigned(options, 20, true, [KEY_USAGE.keyCertSign, KEY_USAGE.cRLSign]);
}

/** A fresh key pair for one signature: P-256 ECDSA, generated in a fraction of an RSA key's time. */
export async function generateSignatureKey(): Promise<CryptoKeyPair> {
  return (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify'])) as CryptoKeyPair;
}

export function parseCertificate(der: Uint8Array): pkijs.Certificate {
  return pkijs.Certificate.fromBER(der);
}
