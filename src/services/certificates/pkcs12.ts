// Reads an uploaded PKCS#12 (.p12/.pfx, RFC 7292) into a signing key and its certificate chain, and
// says in a sentence what is wrong with one that cannot be used.
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

const BAG = {
  key: '1.2.840.113549.1.12.10.1.1',
  shroudedKey: '1.2.840.113549.1.12.10.1.2',
  certificate: '1.2.840.113549.1.12.10.1.3',
} as const;
const X509_CERTIFICATE = '1.2.840.113549.1.9.22.1';
const KEY_OID = { rsa: '1.2.840.113549.1.1.1', ec: '1.2.840.10045.2.1' } as const;
const CURVES: Record<string, 'P-256' | 'P-384'> = { '1.2.840.10045.3.1.7': 'P-256', '1.3.132.0.34': 'P-384' };

export type KeyAlgorithm = 'RSA' | 'P-256' | 'P-384';

export type Pkcs12Contents = {
  privateKeyPkcs8: Uint8Array;
  keyAlgorithm: KeyAlgorithm;
  privateKey: CryptoKey;
  /** DER of the certificate that belongs to the key. */
  certificate: Uint8Array;
  /** DER of the other certificates in the file (intermediates, root). */
  chain: Uint8Array[];
};

/** A reason an upload cannot be used, phrased for the 422 body. */
export class UnusableCertificate extends Error {}

export function importParameters(algorithm: KeyAlgorithm): SubtleCryptoImportKeyAlgorithm {
  return algorithm === 'RSA' ? { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } : { name: 'ECDSA', namedCurve: algorithm };
}

function signParameters(algorithm: KeyAlgorithm): SubtleCryptoSignAlgorithm {
  return algorithm === 'RSA' ? { name: 'RSASSA-PKCS1-v1_5' } : { name: 'ECDSA', hash: 'SHA-256' };
}

export function importPrivateKey(pkcs8: Uint8Array, algorithm: KeyAlgorithm): Promise<CryptoKey> {
  return crypto.subtle.importKey('pkcs8', pkcs8, importParameters(algorithm), false, ['sign']);
}

function keyAlgorithmOf(info: pkijs.PrivateKeyInfo): KeyAlgorithm {
  const { algorithmId, algorithmParams } = info.privateKeyAlgorithm;
  if (algorithmId === KEY_OID.rsa) return 'RSA';
  if (algorithmId === KEY_OID.ec && algorithmParams instanceof asn1js.ObjectIdentifier) {
    const curve = CURVES[algorithmParams.valueBlock.toString()];
    if (curve) return curve;
  }
  throw new UnusableCertificate(
    'The private key in the file is not RSA or ECDSA P-256/P-384; those are the key types documents can be sealed with.',
  );
}

/** Whether `key` made the certificate's public key: sign a challenge, verify with the certificate. */
async function keyMatches(key: CryptoKey, algorithm: KeyAlgorithm, certificate: pkijs.Certificate): Promise<boolean> {
  try {
    const challenge = crypto.getRandomValues(new Uint8Array(32));
    const signature = await crypto.subtle.sign(signParameters(algorithm), key, challenge);
    const publicKey = await crypto.subtle.importKey(
      'spki',
      certificate.subjectPublicKeyInfo.toSchema().toBER(false),
      importParameters(algorithm),
      false,
      ['verify'],
    );
    return await crypto.subtle.verify(signParameters(algorithm), publicKey, signature, challenge);
  } catch {
    return false;
  }
}

