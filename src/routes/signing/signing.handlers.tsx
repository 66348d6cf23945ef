// Handlers of the signing page routes: call src/services/signing, shape the page or JSON. The JSON
// routes' bodies arrive validated by their declarations (signing.routes.ts).
import { generatedDocumentKey, submissionDocumentObject } from '../../services/submissions/generated-documents';
import type { AppRouteHandler } from '../app-route-handler';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { AppEnv } from '../../app-env';
import type { Db } from '../../db/client';
import { useAccountScope } from '../../middleware/databases';
import { attachment } from '../../lib/content-disposition';
import { ApiError, signerRefusal, unprocessable } from '../../lib/errors';
import { baseUrl, clientIp } from '../../lib/request';
import type { StateContext } from '../../services/submissions/submission-state';
import { codeChannel, hasVerifiedSession, sendCode, verifyCode } from '../../services/signing/email-verification';
import {
  accountOfSlug,
  assertCanFill,
  loadSigning,
  openForm,
  openingValues,
  pageKind,
  saveValues,
  signerFields,
  type Signing,
} from '../../services/signing/signing-session';
import { nowIso } from '../../lib/time';
import { acceptDisclosure, declineForm, delegateForm, inviteWitness, submitForm } from '../../services/signing/signer-actions';
import { disclosureIn } from '../../services/signing/consent-disclosure';
import { signerLocale } from '../../services/signing/signer-language';
import { languageCookie, visitorLocale } from '../signer-refusals';
import { clientMessages, translatorFor } from '../../lib/i18n/catalogs';
import { matchLocale, type Locale } from '../../shared/i18n/locales';
import { storeAttachment } from '../../services/signing/attachments';
import { recordLinkClick } from '../../services/signing/link-clicks';
import { pageBranding, serviceBranding } from '../../signing-page/branding';
import { activeDomainsOf } from '../../db/queries/custom-domains';
import { withLinkDomain } from '../../services/submissions/links';
import { waitingFor, witnessRoleOf } from '../../services/submissions/signing-order';
import { SIGNING_SCRIPT, signingCsp, type EmbedData, type PageFrame } from '../../signing-page/layout';
import { versionedAssetUrl } from '../../lib/asset-versions';
import { embedSubmitter } from '../../signing-page/embed-submitter';
import { embedOptionsOf, lockedFields, prefilledValues, themeCss, type EmbedOptions } from '../../signing-page/embed-options';
import { frameAncestors } from '../../services/embed/embed-origins';
import { isDevelopment } from '../../lib/environment';
import type { Account, TemplateDocument } from '../../db/schema/index';
import { CompletedPage, FormPage, MessagePage, VerifyPage } from '../../signing-page/pages';
import { qesApiError, qesRedirectUri } from './signing.qes-errors';
import { listSealedDocuments } from '../../db/queries/submission-documents';
import { readSealedFiles } from '../../services/sealing/sealed-files';
import { zipSealedDocuments } from '../../services/sealing/sealed-zip';
import { paymentStates, startFieldCheckout } from '../../services/signing/field-payments';
import { PaymentProcessorError } from '../../services/billing/stripe-checkout';
import type * as routes from './signing.routes';
import { SIGNING_PREFIX } from './signing.routes';
import {
  pageImagesState,
  pageImageVersion,
  queuePageImages,
  signingPageImage,
  SIGNING_IMAGE_WIDTHS,
} from '../../services/signing/page-images';

/** A document or page the signer's page asked for and cannot have (not theirs, not drawn): 404, in their language. */
const documentUnavailable = (what: string) => signerRefusal(`${what} not found.`, 'signer_error.document_unavailable', undefined, 404);

/** The signed copy asked for before it exists (the form not completed by everyone, or not sealed yet). */
const signedCopyUnavailable = () => signerRefusal('Signed document not found.', 'signer_error.signed_copy_unavailable', undefined, 404);

