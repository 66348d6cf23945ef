// The sealing job (decisions.md › Signed output): when a submission completes, every document it froze
// is stamped with the submitters' values, given the audit trail page, signed with the account's
// identity, stored in R2 and recorded with its SHA-256; `document.generated` fires per document and the
// submission is marked sealed. Idempotent: a document already recorded is skipped, a sealed submission
// is left alone, and two runs racing cannot record a document (or its event) twice.
import type { Db } from '../../db/client';
import { getAccount } from '../../db/queries/accounts';
import { insertSealedDocumentStatement, listSealedDocuments, markSealedStatement } from '../../db/queries/submission-documents';
import { findSubmissionById, insertSubmissionEventStatement, listSubmissionEvents } from '../../db/queries/submissions';
import type { Account, SubmissionEventAction, Submitter, TemplateDocument } from '../../db/schema/index';
import { outboxInsert } from '../events/outbox';
import { releaseHeldEventsStatement } from '../../db/queries/events';
import { notErasingGuardStatement } from '../../db/queries/retention';
import { isStaleGuardFailure, staleGuardStatement } from '../../db/queries/stale-guard';
import { accountCertificateAuthority, accountSigningIdentity, type IdentityEnv } from '../certificates/account-identity';
import { issueSignerCertificate, type CertificateDescription } from '../certificates/signer-certificate';
import { assetFonts } from '../pdf/fonts';
import { sealDocument, SignedFileNotAppendable, type SignerStep } from '../pdf/seal';
import type { AuditEntry } from '../pdf/audit-page';
import { payloadDocumentLinks } from '../document-links/links';
import { loadScope, submissionDocuments, submissionRef, templateRef, type SubmissionScope } from '../submissions/submission-scope';
import { auditTrailKey, sealedDocumentKey } from '../submissions/file-keys';
import { submissionDocumentObject } from '../submissions/generated-documents';
import { documentGeneratedData } from '../webhooks/payloads';
import { paidPaymentsOfSubmission } from '../../db/queries/payments';
import { auditTrailFor, sealedPaymentText } from './audit-trail';
import { stampsForDocument } from './field-stamps';
import { hiddenFields } from '../../shared/form-rules';
import { SealingProblem } from './sealing-status';
import { sealingTimestamper, type LongTermEnv } from './long-term';
import { completionOrder } from './completion-order';
import { currentRevision } from './qes-revisions';
import { sha256Hex } from '../../lib/crypto';
import { translatorFor } from '../../lib/i18n/catalogs';
import { DEFAULT_LOCALE, type Locale } from '../../shared/i18n/locales';
import { signerSignatureReason, signingLanguages } from './signature-reason';
import type { Translate } from '../../shared/i18n/translator';

/** Fields hidden by their conditions or their document's, judged on every submitter's values together. */
export function hiddenFieldsOf(scope: SubmissionScope): Set<string> {
  const values = Object.assign({}, ...scope.submitters.map((s) => s.values)) as Record<string, unknown>;
  return hiddenFields(scope.template.fields, scope.template.preferences, values);
}

export type SealingEnv = IdentityEnv & LongTermEnv & { FILES: R2Bucket; APP_URL?: string; ASSETS?: Fetcher };

export type SealingOutcome = 'sealed' | 'already-sealed' | 'not-completed' | 'missing';

export function sealedFilename(document: Pick<TemplateDocument, 'filename'>): string {
  return `${document.filename.replace(/\.pdf$/i, '')}.pdf`;
}

/** The action of the submission event naming a signer's certificate (the API's audit events show it). */
export const SIGNER_CERTIFICATE_EVENT: SubmissionEventAction = 'signer_certificate_issued';

type SignerCertificate = { submitter: Submitter; description: CertificateDescription };

/**
 * aes (issue 18 › 2): for each completed signer, in completion order, a certificate from the account's
 * CA for a key made for this signature, and the step stamping their values and signing with it.
 * Issued afresh on every run: a run that fails records nothing, and the certificates recorded are those
 * of the document stored.
 */
