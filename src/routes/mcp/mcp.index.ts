// The remote MCP server at /mcp (issue 32; docs/mcp.md): Streamable HTTP, stateless (a server and
// transport per request, JSON answers), guarded as an OAuth 2.1 resource server. Every tool call is a
// request to our own REST API with the caller's credential, so scopes, roles, rate limit, validation
// and audit are exactly the API's; the API knows the request as a tool call (mcp-calls.ts).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Hono, type Context } from 'hono';
import { cors } from 'hono/cors';
import type { AppEnv } from '../../app-env';
import { authenticate } from '../../middleware/auth';
import { mcpToolRequest } from '../../middleware/auth/mcp-calls';
import { capBody } from '../../middleware/body-limit';
import { ApiError } from '../../lib/errors';
import { baseUrl } from '../../lib/request';
import type { Scope } from '../../lib/scopes';
import { UPLOAD_LIMITS } from '../../services/documents/ingest';
import { fetchRemoteDocument } from '../../services/mcp/remote-document';
import { TOOLS, type ApiCall, type ToolDefinition } from './mcp.tools';
import { METADATA_PATHS, protectedResourceMetadata, resourceMetadataUrl } from './protected-resource';

/** Runs a request through the whole app, as if it had arrived from outside. */
export type Dispatch = (request: Request, c: Context<AppEnv>) => Promise<Response>;

/** A tool call's JSON-RPC body: a 50 MB template upload as base64 plus its envelope. */
const MAX_MCP_BODY_BYTES = Math.ceil((UPLOAD_LIMITS.requestBytes * 4) / 3) + 1024 * 1024;

const origin = (c: Context<AppEnv>) => baseUrl(c.req.raw, c.env.APP_URL);

function apiRequest(c: Context<AppEnv>, tool: ToolDefinition, call: ApiCall, scopes: readonly Scope[]): Request {
  const url = new URL(`/api${call.path}`, c.req.url);
  for (const [name, value] of Object.entries(call.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
  const headers = new Headers({ Accept: 'application/json' });
  // The caller's own credential and address, so the API judges the call as it would the caller's.
  for (const name of ['Authorization', 'X-Auth-Token', 'CF-Connecting-IP', 'User-Agent']) {
    const value = c.req.header(name);
    if (value) headers.set(name, value);
  }
  if (call.body !== undefined) headers.set('Content-Type', 'application/json');
  return mcpToolRequest(
    url.toString(),
    { method: call.method, headers, body: call.body === undefined ? undefined : JSON.stringify(call.body) },
    { tool: tool.name, scopes },
  );
}

function toolError(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

/** The REST answer as the tool's result: the body as `structuredContent` (a list wrapped as `{data}`), or a tool error with its sentence. */
async function toolResult(tool: ToolDefinition, response: Response, get: (url: string) => Promise<Response>): Promise<CallToolResult> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    // The envelope's sentence: `message` beside a short `error` word (401), else `error` (spec › Errors).
    const envelope = (body && typeof body === 'object' ? body : {}) as { error?: unknown; message?: unknown };
    const error = Array.isArray(envelope.error) ? envelope.error.join('; ') : envelope.error;
    return toolError(`${response.status}: ${String(envelope.message ?? error ?? text.slice(0, 500))}`);
  }
  const structured = (Array.isArray(body) ? { data: body } : body) as Record<string, unknown>;
  const extra = tool.extraContent ? await tool.extraContent(structured, get) : [];
  return { content: [{ type: 'text', text }, ...extra], structuredContent: structured };
}

function createServer(c: Context<AppEnv>, dispatch: Dispatch): McpServer {
  const server = new McpServer({ name: c.env.SERVICE_NAME || 'e-signature', version: '1.0.0' }, { capabilities: { tools: {} } });
  const env = { fetchDocument: (url: string) => fetchRemoteDocument(url, c.env) };
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        annotations: { readOnlyHint: tool.readOnly, openWorldHint: false },
      },
      async (args: Record<string, unknown>) => {
        let call: ApiCall;
        try {
          call = await tool.request(args, env);
        } catch (err) {
          if (err instanceof ApiError) return toolError(`${err.status}: ${err.message}`);
          throw err;
        }
        const scopes = tool.scopes(args);
        // Another path of our API, read as part of the same tool call (same credential, scopes and audit).
        const get = (url: string) =>
          dispatch(apiRequest(c, tool, { method: 'GET', path: new URL(url).pathname.replace(/^\/api/, '') }, scopes), c);
        return toolResult(tool, await dispatch(apiRequest(c, tool, call, scopes), c), get);
      },
    );
  }
  return server;
}

async function handleMcp(c: Context<AppEnv>, dispatch: Dispatch): Promise<Response> {
  const server = createServer(c, dispatch);
  // Stateless (no session id) with JSON answers: any isolate can serve any request.
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(c.req.raw);
  } finally {
    c.executionCtx.waitUntil(server.close());
  }
}

export function createMcpRoutes(dispatch: Dispatch): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  for (const { path, resource } of METADATA_PATHS) {
    app.use(path, cors({ origin: '*', allowMethods: ['GET'], maxAge: 600 }));
    app.get(path, (c) => c.json(protectedResourceMetadata(origin(c), resource(origin(c)))));
  }
  // Browser-based MCP clients call from their own origin with a bearer token; no cookie is read here.
  app.use(
    '/mcp',
    cors({
      origin: '*',
      allowMethods: ['POST', 'GET', 'DELETE'],
      allowHeaders: ['Content-Type', 'Authorization', 'Mcp-Protocol-Version', 'Accept'],
      exposeHeaders: ['WWW-Authenticate'],
      maxAge: 600,
    }),
  );
  app.use('/mcp', authenticate({ audience: 'mcp', resourceMetadata: (c) => resourceMetadataUrl(origin(c), 'mcp') }));
  app.use(
    '/mcp',
    capBody({ maxBytes: MAX_MCP_BODY_BYTES, message: `An MCP request is at most ${Math.round(MAX_MCP_BODY_BYTES / 1024 / 1024)} MB.` }),
  );
  // Stateless: no stream to resume (GET) and no session to end (DELETE), as the transport allows (MCP › Transports).
  app.on(['GET', 'DELETE'], '/mcp', (c) =>
    c.json({ error: 'This MCP server is stateless: send JSON-RPC messages with POST.' }, 405, { Allow: 'POST' }),
  );
  app.post('/mcp', (c) => handleMcp(c, dispatch));
  return app;
}