export type C = Context<AppEnv>;

function contextOf(c: C, db: Db, signing: Signing): StateContext {
  return {
    db,
    account: signing.account,
    serviceName: c.env.SERVICE_NAME,
    apiBase: baseUrl(c.req.raw, c.env.APP_URL),
    linkSecret: c.env.ENCRYPTION_KEY,
    messagesQueue: c.var.scope.queues.messages,
    sealingQueue: c.var.scope.queues.sealing,
    ip: clientIp(c.req.raw),
    userAgent: c.req.header('User-Agent') ?? null,
  };
}

const cookieName = (slug: string) => `signing_session_${slug}`;

/**
 * The language this signer is served in (issue 31 › 2): their choice on the page, then the submitter's,
 * the submission's and the template's language, the embed option, the account's locale and the browser's.
 */
export function signingLocale(c: C, signing: Signing, options: Pick<EmbedOptions, 'language'>): Locale {
  const slug = signing.submitter.slug;
  return signerLocale({
    chosen: matchLocale(c.req.query('lang')) ?? getCookie(c, languageCookie(slug)),
    submitter: signing.submitter.language,
    submission: signing.scope.submission.preferences.language,
    template: signing.scope.template.preferences.language,
    embed: options.language,
    account: signing.account.locale,
    acceptLanguage: c.req.header('Accept-Language'),
  });
}

/** The signer's language for a request of the page's script (no embed option: the page's own query is not sent). */
function requestLocale(c: C, signing: Signing): Locale {
  return c.var.signerLocale ?? signingLocale(c, signing, { language: null });
}

function requestTranslator(c: C, signing: Signing) {
  return translatorFor(requestLocale(c, signing));
}

/** `?lang=` from the page's language switch: kept for this signer (a year, their link's path only). */
function rememberChosenLanguage(c: C, slug: string): void {
  const chosen = matchLocale(c.req.query('lang'));
  if (!chosen) return;
  const secure = new URL(c.req.url).protocol === 'https:';
  setCookie(c, languageCookie(slug), chosen, {
    path: `/s/${slug}`,
    httpOnly: true,
    secure,
    sameSite: secure ? 'None' : 'Lax',
    partitioned: secure,
    maxAge: 365 * 24 * 60 * 60,
  });
}

/** The signer behind the path's slug: the slug names the account, whose shard the request then uses. */
async function findSigning(c: C): Promise<Signing | null> {
  const slug = c.req.param('slug') ?? '';
  const account = await accountOfSlug(c.var.control, slug);
  if (!account) return null;
  // On a custom signing domain only its own account's links work (docs/custom-domains.md › Host routing).
  if (c.var.customDomain && c.var.customDomain.accountId !== account.id) return null;
  useAccountScope(c, account);
  const signing = await loadSigning(c.var.scope.db, account, slug);
  // An erased submission (issue 33 › 5) has nothing left to show or sign: its links read as unknown ones.
  return signing?.scope.submission.erasureStartedAt ? null : signing;
}

async function load(c: C): Promise<{ db: Db; signing: Signing }> {
  const signing = await findSigning(c);
  if (!signing) throw signerRefusal('Signing link not found.', 'not_found.text', {}, 404);
  // Refusals from here on are worded in the signer's language (src/routes/signer-refusals.tsx).
  c.set('signerLocale', signingLocale(c, signing, { language: null }));
  return { db: c.var.scope.db, signing };
}

async function verified(c: C, db: Db, signing: Signing): Promise<boolean> {
  const channel = codeChannel(signing);
  if (!channel) return true;
  return hasVerifiedSession({ db }, signing.submitter, getCookie(c, cookieName(signing.submitter.slug)), channel);
}

