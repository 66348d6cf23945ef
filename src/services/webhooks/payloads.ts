// The `data` object of every event, one builder per family (spec › Events › Payload shapes; decisions.md ›
// Webhooks). Capabilities that write outbox rows build `data` here, and test sends use the same builders
// with obviously fake sample values, so a sample always has the real shape.
import type { EventName } from '../../lib/events';
import { samplePaymentEventData } from './payment-payloads';
import type {
  PayloadDocument,
  PayloadIdentity,
  PayloadSubmission,
  PayloadSubmissionRef,
  PayloadSubmitter,
  PayloadTemplate,
  PayloadTemplateRef,
} from './payload-shapes';

/** Submission metadata keys that never leave the service (spec › Submission: `flattening_failed`). */
const RESERVED_METADATA_KEYS = new Set(['flattening_failed']);

export function publicMetadata(metadata: Record<string, unknown> | null | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(metadata ?? {}).filter(([key]) => !RESERVED_METADATA_KEYS.has(key)));
}

function documentData(d: PayloadDocument): PayloadDocument {
  const out: PayloadDocument = { id: d.id, document_type: d.document_type, filename: d.filename, download_url: d.download_url };
  if (d.url !== undefined) {
    out.url = d.url;
    out.url_expires_at = d.url_expires_at ?? null;
  }
  return out;
}

function submitterData(s: PayloadSubmitter): PayloadSubmitter {
  return {
    id: s.id,
    uuid: s.uuid,
    email: s.email,
    name: s.name,
    role: s.role,
    status: s.status,
    external_id: s.external_id,
    language: s.language ?? null,
    metadata: s.metadata ?? {},
    opened_at: s.opened_at,
    // spec: declined → completed_at null; expired → both null.
    completed_at: s.status === 'declined' || s.status === 'expired' ? null : s.completed_at,
    declined_at: s.status === 'expired' ? null : s.declined_at,
  };
}

export type FormEventInput = {
  submitter: PayloadSubmitter;
  submission: PayloadSubmissionRef;
  template: PayloadTemplateRef;
  /** form.completed / submitter.completed: the signed documents. */
  documents?: PayloadDocument[];
  /** form.delegated */
  delegated_to?: { email: string; name: string };
  /** signing.complete */
  identity?: PayloadIdentity;
};

/** form.*, submitter.* and signing.complete (decisions.md: submitter.* has the form.* shape). */
export function formEventData(input: FormEventInput): Record<string, unknown> {
  const data: Record<string, unknown> = {
    submitter: submitterData(input.submitter),
    submission: {
      id: input.submission.id,
      slug: input.submission.slug,
      status: input.submission.status,
      template_id: input.submission.template_id,
    },
    template: { id: input.template.id, name: input.template.name },
  };
  if (input.documents) data.documents = input.documents.map(documentData);
  if (input.delegated_to) data.delegated_to = { email: input.delegated_to.email, name: input.delegated_to.name };
  if (input.identity) {
    const { level, provider, method, verified_at } = input.identity;
    data.identity = { level, provider, method, verified_at };
  }
  return data;
}

/** submission.* */
export function submissionEventData(input: { submission: PayloadSubmission; template: PayloadTemplateRef }): Record<string, unknown> {
  const s = input.submission;
  return {
    submission: {
      id: s.id,
      slug: s.slug,
      status: s.status,
      created_at: s.created_at,
      completed_at: s.completed_at,
      template_id: s.template_id,
      // Caller metadata minus reserved keys; submitter metadata is never merged in (spec).
      metadata: publicMetadata(s.metadata),
      submitters: s.submitters.map(({ id, uuid, email, name, role, status, external_id, language }) => ({
        id,
        uuid,
        email,
        name,
        role,
        status,
        external_id,
        language: language ?? null,
      })),
      documents: s.documents.map(documentData),
    },
    template: { id: input.template.id, name: input.template.name },
  };
}

/** template.* */
export function templateEventData(t: PayloadTemplate): Record<string, unknown> {
  return {
    template: {
      id: t.id,
      name: t.name,
      slug: t.slug,
      external_id: t.external_id,
      folder_name: t.folder_name,
      source: t.source,
      created_at: t.created_at,
      updated_at: t.updated_at,
      submitters: t.submitters.map(({ uuid, name }) => ({ uuid, name })),
      field_count: t.field_count,
      document_count: t.document_count,
    },
  };
}

export type FieldUpdatedInput = {
  submitter: Pick<PayloadSubmitter, 'id' | 'uuid' | 'email' | 'name' | 'role'>;
  submission: Pick<PayloadSubmissionRef, 'id' | 'slug' | 'template_id'>;
  field: { uuid: string; name: string; type: string; old_value: unknown; new_value: unknown; was_prefilled: boolean };
  changed_at: string;
};

/** field.updated — the spec's shape repeats the event name inside `data`. */
export function fieldUpdatedData(input: FieldUpdatedInput): Record<string, unknown> {
  const { submitter: s, submission: m, field: f } = input;
  return {
    event: 'field.updated',
    submitter: { id: s.id, uuid: s.uuid, email: s.email, name: s.name, role: s.role },
    submission: { id: m.id, slug: m.slug, template_id: m.template_id },
    field: {
      uuid: f.uuid,
      name: f.name,
      type: f.type,
      old_value: f.old_value ?? null,
      new_value: f.new_value ?? null,
      was_prefilled: f.was_prefilled,
    },
    changed_at: input.changed_at,
  };
}

