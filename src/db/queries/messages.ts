// Outbound message rows.
import { and, asc, desc, eq, lt, sql, type SQL } from 'drizzle-orm';
import { notFenced } from '../fences';
import type { Db } from '../client';
import { idBySlug, insertRows } from '../row-inserts';
import { messages, submissionEvents, submitters, type Message, type NewMessage, type SubmissionEventAction } from '../schema/index';

export function messageInsert(db: Db, message: NewMessage) {
  return db.insert(messages).values(message).returning({ id: messages.id });
}

export async function getMessage(db: Db, id: number): Promise<Message | undefined> {
  return db.select().from(messages).where(eq(messages.id, id)).get();
}

/**
 * Claims one delivery attempt: counts it and returns the row only while it is still queued, so two
 * consumers handed the same message cannot both send it.
 */
export async function claimAttempt(db: Db, id: number, transport: string, at: string): Promise<Message | undefined> {
  const [row] = await db
    .update(messages)
    .set({ attempts: sql`${messages.attempts} + 1`, transport, status: 'sending', claimedAt: at })
    .where(and(eq(messages.id, id), eq(messages.status, 'queued')))
    .returning();
  return row;
}

/**
 * Marks a message sent; `redacted` replaces its stored text and html (a delivered secret is not kept).
 * `trail` is written in the same batch: the submission's audit trail row saying the transport took it.
 */
export async function markSent(
  db: Db,
  id: number,
  providerId: string | null,
  at: string,
  redacted?: Pick<Message, 'text' | 'html'>,
  trail?: {
    message: Pick<Message, 'accountId' | 'submissionId' | 'submitterId'>;
    action: SubmissionEventAction;
    data: Record<string, unknown>;
  },
): Promise<void> {
  const update = db
    .update(messages)
    .set({ status: 'sent', providerId, sentAt: at, error: null, ...redacted })
    .where(eq(messages.id, id));
  const { submissionId, submitterId } = trail?.message ?? {};
  if (!trail || !submissionId || !submitterId) {
    await update;
    return;
  }
  // Only while the submitter still exists (a submission deleted for good takes its trail with it), so a
  // late delivery never fails on the foreign key. insert().select(sql) lists every column, in order.
  const row = db.insert(submissionEvents).select(sql`
    SELECT NULL, ${trail.message.accountId}, ${submissionId}, ${submitterId}, ${trail.action}, NULL, NULL, ${JSON.stringify(trail.data)}, ${at}
    WHERE EXISTS (SELECT 1 FROM ${submitters} WHERE ${submitters.id} = ${submitterId} AND ${submitters.submissionId} = ${submissionId})`);
  await db.batch([update, row]);
}

/**
 * Records what the provider reported about a sent text message (its status callback) on the
 * submitter's trail: once per message and status however often the callback comes (one statement, so
 * two deliveries at once still write one row), and only while the submitter exists. Returns whether a
 * row was written.
 */
export async function recordDeliveryStatus(
  db: Db,
  message: Pick<Message, 'accountId' | 'submissionId' | 'submitterId' | 'providerId'>,
  action: string,
  data: Record<string, unknown> & { status: string },
  at: string,
): Promise<boolean> {
  const { submissionId, submitterId, providerId } = message;
  if (!submissionId || !submitterId || !providerId) return false;
  const inserted = await db.insert(submissionEvents).select(sql`
    SELECT NULL, ${message.accountId}, ${submissionId}, ${submitterId}, ${action}, NULL, NULL, ${JSON.stringify(data)}, ${at}
    WHERE EXISTS (SELECT 1 FROM ${submitters} WHERE ${submitters.id} = ${submitterId} AND ${submitters.submissionId} = ${submissionId})
    AND NOT EXISTS (
      SELECT 1 FROM ${submissionEvents} WHERE ${submissionEvents.submitterId} = ${submitterId} AND ${submissionEvents.action} = ${action}
      AND json_extract(${submissionEvents.data}, '$.provider_id') = ${providerId} AND json_extract(${submissionEvents.data}, '$.status') = ${data.status}
    )`);
  return (inserted.meta?.changes ?? 0) > 0;
}

