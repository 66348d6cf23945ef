// The per-account key embed JWTs are signed with (docs/embedding.md › Keys): 32 random bytes, kept on the
// account's control row encrypted at rest (src/lib/encryption.ts, bound to the account id), made on the
// first mint and rotated by an admin with the previous key still verifying for one token lifetime.
import type { Db } from '../../db/client';
import { rotateEmbedKey as rotateStored, setEmbedKeyIfMissing } from '../../db/queries/accounts';
import type { Account } from '../../db/schema/index';
import { decryptAtRest, encryptAtRest } from '../../lib/encryption';

/** Embed JWT lifetime (spec › Limits: 4 hours); also how long a rotated-out key keeps verifying. */
export const EMBED_TOKEN_LIFETIME_SECONDS = 4 * 60 * 60;

const keyContext = (accountId: number) => `embed-key:${accountId}`;

async function sealNewKey(secret: string | undefined, accountId: number): Promise<string> {
  return encryptAtRest(secret, crypto.getRandomValues(new Uint8Array(32)), keyContext(accountId));
}

/** The key new tokens are signed with: the account's current one, made now if it has none yet. */
export async function signingKey(secret: string | undefined, control: Db, account: Account): Promise<Uint8Array> {
  const sealed = account.embedKey ?? (await setEmbedKeyIfMissing(control, account.id, await sealNewKey(secret, account.id)));
  return decryptAtRest(secret, sealed, keyContext(account.id));
}

/** The keys a token may verify under now: the current one, then the previous one while it is in its grace. */
export async function verificationKeys(secret: string | undefined, account: Account, now = Date.now()): Promise<Uint8Array[]> {
  const keys: Uint8Array[] = [];
  if (account.embedKey) keys.push(await decryptAtRest(secret, account.embedKey, keyContext(account.id)));
  if (account.embedKeyPrevious && account.embedKeyPreviousUntil && Date.parse(account.embedKeyPreviousUntil) > now) {
    keys.push(await decryptAtRest(secret, account.embedKeyPrevious, keyContext(account.id)));
  }
  return keys;
}

/**
 * A new current key; tokens signed with the one before keep verifying for EMBED_TOKEN_LIFETIME_SECONDS,
 * i.e. until every one of them has expired anyway. A key two rotations old stops verifying at once.
 */
export async function rotateEmbedKey(secret: string | undefined, control: Db, account: Account, now = Date.now()): Promise<Account> {
  const until = new Date(now + EMBED_TOKEN_LIFETIME_SECONDS * 1000).toISOString();
  return rotateStored(control, account.id, await sealNewKey(secret, account.id), until);
}
