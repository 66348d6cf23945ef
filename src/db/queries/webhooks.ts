// Webhook endpoint rows. Deleted endpoints keep their row (deleted_at) but are never found here; the
// delivery consumer reads them with its claim (webhook-deliveries.ts) and closes off their pending attempts.
import { and, count, eq, isNull } from 'drizzle-orm';
import type { Db } from '../client';
import { webhooks, type Webhook } from '../schema';
import { cursorConditions } from '../cursor';
import type { CursorWindow } from '../../lib/pagination';

export type NewWebhook = Pick<Webhook, 'accountId' | 'url' | 'events' | 'secret' | 'enabled'>;
export type WebhookChanges = Partial<Pick<Webhook, 'url' | 'events' | 'secret' | 'enabled'>>;

const live = (accountId: number) => and(eq(webhooks.accountId, accountId), isNull(webhooks.deletedAt));

export async function insertWebhook(db: Db, values: NewWebhook): Promise<Webhook> {
  const [row] = await db.insert(webhooks).values(values).returning();
  return row;
}

export async function getWebhook(db: Db, accountId: number, id: number): Promise<Webhook | undefined> {
  return db
    .select()
    .from(webhooks)
    .where(and(live(accountId), eq(webhooks.id, id)))
    .get();
}

export async function listWebhooks(db: Db, accountId: number, window: CursorWindow): Promise<Webhook[]> {
  const { where, orderBy } = cursorConditions(webhooks.id, window);
  return db
    .select()
    .from(webhooks)
    .where(and(live(accountId), ...where))
    .orderBy(orderBy)
    .limit(window.take);
}

export async function countWebhooks(db: Db, accountId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(webhooks).where(live(accountId));
  return row.n;
}

export async function updateWebhook(
  db: Db,
  accountId: number,
  id: number,
  changes: WebhookChanges,
  at: string,
): Promise<Webhook | undefined> {
  const [row] = await db
    .update(webhooks)
    .set({ ...changes, updatedAt: at })
    .where(and(live(accountId), eq(webhooks.id, id)))
    .returning();
  return row;
}

export async function deleteWebhook(db: Db, accountId: number, id: number, at: string): Promise<boolean> {
  const rows = await db
    .update(webhooks)
    .set({ deletedAt: at, enabled: false, updatedAt: at })
    .where(and(live(accountId), eq(webhooks.id, id)))
    .returning({ id: webhooks.id });
  return rows.length > 0;
}

/**
 * The account's enabled endpoints, as a statement for the batch that writes its events: the candidates
 * of the inline fan-out (services/webhooks/fan-out.ts › dispatchWritten), read as the events commit.
 */
export function enabledWebhooksStatement(db: Db, accountId: number) {
  return db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.accountId, accountId), eq(webhooks.enabled, true), isNull(webhooks.deletedAt)));
}

/** Whether the account has an enabled, undeleted endpoint on this shard. */
export async function hasEnabledWebhook(db: Db, accountId: number): Promise<boolean> {
  const row = await db
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(and(eq(webhooks.accountId, accountId), eq(webhooks.enabled, true), isNull(webhooks.deletedAt)))
    .limit(1)
    .get();
  return row !== undefined;
}
