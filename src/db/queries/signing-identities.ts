// Signing identity rows: the generated and the uploaded one of each account.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../client';
import { signingIdentities, type SigningIdentityRow } from '../schema';

export type NewSigningIdentity = Omit<SigningIdentityRow, 'id' | 'createdAt'>;

/** The uploaded identity if there is one, else the generated one. */
export async function activeSigningIdentity(db: Db, accountId: number): Promise<SigningIdentityRow | undefined> {
  const rows = await db.select().from(signingIdentities).where(eq(signingIdentities.accountId, accountId));
  return rows.find((r) => r.source === 'uploaded') ?? rows.find((r) => r.source === 'generated');
}

/** The account's row of one source (generated, uploaded, or ca: the aes signers' certificate authority). */
export async function signingIdentityOfSource(db: Db, accountId: number, source: string): Promise<SigningIdentityRow | undefined> {
  const [row] = await db
    .select()
    .from(signingIdentities)
    .where(and(eq(signingIdentities.accountId, accountId), eq(signingIdentities.source, source)));
  return row;
}

/** Stores a generated identity unless one exists already (two first uses racing keep the first). */
export async function insertGeneratedIdentity(db: Db, values: NewSigningIdentity): Promise<void> {
  await db.insert(signingIdentities).values(values).onConflictDoNothing();
}

/**
 * Swaps a generated identity for a new one, only while it is still the row read (two runs racing replace
 * it once; the loser reads the winner's).
 */
export async function replaceGeneratedIdentity(
  db: Db,
  current: Pick<SigningIdentityRow, 'id' | 'sha256Fingerprint'>,
  values: NewSigningIdentity,
): Promise<void> {
  const { accountId: _account, source: _source, ...changes } = values;
  await db
    .update(signingIdentities)
    .set({ ...changes, createdAt: new Date().toISOString() })
    .where(and(eq(signingIdentities.id, current.id), eq(signingIdentities.sha256Fingerprint, current.sha256Fingerprint)));
}

/** Replaces the account's uploaded identity. */
export async function upsertUploadedIdentity(db: Db, values: NewSigningIdentity): Promise<SigningIdentityRow> {
  const { accountId: _account, source: _source, ...changes } = values;
  const [row] = await db
    .insert(signingIdentities)
    .values(values)
    .onConflictDoUpdate({
      target: [signingIdentities.accountId, signingIdentities.source],
      set: { ...changes, createdAt: new Date().toISOString() },
    })
    .returning();
  return row;
}

export async function deleteUploadedIdentity(db: Db, accountId: number): Promise<boolean> {
  const removed = await db
    .delete(signingIdentities)
    .where(and(eq(signingIdentities.accountId, accountId), eq(signingIdentities.source, 'uploaded')))
    .returning({ id: signingIdentities.id });
  return removed.length > 0;
}
