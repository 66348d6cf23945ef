import { describe, expect, it } from 'vitest';
import { EVENT_NAMES, type EventName } from '../../src/lib/events';
import { formEventData, sampleEventData, submissionEventData } from '../../src/services/webhooks/payloads';

const AT = '2026-01-01T00:00:00.000Z';
const keys = (value: unknown) => Object.keys(value as object).sort();

const SUBMITTER = [
  'completed_at',
  'declined_at',
  'email',
  'external_id',
  'id',
  'language',
  'metadata',
  'name',
  'opened_at',
  'role',
  'status',
  'uuid',
];
const FORM = ['submission', 'submitter', 'template'];
const SUBMISSION = ['completed_at', 'created_at', 'documents', 'id', 'metadata', 'slug', 'status', 'submitters', 'template_id'];
const TEMPLATE = [
  'created_at',
  'document_count',
  'external_id',
  'field_count',
  'folder_name',
  'id',
  'name',
  'slug',
  'source',
  'submitters',
  'updated_at',
];
const DOCUMENT = ['document_type', 'download_url', 'filename', 'id'];

// spec › Payload shapes, plus decisions.md for submitter.*, form.delegated, signing.complete, document.generated.
const TOP_LEVEL: Record<EventName, string[]> = {
  'form.created': FORM,
  'form.started': FORM,
  'form.viewed': FORM,
  'form.completed': [...FORM, 'documents'],
  'form.declined': FORM,
  'form.expired': FORM,
  'form.delegated': [...FORM, 'delegated_to'],
  'signing.complete': [...FORM, 'identity'],
  'field.updated': ['changed_at', 'event', 'field', 'submission', 'submitter'],
  'submission.created': ['submission', 'template'],
  'submission.sent': ['submission', 'template'],
  'submission.completed': ['submission', 'template'],
  'submission.expired': ['submission', 'template'],
  'submission.archived': ['submission', 'template'],
  'submitter.sent': FORM,
  'submitter.opened': FORM,
  'submitter.completed': [...FORM, 'documents'],
  'submitter.declined': FORM,
  'template.created': ['template'],
  'template.updated': ['template'],
  'template.archived': ['template'],
  'document.generated': ['document', 'submission', 'template'],
  'payment.created': ['payment', 'submission', 'submitter', 'template'],
  'payment.succeeded': ['payment', 'submission', 'submitter', 'template'],
  'payment.failed': ['payment', 'submission', 'submitter', 'template'],
  'payment.canceled': ['payment', 'submission', 'submitter', 'template'],
};