/** Loads the signer and refuses the request until their email or phone is verified when a code is asked for. */
async function loadVerified(c: C) {
  const loaded = await load(c);
  if (!(await verified(c, loaded.db, loaded.signing)))
    throw new ApiError(
      403,
      requestTranslator(
        c,
        loaded.signing,
      )(codeChannel(loaded.signing) === 'email' ? 'verify.error.required' : 'verify.error.required_phone'),
    );
  return { ...loaded, ctx: contextOf(c, loaded.db, loaded.signing) };
}

/**
 * For actions that email someone (the next signer, a delegate, a witness, completion copies, a code):
 * their links and branding use the custom domain that applies now (docs/custom-domains.md › Links).
 * One control query, only on these actions.
 */
async function useLiveLinks(c: C, signing: Signing): Promise<void> {
  signing.scope = withLinkDomain(signing.scope, await activeDomainsOf(c.var.control, signing.account.id));
}

export async function loadVerifiedWithLiveLinks(c: C) {
  const loaded = await loadVerified(c);
  await useLiveLinks(c, loaded.signing);
  return loaded;
}

/**
 * A signing page: framed only by the account's allowed embedding origins (`embed_origins`; CSP
 * frame-ancestors). X-Frame-Options cannot name origins, so it is sent (DENY) only while none is allowed.
 */
export function html(c: C, element: unknown, account: Pick<Account, 'embedOrigins'> | null, status: 200 | 404 = 200) {
  const origins = account?.embedOrigins ?? [];
  c.header('Content-Security-Policy', signingCsp(frameAncestors(origins)));
  c.header('Cache-Control', 'no-store');
  if (origins.length === 0) c.header('X-Frame-Options', 'DENY');
  c.header('Referrer-Policy', 'no-referrer');
  // The doctype keeps the page out of quirks mode (which adds a 1em margin under forms, among others).
  return c.html(`<!doctype html>${String(element)}`, status);
}

const EMBED_EVENTS: Partial<Record<ReturnType<typeof pageKind>, EmbedData['event']>> = {
  completed: 'completed',
  declined: 'declined',
  expired: 'expired',
};

/** The page's frame extras: its embedding data (only when the account allows framing), language and theme. */
export function pageFrame(c: C, signing: Signing, kind: ReturnType<typeof pageKind>, options: EmbedOptions): PageFrame {
  const { account, scope, submitter } = signing;
  const urls = { apiBase: baseUrl(c.req.raw, c.env.APP_URL), pageOrigin: new URL(c.req.url).origin };
  const embed: EmbedData | undefined =
    account.embedOrigins.length > 0
      ? {
          origins: account.embedOrigins,
          event: EMBED_EVENTS[kind] ?? 'load',
          submission_id: scope.submission.id,
          submitter_id: submitter.id,
          slug: submitter.slug,
          status: submitter.status,
          submission_status: scope.submission.status,
          submitter: embedSubmitter(signing, urls),
        }
      : undefined;
  return { embed, locale: signingLocale(c, signing, options), switchable: true, themeCss: themeCss(options.theme) };
}

/**
 * The signer's documents the page can show as stored page images (issue 31 › 6), by id. Those that could
 * have images but have none yet are queued for drawing after the answer, so the next visit has them.
 */
async function documentsWithImages(c: C, signing: Signing): Promise<Set<number>> {
  const documents = signing.scope.template.documents;
  const states = await Promise.all(documents.map((d) => pageImagesState(c.env.FILES, d, signing.scope.submission.slug)));
  const missing = documents.filter((_, i) => states[i] === 'missing');
  if (missing.length > 0) c.executionCtx.waitUntil(queuePageImages(c.var.scope.queues.sealing, c.env.BROWSER, signing.account.id, missing));
  return new Set(documents.filter((_, i) => states[i] === 'ready').map((d) => d.id));
}

/** Where the page finds a document's page images: `{page}` and `{width}` filled in by its script. */
async function pageImagesOf(slug: string, document: Pick<TemplateDocument, 'uuid' | 'r2Key'>) {
  const version = await pageImageVersion(document);
  return { url: `/s/${slug}/documents/${document.uuid}/pages/{page}?w={width}&v=${version}`, widths: [...SIGNING_IMAGE_WIDTHS] };
}

