// Two-factor authentication (spec › Authentication, MFA paragraph; docs/mfa.md): TOTP (RFC 6238: SHA-1,
// 6 digits, 30 s steps, ±1 step) with a 20-byte secret stored encrypted, and 8 single-use backup codes
// stored as keyed hashes. A time step, once accepted, never is again (RFC 6238 §5.2).
import { Secret, TOTP } from 'otpauth';
import { renderSVG } from 'uqr';
import type { Db } from '../../db/client';
import type { User } from '../../db/schema/index';
import {
  claimBackupCode,
  claimTotpStep,
  disableMfaStatements,
  markMfaEnabled,
  replaceBackupCodes,
  storePendingMfaSecret,
} from '../../db/queries/mfa';
import { toHex } from '../../lib/crypto';
import { decryptAtRest, EncryptionKeyMissing, encryptAtRest } from '../../lib/encryption';
import { ApiError } from '../../lib/errors';
import { endSessionsOfUserStatement } from '../../db/queries/sessions';

export const TOTP_PERIOD_S = 30;
export const TOTP_DIGITS = 6;
/** Codes of the previous and next step are accepted too: clocks drift and people type slowly. */
export const TOTP_WINDOW = 1;
export const BACKUP_CODE_COUNT = 8;

const TOTP_OPTIONS = { algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_PERIOD_S } as const;

/** What `ENCRYPTION_KEY` and the issuer name come from. */
export type MfaEnv = { ENCRYPTION_KEY?: string; SERVICE_NAME?: string };

type MfaUser = Pick<User, 'id' | 'email' | 'mfaSecret' | 'mfaEnabledAt'>;

// ---- the TOTP secret ----

/** Bound in as AES-GCM additional data: a sealed secret copied onto another user's row does not open. */
const secretContext = (userId: number) => `users.mfa_secret:${userId}`;

async function openSecret(env: MfaEnv, userId: number, sealed: string): Promise<Secret> {
  const bytes = await decryptAtRest(env.ENCRYPTION_KEY, sealed, secretContext(userId));
  return new Secret({ buffer: bytes.slice().buffer });
}

/** The `otpauth://` URI an authenticator app reads from the QR code (issuer = the service's name). */
export function totpUri(env: MfaEnv, email: string, secret: Secret): string {
  return new TOTP({ issuer: env.SERVICE_NAME ?? 'Signing Service', label: email, secret, ...TOTP_OPTIONS }).toString();
}

/** The QR code of a URI as a `data:` image (the console's CSP allows `img-src data:`). */
export function qrCodeDataUri(text: string): string {
  const svg = renderSVG(text, { border: 2, pixelSize: 6 });
  return `data:image/svg+xml;base64,${btoa(svg)}`;
}

/** What the enrolment page shows: the secret in base32 for typing in, and the URI behind the QR code. */
export type PendingEnrolment = { secretBase32: string; uri: string };

/**
 * The secret being enrolled: generated and stored (encrypted, MFA still off) on the first visit, the same
 * one on every later visit until it is confirmed, so a reload does not invalidate a scanned code.
 */
export async function pendingEnrolment(db: Db, env: MfaEnv, user: MfaUser): Promise<PendingEnrolment> {
  if (user.mfaEnabledAt) throw new ApiError(409, 'Two-factor authentication is already on.');
  let sealed = user.mfaSecret;
  if (!sealed) {
    const fresh = new Secret({ size: 20 });
    // Of two first visits at once, the first stored secret holds and both pages show it.
    sealed = await storePendingMfaSecret(db, user.id, await encryptAtRest(env.ENCRYPTION_KEY, fresh.bytes, secretContext(user.id)));
    if (!sealed) throw new ApiError(409, 'Two-factor authentication changed meanwhile; reload the page.');
  }
  const secret = await openSecret(env, user.id, sealed);
  return { secretBase32: secret.base32, uri: totpUri(env, user.email, secret) };
}

// ---- codes ----

/** A TOTP code as typed: six digits, spaces allowed ("123 456"). */
function totpCodeOf(input: string): string | null {
  const code = input.replace(/\s+/g, '');
  return /^\d{6}$/.test(code) ? code : null;
}

/** The time step whose code `code` is within the window around `now`, or null. */
export function matchTotpStep(secret: Secret, code: string, now = Date.now()): number | null {
  const delta = TOTP.validate({ token: code, secret, timestamp: now, window: TOTP_WINDOW, ...TOTP_OPTIONS });
  return delta === null ? null : Math.floor(now / 1000 / TOTP_PERIOD_S) + delta;
}

// Backup codes: 10 characters from 32 that cannot be confused (no 0/O, 1/I), 50 bits each, shown as
// XXXXX-XXXXX. Typed case and separators do not matter.
const BACKUP_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
const BACKUP_LENGTH = 10;

