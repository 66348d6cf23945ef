// Handlers of a qes signer's trip to the CSC provider and back (issue 18 › 3; docs/qes.md): the callback
// that signs and completes, the retry, and how a stop is shown. Page routes, outside the OpenAPI document.
import { ApiError, signerRefusal } from '../../lib/errors';
import { isDevelopment } from '../../lib/environment';
import { pageKind, type Signing } from '../../services/signing/signing-session';
import { embedOptionsOf } from '../../signing-page/embed-options';
import { MessagePage, QesRetryPage } from '../../signing-page/pages';
import { html, loadVerifiedWithLiveLinks, pageFrame, signingBranding, type C } from './signing.handlers';
import { qesRedirectUri, qesStopped } from './signing.qes-errors';
import { inSignerLanguage } from '../signer-refusals';
import { pageTranslator } from '../../signing-page/layout';

/** The QES flow brings pdf-lib and PKI.js, loaded on first use (decisions.md › Cold start). */
const signatureEngine = () => import('../../services/sealing/qes-signing-flow');

function frameOf(c: C, signing: Signing) {
  return pageFrame(c, signing, 'form', embedOptionsOf(new URL(c.req.url).searchParams, { allowHttp: isDevelopment(c.env) }));
}

/** The retry page, with why signing stopped in the signer's language (null: not a stop we explain). */
function qesRetryPage(c: C, signing: Signing, error: unknown) {
  const frame = frameOf(c, signing);
  const text = qesStopped(c, error, frame.locale);
  if (text === null) throw error;
  const branding = signingBranding(c, signing);
  return html(c, <QesRetryPage branding={branding} slug={signing.submitter.slug} text={text} frame={frame} />, signing.account);
}

function qesRefusedPage(c: C, signing: Signing, error: ApiError) {
  const { account } = signing;
  const branding = signingBranding(c, signing);
  const frame = frameOf(c, signing);
  const t = pageTranslator(frame);
  // The refusal in the page's language when it has a signer's sentence (src/routes/signer-refusals.tsx).
  const reason = inSignerLanguage(error, frame.locale).message;
  return html(
    c,
    <MessagePage
      branding={branding}
      id="qes-refused"
      heading={t('qes.refused.title')}
      text={t('qes.refused.text', { reason })}
      frame={frame}
    />,
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
  if (signing.scope.submission.signatureLevel !== 'qes') throw signerRefusal('Signing step not found.', 'not_found.text', undefined, 404);
  if (signing.submitter.status === 'completed') return c.redirect(`/s/${slug}`, 303);
  const { finishQesSigning } = await signatureEngine();
  try {
    await finishQesSigning(c.env, ctx, signing, new URL(c.req.url).searchParams);
  } catch (error) {
    // The form can no longer be completed (expired, declined by another, archived): said, with no retry.
    if (error instanceof ApiError && error.status === 422) return qesRefusedPage(c, signing, error);
    return qesRetryPage(c, signing, error);
  }
  return c.redirect(`/s/${slug}`, 303);
}

/**
 * GET /s/:slug/qes/retry — the retry page's button: a new authorization for the values already saved,
 * and the browser sent to the provider again.
 */
export async function qesRetry(c: C) {
  const { ctx, signing } = await loadVerifiedWithLiveLinks(c);
  if (signing.scope.submission.signatureLevel !== 'qes') throw signerRefusal('Signing step not found.', 'not_found.text', undefined, 404);
  if (pageKind(signing) !== 'form') return c.redirect(`/s/${signing.submitter.slug}`, 303);
  const { beginQesSigning } = await signatureEngine();
  try {
    const locale = frameOf(c, signing).locale;
    return c.redirect(await beginQesSigning(c.env, ctx, signing, {}, qesRedirectUri(c, signing), locale), 303);
  } catch (error) {
    return qesRetryPage(c, signing, error);
  }
}
