// The account's signature level and its QES provider credentials (spec › Update signature level): stored
// in the control database, the credentials encrypted and never returned.
import type { Db } from '../../db/client';
import { setSignatureLevel } from '../../db/queries/accounts';
import type { Account } from '../../db/schema';
import { decryptAtRest, encryptAtRest } from '../../lib/encryption';
import { isProduction } from '../../lib/environment';
import { unprocessable } from '../../lib/errors';
import { splitApiKey, type QesProviderCredentials } from '../qes/provider-credentials';
import type { QesProviderEnv } from '../qes/provider-url';
import type { SignatureLevel } from './levels';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Bound into the ciphertext: a value copied onto another account does not decrypt. */
const context = (accountId: number) => `account:${accountId}:qes_provider_credentials`;

/** The provider label used for ses and aes, which the platform signs itself. */
export const PLATFORM_PROVIDER = 'platform';
/** The label of a QES provider stored without one. */
export const DEFAULT_QES_PROVIDER = 'csc';

export type SignatureLevelSettings = { level: SignatureLevel; provider: string; configured: boolean };

/**
 * What GET shows. `configured`: QES provider credentials are stored, so `qes` can be chosen without
 * sending them again (ses and aes need nothing outside the platform). `provider`: who signs at the
 * current level — the platform for ses and aes, the QES provider's label for qes.
 */
export function signatureLevelSettingsOf(account: Account): SignatureLevelSettings {
  const configured = account.qesProviderCredentials !== null;
  const provider = account.signatureLevel === 'qes' ? (account.signatureProvider ?? DEFAULT_QES_PROVIDER) : PLATFORM_PROVIDER;
  return { level: account.signatureLevel, provider, configured };
}

export type SignatureLevelChange = {
  level: SignatureLevel;
  provider?: string;
  qes_provider_api_key?: string;
  qes_provider_api_url?: string;
  qes_certificate_id?: string;
};

const CREDENTIAL_KEYS = ['qes_provider_api_url', 'qes_provider_api_key', 'qes_certificate_id'] as const;

/**
 * Sentences about the provider URL: an absolute http(s) URL without user info, https in production
 * (the key travels to it; like webhook destinations, plain http only for local providers in
 * development and tests).
 */
export function providerUrlProblems(url: string, env: { ENVIRONMENT?: string }): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return ['qes_provider_api_url must be an absolute URL such as https://csc.example.com/csc/v2.'];
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return ['qes_provider_api_url must be an https URL.'];
  if (parsed.protocol === 'http:' && isProduction(env))
    return ['qes_provider_api_url must be an https URL: the provider key is sent to it.'];
  if (parsed.username || parsed.password)
    return ['qes_provider_api_url must not carry a user name or password; send the key as qes_provider_api_key.'];
  return [];
}

/**
 * Checks the change (422 with every sentence), confirms the QES credentials it would use with the
 * provider (credentials/info; 422 when it refuses or cannot be reached), and stores it; returns the
 * account as stored.
 */
export async function saveSignatureLevel(
  env: QesProviderEnv & { ENCRYPTION_KEY?: string },
  control: Db,
  account: Account,
  change: SignatureLevelChange,
): Promise<Account> {
  const problems: string[] = [];
  const sent = CREDENTIAL_KEYS.filter((key) => change[key] !== undefined);
  // The three describe one signing credential at one provider: replaced together or not at all.
  if (sent.length > 0 && sent.length < CREDENTIAL_KEYS.length) {
    const missing = CREDENTIAL_KEYS.filter((key) => change[key] === undefined);
    problems.push(`QES provider credentials are replaced together: send ${missing.join(' and ')} with ${sent.join(' and ')}.`);
  }
  if (change.qes_provider_api_url !== undefined) problems.push(...providerUrlProblems(change.qes_provider_api_url, env));
  if (change.qes_provider_api_key !== undefined && !splitApiKey(change.qes_provider_api_key)) {
    problems.push(
      'qes_provider_api_key must be the OAuth client the provider registered for the account, written client_id:client_secret.',
    );
  }
  if (change.level === 'qes' && sent.length === 0 && account.qesProviderCredentials === null) {
    problems.push('Level qes needs a CSC v2 provider: send qes_provider_api_url, qes_provider_api_key and qes_certificate_id.');
  }
  if (problems.length) throw unprocessable(problems.length === 1 ? problems[0] : problems);

  const replaced = sent.length === CREDENTIAL_KEYS.length;
  const credentials: QesProviderCredentials | null = replaced
    ? { apiKey: change.qes_provider_api_key!, apiUrl: change.qes_provider_api_url!, certificateId: change.qes_certificate_id! }
    : change.level === 'qes'
      ? await qesProviderCredentials(env.ENCRYPTION_KEY, account)
      : null;
  // New credentials are confirmed whatever the level, stored ones when qes is chosen with them.
  // The CSC client brings PKI.js, loaded on first use (decisions.md › Cold start).
  if (credentials) await (await import('../qes/confirm-credentials')).confirmQesCredentials(env, credentials);

  const values: Parameters<typeof setSignatureLevel>[2] = { signatureLevel: change.level };
  if (change.provider !== undefined) values.signatureProvider = change.provider;
  if (replaced && credentials) {
    values.qesProviderCredentials = await encryptAtRest(
      env.ENCRYPTION_KEY,
      encoder.encode(JSON.stringify(credentials)),
      context(account.id),
    );
  }
  return setSignatureLevel(control, account.id, values);
}

/** The decrypted provider credentials, or null when none are stored (for the QES signing flow). */
export async function qesProviderCredentials(encryptionKey: string | undefined, account: Account): Promise<QesProviderCredentials | null> {
  if (!account.qesProviderCredentials) return null;
  const plain = await decryptAtRest(encryptionKey, account.qesProviderCredentials, context(account.id));
  return JSON.parse(decoder.decode(plain)) as QesProviderCredentials;
}
