// An admin changing a user's email (PUT /api/users/{id}; docs/identity.md › Changing an email): the new
// address is only pending until the person opens the link sent to it, and until then the user signs in
// with the old one. Otherwise any tenant's admin could attach a password they know, or a flood of failed
// sign-ins, to someone else's address.
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { consumePasswordTokenStatement, useEmailChangeLinksOfUserStatement } from '../../db/queries/password-tokens';
import { confirmPendingEmailStatement, setPendingEmailStatement } from '../../db/queries/users';
import type { Account, User } from '../../db/schema/index';
import { ApiError } from '../../lib/errors';
import { ChangeSet } from '../submissions/change-set';
import { queueAccountEmail, type PasswordEmailEnv } from './password-emails';
import { findPasswordToken, LINK_USED, passwordTokenInsert } from './password-tokens';

export const EMAIL_TAKEN = 'Another user of this account has that email now; ask an admin to pick another one.';

/**
 * Records `newEmail` as the user's pending address, voids earlier confirmation links of the user, and
 * emails a one-time link to the new address (7 days). The user's `email` is not touched.
 */
export async function requestEmailChange(
  env: PasswordEmailEnv,
  control: Db,
  target: { user: Pick<User, 'id' | 'accountId' | 'name'>; account: Pick<Account, 'name' | 'shard'> },
  newEmail: string,
  base: string,
  now = Date.now(),
): Promise<User> {
  const at = new Date(now).toISOString();
  const { token, insert } = await passwordTokenInsert(control, target.user, 'email_change', now);
  const [, , [user]] = await control.batch([
    useEmailChangeLinksOfUserStatement(control, target.user.id, at),
    insert,
    setPendingEmailStatement(control, target.user.id, newEmail, at),
  ]);
  await queueAccountEmail(env, target, newEmail, 'email_change', {
    subject: `Confirm your new email for ${target.account.name}`,
    paragraphs: [
      `An admin of ${target.account.name} changed the email you sign in with to this address. Confirm it to start signing in with it; until then your previous email keeps working.`,
      'The link works once and for 7 days. If you do not expect this, ignore this email: nothing changes.',
    ],
    action: { label: 'Confirm this email', url: `${base}/email/confirm?token=${token}` },
  });
  return user;
}

/** The user a confirmation link belongs to and the address it confirms, or null when it no longer works. */
export async function findEmailChange(control: Db, value: string): Promise<{ tokenId: number; user: User; pendingEmail: string } | null> {
  const found = await findPasswordToken(control, value, ['email_change']);
  if (!found || !found.user.pendingEmail) return null;
  return { tokenId: found.token.id, user: found.user, pendingEmail: found.user.pendingEmail };
}

/**
 * Makes the pending address the user's email: the link is used up and the address moved in one batch,
 * guarded so that two requests with one link change it once. 409 when the link was used meanwhile or
 * another user of the account took the address (the per-account unique index).
 */
export async function confirmEmailChange(
  control: Db,
  change: { tokenId: number; user: Pick<User, 'id'> },
  now = Date.now(),
): Promise<void> {
  const at = new Date(now).toISOString();
  const batch = new ChangeSet(control)
    .guarded(consumePasswordTokenStatement(control, change.tokenId, at))
    .add(confirmPendingEmailStatement(control, change.user.id, at));
  try {
    await batch.commit(undefined, () => new ApiError(409, LINK_USED));
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError(409, EMAIL_TAKEN);
    throw err;
  }
}