/** document.generated (decisions.md › Webhooks). */
export function documentGeneratedData(input: {
  submission: PayloadSubmissionRef;
  template: PayloadTemplateRef;
  document: PayloadDocument;
}): Record<string, unknown> {
  return {
    submission: {
      id: input.submission.id,
      slug: input.submission.slug,
      status: input.submission.status,
      template_id: input.submission.template_id,
    },
    template: { id: input.template.id, name: input.template.name },
    document: documentData(input.document),
  };
}

// ——— Sample data for test sends: the real shapes, values nobody could mistake for a real signer. ———

const SAMPLE_TEMPLATE: PayloadTemplateRef = { id: 'tpl_SAMPLE0000000000', name: 'Sample template (test send)' };

function sampleSubmitter(status: string, at: string): PayloadSubmitter {
  return {
    id: 0,
    uuid: '00000000-0000-4000-8000-000000000001',
    email: 'sample.signer@example.com',
    name: 'Sample Signer',
    role: 'First Party',
    status,
    external_id: 'sample-external-id',
    language: 'en',
    metadata: { sample: true },
    opened_at: status === 'waiting' || status === 'sent' ? null : at,
    completed_at: status === 'completed' ? at : null,
    declined_at: status === 'declined' ? at : null,
  };
}

function sampleDocument(type: 'signed_pdf' | 'combined' = 'signed_pdf'): PayloadDocument {
  return {
    id: 0,
    document_type: type,
    filename: 'sample-document.pdf',
    download_url: 'https://example.com/sample/documents/sample-document.pdf',
  };
}

const FORM_STATUS: Partial<Record<EventName, string>> = {
  'form.created': 'sent',
  'form.started': 'opened',
  'form.viewed': 'opened',
  'form.completed': 'completed',
  'form.declined': 'declined',
  'form.expired': 'expired',
  'form.delegated': 'sent',
  'signing.complete': 'completed',
  'submitter.sent': 'sent',
  'submitter.opened': 'opened',
  'submitter.completed': 'completed',
  'submitter.declined': 'declined',
};

const SUBMISSION_STATUS: Partial<Record<EventName, string>> = {
  'submission.created': 'pending',
  'submission.sent': 'pending',
  'submission.completed': 'completed',
  'submission.expired': 'expired',
  'submission.archived': 'archived',
};

/** Sample `data` for any event, with the shape its real deliveries have. */
export function sampleEventData(event: EventName, at: string): Record<string, unknown> {
  const submissionRef = (status: string): PayloadSubmissionRef => ({
    id: 0,
    slug: 'SAMPLEsubmission00',
    status,
    template_id: SAMPLE_TEMPLATE.id,
  });
  const formStatus = FORM_STATUS[event];
  if (formStatus) {
    const completed = formStatus === 'completed';
    return formEventData({
      submitter: sampleSubmitter(formStatus, at),
      submission: submissionRef(completed ? 'completed' : 'pending'),
      template: SAMPLE_TEMPLATE,
      documents: event === 'form.completed' || event === 'submitter.completed' ? [sampleDocument()] : undefined,
      delegated_to: event === 'form.delegated' ? { email: 'sample.delegate@example.com', name: 'Sample Delegate' } : undefined,
      identity:
        event === 'signing.complete'
          ? { level: 'aes', provider: 'sample-provider', method: 'sample-id-check', verified_at: at }
          : undefined,
    });
  }
  const submissionStatus = SUBMISSION_STATUS[event];
  if (submissionStatus) {
    const completed = submissionStatus === 'completed';
    const { id, uuid, email, name, role, external_id, language } = sampleSubmitter('waiting', at);
    return submissionEventData({
      submission: {
        id: 0,
        slug: 'SAMPLEsubmission00',
        status: submissionStatus,
        created_at: at,
        completed_at: completed ? at : null,
        template_id: SAMPLE_TEMPLATE.id,
        metadata: { sample: true },
        submitters: [
          {
            id,
            uuid,
            email,
            name,
            role,
            external_id,
            language,
            status: completed ? 'completed' : submissionStatus === 'expired' ? 'expired' : 'sent',
          },
        ],
        documents: completed ? [sampleDocument('signed_pdf'), sampleDocument('combined')] : [],
      },
      template: SAMPLE_TEMPLATE,
    });
  }
  if (event.startsWith('template.')) {
    return templateEventData({
      id: SAMPLE_TEMPLATE.id,
      name: SAMPLE_TEMPLATE.name,
      slug: 'SAMPLEtemplate0000',
      external_id: 'sample-external-id',
      folder_name: 'Sample folder',
      source: 'api',
      created_at: at,
      updated_at: at,
      submitters: [{ uuid: '00000000-0000-4000-8000-000000000001', name: 'First Party' }],
      field_count: 1,
      document_count: 1,
    });
  }
  if (event === 'field.updated') {
    const { id, uuid, email, name, role } = sampleSubmitter('opened', at);
    return fieldUpdatedData({
      submitter: { id, uuid, email, name, role },
      submission: { id: 0, slug: 'SAMPLEsubmission00', template_id: SAMPLE_TEMPLATE.id },
      field: {
        uuid: '00000000-0000-4000-8000-000000000002',
        name: 'Sample field',
        type: 'text',
        old_value: null,
        new_value: 'Sample value',
        was_prefilled: false,
      },
      changed_at: at,
    });
  }
  if (event.startsWith('payment.')) return samplePaymentEventData(event, submissionRef('pending'), SAMPLE_TEMPLATE);
  // document.generated is the only name left.
  return documentGeneratedData({ submission: submissionRef('completed'), template: SAMPLE_TEMPLATE, document: sampleDocument() });
}