async function formData(c: C, signing: Signing, locale: Locale, payments: Awaited<ReturnType<typeof paymentStates>> = {}) {
  const { scope, submitter } = signing;
  const images = await documentsWithImages(c, signing);
  const fields = signerFields(signing);
  const own = new Set(fields.map((f) => f.uuid));
  const slug = submitter.slug;
  const p = scope.template.preferences;
  const { disclosure, sha256 } = await disclosureIn(locale);
  return {
    slug,
    submitter: { name: submitter.name, email: submitter.email, role: submitter.role },
    fields: fields.map((f) => ({ ...f, preferences: f.preferences ?? {} })),
    // Only this signer's values: other submitters' entries never reach their page.
    values: Object.fromEntries(Object.entries(submitter.values).filter(([uuid]) => own.has(uuid))),
    documents: await Promise.all(
      scope.template.documents.map(async (d) => ({
        uuid: d.uuid,
        filename: d.filename,
        page_count: d.pageCount,
        page_dimensions: d.pageDimensions,
        url: `/s/${slug}/documents/${d.uuid}`,
        page_images: images.has(d.id) ? await pageImagesOf(slug, d) : undefined,
      })),
    ),
    payments,
    // Shown before the form until accepted, in the page's language (src/services/signing/consent-disclosure.ts).
    disclosure: {
      locale,
      version: disclosure.version,
      sha256,
      accepted: submitter.disclosureAcceptedAt !== null,
    },
    locale,
    messages: clientMessages(locale),
    preferences: {
      signing_nav_style: p.signing_nav_style ?? 'standard',
      document_conditions: p.document_conditions ?? {},
      carousel_review_documents: p.carousel_review_documents ?? [],
    },
  };
}

/**
 * The branding a signing page shows, resolved now, not when the submission was created (brand edits reach
 * signers who have not finished), with the custom domain the page is served on.
 */
export function signingBranding(c: C, signing: Signing) {
  const { scope, account } = signing;
  return pageBranding({
    template: scope.template.preferences,
    templateName: scope.template.name,
    brand: scope.brand,
    domainBranding: c.var.customDomain?.branding,
    account,
    serviceName: c.env.SERVICE_NAME,
  });
}

