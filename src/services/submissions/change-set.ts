// One submission change as one D1 batch: the rows it moves, its outbox events, its trail and its
// messages commit together or not at all. Messages are handed to the queue once the batch committed.
import type { Batch, BatchStatement, Db } from '../../db/client';
import { isStaleGuardFailure, staleGuardStatement } from '../../db/queries/stale-guard';
import { ApiError } from '../../lib/errors';
import { enqueueMessages } from '../mail/outbox';
import type { MessageQueueBody } from '../../env';

export class ChangeSet {
  private statements: BatchStatement[] = [];
  private messageSlots: number[] = [];
  private results: unknown[] | undefined;

  constructor(private readonly db: Db) {}

  add(...statements: BatchStatement[]): this {
    this.statements.push(...statements);
    return this;
  }

  /** A message insert that ends in `.returning({ id })`: its id is queued after the commit. */
  addMessage(statement: BatchStatement): this {
    this.messageSlots.push(this.statements.length);
    this.statements.push(statement);
    return this;
  }

  /**
   * Adds `statement` (a guarded UPDATE) and fails the whole batch when it changed no row, so a change
   * computed from a state another request has just left is never half-applied (the stale guard of
   * db/queries/stale-guard.ts).
   */
  guarded(statement: BatchStatement): this {
    this.statements.push(statement);
    this.statements.push(staleGuardStatement(this.db));
    return this;
  }

  /**
   * A select run last in the batch, in its transaction, so it reads the rows the batch wrote (a read
   * back without another round trip); add it after every write. Its rows: `rowsOf(slot)` after the commit.
   */
  addRead(statement: BatchStatement): number {
    this.statements.push(statement);
    return this.statements.length - 1;
  }

  /** The rows of a statement added with `addRead`, once the batch committed. */
  rowsOf<T>(slot: number): T[] {
    if (!this.results) throw new Error('rowsOf: the change set has not been committed');
    return this.results[slot] as T[];
  }

  get size(): number {
    return this.statements.length;
  }

  /** Runs the batch; a failed guard becomes `conflict` (409 by default). Returns the new message ids. */
  async commit(queue: Queue<MessageQueueBody> | undefined, conflict?: () => Error): Promise<number[]> {
    if (this.statements.length === 0) return [];
    let results: unknown[];
    try {
      results = await this.db.batch(this.statements as Batch);
    } catch (error) {
      if (isStaleGuardFailure(error)) {
        throw conflict
          ? conflict()
          : new ApiError(409, 'The submission changed while this request was processed; reload it and try again.');
      }
      throw error;
    }
    this.results = results;
    const ids = this.messageSlots.flatMap((i) => (results[i] as { id: number }[]).map((r) => r.id));
    // A lost queue message is re-sent by the messages sweep (src/scheduled/messages-sweep.ts).
    if (queue && ids.length) await enqueueMessages(queue, ids).catch((err) => console.error('enqueue messages failed', err));
    return ids;
  }
}
