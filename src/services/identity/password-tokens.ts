// One-time password links (invitation, reset) and sign-in account choices: a random token whose SHA-256
// is the row's key in the control database, used at most once even when two requests race
// (docs/identity.md › Passwords).
import type { Db } from '../../db/client';
import {
  consumePasswordTokenStatement,
  deleteSpentPasswordTokenRows,
  findUnusedPasswordToken,
  insertPasswordTokenStatement,
  usePasswordLinksOfUserStatement,
} from '../../db/queries/password-tokens';
import { endOtherSessionsOfUserStatement, endSessionsOfUserStatement } from '../../db/queries/sessions';
import { replacePasswordHash, setPasswordHashStatement } from '../../db/queries/users';
import type { PasswordToken, User } from '../../db/schema/index';
import { sha256Hex } from '../../lib/crypto';
import { ApiError } from '../../lib/errors';
import { randomBase62 } from '../../lib/random';
import { ChangeSet } from '../submissions/change-set';
import { hashPassword } from './passwords';

export type PasswordTokenPurpose = 'invite' | 'reset' | 'sign_in_choice' | 'email_change';

/**
 * Invitation 7 days, reset 1 hour (decisions: docs/decisions.md › issue 16), account choice 5 minutes,
 * confirming a new email 7 days (docs/identity.md › Changing an email).
 */
export const PASSWORD_TOKEN_TTL_MS: Record<PasswordTokenPurpose, number> = {
  invite: 7 * 24 * 60 * 60 * 1000,
  reset: 60 * 60 * 1000,
  sign_in_choice: 5 * 60 * 1000,
  email_change: 7 * 24 * 60 * 60 * 1000,
};

const TOKEN = /^[0-9A-Za-z]{43}$/;

/** Creates a token for a user; returns the value to put in the link (never stored). */
export async function issuePasswordToken(
  db: Db,
  user: Pick<User, 'id' | 'accountId'>,
  purpose: PasswordTokenPurpose,
  now = Date.now(),
): Promise<string> {
  const { token, insert } = await passwordTokenInsert(db, user, purpose, now);
  await insert.run();
  return token;
}

/** The statement that stores a new token (for a caller's own batch), and the value for the link. */
export async function passwordTokenInsert(db: Db, user: Pick<User, 'id' | 'accountId'>, purpose: PasswordTokenPurpose, now = Date.now()) {
  const token = randomBase62(43);
  const insert = insertPasswordTokenStatement(db, {
    tokenHash: await sha256Hex(token),
    accountId: user.accountId,
    userId: user.id,
    purpose,
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + PASSWORD_TOKEN_TTL_MS[purpose]).toISOString(),
  });
  return { token, insert };
}

/**
 * The unused, unexpired token behind a link value with its user, when the user is still active. Only a
 * look: `consume…` below is what uses it up.
 */
export async function findPasswordToken(
  db: Db,
  value: string,
  purposes: readonly PasswordTokenPurpose[],
  now = Date.now(),
): Promise<{ token: PasswordToken; user: User } | null> {
  if (!TOKEN.test(value)) return null;
  const row = await findUnusedPasswordToken(db, await sha256Hex(value), new Date(now).toISOString());
  if (!row || !purposes.includes(row.token.purpose as PasswordTokenPurpose) || row.user.archivedAt) return null;
  return row;
}

export const LINK_USED = 'This link has already been used or has expired; ask for a new one.';

/** Uses up a token on its own (the account chooser); false when another request used it first. */
export async function consumePasswordToken(db: Db, tokenId: number, now = Date.now()): Promise<boolean> {
  const result = await consumePasswordTokenStatement(db, tokenId, new Date(now).toISOString()).run();
  return (result.meta?.changes ?? 0) === 1;
}

/**
 * Sets a user's password and, in the same D1 batch, ends every session of theirs and uses up their other
 * outstanding links. With `viaToken` the token is consumed in that batch too, guarded: when two requests
 * race with one link, the second batch changes nothing and answers 409 (LINK_USED).
 */
export async function setUserPassword(
  db: Db,
  user: Pick<User, 'id'>,
  password: string,
  options: { viaToken?: number; keepSession?: number; now?: number } = {},
): Promise<void> {
  const now = options.now ?? Date.now();
  const nowIso = new Date(now).toISOString();
  const passwordHash = await hashPassword(password);
  const change = new ChangeSet(db);
  if (options.viaToken !== undefined) change.guarded(consumePasswordTokenStatement(db, options.viaToken, nowIso));
  change.add(
    setPasswordHashStatement(db, user.id, passwordHash, nowIso),
    options.keepSession === undefined
      ? endSessionsOfUserStatement(db, user.id)
      : endOtherSessionsOfUserStatement(db, user.id, options.keepSession),
    usePasswordLinksOfUserStatement(db, user.id, nowIso),
  );
  await change.commit(undefined, () => new ApiError(409, LINK_USED));
}

/** Stores a stronger hash of the same password (sign-in found the old one's parameters below today's). */
export async function rehashUserPassword(db: Db, userId: number, password: string, previousHash: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  // Guarded by the old hash, so a password changed meanwhile is never overwritten.
  await replacePasswordHash(db, userId, passwordHash, previousHash);
}

/** Deletes used and expired tokens, at most `limit` a run (a cron step keeps the table small). */
export async function deleteSpentPasswordTokens(db: Db, now = Date.now(), limit = 500): Promise<void> {
  await deleteSpentPasswordTokenRows(db, new Date(now).toISOString(), limit);
}
