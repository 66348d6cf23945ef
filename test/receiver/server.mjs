// A real HTTP webhook receiver for the tests (runs in Node, started by test/receiver/global-setup.ts).
// Each test uses its own path `/hooks/<name>`; `PUT /_control/<name>` configures it and
// `GET /_control/<name>` returns what it received, with the HMAC verified over the raw body bytes.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

// Plain JavaScript: it runs in Node, outside the Workers types the project is checked against.

/**
 * @typedef {object} HookConfig
 * @property {string} [secret] Secret to verify X-Webhook-Signature with.
 * @property {number} [failFirst] Answer the first N deliveries with failStatus.
 * @property {number} [failStatus]
 * @property {string} [redirectTo] Answer every delivery with a redirect.
 * @property {number} [delayMs] Wait this long before answering.
 * @property {string} [responseBody] Answer with this body (e.g. a large one, to check truncation).
 * @property {number} [stallBodyMs] Send the status and headers at once, then hold the body this long.
 * @property {string} [fileBase64] `GET /files/<name>` answers these bytes (a document to download, the MCP tool's `url`).
 */

/** @type {Map<string, HookConfig>} */
const configs = new Map();
/** @type {Map<string, object[]>} */
const received = new Map();

function readRaw(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The check docs/webhooks.md tells integrators to do, over the bytes exactly as received. */
function signatureValid(secret, raw, header) {
  if (!secret || !header) return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`);
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export function startReceiver(port = 0) {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://receiver');
    const [, kind, name] = url.pathname.split('/');
    const raw = await readRaw(req);
    if (kind === '_control' && name) {
      if (req.method === 'PUT') {
        configs.set(name, JSON.parse(raw.toString('utf8') || '{}'));
        received.set(name, []);
        res.writeHead(204).end();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ deliveries: received.get(name) ?? [] }));
      return;
    }
    if (kind === 'files' && name && req.method === 'GET' && configs.get(name)?.fileBase64) {
      const config = configs.get(name);
      if (config.redirectTo) res.writeHead(302, { Location: config.redirectTo }).end();
      else res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(Buffer.from(config.fileBase64, 'base64'));
      return;
    }
    if (kind !== 'hooks' || !name || req.method !== 'POST') {
      res.writeHead(404).end('not found');
      return;
    }
    const config = configs.get(name) ?? {};
    const log = received.get(name) ?? [];
    received.set(name, log);
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
    const failing = log.length < (config.failFirst ?? 0);
    const status = config.redirectTo ? 302 : failing ? (config.failStatus ?? 500) : 200;
    log.push({
      headers,
      body: raw.toString('utf8'),
      signatureValid: signatureValid(config.secret, raw, headers['x-webhook-signature']),
      answeredStatus: status,
      receivedAt: Date.now(),
    });
    if (config.delayMs) await new Promise((r) => setTimeout(r, config.delayMs));
    if (config.stallBodyMs) {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('partial ');
      setTimeout(() => res.end('rest'), config.stallBodyMs);
      return;
    }
    if (config.redirectTo) res.writeHead(302, { Location: config.redirectTo }).end();
    else res.writeHead(status, { 'Content-Type': 'text/plain' }).end(config.responseBody ?? (failing ? 'failing on purpose' : 'ok'));
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}
