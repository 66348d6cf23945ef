// The `data` of payment.created / succeeded / failed / canceled (decisions.md › Public links and payments;
// docs/webhooks.md › Payment events): one shape for a payment field's payment and a recurring payment.
import type { PayloadSubmissionRef, PayloadSubmitter, PayloadTemplateRef } from './payload-shapes';

export type PaymentKind = 'field' | 'subscription';

export type PayloadPayment = {
  /** The payment field's payment row, or the recurring payment (GET /api/payments/subscriptions/{id}). */
  id: number;
  kind: PaymentKind;
  /** Field: pending, paid, failed, canceled. Recurring: scheduled, trialing, active, past_due, canceled. */
  status: string;
  /** In the currency's minor unit (cents), as charged. */
  amount: number;
  /** ISO 4217, upper case. */
  currency: string;
  description: string | null;
  /** Stripe's reference: checkout session (cs_…) or payment intent (pi_…) for a field; subscription (sub_…) for a recurring payment. */
  reference: string | null;
  /** Stripe's invoice (in_…) the event is about, for a recurring payment's succeeded / failed. */
  invoice: string | null;
  failure_message: string | null;
  /** The payment field (kind field). */
  field: { uuid: string; name: string } | null;
  /** day, week, month or year (kind subscription). */
  interval: string | null;
  trial_days: number | null;
};

export type PaymentEventInput = {
  payment: PayloadPayment;
  submission: PayloadSubmissionRef;
  submitter: Pick<PayloadSubmitter, 'id' | 'uuid' | 'email' | 'name' | 'role'> | null;
  template: PayloadTemplateRef;
};

/** payment.* */
export function paymentEventData(input: PaymentEventInput): Record<string, unknown> {
  const p = input.payment;
  const s = input.submitter;
  return {
    payment: {
      id: p.id,
      kind: p.kind,
      status: p.status,
      amount: p.amount,
      currency: p.currency,
      description: p.description,
      reference: p.reference,
      invoice: p.invoice,
      failure_message: p.failure_message,
      field: p.field ? { uuid: p.field.uuid, name: p.field.name } : null,
      interval: p.interval,
      trial_days: p.trial_days,
    },
    submission: {
      id: input.submission.id,
      slug: input.submission.slug,
      status: input.submission.status,
      template_id: input.submission.template_id,
    },
    submitter: s ? { id: s.id, uuid: s.uuid, email: s.email, name: s.name, role: s.role } : null,
    template: { id: input.template.id, name: input.template.name },
  };
}

const SAMPLE_STATUS: Record<string, string> = {
  'payment.created': 'pending',
  'payment.succeeded': 'paid',
  'payment.failed': 'failed',
  'payment.canceled': 'canceled',
};

/** A test send's payment event: a payment field's 12.50 EUR, with obviously fake references. */
export function samplePaymentEventData(
  event: string,
  submission: PayloadSubmissionRef,
  template: PayloadTemplateRef,
): Record<string, unknown> {
  const status = SAMPLE_STATUS[event] ?? 'pending';
  return paymentEventData({
    payment: {
      id: 0,
      kind: 'field',
      status,
      amount: 1250,
      currency: 'EUR',
      description: 'Sample payment (test send)',
      reference: status === 'paid' ? 'pi_SAMPLE0000000000' : 'cs_SAMPLE0000000000',
      invoice: null,
      failure_message: status === 'failed' ? 'Your card was declined.' : null,
      field: { uuid: '00000000-0000-4000-8000-000000000003', name: 'Sample payment' },
      interval: null,
      trial_days: null,
    },
    submission,
    submitter: {
      id: 0,
      uuid: '00000000-0000-4000-8000-000000000001',
      email: 'sample.signer@example.com',
      name: 'Sample Signer',
      role: 'First Party',
    },
    template,
  });
}
