// A rolling-window request log for one credential: an API token (spec › Limits: 120/min), a partner
// key, a client address's failed authentications (docs/limits.md › Failed authentication), or on /s/* a
// signing link or a client address (docs/limits.md); it may lend a few pre-counted slots to an isolate so
// most requests need no call to it.
import { DurableObject } from 'cloudflare:workers';

/** A batch of slots counted here and spent by the isolate that holds them (docs/limits.md › Leases). */
export type SlotLease = {
  id: string;
  /** Slots beyond the request that asked; each may admit one request until `expiresAt`. */
  slots: number;
  /** Unix time (ms) after which no slot of the lease may be spent. */
  expiresAt: number;
};

export type TakeRequest = {
  limit: number;
  windowMs: number;
  /** Extra slots the caller would like to hold as a lease (0 or absent: this request only). */
  lease?: number;
  /** Ends a lease the caller held, with the times its slots were spent; the rest are returned. */
  settle?: { id: string; spent: number[] };
};

export type RateLimitDecision = {
  allowed: boolean;
  limit: number;
  /** Requests still allowed in the current window, after this one (a lease's slots count as used). */
  remaining: number;
  /** Unix time (ms) when the oldest counted request leaves the window and a slot frees up. */
  resetAt: number;
  /** Granted only when asked for and the window has room to spare. */
  lease?: SlotLease;
};

/** An outstanding lease: its slots count as used until it is settled, or until `expiresAt + window`. */
type HeldLease = { slots: number; grantedAt: number; expiresAt: number };

/**
 * How long a lease may be spent from; at most half the window. Longer leases mean fewer calls for a
 * steady client (one per lease), at the price of slots stranded in a vanished isolate staying counted
 * longer (expiry plus a window) and of `X-RateLimit-Remaining` lagging other isolates for as long.
 */
const LEASE_MS = 30_000;

/**
 * A sliding-window log: the timestamps of the requests admitted in the last `windowMs`. A request is
 * admitted when fewer than `limit` slots are in use, so the count is exact at every instant, unlike
 * fixed windows (2× bursts at the boundary) or approximated sliding counters.
 *
 * `take` does its whole read-decide-write without awaiting, and a Durable Object runs one such call
 * at a time, so 200 concurrent requests on one token admit exactly `limit` (test/api/rate-limit).
 * Refused requests are not logged: a client that keeps retrying too early does not push its own
 * window further out.
 *
 * Leases: calling this object is most of what rate limiting costs (a network hop in production, a
 * cross-actor call locally; docs/limits.md), so while a token's window is at most half full a call may
 * also lend its isolate a few slots. They count as used from the moment they are lent. When the holder
 * next calls it settles the lease with the times it really spent them, which go into the log exactly
 * as if each request had called, and the unspent slots come back. A lease that is never settled keeps
 * all its slots counted until its expiry plus a full window, as if each had been spent at the last
 * moment. So every admitted request holds a slot for at least a window, and no more than `limit` are
 * ever admitted in any window. Leases stop once the window is half full and together never hold more
 * than a quarter of the limit, so a token near its limit is counted request by request.
 *
 * The state lives in memory and is snapshotted to storage with `allowUnconfirmed`, so a restarted
 * object (deploy, eviction) resumes counting where it was, yet no response waits for that write to
 * be confirmed. The snapshot is at most `limit` numbers plus the open leases.
 */
