// A qes signer's submit (issue 18 › 3; docs/qes.md): their values are drawn into an incremental update of
// each document as the earlier qes signers left it, a signature is reserved and the hash of its CMS signed
// attributes is authorized by the signer at the CSC v2 provider; when they come back the provider signs
// that hash, the CMS is embedded, and only then does the signer complete — guarded on nobody having
// completed since the revision was prepared, so two signers can never both sign the same base.
import type { Account } from '../../db/schema/index';
import { paidPaymentsOfSubmission } from '../../db/queries/payments';
import { findSubmitterBySlug } from '../../db/queries/submissions';
import { timingSafeEqualString } from '../../lib/crypto';
import { nowIso } from '../../lib/time';
import { assetFonts } from '../pdf/fonts';
import { prepareSignerRevision } from '../pdf/seal';
import { embedPreparedSignature } from '../pdf/pades';
import type { Timestamper } from '../pdf/timestamp';
import { sealedPaymentText } from './audit-trail';
import { stampsForDocument } from './field-stamps';
import { sealingTimestamper, type LongTermEnv } from './long-term';
import { hiddenFieldsOf } from './seal-submission';
import { SealingProblem } from './sealing-status';
import { qesProviderCredentials } from '../signature-levels/account-signature-level';
import { QES_VERIFICATION_METHOD } from '../signature-levels/signer-identity';
import { submittedValues } from '../signing/signer-actions';
import type { Signing } from '../signing/signing-session';
import type { SubmissionScope } from '../submissions/submission-scope';
import { completeSubmitter, completionValues, SignedOnStaleRevision } from '../submissions/complete-submitter';
import { assertCanComplete, type StateContext } from '../submissions/submission-state';
import { authorizationCode, beginAuthorization } from '../qes/authorization';
import { CscClient } from '../qes/csc-client';
import { QesProviderError } from '../qes/provider-error';
import type { QesProviderEnv } from '../qes/provider-url';
import { cmsFromSignHash, signedAttributesHash } from '../qes/remote-signature';
import {
  certificateMetadata,
  currentRevision,
  dropPending,
  preparedKey,
  readPending,
  revisionKey,
  signatureKey,
  writePending,
  type PendingAuthorization,
} from './qes-revisions';
import { describeCertificate } from '../certificates/signer-certificate';
import { fromBase64, toBase64 } from '../../lib/base64';
import { QesSigningStopped } from './qes-signing-stopped';
import { signerSignatureReason } from './signature-reason';
import { messageLocale } from '../submissions/notifications';
import type { Locale } from '../../shared/i18n/locales';

export type QesSigningEnv = QesProviderEnv & LongTermEnv & { FILES: R2Bucket; ENCRYPTION_KEY?: string; ASSETS?: Fetcher };

/** Who the authorization's `state` is bound to. */
const signerOf = (submitterId: number) => `submitter:${submitterId}`;

async function providerClient(env: QesSigningEnv, account: Account): Promise<CscClient> {
  const credentials = await qesProviderCredentials(env.ENCRYPTION_KEY, account);
  if (!credentials) throw new QesProviderError('rejected_credentials', 'The account has no QES provider credentials stored.');
  return new CscClient(credentials, env);
}

/**
 * The submit of a qes signer: values saved and checked as any submit's, the revisions prepared and kept
 * with the PKCE verifier, and the provider's authorization URL to send the browser to. The signer stays
 * as they were (opened) until the callback.
 */
export async function beginQesSigning(
  env: QesSigningEnv,
  ctx: StateContext,
  signing: Signing,
  input: Record<string, unknown>,
  redirectUri: string,
  /** The language the signer's page is in: their signature's reason is written in it (signature-reason.ts). */
  locale: Locale = messageLocale(
    { account: signing.account, template: signing.scope.template, submission: signing.scope.submission },
    signing.submitter,
  ),
): Promise<string> {
  const submitted = await submittedValues(ctx, signing, input);
  const { scope } = submitted;
  // Date-now fields take the day of the submit: the values drawn are the values the signer completes with.
  const values = completionValues(scope, submitted.submitter, submitted.values, nowIso(), signing.account.timezone);
  assertCanComplete(scope, submitted.submitter, values, submitted.hiddenFields);
  const signer = { ...submitted.submitter, values };
  const withSigner = { ...scope, submitters: scope.submitters.map((s) => (s.id === signer.id ? signer : s)) };

  const client = await providerClient(env, signing.account);
  const credential = await client.credentialInfo();
  const hidden = hiddenFieldsOf(withSigner);
  const payments = await paidPaymentsOfSubmission(ctx.db, scope.submission.id);
  const paymentTexts = new Map(payments.map((p) => [`${p.submitterId}:${p.fieldUuid}`, sealedPaymentText(p)]));
  const { submission } = scope;
  const attempt = crypto.randomUUID();
  const documents: PendingAuthorization['documents'] = [];
  for (const document of scope.template.documents) {
    const base = await currentRevision(env.FILES, submission, scope.submitters, document);
    if (!base) throw new QesSigningStopped('qes.error.document_missing', `Document ${document.id} is missing from storage.`);
    const stamps = stampsForDocument(scope.template.fields, [signer], document, hidden, signing.account.locale, paymentTexts, () => locale);
    const { prepared } = await prepareSignerRevision(
      base.bytes,
      stamps,
      {
        name: signer.name || signer.email || signer.role,
        reason: signerSignatureReason(locale, signer.role, submission.slug, 'qes'),
        signingTime: new Date(),
      },
      assetFonts(env.ASSETS),
    );
    const hash = await signedAttributesHash(prepared.digest, credential.chain);
    await env.FILES.put(preparedKey(submission, signer.id, attempt, document.id), prepared.bytes);
    documents.push({ documentId: document.id, updateStart: prepared.updateStart, digest: toBase64(prepared.digest), hash: toBase64(hash) });
  }
  const authorization = await beginAuthorization(client, env.ENCRYPTION_KEY, {
    signer: signerOf(signer.id),
    redirectUri,
    hashes: documents.map((d) => fromBase64(d.hash)),
    description: `${scope.template.name}: ${documents.length} document(s) of submission ${submission.slug}`,
  });
  const previous = await readPending(env.FILES, env.ENCRYPTION_KEY, submission, signer.id);
  const pending: PendingAuthorization = {
    attempt,
    state: authorization.state,
    codeVerifier: authorization.codeVerifier,
    redirectUri,
    completedBefore: scope.submitters.filter((s) => s.status === 'completed').length,
    values,
    hiddenFields: submitted.hiddenFields,
    chain: credential.chain.map(toBase64),
    signAlgo: credential.signAlgo,
    documents,
  };
  // A newer submit replaces an older one: only the latest authorization's callback can complete.
  await writePending(env.FILES, env.ENCRYPTION_KEY, submission, signer.id, pending);
  if (previous) await env.FILES.delete(previous.documents.map((d) => preparedKey(submission, signer.id, previous.attempt, d.documentId)));
  return authorization.url;
}

