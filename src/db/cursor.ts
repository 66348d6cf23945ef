// Turns a pagination CursorWindow into drizzle conditions over an integer id column.
import { asc, desc, gt, lt, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { CursorWindow } from '../lib/pagination';

export function cursorConditions(id: SQLiteColumn, window: CursorWindow): { where: SQL[]; orderBy: SQL } {
  const where: SQL[] = [];
  if (window.belowId !== undefined) where.push(lt(id, window.belowId));
  if (window.aboveId !== undefined) where.push(gt(id, window.aboveId));
  return { where, orderBy: window.order === 'asc' ? asc(id) : desc(id) };
}
