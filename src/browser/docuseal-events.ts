// DocuSeal's embed events from our frames' messages (issue 32 › 3; docs/embedding.md › DocuSeal's
// components): what <docuseal-form> and <docuseal-builder> dispatch, named and shaped as DocuSeal's own
// elements do, so `@docuseal/react`, `@docuseal/vue` and `@docuseal/angular` hand their callbacks what
// they expect. Pure, so the tests run it without a browser.

export type ElementEvent = { name: string; detail: Record<string, unknown> };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The signing page's `load`, `completed` and `declined` become DocuSeal's events of the same names, whose
 * `detail` is the submitter: the page sends it shaped already (src/signing-page/embed-submitter.ts); from a
 * page that does not, the ids and status it names. Other messages (`expired`) are not DocuSeal's: dropped.
 */
export function docusealFormEvent(name: string, data: Record<string, unknown>): ElementEvent | null {
  if (name !== 'load' && name !== 'completed' && name !== 'declined') return null;
  const detail = isRecord(data.submitter)
    ? { ...data.submitter }
    : { id: data.submitter_id, submission_id: data.submission_id, slug: data.slug, status: data.status };
  return { name, detail };
}

/**
 * The builder's `load` and `saved` become DocuSeal's `load` and `save`, whose `detail` is the template
 * (`id`, and after a save its `name`, `fields`, `submitters` and our `version`). DocuSeal's `send`,
 * `upload` and `change` have no counterpart in our builder and are never dispatched.
 */
export function docusealBuilderEvent(name: string, data: Record<string, unknown>): ElementEvent | null {
  const { template_id: id, ...rest } = data;
  if (name === 'load') return { name: 'load', detail: { id, ...rest } };
  if (name === 'saved') return { name: 'save', detail: { id, ...rest } };
  return null;
}
