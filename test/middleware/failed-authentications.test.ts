import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { errorResponse } from '../../src/app-base';
import type { AppEnv } from '../../src/app-env';
import { authenticate } from '../../src/middleware/auth';
import { controlDatabase } from '../../src/middleware/databases';
import { RefusedAddresses } from '../../src/middleware/auth/failed-authentications';
import { clientAddressBlock } from '../../src/lib/ip';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let n = 0;
/**
 * The tenant authentication alone (behind the control database it looks tokens up in, as in the app), with
 * a small failure limit and window, before a handler that answers 200.
 */
function appWith(limit: number, windowMs: number) {
  const app = new Hono<AppEnv>();
  app.onError(errorResponse);
  app.use('*', controlDatabase());
  app.use('*', authenticate({ failures: { limit, windowMs, refused: new RefusedAddresses() } }));
  app.get('/', (c) => c.json({ ok: true }));
  n += 1;
  const ip = `198.18.0.${n}`;
  return async () => {
    const ctx = createExecutionContext();
    const token = `tok_${crypto.randomUUID().replace(/-/g, '')}00000000`;
    const response = await app.request('/', { headers: { 'X-Auth-Token': token, 'CF-Connecting-IP': ip } }, env, ctx);
    await waitOnExecutionContext(ctx);
    return response.status;
  };
}

describe('failed authentications', () => {
  it('admit an address again once its window frees a slot', async () => {
    const attempt = appWith(2, 1000);
    expect([await attempt(), await attempt(), await attempt()]).toEqual([401, 401, 429]);
    await sleep(1100);
    expect(await attempt()).toBe(401);
  });
});

describe('RefusedAddresses', () => {
  it('forgets an address once its time has passed', () => {
    const refused = new RefusedAddresses();
    refused.refuse('a', 1000);
    expect(refused.refusedUntil('a', 999)).toBe(1000);
    expect(refused.refusedUntil('a', 1000)).toBeNull();
  });

  it('holds at most its limit of addresses, forgetting the oldest', () => {
    const refused = new RefusedAddresses(2);
    refused.refuse('a', 1000);
    refused.refuse('b', 1000);
    refused.refuse('c', 1000);
    expect([refused.refusedUntil('a', 0), refused.refusedUntil('b', 0), refused.refusedUntil('c', 0)]).toEqual([null, 1000, 1000]);
  });
});

describe('clientAddressBlock', () => {
  it('is the IPv4 address itself, mapped or not', () => {
    expect(clientAddressBlock('192.0.2.7')).toBe('192.0.2.7');
    expect(clientAddressBlock('::ffff:192.0.2.7')).toBe('192.0.2.7');
  });

  it('is the /64 of an IPv6 address, however it is spelled', () => {
    expect(clientAddressBlock('2001:DB8:0:1::5')).toBe('2001:db8:0:1::/64');
    expect(clientAddressBlock('2001:db8:0:1:ffff:ffff:ffff:ffff')).toBe('2001:db8:0:1::/64');
  });

  it('is one shared bucket when the address is missing or not an address', () => {
    expect(clientAddressBlock(null)).toBe('unknown');
    expect(clientAddressBlock('not-an-ip')).toBe('unknown');
  });
});
