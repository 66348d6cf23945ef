// The public links to a submission's signed documents that its completion (and archiving) payloads carry
// (spec › Public document links; docs/document-links.md).
import { payloadDocumentLinks, type LinkAccount } from '../document-links/links';
import type { SubmissionScope } from './submission-scope';

/** What minting links reads from a transition's context (StateContext). */
export type LinkContext = {
  account: LinkAccount;
  /** ENCRYPTION_KEY, which public document links are signed under; without it payloads carry none. */
  linkSecret?: string;
  /** Origin of API links in payloads. */
  apiBase: string;
};

/**
 * The scope with public links to its signed documents when the account has them on: minted once, before
 * the events are written, so that the stored payloads carry them and a redelivery replays the same links.
 */
export async function withDocumentLinks(ctx: LinkContext, scope: SubmissionScope): Promise<SubmissionScope> {
  const links = await payloadDocumentLinks(
    ctx.linkSecret,
    ctx.apiBase,
    ctx.account,
    scope.submission,
    scope.template.documents.map((d) => d.id),
  );
  return links ? { ...scope, documentLinks: links } : scope;
}
