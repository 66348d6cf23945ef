// Retention: rows that only record the past (dispatched outbox events, finished webhook attempts, sent or
// failed messages) are deleted once older than RETENTION_DAYS (default 30), so D1 does not grow without
// bound. Each run deletes at most PRUNE_BATCH rows per table, chosen by a subquery (two bound parameters,
// far under D1's 100); a backlog is worked off over the following minutes. Rows still needed are never
// touched: undispatched events, any attempt of a delivery still retrying, queued or sending messages.
import { pruneDispatchedEvents } from '../db/queries/events';
import { pruneFinishedMessages } from '../db/queries/messages';
import { pruneFinishedDeliveries } from '../db/queries/webhook-deliveries';
import type { ShardScope } from '../db/shards';

export const DEFAULT_RETENTION_DAYS = 30;
/** Rows per table per run: 500 a minute is 720,000 a day, one short statement each. */
export const PRUNE_BATCH = 500;
const DAY_MS = 24 * 60 * 60 * 1000;

/** `RETENTION_DAYS` when it is a whole number of days ≥ 1; otherwise the default (a typo never prunes everything). */
export function retentionDays(value: string | undefined): number {
  const days = Number(value);
  return value !== undefined && value.trim() !== '' && Number.isSafeInteger(days) && days >= 1 ? days : DEFAULT_RETENTION_DAYS;
}

export type PruneResult = { deliveries: number; events: number; messages: number };

export async function pruneExpiredRows({ db, env }: ShardScope, now: number, limit = PRUNE_BATCH): Promise<PruneResult> {
  const before = new Date(now - retentionDays(env.RETENTION_DAYS) * DAY_MS).toISOString();
  // Deliveries first: an event is deleted only once no delivery row names it (the foreign key).
  const deliveries = await pruneFinishedDeliveries(db, before, limit);
  const events = await pruneDispatchedEvents(db, before, limit);
  const messages = await pruneFinishedMessages(db, before, limit);
  return { deliveries, events, messages };
}
