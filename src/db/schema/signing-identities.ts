// The X.509 identity each account seals documents with: one generated on first use, and at most one
// uploaded (PKCS#12), which takes precedence while it exists (decisions.md › Signed output).
import { integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { now } from './columns';

export const signingIdentities = sqliteTable(
  'signing_identities',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    accountId: integer('account_id').notNull(),
    /** generated | uploaded | ca (the certificate authority of aes signer certificates) */
    source: text('source').notNull(),
    /** Base64 DER of the signing certificate. */
    certificate: text('certificate').notNull(),
    /** Base64 DER of the other certificates of an uploaded chain, embedded in every signature. */
    chain: text('chain', { mode: 'json' }).$type<string[]>().notNull(),
    /** RSA | P-256 | P-384: how to import the key. */
    keyAlgorithm: text('key_algorithm').notNull(),
    /** PKCS#8 private key, AES-GCM encrypted under ENCRYPTION_KEY (src/lib/encryption.ts). */
    privateKey: text('private_key').notNull(),
    subject: text('subject').notNull(),
    issuer: text('issuer').notNull(),
    serialNumber: text('serial_number').notNull(),
    notBefore: text('not_before').notNull(),
    notAfter: text('not_after').notNull(),
    sha256Fingerprint: text('sha256_fingerprint').notNull(),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [uniqueIndex('signing_identities_account_source').on(t.accountId, t.source)],
);

export type SigningIdentityRow = typeof signingIdentities.$inferSelect;
