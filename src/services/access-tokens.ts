// Issuing API tokens: the rules on scopes, IPs, expiry, ownership and plan limits.
import type { Db } from '../db/client';
import {
  countUsableAccessTokens,
  insertAccessToken,
  insertAccessTokenStatement,
  usableAccessTokensCountQuery,
} from '../db/queries/access-tokens';
import { getUser } from '../db/queries/users';
import type { AccessToken, Account, User } from '../db/schema/index';
import type { Credential } from '../env';
import { sha256Hex } from '../lib/crypto';
import { forbidden, unprocessable } from '../lib/errors';
import { canonicalIpEntry, describeInvalidIpEntry } from '../lib/ip';
import { isScope, SCOPES } from '../lib/scopes';
import { generateApiToken } from '../lib/tokens';
import { rightsBeyondCaller } from './access-token-bounds';
import { assertWithinPlanLimit, planLimitGuard, planLimitReached, refusingPastPlanLimit } from './plan-limits';

export type IssueTokenInput = {
  name: string;
  scopes: string[];
  allowedIps: string[];
  expiresAt?: string | null;
  userId?: number;
};

/** Every problem with the input as one sentence each, so a caller can fix them all at once. */
export function accessTokenProblems(input: IssueTokenInput, now: number): string[] {
  const problems: string[] = [];
  const unknown = input.scopes.filter((scope) => !isScope(scope));
  if (unknown.length) {
    problems.push(
      `Unknown ${unknown.length === 1 ? 'scope' : 'scopes'} ${unknown.map((s) => `"${s}"`).join(', ')}; valid scopes are ${SCOPES.join(', ')}.`,
    );
  }
  for (const entry of input.allowedIps) {
    const problem = describeInvalidIpEntry(entry);
    if (problem) problems.push(`allowed_ips: ${problem}`);
  }
  if (input.expiresAt && Date.parse(input.expiresAt) <= now) {
    problems.push('expires_at must be in the future.');
  }
  return problems;
}

export async function issueAccessToken(
  db: Db,
  caller: { account: Account; user: User; credential: Credential },
  input: IssueTokenInput,
  upgradeUrl: string,
): Promise<{ token: string; row: AccessToken }> {
  const now = Date.now();
  const problems = accessTokenProblems(input, now);
  if (problems.length) throw unprocessable(problems.length === 1 ? problems[0] : problems);
  const refused = rightsBeyondCaller(caller.credential, input);
  if (refused.length) throw forbidden(refused.length === 1 ? refused[0] : refused);

  let owner = caller.user;
  if (input.userId !== undefined && input.userId !== caller.user.id) {
    if (caller.user.role !== 'admin') throw forbidden('Only account admins can create tokens for other users.');
    const other = await getUser(db, caller.account.id, input.userId);
    if (!other || other.archivedAt) throw unprocessable(`user_id ${input.userId} is not a user of this account.`);
    owner = other;
  }

  const at = new Date(now).toISOString();
  assertWithinPlanLimit(caller.account, 'accessTokens', await countUsableAccessTokens(db, caller.account.id, at), upgradeUrl);

  // The count above refuses early; the guard in the insert's batch is what makes the limit exact
  // when several tokens are created at once.
  const { token, values } = await newTokenValues(caller.account.id, owner.id, input);
  const [, [row]] = await refusingPastPlanLimit(
    () =>
      db.batch([
        planLimitGuard(db, caller.account, 'accessTokens', usableAccessTokensCountQuery(db, caller.account.id, at)),
        insertAccessTokenStatement(db, values),
      ]),
    () => planLimitReached(caller.account, 'accessTokens', upgradeUrl),
  );
  return { token, row };
}

async function newTokenValues(accountId: number, userId: number, input: Omit<IssueTokenInput, 'userId'>) {
  const { token, prefix } = generateApiToken();
  const values = {
    accountId,
    userId,
    name: input.name,
    tokenHash: await sha256Hex(token),
    tokenPrefix: prefix,
    scopes: [...new Set(input.scopes)],
    allowedIps: [...new Set(input.allowedIps.map(canonicalIpEntry))],
    expiresAt: input.expiresAt ? new Date(input.expiresAt).toISOString() : null,
  };
  return { token, values };
}

/**
 * Generates a token and stores its hash, with no rule checks: callers validate first
 * (`issueAccessToken` for tenants; the partner control plane mints admin tokens for its accounts).
 */
export async function mintAccessToken(
  db: Db,
  accountId: number,
  userId: number,
  input: Omit<IssueTokenInput, 'userId'>,
): Promise<{ token: string; row: AccessToken }> {
  const { token, values } = await newTokenValues(accountId, userId, input);
  return { token, row: await insertAccessToken(db, values) };
}
