// Minting public document links and deciding what a presented one may do (docs/document-links.md).
import type { Account, Submission } from '../../db/schema/index';
import { unprocessable } from '../../lib/errors';
import { signDocumentLink, type DocumentLinkClaims } from './tokens';

/** The account settings a link is minted under. */
export type LinkAccount = Pick<Account, 'id' | 'documentLinksEnabled' | 'documentLinkExpiryDays' | 'documentLinkGeneration'>;

export type MintedLink = { url: string; expires_at: string | null };

const DAY_SECONDS = 86_400;

/** `{base}/l/<token>`: the one path prefix the public route (and a custom domain's router) serves. */
export const PUBLIC_LINK_PREFIX = '/l';

/**
 * A link to one signed document of a submission. `expiresInDays` overrides the account's setting;
 * `null` means never, `undefined` takes the account's.
 */
export async function mintDocumentLink(
  secret: string | undefined,
  base: string,
  account: LinkAccount,
  document: { submissionId: number; documentId: number },
  expiresInDays?: number | null,
): Promise<MintedLink> {
  const days = expiresInDays === undefined ? account.documentLinkExpiryDays : expiresInDays;
  const expiresAt = days === null ? null : Math.floor(Date.now() / 1000) + days * DAY_SECONDS;
  const claims: DocumentLinkClaims = { accountId: account.id, ...document, generation: account.documentLinkGeneration, expiresAt };
  const token = await signDocumentLink(secret, claims);
  return {
    url: `${base.replace(/\/+$/, '')}${PUBLIC_LINK_PREFIX}/${token}`,
    expires_at: expiresAt === null ? null : new Date(expiresAt * 1000).toISOString(),
  };
}

/** A link can only point at a signed document: 422 before completion, nothing to sign yet. */
export function assertLinkable(submission: Pick<Submission, 'status' | 'completedAt'>): void {
  if (submission.status !== 'completed' && !submission.completedAt) {
    throw unprocessable('The submission is not completed yet, so it has no signed documents to link to.');
  }
}

/** Why a verified token no longer opens its document (revoked by the sender, or past its expiry), or null while it does. */
export function lapsedReason(
  claims: DocumentLinkClaims,
  account: Pick<Account, 'documentLinkGeneration'>,
  nowMs = Date.now(),
): 'revoked' | 'expired' | null {
  if (claims.generation !== account.documentLinkGeneration) return 'revoked';
  if (claims.expiresAt !== null && claims.expiresAt * 1000 <= nowMs) return 'expired';
  return null;
}

/**
 * The links a webhook payload carries for a submission's documents, keyed by document id: none unless
 * the account turned automatic links on (spec › Public document links).
 */
export async function payloadDocumentLinks(
  secret: string | undefined,
  base: string,
  account: LinkAccount,
  submission: Pick<Submission, 'id' | 'status' | 'completedAt'>,
  documentIds: readonly number[],
): Promise<Map<number, MintedLink> | undefined> {
  if (!account.documentLinksEnabled || (submission.status !== 'completed' && !submission.completedAt)) return undefined;
  // A completion must not fail over a missing secret: the payload goes out without links, and says so in the log.
  if (!secret) {
    console.error(`Public document links are on for account ${account.id}, but ENCRYPTION_KEY is not configured; payloads carry no url.`);
    return undefined;
  }
  const links = await Promise.all(
    documentIds.map((documentId) => mintDocumentLink(secret, base, account, { submissionId: submission.id, documentId })),
  );
  return new Map(documentIds.map((id, i) => [id, links[i]]));
}
