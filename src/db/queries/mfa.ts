// MFA rows in the control database: a user's TOTP secret and last accepted step, and their backup codes
// (src/services/identity/mfa.ts holds the rules). Every write is guarded so that a race changes nothing twice.
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { mfaBackupCodes, users } from '../schema/index';
import { nowIso } from '../../lib/time';

/** Stores a pending (unconfirmed) secret unless the user already has one; returns the one that holds. */
export async function storePendingMfaSecret(db: Db, userId: number, sealedSecret: string): Promise<string | null> {
  await db
    .update(users)
    .set({ mfaSecret: sealedSecret })
    .where(and(eq(users.id, userId), isNull(users.mfaSecret), isNull(users.mfaEnabledAt)))
    .run();
  const row = await db.select({ mfaSecret: users.mfaSecret }).from(users).where(eq(users.id, userId)).get();
  return row?.mfaSecret ?? null;
}

/**
 * Records `step` as the newest accepted time step, only if it is newer than the last one: of two
 * requests presenting the same code, exactly one gets `true`.
 */
export async function claimTotpStep(db: Db, userId: number, step: number): Promise<boolean> {
  const row = await db
    .update(users)
    .set({ mfaLastStep: step })
    .where(and(eq(users.id, userId), or(isNull(users.mfaLastStep), lt(users.mfaLastStep, step))))
    .returning({ id: users.id })
    .get();
  return row !== undefined;
}

/** Marks an unused backup code used; `true` for the one request that got it. */
export async function claimBackupCode(db: Db, userId: number, codeHash: string): Promise<boolean> {
  const row = await db
    .update(mfaBackupCodes)
    .set({ usedAt: nowIso() })
    .where(and(eq(mfaBackupCodes.userId, userId), eq(mfaBackupCodes.codeHash, codeHash), isNull(mfaBackupCodes.usedAt)))
    .returning({ id: mfaBackupCodes.id })
    .get();
  return row !== undefined;
}

export async function unusedBackupCodeCount(db: Db, userId: number): Promise<number> {
  const rows = await db
    .select({ id: mfaBackupCodes.id })
    .from(mfaBackupCodes)
    .where(and(eq(mfaBackupCodes.userId, userId), isNull(mfaBackupCodes.usedAt)))
    .all();
  return rows.length;
}

/**
 * Confirms enrolment: MFA on from now and the confirming step recorded, only while MFA is still off and
 * the confirmed secret is the stored one (of two tabs confirming at once, one wins; the other changes
 * nothing). Returns whether it applied; the caller then replaces the backup codes.
 */
export async function markMfaEnabled(db: Db, input: { userId: number; sealedSecret: string; step: number }): Promise<boolean> {
  const at = nowIso();
  const row = await db
    .update(users)
    .set({ mfaEnabledAt: at, mfaLastStep: input.step, updatedAt: at })
    .where(and(eq(users.id, input.userId), isNull(users.mfaEnabledAt), eq(users.mfaSecret, input.sealedSecret)))
    .returning({ id: users.id })
    .get();
  return row !== undefined;
}

/** Replaces a user's backup codes (the old ones stop working in the same batch the new ones appear). */
export async function replaceBackupCodes(db: Db, userId: number, codeHashes: string[]): Promise<void> {
  await db.batch([
    db.delete(mfaBackupCodes).where(eq(mfaBackupCodes.userId, userId)),
    db.insert(mfaBackupCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash }))),
  ]);
}

/** The statements that turn MFA off: secret, step and backup codes gone (the caller adds the sign-out). */
export function disableMfaStatements(db: Db, userId: number) {
  const at = nowIso();
  return [
    db.update(users).set({ mfaSecret: null, mfaEnabledAt: null, mfaLastStep: null, updatedAt: at }).where(eq(users.id, userId)),
    db.delete(mfaBackupCodes).where(eq(mfaBackupCodes.userId, userId)),
  ] as const;
}

export type MfaAttempt = { taken: true } | { taken: false; retryAt: number };

/**
 * Takes one code attempt from the user's budget before the code is checked: one guarded UPDATE, so of
 * any number of concurrent attempts at most `limit` are taken in a window (the window opens at the first
 * attempt after the previous one ended). A refused attempt changes nothing and says when a new window opens.
 */
export async function takeMfaAttempt(db: Db, userId: number, limit: number, windowMs: number, now = Date.now()): Promise<MfaAttempt> {
  const at = new Date(now).toISOString();
  const windowOpenedBefore = new Date(now - windowMs).toISOString();
  const lapsed = sql`(${users.mfaFailuresSince} IS NULL OR ${users.mfaFailuresSince} <= ${windowOpenedBefore})`;
  const row = await db
    .update(users)
    .set({
      mfaFailures: sql`CASE WHEN ${lapsed} THEN 1 ELSE ${users.mfaFailures} + 1 END`,
      mfaFailuresSince: sql`CASE WHEN ${lapsed} THEN ${at} ELSE ${users.mfaFailuresSince} END`,
    })
    .where(and(eq(users.id, userId), sql`(${lapsed} OR ${users.mfaFailures} < ${limit})`))
    .returning({ id: users.id })
    .get();
  if (row) return { taken: true };
  const current = await db.select({ since: users.mfaFailuresSince }).from(users).where(eq(users.id, userId)).get();
  const since = current?.since ? Date.parse(current.since) : now;
  return { taken: false, retryAt: since + windowMs };
}

/** A right code costs nothing: its attempt goes back (never below zero). */
export async function giveBackMfaAttempt(db: Db, userId: number): Promise<void> {
  await db
    .update(users)
    .set({ mfaFailures: sql`max(${users.mfaFailures} - 1, 0)` })
    .where(eq(users.id, userId))
    .run();
}