async function signerSteps(
  env: SealingEnv,
  db: Db,
  account: Account,
  scope: SubmissionScope,
  document: TemplateDocument,
  hidden: Set<string>,
  paymentTexts: Map<string, string>,
  languageOf: (submitter: Submitter) => Locale,
) {
  const ca = await accountCertificateAuthority(env, db, account);
  const signers = completionOrder(scope.submitters);
  const steps: SignerStep[] = [];
  const certificates: SignerCertificate[] = [];
  for (const submitter of signers) {
    const completedAt = new Date(submitter.completedAt!);
    const { signer, description } = await issueSignerCertificate(ca, submitter, completedAt);
    certificates.push({ submitter, description });
    steps.push({
      stamps: stampsForDocument(scope.template.fields, [submitter], document, hidden, account.locale, paymentTexts, languageOf),
      signer,
      signature: {
        name: submitter.name || submitter.email || submitter.role,
        reason: signerSignatureReason(languageOf(submitter), submitter.role, scope.submission.slug, 'aes'),
        signingTime: completedAt,
      },
    });
  }
  return { steps, certificates };
}

/** The audit page's line naming a signer's certificate: subject, serial, issuer and SHA-256 fingerprint. */
function certificateEntry({ submitter, description }: SignerCertificate, at: string, t: Translate): AuditEntry {
  return {
    at,
    event: t('audit.event.signer_certificate_issued'),
    actor: submitter.email || submitter.name || submitter.role,
    ip: null,
    detail: t('audit.detail.certificate', certificateValues(description)),
  };
}

function certificateValues(certificate: CertificateDescription) {
  return {
    subject: certificate.subject,
    serial: certificate.serialNumber,
    issuer: certificate.issuer,
    fingerprint: certificate.sha256Fingerprint,
  };
}

/** The audit page's line naming a qes signer's certificate at the provider (issue 18 › 3). */
function qualifiedSignatureEntry(
  submitter: Submitter,
  certificate: CertificateDescription | null,
  account: Account,
  t: Translate,
): AuditEntry {
  const provider = account.signatureProvider ?? t('audit.detail.qes_provider_unnamed');
  return {
    at: submitter.completedAt!,
    event: t('audit.event.qualified_signature'),
    actor: submitter.email || submitter.name || submitter.role,
    ip: null,
    detail: certificate
      ? t('audit.detail.qualified_signature', { provider, ...certificateValues(certificate) })
      : t('audit.detail.qualified_signature_no_certificate', { provider }),
  };
}