async function readBags(der: Uint8Array, password: ArrayBuffer): Promise<pkijs.SafeBag[]> {
  let pfx: pkijs.PFX;
  try {
    pfx = pkijs.PFX.fromBER(der);
  } catch {
    throw new UnusableCertificate(
      'The file is not a PKCS#12 (.p12 or .pfx) file; export the certificate together with its private key in that format.',
    );
  }
  try {
    await pfx.parseInternalValues({ password, checkIntegrity: true });
  } catch (error) {
    if (/integrity/i.test((error as Error).message)) throw new UnusableCertificate('The password does not open this PKCS#12 file.');
    throw new UnusableCertificate('The PKCS#12 file could not be read; export it again (OpenSSL 3: `openssl pkcs12 -export`).');
  }
  const safe = pfx.parsedValue?.authenticatedSafe;
  if (!safe) throw new UnusableCertificate('The PKCS#12 file holds no certificates or keys.');
  try {
    await safe.parseInternalValues({ safeContents: safe.safeContents.map(() => ({ password })) });
  } catch (error) {
    if (/Unknown "contentEncryptionAlgorithm"|Unknown algorithm|not supported/i.test((error as Error).message)) {
      throw new UnusableCertificate(
        'The PKCS#12 file is encrypted with a legacy algorithm (RC2 or 3DES); export it again with AES (OpenSSL 3 `openssl pkcs12 -export` without `-legacy`).',
      );
    }
    throw new UnusableCertificate('The password does not open this PKCS#12 file.');
  }
  // pkijs types the parsed value as `any`: each entry is { privacyMode, value: SafeContents }.
  const contents = (safe.parsedValue?.safeContents ?? []) as Array<{ value: pkijs.SafeContents }>;
  return contents.flatMap((content) => content.value.safeBags);
}

export async function readPkcs12(der: Uint8Array, password: string, now = new Date()): Promise<Pkcs12Contents> {
  const passwordBytes = new TextEncoder().encode(password);
  const bags = await readBags(der, passwordBytes.buffer as ArrayBuffer);

  let keyInfo: pkijs.PrivateKeyInfo | undefined;
  const certificates: pkijs.Certificate[] = [];
  for (const bag of bags) {
    if (bag.bagId === BAG.shroudedKey) {
      // pkijs declares the shrouded bag's decryption protected, yet it is the documented way to read one.
      const shrouded = bag.bagValue as unknown as {
        parsedValue?: pkijs.PrivateKeyInfo;
        parseInternalValues(p: { password: ArrayBuffer }): Promise<void>;
      };
      try {
        await shrouded.parseInternalValues({ password: passwordBytes.buffer as ArrayBuffer });
      } catch {
        throw new UnusableCertificate('The private key in the PKCS#12 file could not be decrypted with this password.');
      }
      keyInfo ??= shrouded.parsedValue;
    } else if (bag.bagId === BAG.key) {
      keyInfo ??= bag.bagValue as pkijs.PrivateKeyInfo;
    } else if (bag.bagId === BAG.certificate) {
      const certBag = bag.bagValue as pkijs.CertBag;
      if (certBag.certId === X509_CERTIFICATE && certBag.parsedValue instanceof pkijs.Certificate) certificates.push(certBag.parsedValue);
    }
  }
  if (!keyInfo)
    throw new UnusableCertificate('The PKCS#12 file holds no private key; export the certificate together with its private key.');
  if (!certificates.length) throw new UnusableCertificate('The PKCS#12 file holds no certificate.');

  const keyAlgorithm = keyAlgorithmOf(keyInfo);
  const privateKeyPkcs8 = new Uint8Array(keyInfo.toSchema().toBER(false));
  let privateKey: CryptoKey;
  try {
    privateKey = await crypto.subtle.importKey('pkcs8', privateKeyPkcs8, importParameters(keyAlgorithm), false, ['sign']);
  } catch {
    throw new UnusableCertificate('The private key in the PKCS#12 file could not be read.');
  }
  let own: pkijs.Certificate | undefined;
  for (const certificate of certificates) {
    if (await keyMatches(privateKey, keyAlgorithm, certificate)) {
      own = certificate;
      break;
    }
  }
  if (!own) throw new UnusableCertificate('The private key in the PKCS#12 file does not belong to any certificate in it.');

  const notAfter = own.notAfter.value;
  const notBefore = own.notBefore.value;
  if (notAfter.getTime() <= now.getTime()) {
    throw new UnusableCertificate(`The certificate expired on ${notAfter.toISOString().slice(0, 10)}; upload a current one.`);
  }
  if (notBefore.getTime() > now.getTime()) {
    throw new UnusableCertificate(`The certificate is not valid until ${notBefore.toISOString().slice(0, 10)}.`);
  }
  return {
    privateKeyPkcs8,
    keyAlgorithm,
    privateKey,
    certificate: new Uint8Array(own.toSchema(true).toBER(false)),
    chain: certificates.filter((c) => c !== own).map((c) => new Uint8Array(c.toSchema(true).toBER(false))),
  };
}