/**
 * The provider's redirect back: the state checked against this signer's latest submit, the code
 * exchanged, the hashes signed, every CMS verified and embedded, the revisions stored, then the signer
 * completed. Any failure before the completion leaves the signer as they were.
 */
export async function finishQesSigning(
  env: QesSigningEnv,
  ctx: StateContext,
  signing: Signing,
  query: URLSearchParams,
): Promise<SubmissionScope> {
  const { submission } = signing.scope;
  const submitter = signing.submitter;
  const pending = await readPending(env.FILES, env.ENCRYPTION_KEY, submission, submitter.id);
  if (!pending || !timingSafeEqualString(query.get('state') ?? '', pending.state)) {
    throw new QesProviderError('authorization_expired', 'The callback carries no state of this signer’s latest authorization.');
  }
  const code = await authorizationCode(env.ENCRYPTION_KEY, query, signerOf(submitter.id));
  const client = await providerClient(env, signing.account);
  const { accessToken } = await client.exchangeCode({ code, codeVerifier: pending.codeVerifier, redirectUri: pending.redirectUri });
  const signatures = await client.signHash({
    accessToken,
    hashes: pending.documents.map((d) => fromBase64(d.hash)),
    signAlgo: pending.signAlgo,
  });
  const chain = pending.chain.map(fromBase64);
  const certificate = await describeCertificate(chain[0]);
  let timestamper: Timestamper | undefined;
  try {
    timestamper = sealingTimestamper(env);
  } catch (error) {
    if (error instanceof SealingProblem) throw new QesSigningStopped('qes.error.timestamp_unavailable', error.message);
    throw error;
  }
  const written: string[] = [];
  let scope: SubmissionScope;
  try {
    for (const [i, document] of pending.documents.entries()) {
      const prepared = await env.FILES.get(preparedKey(submission, submitter.id, pending.attempt, document.documentId));
      if (!prepared) throw new QesProviderError('authorization_expired', 'The prepared revision is gone (a newer submit replaced it).');
      let cms: Uint8Array;
      try {
        cms = await cmsFromSignHash(fromBase64(document.digest), chain, signatures[i], timestamper);
      } catch (error) {
        if (error instanceof SealingProblem) throw new QesSigningStopped('qes.error.timestamp_failed', error.message);
        throw error;
      }
      const bytes = embedPreparedSignature({ bytes: new Uint8Array(await prepared.arrayBuffer()), updateStart: document.updateStart }, cms);
      const keys = [
        revisionKey(submission, submitter.id, document.documentId),
        signatureKey(submission, submitter.id, document.documentId),
      ];
      written.push(...keys);
      await env.FILES.put(keys[0], bytes, { httpMetadata: { contentType: 'application/pdf' } });
      await env.FILES.put(keys[1], cms, { customMetadata: certificateMetadata(certificate) });
    }
    scope = await completeSubmitter(ctx, signing.scope, submitter, {
      values: pending.values,
      via: 'signing_page',
      verificationMethod: QES_VERIFICATION_METHOD,
      hiddenFields: pending.hiddenFields,
      completedBefore: pending.completedBefore,
    });
  } catch (error) {
    // Not completed: the revisions written are of no signer and must not be read as one's — unless a
    // concurrent callback of the same signer completed with them (same keys, same base, same values).
    const now = await findSubmitterBySlug(ctx.db, submission.accountId, submitter.slug);
    if (written.length && now?.status !== 'completed') await env.FILES.delete(written);
    if (error instanceof SignedOnStaleRevision) {
      throw new QesSigningStopped('qes.error.stale_revision', error.message);
    }
    throw error;
  }
  await dropPending(env.FILES, env.ENCRYPTION_KEY, submission, submitter.id, pending);
  return scope;
}
