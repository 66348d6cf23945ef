// A local stand-in for a Twilio-compatible messages API: records every request and answers with the
// status it is told to for a recipient (POST /control {to, status, times}), so tests drive real HTTP
// failures. Keyed by recipient so test files running in parallel never see each other's traffic.
// A message sent with a StatusCallback gets Twilio's callbacks, `sent` then `delivered` (or the final
// status POST /control {to, delivery: 'failed' | 'undelivered', error_code} names), signed as Twilio
// signs them with the auth token of the request's Basic credentials. They are posted to the callback
// URL when it is on loopback (a wrangler dev), and kept for GET /callbacks?to= either way: workerd tests
// hand them to the Worker themselves, since nothing outside it can reach a test Worker over HTTP.
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';

type Recorded = { path: string; authorization: string | undefined; form: Record<string, string> };
type Callback = { url: string; params: Record<string, string>; signature: string };

/**
 * Twilio's X-Twilio-Signature, written here apart from the Worker's check (an imitation that shared its
 * code would prove nothing): Base64 HMAC-SHA1 of the URL followed by each parameter, sorted by name.
 */
function twilioSignature(authToken: string, url: string, params: Record<string, string>): string {
  const mac = createHmac('sha1', authToken).update(url);
  for (const [name, value] of Object.entries(params).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) mac.update(name + value);
  return mac.digest('base64');
}

/** The auth token of `Basic base64(sid:token)`. */
function authTokenOf(authorization: string | undefined): string {
  const decoded = Buffer.from((authorization ?? '').replace(/^Basic\s+/i, ''), 'base64').toString('utf8');
  return decoded.slice(decoded.indexOf(':') + 1);
}

async function post({ url, params, signature }: Callback): Promise<void> {
  if (!/^https?:\/\/(127\.0\.0\.1|localhost)[:/]/.test(url)) return;
  await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Twilio-Signature': signature },
    body: new URLSearchParams(params),
  }).catch(() => undefined);
}

export async function startSmsProviderServer(): Promise<{ url: string; server: Server }> {
  const received: Recorded[] = [];
  const failures = new Map<string, { status: number; times: number }>();
  const deliveries = new Map<string, { status: string; errorCode?: string }>();
  const callbacks: (Callback & { to: string })[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const reply = (status: number, payload: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/control' && req.method === 'POST') {
      const { to, status, times, delivery, error_code } = JSON.parse(body);
      if (delivery) deliveries.set(to, { status: delivery, errorCode: error_code });
      else failures.set(to, { status, times });
      return reply(200, { ok: true });
    }
    if (url.pathname === '/callbacks' && req.method === 'GET') {
      return reply(
        200,
        callbacks.filter((c) => c.to === url.searchParams.get('to')),
      );
    }
    if (url.pathname === '/received' && req.method === 'GET') {
      return reply(
        200,
        received.filter((r) => r.form.To === url.searchParams.get('to')),
      );
    }
    const form = Object.fromEntries(new URLSearchParams(body));
    received.push({ path: url.pathname, authorization: req.headers.authorization, form });
    const failure = failures.get(form.To);
    if (failure && failure.times > 0) {
      failure.times -= 1;
      return reply(failure.status, { code: 20003, message: `Simulated ${failure.status}` });
    }
    const sid = `SM${received.length.toString().padStart(32, '0')}`;
    reply(201, { sid, status: 'queued' });
    if (form.StatusCallback) {
      const final = deliveries.get(form.To) ?? { status: 'delivered' };
      const token = authTokenOf(req.headers.authorization);
      const accountSid = /\/Accounts\/([^/]+)\//.exec(url.pathname)?.[1] ?? '';
      for (const status of ['sent', final.status]) {
        const params: Record<string, string> = {
          AccountSid: accountSid,
          MessageSid: sid,
          SmsSid: sid,
          MessageStatus: status,
          SmsStatus: status,
          To: form.To,
          From: form.From,
          ApiVersion: '2010-04-01',
          ...(status !== 'sent' && final.errorCode ? { ErrorCode: final.errorCode } : {}),
        };
        const callback = { url: form.StatusCallback, params, signature: twilioSignature(token, form.StatusCallback, params) };
        callbacks.push({ ...callback, to: form.To });
        await post(callback);
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('sms provider server did not bind');
  return { url: `http://127.0.0.1:${address.port}`, server };
}