export class RateLimiter extends DurableObject {
  /** Admitted request times, oldest first (settled leases insert theirs in order). */
  private readonly log: number[];
  private readonly leases: Map<string, HeldLease>;

  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env);
    // One key, one read when an evicted object starts again (earlier snapshots held only the log).
    const state = ctx.storage.kv.get<{ log: number[]; leases: [string, HeldLease][] }>('state');
    this.log = state?.log ?? ctx.storage.kv.get<number[]>('log') ?? [];
    this.leases = new Map(state?.leases ?? []);
  }

  take(request: TakeRequest): RateLimitDecision {
    const { limit, windowMs } = request;
    const now = Date.now();
    const cutoff = now - windowMs;
    let changed = this.settle(request.settle, now, cutoff);
    changed = this.prune(cutoff) || changed;

    let leased = 0;
    for (const lease of this.leases.values()) leased += lease.slots;
    let used = this.log.length + leased;
    const allowed = used < limit;
    let lease: SlotLease | undefined;
    if (allowed) {
      this.log.push(now);
      used += 1;
      changed = true;
      // Only with room to spare: the window at most half full after the lease, and leases together
      // holding at most a quarter of the limit. A lease of one slot would save nothing.
      const slots = Math.min(request.lease ?? 0, Math.floor(limit / 2) - used, Math.floor(limit / 4) - leased);
      if (slots >= 2) {
        lease = { id: crypto.randomUUID(), slots, expiresAt: now + Math.min(LEASE_MS, Math.floor(windowMs / 2)) };
        this.leases.set(lease.id, { slots, grantedAt: now, expiresAt: lease.expiresAt });
        used += slots;
      }
    }
    if (changed) this.snapshot();
    return { allowed, limit, remaining: Math.max(0, limit - used), resetAt: this.nextFreeAt(now, windowMs), ...(lease ? { lease } : {}) };
  }

  /**
   * Whether a request would be admitted now, without counting one: for limits that count only
   * failures (console sign-in per account), which must refuse before the attempt is made.
   */
  peek(request: Pick<TakeRequest, 'limit' | 'windowMs'>): RateLimitDecision {
    const now = Date.now();
    if (this.prune(now - request.windowMs)) this.snapshot();
    let used = this.log.length;
    for (const lease of this.leases.values()) used += lease.slots;
    return {
      allowed: used < request.limit,
      limit: request.limit,
      remaining: Math.max(0, request.limit - used),
      resetAt: this.nextFreeAt(now, request.windowMs),
    };
  }

  /** Replaces a lease's counted slots by the times its holder really spent them. */
  private settle(settle: TakeRequest['settle'], now: number, cutoff: number): boolean {
    const lease = settle && this.leases.get(settle.id);
    if (!settle || !lease) return false; // unknown, or already past its expiry plus a window
    this.leases.delete(settle.id);
    // A spend cannot precede the grant or follow this call; clamping keeps a confused or skewed
    // holder from moving slots out of the window early. Never more entries than slots lent.
    for (const at of settle.spent.slice(0, lease.slots)) {
      const time = Math.min(now, Math.max(lease.grantedAt, Number(at) || lease.expiresAt));
      if (time <= cutoff) continue;
      let i = this.log.length;
      while (i > 0 && this.log[i - 1] > time) i -= 1;
      this.log.splice(i, 0, time);
    }
    return true;
  }

  private prune(cutoff: number): boolean {
    let expired = 0;
    while (expired < this.log.length && this.log[expired] <= cutoff) expired += 1;
    if (expired > 0) this.log.splice(0, expired);
    let dropped = false;
    for (const [id, lease] of this.leases) {
      if (lease.expiresAt <= cutoff) dropped = this.leases.delete(id);
    }
    return expired > 0 || dropped;
  }

  /** When the next slot frees: the oldest logged request leaving, or an unsettled lease running out. */
  private nextFreeAt(now: number, windowMs: number): number {
    let next = this.log.length > 0 ? this.log[0] + windowMs : Infinity;
    for (const lease of this.leases.values()) next = Math.min(next, lease.expiresAt + windowMs);
    return Number.isFinite(next) ? next : now + windowMs;
  }

  private snapshot(): void {
    // Only durability across a restart is at stake; the in-memory state stays exact.
    this.ctx.storage.put('state', { log: this.log, leases: [...this.leases] }, { allowUnconfirmed: true }).catch(() => undefined);
  }
}
