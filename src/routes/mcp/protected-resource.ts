// RFC 9728 protected-resource metadata: how an MCP client (or any OAuth client) learns which
// authorization server issues tokens for /mcp and /api, and which scopes exist (MCP spec › Authorization).
import { resourceIdentifier, type Audience } from '../../lib/audiences';
import { SCOPES } from '../../lib/scopes';

/** Where the metadata of `audience` is (RFC 9728 §3.1: the well-known suffix inserted before the path). */
export function resourceMetadataUrl(origin: string, audience: Audience): string {
  return `${origin}/.well-known/oauth-protected-resource/${audience}`;
}

/** The document for `resource`: the origin itself (which names the REST API), `…/api` or `…/mcp`. */
export function protectedResourceMetadata(origin: string, resource: string) {
  return {
    resource,
    authorization_servers: [origin],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: resource.endsWith('/mcp') ? 'MCP server' : 'REST API',
    resource_documentation: resource.endsWith('/mcp') ? `${origin}/api/docs#mcp` : `${origin}/api/docs`,
  };
}

export const METADATA_PATHS: readonly { path: string; resource: (origin: string) => string }[] = [
  { path: '/.well-known/oauth-protected-resource', resource: (origin) => origin },
  { path: '/.well-known/oauth-protected-resource/api', resource: (origin) => resourceIdentifier(origin, 'api') },
  { path: '/.well-known/oauth-protected-resource/mcp', resource: (origin) => resourceIdentifier(origin, 'mcp') },
];
