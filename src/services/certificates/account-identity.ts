// The identity an account's documents are sealed with (decisions.md › Signed output): an uploaded
// PKCS#12 while there is one, otherwise a self-signed certificate generated on first use. Private
// keys are stored encrypted (src/lib/encryption.ts) and imported once per isolate.
import * as pkijs from 'pkijs';
import { formatName } from '../pdf/distinguished-name';
import { decryptAtRest, encryptAtRest } from '../../lib/encryption';
import { toHex } from '../../lib/crypto';
import type { Db } from '../../db/client';
import {
  activeSigningIdentity,
  signingIdentityOfSource,
  deleteUploadedIdentity,
  insertGeneratedIdentity,
  replaceGeneratedIdentity,
  upsertUploadedIdentity,
  type NewSigningIdentity,
} from '../../db/queries/signing-identities';
import type { Account, SigningIdentityRow } from '../../db/schema';
import { generateCertificateAuthority, generateSigningIdentity, type SigningIdentity } from '../pdf/certificate';
import { importPrivateKey, readPkcs12, type KeyAlgorithm } from './pkcs12';
import { fromBase64, toBase64 } from '../../lib/base64';

export type IdentityEnv = { ENCRYPTION_KEY?: string; SERVICE_NAME: string };

/** Binds a stored key to its account, kind and certificate: a ciphertext moved to another row fails. */
const keyContext = (accountId: number, source: string, fingerprint: string) => `signing-key:${accountId}:${source}:${fingerprint}`;

async function rowValues(
  env: IdentityEnv,
  accountId: number,
  source: 'generated' | 'uploaded' | 'ca',
  identity: { certificate: Uint8Array; chain: Uint8Array[]; privateKeyPkcs8: Uint8Array; keyAlgorithm: KeyAlgorithm },
): Promise<NewSigningIdentity> {
  const certificate = pkijs.Certificate.fromBER(identity.certificate);
  const fingerprint = toHex(await crypto.subtle.digest('SHA-256', identity.certificate));
  return {
    accountId,
    source,
    certificate: toBase64(identity.certificate),
    chain: identity.chain.map(toBase64),
    keyAlgorithm: identity.keyAlgorithm,
    privateKey: await encryptAtRest(env.ENCRYPTION_KEY, identity.privateKeyPkcs8, keyContext(accountId, source, fingerprint)),
    subject: formatName(certificate.subject),
    issuer: formatName(certificate.issuer),
    serialNumber: toHex(certificate.serialNumber.valueBlock.valueHexView),
    notBefore: certificate.notBefore.value.toISOString(),
    notAfter: certificate.notAfter.value.toISOString(),
    sha256Fingerprint: fingerprint,
  };
}

type IdentityAccount = Pick<Account, 'id' | 'name'>;

async function generatedRow(env: IdentityEnv, account: IdentityAccount): Promise<NewSigningIdentity> {
  const generated = await generateSigningIdentity({ commonName: `${account.name} (${env.SERVICE_NAME})`, organization: account.name });
  return rowValues(env, account.id, 'generated', { ...generated, chain: [], keyAlgorithm: 'RSA' });
}

/**
 * A serial with a zero byte it does not need (before one below 0x80) is not DER: NSS refuses every
 * signature made with such a certificate. Generated certificates had one until 2026-11-25 (1 in 256).
 */
export function hasNonMinimalSerial(row: Pick<SigningIdentityRow, 'serialNumber'>): boolean {
  return /^00[0-7]/i.test(row.serialNumber);
}

/** The row sealing would use now, generating (and storing) the self-signed identity on first use. */
export async function activeIdentityRow(env: IdentityEnv, db: Db, account: IdentityAccount): Promise<SigningIdentityRow> {
  const accountId = account.id;
  let row = await activeSigningIdentity(db, accountId);
  if (!row) {
    await insertGeneratedIdentity(db, await generatedRow(env, account));
    row = await activeSigningIdentity(db, accountId);
  } else if (row.source === 'generated' && hasNonMinimalSerial(row)) {
    // Documents sealed from now on verify everywhere; earlier seals keep the certificate they name.
    await replaceGeneratedIdentity(db, row, await generatedRow(env, account));
    row = await activeSigningIdentity(db, accountId);
  }
  if (!row) throw new Error(`No signing identity could be stored for account ${accountId}.`);
  return row;
}

/** Imported identities by row and certificate; a replaced upload has a new key and misses the cache. */
const imported = new Map<string, Promise<SigningIdentity>>();
const IMPORTED_LIMIT = 200;

async function importIdentity(env: IdentityEnv, row: SigningIdentityRow): Promise<SigningIdentity> {
  const pkcs8 = await decryptAtRest(env.ENCRYPTION_KEY, row.privateKey, keyContext(row.accountId, row.source, row.sha256Fingerprint));
  return {
    certificate: fromBase64(row.certificate),
    chain: row.chain.map(fromBase64),
    privateKey: await importPrivateKey(pkcs8, row.keyAlgorithm as KeyAlgorithm),
  };
}

/** The identity of a stored row, its key decrypted and imported once per isolate. */
function cachedIdentity(env: IdentityEnv, row: SigningIdentityRow): Promise<SigningIdentity> {
  const key = `${row.id}:${row.sha256Fingerprint}:${row.createdAt}`;
  let identity = imported.get(key);
  if (!identity) {
    identity = importIdentity(env, row);
    identity.catch(() => imported.delete(key));
    if (imported.size >= IMPORTED_LIMIT) imported.delete(imported.keys().next().value!);
    imported.set(key, identity);
  }
  return identity;
}

/** What the sealing job signs with: the account's uploaded identity, or its generated one. */
export async function accountSigningIdentity(env: IdentityEnv, db: Db, account: IdentityAccount): Promise<SigningIdentity> {
  return cachedIdentity(env, await activeIdentityRow(env, db, account));
}

/**
 * The account's certificate authority, which issues each aes signer their certificate (issue 18 › 2):
 * generated on first use and stored like the generated seal (key encrypted); two first uses racing
 * store one and both read it back.
 */
export async function accountCertificateAuthority(env: IdentityEnv, db: Db, account: IdentityAccount): Promise<SigningIdentity> {
  let row = await signingIdentityOfSource(db, account.id, 'ca');
  if (!row) {
    const ca = await generateCertificateAuthority({
      commonName: `${account.name} Signer CA (${env.SERVICE_NAME})`,
      organization: account.name,
    });
    await insertGeneratedIdentity(db, await rowValues(env, account.id, 'ca', { ...ca, chain: [], keyAlgorithm: 'RSA' }));
    row = await signingIdentityOfSource(db, account.id, 'ca');
  }
  if (!row) throw new Error(`No certificate authority could be stored for account ${account.id}.`);
  return cachedIdentity(env, row);
}

/** Validates an uploaded PKCS#12 and makes it the account's signing identity. */
export async function uploadSigningIdentity(
  env: IdentityEnv,
  db: Db,
  accountId: number,
  file: Uint8Array,
  password: string,
): Promise<SigningIdentityRow> {
  const contents = await readPkcs12(file, password);
  return upsertUploadedIdentity(db, await rowValues(env, accountId, 'uploaded', contents));
}

/** Removes the uploaded identity; sealing goes back to the generated one. */
export function removeUploadedIdentity(db: Db, accountId: number): Promise<boolean> {
  return deleteUploadedIdentity(db, accountId);
}
