// Which API scopes an OAuth client may be granted: never one the consenting user's role lacks
// (issue 16 › 3; decisions.md › issue 16 : OAuth 2.1), and what each means on the consent page.
import { SCOPES, type Scope } from '../../../lib/scopes';

/**
 * Admin-only scopes: `account:write` is the scope of every route declared `authorize({admin: true})`
 * (users, account settings, certificate, subscription). Viewers read only (`authorize` refuses them
 * every non-GET), so they can grant only `:read` scopes.
 */
const ADMIN_ONLY: ReadonlySet<Scope> = new Set(['account:write']);

export function scopesOfRole(role: string): Scope[] {
  if (role === 'admin') return [...SCOPES];
  if (role === 'editor') return SCOPES.filter((scope) => !ADMIN_ONLY.has(scope));
  return SCOPES.filter((scope) => scope.endsWith(':read'));
}

/** The requested scopes split into those the role may grant and those it may not. */
export function boundByRole(role: string, requested: readonly Scope[]): { granted: Scope[]; refused: Scope[] } {
  const allowed = new Set(scopesOfRole(role));
  return { granted: requested.filter((scope) => allowed.has(scope)), refused: requested.filter((scope) => !allowed.has(scope)) };
}

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'templates:read': 'See your templates and their fields.',
  'templates:write': 'Create, change and delete templates.',
  'submissions:read': 'See submissions, their signers and signed documents.',
  'submissions:write': 'Create, change, send and archive submissions.',
  'submissions:draft': 'Create and edit draft submissions.',
  'submissions:send': 'Send submissions to signers.',
  'submissions:remind': 'Send reminders to signers.',
  'submitters:write': 'Change signers of submissions.',
  'users:read': 'See the users of your account.',
  'audit_events:read': 'Read the audit trail.',
  'webhooks:read': 'See webhook endpoints and their deliveries.',
  'webhooks:write': 'Create, change and delete webhook endpoints.',
  'account:read': 'See account settings.',
  'account:write': 'Change account settings and users (admins only).',
};
