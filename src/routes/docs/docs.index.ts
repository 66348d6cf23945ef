// The OpenAPI 3.1 document and its browsable page (served offline from vendored Swagger UI).
import { servedAsset } from '../../lib/asset-versions';
import type { Hono } from 'hono';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../app-env';
import { withResponseHeaders } from '../openapi-headers';
import { SCOPE_DESCRIPTIONS } from '../../services/identity/oauth/oauth-scopes';

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference</title>
<link rel="stylesheet" href="/vendor/swagger-ui/swagger-ui.css">
<link rel="icon" href="/vendor/swagger-ui/favicon-32x32.png">
</head>
<body>
<div id="docs"></div>
<script src="/vendor/swagger-ui/swagger-ui-bundle.js"></script>
<script>
window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#docs', deepLinking: true, persistAuthorization: true });
</script>
</body>
</html>`;

export function mountDocs(app: Hono<AppEnv>, api: OpenAPIHono<AppEnv>) {
  api.openAPIRegistry.registerComponent('securitySchemes', 'ApiToken', {
    type: 'apiKey',
    in: 'header',
    name: 'X-Auth-Token',
    description: 'An API token from POST /api/access_tokens or `npm run setup`.',
  });
  api.openAPIRegistry.registerComponent('securitySchemes', 'BearerToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'The same API token as `Authorization: Bearer <token>`, or an OAuth 2.1 access token (`oat_…`).',
  });
  // Relative URLs: the document is served by every deployment at its own origin (docs/oauth.md).
  api.openAPIRegistry.registerComponent('securitySchemes', 'OAuth2', {
    type: 'oauth2',
    description:
      'OAuth 2.1 authorization code with PKCE S256 for third-party agents; discovery at /.well-known/oauth-authorization-server, registration at /oauth/register (docs/oauth.md).',
    flows: {
      authorizationCode: {
        authorizationUrl: '/oauth/authorize',
        tokenUrl: '/oauth/token',
        refreshUrl: '/oauth/token',
        scopes: SCOPE_DESCRIPTIONS,
      },
    },
  });

  let document: unknown;
  app.get('/api/openapi.json', (c) => {
    // Built once per isolate: the routes cannot change while it runs.
    document ??= withResponseHeaders(
      api.getOpenAPI31Document({
        openapi: '3.1.0',
        info: {
          title: `${c.env.SERVICE_NAME} API`,
          version: 'v1',
          description:
            'E-signature REST API. Every path is served under /api and, pinned, under /api/v1. ' +
            'Errors are `{error: string | string[]}`; every response carries X-Request-Id and X-API-Version. ' +
            'AI agents can use the same operations through the MCP server at `/mcp` (Streamable HTTP; OAuth with ' +
            '`resource=<origin>/mcp` or an API token as bearer; tools and scopes in docs/mcp.md).',
        },
        servers: [
          { url: '/api', description: 'Current version' },
          { url: '/api/v1', description: 'Pinned to v1' },
        ],
      }),
    );
    return c.json(document);
  });
  app.get('/api/docs', (c) => c.html(DOCS_PAGE));
  app.get('/vendor/*', (c) => servedAsset(c.env.ASSETS, c.req.raw));
}
