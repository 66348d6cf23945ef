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
  /** R2 key of a body too large to keep here (the middleware stored it); `body` is empty then. */
  bodyRef?: string | null;
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
  body_ref: string | null;
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
    // Added after the table first shipped: objects created before have the table without it.
    const columns = ctx.storage.sql.exec<{ name: string }>('PRAGMA table_info(idempotency_keys)').toArray();
    if (!columns.some((c) => c.name === 'body_ref')) ctx.storage.sql.exec('ALTER TABLE idempotency_keys ADD COLUMN body_ref TEXT');
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
        bodyRef: row.body_ref,
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
      `UPDATE idempotency_keys SET state = 'done', status = ?, headers = ?, body = ?, note = ?, body_ref = ?
       WHERE key = ? AND fingerprint = ? AND state = 'running'`,
      response.status,
      JSON.stringify(response.headers),
      response.body,
      response.note,
      response.bodyRef ?? null,
      key,
      fingerprint,
    );
  }

  /** Frees a key whose request failed without an answer worth replaying (a 5xx), so a retry runs. */
  release(key: string, fingerprint: string): void {
    this.ctx.storage.sql.exec("DELETE FROM idempotency_keys WHERE key = ? AND fingerprint = ? AND state = 'running'", key, fingerprint);
  }

  /** Forgets expired keys, then sleeps until the next one expires. */
  async alarm(): Promise<void> {
    const sql = this.ctx.storage.sql;
    const now = Date.now();
    // Large bodies live in R2 (the Worker's FILES bucket); they go with their keys.
    const refs = sql
      .exec<{ body_ref: string }>('SELECT body_ref FROM idempotency_keys WHERE expires_at <= ? AND body_ref IS NOT NULL', now)
      .toArray()
      .map((r) => r.body_ref);
    const files = (this.env as { FILES?: R2Bucket }).FILES;
    for (let i = 0; files && i < refs.length; i += 1000) await files.delete(refs.slice(i, i + 1000));
    sql.exec('DELETE FROM idempotency_keys WHERE expires_at <= ?', now);
    const next = sql.exec<{ at: number | null }>('SELECT min(expires_at) AS at FROM idempotency_keys').one().at;
    if (next !== null) await this.ctx.storage.setAlarm(next);
  }
}
