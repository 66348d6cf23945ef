// Signature usage rows (src/db/schema/signature-usage.ts): written with a submitter's completion, listed
// for billing with totals per level.
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client';
import { cursorConditions } from '../cursor';
import { signatureUsage, type SignatureLevel, type SignatureUsage } from '../schema';
import type { CursorWindow } from '../../lib/pagination';

/** The usage row of one completed signature; added to the completion's batch (unique per submitter). */
export function insertSignatureUsageStatement(
  db: Db,
  row: { accountId: number; submissionId: number; submitterId: number; level: SignatureLevel; costCents: number; signedAt: string },
) {
  return db
    .insert(signatureUsage)
    .values({ ...row, month: row.signedAt.slice(0, 7) })
    .onConflictDoNothing({ target: signatureUsage.submitterId });
}

function usageFilter(accountId: number, month: string | undefined): SQL {
  return month ? and(eq(signatureUsage.accountId, accountId), eq(signatureUsage.month, month))! : eq(signatureUsage.accountId, accountId);
}

export async function listSignatureUsage(
  db: Db,
  accountId: number,
  month: string | undefined,
  window: CursorWindow,
): Promise<SignatureUsage[]> {
  const { where, orderBy } = cursorConditions(signatureUsage.id, window);
  return db
    .select()
    .from(signatureUsage)
    .where(and(usageFilter(accountId, month), ...where))
    .orderBy(orderBy)
    .limit(window.take);
}

export type UsageTotal = { level: SignatureLevel; count: number; costCents: number };

/** Count and cost per level over every row the filter selects (not only one page). */
export async function signatureUsageTotals(db: Db, accountId: number, month: string | undefined): Promise<UsageTotal[]> {
  return db
    .select({
      level: signatureUsage.level,
      count: sql<number>`count(*)`,
      costCents: sql<number>`coalesce(sum(${signatureUsage.costCents}), 0)`,
    })
    .from(signatureUsage)
    .where(usageFilter(accountId, month))
    .groupBy(signatureUsage.level);
}
