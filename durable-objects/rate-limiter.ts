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
 * a time, so 200 concurrent requests on one token admit exactly `limit` (test/durable-objects).
 * The log lives in memory for speed and is written through to SQLite so a restarted object (deploy,
 * eviction) keeps counting. Refused requests are not logged: a client that keeps retrying too early
 * does not push its own window further out.
 */
export class RateLimiter extends DurableObject {
  /** Admitted request times, oldest first; mirrors the `hits` table. */
  private readonly log: number[] = [];

  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env);
    const sql = ctx.storage.sql;
    sql.exec('CREATE TABLE IF NOT EXISTS hits (at INTEGER NOT NULL)');
    sql.exec('CREATE INDEX IF NOT EXISTS hits_at ON hits (at)');
    for (const row of sql.exec<{ at: number }>('SELECT at FROM hits ORDER BY at')) this.log.push(row.at);
  }

  hit(limit: number, windowMs: number): RateLimitDecision {
    const now = Date.now();
    const cutoff = now - windowMs;
    let expired = 0;
    while (expired < this.log.length && this.log[expired] <= cutoff) expired += 1;
    if (expired > 0) {
      this.log.splice(0, expired);
      this.ctx.storage.sql.exec('DELETE FROM hits WHERE at <= ?', cutoff);
    }

    const allowed = this.log.length < limit;
    if (allowed) {
      this.log.push(now);
      this.ctx.storage.sql.exec('INSERT INTO hits (at) VALUES (?)', now);
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
