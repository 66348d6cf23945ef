// The webhook event names (spec › Events; decisions.md › Webhooks: both lists are authoritative).

export const EVENT_NAMES = [
  'form.created',
  'form.started',
  'form.viewed',
  'form.completed',
  'form.declined',
  'form.expired',
  'form.delegated',
  'signing.complete',
  'field.updated',
  'submission.created',
  'submission.sent',
  'submission.completed',
  'submission.expired',
  'submission.archived',
  'submitter.sent',
  'submitter.opened',
  'submitter.completed',
  'submitter.declined',
  'template.created',
  'template.updated',
  'template.archived',
  'document.generated',
  // decisions.md › Public links and payments: payment fields and recurring payments (docs/payments.md).
  'payment.created',
  'payment.succeeded',
  'payment.failed',
  'payment.canceled',
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

const known = new Set<string>(EVENT_NAMES);

export function isEventName(value: string): value is EventName {
  return known.has(value);
}
