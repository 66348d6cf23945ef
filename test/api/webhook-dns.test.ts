// Webhook host names are resolved over DNS-over-HTTPS at create, update and before each delivery; the
// resolver is the local one in test/global/doh-resolver-server.ts (names and answers listed there).
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { api, createAccount } from '../helpers';
import { deliverPending, deliveryRows, drainFor, insertEvent } from '../webhook-fixtures';
import type { DohRecord } from '../global/doh-resolver-server';

let counter = 0;

/** A host name of this test alone, answering `record` until told otherwise. */
async function ownName(record: DohRecord): Promise<string> {
  counter += 1;
  const name = `rebind-${counter}-${crypto.randomUUID().slice(0, 8)}.example`;
  await answerFor(name, record);
  return name;
}

async function answerFor(name: string, record: DohRecord) {
  const res = await fetch(new URL(`/_control/${name}`, env.DOH_RESOLVER_URL), { method: 'PUT', body: JSON.stringify(record) });
  if (res.status !== 204) throw new Error(`the DoH resolver answered ${res.status}`);
}

function createHook(token: string, url: string) {
  return api('POST', '/api/webhooks', { token, body: { url, events: [], secret: 'test-secret-0123456789abcdef' } });
}

describe('webhook destinations at create and update', () => {
  it('refuses at create a host name that resolves to a private IPv4 address', async () => {
    const a = await createAccount();
    const res = await createHook(a.token, 'https://rebind.example/hooks');
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      "url's host rebind.example resolves to 10.0.0.1, a private network (10.0.0.0/8), which webhooks may not call.",
    );
  });

  it('refuses a host name whose only AAAA answer is a unique local IPv6 address', async () => {
    const a = await createAccount();
    const res = await createHook(a.token, 'https://v6private.example/hooks');
    expect(res.status).toBe(422);
    expect(res.json.error).toContain('resolves to fd00::1, a unique local network (fc00::/7)');
  });

  it('refuses a host name with a public A record when its AAAA record is private', async () => {
    const a = await createAccount();
    const res = await createHook(a.token, 'https://dual.example/hooks');
    expect(res.status).toBe(422);
    expect(res.json.error).toContain('resolves to fd00::2');
  });

  it('refuses a host name whose CNAME leads to a private address, naming the chain', async () => {
    const a = await createAccount();
    const res = await createHook(a.token, 'https://cname-private.example/hooks');
    expect(res.status).toBe(422);
    expect(res.json.error).toContain('resolves to 10.1.2.3 (through CNAME inside.example), a private network (10.0.0.0/8)');
  });

  it('refuses at create a host name that does not resolve', async () => {
    const a = await createAccount();
    const res = await createHook(a.token, 'https://nowhere.example/hooks');
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      "url's host nowhere.example does not resolve: the name does not exist (NXDOMAIN). Webhooks need a host with a public A or AAAA record.",
    );
  });

  it('answers 502 with a sentence when the resolver fails, saving nothing', async () => {
    const a = await createAccount();
    const res = await createHook(a.token, 'https://servfail.example/hooks');
    expect(res.status).toBe(502);
    expect(res.json.error).toBe(
      "url's host servfail.example could not be checked: the DNS resolver failed (it answered SERVFAIL). Try again later.",
    );
    expect((await api('GET', '/api/webhooks', { token: a.token })).json.data).toEqual([]);
  });

  it('refuses at update a URL whose host resolves to a private address, keeping the old URL', async () => {
    const a = await createAccount();
    const created = await createHook(a.token, 'https://public.example/hooks');
    expect(created.status).toBe(201);
    const res = await api('PUT', `/api/webhooks/${created.json.id}`, { token: a.token, body: { url: 'https://rebind.example/hooks' } });
    expect(res.status).toBe(422);
    expect(res.json.error).toContain('resolves to 10.0.0.1');
    expect((await api('GET', `/api/webhooks/${created.json.id}`, { token: a.token })).json.url).toBe('https://public.example/hooks');
  });

  it('refuses at update a host name that does not resolve', async () => {
    const a = await createAccount();
    const created = await createHook(a.token, 'https://public.example/hooks');
    const res = await api('PUT', `/api/webhooks/${created.json.id}`, { token: a.token, body: { url: 'https://nowhere.example/hooks' } });
    expect(res.status).toBe(422);
    expect(res.json.error).toContain('does not resolve');
  });
});

describe('webhook destinations before each delivery', () => {
  /** An endpoint created while its name resolved publicly, whose DNS then moved to `record`. */
  async function rebound(record: DohRecord) {
    const a = await createAccount();
    const name = await ownName({ A: ['93.184.216.34'] });
    const created = await createHook(a.token, `https://${name}/hooks`);
    expect(created.status).toBe(201);
    await answerFor(name, record);
    return { a, hook: created.json as { id: number }, name };
  }

  it('refuses a delivery attempt once the name resolves to a private address, logging why', async () => {
    const { a, hook, name } = await rebound({ A: ['10.0.0.1'] });
    await insertEvent(a.accountId, 'form.completed');
    await drainFor(a.accountId);
    await deliverPending(hook.id);
    const [first] = await deliveryRows(hook.id);
    expect(first).toMatchObject({ attempt: 1, status: 'failed', http_status: null });
    expect(first.error_message).toBe(
      `Not sent: url's host ${name} resolves to 10.0.0.1, a private network (10.0.0.0/8), which webhooks may not call.`,
    );
  });

  it('retries a delivery refused by DNS as it retries other failures', async () => {
    const { a, hook } = await rebound({ AAAA: ['::1'] });
    await insertEvent(a.accountId, 'form.completed');
    await drainFor(a.accountId);
    await deliverPending(hook.id);
    const rows = await deliveryRows(hook.id);
    expect(rows.map((r) => [r.attempt, r.status])).toEqual([
      [1, 'failed'],
      [2, 'pending'],
    ]);
    expect(rows[0].error_message).toContain('loopback (::1)');
  });

  it('retries a delivery whose host could not be looked up because the resolver failed', async () => {
    const { a, hook } = await rebound({ rcode: 2 });
    await insertEvent(a.accountId, 'form.completed');
    await drainFor(a.accountId);
    await deliverPending(hook.id);
    const rows = await deliveryRows(hook.id);
    expect(rows.map((r) => [r.attempt, r.status])).toEqual([
      [1, 'failed'],
      [2, 'pending'],
    ]);
    expect(rows[0].error_message).toContain('the DNS resolver failed (it answered SERVFAIL)');
  });

  it('fails a test send once the name resolves to a private address', async () => {
    const { a, hook } = await rebound({ A: ['169.254.169.254'] });
    const res = await api('POST', `/api/webhooks/${hook.id}/test`, { token: a.token, body: {} });
    expect(res.status).toBe(422);
    expect(res.json.error).toContain('resolves to 169.254.169.254, link-local');
  });
});
