// Handlers of a qes signer's trip to the CSC provider and back (issue 18 › 3; docs/qes.md): the callback
// that signs and completes, the retry, and how a stop is shown. Page routes, outside the OpenAPI document.
import { ApiError, notFound } from '../../lib/errors';
import { isDevelopment } from '../../lib/environment';
import { pageKind, type Signing } from '../../services/signing/signing-session';
import { embedOptionsOf } from '../../signing-page/embed-options';
import { MessagePage, QesRetryPage } from '../../signing-page/pages';
import { html, loadVerifiedWithLiveLinks, pageFrame, signingBranding, type C } from './signing.handlers';
import { qesRedirectUri, qesStopped } from './signing.qes-errors';

/** The QES flow brings pdf-lib and PKI.js, loaded on first use (decisions.md › Cold start). */
const signatureEngine = () => import('../../services/sealing/qes-signing-flow');

async function qesRetryPage(c: C, signing: Signing, text: string) {
  const { account } = signing;
  const branding = signingBranding(c, signing);
  const frame = pageFrame(c, signing, 'form', embedOptionsOf(new URL(c.req.url).searchParams, { allowHttp: isDevelopment(c.env) }));
  return html(c, <QesRetryPage branding={branding} slug={signing.submitter.slug} text={text} frame={frame} />, account);
}

function qesRefusedPage(c: C, signing: Signing, reason: string) {
  const { account } = signing;
  const branding = signingBranding(c, signing);
  return html(
    c,
    <MessagePage branding={branding} id="qes-refused" heading="This form cannot be completed" text={`${reason} Nothing was signed.`} />,
    account,
  );
}

/**
 * GET /s/:slug/qes/callback — the provider's redirect back (issue 18 › 3): signed and completed, then the
 * signing page; any failure is the retry page and the signer stays as they were.
 */
export async function qesCallback(c: C) {
  const { ctx, signing } = await loadVerifiedWithLiveLinks(c);
  const slug = signing.submitter.slug;
  if (signing.scope.submission.signatureLevel !== 'qes') throw notFound('Signing step');
  if (signing.submitter.status === 'completed') return c.redirect(`/s/${slug}`, 303);
  const { finishQesSigning } = await signatureEngine();
  try {
    await finishQesSigning(c.env, ctx, signing, new URL(c.req.url).searchParams);
  } catch (error) {
    // The form can no longer be completed (expired, declined by another, archived): said, with no retry.
    if (error instanceof ApiError && error.status === 422) return qesRefusedPage(c, signing, error.message);
    const text = qesStopped(c, error);
    if (text === null) throw error;
    return qesRetryPage(c, signing, text);
  }
  return c.redirect(`/s/${slug}`, 303);
}

/**
 * GET /s/:slug/qes/retry — the retry page's button: a new authorization for the values already saved,
 * and the browser sent to the provider again.
 */
export async function qesRetry(c: C) {
  const { ctx, signing } = await loadVerifiedWithLiveLinks(c);
  if (signing.scope.submission.signatureLevel !== 'qes') throw notFound('Signing step');
  if (pageKind(signing) !== 'form') return c.redirect(`/s/${signing.submitter.slug}`, 303);
  const { beginQesSigning } = await signatureEngine();
  try {
    return c.redirect(await beginQesSigning(c.env, ctx, signing, {}, qesRedirectUri(c, signing)), 303);
  } catch (error) {
    const text = qesStopped(c, error);
    if (text === null) throw error;
    return qesRetryPage(c, signing, text);
  }
}
