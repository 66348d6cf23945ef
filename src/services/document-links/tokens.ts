// Public document link tokens (decisions.md › Public links and payments; docs/document-links.md).
// A token is stateless: the account, submission, document, the account's link generation and the expiry,
// each in base62, followed by an HMAC-SHA-256 over them under a key derived from ENCRYPTION_KEY. The MAC
// makes it unforgeable (no stored row to guess or to leak); the account id routes `/l/<token>` to its
// shard with one control lookup; the generation lets revoke-all stop every link already sent at once.
import { fromBase64Url, toBase64Url } from '../../lib/base64';
import { fromBase62, toBase62 } from '../../lib/random';
import { EncryptionKeyMissing } from '../../lib/encryption';

export type DocumentLinkClaims = {
  accountId: number;
  submissionId: number;
  /** The template document's id: the one payloads and the download route use. */
  documentId: number;
  generation: number;
  /** Unix seconds; null for a link that never expires. */
  expiresAt: number | null;
};

/** 128 bits of the MAC are kept: enough against forgery, and the link stays short. */
const MAC_BYTES = 16;
const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

/** A key of its own for links (HKDF, RFC 5869), so a MAC here can never serve as anything else. */
function linkKey(secret: string | undefined): Promise<CryptoKey> {
  if (!secret) throw new EncryptionKeyMissing();
  let key = keys.get(secret);
  if (!key) {
    key = (async () => {
      const master = await crypto.subtle.importKey('raw', encoder.encode(secret.trim()), 'HKDF', false, ['deriveKey']);
      return crypto.subtle.deriveKey(
        { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(), info: encoder.encode('signing-service document links v1') },
        master,
        { name: 'HMAC', hash: 'SHA-256', length: 256 },
        false,
        ['sign', 'verify'],
      );
    })();
    keys.set(secret, key);
  }
  return key;
}

function claimsText(claims: DocumentLinkClaims): string {
  const parts = [claims.accountId, claims.submissionId, claims.documentId, claims.generation, claims.expiresAt ?? 0];
  return parts.map(toBase62).join('.');
}

export async function signDocumentLink(secret: string | undefined, claims: DocumentLinkClaims): Promise<string> {
  const text = claimsText(claims);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await linkKey(secret), encoder.encode(text)));
  return `${text}.${toBase64Url(mac.slice(0, MAC_BYTES))}`;
}

/**
 * The claims of a token this service signed, or null for anything else (malformed, forged, altered).
 * Expiry and generation are the caller's to check: they answer 410, not 404.
 */
export async function verifyDocumentLink(secret: string | undefined, token: string): Promise<DocumentLinkClaims | null> {
  if (token.length > 120 || !/^([0-9A-Za-z]{1,11}\.){5}[A-Za-z0-9_-]{22}$/.test(token)) return null;
  const cut = token.lastIndexOf('.');
  const given = fromBase64Url(token.slice(cut + 1));
  // 22 characters hold 132 bits: the last one's spare bits must be zero, or one MAC has 16 spellings.
  if (!given || given.length !== MAC_BYTES || toBase64Url(given) !== token.slice(cut + 1)) return null;
  const text = token.slice(0, cut);
  const expected = new Uint8Array(await crypto.subtle.sign('HMAC', await linkKey(secret), encoder.encode(text)));
  // Constant time over the kept bytes (style.md › Secrets).
  let diff = 0;
  for (let i = 0; i < MAC_BYTES; i++) diff |= expected[i] ^ given[i];
  if (diff !== 0) return null;
  const [accountId, submissionId, documentId, generation, expiresAt] = text.split('.').map(fromBase62);
  if (![accountId, submissionId, documentId, generation, expiresAt].every(Number.isSafeInteger)) return null;
  // A canonical form only: one token per claims, so an altered spelling cannot pass as another link.
  if (claimsText({ accountId, submissionId, documentId, generation, expiresAt: expiresAt || null }) !== text) return null;
  return { accountId, submissionId, documentId, generation, expiresAt: expiresAt || null };
}
