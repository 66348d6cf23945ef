// Per-submission documents from DOCX templates (spec › Template document: variables filled per
// submission; decisions.md › Documents in): each DOCX document of the template is filled with the
// submission's values, printed to PDF and stored under its template document's key; the signing page
// and the sealing job use that PDF instead of the template's rendering.
import type { TemplateDocument } from '../../db/schema/index';
import { unprocessable } from '../../lib/errors';
import { unzipDocx, type VariableValues } from '../documents/docx';
import { UnusableDocument } from '../pdf/pdf-file';
import type { BrowserLauncher } from '../rendering/browser-launches';
import { renderDocuments } from '../rendering/print-documents';
import { docxSourceKey, docxVariablesKey, printableDocx, type DocxSource } from '../templates/docx-documents';

/** Where a submission's own copy of a template document lives (under the document's key, so it goes with it). */
export function generatedDocumentKey(document: Pick<TemplateDocument, 'r2Key'>, submissionSlug: string): string {
  return `${document.r2Key}/submissions/${submissionSlug}.pdf`;
}

/** The PDF a submission shows and seals for `document`: its own generated copy when it has one. */
export async function submissionDocumentObject(
  bucket: R2Bucket,
  document: Pick<TemplateDocument, 'r2Key'>,
  submissionSlug: string,
): Promise<R2ObjectBody | null> {
  return (await bucket.get(generatedDocumentKey(document, submissionSlug))) ?? bucket.get(document.r2Key);
}

export type DocxDocument = { document: TemplateDocument; variables: string[] };

/** The template's documents made from DOCX, with the variables each references. */
export async function docxDocumentsOf(bucket: R2Bucket, documents: TemplateDocument[]): Promise<DocxDocument[]> {
  const found = await Promise.all(
    documents.map(async (document) => {
      const source = await bucket.get(docxVariablesKey(document.r2Key));
      return source ? { document, variables: ((await source.json()) as DocxSource).variables } : null;
    }),
  );
  return found.filter((d): d is DocxDocument => d !== null);
}

export type VariableSources = {
  /** Each submitter's `values`, in order (the first one giving a name wins). */
  submitterValues: (Record<string, unknown> | undefined)[];
  submissionValues?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  builtIns: { signer_name: string; signer_email: string; signing_date: string; submission_id: string; template_name: string };
};

function scalar(value: unknown): string | number | boolean | undefined {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return undefined;
}

/** Values by variable name: submitter values, then submission values, then metadata, then built-ins (decisions.md › Documents in). */
export function variableValues(variables: string[], sources: VariableSources): VariableValues {
  const layers = [...sources.submitterValues, sources.submissionValues, sources.metadata];
  const builtIns: Record<string, string> = sources.builtIns;
  const out: VariableValues = {};
  for (const name of variables) {
    const given = layers.map((layer) => scalar(layer?.[name])).find((value) => value !== undefined && value !== '');
    // A built-in always counts as given, even empty (a submitter invited by email alone has no name).
    const value = given ?? (Object.hasOwn(builtIns, name) ? builtIns[name] : undefined);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** The 422 sentence for variables a submission leaves without a value (null when none). */
export function missingVariablesProblem(where: string, variables: string[], values: VariableValues, optional: string[]): string | null {
  const missing = variables.filter((v) => values[v] === undefined && !optional.includes(v));
  if (!missing.length) return null;
  return `${where}values must give ${missing.map((m) => `"${m}"`).join(', ')}: the template's DOCX document uses ${missing.length === 1 ? 'this variable' : 'these variables'} (give ${missing.length === 1 ? 'it' : 'them'} in a submitter's values, the submission's values or metadata, or list ${missing.length === 1 ? 'it' : 'them'} in the template's preferences.optional_variables).`;
}

export type GeneratedDocument = { key: string; bytes: Uint8Array };

/** One submission's values, its slug and how its problems are prefixed (`submissions[2]: `). */
export type DocxFilling = { values: VariableValues; submissionSlug: string; where: string };

/** `work`, with a DOCX past the reading limits refused as a 422 naming `what` and the limit. */
async function withinReadingLimits<T>(what: string, work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof UnusableDocument)) throw error;
    // A DOCX stored before the limits were lowered (docs/security.md › Hostile files) can be past them now.
    throw unprocessable(`${what} ${error.message}.`);
  }
}

/**
 * Fills and prints the DOCX documents of every submission in `fillings`, all in one browser session (a
 * bulk request costs one launch of the account's budget, not one per submission). A filled document
 * must keep the page count of the template's rendering, since field areas are placed on those pages;
 * otherwise the submission is refused.
 */
export async function generateDocuments(
  bucket: R2Bucket,
  browser: BrowserLauncher,
  docs: DocxDocument[],
  fillings: DocxFilling[],
): Promise<GeneratedDocument[]> {
  const sources = await Promise.all(
    docs.map(async ({ document }) => {
      const original = await bucket.get(docxSourceKey(document.r2Key));
      if (!original) throw new Error(`The DOCX source of template document ${document.id} is missing from storage.`);
      const bytes = new Uint8Array(await original.arrayBuffer());
      return withinReadingLimits(`the template's DOCX "${document.filename}"`, () => unzipDocx(bytes));
    }),
  );
  const pages: { html: string; header?: string; footer?: string }[] = [];
  for (const { values, where } of fillings) {
    for (const [i, files] of sources.entries()) {
      pages.push(
        await withinReadingLimits(`${where}the template's DOCX "${docs[i].document.filename}"`, () => printableDocx(files, values)),
      );
    }
  }
  const pdfs = await renderDocuments(browser, { documents: pages, size: 'Letter' });
  // pdf-lib loads with the first generated document, not with the isolate (decisions.md › Cold start).
  const [{ inspectPdf }, { extractDocumentFields }] = await Promise.all([
    import('../pdf/inspect-pdf'),
    import('../templates/document-fields'),
  ]);
  const out: GeneratedDocument[] = [];
  for (const [f, { submissionSlug, where }] of fillings.entries()) {
    for (const [d, { document }] of docs.entries()) {
      const pdf = pdfs[f * docs.length + d];
      const { pageCount } = await inspectPdf(pdf);
      if (pageCount !== document.pageCount) {
        throw unprocessable(
          `${where}the values given make "${document.filename}" ${pageCount} pages long instead of its template's ${document.pageCount}; fields are placed on the template's pages, so the filled document must keep its page count (shorten the values or keep conditional blocks within a page).`,
        );
      }
      // Text tags printed again from the DOCX are hidden as in the template's rendering; their fields are the template's.
      const { bytes } = await extractDocumentFields(pdf, `"${document.filename}"`);
      out.push({ key: generatedDocumentKey(document, submissionSlug), bytes });
    }
  }
  return out;
}
