// The isolate's side of the RateLimiter's leases: spends lent slots locally, settles them on the next call.
import type { RateLimitDecision, SlotLease, TakeRequest } from '../../../durable-objects/rate-limiter';

/** What the leases need of a limiter: the RateLimiter stub's one method. */
export type Limiter = { take(request: TakeRequest): Promise<RateLimitDecision> };

type Held = SlotLease & {
  limit: number;
  /** The limiter's `remaining` when it lent the lease (the lease's slots counted as used). */
  remaining: number;
  resetAt: number;
  /** When each slot spent so far was spent, for the settlement. */
  spent: number[];
};

export type SlotLeaseOptions = {
  /** Slots to ask for beyond the request itself; the limiter grants fewer, or none, near the limit. */
  want?: number;
  /** Keys held at once; past it the oldest lease is forgotten (its slots stay counted until they expire). */
  maxKeys?: number;
};

/** How a request refused while another asks for its key's lease waits for that lease: in steps, at most this long. */
const LEASE_WAIT_STEP_MS = 5;
const LEASE_WAIT_LIMIT_MS = 2_000;

/**
 * One per isolate. A request spends a slot of its key's lease when one is left and unexpired;
 * otherwise it calls the limiter, settling the ended lease and asking for a new one. While one
 * request of a key is asking, concurrent ones call plainly (one lease per key); if the limiter refuses
 * them, they wait for that lease and spend from it, since slots it lent this isolate are this
 * isolate's to use. So one isolate admits exactly `limit`, and many together never more.
 */
export class SlotLeases {
  private readonly held = new Map<string, Held>();
  private readonly asking = new Map<string, Promise<unknown>>();
  private readonly want: number;
  private readonly maxKeys: number;

  constructor(options: SlotLeaseOptions = {}) {
    this.want = options.want ?? 10;
    this.maxKeys = options.maxKeys ?? 10_000;
  }

  async admit(key: string, limit: number, windowMs: number, limiter: Limiter): Promise<RateLimitDecision> {
    const local = this.spend(key, limit, windowMs);
    if (local) return local;
    const settle = this.release(key);
    const pending = this.asking.get(key);
    if (pending) {
      const decision = await limiter.take({ limit, windowMs, settle });
      if (decision.allowed) return decision;
      // Wait for that lease on this request's own timers: the asking request's promise is its own I/O,
      // which workerd does not let another request await (it fails it, or cancels it as hung).
      for (let waited = 0; this.asking.get(key) === pending && waited < LEASE_WAIT_LIMIT_MS; waited += LEASE_WAIT_STEP_MS) {
        await new Promise((resolve) => setTimeout(resolve, LEASE_WAIT_STEP_MS));
      }
      return this.spend(key, limit, windowMs) ?? decision;
    }
    const asking = limiter.take({ limit, windowMs, lease: this.want, settle }).then((decision) => {
      if (!decision.lease) return decision;
      this.hold(key, limit, decision, decision.lease);
      // The limiter counts the lent slots as used; to the isolate holding them they are still to come.
      return { ...decision, remaining: decision.remaining + decision.lease.slots };
    });
    this.asking.set(key, asking);
    try {
      return await asking;
    } finally {
      this.asking.delete(key);
    }
  }

  /** A decision from the key's lease, spending one slot, or null when it has none to give. */
  private spend(key: string, limit: number, windowMs: number): RateLimitDecision | null {
    const lease = this.held.get(key);
    const now = Date.now();
    if (!lease || lease.slots === 0 || now >= lease.expiresAt || lease.limit !== limit) return null;
    lease.slots -= 1;
    lease.spent.push(now);
    return {
      allowed: true,
      limit,
      // Exact while this isolate is the token's only client: nothing else moved the window since.
      remaining: lease.remaining + lease.slots,
      resetAt: lease.resetAt > now ? lease.resetAt : lease.spent[0] + windowMs,
    };
  }

  /** Takes an ended lease off the key, as the settlement the next call carries. */
  private release(key: string): TakeRequest['settle'] {
    const lease = this.held.get(key);
    if (!lease) return undefined;
    this.held.delete(key);
    return { id: lease.id, spent: lease.spent };
  }

  private hold(key: string, limit: number, decision: RateLimitDecision, lease: SlotLease): void {
    this.held.delete(key);
    if (this.held.size >= this.maxKeys) this.held.delete(this.held.keys().next().value!);
    this.held.set(key, { ...lease, limit, remaining: decision.remaining, resetAt: decision.resetAt, spent: [] });
  }
}
