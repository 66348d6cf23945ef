// Idempotency keys of one API token or partner key: who holds a key, and the response it produced.
import { DurableObject } from 'cloudflare:workers';

/** spec › Limits: "Idempotency key lifetime: 24 hours". */
export const IDEMPOTENCY_KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;

export type StoredResponse = {
  status: number;
  headers: [string, string][];
  body: ArrayBuffer;
  /** What the request did, so a replay can be audited against the same resource. */
  note: string | null;
};

export type BeginOutcome =
  | { outcome: 'proceed' }
  | { outcome: 'in_flight' }
  | { outcome: 'mismatch' }
  | ({ outcome: 'replay' } & StoredResponse);

type KeyRow = {
  fingerprint: string;
  state: 'running' | 'done';
  status: number | null;
  headers: string | null;
  body: ArrayBuffer | null;
  note: string | null;
  expires_at: number;
  lease_until: number;
};

/**
 * `begin` claims a key or reports what holds it, in one synchronous step: a Durable Object runs one
 * call at a time and nothing here awaits before the claim is written, so of 20 concurrent requests with
 * one key exactly one proceeds. Keys expire 24 h after first use; an alarm deletes them then.
 */
export class IdempotencyStore extends DurableObject {
  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env);
    ctx.storage.sql.exec(`CREATE TABLE IF NOT EXISTS idempotency_keys (
      key TEXT PRIMARY KEY,
      fingerprint TEXT NOT NULL,
      state TEXT NOT NULL,
      status INTEGER,
      headers TEXT,
      body BLOB,
      note TEXT,
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      lease_until INTEGER NOT NULL
    )`);
    ctx.storage.sql.exec('CREATE INDEX IF NOT EXISTS idempotency_keys_expiry ON idempotency_keys (expires_at)');
  }

  /**
   * Claims `key` for a request with this fingerprint, or says why it cannot run. `leaseMs` bounds how
   * long a claim survives a request that never reports back (a crashed isolate): after it, the key is
   * free again instead of answering 409 for a day.
   */
  async begin(key: string, fingerprint: string, leaseMs: number): Promise<BeginOutcome> {
    const now = Date.now();
    const sql = this.ctx.storage.sql;
    let row: KeyRow | undefined = sql.exec<KeyRow>('SELECT * FROM idempotency_keys WHERE key = ?', key).toArray()[0];
    if (row && (row.expires_at <= now || (row.state === 'running' && row.lease_until <= now))) {
      sql.exec('DELETE FROM idempotency_keys WHERE key = ?', key);
      row = undefined;
    }
    if (row) {
      if (row.fingerprint !== fingerprint) return { outcome: 'mismatch' };
      if (row.state === 'running') return { outcome: 'in_flight' };
      return {
        outcome: 'replay',
        status: row.status!,
        headers: JSON.parse(row.headers ?? '[]'),
        body: row.body ?? new ArrayBuffer(0),
        note: row.note,
      };
    }
    const expiresAt = now + IDEMPOTENCY_KEY_LIFETIME_MS;
    sql.exec(
      `INSERT INTO idempotency_keys (key, fingerprint, state, created_at, expires_at, lease_until)
       VALUES (?, ?, 'running', ?, ?, ?)`,
      key,
      fingerprint,
      now,
      expiresAt,
      now + leaseMs,
    );
    // Every key lives equally long, so the earliest alarm is always the oldest key's: set one only
    // when none is pending (the alarm handler re-arms itself for the next key).
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(expiresAt);
    return { outcome: 'proceed' };
  }

  /** Stores the response of the request that holds `key`; a replay returns it from now on. */
  complete(key: string, fingerprint: string, response: StoredResponse): void {
    this.ctx.storage.sql.exec(
      `UPDATE idempotency_keys SET state = 'done', status = ?, headers = ?, body = ?, note = ?
       WHERE key = ? AND fingerprint = ? AND state = 'running'`,
      response.status,
      JSON.stringify(response.headers),
      response.body,
      response.note,
      key,
      fingerprint,
    );
  }

  /** Frees a key whose request failed without an answer worth replaying (a 5xx), so a retry runs. */
  release(key: string, fingerprint: string): void {
    this.ctx.storage.sql.exec(
      "DELETE FROM idempotency_keys WHERE key = ? AND fingerprint = ? AND state = 'running'",
      key,
      fingerprint,
    );
  }

  /** Forgets expired keys, then sleeps until the next one expires. */
  async alarm(): Promise<void> {
    const sql = this.ctx.storage.sql;
    sql.exec('DELETE FROM idempotency_keys WHERE expires_at <= ?', Date.now());
    const next = sql.exec<{ at: number | null }>('SELECT min(expires_at) AS at FROM idempotency_keys').one().at;
    if (next !== null) await this.ctx.storage.setAlarm(next);
  }
}