/** After a failed attempt: queued again for a retry, or failed for good. */
export async function markAttemptFailed(db: Db, id: number, error: string, final: boolean): Promise<void> {
  await db
    .update(messages)
    .set({ status: final ? 'failed' : 'queued', error: error.slice(0, 1000) })
    .where(eq(messages.id, id));
}

/**
 * The cron sweep's work: attempts that started before `claimedBefore` and never finished (the consumer
 * died mid-send) are queued again; then the ids of messages queued since before `queuedBefore`, whose
 * queue message may have been lost, are returned to be enqueued again.
 */
export async function reclaimStalled(db: Db, queuedBefore: string, claimedBefore: string, limit: number): Promise<number[]> {
  await db
    .update(messages)
    .set({ status: 'queued' })
    // One fenced row would abort the whole statement for every account of the shard (src/db/fences.ts).
    .where(and(eq(messages.status, 'sending'), lt(messages.claimedAt, claimedBefore), notFenced(messages.accountId)));
  const rows = await db
    .select({ id: messages.id })
    .from(messages)
    .where(
      and(
        eq(messages.status, 'queued'),
        lt(sql`coalesce(${messages.claimedAt}, ${messages.createdAt})`, queuedBefore),
        notFenced(messages.accountId),
      ),
    )
    .orderBy(messages.id)
    .limit(limit);
  return rows.map((r) => r.id);
}

export type OutboxFilters = { recipient?: string; kind?: string; accountId?: number };

/** The development inbox (GET /dev/outbox), newest first. */
export async function listOutbox(db: Db, filters: OutboxFilters, limit: number): Promise<Message[]> {
  const conditions: (SQL | undefined)[] = [
    filters.recipient ? sql`lower(${messages.recipient}) = lower(${filters.recipient})` : undefined,
    filters.kind ? eq(messages.kind, filters.kind) : undefined,
    filters.accountId ? eq(messages.accountId, filters.accountId) : undefined,
  ];
  return db
    .select()
    .from(messages)
    .where(and(...conditions))
    .orderBy(desc(messages.id))
    .limit(limit);
}

/** A message about a submitter written in the same batch as the submitter itself (found by slugs). */
export type MessageForNewRows = { message: NewMessage; submissionSlug: string; submitterSlug: string };

/**
 * The messages of a create request, in multi-row inserts within D1's bound parameters (row-inserts.ts),
 * each ending in `RETURNING id` so the batch answers with their ids (ChangeSet.addMessage).
 */
export function messageInsertsForNewRows(db: Db, rows: readonly MessageForNewRows[]) {
  return insertRows(
    db,
    messages,
    rows.map(({ message, submissionSlug, submitterSlug }) => ({
      ...message,
      submissionId: idBySlug('submissions', submissionSlug),
      submitterId: idBySlug('submitters', submitterSlug),
    })),
    { returningId: true },
  );
}

/**
 * Retention: deletes up to `limit` messages that are done (sent, or failed for good) and were created
 * before `before`. Queued and sending rows are never touched. Ids are chosen by a subquery, so the
 * statement binds two parameters whatever `limit` is.
 */
export async function pruneFinishedMessages(db: Db, before: string, limit: number): Promise<number> {
  const doomed = db
    .select({ id: messages.id })
    .from(messages)
    .where(and(sql`${messages.status} IN ('sent', 'failed')`, lt(messages.createdAt, before), notFenced(messages.accountId)))
    .orderBy(asc(messages.createdAt))
    .limit(limit)
    .as('doomed');
  const deleted = await db
    .delete(messages)
    .where(sql`${messages.id} IN (SELECT ${doomed.id} FROM ${doomed})`)
    .returning({ id: messages.id });
  return deleted.length;
}
