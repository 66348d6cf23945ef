// Token scopes (spec › Authentication › Scopes; decisions.md › Scopes) and the users' roles that gate them.

/** A user's role in the account (spec › Users). */
export const ROLES = ['admin', 'editor', 'viewer'] as const;

export const SCOPES = [
  'templates:read',
  'templates:write',
  'submissions:read',
  'submissions:write',
  'submissions:draft',
  'submissions:send',
  'submissions:remind',
  'submitters:write',
  'users:read',
  'audit_events:read',
  'webhooks:read',
  'webhooks:write',
  'account:read',
  'account:write',
] as const;

export type Scope = (typeof SCOPES)[number];

const known = new Set<string>(SCOPES);

export function isScope(value: string): value is Scope {
  return known.has(value);
}

/**
 * An endpoint accepts any one of its listed scopes; a token created with no scopes has them all
 * (spec › Scopes rule 2: "the newer rule governs").
 */
export function grants(tokenScopes: readonly string[], required: readonly Scope[]): boolean {
  if (tokenScopes.length === 0 || required.length === 0) return true;
  return required.some((scope) => tokenScopes.includes(scope));
}
