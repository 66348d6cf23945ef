// A real local HTTP server answering like Stripe's Checkout Sessions API, for the checkout tests.
// It records what it received (GET /__requests) so tests can check what the Worker sent.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    stripePort: number;
  }
}

/** The key tests configure; any other key gets Stripe's 401 body. */
export const IMITATION_SECRET_KEY = 'sk_test_imitation';

type Recorded = { method: string; path: string; authorization: string | null; contentType: string | null; form: Record<string, string> };

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });
}

export default async function setup(project: TestProject) {
  const received: Recorded[] = [];
  let sessions = 0;
  const server = createServer(async (request, response) => {
    const reply = (status: number, body: unknown) => {
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  project.provide('stripePort', (server.address() as AddressInfo).port);
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
