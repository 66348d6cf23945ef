// One submission change as one D1 batch: the rows it moves, its outbox events, its trail and its
// messages commit together or not at all. Messages are handed to the queue once the batch committed.
import type { BatchItem } from 'drizzle-orm/batch';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { ApiError } from '../../lib/errors';
import { enqueueMessages, type MessageQueueBody } from '../mail/outbox';

/**
 * SQLite's error for `json_extract('{}', 'stale-guard')`, which `guarded` runs when a guarded update
 * changed nothing: an invalid JSON path, named in the message, so no other failure (a malformed JSON
 * value in a row, say) can be mistaken for it.
 */
const STALE = /bad JSON path: '?stale-guard/i;

export class ChangeSet {
  private statements: BatchItem<'sqlite'>[] = [];
  private messageSlots: number[] = [];

  constructor(private readonly db: Db) {}

  add(...statements: BatchItem<'sqlite'>[]): this {
    this.statements.push(...statements);
    return this;
  }

  /** A message insert that ends in `.returning({ id })`: its id is queued after the commit. */
  addMessage(statement: BatchItem<'sqlite'>): this {
    this.messageSlots.push(this.statements.length);
    this.statements.push(statement);
    return this;
  }

  /**
   * Adds `statement` (a guarded UPDATE) and fails the whole batch when it changed no row, so a change
   * computed from a state another request has just left is never half-applied. SQLite's changes()
   * reports the previous statement's row count; the invalid JSON path raises an error only when it is 0, and
   * an error rolls the whole D1 batch back.
   */
  guarded(statement: BatchItem<'sqlite'>): this {
    this.statements.push(statement);
    this.statements.push(this.db.run(sql`SELECT CASE WHEN changes() = 0 THEN json_extract('{}', 'stale-guard') ELSE 1 END`));
    return this;
  }

  get size(): number {
    return this.statements.length;
  }

  /** Runs the batch; a failed guard becomes `conflict` (409 by default). Returns the new message ids. */
  async commit(queue: Queue<MessageQueueBody> | undefined, conflict?: () => Error): Promise<number[]> {
    if (this.statements.length === 0) return [];
    let results: unknown[];
    try {
      results = await this.db.batch(this.statements as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]);
    } catch (error) {
      if (error instanceof Error && STALE.test(`${error.message} ${String((error as { cause?: unknown }).cause ?? '')}`)) {
        throw conflict ? conflict() : new ApiError(409, 'The submission changed while this request was processed; reload it and try again.');
      }
      throw error;
    }
    const ids = this.messageSlots.flatMap((i) => (results[i] as { id: number }[]).map((r) => r.id));
    // A lost queue message is re-sent by the messages sweep (src/scheduled/messages-sweep.ts).
    if (queue && ids.length) await enqueueMessages(queue, ids).catch((err) => console.error('enqueue messages failed', err));
    return ids;
  }
}
