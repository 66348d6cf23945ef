// Drains of one shard's outbox are spaced (services/webhooks/drain-pacing.ts): under load a drain waits
// out the rest of DRAIN_SPACING_MS after the last one began, so it covers many events with its three D1
// calls; a drain after a quiet spell, or of another shard, does not wait.
import { createMessageBatch, env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { handleWebhookBatch } from '../../src/queues/webhooks';
import { consumeByShard } from '../../src/queues/shard-batches';
import { DRAIN_SPACING_MS, drainPacer, drainSpacingMs } from '../../src/services/webhooks/drain-pacing';
import type { WebhookMessage } from '../../src/env';

/** A pacer on a clock the test moves, recording what it was asked to sleep. */
function pacedClock(spacingMs: number) {
  let now = 1_000_000;
  const slept: number[] = [];
  const pacer = drainPacer(
    spacingMs,
    () => now,
    async (ms) => {
      slept.push(ms);
      now += ms;
    },
  );
  return { pacer, slept, advance: (ms: number) => void (now += ms) };
}

describe('drain pacing', () => {
  it('makes a drain that follows the last one closely wait out the rest of the spacing', async () => {
    const { pacer, slept, advance } = pacedClock(50);
    await pacer.turn(0);
    expect(slept).toEqual([]);
    advance(20);
    await pacer.turn(0);
    expect(slept).toEqual([30]);
    // The wait counts from when the waiting drain began: the next is 50 ms after that.
    advance(10);
    await pacer.turn(0);
    expect(slept).toEqual([30, 40]);
  });

  it('spaces drains that ask at the same moment as it spaces drains that ask one after the other', async () => {
    const now = 1_000_000;
    const slept: number[] = [];
    const pacer = drainPacer(
      50,
      () => now,
      async (ms) => void slept.push(ms),
    );
    await pacer.turn(0);
    // Neither has begun when the other asks: the clock stands still while both wait.
    await Promise.all([pacer.turn(0), pacer.turn(0)]);
    expect(slept).toEqual([50, 100]);
  });

  it('lets a drain after a quiet spell, or of another shard, begin at once', async () => {
    const { pacer, slept, advance } = pacedClock(50);
    await pacer.turn(0);
    await pacer.turn(1);
    advance(50);
    await pacer.turn(0);
    advance(200);
    await pacer.turn(1);
    expect(slept).toEqual([]);
  });

  it('never waits with a spacing of 0', async () => {
    const { pacer, slept } = pacedClock(0);
    for (let i = 0; i < 3; i += 1) await pacer.turn(0);
    expect(slept).toEqual([]);
  });

  it('takes the spacing from WEBHOOK_DRAIN_SPACING_MS when it is a whole number, else the default', () => {
    expect(drainSpacingMs({})).toBe(DRAIN_SPACING_MS);
    expect(drainSpacingMs({ WEBHOOK_DRAIN_SPACING_MS: '0' })).toBe(0);
    expect(drainSpacingMs({ WEBHOOK_DRAIN_SPACING_MS: '120' })).toBe(120);
    for (const bad of ['', 'soon', '-5', '2.5']) expect(drainSpacingMs({ WEBHOOK_DRAIN_SPACING_MS: bad })).toBe(DRAIN_SPACING_MS);
  });

  it('is asked for a turn by the consumer before each drain, for the batch’s shard, and not for wake-ups alone', async () => {
    const turns: number[] = [];
    const pacer = { turn: async (shard: number) => void turns.push(shard) };
    const run = (body: WebhookMessage & { shard: number }) =>
      consumeByShard(
        createMessageBatch<WebhookMessage>('signing-service-webhooks', [
          { id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body },
        ]),
        env,
        (part, scope) => handleWebhookBatch(part, scope, { pacer }),
      );
    await run({ kind: 'drain', shard: 1 });
    await run({ kind: 'deliver', deliveryUuid: crypto.randomUUID(), shard: 0 });
    await run({ kind: 'drain', shard: 0 });
    expect(turns).toEqual([1, 0]);
  });
});