/** GET /s/:slug — the page for where this signer stands. */
export async function showPage(c: C) {
  const signing = await findSigning(c);
  const serviceName = c.env.SERVICE_NAME;
  if (!signing) {
    const locale = visitorLocale(c);
    const t = translatorFor(locale);
    return html(
      c,
      <MessagePage
        branding={serviceBranding(serviceName, t('page.signing_title'))}
        id="not-found"
        heading={t('not_found.title')}
        text={t('not_found.text')}
        frame={{ locale }}
      />,
      null,
      404,
    );
  }
  const { scope, submitter, account } = signing;
  const options = embedOptionsOf(new URL(c.req.url).searchParams, { allowHttp: isDevelopment(c.env) });
  const branding = signingBranding(c, signing);
  const kind = pageKind(signing);
  const frame = { ...pageFrame(c, signing, kind, options), script: await versionedAssetUrl(c.env.ASSETS, SIGNING_SCRIPT) };
  rememberChosenLanguage(c, submitter.slug);
  const t = translatorFor(frame.locale!);
  const messages = clientMessages(frame.locale!);
  switch (kind) {
    case 'completed': {
      const redirect = options.completedRedirectUrl ?? scope.submission.preferences.completed_redirect_url;
      const continueUrl = typeof redirect === 'string' && /^https?:\/\//i.test(redirect) ? redirect : null;
      const downloadUrl = scope.submission.sealedAt ? `/s/${submitter.slug}/download` : null;
      // Rule 2: a signer who is not the witness may invite one while the submission waits.
      const witnessRole = witnessRoleOf(scope.template.roles);
      const canInviteWitness =
        scope.submission.status === 'pending' && witnessRole !== undefined && witnessRole.uuid !== submitter.roleUuid;
      return html(
        c,
        <CompletedPage
          branding={branding}
          slug={submitter.slug}
          continueUrl={continueUrl}
          downloadUrl={downloadUrl}
          canInviteWitness={canInviteWitness}
          messages={messages}
          frame={frame}
        />,
        account,
      );
    }
    case 'declined':
      return html(
        c,
        <MessagePage branding={branding} id="declined" heading={t('declined.title')} text={t('declined.text')} frame={frame} />,
        account,
      );
    case 'expired':
      return html(
        c,
        <MessagePage branding={branding} id="expired" heading={t('expired.title')} text={t('expired.text')} frame={frame} />,
        account,
      );
    case 'waiting': {
      // Who signs first, by name or else by role: a signer is not shown the others' email addresses.
      const first = waitingFor(scope.submission, scope.submitters, submitter).map((s) => (s.nameFromSigner ? null : s.name) || s.role);
      return html(
        c,
        <MessagePage
          branding={branding}
          id="waiting"
          heading={t('waiting.title')}
          text={
            first.length > 0
              ? t('waiting.text_named', { names: new Intl.ListFormat(frame.locale!, { type: 'conjunction' }).format([...new Set(first)]) })
              : t('waiting.text')
          }
          frame={frame}
        />,
        account,
      );
    }
    case 'signed_by_other': {
      // The people of an any-one-of group were named together by the sender: the signer's name, else email.
      const signer = scope.submitters.find((s) => s.id === submitter.id);
      return html(
        c,
        <MessagePage
          branding={branding}
          id="signed-by-other"
          heading={t('signed_by_other.title')}
          text={t('signed_by_other.text', { name: signer?.name || signer?.email || t('signed_by_other.someone') })}
          frame={frame}
        />,
        account,
      );
    }
    case 'unavailable':
      return html(
        c,
        <MessagePage branding={branding} id="unavailable" heading={t('unavailable.title')} text={t('unavailable.text')} frame={frame} />,
        account,
      );
    case 'form':
      break;
  }
  if (!(await verified(c, c.var.scope.db, signing))) {
    const channel = codeChannel(signing) ?? 'email';
    const to = channel === 'email' ? (submitter.email ?? '') : (submitter.phone ?? '');
    return html(
      c,
      <VerifyPage branding={branding} slug={submitter.slug} channel={channel} to={to} messages={messages} frame={frame} />,
      account,
    );
  }
  // Shown, not stored: the page's script opens the form (POST /s/:slug/open), so a link scanner's GET
  // records nothing in the trail and fires no form.viewed.
  // The host's prefill (embedded form) fills what the signer has not; it is stored only when they save.
  const shown = { ...signing.submitter, values: prefilledValues(signerFields(signing), openingValues(signing, nowIso()), options) };
  const payments = await paymentStates(c.var.scope.db, signing);
  const data = await formData(c, { ...signing, submitter: shown }, frame.locale!, payments);
  const locked = new Set(lockedFields(signerFields(signing), options));
  data.fields = data.fields.map((f) => (locked.has(f.uuid) ? { ...f, locked: true } : f));
  return html(c, <FormPage branding={branding} data={data} frame={frame} />, account);
}

/** POST /s/:slug/open — the form is on the signer's screen: opened once, with form.viewed. */
export const postOpen: AppRouteHandler<typeof routes.postOpen> = async (c) => {
  const { ctx, signing } = await loadVerified(c);
  assertCanFill(signing);
  const opened = await openForm(ctx, signing);
  return c.json({ status: opened.status, opened_at: opened.openedAt }, 200);
};

