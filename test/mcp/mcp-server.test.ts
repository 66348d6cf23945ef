// The remote MCP server at /mcp (issue 32 › 1 and 2): the SDK's own Client and Streamable HTTP transport
// against the Worker, with API tokens and OAuth access tokens bound to their resource (RFC 8707).
import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { api, createAccount, createToken, shardOf } from '../helpers';
import { makePdf, toBase64 } from '../fixtures/pdfs';
import { createTemplate } from '../submission-fixtures';
import { decide, pkce, publicClient, REDIRECT_URI, request, tokenRequest } from '../oauth-fixtures';
import { sessionFor } from '../session-fixtures';
import { fileUrl, newReceiver } from '../webhook-receiver';
import { seal, submissionOf } from '../document-link-fixtures';
import { checkPdf } from '../pdf-tools';
import { sha256Hex } from '../../src/lib/crypto';

const ORIGIN = 'https://api.test';
const MCP_URL = new URL(`${ORIGIN}/mcp`);

/** The SDK client, its requests answered by the Worker (SELF) with `token` as the bearer credential. */
async function connect(token: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(MCP_URL, {
    requestInit: { headers: { Authorization: `Bearer ${token}`, 'CF-Connecting-IP': '198.51.100.20' } },
    fetch: (input, init) => SELF.fetch(new Request(input, init)),
  });
  const client = new Client({ name: 'vitest-agent', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function errorText(result: CallToolResult): string {
  expect(result.isError).toBe(true);
  return result.content.map((item) => (item.type === 'text' ? item.text : '')).join(' ');
}

const signer = (email: string) => [{ role: 'First Party', email, name: 'Signer' }];

/** An OAuth access token for `user` whose authorization named `resources` (none: today's behaviour). */
async function oauthToken(user: { userId: number; accountId: number }, scope: string, resources: string[]): Promise<string> {
  return (await oauthTokens(user, scope, resources)).access_token;
}

async function oauthTokens(
  user: { userId: number; accountId: number },
  scope: string,
  resources: string[],
): Promise<{ access_token: string; refresh_token: string; client_id: string }> {
  const client = await publicClient({ client_name: 'Claude Desktop' });
  const session = await sessionFor(user);
  const { verifier, challenge } = await pkce();
  const params = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: REDIRECT_URI,
    scope,
    state: 's',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  for (const resource of resources) params.append('resource', resource);
  const page = await request('GET', `/oauth/authorize?${params}`, { headers: session.cookie });
  expect(page.status).toBe(200);
  params.set('decision', 'allow');
  params.set('csrf_token', session.csrfToken);
  const res = await request('POST', '/oauth/authorize', {
    headers: { ...session.cookie, Origin: ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: params.toString(),
  });
  const code = new URL(res.location!).searchParams.get('code');
  if (!code) throw new Error(`no code: ${res.location}`);
  const exchanged = await tokenRequest({
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT_URI,
    client_id: client.client_id,
    code_verifier: verifier,
  });
  expect(exchanged.status).toBe(200);
  return { ...exchanged.json, client_id: client.client_id };
}

describe('MCP tools with an API token', () => {
  it('lists every tool with its JSON Schema from the REST declarations', async () => {
    const a = await createAccount();
    const client = await connect(a.token);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        'create_submission',
        'create_template',
        'get_signed_documents',
        'get_submission',
        'get_template',
        'list_submissions',
        'list_templates',
        'remind_submitter',
        'send_submission',
        'verify_pdf',
      ].sort(),
    );
    const create = tools.find((t) => t.name === 'create_template')!;
    expect(Object.keys(create.inputSchema.properties!)).toEqual(
      expect.arrayContaining(['name', 'documents', 'fields', 'submitters', 'file', 'url', 'html']),
    );
    const submission = tools.find((t) => t.name === 'create_submission')!;
    expect(Object.keys(submission.inputSchema.properties!)).toEqual(
      expect.arrayContaining(['template_id', 'submitters', 'send', 'expire_at']),
    );
  });

  it('creates a template from a base64 PDF and returns the REST template as structuredContent', async () => {
    const a = await createAccount();
    const client = await connect(a.token);
    const result = await call(client, 'create_template', { name: 'From an agent', file: toBase64(await makePdf(2)) });
    expect(result.isError).toBeFalsy();
    const template = result.structuredContent as { id: string; name: string; documents: { page_count: number }[] };
    expect(template.id).toMatch(/^tpl_/);
    expect(template.name).toBe('From an agent');
    expect(template.documents[0].page_count).toBe(2);
    const rest = await api('GET', `/api/templates/${template.id}`, { token: a.token });
    expect(rest.json).toEqual(template);
  });

  it('creates a draft submission, then sends it', async () => {
    const a = await createAccount();
    const template = await createTemplate(a.token);
    const client = await connect(a.token);
    const created = await call(client, 'create_submission', { template_id: template.id, submitters: signer('draft@example.com') });
    expect(created.isError).toBeFalsy();
    const submission = created.structuredContent as { id: number; status: string };
    expect(submission.status).toBe('draft');
    const sent = await call(client, 'send_submission', { submission_id: submission.id });
    expect(sent.isError).toBeFalsy();
    expect((sent.structuredContent as { status: string }).status).toBe('pending');
    const read = await call(client, 'get_submission', { submission_id: submission.id });
    expect((read.structuredContent as { status: string }).status).toBe('pending');
  });

  it('refuses to send without submissions:send, naming the scope, and leaves the submission a draft', async () => {
    const a = await createAccount({ scopes: ['templates:read', 'templates:write', 'submissions:read', 'submissions:write'] });
    const template = await createTemplate(a.token);
    const client = await connect(a.token);
    expect(
      errorText(await call(client, 'create_submission', { template_id: template.id, submitters: signer('x@example.com'), send: true })),
    ).toContain('Required: submissions:send');
    const draft = await call(client, 'create_submission', { template_id: template.id, submitters: signer('y@example.com') });
    const submission = draft.structuredContent as { id: number };
    expect(errorText(await call(client, 'send_submission', { submission_id: submission.id }))).toContain('Required: submissions:send');
    const rest = await api('GET', `/api/submissions/${submission.id}`, { token: a.token });
    expect(rest.json.status).toBe('draft');
  });

  it('lets a caller without submissions:read verify a PDF', async () => {
    const a = await createAccount({ scopes: ['templates:read'] });
    const client = await connect(a.token);
    const result = await call(client, 'verify_pdf', { file: toBase64(await makePdf(1)) });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ ours: false, signatures: [] });
  });

  it('refuses a template url inside a private network under the webhook rules', async () => {
    const a = await createAccount();
    const client = await connect(a.token);
    const text = errorText(await call(client, 'create_template', { url: 'https://169.254.169.254/latest/meta-data' }));
    expect(text).toContain('169.254.169.254');
    expect(text).toContain('document downloads may not call');
  });

  it('creates a template from a PDF at a url, fetched under the webhook rules', async () => {
    const a = await createAccount();
    const { name } = await newReceiver({ fileBase64: toBase64(await makePdf(3)) });
    const client = await connect(a.token);
    const result = await call(client, 'create_template', { name: 'Fetched', url: fileUrl(name) });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { documents: { page_count: number }[] }).documents[0].page_count).toBe(3);
  });

  it('does not follow a redirect from a template url', async () => {
    const a = await createAccount();
    const { name } = await newReceiver({ fileBase64: toBase64(await makePdf(1)), redirectTo: 'http://169.254.169.254/' });
    const text = errorText(await call(await connect(a.token), 'create_template', { url: fileUrl(name) }));
    expect(text).toBe("422: url answered 302 (a redirect); redirects are not followed, so give the file's final URL.");
  });

  it('returns the sealed PDFs of a completed submission as embedded resources, valid in pdfsig, even for a token bound to /mcp', async () => {
    const a = await createAccount();
    const submission = await submissionOf(a);
    await seal(a, submission.id);
    const token = await oauthToken(a, 'submissions:read', [`${ORIGIN}/mcp`]);
    const result = await call(await connect(token), 'get_signed_documents', { submission_id: submission.id });
    expect(result.isError).toBeFalsy();
    const list = result.structuredContent as { sealed: boolean; documents: { download_url: string; sha256: string }[] };
    expect(list.sealed).toBe(true);
    const [embedded] = result.content.filter((item) => item.type === 'resource');
    if (embedded?.type !== 'resource' || !('blob' in embedded.resource)) throw new Error('no embedded PDF');
    expect(embedded.resource).toMatchObject({ uri: list.documents[0].download_url, mimeType: 'application/pdf' });
    const bytes = Uint8Array.from(atob(embedded.resource.blob), (ch) => ch.charCodeAt(0));
    expect(await sha256Hex(bytes)).toBe(list.documents[0].sha256);
    const { pdfsig } = await checkPdf(bytes);
    expect(pdfsig.output).toContain('Signature is Valid.');
  });

  it('reminds a signer with submissions:remind and refuses without it', async () => {
    const a = await createAccount();
    const submission = await submissionOf(a, { complete: false });
    const read = await api('GET', `/api/submissions/${submission.id}`, { token: a.token });
    const submitterId = read.json.submitters[0].id as number;
    const reminded = await call(await connect(a.token), 'remind_submitter', { submitter_id: submitterId });
    expect(reminded.isError).toBeFalsy();
    expect(reminded.structuredContent).toMatchObject({ id: submitterId });
    const reader = await createToken(a.accountId, a.userId, ['submissions:read']);
    expect(errorText(await call(await connect(reader), 'remind_submitter', { submitter_id: submitterId }))).toContain(
      'Required: submissions:remind',
    );
  });

  it('counts each tool call against the credential’s rate limit, and initialize and tools/list not', async () => {
    const a = await createAccount();
    const client = await connect(a.token);
    await client.listTools();
    await call(client, 'list_templates', {});
    await call(client, 'list_submissions', {});
    const rest = await api('GET', '/api/user', { token: a.token });
    expect(rest.headers.get('X-RateLimit-Remaining')).toBe('117');
  });

  it('records each tool call, reads included, with the actor mcp:<token prefix>', async () => {
    const a = await createAccount();
    const client = await connect(a.token);
    await call(client, 'list_templates', {});
    const prefix = a.token.slice(0, 12);
    const rows = await (await shardOf(a.accountId))
      .prepare('SELECT actor, method, path, status FROM audit_events WHERE account_id = ? ORDER BY id')
      .bind(a.accountId)
      .all<{ actor: string; method: string; path: string; status: number }>();
    expect(rows.results).toEqual([{ actor: `mcp:${prefix}`, method: 'GET', path: '/api/templates', status: 200 }]);
  });
});

