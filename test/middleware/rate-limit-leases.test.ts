import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { SlotLeases, type Limiter } from '../../src/middleware/rate-limit/slot-leases';

let n = 0;
/** The real RateLimiter object for a fresh key, with its calls counted. */
function countedLimiter() {
  n += 1;
  const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`leases-test:${n}`));
  const counted = {
    key: `leases-test:${n}`,
    calls: 0,
    take: ((request) => {
      counted.calls += 1;
      return stub.take(request);
    }) as Limiter['take'],
  };
  return counted;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SlotLeases (the isolate side of the rate limiter)', () => {
  it('spends lent slots without calling the limiter', async () => {
    const leases = new SlotLeases();
    const limiter = countedLimiter();
    for (let i = 0; i < 11; i += 1) expect((await leases.admit(limiter.key, 120, 60_000, limiter)).allowed).toBe(true);
    expect(limiter.calls).toBe(1);
  });

  it('counts Remaining down by one per request across lent and called slots', async () => {
    const leases = new SlotLeases();
    const limiter = countedLimiter();
    const remaining = [];
    for (let i = 0; i < 25; i += 1) remaining.push((await leases.admit(limiter.key, 120, 60_000, limiter)).remaining);
    expect(remaining).toEqual(Array.from({ length: 25 }, (_, i) => 119 - i));
    expect(limiter.calls).toBe(3);
  });

  it('settles spent slots on the next call, so the limiter counts exactly what was admitted', async () => {
    const leases = new SlotLeases();
    const limiter = countedLimiter();
    for (let i = 0; i < 12; i += 1) await leases.admit(limiter.key, 120, 60_000, limiter);
    // Another isolate asking plainly sees 12 admitted, 10 lent to the first isolate again, and itself.
    const other = await new SlotLeases({ want: 0 }).admit(limiter.key, 120, 60_000, limiter);
    expect(other.remaining).toBe(120 - 12 - 10 - 1);
  });

  it('admits exactly the limit from one isolate when requests arrive at once', async () => {
    const leases = new SlotLeases();
    const limiter = countedLimiter();
    const decisions = await Promise.all(Array.from({ length: 60 }, () => leases.admit(limiter.key, 40, 60_000, limiter)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(40);
  });

  it('never admits more than the limit across isolates sharing a token', async () => {
    const limiter = countedLimiter();
    const isolates = [new SlotLeases(), new SlotLeases(), new SlotLeases()];
    const decisions = await Promise.all(Array.from({ length: 150 }, (_, i) => isolates[i % 3].admit(limiter.key, 40, 60_000, limiter)));
    const admitted = decisions.filter((d) => d.allowed).length;
    expect(admitted).toBeLessThanOrEqual(40);
    // Slots lent to one isolate cannot admit another's requests, but leases hold at most a quarter.
    expect(admitted).toBeGreaterThanOrEqual(30);
  });

  it('does not spend a lease after it expires', async () => {
    const leases = new SlotLeases();
    const limiter = countedLimiter();
    // A 400 ms window lends for 200 ms.
    await leases.admit(limiter.key, 40, 400, limiter);
    await leases.admit(limiter.key, 40, 400, limiter);
    expect(limiter.calls).toBe(1);
    await sleep(250);
    await leases.admit(limiter.key, 40, 400, limiter);
    expect(limiter.calls).toBe(2);
  });

  it('forgets the oldest lease beyond its key budget', async () => {
    const leases = new SlotLeases({ maxKeys: 2 });
    const [a, b, c] = [countedLimiter(), countedLimiter(), countedLimiter()];
    for (const limiter of [a, b, c]) await leases.admit(limiter.key, 120, 60_000, limiter);
    await leases.admit(a.key, 120, 60_000, a);
    await leases.admit(c.key, 120, 60_000, c);
    expect([a.calls, c.calls]).toEqual([2, 1]);
  });
});
