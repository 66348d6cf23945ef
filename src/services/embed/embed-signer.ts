// Which signer a form embed token opens (docs/embedding.md › Which signer): one, fixed when it is minted,
// either named (`submitter_id`) or the next in the submission's order. Embed reads show the signing
// credentials (slug, signing_url, embed_src) of that signer only, and only to a token that may sign.
import type { Submission, Submitter } from '../../db/schema/index';
import { isActive, isTurnOf } from '../submissions/signing-order';
import type { EmbedGrant } from './embed-tokens';

/** The credentials a signing link is made of: whoever holds one can sign as that submitter. */
export const SIGNER_CREDENTIALS = ['slug', 'signing_url', 'embed_src'] as const;

/**
 * The signer a form token opens when minting names none: nobody once someone declined (the submission is
 * over); in sequential order the one whose turn it is, if still to act; in parallel order the first
 * (by position) still to act. `submitters` are in position order, as every query returns them.
 */
export function nextSigner(submission: Pick<Submission, 'submittersOrder'>, submitters: Submitter[]): Submitter | null {
  if (submitters.some((s) => s.status === 'declined')) return null;
  return submitters.find((s) => isActive(s) && isTurnOf(submission, submitters, s)) ?? null;
}

/** Whether an embed read may show `submitterId`'s signing link: only to a signing token bound to them. */
export function showsCredentialsOf(grant: Pick<EmbedGrant, 'permissions' | 'submitterId'>, submitterId: number): boolean {
  return grant.permissions.includes('sign') && grant.submitterId === submitterId;
}

/** `serialized` (a submitter as the API shows it) without its signing link unless the grant may see it. */
export function withoutForeignCredentials<T extends { id: number }>(
  grant: Pick<EmbedGrant, 'permissions' | 'submitterId'>,
  serialized: T,
): T | Omit<T, (typeof SIGNER_CREDENTIALS)[number]> {
  if (showsCredentialsOf(grant, serialized.id)) return serialized;
  const shown: Record<string, unknown> = { ...serialized };
  for (const key of SIGNER_CREDENTIALS) delete shown[key];
  return shown as Omit<T, (typeof SIGNER_CREDENTIALS)[number]>;
}