async function sealOne(
  env: SealingEnv,
  db: Db,
  account: Account,
  scope: SubmissionScope,
  document: TemplateDocument,
  apiBase: string,
): Promise<void> {
  const { submission } = scope;
  // First: in production without a TSA nothing is read or signed (long-term.ts).
  const timestamper = sealingTimestamper(env);
  // A DOCX template's document filled for this submission is sealed instead of the template's rendering.
  const original = await submissionDocumentObject(env.FILES, document, submission.slug);
  if (!original)
    throw new SealingProblem(
      `The document "${document.filename}" (template document ${document.id}) is missing from storage, so it cannot be sealed.`,
    );
  const [bytes, events, payments] = await Promise.all([
    original.arrayBuffer(),
    listSubmissionEvents(db, submission.id),
    paidPaymentsOfSubmission(db, submission.id),
  ]);
  // Paid payment fields show amount, currency and Stripe's reference at their areas and on the audit page.
  const paymentTexts = new Map(payments.map((p) => [`${p.submitterId}:${p.fieldUuid}`, sealedPaymentText(p)]));
  const hidden = hiddenFieldsOf(scope);
  const languageOf = signingLanguages(account, scope, events);
  const aes =
    submission.signatureLevel === 'aes' ? await signerSteps(env, db, account, scope, document, hidden, paymentTexts, languageOf) : null;
  // qes (issue 18 › 3): the signers' revisions are signed already; the seal goes on the last one, and
  // only values no qes signer signed (none since the API refuses to complete qes signers) are stamped.
  const qes = submission.signatureLevel === 'qes' ? await currentRevision(env.FILES, submission, scope.submitters, document) : null;
  const qesSigned = new Set(qes?.signers.map((s) => s.id));
  const trail = auditTrailFor(
    scope,
    events.filter((e) => e.action !== SIGNER_CERTIFICATE_EVENT),
    sealedFilename(document),
    env.SERVICE_NAME,
    payments,
  );
  const issuedAt = new Date().toISOString();
  const t = translatorFor(trail.locale ?? DEFAULT_LOCALE);
  if (aes) trail.events.push(...aes.certificates.map((c) => certificateEntry(c, issuedAt, t)));
  if (qes) trail.events.push(...qes.signers.map((s, i) => qualifiedSignatureEntry(s, qes.certificates[i], account, t)));
  const sealed = await sealDocument({
    original: qes ? qes.bytes : new Uint8Array(bytes),
    originalSha256: qes ? await sha256Hex(new Uint8Array(bytes)) : undefined,
    priorSignatures: qes?.signatures,
    // At aes each signer's values go in with their own signature; what is left is stamped with the seal.
    stamps: aes
      ? []
      : stampsForDocument(
          scope.template.fields,
          scope.submitters.filter((s) => !qesSigned.has(s.id)),
          document,
          hidden,
          account.locale,
          paymentTexts,
          languageOf,
        ),
    signerSteps: aes?.steps,
    trail,
    signer: await accountSigningIdentity(env, db, account),
    signature: {
      name: account.name,
      reason: `Completed submission ${submission.slug}: values and audit trail sealed by ${env.SERVICE_NAME}`,
      signingTime: new Date(),
    },
    timestamper,
    fontSource: assetFonts(env.ASSETS),
  }).catch((error: unknown) => {
    if (!(error instanceof SignedFileNotAppendable)) throw error;
    throw new SealingProblem(
      `The document "${document.filename}" carries signatures made elsewhere and its cross-reference data is damaged, so values cannot be added without invalidating them.`,
    );
  });
  const key = sealedDocumentKey(submission.accountId, submission.id);
  // A certified form's audit trail is a file of its own beside the sealed one (issue 33 › 6).
  const files = [{ key, file: sealed }, ...(sealed.auditTrail ? [{ key: auditTrailKey(key), file: sealed.auditTrail }] : [])];
  const removeFiles = () =>
    Promise.all(files.map((f) => env.FILES.delete(f.key))).catch((err) =>
      console.error(`sealing submission ${submission.id}: could not remove ${key} after a failed put`, err),
    );
  try {
    for (const f of files) {
      await env.FILES.put(f.key, f.file.bytes, { httpMetadata: { contentType: 'application/pdf' }, sha256: f.file.sha256 });
    }
  } catch (error) {
    // A put that stored the object and still failed (issue 28 › 10) would leave a file no row records.
    await removeFiles();
    throw error;
  }

  // document.generated carries a public link like the completion events do, when the account has them on.
  const links = await payloadDocumentLinks(env.ENCRYPTION_KEY, apiBase, account, submission, [document.id]);
  const payloadDocument = submissionDocuments(apiBase, submission, [document], links)[0];
  try {
    await db.batch([
      // An erasure that claimed the submission since this job read it has removed, or will remove, the
      // files it listed; this document must not be recorded, and its file goes with it (below).
      notErasingGuardStatement(db, submission.id),
      staleGuardStatement(db),
      insertSealedDocumentStatement(db, {
        accountId: submission.accountId,
        submissionId: submission.id,
        templateDocumentId: document.id,
        filename: sealedFilename(document),
        r2Key: key,
        sha256: sealed.sha256,
        originalSha256: sealed.originalSha256,
        byteSize: sealed.bytes.length,
      }),
      outboxInsert(db, {
        accountId: submission.accountId,
        event: 'document.generated',
        data: documentGeneratedData({
          submission: submissionRef(submission, scope.template),
          template: templateRef(scope.template),
          document: payloadDocument,
        }),
        // Its links answer once the submission is marked sealed, which releases it (sealSubmission).
        awaitsSealOf: submission.id,
      }),
      // Which certificate each signer got, as the sealed page names it (issue 18 › 2).
      ...(aes?.certificates ?? []).map(({ submitter, description }) =>
        insertSubmissionEventStatement(
          db,
          { submissionId: submission.id },
          { submitterId: submitter.id },
          {
            accountId: submission.accountId,
            action: SIGNER_CERTIFICATE_EVENT,
            data: {
              document: sealedFilename(document),
              subject: description.subject,
              serial_number: description.serialNumber,
              issuer: description.issuer,
              sha256_fingerprint: description.sha256Fingerprint,
            },
          },
        ),
      ),
      // The submission's trail keeps what the sealed page shows: a placeholder stands for these values.
      ...sealed.undrawn.map((u) =>
        insertSubmissionEventStatement(db, { submissionId: submission.id }, null, {
          accountId: submission.accountId,
          action: 'value_not_drawn',
          // `why`: the reason as a catalog sentence, so a later audit page says it in its own language.
          data: { field: u.field, document: sealedFilename(document), page: u.page, reason: u.reason, ...(u.why ? { why: u.why } : {}) },
        }),
      ),
    ]);
  } catch (error) {
    if (isStaleGuardFailure(error)) {
      await removeFiles();
      throw new ErasedWhileSealing();
    }
    // The batch may have committed and only its answer been lost (issue 28 › 10): then the row names our
    // file, which stays. Otherwise another run recorded this document first (keep its file, drop ours),
    // or nothing was recorded (drop ours, fail, and the retry seals again).
    const recorded = (await listSealedDocuments(db, submission.id)).find((d) => d.templateDocumentId === document.id);
    if (recorded?.r2Key === key) return;
    await removeFiles();
    if (!recorded) throw error;
  }
}

