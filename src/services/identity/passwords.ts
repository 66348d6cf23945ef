// Console passwords: scrypt (RFC 7914, @noble/hashes) stored as a self-describing PHC-style string, so
// the cost can rise later and old hashes are upgraded at the next sign-in (docs/identity.md › Passwords;
// the parameters were measured in workerd: docs/decisions.md › issue 16 : console sign-in).
import { scrypt } from '@noble/hashes/scrypt.js';
import { fromBase64, toBase64 } from '../../lib/base64';

export type ScryptParams = { logN: number; r: number; p: number };

/**
 * N = 2^14 (16 MiB of memory per guess), r = 8, p = 1: the interactive-login baseline of RFC 7914's
 * authors and libsodium. Measured at ~0.7 s of CPU in local workerd on a loaded 2-core machine.
 */
export const CURRENT_PARAMS: ScryptParams = { logN: 14, r: 8, p: 1 };

export const PASSWORD_MIN_CHARACTERS = 12;
export const PASSWORD_MAX_BYTES = 256;

const KEY_BYTES = 32;
const SALT_BYTES = 16;
const FORMAT = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]{22})\$([A-Za-z0-9+/]{43})$/;

const encoder = new TextEncoder();

/**
 * What is wrong with a password a person chose, as a sentence, or null. Length counts characters (code
 * points) at the low end and UTF-8 bytes at the high end, which bounds the KDF's input.
 */
export function describePasswordProblem(password: string): string | null {
  if ([...password].length < PASSWORD_MIN_CHARACTERS) return `The password must be at least ${PASSWORD_MIN_CHARACTERS} characters long.`;
  if (isLongerThanAnyPassword(password)) return `The password must be at most ${PASSWORD_MAX_BYTES} bytes long.`;
  return null;
}

/** Longer than any password one could have set: at sign-in it is simply wrong, without spending a KDF on it. */
export function isLongerThanAnyPassword(password: string): boolean {
  return encoder.encode(password).byteLength > PASSWORD_MAX_BYTES;
}

/** NFC so that the same characters typed on different keyboards hash alike. */
function passwordBytes(password: string): Uint8Array {
  return encoder.encode(password.normalize('NFC'));
}

/** PHC strings carry standard base64 without its padding. */
const unpadded = (bytes: Uint8Array) => toBase64(bytes).replace(/=+$/, '');

async function derive(password: string, salt: Uint8Array, params: ScryptParams): Promise<Uint8Array> {
  // Synchronous: noble's async form yields only to microtasks (no other request gets in) and measured slower.
  return scrypt(passwordBytes(password), salt, { N: 2 ** params.logN, r: params.r, p: params.p, dkLen: KEY_BYTES });
}

/** `$scrypt$ln=14,r=8,p=1$<salt>$<hash>` (unpadded base64, as the PHC string format writes it). */
export async function hashPassword(password: string, params: ScryptParams = CURRENT_PARAMS): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const key = await derive(password, salt, params);
  return `$scrypt$ln=${params.logN},r=${params.r},p=${params.p}$${unpadded(salt)}$${unpadded(key)}`;
}

function parse(stored: string): { params: ScryptParams; salt: Uint8Array; key: Uint8Array } | null {
  const match = FORMAT.exec(stored);
  if (!match) return null;
  const params = { logN: Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
  // Refuses a stored string that would make verification cost more than 4x today's (or nothing).
  if (params.logN < 1 || params.logN > CURRENT_PARAMS.logN + 2 || params.r < 1 || params.p < 1 || params.p > 4) return null;
  return { params, salt: fromBase64(match[4]), key: fromBase64(match[5]) };
}

export type PasswordCheck = { ok: boolean; needsRehash: boolean };

/**
 * Whether `password` is the one `stored` was made from, compared in constant time. `needsRehash`: the
 * stored hash used weaker parameters than today's, and the caller should store a fresh one.
 */
export async function verifyPassword(password: string, stored: string | null): Promise<PasswordCheck> {
  const parsed = stored ? parse(stored) : null;
  if (!parsed) {
    // No password (or an unreadable one): spend the same work so timing does not tell which.
    await burnPasswordCheck(password);
    return { ok: false, needsRehash: false };
  }
  const key = await derive(password, parsed.salt, parsed.params);
  const ok = key.byteLength === parsed.key.byteLength && crypto.subtle.timingSafeEqual(key, parsed.key);
  return { ok, needsRehash: ok && isBelowCurrent(parsed.params) };
}

function isBelowCurrent(params: ScryptParams): boolean {
  return params.logN < CURRENT_PARAMS.logN || params.r < CURRENT_PARAMS.r || params.p < CURRENT_PARAMS.p;
}

const BURN_SALT = new Uint8Array(SALT_BYTES);

/** The cost of one verification with nothing to compare: an unknown email answers as slowly as a known one. */
export async function burnPasswordCheck(password: string): Promise<void> {
  await derive(password, BURN_SALT, CURRENT_PARAMS);
}
