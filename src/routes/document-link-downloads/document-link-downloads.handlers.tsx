// Opening a public document link: verify the token, one control lookup for the account, then its shard
// and R2 (docs/document-links.md). No credentials, so every refusal says only what a holder may know.
import type { AppRouteHandler } from '../app-route-handler';
import type { Context } from 'hono';
import type { AppEnv } from '../../app-env';
import { getAccount } from '../../db/queries/accounts';
import { insertAuditEvent } from '../../db/queries/audit-events';
import { listSealedDocuments } from '../../db/queries/submission-documents';
import { findSubmission } from '../../db/queries/submissions';
import { accountScope } from '../../db/shards';
import { parseByteRange } from '../../lib/byte-range';
import { attachment } from '../../lib/content-disposition';
import { clientIp } from '../../lib/request';
import { lapsedReason, PUBLIC_LINK_PREFIX } from '../../services/document-links/links';
import { verifyDocumentLink } from '../../services/document-links/tokens';
import type * as routes from './document-link-downloads.routes';
import type { Account } from '../../db/schema/index';
import { translatorFor } from '../../lib/i18n/catalogs';
import { refusalPage, visitorLocale, wantsHtml } from '../signer-refusals';
import type { MessageKey } from '../../shared/i18n/translator';

type Refusal = 'not_found' | 'revoked' | 'expired' | 'not_ready' | 'erased';

/** Each refusal's page words in the catalogs (src/shared/i18n/catalogs). */
const REFUSAL_KEYS: Record<Refusal, { title: MessageKey; text: MessageKey }> = {
  not_found: { title: 'link.not_found.title', text: 'link.not_found.text' },
  revoked: { title: 'link.revoked.title', text: 'link.revoked.text' },
  expired: { title: 'link.expired.title', text: 'link.expired.text' },
  not_ready: { title: 'link.not_ready.title', text: 'link.not_ready.text' },
  erased: { title: 'link.erased.title', text: 'link.erased.text' },
};

/**
 * A refusal a person can read, in the reader's language (the link's `lang`, the account's locale when
 * known, else the browser's): for browsers the signing pages' message page in the service's own branding
 * (src/routes/signer-refusals.tsx), `{error}` for everything else.
 */
function refusal(
  c: Context<AppEnv>,
  status: 404 | 409 | 410,
  refused: Refusal,
  account: Pick<Account, 'locale'> | null,
  headers: Record<string, string> = {},
): Response {
  const keys = REFUSAL_KEYS[refused];
  const locale = visitorLocale(c, account);
  const t = translatorFor(locale);
  if (!wantsHtml(c)) return c.json({ error: t(keys.text) }, status, { 'Cache-Control': 'no-store', ...headers });
  const text = `${t(keys.text)} ${t('link.ask_sender')}`;
  return refusalPage(c, { status, locale, heading: t(keys.title), text, id: 'document-link', headers });
}

export const openDocumentLink: AppRouteHandler<typeof routes.openDocumentLink> = async (c) => {
  const { token } = c.req.valid('param');
  const notFound = () => refusal(c, 404, 'not_found', null);
  const claims = await verifyDocumentLink(c.env.ENCRYPTION_KEY, token);
  if (!claims) return notFound();
  // On a custom domain only that domain's account's links open (as signing links do), and a suspended
  // account's documents are served to nobody: both answer as an unknown link, telling a holder nothing.
  const customDomain = c.var.customDomain;
  if (customDomain && customDomain.accountId !== claims.accountId) return notFound();
  const account = await getAccount(c.var.control, claims.accountId);
  if (!account || account.suspendedAt) return notFound();
  const lapsed = lapsedReason(claims, account);
  if (lapsed) return refusal(c, 410, lapsed, account);

  const { db } = accountScope(c.env, account);
  const submission = await findSubmission(db, account.id, claims.submissionId);
  if (!submission || !submission.documentIds.includes(claims.documentId)) return notFound();
  // Erasure (issue 33 › 5) ends every link to the submission's documents.
  if (submission.erasureStartedAt) return refusal(c, 410, 'erased', account);
  if (!submission.sealedAt) {
    return refusal(c, 409, 'not_ready', account, {
      'Retry-After': '60',
    });
  }
  const document = (await listSealedDocuments(db, submission.id)).find((d) => d.templateDocumentId === claims.documentId);
  const head = document ? await c.env.FILES.head(document.r2Key) : null;
  if (!document || !head) return notFound();

  const headers: Record<string, string> = {
    'Content-Type': 'application/pdf',
    'Content-Disposition': attachment(document.filename),
    ETag: head.httpEtag,
    'Accept-Ranges': 'bytes',
    // The link is the authority: no shared cache may keep a copy past a revoke.
    'Cache-Control': 'private, no-store',
    'X-Content-Type-Options': 'nosniff',
  };
  const range = parseByteRange(c.req.header('Range'), head.size);
  if (range === 'unsatisfiable') {
    return c.json({ error: `The requested range lies outside the file of ${head.size} bytes.` }, 416, {
      ...headers,
      'Content-Range': `bytes */${head.size}`,
    });
  }
  const status = range ? 206 : 200;
  const length = range ? range.length : head.size;
  if (range) headers['Content-Range'] = `bytes ${range.offset}-${range.offset + range.length - 1}/${head.size}`;
  headers['Content-Length'] = String(length);
  if (c.req.method === 'HEAD') return c.body(null, status, headers) as never;

  const object = await c.env.FILES.get(document.r2Key, range ? { range } : undefined);
  if (!object) return notFound();
  // One download is one GET from byte 0; the further chunks of a ranged reader are not new downloads.
  if (!range || range.offset === 0) {
    await insertAuditEvent(db, {
      accountId: account.id,
      actor: 'public_link',
      action: 'document_link.download',
      resourceType: 'submission',
      resourceId: String(submission.id),
      method: 'GET',
      // The claims without the MAC: enough to tell links apart, useless to open one.
      path: `${PUBLIC_LINK_PREFIX}/${token.slice(0, token.lastIndexOf('.'))}`,
      status,
      ip: clientIp(c.req.raw),
      userAgent: c.req.header('User-Agent') ?? null,
      requestId: c.var.requestId,
    });
  }
  return c.body(object.body, status, headers) as never;
};