describe('MCP authorization (RFC 9728, RFC 8707)', () => {
  it('answers 401 with the resource_metadata challenge', async () => {
    const res = await SELF.fetch(`${ORIGIN}/mcp`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(401);
    expect(res.headers.get('WWW-Authenticate')).toBe(
      `Bearer realm="api", resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/mcp"`,
    );
  });

  it('publishes protected-resource metadata for /mcp and for the origin', async () => {
    const mcp = await (await SELF.fetch(`${ORIGIN}/.well-known/oauth-protected-resource/mcp`)).json<Record<string, unknown>>();
    expect(mcp).toMatchObject({ resource: `${ORIGIN}/mcp`, authorization_servers: [ORIGIN], bearer_methods_supported: ['header'] });
    expect(mcp.scopes_supported).toContain('submissions:send');
    const root = await (await SELF.fetch(`${ORIGIN}/.well-known/oauth-protected-resource`)).json<Record<string, unknown>>();
    expect(root).toMatchObject({ resource: ORIGIN, authorization_servers: [ORIGIN] });
  });

  it('accepts a token issued for /mcp there and refuses it on /api', async () => {
    const a = await createAccount();
    const token = await oauthToken(a, 'templates:read', [`${ORIGIN}/mcp`]);
    const client = await connect(token);
    expect((await call(client, 'list_templates', {})).isError).toBeFalsy();
    const rest = await api('GET', '/api/templates', { token });
    expect(rest.status).toBe(401);
    expect(rest.json.message).toContain('issued for the MCP server');
  });

  it('refuses on /mcp a token issued without resource, which serves /api', async () => {
    const a = await createAccount();
    const token = await oauthToken(a, 'templates:read', []);
    expect((await api('GET', '/api/templates', { token })).status).toBe(200);
    const res = await SELF.fetch(`${ORIGIN}/mcp`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('WWW-Authenticate')).toContain('error="invalid_token"');
  });

  it('accepts a token issued for both resources on both', async () => {
    const a = await createAccount();
    const token = await oauthToken(a, 'templates:read', [`${ORIGIN}/mcp`, `${ORIGIN}/api`]);
    expect((await api('GET', '/api/templates', { token })).status).toBe(200);
    expect((await call(await connect(token), 'list_templates', {})).isError).toBeFalsy();
  });

  it('narrows a refresh of a grant for both resources to the one `resource` names', async () => {
    const a = await createAccount();
    const tokens = await oauthTokens(a, 'templates:read', [`${ORIGIN}/mcp`, `${ORIGIN}/api`]);
    const refreshed = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: tokens.client_id,
      resource: `${ORIGIN}/mcp`,
    });
    expect(refreshed.status).toBe(200);
    expect((await call(await connect(refreshed.json.access_token), 'list_templates', {})).isError).toBeFalsy();
    expect((await api('GET', '/api/templates', { token: refreshed.json.access_token })).status).toBe(401);
    // The new refresh token keeps the grant's resources: the next refresh may ask for the other one.
    const again = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: refreshed.json.refresh_token,
      client_id: tokens.client_id,
      resource: `${ORIGIN}/api`,
    });
    expect((await api('GET', '/api/templates', { token: again.json.access_token })).status).toBe(200);
  });

  it('refuses a resource this server does not serve with invalid_target', async () => {
    const client = await publicClient();
    const { challenge } = await pkce();
    const params = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: REDIRECT_URI,
      scope: 'templates:read',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      resource: 'https://elsewhere.example/mcp',
    });
    const res = await request('GET', `/oauth/authorize?${params}`);
    expect(res.status).toBe(302);
    expect(new URL(res.location!).searchParams.get('error')).toBe('invalid_target');
  });

  it('refuses at the token endpoint a resource beyond the grant', async () => {
    const a = await createAccount();
    const client = await publicClient();
    const session = await sessionFor(a);
    const { verifier, challenge } = await pkce();
    const params = {
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: REDIRECT_URI,
      scope: 'templates:read',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    };
    const code = new URL((await decide(session, params, 'allow')).location!).searchParams.get('code')!;
    const res = await tokenRequest({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: client.client_id,
      code_verifier: verifier,
      resource: `${ORIGIN}/mcp`,
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_target');
  });

  it('records an OAuth client’s tool calls with the actor mcp:<client name>', async () => {
    const a = await createAccount();
    const token = await oauthToken(a, 'templates:read', [`${ORIGIN}/mcp`]);
    await call(await connect(token), 'list_templates', {});
    const rows = await (await shardOf(a.accountId))
      .prepare("SELECT actor FROM audit_events WHERE account_id = ? AND path = '/api/templates'")
      .bind(a.accountId)
      .all<{ actor: string }>();
    expect(rows.results).toEqual([{ actor: 'mcp:Claude Desktop' }]);
  });
});
