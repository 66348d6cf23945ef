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
