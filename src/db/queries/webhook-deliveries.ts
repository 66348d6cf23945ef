// Webhook delivery log rows: one per attempt. The pending row of a delivery is the work item; a consumer
// takes it with a lease (a conditional UPDATE), so two consumers never attempt the same row at once.
import { and, asc, eq, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import { inList, insertInChunks } from '../bound-parameters';
import { notFenced } from '../fences';
import type { Db } from '../client';
import { webhookDeliveries, type NewWebhookDelivery, type WebhookDelivery } from '../schema';
import { cursorConditions } from '../cursor';
import type { CursorWindow } from '../../lib/pagination';

const d = webhookDeliveries;

/**
 * Inserts for a fan-out; a row whose (event, endpoint) already has one is skipped, so running the same
 * fan-out twice inserts nothing. Each statement returns the uuids it really inserted.
 */
export function fanOutInserts(db: Db, rows: NewWebhookDelivery[]) {
  return insertInChunks(rows, (chunk) => db.insert(d).values(chunk).onConflictDoNothing().returning({ deliveryUuid: d.deliveryUuid }));
}

export async function insertDelivery(db: Db, values: NewWebhookDelivery): Promise<WebhookDelivery> {
  const [row] = await db.insert(d).values(values).returning();
  return row;
}

/**
 * Takes the due pending attempts of these deliveries until `leaseUntil`, in one statement. A delivery
 * missing from the result has nothing to take: finished, not yet due, or held by a live lease elsewhere.
 */
export async function claimDueAttempts(db: Db, deliveryUuids: string[], now: string, leaseUntil: string): Promise<WebhookDelivery[]> {
  if (deliveryUuids.length === 0) return [];
  return db
    .update(d)
    .set({ leaseUntil })
    .where(
      and(
        inList(d.deliveryUuid, deliveryUuids),
        eq(d.status, 'pending'),
        lte(d.nextAttemptAt, now),
        or(isNull(d.leaseUntil), lt(d.leaseUntil, now)),
      ),
    )
    .returning();
}

/** When each of these deliveries' pending attempt is due (deliveries with none are absent). */
export async function pendingDueTimes(db: Db, deliveryUuids: string[]): Promise<Map<string, string | null>> {
  if (deliveryUuids.length === 0) return new Map();
  const rows = await db
    .select({ deliveryUuid: d.deliveryUuid, nextAttemptAt: d.nextAttemptAt })
    .from(d)
    .where(and(inList(d.deliveryUuid, deliveryUuids), eq(d.status, 'pending')));
  return new Map(rows.map((r) => [r.deliveryUuid, r.nextAttemptAt]));
}

export type AttemptOutcome = Pick<
  WebhookDelivery,
  'status' | 'url' | 'requestHeaders' | 'httpStatus' | 'responseBody' | 'responseTimeMs' | 'errorMessage' | 'attemptedAt' | 'deliveredAt'
>;

export type RecordedAttempt = { row: WebhookDelivery; outcome: AttemptOutcome; next: NewWebhookDelivery | null };

/**
 * Records attempts and, for failures with attempts left, schedules the next ones — all in one batch, so a
 * crash leaves the attempts still pending (retaken when their lease runs out) or everything written. The
 * unique (delivery_uuid, attempt) index makes recording the same attempt twice schedule one retry.
 */
export async function recordAttempts(db: Db, attempts: RecordedAttempt[]): Promise<void> {
  if (attempts.length === 0) return;
  const statements = attempts.flatMap(({ row, outcome, next }) => {
    const update = db
      .update(d)
      .set({ ...outcome, nextAttemptAt: null, leaseUntil: null })
      .where(and(eq(d.id, row.id), eq(d.status, 'pending')));
    return next ? [update, db.insert(d).values(next).onConflictDoNothing()] : [update];
  });
  await db.batch(statements as [(typeof statements)[number], ...(typeof statements)[number][]]);
}

export async function getDelivery(db: Db, accountId: number, webhookId: number, id: number): Promise<WebhookDelivery | undefined> {
  return db
    .select()
    .from(d)
    .where(and(eq(d.accountId, accountId), eq(d.webhookId, webhookId), eq(d.id, id)))
    .get();
}

export type DeliveryFilters = { status?: string; event?: string };

export async function listDeliveries(
  db: Db,
  accountId: number,
  webhookId: number,
  filters: DeliveryFilters,
  window: CursorWindow,
): Promise<WebhookDelivery[]> {
  const { where, orderBy } = cursorConditions(d.id, window);
  const conditions: (SQL | undefined)[] = [
    eq(d.webhookId, webhookId),
    eq(d.accountId, accountId),
    filters.status ? eq(d.status, filters.status) : undefined,
    filters.event ? eq(d.event, filters.event) : undefined,
    ...where,
  ];
  return db
    .select()
    .from(d)
    .where(and(...conditions))
    .orderBy(orderBy)
    .limit(window.take);
}

/**
 * Pending attempts due before `dueBefore` whose lease (if any) has run out: their wake-up message was
 * lost (crash between commit and send) or their consumer died mid-attempt.
 */
export async function strandedDeliveryUuids(db: Db, dueBefore: string, now: string, limit: number): Promise<string[]> {
  const rows = await db
    .select({ deliveryUuid: d.deliveryUuid })
    .from(d)
    .where(and(eq(d.status, 'pending'), lte(d.nextAttemptAt, dueBefore), or(isNull(d.leaseUntil), lt(d.leaseUntil, now))))
    .orderBy(asc(d.nextAttemptAt))
    .limit(limit);
  return rows.map((r) => r.deliveryUuid);
}


/**
 * Retention: deletes up to `limit` finished attempt rows (success or failed) created before `before`,
 * skipping every row of a delivery that still has a pending attempt, so a retrying delivery keeps its
 * whole history. Ids are chosen by a subquery, so the statement binds two parameters whatever `limit` is.
 */
export async function pruneFinishedDeliveries(db: Db, before: string, limit: number): Promise<number> {
  const doomed = db
    .select({ id: d.id })
    .from(d)
    .where(
      and(
        lt(d.createdAt, before),
        sql`${d.status} <> 'pending'`,
        sql`NOT EXISTS (SELECT 1 FROM ${d} AS p WHERE p.delivery_uuid = ${d.deliveryUuid} AND p.status = 'pending')`,
        notFenced(d.accountId),
      ),
    )
    .orderBy(asc(d.createdAt))
    .limit(limit)
    .as('doomed');
  const deleted = await db.delete(d).where(sql`${d.id} IN (SELECT ${doomed.id} FROM ${doomed})`).returning({ id: d.id });
  return deleted.length;
}
