// What the partner control plane does to accounts beyond plain row updates (decisions.md › Bootstrap).
import type { Db } from '../db/client';
import { findActiveAdmin, findUserByEmail, insertUser } from '../db/queries/users';
import type { AccessToken, User } from '../db/schema/index';
import { unprocessable } from '../lib/errors';
import { mintAccessToken } from './access-tokens';

export type AdminTokenInput = {
  /** Mint for the admin with this email, creating them when the account has no such user. */
  email?: string;
  /** Name of a user created from `email`. */
  userName?: string;
  tokenName: string;
  expiresAt?: string | null;
};

/** The admin a partner-minted token belongs to: the one named by email, else the first admin. */
async function resolveAdmin(db: Db, accountId: number, input: AdminTokenInput): Promise<{ user: User; created: boolean }> {
  if (input.email === undefined) {
    const admin = await findActiveAdmin(db, accountId);
    if (!admin) throw unprocessable('The account has no admin yet; pass email to create one and mint their token.');
    return { user: admin, created: false };
  }
  const existing = await findUserByEmail(db, accountId, input.email);
  if (existing) {
    if (existing.archivedAt) throw unprocessable(`${existing.email} was removed from this account; use another email.`);
    if (existing.role !== 'admin') {
      throw unprocessable(
        `${existing.email} is ${existing.role === 'editor' ? 'an editor' : 'a viewer'} of this account, not an admin; make them an admin first or use another email.`,
      );
    }
    return { user: existing, created: false };
  }
  try {
    return { user: await insertUser(db, { accountId, email: input.email, name: input.userName ?? '', role: 'admin' }), created: true };
  } catch (err) {
    // A concurrent mint created the same user (unique account+email): use theirs.
    const raced = await findUserByEmail(db, accountId, input.email);
    if (raced?.role === 'admin' && !raced.archivedAt) return { user: raced, created: false };
    throw err;
  }
}

/**
 * A full-access admin token for an account, as the operator's bootstrap and recovery path. Plan
 * count limits do not apply to the operator (docs/decisions.md › issue 3).
 */
export async function mintAdminToken(
  db: Db,
  accountId: number,
  input: AdminTokenInput,
): Promise<{ token: string; row: AccessToken; user: User; userCreated: boolean }> {
  if (input.expiresAt && Date.parse(input.expiresAt) <= Date.now()) throw unprocessable('expires_at must be in the future.');
  const { user, created } = await resolveAdmin(db, accountId, input);
  const { token, row } = await mintAccessToken(db, accountId, user.id, {
    name: input.tokenName,
    scopes: [],
    allowedIps: [],
    expiresAt: input.expiresAt,
  });
  return { token, row, user, userCreated: created };
}
