// Signer email verification rows (src/services/signing/email-verification.ts).
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

/** Codes sent to a submitter since `since`: the send rate limit counts these. */
export async function countVerificationsSince(db: Db, submitterId: number, since: string): Promise<number> {
  const row = await db
    .select({ n: sql<number>`count(*)` })
    .from(signingVerifications)
    .where(and(eq(signingVerifications.submitterId, submitterId), sql`${signingVerifications.createdAt} >= ${since}`))
    .get();
  return row?.n ?? 0;
}

export function insertVerificationStatement(db: Db, row: typeof signingVerifications.$inferInsert) {
  return db.insert(signingVerifications).values(row);
}

/**
 * Counts one wrong attempt, only while the row is still open below `limit`: two guesses racing cannot
 * both slip under the limit. Returns the attempts now recorded, or null when the row was already spent.
 */
export async function recordFailedAttempt(db: Db, id: number, limit: number): Promise<number | null> {
  const row = await db
    .update(signingVerifications)
    .set({ attempts: sql`${signingVerifications.attempts} + 1` })
    .where(and(eq(signingVerifications.id, id), sql`${signingVerifications.attempts} < ${limit}`, sql`${signingVerifications.verifiedAt} IS NULL`))
    .returning({ attempts: signingVerifications.attempts })
    .get();
  return row?.attempts ?? null;
}

/** Marks the code used and records the session; the submitter's verification method becomes email_2fa. */
export async function markVerified(db: Db, id: number, submitterId: number, sessionHash: string, at: string): Promise<boolean> {
  const [updated] = await db.batch([
    db
      .update(signingVerifications)
      .set({ verifiedAt: at, sessionHash })
      .where(and(eq(signingVerifications.id, id), sql`${signingVerifications.verifiedAt} IS NULL`))
      .returning({ id: signingVerifications.id }),
    db.update(submitters).set({ verificationMethod: 'email_2fa', updatedAt: at }).where(eq(submitters.id, submitterId)),
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
