// Handlers for API access tokens.
import type { AppRouteHandler } from '../app-route-handler';
import type { Principal } from '../../app-env';
import * as tokensDb from '../../db/queries/access-tokens';
import type { AccessToken } from '../../db/schema/index';
import { notFound } from '../../lib/errors';
import { paginateByCursor } from '../../lib/pagination';
import { upgradeUrl } from '../../middleware/authorize';
import { issueAccessToken } from '../../services/access-tokens';
import type * as routes from './access-tokens.routes';

export function serializeAccessToken(token: AccessToken, now = Date.now()) {
  return {
    id: token.id,
    name: token.name,
    user_id: token.userId,
    token_prefix: token.tokenPrefix,
    scopes: token.scopes,
    allowed_ips: token.allowedIps,
    expired: Boolean(token.revokedAt) || (token.expiresAt !== null && Date.parse(token.expiresAt) <= now),
    expires_at: token.expiresAt,
    revoked_at: token.revokedAt,
    last_used_at: token.lastUsedAt,
    created_at: token.createdAt,
  };
}

/** Admins manage every token of the account; other users only their own. */
function visibleOwner(principal: Principal): number | null {
  return principal.user.role === 'admin' ? null : principal.user.id;
}

export const createAccessToken: AppRouteHandler<typeof routes.createAccessToken> = async (c) => {
  const body = c.req.valid('json');
  const { token, row } = await issueAccessToken(
    c.var.control,
    c.var.principal,
    { name: body.name, scopes: body.scopes, allowedIps: body.allowed_ips, expiresAt: body.expires_at, userId: body.user_id },
    upgradeUrl(c.req.raw, c.env.APP_URL),
  );
  c.set('audit', { action: 'access_token.create', resourceType: 'access_token', resourceId: row.id });
  return c.json({ ...serializeAccessToken(row), token }, 201);
};

export const listAccessTokens: AppRouteHandler<typeof routes.listAccessTokens> = async (c) => {
  const db = c.var.control;
  const { principal } = c.var;
  const page = await paginateByCursor(c.req.valid('query'), (window) =>
    tokensDb.listAccessTokens(db, principal.account.id, visibleOwner(principal), window),
  );
  const now = Date.now();
  return c.json({ data: page.data.map((t) => serializeAccessToken(t, now)), pagination: page.pagination }, 200);
};

export const getAccessToken: AppRouteHandler<typeof routes.getAccessToken> = async (c) => {
  const { principal } = c.var;
  const token = await tokensDb.getAccessToken(c.var.control, principal.account.id, c.req.valid('param').id, visibleOwner(principal));
  if (!token) throw notFound('Access token');
  return c.json(serializeAccessToken(token), 200);
};

export const revokeAccessToken: AppRouteHandler<typeof routes.revokeAccessToken> = async (c) => {
  const db = c.var.control;
  const { principal } = c.var;
  const { id } = c.req.valid('param');
  if (!(await tokensDb.getAccessToken(db, principal.account.id, id, visibleOwner(principal)))) throw notFound('Access token');
  const token = (await tokensDb.revokeAccessToken(db, principal.account.id, id, new Date().toISOString()))!;
  c.set('audit', { action: 'access_token.revoke', resourceType: 'access_token', resourceId: id });
  return c.json(serializeAccessToken(token), 200);
};