/** The signer and the document of the path, on the pages that show documents (the form and completed). */
export async function shownDocument(c: C) {
  const { signing } = await loadVerified(c);
  const kind = pageKind(signing);
  if (kind !== 'form' && kind !== 'completed') throw documentUnavailable('Document');
  const document = signing.scope.template.documents.find((d) => d.uuid === c.req.param('document_uuid'));
  if (!document) throw documentUnavailable('Document');
  return { signing, document };
}

/** GET /s/:slug/documents/:document_uuid — the original PDF of one of the submission's documents. */
export async function streamDocument(c: C) {
  const { signing, document } = await shownDocument(c);
  // A DOCX template's document filled for this submission, when it has one (generated-documents.ts).
  const object = await submissionDocumentObject(c.env.FILES, document, signing.scope.submission.slug);
  if (!object) throw documentUnavailable('Document');
  return new Response(object.body, {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Length': String(object.size),
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

/**
 * GET /s/:slug/documents/:document_uuid/pages/:page?w= — one page of the document as the stored PNG at
 * a signing width (issue 31 › 6). 404 when it is not drawn or the submission has its own copy of the
 * document: the page then draws the PDF with pdf.js. Its URL carries the file's version, so it is cached.
 */
export async function pageImage(c: C) {
  const { signing, document } = await shownDocument(c);
  const image = await signingPageImage(
    c.env.FILES,
    document,
    signing.scope.submission.slug,
    Number(c.req.param('page')),
    Number(c.req.query('w')),
  );
  if (!image) throw documentUnavailable('Page image');
  return new Response(image.bytes, {
    headers: {
      'Content-Type': image.contentType,
      'Content-Length': String(image.bytes.byteLength),
      'Cache-Control': 'private, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

/**
 * GET /s/:slug/documents/:document_uuid/text — the document's text layer (issue 31 › 4), which the page
 * puts under each page image for screen readers. A submission's own generated copy (DOCX) is read as it
 * is and not kept: its text holds this submission's values, which erasure must not leave behind.
 */
export async function documentText(c: C) {
  const { signing, document } = await shownDocument(c);
  const { documentTextLayer, extractTextLayer } = await import('../../services/documents/text-layer');
  const generated = await c.env.FILES.get(generatedDocumentKey(document, signing.scope.submission.slug));
  const layer = generated
    ? await extractTextLayer(new Uint8Array(await generated.arrayBuffer()))
    : await documentTextLayer(c.env.FILES, document);
  if (!layer) throw documentUnavailable('Document');
  return c.json(layer, 200, { 'Cache-Control': 'private, no-store' });
}

/**
 * GET /s/:slug/download — the signer's own copy once the submission is sealed: the sealed PDF, or a zip of
 * them when the template has several documents. Only a submitter who completed may download.
 */
export async function downloadSigned(c: C) {
  const { db, signing } = await loadVerified(c);
  const { submission } = signing.scope;
  if (signing.submitter.status !== 'completed' || !submission.sealedAt) throw signedCopyUnavailable();
  const documents = await listSealedDocuments(db, submission.id);
  if (documents.length === 0) throw signedCopyUnavailable();
  const headers = { 'Cache-Control': 'private, no-store', 'X-Content-Type-Options': 'nosniff' };
  // A certified form's audit trail, a file of its own, follows its document (issue 33 › 6).
  const files = await readSealedFiles(c.env.FILES, documents);
  if (!files) throw signedCopyUnavailable();
  if (files.length === 1) {
    return new Response(files[0].bytes, {
      headers: { ...headers, 'Content-Type': 'application/pdf', 'Content-Disposition': attachment(files[0].filename) },
    });
  }
  return new Response(zipSealedDocuments(files), {
    headers: {
      ...headers,
      'Content-Type': 'application/zip',
      'Content-Disposition': attachment(`${signing.scope.template.name || 'documents'}.zip`),
    },
  });
}

export const postSendCode: AppRouteHandler<typeof routes.postSendCode> = async (c) => {
  const { db, signing } = await load(c);
  assertCanFill(signing);
  const t = requestTranslator(c, signing);
  const channel = codeChannel(signing);
  if (!channel) throw unprocessable(t('verify.error.not_asked'));
  await useLiveLinks(c, signing);
  await sendCode(contextOf(c, db, signing), signing, channel, t);
  return c.json({ sent: true }, 200);
};

export const postCheckCode: AppRouteHandler<typeof routes.postCheckCode> = async (c) => {
  const { db, signing } = await load(c);
  assertCanFill(signing);
  const t = requestTranslator(c, signing);
  const channel = codeChannel(signing);
  if (!channel) throw unprocessable(t('verify.error.not_asked'));
  const token = await verifyCode(contextOf(c, db, signing), signing, channel, c.req.valid('json').code, t);
  // Over https the cookie is SameSite=None and Partitioned (CHIPS) so that it works in an allowed
  // origin's iframe, kept apart per embedding site; it only proves the code check, and every write still
  // needs the page's own Origin (sameOrigin). Plain http (development) cannot send None: Lax, which the
  // browser also sends within a same-site frame such as another localhost port (decisions.md › Embedding).
  const secure = new URL(c.req.url).protocol === 'https:';
  setCookie(c, cookieName(signing.submitter.slug), token, {
    path: `/s/${signing.submitter.slug}`,
    httpOnly: true,
    secure,
    sameSite: secure ? 'None' : 'Lax',
    partitioned: secure,
    maxAge: 12 * 60 * 60,
  });
  return c.json({ verified: true }, 200);
};

/** POST /s/:slug/link_opened — the page came from a link in an SMS or WhatsApp message (the trail's click). */
export const postLinkOpened: AppRouteHandler<typeof routes.postLinkOpened> = async (c) => {
  const { db, signing } = await load(c);
  const recorded = await recordLinkClick(contextOf(c, db, signing), signing, c.req.valid('json').channel);
  return c.json({ recorded }, 200);
};

export const putValues: AppRouteHandler<typeof routes.putValues> = async (c) => {
  const { ctx, signing } = await loadVerified(c);
  const saved = await saveValues(ctx, signing, c.req.valid('json').values ?? {});
  const own = new Set(signerFields(signing).map((f) => f.uuid));
  return c.json({ values: Object.fromEntries(Object.entries(saved.values).filter(([uuid]) => own.has(uuid))) }, 200);
};

export const postAttachment: AppRouteHandler<typeof routes.postAttachment> = async (c) => {
  const { db, signing } = await loadVerified(c);
  assertCanFill(signing);
  const noFile = () => signerRefusal('Send the file as multipart/form-data with a "file" part.', 'signer_error.upload_missing', {}, 400);
  let form: FormData;
  try {
    form = await c.req.formData();
  } catch {
    throw noFile();
  }
  const file = form.get('file');
  if (!(file instanceof File)) throw noFile();
  const stored = await storeAttachment({ db, bucket: c.env.FILES }, signing, { fieldUuid: String(form.get('field_uuid') ?? ''), file });
  return c.json(stored, 201);
};

export const postSubmit: AppRouteHandler<typeof routes.postSubmit> = async (c) => {
  const { ctx, signing } = await loadVerifiedWithLiveLinks(c);
  if (signing.scope.submission.signatureLevel === 'qes') {
    // The signer completes only once the provider has signed (GET /s/:slug/qes/callback). The signature
    // engine loads on first use (decisions.md › Cold start).
    const { beginQesSigning } = await import('../../services/sealing/qes-signing-flow');
    try {
      const values = c.req.valid('json').values ?? {};
      const url = await beginQesSigning(c.env, ctx, signing, values, qesRedirectUri(c, signing), requestLocale(c, signing));
      const slug = signing.submitter.slug;
      return c.json(
        {
          status: signing.submitter.status,
          submission_status: signing.scope.submission.status,
          redirect_url: `/s/${slug}`,
          authorization_url: url,
        },
        200,
      );
    } catch (error) {
      throw qesApiError(c, error, requestLocale(c, signing));
    }
  }
  const scope = await submitForm(ctx, signing, c.req.valid('json').values ?? {});
  const me = scope.submitters.find((s) => s.id === signing.submitter.id)!;
  return c.json({ status: me.status, submission_status: scope.submission.status, redirect_url: `/s/${me.slug}` }, 200);
};

/** POST /s/:slug/consent — the signer accepts the electronic records disclosure, once. */
export const postConsent: AppRouteHandler<typeof routes.postConsent> = async (c) => {
  const { ctx, signing } = await loadVerified(c);
  // The slug is the signer's credential: the audit event names the route, not the link.
  const request = { requestId: c.var.requestId, method: c.req.method, path: `${SIGNING_PREFIX}/{slug}/consent` };
  const body = c.req.valid('json');
  // The language the page showed it in; without one, the language the signer's page is in now.
  const language = matchLocale(body.language) ?? requestLocale(c, signing);
  const accepted = await acceptDisclosure(ctx, signing, body.version, request, language);
  return c.json({ version: accepted.version, language: accepted.language, accepted_at: accepted.acceptedAt }, 200);
};

/** The longest reason a signer may give for declining. */
const MAX_DECLINE_REASON = 1000;

export const postDecline: AppRouteHandler<typeof routes.postDecline> = async (c) => {
  const { ctx, signing } = await loadVerified(c);
  const reason = (c.req.valid('json').reason ?? '').trim();
  if (!reason) throw signerRefusal('Give a reason for declining.', 'signer_error.decline_reason_missing');
  if (reason.length > MAX_DECLINE_REASON)
    throw signerRefusal('The reason must be at most 1,000 characters.', 'signer_error.decline_reason_too_long', {
      max: MAX_DECLINE_REASON,
    });
  await declineForm(ctx, signing, reason);
  return c.json({ status: 'declined' }, 200);
};

export const postDelegate: AppRouteHandler<typeof routes.postDelegate> = async (c) => {
  const { ctx, signing } = await loadVerifiedWithLiveLinks(c);
  const { email, name } = c.req.valid('json');
  const delegated = await delegateForm(ctx, signing, { email, name: name ?? '' });
  return c.json({ status: delegated.status, delegated_to: { email: delegated.email ?? email, name: delegated.name ?? '' } }, 200);
};

export const postInviteWitness: AppRouteHandler<typeof routes.postInviteWitness> = async (c) => {
  const { ctx, signing } = await loadVerifiedWithLiveLinks(c);
  const { email, name } = c.req.valid('json');
  const witness = await inviteWitness(ctx, signing, { email, name: name ?? '' });
  return c.json({ witness: { email: witness.email ?? email, name: witness.name ?? '', status: witness.status } }, 200);
};

/** POST /s/:slug/payments/:field_uuid/checkout — a Stripe Checkout for one payment field, with the account's key. */
export const postPaymentCheckout: AppRouteHandler<typeof routes.postPaymentCheckout> = async (c) => {
  const { db, signing } = await loadVerified(c);
  assertCanFill(signing);
  const pageUrl = `${baseUrl(c.req.raw, c.env.APP_URL)}/s/${signing.submitter.slug}`;
  try {
    const url = await startFieldCheckout(c.env, db, signing, c.req.valid('param').field_uuid, pageUrl);
    return c.json({ url }, 200);
  } catch (err) {
    if (!(err instanceof PaymentProcessorError)) throw err;
    console.error(`[${c.var.requestId}] payment checkout: ${err.message}${err.detail ? ` — ${err.detail}` : ''}`);
    throw signerRefusal(err.message, 'signer_error.payment_processor', {}, 502);
  }
};
