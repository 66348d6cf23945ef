// The protected resources an OAuth access token can be bound to (RFC 8707 resource indicators): the REST
// API and the MCP server. Shared by the OAuth server (which binds) and authentication (which checks).

export const AUDIENCES = ['api', 'mcp'] as const;
export type Audience = (typeof AUDIENCES)[number];

/** A grant or token issued without `resource` serves the REST API, as every token did before /mcp. */
export const DEFAULT_AUDIENCES: readonly Audience[] = ['api'];

/** The resource identifier of an audience: `https://host/api`, `https://host/mcp` (RFC 8707 §2, RFC 9728 §3). */
export function resourceIdentifier(origin: string, audience: Audience): string {
  return `${origin}/${audience}`;
}

/**
 * The audience a `resource` value names, or null when this server serves no such resource. The origin
 * itself (the root protected-resource metadata's `resource`) names the REST API; a trailing slash is
 * tolerated, a query or fragment is not (RFC 8707 §2: "MUST NOT include a fragment").
 */
export function audienceOf(origin: string, resource: string): Audience | null {
  const value = resource.replace(/\/+$/, '');
  if (value === origin) return 'api';
  for (const audience of AUDIENCES) if (value === resourceIdentifier(origin, audience)) return audience;
  return null;
}
