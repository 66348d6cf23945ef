// Field detection for a template (spec › Other endpoints: /api/templates/{id}/ai/*; decisions.md ›
// Documents in): each current document's pages are read, fields proposed, and the result kept in R2 beside
// the document, so a replaced or deleted document takes its result with it. `apply` stores the proposals
// as the template's next version through the ordinary update.
import { listCurrentDocuments } from '../../db/queries/templates';
import type { Template, TemplateDocument } from '../../db/schema/index';
import { nowIso } from '../../lib/time';
import { storedAsInputs, type FieldInput } from '../templates/template-fields';
import type { TemplateContext } from '../templates/template-records';
import { updateTemplate } from '../templates/update-template';
import { proposeFields, type Proposal } from './propose-fields';

export type DetectionStatus = 'none' | 'running' | 'done' | 'failed';

/** A proposal as the API gives it: on which document, for which role. */
export type DetectedField = Omit<Proposal, 'area'> & {
  role: string;
  document_id: string;
  area: Proposal['area'];
};

/** What is kept per document (`<document key>/field-detection.json`). */
type DocumentDetection = { status: 'running' | 'done' | 'failed'; error?: string; fields: Proposal[]; detected_at: string };

export type Detection = {
  status: DetectionStatus;
  fields: DetectedField[];
  errors: { document_id: string; message: string }[];
  detected_at: string | null;
  /** The template version that `apply` created, when it did. */
  applied_version?: number;
};

export function detectionKey(document: Pick<TemplateDocument, 'r2Key'>): string {
  return `${document.r2Key}/field-detection.json`;
}

/** Proposals under this confidence are left out unless asked for. */
export const DEFAULT_MIN_CONFIDENCE = 0.5;

async function put(bucket: R2Bucket, document: TemplateDocument, record: DocumentDetection): Promise<void> {
  await bucket.put(detectionKey(document), JSON.stringify(record), { httpMetadata: { contentType: 'application/json' } });
}

/** Reads one document and proposes its fields; an unreadable file is a failed result, never a throw. */
async function detectDocument(bucket: R2Bucket, document: TemplateDocument): Promise<DocumentDetection> {
  await put(bucket, document, { status: 'running', fields: [], detected_at: nowIso() });
  // pdf.js and pdf-lib load with the first detection, not with the isolate (decisions.md › Cold start).
  const { readPageLayouts, UnreadableForDetection } = await import('./page-layout');
  let record: DocumentDetection;
  try {
    const object = await bucket.get(document.r2Key);
    if (!object) throw new UnreadableForDetection('The document’s file is missing from storage.');
    const layouts = await readPageLayouts(new Uint8Array(await object.arrayBuffer()));
    record = { status: 'done', fields: layouts.flatMap(proposeFields), detected_at: nowIso() };
  } catch (error) {
    if (!(error instanceof UnreadableForDetection)) console.error(`Field detection of document ${document.uuid}:`, error);
    const message = error instanceof UnreadableForDetection ? error.message : 'The PDF could not be read for detection.';
    record = { status: 'failed', error: message, fields: [], detected_at: nowIso() };
  }
  await put(bucket, document, record);
  return record;
}

/**
 * Detection runs inside its request (well under a minute, page-layout.ts bounds it); a record still
 * `running` after this long belongs to a request that died, and is reported failed so it can be rerun.
 */
export const ABANDONED_AFTER_MS = 5 * 60_000;

function settled(record: DocumentDetection | undefined, now: number): DocumentDetection | undefined {
  if (record?.status !== 'running' || now - Date.parse(record.detected_at) < ABANDONED_AFTER_MS) return record;
  return { ...record, status: 'failed', error: 'Detection stopped before it finished; start it again with POST …/ai/detect.' };
}

function combine(
  template: Template,
  documents: TemplateDocument[],
  stored: (DocumentDetection | undefined)[],
  minConfidence: number,
): Detection {
  const role = template.submitters[0]?.name ?? 'First Party';
  const now = Date.now();
  const records = stored.map((r) => settled(r, now));
  const present = records.filter((r): r is DocumentDetection => r !== undefined);
  const status: DetectionStatus =
    present.length === 0
      ? 'none'
      : present.some((r) => r.status === 'running')
        ? 'running'
        : present.some((r) => r.status === 'failed')
          ? 'failed'
          : 'done';
  const fields = documents.flatMap((document, i) =>
    (records[i]?.fields ?? []).filter((f) => f.confidence >= minConfidence).map((f) => ({ ...f, role, document_id: document.uuid })),
  );
  const errors = documents.flatMap((document, i) =>
    records[i]?.error ? [{ document_id: document.uuid, message: records[i]!.error! }] : [],
  );
  const times = present.map((r) => r.detected_at).sort();
  return { status, fields: uniquelyNamed(fields), errors, detected_at: times.at(-1) ?? null };
}

/** "Date", "Date 2", …: proposals often share a label, and a template's names should tell fields apart. */
function uniquelyNamed(fields: DetectedField[]): DetectedField[] {
  const seen = new Map<string, number>();
  return fields.map((f) => {
    const key = f.name.toLowerCase();
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    return count === 1 ? f : { ...f, name: `${f.name} ${count}` };
  });
}

/** The last detection of the template's current documents. */
export async function detectionStatus(
  bucket: R2Bucket,
  db: TemplateContext['db'],
  template: Template,
  minConfidence = DEFAULT_MIN_CONFIDENCE,
): Promise<Detection> {
  const documents = await listCurrentDocuments(db, [template.id]);
  const records = await Promise.all(
    documents.map(async (d) => {
      const object = await bucket.get(detectionKey(d));
      return object ? ((await object.json()) as DocumentDetection) : undefined;
    }),
  );
  return combine(template, documents, records, minConfidence);
}

export type DetectOptions = { apply: boolean; minConfidence: number };

/**
 * Detects fields on every current document now. Reading is bounded (page-layout.ts: 50 pages, and
 * ../pdf/reading-limits.ts per document), so it runs inside the request rather than on a queue.
 */
export async function detectFields(ctx: TemplateContext, template: Template, options: DetectOptions): Promise<Detection> {
  const documents = await listCurrentDocuments(ctx.db, [template.id]);
  const records: DocumentDetection[] = [];
  for (const document of documents) records.push(await detectDocument(ctx.bucket, document));
  const detection = combine(template, documents, records, options.minConfidence);
  if (!options.apply || detection.fields.length === 0) return detection;
  const proposed: FieldInput[] = detection.fields.map((f) => ({
    name: f.name,
    type: f.type,
    role: f.role,
    areas: [{ ...f.area, page: f.page, attachment_uuid: f.document_id }],
  }));
  const existing = storedAsInputs(template.fields).map((located) => located.input);
  const updated = await updateTemplate(ctx, template, { fields: [...existing, ...proposed] });
  return { ...detection, applied_version: updated.version };
}
