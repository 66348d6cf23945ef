// Signer verification rows, email and phone codes (src/services/signing/email-verification.ts).
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { signingVerifications, submitters, type SigningVerification } from '../schema';

export async function latestVerification(db: Db, submitterId: number): Promise<SigningVerification | undefined> {
  return db
    .select()
    .from(signingVerifications)
    .where(eq(signingVerifications.submitterId, submitterId))
    .orderBy(desc(signingVerifications.id))
    .limit(1)
    .get();
}

/**
 * Records a new code only while fewer than `limit` were sent to this submitter since `since`, in one
 * statement (INSERT … SELECT … WHERE count < limit), so concurrent requests cannot all slip under the
 * limit. Put it in a ChangeSet with `guarded`: no row inserted fails the whole batch.
 */
export function insertVerificationWithinLimitStatement(
  db: Db,
  row: { accountId: number; submitterId: number; codeHash: string; channel: string; expiresAt: string; createdAt: string },
  since: string,
  limit: number,
) {
  // insert().select(sql) lists every column of the table, in its order.
  return db.insert(signingVerifications).select(sql`
    SELECT NULL, ${row.accountId}, ${row.submitterId}, ${row.codeHash}, ${row.channel}, ${row.expiresAt}, 0, NULL, NULL, ${row.createdAt}
    WHERE (SELECT count(*) FROM ${signingVerifications} WHERE ${signingVerifications.submitterId} = ${row.submitterId} AND ${signingVerifications.createdAt} >= ${since}) < ${limit}`);
}

/**
 * Takes one attempt at a code before it is compared, only while the row is open (not verified, not
 * expired) and below `limit`: of any number of concurrent guesses at most `limit` are ever compared.
 * Returns the attempts now recorded (this one included), or null when none was left.
 */
export async function consumeAttempt(db: Db, id: number, limit: number, now: string): Promise<number | null> {
  const row = await db
    .update(signingVerifications)
    .set({ attempts: sql`${signingVerifications.attempts} + 1` })
    .where(
      and(
        eq(signingVerifications.id, id),
        sql`${signingVerifications.attempts} < ${limit}`,
        sql`${signingVerifications.verifiedAt} IS NULL`,
        sql`${signingVerifications.expiresAt} > ${now}`,
      ),
    )
    .returning({ attempts: signingVerifications.attempts })
    .get();
  return row?.attempts ?? null;
}

/** Marks the code used and records the session; the submitter's verification method becomes `method` (email_2fa, sms_2fa…). */
export async function markVerified(
  db: Db,
  id: number,
  submitterId: number,
  verified: { sessionHash: string; method: string; at: string },
): Promise<boolean> {
  const { sessionHash, method, at } = verified;
  const [updated] = await db.batch([
    db
      .update(signingVerifications)
      .set({ verifiedAt: at, sessionHash })
      .where(and(eq(signingVerifications.id, id), sql`${signingVerifications.verifiedAt} IS NULL`))
      .returning({ id: signingVerifications.id }),
    db.update(submitters).set({ verificationMethod: method, updatedAt: at }).where(eq(submitters.id, submitterId)),
  ]);
  return updated.length > 0;
}

export async function findSession(db: Db, submitterId: number, sessionHash: string): Promise<SigningVerification | undefined> {
  return db
    .select()
    .from(signingVerifications)
    .where(and(eq(signingVerifications.submitterId, submitterId), eq(signingVerifications.sessionHash, sessionHash)))
    .get();
}

/** Forgets a submitter's codes and sessions (after delegation the form belongs to someone else). */
export function deleteVerificationsOf(db: Db, submitterId: number) {
  return db.delete(signingVerifications).where(eq(signingVerifications.submitterId, submitterId));
}
