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

/** How long an admitted request may stay only in memory before the log is written to storage. */
export const SNAPSHOT_DELAY_MS = 5_000;

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
 * Storage is written behind, not per request: the first admitted request after a snapshot sets an
 * alarm `SNAPSHOT_DELAY_MS` ahead, and the alarm writes the whole log (at most `limit` numbers). A busy
 * token therefore costs one storage write per 5 s instead of one per request (docs/limits.md ›
 * Benchmark). A restarted object (deploy, crash) resumes from the last snapshot, so at most the hits of
 * the last 5 s are forgotten; an idle object is only evicted long after its alarm has run.
 */
export class RateLimiter extends DurableObject {
  /** Admitted request times, oldest first. */
  private readonly log: number[];
  /** An alarm is set that will write the log; hits until then need no storage call. */
  private snapshotScheduled = false;

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
      if (!this.snapshotScheduled) {
        this.snapshotScheduled = true;
        // Not awaited: the decision above is already final and exact in memory.
        this.ctx.storage.setAlarm(now + SNAPSHOT_DELAY_MS).catch(() => {
          this.snapshotScheduled = false;
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

  /** Writes the log behind the requests that changed it (see the class comment). */
  alarm(): void {
    this.snapshotScheduled = false;
    this.ctx.storage.kv.put('log', this.log);
  }
}
