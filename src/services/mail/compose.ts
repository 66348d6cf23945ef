// The messages the service sends about a submission, as email and SMS, in the tenant's branding.
import { fillTokens, layoutEmail, type Branding, type EmailContent, type TokenValues } from './render';

export type MessageKind = 'invitation' | 'reminder' | 'expiry' | 'completion' | 'verification_code';

export type MessageContext = {
  branding: Branding;
  submitter: { name: string | null; email: string; link: string };
  template: { name: string };
  submission: { expireAt: string | null; downloadUrl?: string | null };
  /** Tenant overrides (submission preferences): subject and body with `{{tokens}}`. */
  custom?: { subject?: string | null; body?: string | null };
  /** verification_code only. */
  code?: string;
};

const DEFAULTS: Record<MessageKind, { subject: string; body: string; action?: string; sms: string }> = {
  invitation: {
    subject: '{{account.name}} has sent you {{template.name}} to sign',
    body: 'Hello {{submitter.name}},\n\n{{account.name}} has invited you to review and sign {{template.name}}.',
    action: 'Review and sign',
    sms: '{{account.name}}: please review and sign {{template.name}}: {{submitter.link}}',
  },
  reminder: {
    subject: 'Reminder: {{template.name}} is waiting for your signature',
    body: 'Hello {{submitter.name}},\n\nThis is a reminder that {{account.name}} is waiting for you to sign {{template.name}}.',
    action: 'Review and sign',
    sms: 'Reminder from {{account.name}}: {{template.name}} is waiting for your signature: {{submitter.link}}',
  },
  expiry: {
    subject: '{{template.name}} has expired',
    body: 'Hello {{submitter.name}},\n\nThe request to sign {{template.name}} expired on {{submission.expire_at}} and can no longer be signed. Contact {{account.name}} if you still need to sign it.',
    sms: '{{account.name}}: the request to sign {{template.name}} has expired.',
  },
  completion: {
    subject: '{{template.name}} is complete',
    body: 'Hello {{submitter.name}},\n\nEveryone has signed {{template.name}}. A copy of the signed document is available at the link below.',
    action: 'Download your copy',
    sms: '{{account.name}}: {{template.name}} is signed by everyone.',
  },
  verification_code: {
    subject: 'Your verification code for {{template.name}}',
    body: 'Your verification code is {{code}}. It expires in 10 minutes. If you did not try to open {{template.name}}, ignore this email.',
    sms: 'Your {{account.name}} verification code is {{code}}. It expires in 10 minutes.',
  },
};

function tokens(context: MessageContext): TokenValues {
  return {
    'submitter.name': context.submitter.name || context.submitter.email,
    'submitter.email': context.submitter.email,
    'submitter.link': context.submitter.link,
    'template.name': context.template.name,
    'submission.expire_at': context.submission.expireAt ?? '',
    'account.name': context.branding.companyName,
    code: context.code ?? '',
  };
}

export function composeEmail(kind: MessageKind, context: MessageContext): EmailContent {
  const values = tokens(context);
  const defaults = DEFAULTS[kind];
  const subject = fillTokens(context.custom?.subject || defaults.subject, values);
  const body = fillTokens(context.custom?.body || defaults.body, values);
  const url = kind === 'completion' ? (context.submission.downloadUrl ?? null) : context.submitter.link;
  return layoutEmail(context.branding, {
    subject,
    paragraphs: body.split(/\n{2,}/),
    action: defaults.action && url ? { label: defaults.action, url } : undefined,
  });
}

export function composeSms(kind: MessageKind, context: MessageContext): string {
  return fillTokens(DEFAULTS[kind].sms, tokens(context));
}
