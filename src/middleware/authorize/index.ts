// Per-route authorization: token scopes, the user's role and the account's plan.
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../app-env';
import { forbidden } from '../../lib/errors';
import { featureName, planOf, type PlanFeature } from '../../lib/plans';
import { baseUrl } from '../../lib/request';
import { grants, type Scope } from '../../lib/scopes';
import { planLimitError } from '../../services/plan-limits';
import { insufficientScopeChallenge } from '../auth/bearer-challenge';
import { mcpCallOf } from '../auth/mcp-calls';

export type AuthorizeOptions = {
  /** Any one of these grants access; the 403 names the first (decisions.md › Scopes). */
  scopes: readonly Scope[];
  /** Only account admins may call the route (spec › Errors: "non-admin for admin-only operation"). */
  admin?: boolean;
  /** A plan feature the account must have (spec › Limits: Pro-only features). */
  feature?: PlanFeature;
};

const READ_METHODS = new Set(['GET', 'HEAD']);

export function upgradeUrl(request: Request, appUrl?: string): string {
  return `${baseUrl(request, appUrl)}/settings/billing`;
}

export function authorize(options: AuthorizeOptions): MiddlewareHandler<AppEnv> {
  return async function authorizeMiddleware(c, next) {
    const { credential, user, account } = c.var.principal;
    // An MCP tool call needs every scope its tool names (docs/mcp.md › Tools) in place of the route's list.
    const tool = mcpCallOf(c.req.raw);
    const missing = tool
      ? tool.scopes.find((scope) => !grants(credential.scopes, [scope]))
      : grants(credential.scopes, options.scopes)
        ? undefined
        : options.scopes[0];
    if (missing) {
      const refusal = forbidden(`Insufficient scope. Required: ${missing}`);
      // An OAuth client learns which scope to ask for from the challenge (RFC 6750 §3.1).
      if (credential.kind === 'oauth') refusal.headers['WWW-Authenticate'] = insufficientScopeChallenge(missing);
      throw refusal;
    }
    if (options.admin && user.role !== 'admin') {
      throw forbidden('Only account admins can perform this operation.');
    }
    if (user.role === 'viewer' && !READ_METHODS.has(c.req.method)) {
      throw forbidden('Viewers have read-only access; an account admin can give you the editor role.');
    }
    if (options.feature && !planOf(account.plan).features.has(options.feature)) {
      throw planLimitError(`${featureName(options.feature)} requires the Pro plan.`, upgradeUrl(c.req.raw, c.env.APP_URL));
    }
    await next();
  };
}
