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
    const decisions = [await stub.hit(3, 60_000), await stub.hit(3, 60_000), await stub.hit(3, 60_000)];
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
    ]);
  });

  it('refuses the request after the limit with the time the oldest one leaves the window', async () => {
    const stub = limiter();
    const first = await stub.hit(2, 60_000);
    await stub.hit(2, 60_000);
    const refused = await stub.hit(2, 60_000);
    expect(refused).toMatchObject({ allowed: false, limit: 2, remaining: 0 });
    expect(refused.resetAt).toBe(first.resetAt);
  });

  it('admits exactly the limit when many calls arrive at once', async () => {
    const stub = limiter();
    const decisions = await Promise.all(Array.from({ length: 50 }, () => stub.hit(20, 60_000)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(20);
  });

  it('does not count refused requests against the window', async () => {
    const stub = limiter();
    await stub.hit(1, 300);
    await new Promise((resolve) => setTimeout(resolve, 150));
    // Refused; were they logged, they would still fill the window when the first one leaves it.
    for (let i = 0; i < 5; i += 1) expect((await stub.hit(1, 300)).allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await stub.hit(1, 300)).allowed).toBe(true);
  });

  it('admits again once the oldest request has left the rolling window', async () => {
    const stub = limiter();
    await stub.hit(1, 100);
    expect((await stub.hit(1, 100)).allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect((await stub.hit(1, 100)).allowed).toBe(true);
  });

  it('keeps counting after the object is evicted and restarted', async () => {
    const stub = limiter();
    await stub.hit(2, 60_000);
    await stub.hit(2, 60_000);
    await evictDurableObject(stub);
    expect((await stub.hit(2, 60_000)).allowed).toBe(false);
  });
});
