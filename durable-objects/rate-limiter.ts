// A rolling-window request log for one API token or partner key (spec › Limits: 120/min per token).
import { DurableObject } from 'cloudflare:workers';

export type RateLimitDecision = {
  allowed: boolean;
  limit: number;
  /** Requests still allowed in the current window, after this one. */
  remaining: number;
  /** Unix time (ms) when the oldest counted request leaves the window and a slot frees up. */
  resetAt: number;
};

/**
 * A sliding-window log: the timestamps of the requests admitted in the last `windowMs`. A request is
 * admitted when fewer than `limit` are logged, so the count is exact at every instant, unlike fixed
 * windows (2× bursts at the boundary) or approximated sliding counters.
 *
 * `hit` does its whole read-decide-write without awaiting, and a Durable Object runs one such call at
 * a time, so 200 concurrent requests on one token admit exactly `limit` (test/api/rate-limit).
 * Refused requests are not logged: a client that keeps retrying too early does not push its own
 * window further out.
 *
 * The log lives in memory and is snapshotted to storage with `allowUnconfirmed`, so a restarted
 * object (deploy, eviction) resumes counting where it was, yet no response waits for that write to
 * be confirmed: a confirmed write per request would hold every API response for a storage round
 * trip (bench/limits measured 0.44 of the floor that way). The snapshot is at most `limit` numbers.
 * Writing behind instead (an alarm every 5 s, or a write at most every 5 s) was measured and did not
 * make requests cheaper: the cost is the call into the object, not its storage (docs/limits.md).
 */
export class RateLimiter extends DurableObject {
  /** Admitted request times, oldest first. */
  private readonly log: number[];

  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env);
    this.log = ctx.storage.kv.get<number[]>('log') ?? [];
  }

  hit(limit: number, windowMs: number): RateLimitDecision {
    const now = Date.now();
    const cutoff = now - windowMs;
    let expired = 0;
    while (expired < this.log.length && this.log[expired] <= cutoff) expired += 1;
    if (expired > 0) this.log.splice(0, expired);

    const allowed = this.log.length < limit;
    if (allowed) {
      this.log.push(now);
      this.ctx.storage.put('log', this.log, { allowUnconfirmed: true }).catch(() => {
        // Only durability across a restart is lost; the in-memory log stays exact.
      });
    }
    // With a full log the oldest entry frees the next slot; with room to spare, `now` bounds it.
    const oldest = this.log.length > 0 ? this.log[0] : now;
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - this.log.length),
      resetAt: oldest + windowMs,
    };
  }
}
