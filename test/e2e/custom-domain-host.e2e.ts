// Custom signing domains on the local server (issue 17 bar): a request whose Host is an active custom
// domain opens the signing page and gets 404 on /api/user; a domain not verified yet is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { sqlOn, startDevServer, type DevServer } from './wrangler-dev';
import { apiOf, fetchRetried, letterPdfBase64, preparedSetup } from './e2e-kit';

const PORT = Number(process.env.E2E_DOMAINS_PORT ?? 8797);
let server: DevServer;

// Its own server: an active domain of the dev account would become where every signing link points.
const { ok: call } = apiOf(() => server);

/** A GET to the local server with another Host header (fetch may not set Host; node:http may). */
function getWithHost(host: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: PORT, path, method: 'GET', headers: { Host: host, Accept: 'text/html' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('custom signing domains on the local server', () => {
  let slug: string;
  const active = `sign-${Date.now()}.acme-e2e.com`;
  const pending = `pending-${Date.now()}.acme-e2e.com`;

  beforeAll(async () => {
    server = await startDevServer(PORT, { from: await preparedSetup() });
    const template = await call('POST', '/api/templates/pdf', {
      name: 'Domain template',
      documents: [{ name: 'contract', file: await letterPdfBase64() }],
      submitters: [{ name: 'Tenant' }],
      fields: [{ name: 'Full name', type: 'text', role: 'Tenant', required: true, areas: [{ page: 1, x: 0.1, y: 0.1, w: 0.3, h: 0.05 }] }],
    });
    const submission = await call('POST', '/api/submissions', {
      template_id: template.id,
      send_email: false,
      submitters: [{ role: 'Tenant', email: 'domain@e2e.test' }],
    });
    slug = submission.submitters[0].slug;
    const verified = await call('POST', '/api/custom_domains', { hostname: active, branding: { company_name: 'Acme Domain Co' } });
    await call('POST', '/api/custom_domains', { hostname: pending });
    // The ownership check (DNS over HTTPS) and Cloudflare's activation are tested in workerd against
    // their local imitations; here the domain is put where they leave it: verified and active.
    sqlOn(
      server,
      'CONTROL_DB',
      `UPDATE custom_domains SET status = 'active', certificate_status = 'active', verified_at = '2026-11-25T00:00:00.000Z' WHERE id = ${Number(verified.id)}`,
    );
  });

  afterAll(async () => {
    if (process.env.E2E_LOGS) console.log(server?.output());
    await server?.stop();
  });

  it('opens the signing page on an active custom domain, with the domain’s branding', async () => {
    const res = await getWithHost(active, `/s/${slug}`);
    expect(res.status).toBe(200);
    expect(res.body).toContain('Acme Domain Co');
  });

  it('answers 404 to the API on an active custom domain', async () => {
    const res = await getWithHost(active, '/api/user');
    expect(res.status).toBe(404);
  });

  it('refuses a custom domain that is not verified yet', async () => {
    const res = await getWithHost(pending, `/s/${slug}`);
    expect(res.status).toBe(421);
    expect(res.body).toContain('not an active signing domain');
  });

  it('still serves the API on the service’s own host', async () => {
    const res = await fetchRetried(`${server.base}/api/user`, { headers: { 'X-Auth-Token': server.token } });
    expect(res.status).toBe(200);
  });
});
