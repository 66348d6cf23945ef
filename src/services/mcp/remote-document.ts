// A document an MCP client names by URL (create_template's `url`): fetched under the webhook destination
// rules (decisions.md › Webhooks, blocked destinations; DNS answers judged too), because the URL is the
// caller's to choose and the Worker must not be made to reach inside a network.
import { unprocessable } from '../../lib/errors';
import { readBodyCapped } from '../../lib/request';
import { UPLOAD_LIMITS } from '../documents/ingest';
import { checkWebhookDestination } from '../webhooks/destination';
import { hostResolverFromEnv, type HostResolver } from '../webhooks/dns-over-https';
import { urlPolicyFromEnv, type UrlWording } from '../webhooks/url-policy';

export type RemoteDocumentEnv = { ENVIRONMENT: string; WEBHOOK_ALLOW_HOSTS?: string; DOH_RESOLVER_URL?: string };

/** The whole answer must arrive within this, as a webhook attempt's must. */
export const REMOTE_DOCUMENT_TIMEOUT_MS = 10_000;

const WORDING: UrlWording = { field: 'url', caller: 'document downloads' };
const MB = 1024 * 1024;

/** The file's bytes; a refused URL, a non-2xx answer, a redirect or a file over 20 MB is a 422 saying which. */
export async function fetchRemoteDocument(
  raw: string,
  env: RemoteDocumentEnv,
  resolve: HostResolver = hostResolverFromEnv(env),
): Promise<Uint8Array> {
  const verdict = await checkWebhookDestination(raw, urlPolicyFromEnv(env), resolve, WORDING);
  if (!verdict.ok) throw unprocessable(verdict.reason);
  let response: Response;
  try {
    // A redirect is never followed: its target has not been checked.
    response = await fetch(verdict.url, { redirect: 'manual', signal: AbortSignal.timeout(REMOTE_DOCUMENT_TIMEOUT_MS) });
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    throw unprocessable(timedOut ? `url did not answer within ${REMOTE_DOCUMENT_TIMEOUT_MS / 1000} seconds.` : 'url could not be fetched.');
  }
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    throw unprocessable(`url answered ${response.status} (a redirect); redirects are not followed, so give the file's final URL.`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw unprocessable(`url answered ${response.status}; the file must be served with a 2xx status.`);
  }
  const limit = UPLOAD_LIMITS.fileBytes;
  return readBodyCapped(response, limit, () => unprocessable(`The file at url is larger than ${limit / MB} MB, the limit for one file.`));
}
