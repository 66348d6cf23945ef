import { env, evictDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';

let n = 0;
function limiter() {
  n += 1;
  return env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`test:${n}`));
}

describe('RateLimiter', () => {
  it('admits requests up to the limit and counts down what remains', async () => {
    const stub = limiter();
    const decisions = [
      await stub.take({ limit: 3, windowMs: 60_000 }),
      await stub.take({ limit: 3, windowMs: 60_000 }),
      await stub.take({ limit: 3, windowMs: 60_000 }),
    ];
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
    ]);
  });

  it('refuses the request after the limit with the time the oldest one leaves the window', async () => {
    const stub = limiter();
    const first = await stub.take({ limit: 2, windowMs: 60_000 });
    await stub.take({ limit: 2, windowMs: 60_000 });
    const refused = await stub.take({ limit: 2, windowMs: 60_000 });
    expect(refused).toMatchObject({ allowed: false, limit: 2, remaining: 0 });
    expect(refused.resetAt).toBe(first.resetAt);
  });

  it('admits exactly the limit when many calls arrive at once', async () => {
    const stub = limiter();
    const decisions = await Promise.all(Array.from({ length: 50 }, () => stub.take({ limit: 20, windowMs: 60_000 })));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(20);
  });

  it('does not count refused requests against the window', async () => {
    const stub = limiter();
    await stub.take({ limit: 1, windowMs: 300 });
    await new Promise((resolve) => setTimeout(resolve, 150));
    // Refused; were they logged, they would still fill the window when the first one leaves it.
    for (let i = 0; i < 5; i += 1) expect((await stub.take({ limit: 1, windowMs: 300 })).allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await stub.take({ limit: 1, windowMs: 300 })).allowed).toBe(true);
  });

  it('admits again once the oldest request has left the rolling window', async () => {
    const stub = limiter();
    await stub.take({ limit: 1, windowMs: 100 });
    expect((await stub.take({ limit: 1, windowMs: 100 })).allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect((await stub.take({ limit: 1, windowMs: 100 })).allowed).toBe(true);
  });

  it('keeps counting after the object is evicted and restarted', async () => {
    const stub = limiter();
    await stub.take({ limit: 2, windowMs: 60_000 });
    await stub.take({ limit: 2, windowMs: 60_000 });
    await evictDurableObject(stub);
    expect((await stub.take({ limit: 2, windowMs: 60_000 })).allowed).toBe(false);
  });
});

describe('RateLimiter leases', () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('lends the slots asked for while the window has room, counting them as used', async () => {
    const decision = await limiter().take({ limit: 120, windowMs: 60_000, lease: 10 });
    expect(decision).toMatchObject({ allowed: true, remaining: 109, lease: { slots: 10 } });
    expect(decision.lease!.expiresAt).toBeGreaterThan(Date.now());
  });

  it('lends nothing once the window would be more than half full', async () => {
    const stub = limiter();
    for (let i = 0; i < 55; i += 1) await stub.take({ limit: 120, windowMs: 60_000 });
    // 56 used: a lease of 4 more still leaves the window half empty.
    expect((await stub.take({ limit: 120, windowMs: 60_000, lease: 10 })).lease?.slots).toBe(4);
    const decision = await stub.take({ limit: 120, windowMs: 60_000, lease: 10 });
    expect(decision.allowed).toBe(true);
    expect(decision.lease).toBeUndefined();
    expect(decision.remaining).toBe(59);
  });

  it('never lends more than a quarter of the limit at once', async () => {
    const stub = limiter();
    const leases = [];
    for (let i = 0; i < 4; i += 1) leases.push((await stub.take({ limit: 120, windowMs: 60_000, lease: 10 })).lease?.slots ?? 0);
    expect(leases).toEqual([10, 10, 10, 0]);
  });

  it('refuses other requests while lent slots are unsettled, and frees the unspent ones on settlement', async () => {
    const stub = limiter();
    const { lease } = await stub.take({ limit: 40, windowMs: 60_000, lease: 10 });
    let admitted = 0;
    for (let i = 0; i < 35; i += 1) if ((await stub.take({ limit: 40, windowMs: 60_000 })).allowed) admitted += 1;
    expect(admitted).toBe(29);
    const settled = await stub.take({ limit: 40, windowMs: 60_000, settle: { id: lease!.id, spent: [Date.now(), Date.now()] } });
    expect(settled).toMatchObject({ allowed: true, remaining: 7 });
  });

  it('counts settled spends in the window from the time they were spent', async () => {
    const stub = limiter();
    const { lease } = await stub.take({ limit: 8, windowMs: 600, lease: 2 });
    expect(lease?.slots).toBe(2);
    await stub.take({ limit: 8, windowMs: 600, settle: { id: lease!.id, spent: [Date.now(), Date.now()] } });
    for (let i = 0; i < 4; i += 1) await stub.take({ limit: 8, windowMs: 600 });
    expect((await stub.take({ limit: 8, windowMs: 600 })).allowed).toBe(false);
    await sleep(650);
    const later = await stub.take({ limit: 8, windowMs: 600 });
    expect(later).toMatchObject({ allowed: true, remaining: 7 });
  });

  it('keeps an unsettled lease counted until its expiry plus a whole window', async () => {
    const stub = limiter();
    // A 1 s window lends for 500 ms, so the lease's 10 slots count until about 1.5 s.
    const { lease } = await stub.take({ limit: 40, windowMs: 1000, lease: 10 });
    expect(lease?.slots).toBe(10);
    for (let i = 0; i < 29; i += 1) await stub.take({ limit: 40, windowMs: 1000 });
    // Until 1.2 s after the lease: the logged requests (made within the first ~100 ms) have left.
    await sleep(lease!.expiresAt - 500 + 1200 - Date.now());
    let admitted = 0;
    for (let i = 0; i < 31; i += 1) if ((await stub.take({ limit: 40, windowMs: 1000 })).allowed) admitted += 1;
    expect(admitted).toBe(30);
  });

  it('ignores a settlement for a lease it did not lend and never logs more spends than slots', async () => {
    const stub = limiter();
    await stub.take({ limit: 10, windowMs: 60_000, settle: { id: 'not-a-lease', spent: [Date.now()] } });
    const { lease } = await stub.take({ limit: 40, windowMs: 60_000, lease: 3 });
    const now = Date.now();
    const settled = await stub.take({ limit: 40, windowMs: 60_000, settle: { id: lease!.id, spent: [now, now, now, now, now, now] } });
    // 1 (the first call, above, with limit 10 counts too) + 1 + 3 spends + this one.
    expect(settled.remaining).toBe(40 - 6);
  });

  it('keeps lent slots counted after the object is evicted and restarted', async () => {
    const stub = limiter();
    await stub.take({ limit: 40, windowMs: 60_000, lease: 10 });
    await evictDurableObject(stub);
    expect((await stub.take({ limit: 40, windowMs: 60_000 })).remaining).toBe(40 - 12);
  });
});
