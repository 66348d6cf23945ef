// A real local HTTP server answering like Cloudflare's custom hostnames API (Cloudflare for SaaS), for the
// custom domain tests: create, get and delete, with a certificate that goes pending_validation → active
// on the first GET after creation. `GET /__hostnames` lists what it holds, so tests can check calls.
// Host names under `refused.example` are refused the way Cloudflare refuses a host it will not serve.
// Plain JavaScript: it runs in Node, and the TypeScript program is typed for workerd only.
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';

export const IMITATION_CF_TOKEN = 'cf_test_imitation_token';
export const IMITATION_ZONE_ID = 'zone0test0imitation';

/** @param {import('node:http').IncomingMessage} request @returns {Promise<string>} */
function readBody(request) {
  return new Promise((resolve, reject) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });
}

/** @param {import('vitest/node').TestProject} project */
export default async function setup(project) {
  /** @type {Map<string, {id: string, hostname: string, status: string, ssl: {status: string}}>} */
  const hostnames = new Map();
  const server = createServer(async (request, response) => {
    const reply = (status, body) => {
      response.writeHead(status, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const fail = (status, code, message) => reply(status, { success: false, errors: [{ code, message }], messages: [], result: null });
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (request.method === 'GET' && url.pathname === '/__hostnames') return reply(200, [...hostnames.values()]);
    const match = /^\/client\/v4\/zones\/([^/]+)\/custom_hostnames(?:\/([^/]+))?$/.exec(url.pathname);
    if (!match) return fail(404, 7003, 'Could not route to the requested path.');
    if (request.headers.authorization !== `Bearer ${IMITATION_CF_TOKEN}`) return fail(403, 10000, 'Authentication error');
    if (match[1] !== IMITATION_ZONE_ID) return fail(404, 1001, 'Invalid zone identifier');
    const body = await readBody(request);
    const id = match[2];
    if (request.method === 'POST' && !id) {
      let hostname;
      try {
        hostname = JSON.parse(body).hostname;
      } catch {
        return fail(400, 1400, 'Invalid JSON.');
      }
      if (typeof hostname !== 'string' || !hostname) return fail(400, 1407, 'Invalid custom hostname.');
      if (hostname === 'refused.example' || hostname.endsWith('.refused.example')) return fail(400, 1411, 'This hostname is not allowed.');
      if ([...hostnames.values()].some((h) => h.hostname === hostname)) return fail(409, 1406, 'Duplicate custom hostname found.');
      const created = { id: randomUUID(), hostname, status: 'pending', ssl: { status: 'pending_validation', method: 'http', type: 'dv' } };
      hostnames.set(created.id, created);
      return reply(201, { success: true, errors: [], messages: [], result: created });
    }
    const found = id ? hostnames.get(id) : undefined;
    if (!found) return fail(404, 1436, 'The custom hostname was not found.');
    if (request.method === 'GET') {
      // The certificate is issued by the time anyone asks again: creation said pending_validation.
      found.status = 'active';
      found.ssl.status = 'active';
      return reply(200, { success: true, errors: [], messages: [], result: found });
    }
    if (request.method === 'DELETE') {
      hostnames.delete(found.id);
      return reply(200, { success: true, errors: [], messages: [], result: { id: found.id } });
    }
    return fail(405, 1000, 'Method not allowed.');
  });
  await new Promise((resolve) => server.listen(Number(process.env.CF_IMITATION_PORT ?? 0), '127.0.0.1', resolve));
  project.provide('cloudflarePort', server.address().port);
  return () => new Promise((resolve) => server.close(() => resolve()));
}

// Local development: `CF_IMITATION_PORT=8790 node test/global-setup/cloudflare-imitation.mjs` runs it on
// its own (docs/custom-domains.md › Local development).
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  await setup({
    provide: (_key, port) =>
      console.log(
        `Cloudflare imitation: CF_API_BASE=http://127.0.0.1:${port}/client/v4 CF_API_TOKEN=${IMITATION_CF_TOKEN} CF_ZONE_ID=${IMITATION_ZONE_ID}`,
      ),
  });
}
