// A local stand-in for a Twilio-compatible messages API: records every request and answers with the
// status it is told to for a recipient (POST /control {to, status, times}), so tests drive real HTTP
// failures. Keyed by recipient so test files running in parallel never see each other's traffic.
import { createServer, type Server } from 'node:http';

type Recorded = { path: string; authorization: string | undefined; form: Record<string, string> };

export async function startSmsProviderServer(): Promise<{ url: string; server: Server }> {
  const received: Recorded[] = [];
  const failures = new Map<string, { status: number; times: number }>();
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
      const { to, status, times } = JSON.parse(body);
      failures.set(to, { status, times });
      return reply(200, { ok: true });
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
    return reply(201, { sid: `SM${received.length.toString().padStart(32, '0')}`, status: 'queued' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('sms provider server did not bind');
  return { url: `http://127.0.0.1:${address.port}`, server };
}