describe('sampleEventData', () => {
  it.each(EVENT_NAMES.map((e) => [e]))('gives %s the top-level shape of its real payload', (event) => {
    expect(keys(sampleEventData(event, AT))).toEqual([...TOP_LEVEL[event]].sort());
  });

  it.each(
    EVENT_NAMES.filter(
      (e) => TOP_LEVEL[e] === FORM || (TOP_LEVEL[e].includes('submitter') && e !== 'field.updated' && !e.startsWith('payment.')),
    ).map((e) => [e]),
  )('gives %s the full submitter, the submission reference and the template reference', (event) => {
    const data = sampleEventData(event, AT) as Record<string, object>;
    expect(keys(data.submitter)).toEqual(SUBMITTER);
    expect(keys(data.submission)).toEqual(['id', 'slug', 'status', 'template_id']);
    expect(keys(data.template)).toEqual(['id', 'name']);
  });

  it.each(EVENT_NAMES.filter((e) => e.startsWith('submission.')).map((e) => [e]))('gives %s the full submission', (event) => {
    const data = sampleEventData(event, AT) as { submission: { submitters: object[] } };
    expect(keys(data.submission)).toEqual(SUBMISSION);
    expect(keys(data.submission.submitters[0])).toEqual(['email', 'external_id', 'id', 'language', 'name', 'role', 'status', 'uuid']);
  });

  it('gives submission.completed its signed documents', () => {
    const data = sampleEventData('submission.completed', AT) as { submission: { documents: object[] } };
    expect(data.submission.documents.map(keys)).toEqual([DOCUMENT, DOCUMENT]);
  });

  it.each(['template.created', 'template.updated', 'template.archived'] as const)('gives %s the template fields', (event) => {
    expect(keys((sampleEventData(event, AT) as { template: object }).template)).toEqual(TEMPLATE);
  });

  it('gives field.updated its field change', () => {
    const data = sampleEventData('field.updated', AT) as Record<string, object>;
    expect(data.event).toBe('field.updated');
    expect(keys(data.field)).toEqual(['name', 'new_value', 'old_value', 'type', 'uuid', 'was_prefilled']);
    expect(keys(data.submitter)).toEqual(['email', 'id', 'name', 'role', 'uuid']);
    expect(keys(data.submission)).toEqual(['id', 'slug', 'template_id']);
  });

  it('gives signing.complete its identity block', () => {
    expect(keys((sampleEventData('signing.complete', AT) as { identity: object }).identity)).toEqual([
      'level',
      'method',
      'provider',
      'verified_at',
    ]);
  });

  it.each([
    'payment.created',
    'payment.succeeded',
    'payment.failed',
    'payment.canceled',
  ] as const)('gives %s the payment, the signer and the submission reference', (event) => {
    const data = sampleEventData(event, AT) as Record<string, object>;
    expect(keys(data.payment)).toEqual([
      'amount',
      'currency',
      'description',
      'failure_message',
      'field',
      'id',
      'interval',
      'invoice',
      'kind',
      'reference',
      'status',
      'trial_days',
    ]);
    expect(keys(data.submitter)).toEqual(['email', 'id', 'name', 'role', 'uuid']);
    expect(keys(data.submission)).toEqual(['id', 'slug', 'status', 'template_id']);
  });

  it('uses values nobody could mistake for a real signer', () => {
    const text = JSON.stringify(sampleEventData('form.completed', AT));
    expect(text).toContain('sample.signer@example.com');
    expect(text).toContain('Sample template (test send)');
  });

  it('carries the template id as the public tpl_ string', () => {
    const data = sampleEventData('form.viewed', AT) as { template: { id: unknown }; submission: { template_id: unknown } };
    expect(data.template.id).toMatch(/^tpl_/);
    expect(data.submission.template_id).toBe(data.template.id);
  });
});

describe('payload builders', () => {
  const submitter = {
    id: 1,
    uuid: 'u',
    email: 'a@b.c',
    name: 'A',
    role: 'Signer',
    status: 'declined',
    external_id: null,
    language: null,
    metadata: {},
    opened_at: AT,
    completed_at: AT,
    declined_at: AT,
  };
  const refs = { submission: { id: 1, slug: 's', status: 'pending', template_id: 'tpl_x' }, template: { id: 'tpl_x', name: 'T' } };

  it('nulls completed_at of a declined submitter', () => {
    const data = formEventData({ submitter, ...refs }) as { submitter: typeof submitter };
    expect([data.submitter.completed_at, data.submitter.declined_at]).toEqual([null, AT]);
  });

  it('nulls both completed_at and declined_at of an expired submitter', () => {
    const data = formEventData({ submitter: { ...submitter, status: 'expired' }, ...refs }) as { submitter: typeof submitter };
    expect([data.submitter.completed_at, data.submitter.declined_at]).toEqual([null, null]);
  });

  it('drops reserved metadata keys and fields outside the shape from submission payloads', () => {
    const data = submissionEventData({
      submission: {
        id: 1,
        slug: 's',
        status: 'completed',
        created_at: AT,
        completed_at: AT,
        template_id: 'tpl_x',
        metadata: { crm: 'x', flattening_failed: true },
        submitters: [
          { id: 1, uuid: 'u', email: 'a@b.c', name: 'A', role: 'Signer', status: 'completed', external_id: null, phone: '+1' } as never,
        ],
        documents: [],
      },
      template: refs.template,
    }) as { submission: { metadata: object; submitters: object[] } };
    expect(data.submission.metadata).toEqual({ crm: 'x' });
    expect(keys(data.submission.submitters[0])).not.toContain('phone');
  });
});
