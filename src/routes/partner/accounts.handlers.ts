// Handlers for the partner control plane's accounts.
import type { AppRouteHandler } from '../app-route-handler';
import * as accountsDb from '../../db/queries/accounts';
import type { Account } from '../../db/schema/index';
import { notFound } from '../../lib/errors';
import { paginateByCursor } from '../../lib/pagination';
import type { PlanName } from '../../lib/plans';
import { nowIso } from '../../lib/time';
import { mintAdminToken } from '../../services/partner-accounts';
import { sendPasswordLink } from '../../services/identity/password-emails';
import { baseUrl } from '../../lib/request';
import { placeNewAccount } from '../../services/shard-placement';
import { moveAccount as moveAccountToShard } from '../../services/account-move';
import type * as routes from './accounts.routes';
import { serializeAccount } from '../settings/settings.handlers';

export function serializePartnerAccount(account: Account) {
  return {
    ...serializeAccount(account),
    plan: account.plan as PlanName,
    suspended: account.suspendedAt !== null,
    suspended_at: account.suspendedAt,
    shard: account.shard,
    moving_to_shard: account.movingToShard,
  };
}

export const createAccount: AppRouteHandler<typeof routes.createAccount> = async (c) => {
  const body = c.req.valid('json');
  const account = await accountsDb.insertAccount(c.var.control, {
    name: body.name,
    plan: body.plan,
    locale: body.locale === undefined ? undefined : Intl.getCanonicalLocales(body.locale)[0],
    timezone: body.timezone,
    shard: await placeNewAccount(c.env, c.var.control),
  });
  c.set('audit', { action: 'partner.account.create', resourceType: 'account', resourceId: account.id, accountId: account.id });
  return c.json(serializePartnerAccount(account), 201);
};

export const listAccounts: AppRouteHandler<typeof routes.listAccounts> = async (c) => {
  const db = c.var.control;
  const query = c.req.valid('query');
  const filter = { plan: query.plan, suspended: query.suspended === undefined ? undefined : query.suspended === 'true' };
  const page = await paginateByCursor(query, (window) => accountsDb.listAccounts(db, filter, window));
  return c.json({ data: page.data.map(serializePartnerAccount), pagination: page.pagination }, 200);
};

export const getAccount: AppRouteHandler<typeof routes.getAccount> = async (c) => {
  const account = await accountsDb.getAccount(c.var.control, c.req.valid('param').id);
  if (!account) throw notFound('Account');
  return c.json(serializePartnerAccount(account), 200);
};

export const updateAccount: AppRouteHandler<typeof routes.updateAccount> = async (c) => {
  const db = c.var.control;
  const { id } = c.req.valid('param');
  const body = c.req.valid('json');
  const existing = await accountsDb.getAccount(db, id);
  if (!existing) throw notFound('Account');
  // Named before the write, so a failed update is in the account's trail too.
  c.set('audit', { action: 'partner.account.update', resourceType: 'account', resourceId: id, accountId: id });
  // Suspending twice keeps the first suspension time.
  const suspendedAt = body.suspended === undefined ? undefined : body.suspended ? (existing.suspendedAt ?? nowIso()) : null;
  const account = await accountsDb.updateAccount(db, id, { name: body.name, plan: body.plan, suspendedAt });
  return c.json(serializePartnerAccount(account), 200);
};

export const mintAccessToken: AppRouteHandler<typeof routes.mintAccessToken> = async (c) => {
  const db = c.var.control;
  const { id } = c.req.valid('param');
  const body = c.req.valid('json');
  const account = await accountsDb.getAccount(db, id);
  if (!account) throw notFound('Account');
  c.set('audit', { action: 'partner.access_token.create', resourceType: 'account', resourceId: id, accountId: id });
  const { token, row, user, userCreated } = await mintAdminToken(db, id, {
    email: body.email,
    userName: body.name,
    tokenName: body.token_name,
    expiresAt: body.expires_at,
  });
  c.set('audit', { action: 'partner.access_token.create', resourceType: 'access_token', resourceId: row.id, accountId: id });
  // A user the operator created is invited to choose a console password (docs/identity.md › Passwords).
  if (userCreated) await sendPasswordLink(c.env, db, { user, account }, 'invite', baseUrl(c.req.raw, c.env.APP_URL));
  return c.json(
    {
      id: row.id,
      account_id: row.accountId,
      name: row.name,
      token,
      token_prefix: row.tokenPrefix,
      expires_at: row.expiresAt,
      created_at: row.createdAt,
      user: { id: user.id, email: user.email, name: user.name, role: user.role, created: userCreated },
    },
    201,
  );
};

export const moveAccount: AppRouteHandler<typeof routes.moveAccount> = async (c) => {
  const { id } = c.req.valid('param');
  const { shard } = c.req.valid('json');
  // Named before the move: the trail is written after it, on the shard the account then lives on.
  c.set('audit', { action: 'partner.account.move', resourceType: 'account', resourceId: id, accountId: id });
  const account = await moveAccountToShard({ env: c.env, control: c.var.control }, id, shard);
  return c.json(serializePartnerAccount(account), 200);
};
