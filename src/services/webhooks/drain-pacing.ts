// Spacing between an isolate's drains of one shard's outbox (issue 30 › 2). A drain costs three D1 calls
// whatever it finds (fan-out.ts); with the queue's batches handed over the moment a message arrives, a
// steady stream below saturation drained one or two events at a time (bench/webhooks: 2.4 D1 calls per
// event at 100 events/s). A drain that comes sooner than DRAIN_SPACING_MS after the last one began waits
// out the rest, so under load each drain covers the events of that span, and an event waits at most that
// long more; an isolate that drains rarely never waits. The drain requests that arrive meanwhile are the
// next batch's, and one drain answers them all.
import type { ScopeBindings } from '../../db/shards';

/** The default spacing: at 100 events/s about five events a drain, well inside the 250 ms the issue allows. */
export const DRAIN_SPACING_MS = 50;

export type DrainPacer = {
  /**
   * Resolves when this shard's next drain may begin. The moment is taken when asked, before the wait,
   * so two drains asking at once are spaced like two asking one after the other.
   */
  turn(shard: number): Promise<void>;
};

export function drainPacer(
  spacingMs: number,
  clock: () => number = Date.now,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): DrainPacer {
  const lastBegan = new Map<number, number>();
  return {
    async turn(shard) {
      if (spacingMs <= 0) return;
      const now = clock();
      const begins = Math.max(now, (lastBegan.get(shard) ?? Number.NEGATIVE_INFINITY) + spacingMs);
      lastBegan.set(shard, begins);
      if (begins > now) await sleep(begins - now);
    },
  };
}

/** WEBHOOK_DRAIN_SPACING_MS when set to a whole number of milliseconds (the test suite sets 0), else DRAIN_SPACING_MS. */
export function drainSpacingMs(env: Pick<ScopeBindings, 'WEBHOOK_DRAIN_SPACING_MS'>): number {
  const set = env.WEBHOOK_DRAIN_SPACING_MS;
  return set !== undefined && /^\d{1,6}$/.test(set) ? Number(set) : DRAIN_SPACING_MS;
}
