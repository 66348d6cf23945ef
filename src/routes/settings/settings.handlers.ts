// Handlers for account settings.
import type { AppRouteHandler } from '../app-route-handler';
import { updateAccount } from '../../db/queries/accounts';
import type { Account } from '../../db/schema/index';
import { assertMayEnforceMfa } from '../../services/identity/mfa';
import { normalizeEmbedOrigins } from '../../services/embed/embed-origins';
import { isDevelopment } from '../../lib/environment';
import type * as routes from './settings.routes';

export function serializeAccount(account: Account) {
  return {
    id: account.id,
    name: account.name,
    locale: account.locale,
    timezone: account.timezone,
    mfa_enforced: account.mfaEnforced,
    embed_origins: account.embedOrigins,
    plan: account.plan,
    created_at: account.createdAt,
    updated_at: account.updatedAt,
  };
}

export const getAccountSettings: AppRouteHandler<typeof routes.getAccountSettings> = (c) =>
  c.json({ account: serializeAccount(c.var.principal.account) }, 200);

export const updateAccountSettings: AppRouteHandler<typeof routes.updateAccountSettings> = async (c) => {
  const body = c.req.valid('json');
  assertMayEnforceMfa(c.var.principal.user, c.var.principal.account, body.mfa_enforced);
  const account = await updateAccount(c.var.control, c.var.principal.account.id, {
    name: body.name,
    locale: body.locale === undefined ? undefined : Intl.getCanonicalLocales(body.locale)[0],
    timezone: body.timezone,
    mfaEnforced: body.mfa_enforced,
    embedOrigins:
      body.embed_origins === undefined ? undefined : normalizeEmbedOrigins(body.embed_origins, { allowHttp: isDevelopment(c.env) }),
  });
  c.set('audit', { action: 'account.update', resourceType: 'account', resourceId: account.id });
  return c.json({ account: serializeAccount(account) }, 200);
};
