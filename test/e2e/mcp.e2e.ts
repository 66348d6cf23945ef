// The MCP server from a real MCP client (issue 32 bar): the SDK's Client with its Streamable HTTP
// transport and its OAuth client (discovery from the 401, dynamic registration, PKCE, consent in
// Chromium) against `wrangler dev`: it lists the tools, creates a template from a PDF, creates and sends
// a submission; the signer completes in Chromium; the sealed PDF comes back through the tool and is
// valid in pdfsig. The same with an API token, and a token without submissions:send cannot send.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiOf, launchChromium, letterPdfBase64, outboxLink, sharedDevServer, uniqueEmail, type SharedServer } from './e2e-kit';
import { startOAuthCallback, type OAuthCallback } from './oauth-callback';

let server: SharedServer;
let browser: Browser;
let page: Page;
let callback: OAuthCallback;

/** The SDK's OAuth client state, kept in memory; the authorization URL is opened in Chromium by the test. */
class BrowserOAuthProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  get redirectUrl() {
    return callback.redirectUri;
  }
  get clientMetadata() {
    return {
      client_name: 'E2E Agent',
      redirect_uris: [callback.redirectUri],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.client = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

function mcpTransport(options: { authProvider?: OAuthClientProvider; token?: string }) {
  return new StreamableHTTPClientTransport(new URL(`${server.base}/mcp`), {
    authProvider: options.authProvider,
    requestInit: options.token ? { headers: { Authorization: `Bearer ${options.token}` } } : undefined,
  });
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

async function invitationLink(email: string): Promise<string> {
  const link = await outboxLink(server.base, email, 'invitation', /https?:\/\/\S+\/s\/[0-9A-Za-z]+/, { waitMs: 10_000 });
  if (!link) throw new Error(`no invitation to ${email}`);
  return link;
}

/** The flow every MCP client runs: 401 → metadata → registration → consent in the browser → code → tokens. */
async function connectWithOAuth(provider: BrowserOAuthProvider): Promise<Client> {
  const client = new Client({ name: 'e2e-agent', version: '1.0.0' });
  await expect(client.connect(mcpTransport({ authProvider: provider }))).rejects.toBeInstanceOf(UnauthorizedError);
  const authorizationUrl = provider.authorizationUrl!;
  expect(authorizationUrl.searchParams.get('resource')).toBe(`${server.base}/mcp`);
  const received = callback.next();
  await page.goto(authorizationUrl.toString());
  // Not signed in yet: the authorization page sends the admin to sign in and back.
  if (new URL(page.url()).pathname === '/login') {
    await page.fill('#email', server.adminEmail);
    await page.fill('#password', server.adminPassword);
    await page.click('button[type=submit]');
    await page.waitForURL(/\/oauth\/authorize/);
  }
  await expect(page.locator('#audiences').textContent()).resolves.toContain('the MCP server');
  await page.click('button[name=decision][value=allow]');
  const transport = mcpTransport({ authProvider: provider });
  await transport.finishAuth((await received).get('code')!);
  const connected = new Client({ name: 'e2e-agent', version: '1.0.0' });
  await connected.connect(transport);
  return connected;
}

/** Creates a one-field template and a sent submission through the tools; returns the submission id. */
async function templateAndSentSubmission(client: Client, email: string): Promise<number> {
  const template = await call(client, 'create_template', {
    name: 'Agent agreement',
    file: await letterPdfBase64(['Agreement made by an agent']),
    submitters: [{ name: 'Signer' }],
    fields: [{ name: 'Full name', type: 'text', role: 'Signer', required: true, areas: [{ page: 1, x: 0.1, y: 0.2, w: 0.4, h: 0.05 }] }],
  });
  expect(template.isError).toBeFalsy();
  const templateId = (template.structuredContent as { id: string }).id;
  const submission = await call(client, 'create_submission', {
    template_id: templateId,
    send: true,
    submitters: [{ role: 'Signer', email, name: 'Sam Signer' }],
  });
  expect(submission.isError).toBeFalsy();
  expect((submission.structuredContent as { status: string }).status).toBe('pending');
  return (submission.structuredContent as { id: number }).id;
}

/** The signer opens the invitation and completes the one field in Chromium. */
async function sign(email: string): Promise<void> {
  const signer = await (await browser.newContext()).newPage();
  await signer.goto(await invitationLink(email));
  await signer.getByLabel('I have read this disclosure and agree to use electronic records and signatures.').check();
  await signer.click('#disclosure-continue');
  await signer.waitForSelector('#stepper');
  await signer.fill('#field-input', 'Sam Signer');
  await signer.click('#submit');
  await signer.waitForSelector('#completed', { timeout: 30_000 });
}

/** Polls get_signed_documents until sealed; returns the embedded PDF's bytes. */
async function sealedPdf(client: Client, submissionId: number): Promise<Buffer> {
  for (let i = 0; i < 120; i += 1) {
    const result = await call(client, 'get_signed_documents', { submission_id: submissionId });
    expect(result.isError).toBeFalsy();
    const embedded = result.content.find((item) => item.type === 'resource');
    if (embedded?.type === 'resource' && 'blob' in embedded.resource) return Buffer.from(embedded.resource.blob, 'base64');
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the submission was not sealed');
}

function pdfsig(bytes: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-e2e-'));
  try {
    const file = join(dir, 'sealed.pdf');
    writeFileSync(file, bytes);
    return spawnSync('pdfsig', [file], { encoding: 'utf8' }).stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the MCP server from a real MCP client', () => {
  beforeAll(async () => {
    callback = await startOAuthCallback();
    // The shared server's dev admin has a password already, to sign in with on the consent page.
    server = await sharedDevServer();
    browser = await launchChromium();
    page = await (await browser.newContext()).newPage();
    // Setting up and starting wrangler dev takes minutes on a busy machine.
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    callback?.close();
  });

  it('with OAuth: lists the tools, creates a template and a sent submission, and returns the sealed PDF once signed', async () => {
    const client = await connectWithOAuth(new BrowserOAuthProvider());
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['create_template', 'create_submission', 'get_signed_documents']));
    const email = uniqueEmail('oauth.signer');
    const submissionId = await templateAndSentSubmission(client, email);
    await sign(email);
    expect(pdfsig(await sealedPdf(client, submissionId))).toContain('Signature is Valid.');
  }, 400_000);

  it('with an API token: the same, and a token without submissions:send cannot send', async () => {
    const client = new Client({ name: 'e2e-server-agent', version: '1.0.0' });
    await client.connect(mcpTransport({ token: server.token }));
    const email = uniqueEmail('token.signer');
    const submissionId = await templateAndSentSubmission(client, email);
    await sign(email);
    expect(pdfsig(await sealedPdf(client, submissionId))).toContain('Signature is Valid.');

    const created = await apiOf(() => server).call('POST', '/api/access_tokens', {
      name: 'no send',
      scopes: ['templates:read', 'templates:write', 'submissions:read', 'submissions:write'],
    });
    expect(created.status).toBe(201);
    const limited = new Client({ name: 'e2e-limited-agent', version: '1.0.0' });
    await limited.connect(mcpTransport({ token: (created.json as { token: string }).token }));
    const template = await call(limited, 'list_templates', {});
    const [first] = (template.structuredContent as { data: { id: string }[] }).data;
    const refused = await call(limited, 'create_submission', {
      template_id: first.id,
      send: true,
      submitters: [{ role: 'Signer', email: 'never@e2e.test' }],
    });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain('Required: submissions:send');
  }, 400_000);
});
