// Audit trail rows in D1 (spec › Limits: retained 7 years). Rows past 90 days move to R2
// (src/scheduled/audit-archive.ts); src/services/audit-trail/ reads both as one list.
import { and, eq, gte, lte, type SQL } from 'drizzle-orm';
import type { Db } from '../client';
import { auditEvents } from '../schema';
import { cursorConditions } from '../cursor';
import type { CursorWindow } from '../../lib/pagination';

export type NewAuditEvent = typeof auditEvents.$inferInsert;

export function insertAuditEventStatement(db: Db, event: NewAuditEvent) {
  return db.insert(auditEvents).values(event);
}

/** A resource id computed by the batch the audit row goes in (SQL run in that batch). */
export type ComputedResourceId = SQL<string>;

/** An audit row whose resource id the batch it goes in computes. */
export function insertAuditEventWithResourceStatement(db: Db, event: NewAuditEvent, resourceId: ComputedResourceId) {
  return db.insert(auditEvents).values({ ...event, resourceId });
}

export async function insertAuditEvent(db: Db, event: NewAuditEvent): Promise<void> {
  await insertAuditEventStatement(db, event);
}

/**
 * A row the messages queue brings (src/middleware/audit › deferAuditRow): written unless the account's
 * trail already has its request's row, so a delivery repeated after its write changes nothing.
 */
export async function insertAuditEventOnce(db: Db, event: NewAuditEvent): Promise<void> {
  const [written] = await db
    .select({ id: auditEvents.id })
    .from(auditEvents)
    .where(and(eq(auditEvents.accountId, event.accountId), eq(auditEvents.requestId, event.requestId)))
    .limit(1);
  if (!written) await insertAuditEvent(db, event);
}

export type AuditEventFilters = {
  action?: string;
  resourceType?: string;
  resourceId?: string;
  userId?: number;
  createdAfter?: string;
  createdBefore?: string;
};

/** One window of the events still in D1 (a builder, so that it can share a `db.batch`). */
export function listAuditEvents(db: Db, accountId: number, filters: AuditEventFilters, window: CursorWindow) {
  const { where, orderBy } = cursorConditions(auditEvents.id, window);
  const conditions: (SQL | undefined)[] = [
    eq(auditEvents.accountId, accountId),
    filters.action ? eq(auditEvents.action, filters.action) : undefined,
    filters.resourceType ? eq(auditEvents.resourceType, filters.resourceType) : undefined,
    filters.resourceId ? eq(auditEvents.resourceId, filters.resourceId) : undefined,
    filters.userId ? eq(auditEvents.userId, filters.userId) : undefined,
    filters.createdAfter ? gte(auditEvents.createdAt, filters.createdAfter) : undefined,
    filters.createdBefore ? lte(auditEvents.createdAt, filters.createdBefore) : undefined,
    ...where,
  ];
  return db
    .select()
    .from(auditEvents)
    .where(and(...conditions))
    .orderBy(orderBy)
    .limit(window.take);
}
