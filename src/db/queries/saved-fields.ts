// Saved field configurations of an account (spec › Other endpoints › /api/settings/saved_fields).
import { and, eq } from 'drizzle-orm';
import type { Db } from '../client';
import { savedFields, type SavedField } from '../schema';
import { cursorConditions } from '../cursor';
import type { CursorWindow } from '../../lib/pagination';

export async function listSavedFields(db: Db, accountId: number, window: CursorWindow): Promise<SavedField[]> {
  const { where, orderBy } = cursorConditions(savedFields.id, window);
  return db
    .select()
    .from(savedFields)
    .where(and(eq(savedFields.accountId, accountId), ...where))
    .orderBy(orderBy)
    .limit(window.take);
}

/** Inserts unless the account already has a saved field of that name (case-insensitive): then undefined. */
export async function insertSavedField(
  db: Db,
  values: Pick<SavedField, 'accountId' | 'authorId' | 'name' | 'field'>,
): Promise<SavedField | undefined> {
  const [row] = await db.insert(savedFields).values(values).onConflictDoNothing().returning();
  return row;
}

export async function deleteSavedField(db: Db, accountId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(savedFields)
    .where(and(eq(savedFields.accountId, accountId), eq(savedFields.id, id)))
    .returning({ id: savedFields.id });
  return rows.length > 0;
}
