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

/** How long admitted requests may stay only in memory before the log is written to storage again. */
export const SNAPSHOT_INTERVAL_MS = 5_000;

/**
 * A sliding-window log: the timestamps of the requests admitted in the last `windowMs`. A request is
 * admitted when fewer than `limit` are logged, so the count is exact at every instant, unlike fixed
 * windows (2× bursts at the boundary) or approximated sliding counters.
 *
 * `hit` does its whole read-decide-write in memory without awaiting, and a Durable Object runs one
 * such call at a time, so 200 concurrent requests on one token admit exactly `limit`
 * (test/api/rate-limit). Refused requests are not logged: a client that keeps retrying too early does
 * not push its own window further out.
 *
 * Storage is written behind, not per request: an admitted request writes the whole log (at most
 * `limit` numbers, unconfirmed, so no response waits for it) only when the last snapshot is older
 * than `SNAPSHOT_INTERVAL_MS`. A restarted object (deploy, crash, eviction) resumes from the last
 * snapshot, so it forgets at most the requests admitted in the 5 s before it stopped: a token can get
 * that many extra requests in the minute after a restart. docs/limits.md › Benchmark has the figures
 * (a write per request, and an alarm-driven write-behind, both cost more).
 */
export class RateLimiter extends DurableObject {
  /** Admitted request times, oldest first. */
  private readonly log: number[];
  /** When the log was last written to storage (0: not by this instance). */
  private snapshotAt = 0;

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
      if (now - this.snapshotAt >= SNAPSHOT_INTERVAL_MS) {
        this.snapshotAt = now;
        this.ctx.storage.put('log', this.log, { allowUnconfirmed: true }).catch(() => {
          // Only durability across a restart is lost; the in-memory log stays exact.
        });
      }
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