export function generateBackupCodes(count = BACKUP_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    const bytes = crypto.getRandomValues(new Uint8Array(BACKUP_LENGTH));
    // 256 is a multiple of 32: `% 32` has no bias.
    const chars = Array.from(bytes, (b) => BACKUP_ALPHABET[b % 32]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

function backupCodeOf(input: string): string | null {
  const code = input.toUpperCase().replace(/[\s-]+/g, '');
  return code.length === BACKUP_LENGTH && [...code].every((char) => BACKUP_ALPHABET.includes(char)) ? code : null;
}

const hashKeys = new Map<string, Promise<CryptoKey>>();

/**
 * Backup codes are stored as HMAC-SHA-256 under a key derived (HKDF) from ENCRYPTION_KEY: a copy of the
 * database alone does not let anyone search the 2^50 codes offline.
 */
function backupHashKey(secret: string | undefined): Promise<CryptoKey> {
  if (!secret) throw new EncryptionKeyMissing();
  let key = hashKeys.get(secret);
  if (!key) {
    const raw = Uint8Array.from(atob(secret.trim()), (c) => c.charCodeAt(0));
    key = crypto.subtle
      .importKey('raw', raw, 'HKDF', false, ['deriveKey'])
      .then((base) =>
        crypto.subtle.deriveKey(
          { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: new TextEncoder().encode('mfa backup codes') },
          base,
          { name: 'HMAC', hash: 'SHA-256', length: 256 },
          false,
          ['sign'],
        ),
      );
    hashKeys.set(secret, key);
  }
  return key;
}

async function backupCodeHash(env: MfaEnv, userId: number, normalised: string): Promise<string> {
  const key = await backupHashKey(env.ENCRYPTION_KEY);
  return toHex(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${userId}:${normalised}`)));
}

async function hashBackupCodes(env: MfaEnv, userId: number, codes: string[]): Promise<string[]> {
  return Promise.all(codes.map((code) => backupCodeHash(env, userId, backupCodeOf(code)!)));
}

/**
 * Accepts a current TOTP code and consumes its step: a code of the last accepted step (or an earlier
 * one) is refused, also when two requests present it at once.
 */
export async function acceptTotpCode(db: Db, env: MfaEnv, user: MfaUser, input: string, now = Date.now()): Promise<boolean> {
  const code = totpCodeOf(input);
  if (!code || !user.mfaSecret || !user.mfaEnabledAt) return false;
  const step = matchTotpStep(await openSecret(env, user.id, user.mfaSecret), code, now);
  return step !== null && (await claimTotpStep(db, user.id, step));
}

/** Accepts a TOTP code or, once, a backup code; says which it was, or null for neither. */
export async function acceptSecondFactor(
  db: Db,
  env: MfaEnv,
  user: MfaUser,
  input: string,
  now = Date.now(),
): Promise<'totp' | 'backup_code' | null> {
  if (!user.mfaEnabledAt) return null;
  if (totpCodeOf(input)) return (await acceptTotpCode(db, env, user, input, now)) ? 'totp' : null;
  const backup = backupCodeOf(input);
  if (!backup) return null;
  return (await claimBackupCode(db, user.id, await backupCodeHash(env, user.id, backup))) ? 'backup_code' : null;
}

// ---- enrolment, backup codes, disabling ----

export const WRONG_CODE = 'That code is not right; type the 6-digit code your authenticator app shows now (each code works once).';

/**
 * Confirms enrolment with the first code from the app: MFA is on only from here. Returns the backup
 * codes, which exist in clear only in this response.
 */
export async function confirmEnrolment(db: Db, env: MfaEnv, user: MfaUser, input: string, now = Date.now()): Promise<string[]> {
  if (user.mfaEnabledAt) throw new ApiError(409, 'Two-factor authentication is already on.');
  const code = totpCodeOf(input);
  if (!code) throw new ApiError(422, 'Type the 6-digit code your authenticator app shows for this account.');
  if (!user.mfaSecret) throw new ApiError(409, 'Reload the page: there is no secret to confirm yet.');
  const step = matchTotpStep(await openSecret(env, user.id, user.mfaSecret), code, now);
  if (step === null) throw new ApiError(422, WRONG_CODE);
  if (!(await markMfaEnabled(db, { userId: user.id, sealedSecret: user.mfaSecret, step }))) {
    throw new ApiError(409, 'Two-factor authentication changed meanwhile (another tab?); reload the page.');
  }
  const codes = generateBackupCodes();
  await replaceBackupCodes(db, user.id, await hashBackupCodes(env, user.id, codes));
  return codes;
}

/** New backup codes for a current TOTP code; the old ones stop working. */
export async function regenerateBackupCodes(db: Db, env: MfaEnv, user: MfaUser, input: string, now = Date.now()): Promise<string[]> {
  if (!user.mfaEnabledAt) throw new ApiError(409, 'Two-factor authentication is off; turn it on first.');
  if (!(await acceptTotpCode(db, env, user, input, now))) throw new ApiError(422, WRONG_CODE);
  const codes = generateBackupCodes();
  await replaceBackupCodes(db, user.id, await hashBackupCodes(env, user.id, codes));
  return codes;
}

/**
 * Turns MFA off for a current code (TOTP, or a backup code: the lost phone is why people disable it),
 * and ends every session of the user in the same batch (spec › Authentication: "MFA disable …
 * invalidates all of that user's sessions").
 */
export async function disableMfa(db: Db, env: MfaEnv, user: MfaUser, input: string, now = Date.now()): Promise<void> {
  if (!user.mfaEnabledAt) throw new ApiError(409, 'Two-factor authentication is already off.');
  if (!(await acceptSecondFactor(db, env, user, input, now))) {
    throw new ApiError(422, 'That code is not right; type a current code from your authenticator app, or an unused backup code.');
  }
  await db.batch([...disableMfaStatements(db, user.id), endSessionsOfUserStatement(db, user.id)]);
}

/**
 * `mfa_enforced` may be turned on only by an admin who has MFA themselves: otherwise the change would
 * lock its own author out of everything but enrolment mid-task (docs/mfa.md › Enforcement).
 */
export function assertMayEnforceMfa(
  user: Pick<User, 'mfaEnabledAt'>,
  account: { mfaEnforced: boolean },
  enforce: boolean | undefined,
): void {
  if (enforce && !account.mfaEnforced && !user.mfaEnabledAt) {
    throw new ApiError(
      422,
      'Turn on two-factor authentication for yourself (/settings/mfa) before requiring it for everyone in the account.',
    );
  }
}
