// Console identity: signed-in browser sessions (src/services/identity/sessions.ts). Control database:
// a session is looked up from its cookie before the account is known.
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

import { now } from './columns';

export const sessions = sqliteTable(
  'sessions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** SHA-256 hex of the cookie value; the value itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    accountId: integer('account_id').notNull(),
    userId: integer('user_id').notNull(),
    /**
     * `mfa`: the password was right, the second factor is still owed (only the MFA step is open);
     * `full`: signed in. Whether a full session must enrol MFA first is decided per request from the
     * account and user (decisions.md › Identity), so turning `mfa_enforced` on reaches open sessions.
     */
    stage: text('stage').notNull().default('full'),
    /** Sent by console pages in `X-CSRF-Token` with every state-changing request. */
    csrfToken: text('csrf_token').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: text('created_at').notNull().default(now),
    /** Refreshed at most once a minute; a session idle for 30 minutes is over. */
    lastSeenAt: text('last_seen_at').notNull().default(now),
    /** However busy, a session ends 12 hours after sign-in. */
    expiresAt: text('expires_at').notNull(),
  },
  (t) => [uniqueIndex('sessions_token_hash').on(t.tokenHash), index('sessions_user').on(t.userId)],
);

export type Session = typeof sessions.$inferSelect;

/**
 * MFA backup codes (src/services/identity/mfa.ts): 8 per enrolled user, each usable once. Only a keyed
 * hash is stored; the codes are shown once. Regenerating or disabling MFA deletes a user's rows.
 */
export const mfaBackupCodes = sqliteTable(
  'mfa_backup_codes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id').notNull(),
    /** HMAC-SHA-256 hex of the normalised code under a key derived from ENCRYPTION_KEY. */
    codeHash: text('code_hash').notNull(),
    usedAt: text('used_at'),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [uniqueIndex('mfa_backup_codes_user_hash').on(t.userId, t.codeHash)],
);

export type MfaBackupCode = typeof mfaBackupCodes.$inferSelect;

/**
 * One-time links that let a user choose a password (src/services/identity/password-tokens.ts): `invite`
 * (a new user, 7 days), `reset` (forgotten password, 1 hour), `sign_in_choice` (the account chooser after
 * one password matched users of several accounts, 5 minutes). Control database: the link is looked up
 * before the account is known. Only the SHA-256 of the token is stored.
 */
export const passwordTokens = sqliteTable(
  'password_tokens',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    tokenHash: text('token_hash').notNull(),
    accountId: integer('account_id').notNull(),
    userId: integer('user_id').notNull(),
    /** invite | reset | sign_in_choice */
    purpose: text('purpose').notNull(),
    createdAt: text('created_at').notNull().default(now),
    expiresAt: text('expires_at').notNull(),
    /** Set once, by the one request that used the link (or by a password change using up the rest). */
    usedAt: text('used_at'),
  },
  (t) => [
    uniqueIndex('password_tokens_token_hash').on(t.tokenHash),
    index('password_tokens_user').on(t.userId),
    index('password_tokens_expires').on(t.expiresAt),
  ],
);

export type PasswordToken = typeof passwordTokens.$inferSelect;