/** An erasure claimed the submission while one of its documents was being sealed (nothing was recorded). */
class ErasedWhileSealing extends Error {}

/**
 * Seals a completed submission's documents; safe to run any number of times. `db` is the account's shard,
 * `control` the control database its account row is read from.
 */
export async function sealSubmission(
  env: SealingEnv,
  { db, control }: { db: Db; control: Db },
  submissionId: number,
): Promise<SealingOutcome> {
  const submission = await findSubmissionById(db, submissionId);
  // An erased submission (issue 33 › 5) has nothing left to seal: its values are hashes.
  if (!submission || submission.erasureStartedAt) return 'missing';
  const account = await getAccount(control, submission.accountId);
  if (!account) return 'missing';
  if (submission.sealedAt) return 'already-sealed';
  if (!submission.completedAt) return 'not-completed';
  const scope = await loadScope(db, submission);
  const apiBase = env.APP_URL || submission.linkBase;
  const done = new Set((await listSealedDocuments(db, submission.id)).map((d) => d.templateDocumentId));
  // One document at a time: a 20 MB document and its sealed copy already take a good part of the
  // isolate's 128 MB.
  try {
    for (const document of scope.template.documents) {
      if (!done.has(document.id)) await sealOne(env, db, account, scope, document, apiBase);
    }
  } catch (error) {
    if (error instanceof ErasedWhileSealing) return 'missing';
    throw error;
  }
  // The events waiting for these documents (completion, document.generated) are released as the
  // submission is marked sealed: one batch, so they go out exactly once and never before the files.
  await db.batch([markSealedStatement(db, submission.id, new Date().toISOString()), releaseHeldEventsStatement(db, submission.id)]);
  return 'sealed';
}
