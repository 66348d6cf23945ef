// Encryption at rest for secrets the service must be able to use again (uploaded signing keys, provider
// credentials): AES-256-GCM under the ENCRYPTION_KEY Worker secret (decisions.md › Signed output).
// Stored form: `v1.<base64 iv>.<base64 ciphertext+tag>`; the caller's `context` is bound in as additional
// authenticated data, so a value copied onto another row does not decrypt.
import { fromBase64, toBase64 } from './base64';

const encoder = new TextEncoder();

export class EncryptionKeyMissing extends Error {
  constructor() {
    super('ENCRYPTION_KEY is not configured: set a base64 32-byte key with `wrangler secret put ENCRYPTION_KEY`.');
  }
}

const keys = new Map<string, Promise<CryptoKey>>();

function encryptionKey(secret: string | undefined): Promise<CryptoKey> {
  if (!secret) throw new EncryptionKeyMissing();
  let key = keys.get(secret);
  if (!key) {
    const raw = fromBase64(secret.trim());
    if (raw.length !== 32) throw new Error('ENCRYPTION_KEY must be 32 bytes, base64-encoded.');
    key = crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);
    keys.set(secret, key);
  }
  return key;
}

export async function encryptAtRest(secret: string | undefined, plaintext: Uint8Array, context: string): Promise<string> {
  const key = await encryptionKey(secret);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: encoder.encode(context) }, key, plaintext);
  return `v1.${toBase64(iv)}.${toBase64(new Uint8Array(sealed))}`;
}

export async function decryptAtRest(secret: string | undefined, stored: string, context: string): Promise<Uint8Array> {
  const [version, iv, ciphertext] = stored.split('.');
  if (version !== 'v1' || !iv || !ciphertext) throw new Error('Unrecognised encrypted value.');
  const key = await encryptionKey(secret);
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: fromBase64(iv), additionalData: encoder.encode(context) },
    key,
    fromBase64(ciphertext),
  );
  return new Uint8Array(plain);
}

const hmacKeys = new Map<string, Promise<CryptoKey>>();

/**
 * An HMAC-SHA-256 signing key of its own for one `purpose`, derived from ENCRYPTION_KEY (HKDF, RFC 5869),
 * so a MAC made for one thing can never stand for another.
 */
export function derivedHmacKey(secret: string | undefined, purpose: string): Promise<CryptoKey> {
  if (!secret) throw new EncryptionKeyMissing();
  const cacheKey = `${purpose}\u0000${secret}`;
  let key = hmacKeys.get(cacheKey);
  if (!key) {
    key = crypto.subtle
      .importKey('raw', encoder.encode(secret.trim()), 'HKDF', false, ['deriveKey'])
      .then((master) =>
        crypto.subtle.deriveKey(
          { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(), info: encoder.encode(purpose) },
          master,
          { name: 'HMAC', hash: 'SHA-256', length: 256 },
          false,
          ['sign'],
        ),
      );
    hmacKeys.set(cacheKey, key);
  }
  return key;
}
