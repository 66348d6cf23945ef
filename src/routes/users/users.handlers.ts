// Handlers for users: parse → query → shape.
import type { AppRouteHandler } from '../app-route-handler';
import * as usersDb from '../../db/queries/users';
import type { User } from '../../db/schema/index';
import type { ROLES } from '../../lib/scopes';
import { isUniqueViolation } from '../../db/errors';
import { notFound, unprocessable } from '../../lib/errors';
import { paginateByCursor } from '../../lib/pagination';
import { upgradeUrl } from '../../middleware/authorize';
import { assertWithinPlanLimit, planLimitGuard, planLimitReached, refusingPastPlanLimit } from '../../services/plan-limits';
import { serializeAccount } from '../settings/settings.handlers';
import { baseUrl } from '../../lib/request';
import { sendPasswordLink } from '../../services/identity/password-emails';
import { requestEmailChange } from '../../services/identity/email-change';
import { endSessionsOfUserStatement } from '../../db/queries/sessions';
import type * as routes from './users.routes';

/** admin > editor > viewer: a change up this order ends the user's sessions (decisions.md › Identity). */
const ROLE_RANK: Record<string, number> = { viewer: 0, editor: 1, admin: 2 };

export function serializeUser(user: User) {
  return {
    id: user.id,
    account_id: user.accountId,
    email: user.email,
    pending_email: user.pendingEmail,
    name: user.name,
    role: user.role as (typeof ROLES)[number],
    archived_at: user.archivedAt,
    created_at: user.createdAt,
    updated_at: user.updatedAt,
  };
}

export const getCurrentUser: AppRouteHandler<typeof routes.getCurrentUser> = (c) => {
  const { user, account } = c.var.principal;
  return c.json({ ...serializeUser(user), account: serializeAccount(account) }, 200);
};

export const listUsers: AppRouteHandler<typeof routes.listUsers> = async (c) => {
  const db = c.var.control;
  const page = await paginateByCursor(c.req.valid('query'), (window) => usersDb.listUsers(db, c.var.principal.account.id, window));
  return c.json({ data: page.data.map(serializeUser), pagination: page.pagination }, 200);
};

export const getUser: AppRouteHandler<typeof routes.getUser> = async (c) => {
  const user = await usersDb.getUser(c.var.control, c.var.principal.account.id, c.req.valid('param').id);
  if (!user) throw notFound('User');
  return c.json(serializeUser(user), 200);
};

export const createUser: AppRouteHandler<typeof routes.createUser> = async (c) => {
  const db = c.var.control;
  const accountId = c.var.principal.account.id;
  const body = c.req.valid('json');
  if (await usersDb.findUserByEmail(db, accountId, body.email)) {
    throw unprocessable(`A user with the email ${body.email} already exists in this account.`);
  }
  const { account } = c.var.principal;
  const upgrade = upgradeUrl(c.req.raw, c.env.APP_URL);
  assertWithinPlanLimit(account, 'teamMembers', await usersDb.countActiveUsers(db, accountId), upgrade);
  // The guard makes the limit exact when several users are added at once (docs/limits.md › Plans).
  const [, [user]] = await refusingPastPlanLimit(
    () =>
      db.batch([
        planLimitGuard(db, account, 'teamMembers', usersDb.activeUsersCountQuery(db, accountId)),
        usersDb.insertUserStatement(db, { accountId, ...body }),
      ]),
    () => planLimitReached(account, 'teamMembers', upgrade),
  ).catch((err: unknown) => {
    // Two concurrent requests for one email: the index decides, the loser gets the same 422.
    if (isUniqueViolation(err)) throw unprocessable(`A user with the email ${body.email} already exists in this account.`);
    throw err;
  });
  c.set('audit', { action: 'user.create', resourceType: 'user', resourceId: user.id });
  // The invitation: a link to choose a password (docs/identity.md › Passwords).
  await sendPasswordLink(c.env, db, { user, account }, 'invite', baseUrl(c.req.raw, c.env.APP_URL));
  return c.json(serializeUser(user), 201);
};

export const updateUser: AppRouteHandler<typeof routes.updateUser> = async (c) => {
  const db = c.var.control;
  const { account, user: caller } = c.var.principal;
  const { id } = c.req.valid('param');
  const body = c.req.valid('json');
  const existing = await usersDb.getUser(db, account.id, id);
  if (!existing) throw notFound('User');
  const { email: newEmail, ...changes } = body;
  const emailChanges = newEmail !== undefined && newEmail.toLowerCase() !== existing.email.toLowerCase();
  if (emailChanges && (await usersDb.findUserByEmail(db, account.id, newEmail))) {
    throw unprocessable(`A user with the email ${newEmail} already exists in this account.`);
  }
  if (id === caller.id && body.role && body.role !== 'admin') {
    throw unprocessable('You cannot remove your own admin role; ask another admin to do it.');
  }
  // A raised role ends every session of the user in the same batch (spec › Authentication: sessions
  // opened with less authority do not carry on with more).
  const raised = body.role !== undefined && (ROLE_RANK[body.role] ?? 0) > (ROLE_RANK[existing.role] ?? 0);
  let user = raised
    ? (await db.batch([usersDb.updateUserStatement(db, account.id, id, changes), endSessionsOfUserStatement(db, id)]))[0][0]
    : (await usersDb.updateUser(db, account.id, id, changes))!;
  // A new address is pending until its owner confirms it (docs/identity.md › Changing an email).
  if (emailChanges) user = await requestEmailChange(c.env, db, { user, account }, newEmail, baseUrl(c.req.raw, c.env.APP_URL));
  c.set('audit', { action: 'user.update', resourceType: 'user', resourceId: id });
  return c.json(serializeUser(user), 200);
};

export const archiveUser: AppRouteHandler<typeof routes.archiveUser> = async (c) => {
  const db = c.var.control;
  const { account, user: caller } = c.var.principal;
  const { id } = c.req.valid('param');
  const existing = await usersDb.getUser(db, account.id, id);
  if (!existing) throw notFound('User');
  if (id === caller.id) throw unprocessable('You cannot remove yourself from the account.');
  // Removed and signed out everywhere in one batch.
  const user = existing.archivedAt
    ? existing
    : (
        await db.batch([
          usersDb.updateUserStatement(db, account.id, id, { archivedAt: new Date().toISOString() }),
          endSessionsOfUserStatement(db, id),
        ])
      )[0][0];
  c.set('audit', { action: 'user.archive', resourceType: 'user', resourceId: id });
  return c.json(serializeUser(user), 200);
};
