// Every route anyone may call without a credential caps the body that arrives, not the Content-Length it
// claims: a chunked body without Content-Length past the cap is a 413 with a sentence (docs/security.md ›
// Identity).
import { SELF } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createAccount, type TestAccount } from '../helpers';
import { freshIp } from './sign-in-fixtures';

/** `bytes` bytes of `fill` in 4 KB chunks, as a stream: the request goes out chunked, with no Content-Length. */
function chunked(bytes: number, fill = 'a'): ReadableStream<Uint8Array> {
  const chunk = new TextEncoder().encode(fill.repeat(4096));
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= bytes) return controller.close();
      controller.enqueue(chunk);
      sent += chunk.byteLength;
    },
  });
}

async function postChunked(path: string, contentType: string, bytes: number, headers: Record<string, string> = {}) {
  const request = new Request(`https://api.test${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': contentType, Origin: 'https://api.test', 'CF-Connecting-IP': freshIp(), ...headers },
    body: chunked(bytes),
  });
  expect(request.headers.get('Content-Length')).toBeNull();
  const response = await SELF.fetch(request);
  return { status: response.status, text: await response.text() };
}

const FORM = 'application/x-www-form-urlencoded';
let payer: TestAccount;

beforeAll(async () => {
  payer = await createAccount();
  const settings = await api('PUT', '/api/settings/payments', {
    token: payer.token,
    body: { stripe_secret_key: `sk_test_streamed${payer.accountId}`, stripe_webhook_secret: 'whsec_streamedBodies1' },
  });
  expect(settings.status).toBe(200);
});

describe('a chunked body without Content-Length past the cap', { timeout: 60_000 }, () => {
  for (const path of ['/login', '/login/choose', '/logout', '/password/forgot', '/password/set', '/email/confirm', '/login/mfa']) {
    it(`is refused on POST ${path} with 413 and a sentence`, async () => {
      const res = await postChunked(path, FORM, 64 * 1024);
      expect(res.status).toBe(413);
      expect(res.text).toContain('The form is too large.');
    });
  }

  it('is refused on POST /oauth/register with 413 and an RFC 7591 error', async () => {
    const res = await postChunked('/oauth/register', 'application/json', 256 * 1024);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text)).toMatchObject({
      error: 'invalid_client_metadata',
      error_description: 'The client metadata is limited to 64 KB.',
    });
  });

  for (const path of ['/oauth/token', '/oauth/revoke']) {
    it(`is refused on POST ${path} with 413 and an RFC 6749 error`, async () => {
      const res = await postChunked(path, FORM, 64 * 1024);
      expect(res.status).toBe(413);
      expect(JSON.parse(res.text)).toMatchObject({
        error: 'invalid_request',
        error_description: 'The request body is limited to 16384 bytes.',
      });
    });
  }

  it('is refused on the Stripe subscription webhook with 413 and a sentence', async () => {
    const res = await postChunked('/api/subscription/webhook', 'application/json', 2 * 1024 * 1024, { 'Stripe-Signature': 't=1,v1=00' });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text).error).toContain('The webhook body is larger than 1 MB');
  });

  it("is refused on an account's Stripe payments webhook with 413 and a sentence", async () => {
    const res = await postChunked(`/api/payments/webhook/${payer.accountId}`, 'application/json', 2 * 1024 * 1024, {
      'Stripe-Signature': 't=1,v1=00',
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text).error).toContain('The webhook body is larger than 1 MB');
  });
});

describe('a chunked body within the cap', () => {
  it('is read as usual on POST /login', async () => {
    const request = new Request('https://api.test/login', {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': FORM, Origin: 'https://api.test', 'CF-Connecting-IP': freshIp() },
      body: new Blob([new URLSearchParams({ email: 'nobody@example.com', password: 'not the password' }).toString()]).stream(),
    });
    const res = await SELF.fetch(request);
    expect(res.status).toBe(401);
    expect(await res.text()).toContain('The email or password is wrong.');
  });
});
