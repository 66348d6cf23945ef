// Document ingest: bytes + type in, measured and stored documents out. PDFs only: DOCX and HTML are
// converted to PDF before they get here (services/templates/docx-documents.ts, create-html-template.ts).
import { sha256Hex } from '../../lib/crypto';
import { unprocessable } from '../../lib/errors';
import type { DocumentFacts } from '../pdf/inspect-pdf';
import { looksLikePdf, UnusableDocument } from '../pdf/pdf-file';
import { DOCUMENT_LIMITS } from '../../shared/document-limits';

const MB = 1024 * 1024;

/** decisions.md › Limits not shown; the request cap keeps a whole upload inside one Worker's memory. */
export const UPLOAD_LIMITS = {
  fileBytes: DOCUMENT_LIMITS.fileBytes,
  documentsPerTemplate: 10,
  pagesPerTemplate: DOCUMENT_LIMITS.pagesPerTemplate,
  requestBytes: 50 * MB,
} as const;

/** One file as the caller sent it. `label` names it in messages, e.g. `documents[1] "Annex"`. */
export type Upload = { label: string; name: string; bytes: Uint8Array; contentType?: string };

/** An upload that passed every check and is ready to store. */
export type PreparedDocument = DocumentFacts & {
  uuid: string;
  filename: string;
  contentType: string;
  byteSize: number;
  sha256: string;
  bytes: Uint8Array;
  r2Key: string;
};

type Ingestor = { contentType: string; matches: (upload: Upload) => boolean; inspect: (bytes: Uint8Array) => Promise<DocumentFacts> };

const INGESTORS: Ingestor[] = [
  // pdf-lib loads with the first PDF read, not with the isolate (decisions.md › Cold start).
  {
    contentType: 'application/pdf',
    matches: (u) => looksLikePdf(u.bytes),
    inspect: async (bytes) => (await import('../pdf/inspect-pdf')).inspectPdf(bytes),
  },
];

function describeUnsupported(upload: Upload): string {
  const head = upload.bytes.subarray(0, 4);
  const zip = head[0] === 0x50 && head[1] === 0x4b;
  // Template creation converts DOCX before the ingest (templates.handlers.ts); adding documents does not.
  if (zip)
    return `${upload.label} looks like a DOCX file; DOCX files are converted when a template is created (POST /api/templates/docx), so add a PDF here.`;
  if (/\.docx$/i.test(upload.name)) return `${upload.label} is not a DOCX file (a DOCX is a zip archive).`;
  if (/\.html?$/i.test(upload.name) || upload.contentType?.includes('html')) {
    return `${upload.label} looks like an HTML file; only PDF uploads are supported so far.`;
  }
  return `${upload.label} is not a PDF file.`;
}

export function documentKey(accountId: number): string {
  return `templates/${accountId}/${crypto.randomUUID()}`;
}

export type TemplateTotals = { documents: number; pages: number };

/** An upload that passed the cheap checks, with its identity and digest, not yet parsed. */
type StagedDocument = Omit<PreparedDocument, keyof DocumentFacts> & { label: string; ingestor: Ingestor };

/**
 * The checks that need no parsing: how many documents, empty, too large, a type we read. Every
 * problem is collected, so a request hears about all of its files at once; an accepted upload is
 * staged with its storage key and SHA-256.
 */
async function stageUploads(
  accountId: number,
  uploads: Upload[],
  existing: TemplateTotals,
): Promise<{ problems: string[]; staged: StagedDocument[] }> {
  const { fileBytes, documentsPerTemplate } = UPLOAD_LIMITS;
  if (existing.documents + uploads.length > documentsPerTemplate) {
    throw unprocessable(
      `A template can hold at most ${documentsPerTemplate} documents; this request would give it ${existing.documents + uploads.length}.`,
    );
  }
  const problems: string[] = [];
  const staged: StagedDocument[] = [];
  for (const upload of uploads) {
    if (upload.bytes.byteLength === 0) {
      problems.push(`${upload.label} is an empty file.`);
      continue;
    }
    if (upload.bytes.byteLength > fileBytes) {
      problems.push(`${upload.label} is ${(upload.bytes.byteLength / MB).toFixed(1)} MB; files can be at most ${fileBytes / MB} MB.`);
      continue;
    }
    const ingestor = INGESTORS.find((i) => i.matches(upload));
    if (!ingestor) {
      problems.push(describeUnsupported(upload));
      continue;
    }
    staged.push({
      label: upload.label,
      ingestor,
      uuid: crypto.randomUUID(),
      filename: upload.name,
      contentType: ingestor.contentType,
      byteSize: upload.bytes.byteLength,
      sha256: await sha256Hex(upload.bytes),
      bytes: upload.bytes,
      r2Key: documentKey(accountId),
    });
  }
  return { problems, staged };
}

