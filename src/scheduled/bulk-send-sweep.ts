// Cron safety net for bulk sends: re-queues the chunks of a send that made no progress for 15 minutes
// (its queue message was lost). A chunk still on its way is stored once all the same: its claim.
import type { ShardScope } from '../db/shards';
import { takeStalledBulkChunks } from '../db/queries/bulk-sends';

/** Longer than a chunk's work and its first retries' backoff; a send storing chunks keeps its row fresh. */
const STALLED_MS = 15 * 60_000;
const BATCH = 100;

export async function requeueStalledBulkChunks({ db, queues }: Pick<ShardScope, 'db' | 'queues'>, now = Date.now()): Promise<number> {
  const chunks = await takeStalledBulkChunks(db, new Date(now - STALLED_MS).toISOString(), new Date(now).toISOString(), BATCH);
  if (chunks.length) await queues.messages.sendBatch(chunks.map((c) => ({ body: { type: 'bulk_send' as const, ...c } })));
  return chunks.length;
}
