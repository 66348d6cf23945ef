// Handlers for public document link settings and minting.
import { assertNotErased } from '../submissions/erased-submissions';
import type { AppRouteHandler } from '../app-route-handler';
import { bumpDocumentLinkGeneration, updateAccount } from '../../db/queries/accounts';
import { findSubmission } from '../../db/queries/submissions';
import type { Account } from '../../db/schema/index';
import { notFound } from '../../lib/errors';
import { baseUrl } from '../../lib/request';
import { assertLinkable, mintDocumentLink as mintLink } from '../../services/document-links/links';
import type * as routes from './document-links.routes';

function serializeSettings(account: Account) {
  return { document_links: { enabled: account.documentLinksEnabled, expires_in_days: account.documentLinkExpiryDays } };
}

export const getDocumentLinkSettings: AppRouteHandler<typeof routes.getDocumentLinkSettings> = (c) =>
  c.json(serializeSettings(c.var.principal.account), 200);

export const updateDocumentLinkSettings: AppRouteHandler<typeof routes.updateDocumentLinkSettings> = async (c) => {
  const body = c.req.valid('json');
  const account = await updateAccount(c.var.control, c.var.principal.account.id, {
    documentLinksEnabled: body.enabled,
    documentLinkExpiryDays: body.expires_in_days,
  });
  c.set('audit', { action: 'document_links.update', resourceType: 'account', resourceId: account.id });
  return c.json(serializeSettings(account), 200);
};

export const revokeDocumentLinks: AppRouteHandler<typeof routes.revokeDocumentLinks> = async (c) => {
  const account = await bumpDocumentLinkGeneration(c.var.control, c.var.principal.account.id);
  c.set('audit', { action: 'document_links.revoke', resourceType: 'account', resourceId: account.id });
  return c.json(serializeSettings(account), 200);
};

export const mintDocumentLink: AppRouteHandler<typeof routes.mintDocumentLink> = async (c) => {
  const { id, document_id: documentId } = c.req.valid('param');
  const body = c.req.valid('json') ?? {};
  const account = c.var.principal.account;
  const submission = await findSubmission(c.var.scope.db, account.id, id);
  if (!submission) throw notFound('Submission');
  assertNotErased(submission);
  if (!submission.documentIds.includes(documentId)) throw notFound('Document');
  assertLinkable(submission);
  const link = await mintLink(
    c.env.ENCRYPTION_KEY,
    baseUrl(c.req.raw, c.env.APP_URL),
    account,
    { submissionId: submission.id, documentId },
    body.expires_in_days,
  );
  c.set('audit', { action: 'document_link.create', resourceType: 'submission', resourceId: submission.id });
  return c.json(link, 201);
};
