// The account's own Stripe credentials for payment fields (decisions.md › Public links and payments):
// stored encrypted in the control database, decrypted only when a payment is started or a webhook verified.
import type { Db } from '../../db/client';
import { setPaymentCredentials } from '../../db/queries/accounts';
import type { Account } from '../../db/schema';
import { decryptAtRest, encryptAtRest } from '../../lib/encryption';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Bound into the ciphertext, so a value copied onto another account (or the other column) does not decrypt. */
const context = (accountId: number, what: 'secret_key' | 'webhook_secret') => `account:${accountId}:stripe_${what}`;

export type AccountStripeCredentials = { secretKey: string; webhookSecret: string };

export type PaymentSettings = { configured: boolean; stripeKeyLast4: string | null };

export function paymentSettingsOf(account: Account): PaymentSettings {
  return {
    configured: account.paymentsStripeSecretKey !== null && account.paymentsStripeWebhookSecret !== null,
    stripeKeyLast4: account.paymentsStripeKeyLast4,
  };
}

export async function savePaymentCredentials(
  encryptionKey: string | undefined,
  control: Db,
  accountId: number,
  credentials: AccountStripeCredentials,
): Promise<Account> {
  return setPaymentCredentials(control, accountId, {
    paymentsStripeSecretKey: await encryptAtRest(encryptionKey, encoder.encode(credentials.secretKey), context(accountId, 'secret_key')),
    paymentsStripeWebhookSecret: await encryptAtRest(
      encryptionKey,
      encoder.encode(credentials.webhookSecret),
      context(accountId, 'webhook_secret'),
    ),
    paymentsStripeKeyLast4: credentials.secretKey.slice(-4),
  });
}

export async function clearPaymentCredentials(control: Db, accountId: number): Promise<Account> {
  return setPaymentCredentials(control, accountId, {
    paymentsStripeSecretKey: null,
    paymentsStripeWebhookSecret: null,
    paymentsStripeKeyLast4: null,
  });
}

/** The decrypted credentials, or null when the account has not configured payments. */
export async function accountStripeCredentials(
  encryptionKey: string | undefined,
  account: Account,
): Promise<AccountStripeCredentials | null> {
  if (!account.paymentsStripeSecretKey || !account.paymentsStripeWebhookSecret) return null;
  const [secretKey, webhookSecret] = await Promise.all([
    decryptAtRest(encryptionKey, account.paymentsStripeSecretKey, context(account.id, 'secret_key')),
    decryptAtRest(encryptionKey, account.paymentsStripeWebhookSecret, context(account.id, 'webhook_secret')),
  ]);
  return { secretKey: decoder.decode(secretKey), webhookSecret: decoder.decode(webhookSecret) };
}