/** Parses each staged upload for its pages; `problems` gains a sentence for each one no signer could open. */
async function inspectStaged(staged: StagedDocument[], problems: string[]): Promise<PreparedDocument[]> {
  const prepared: PreparedDocument[] = [];
  for (const { label, ingestor, ...document } of staged) {
    try {
      prepared.push({ ...document, ...(await ingestor.inspect(document.bytes)) });
    } catch (error) {
      if (!(error instanceof UnusableDocument)) throw error;
      problems.push(`${label} ${error.message}.`);
    }
  }
  return prepared;
}

/** The 422 for every problem found, then the template's page limit. */
function assertUsable(problems: string[], prepared: PreparedDocument[], existing: TemplateTotals): void {
  if (problems.length) throw unprocessable(problems.length === 1 ? problems[0] : problems);
  const { pagesPerTemplate } = UPLOAD_LIMITS;
  const pages = existing.pages + prepared.reduce((sum, d) => sum + d.pageCount, 0);
  if (pages > pagesPerTemplate) {
    throw unprocessable(`A template can have at most ${pagesPerTemplate} pages in all; these documents would give it ${pages}.`);
  }
}

/** Documents that passed every check and are in R2 under their `r2Key`s (`stored`). */
export type IngestedDocuments = { documents: PreparedDocument[]; stored: string[] };

/**
 * Checks the uploads and stores them: once every upload has passed the cheap checks, the
 * R2 puts run while the files are parsed, the longest step of an upload (bench/templates). A file
 * that then fails its parse or the page limit has its put undone before the 422 goes on, so a refused
 * request leaves nothing behind; a caller whose later step fails deletes `stored` the same way.
 */
export async function ingestDocuments(
  bucket: R2Bucket,
  accountId: number,
  uploads: Upload[],
  existing: TemplateTotals = { documents: 0, pages: 0 },
): Promise<IngestedDocuments> {
  const { problems, staged } = await stageUploads(accountId, uploads, existing);
  if (problems.length) {
    // Refused already: parse the rest only to name their problems too, and store nothing.
    assertUsable(problems, await inspectStaged(staged, problems), existing);
  }
  const [stored, inspected] = await Promise.allSettled([storeDocuments(bucket, staged), inspectStaged(staged, problems)]);
  try {
    if (inspected.status === 'rejected') throw inspected.reason;
    assertUsable(problems, inspected.value, existing);
  } catch (error) {
    if (stored.status === 'fulfilled') await deleteStoredFiles(bucket, stored.value);
    throw error;
  }
  if (stored.status === 'rejected') throw stored.reason;
  return { documents: inspected.value, stored: stored.value };
}

/** Puts the files in R2. If one put fails, the ones already put are deleted before the error goes on. */
async function storeDocuments(bucket: R2Bucket, documents: Omit<PreparedDocument, keyof DocumentFacts>[]): Promise<string[]> {
  const stored: string[] = [];
  try {
    await Promise.all(
      documents.map(async (d) => {
        await bucket.put(d.r2Key, d.bytes, {
          httpMetadata: { contentType: d.contentType },
          customMetadata: { filename: d.filename },
          sha256: d.sha256,
        });
        stored.push(d.r2Key);
      }),
    );
  } catch (error) {
    await deleteStoredFiles(bucket, stored);
    throw error;
  }
  return stored;
}

/** Copies stored files to fresh keys (clone, merge) without holding them in memory. */
export async function copyStoredFiles(bucket: R2Bucket, copies: { from: string; to: string }[]): Promise<string[]> {
  const stored: string[] = [];
  try {
    for (const { from, to } of copies) {
      const object = await bucket.get(from);
      if (!object) throw new Error(`Stored file ${from} is missing.`);
      await bucket.put(to, object.body, { httpMetadata: object.httpMetadata, customMetadata: object.customMetadata });
      stored.push(to);
    }
  } catch (error) {
    await deleteStoredFiles(bucket, stored);
    throw error;
  }
  return stored;
}

export async function deleteStoredFiles(bucket: R2Bucket, keys: string[]): Promise<void> {
  // R2 deletes at most 1000 keys per call.
  for (let i = 0; i < keys.length; i += 1000) await bucket.delete(keys.slice(i, i + 1000));
}

/**
 * Deletes what was made from stored documents and lives under their keys (`<key>/…`: an HTML
 * template's source, page thumbnails).
 */
export async function deleteDerivedFiles(bucket: R2Bucket, keys: string[]): Promise<void> {
  for (const key of keys) {
    let cursor: string | undefined;
    do {
      const listed = await bucket.list({ prefix: `${key}/`, cursor });
      if (listed.objects.length) await bucket.delete(listed.objects.map((o) => o.key));
      cursor = listed.truncated ? listed.cursor : undefined;
    } while (cursor);
  }
}
