// A real local HTTP server answering like Stripe's Checkout Sessions API, for the checkout tests.
// It records what it received (GET /__requests) so tests can check what the Worker sent.
// Plain JavaScript: it runs in Node, and the TypeScript program is typed for workerd only.
import { createServer } from 'node:http';

/** The key tests configure; any other key gets Stripe's 401 body. */
export const IMITATION_SECRET_KEY = 'sk_test_imitation';

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
  const received = [];
  let sessions = 0;
  const server = createServer(async (request, response) => {
    const reply = (status, body) => {
      response.writeHead(status, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.method === 'GET' && request.url === '/__requests') return reply(200, received);
    const form = Object.fromEntries(new URLSearchParams(await readBody(request)));
    received.push({
      method: request.method ?? '',
      path: request.url ?? '',
      authorization: request.headers.authorization ?? null,
      contentType: request.headers['content-type'] ?? null,
      form,
    });
    if (request.method !== 'POST' || request.url !== '/v1/checkout/sessions') {
      return reply(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${request.method}: ${request.url}).` } });
    }
    if (request.headers.authorization !== `Bearer ${IMITATION_SECRET_KEY}`) {
      return reply(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_****' } });
    }
    for (const required of ['mode', 'success_url', 'line_items[0][quantity]', 'line_items[0][price_data][currency]']) {
      if (!form[required]) return reply(400, { error: { type: 'invalid_request_error', message: `Missing required param: ${required}.`, param: required } });
    }
    sessions += 1;
    const id = `cs_test_imitation${String(sessions).padStart(6, '0')}`;
    reply(200, { id, object: 'checkout.session', mode: form.mode, status: 'open', url: `https://checkout.stripe.com/c/pay/${id}` });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  project.provide('stripePort', server.address().port);
  return () => new Promise((resolve) => server.close(() => resolve()));
}
