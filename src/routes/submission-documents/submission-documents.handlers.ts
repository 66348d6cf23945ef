// Handlers for a submission's sealed documents.
import type { AppRouteHandler } from '../app-route-handler';
import type { Context } from 'hono';
import type { AppEnv } from '../../app-env';
import { listSealedDocuments } from '../../db/queries/submission-documents';
import { findSubmission } from '../../db/queries/submissions';
import type { Submission, SubmissionDocument } from '../../db/schema/index';
import { attachment } from '../../lib/content-disposition';
import { ApiError, notFound } from '../../lib/errors';
import { baseUrl } from '../../lib/request';
import { requestReseal, sealingStatus } from '../../services/sealing/sealing-status';
import { zipSealedDocuments } from '../../services/sealing/sealed-zip';
import { readSealedFiles } from '../../services/sealing/sealed-files';
import { combinedDocumentKey } from '../../services/submissions/file-keys';
import type * as routes from './submission-documents.routes';
import { assertNotErased } from '../submissions/erased-submissions';

async function loadSubmission(c: Context<AppEnv>, id: number): Promise<Submission> {
  const submission = await findSubmission(c.var.scope.db, c.var.principal.account.id, id);
  if (!submission) throw notFound('Submission');
  assertNotErased(submission);
  return submission;
}

function documentsUrl(c: Context<AppEnv>, submissionId: number): string {
  return `${baseUrl(c.req.raw, c.env.APP_URL)}/api/submissions/${submissionId}/documents`;
}

function serializeDocument(c: Context<AppEnv>, document: SubmissionDocument) {
  return {
    id: document.templateDocumentId,
    filename: document.filename,
    sha256: document.sha256,
    original_sha256: document.originalSha256,
    byte_size: document.byteSize,
    download_url: `${documentsUrl(c, document.submissionId)}/${document.templateDocumentId}`,
    created_at: document.createdAt,
  };
}

export const listSubmissionDocuments: AppRouteHandler<typeof routes.listSubmissionDocuments> = async (c) => {
  const submission = await loadSubmission(c, c.req.valid('param').id);
  const sealed = Boolean(submission.sealedAt);
  const documents = sealed ? await listSealedDocuments(c.var.scope.db, submission.id) : [];
  return c.json(
    {
      sealed,
      sealing: sealingStatus(submission),
      documents: documents.map((d) => serializeDocument(c, d)),
      combined_download_url: sealed ? `${documentsUrl(c, submission.id)}/combined` : null,
    },
    200,
  );
};

export const resealSubmissionDocuments: AppRouteHandler<typeof routes.resealSubmissionDocuments> = async (c) => {
  const submission = await loadSubmission(c, c.req.valid('param').id);
  if (!c.var.scope.queues.sealing) throw new Error('The SEALING_QUEUE binding is missing.');
  await requestReseal(c.var.scope.db, c.var.scope.queues.sealing, submission);
  c.set('audit', { action: 'submission.reseal', resourceType: 'submission', resourceId: submission.id });
  return c.json(
    { sealed: false, sealing: sealingStatus({ ...submission, sealFailedAt: null }), documents: [], combined_download_url: null },
    202,
  );
};

function notFoundSealed(): never {
  throw notFound('Sealed document file');
}

export const downloadSubmissionDocument: AppRouteHandler<typeof routes.downloadSubmissionDocument> = async (c) => {
  const params = c.req.valid('param');
  const submission = await loadSubmission(c, params.id);
  if (!submission.sealedAt) {
    const status = sealingStatus(submission);
    throw new ApiError(
      409,
      status.status === 'failed'
        ? `Sealing this submission failed: ${status.reason} Queue it again with POST /api/submissions/${submission.id}/documents/reseal.`
        : submission.completedAt
          ? 'The documents are still being sealed; try again in a minute.'
          : 'The submission is not completed yet, so it has no sealed documents.',
    );
  }
  const db = c.var.scope.db;
  const documents = await listSealedDocuments(db, submission.id);
  const noStore = { 'Cache-Control': 'private, no-store' };

  if (params.document_id === 'combined') {
    // A certified form's audit trail, a file of its own, follows its document (issue 33 › 6).
    const readFiles = async () => (await readSealedFiles(c.env.FILES, documents)) ?? notFoundSealed();
    const base = `submission-${submission.id}`;
    if (c.req.valid('query').separate === 'true') {
      const zip = zipSealedDocuments(await readFiles());
      return c.body(zip as Uint8Array<ArrayBuffer>, 200, {
        ...noStore,
        'Content-Type': 'application/zip',
        'Content-Length': String(zip.length),
        'Content-Disposition': attachment(`${base}.zip`),
      }) as never;
    }
    // The PDF and signature engines load on first use, not with the isolate (decisions.md › Cold start).
    const [
      { combineSealedDocuments, storedCombinedDocument },
      { accountSigningIdentity },
      { timestampAuthorities, timestamperFor, TimestampFailure },
      { ValidationDataFailure },
    ] = await Promise.all([
      import('../../services/sealing/combined-document'),
      import('../../services/certificates/account-identity'),
      import('../../services/pdf/timestamp'),
      import('../../services/pdf/validation-data'),
    ]);
    const account = c.var.principal.account;
    const authorities = timestampAuthorities(c.env.TSA_URLS);
    const combined = await storedCombinedDocument(c.env.FILES, combinedDocumentKey(account.id, submission.id), async () =>
      combineSealedDocuments(
        (await readFiles()).map((f) => f.bytes),
        base,
        await accountSigningIdentity(c.env, db, account),
        { name: account.name, reason: `Sealed documents of submission ${submission.slug}, combined by ${c.env.SERVICE_NAME}` },
        authorities.length > 0 ? timestamperFor(authorities) : undefined,
      ).catch((error: unknown) => {
        // Nothing is stored: the next download tries again.
        if (error instanceof TimestampFailure || error instanceof ValidationDataFailure) {
          throw new ApiError(502, `The combined document could not be timestamped just now; try again in a minute. ${error.message}`);
        }
        throw error;
      }),
    );
    return c.body(combined.body as Uint8Array<ArrayBuffer>, 200, {
      ...noStore,
      'Content-Type': 'application/pdf',
      'Content-Length': String(combined.size),
      'Content-Disposition': attachment(`${base}.pdf`),
      ETag: combined.etag,
    }) as never;
  }

  const document = /^\d+$/.test(params.document_id)
    ? documents.find((d) => d.templateDocumentId === Number(params.document_id))
    : undefined;
  if (!document) throw notFound('Document');
  const object = await c.env.FILES.get(document.r2Key);
  if (!object) throw notFound('Sealed document file');
  return c.body(object.body, 200, {
    ...noStore,
    'Content-Type': 'application/pdf',
    'Content-Length': String(object.size),
    'Content-Disposition': attachment(document.filename),
    ETag: object.httpEtag,
  }) as never;
};
