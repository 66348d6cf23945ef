// Request and response schemas of submissions and submitters (spec › Submission, Submitter, Creating a submission).
import { reminderScheduleSchema } from '../workflow-preferences.schemas';
import { z } from '@hono/zod-openapi';
import { cursorPaginationSchema, cursorQuerySchema } from '../../lib/pagination';
import { SIGNATURE_LEVELS, SUBMISSION_STATUSES, SUBMITTER_STATUSES } from '../../db/schema/index';
import { parseDateTime } from '../../lib/time';
import { canonicalLanguageTag, LOCALES } from '../../shared/i18n/locales';

const metadata = z.record(z.string(), z.unknown()).openapi({ description: 'Your own key/value data, returned as given.' });
const values = z.record(z.string(), z.unknown()).openapi({
  description: 'Prefilled values: field name (or field uuid) → value, checked against the field.',
  example: { 'Full Name': 'Jane Doe' },
});
const dateTime = z.string().openapi({ format: 'date-time' });
const DATE_TIME_PHRASE = 'must be a date-time such as 2026-01-31T12:00:00Z';
/** `expire_at`: a date-time (checked here, so a bad one is a 422 naming the field); "" or null for none. */
const expireAt = z
  .string()
  .refine((v) => v === '' || parseDateTime(v) !== null, DATE_TIME_PHRASE)
  .nullish()
  .openapi({ format: 'date-time' });

const anyOfPerson = z.object({ email: z.string(), name: z.string().nullish(), phone: z.string().nullish() }).openapi('AnyOfPersonInput');
/** A signer's language: a BCP 47 tag (checked here, so a bad one is a 422 naming the field). */
const languageTag = z
  .string()
  .refine((v) => canonicalLanguageTag(v) !== null, 'must be a BCP 47 language tag such as de, pt-BR or zh-Hans')
  .openapi({
    example: 'de',
    description: `The signer's language (BCP 47) for the signing page, emails and SMS. Served: ${LOCALES.join(', ')}; another tag falls back to its base language (de-AT → de), then English. A submitter's wins over the submission's, the template's \`preferences.language\`, the embed \`language\` option, the account's \`locale\` and the browser's Accept-Language.`,
  });

export const submitterInput = z
  .object({
    role: z.string().optional().openapi({
      description:
        'A template role name. Submitters are matched to roles as DocuSeal matches them: by `role`, else by `uuid`, else by position (the role at the same index, or the next free one). Roles nobody is named for are not part of the submission: their fields are neither required nor stamped.',
      example: 'First Party',
    }),
    uuid: z.string().optional().openapi({ description: 'The template role uuid, used when `role` is omitted or names no role.' }),
    email: z.string().nullish().openapi({ example: 'jane@example.com' }),
    name: z.string().nullish().openapi({ example: 'Jane Doe' }),
    phone: z.string().nullish().openapi({ example: '+14155550123' }),
    external_id: z.string().nullish(),
    language: languageTag.nullish(),
    values: values.optional(),
    metadata: metadata.optional(),
    send_email: z.boolean().optional().openapi({ description: 'false: this submitter gets no emails.' }),
    send_sms: z.boolean().optional().openapi({ description: 'true: invitations also go by SMS to `phone`.' }),
    send_whatsapp: z.boolean().optional().openapi({
      description: 'true: invitations go by WhatsApp to `phone`, and so does the phone code of require_phone_2fa (instead of SMS).',
    }),
    require_phone_2fa: z.boolean().optional().openapi({
      description:
        'true: before the form opens the signer enters a 6-digit code sent to `phone` (SMS, or WhatsApp with send_whatsapp), valid 10 minutes. Needs `phone` (422 otherwise), as does the template preference of the same name.',
    }),
    order: z.number().int().min(0).nullish().openapi({
      description:
        'Signing group: submitters with the same order sign in parallel, groups go in ascending order. Give every submitter an order, or none to follow `submitters_order`.',
      example: 0,
    }),
    emails: z
      .array(z.union([z.string(), anyOfPerson]))
      .max(10)
      .nullish()
      .openapi({
        description:
          'Any one of these people signs (at most 10); each gets their own link and the first to complete becomes the signer. `email` may instead list them comma-separated.',
      }),
  })
  .openapi('SubmitterInput');

const preferences = z
  .object({
    brand_id: z.number().int().optional(),
    signature_level: z.enum(SIGNATURE_LEVELS).optional().openapi({
      description:
        'The level its signers sign at (ses, aes, qes), at most the account’s; default the template’s, else the account’s. Fixed at creation.',
    }),
    reminder_subject: z
      .string()
      .optional()
      .openapi({ description: 'Reminder subject; tokens such as {{submitter.name}}, {{template.name}}.' }),
    reminder_body: z.string().optional().openapi({
      description: 'Reminder text; tokens {{submitter.name}}, {{submitter.link}}, {{template.name}}, {{submission.expire_at}}.',
    }),
    reminder_schedule: reminderScheduleSchema.optional().openapi({
      description:
        'Hours after each signer’s invitation at which signers who have not finished are reminded (at most 5, ascending, 1 to 720); ' +
        'default the template’s, else the account’s (PUT /api/settings/reminders). `[]` sends none. Fixed at creation.',
      example: [24, 72, 168],
    }),
    completed_redirect_url: z.string().optional().openapi({ description: 'Where the completed page’s continue link goes.' }),
    language: languageTag.optional(),
  })
  .strict()
  .openapi('SubmissionPreferences');

const submissionFields = {
  submitters: z.array(submitterInput),
  submitters_order: z.enum(['sequential', 'parallel']).optional().openapi({ description: 'Default sequential.' }),
  send_email: z.boolean().optional().openapi({ description: 'false suppresses every invitation email. Default true.' }),
  send_sms: z.boolean().optional().openapi({ description: 'Default for submitters’ send_sms.' }),
  send_whatsapp: z.boolean().optional().openapi({ description: 'Default for submitters’ send_whatsapp.' }),
  expire_at: expireAt.openapi({ description: 'When pending signing stops; must be in the future.' }),
  auto_sign: z.boolean().optional(),
  draft: z.boolean().optional().openapi({ description: 'true: saved but nothing is sent until POST /api/submissions/{id}/send.' }),
  metadata: metadata.optional(),
  values: z.record(z.string(), z.unknown()).optional().openapi({
    description: 'Values of a DOCX template’s `[[variables]]` (after each submitter’s `values`, before `metadata` and the built-ins).',
  }),
  preferences: preferences.optional(),
  message: z
    .object({ subject: z.string().optional(), body: z.string().optional() })
    .optional()
    .openapi({ description: 'Invitation subject and body overrides (tokens as in reminders).' }),
};

const templateRef = z
  .union([z.string(), z.number().int()])
  .openapi({ description: 'Template id: `tpl_…` or the integer id.', example: 'tpl_9fX2mQ7LrTz3aB8cD1eF' });

export const createSubmissionBody = z
  .object({
    template_id: templateRef.optional(),
    ...submissionFields,
    submitters: z.array(submitterInput).optional(),
    submissions: z
      .array(
        z
          .object({ ...submissionFields, template_id: templateRef.optional() })
          .partial({ submitters: true })
          .extend({ submitters: z.array(submitterInput) }),
      )
      .optional()
      .openapi({ description: 'Bulk: one submission per element (at most 100); top-level settings are their defaults.' }),
  })
  .openapi('CreateSubmission');

export const templateSubmissionsBody = createSubmissionBody.omit({ template_id: true }).openapi('CreateTemplateSubmissions');

export const submissionEmailsBody = z
  .object({
    template_id: templateRef,
    emails: z
      .union([z.string(), z.array(z.string())])
      .openapi({ description: 'Addresses as a list or one comma-separated string.', example: 'a@example.com, b@example.com' }),
    send_email: z.boolean().optional(),
    submitters_order: z.enum(['sequential', 'parallel']).optional(),
    expire_at: expireAt,
    metadata: metadata.optional(),
    preferences: preferences.optional(),
    message: z.object({ subject: z.string().optional(), body: z.string().optional() }).optional(),
  })
  .openapi('CreateSubmissionsFromEmails');

export const updateSubmissionBody = z
  .object({
    expire_at: expireAt,
    submitters_order: z.enum(['sequential', 'parallel']).optional().openapi({ description: 'Drafts only.' }),
    send_email: z.boolean().optional().openapi({ description: 'Drafts only.' }),
    metadata: metadata.optional(),
    preferences: preferences.optional(),
    submitters: z.array(submitterInput).optional().openapi({ description: 'Drafts only: replaces the submitters.' }),
  })
  .openapi('UpdateSubmission');

export const updateSubmitterBody = z
  .object({
    email: z.string().optional(),
    name: z.string().nullish(),
    phone: z.string().nullish(),
    external_id: z.string().nullish(),
    language: languageTag.nullish(),
    values: values.optional(),
    metadata: metadata.optional(),
    send_email: z.boolean().optional().openapi({ description: 'true re-sends the invitation email.' }),
    send_sms: z.boolean().optional().openapi({ description: 'true re-sends the invitation by SMS.' }),
    send_whatsapp: z.boolean().optional().openapi({ description: 'true re-sends the invitation by WhatsApp.' }),
    require_phone_2fa: z
      .boolean()
      .optional()
      .openapi({ description: 'true: the signer enters a code sent to `phone` before the form opens.' }),
    completed: z.boolean().optional().openapi({ description: 'true completes this submitter with its stored and given values.' }),
  })
  .openapi('UpdateSubmitter');

export const submitterSchema = z
  .object({
    id: z.number().int(),
    uuid: z.string(),
    submission_id: z.number().int(),
    slug: z.string(),
    email: z.string().nullable(),
    name: z.string().nullable(),
    phone: z.string().nullable(),
    role: z.string(),
    external_id: z.string().nullable(),
    language: z
      .string()
      .nullable()
      .openapi({ description: 'The language given for this signer (BCP 47, canonical), or null when none was given.' }),
    status: z.enum(SUBMITTER_STATUSES),
    signing_url: z.string(),
    embed_src: z.string(),
    values: z.record(z.string(), z.unknown()).openapi({ description: 'Field name → value.' }),
    metadata,
    send_email: z.boolean(),
    send_sms: z.boolean(),
    send_whatsapp: z.boolean(),
    require_phone_2fa: z.boolean().openapi({ description: 'This submitter’s own require_phone_2fa (the template’s applies too).' }),
    sent_at: dateTime.nullable(),
    opened_at: dateTime.nullable(),
    completed_at: dateTime.nullable(),
    declined_at: dateTime.nullable(),
    decline_reason: z.string().nullable(),
    created_at: dateTime,
    updated_at: dateTime,
    order: z.number().int().optional().openapi({ description: 'Its signing group, when the submission was created with groups.' }),
    emails: z
      .array(
        z.object({
          email: z.string(),
          name: z.string().nullable(),
          phone: z.string().nullable(),
          signing_url: z.string(),
          completed_at: dateTime.nullable().openapi({ description: 'Set on the one person who signed.' }),
        }),
      )
      .optional()
      .openapi({
        description:
          'When any one of several people signs: each with their own link. Until one signs, `email` and `name` are the first person’s; then they are the signer’s.',
      }),
  })
  .openapi('Submitter');

export const submissionDocumentSchema = z
  .object({ id: z.number().int(), document_type: z.string(), filename: z.string(), download_url: z.string() })
  .openapi('SubmissionDocumentRef');

export const submissionSchema = z
  .object({
    id: z.number().int(),
    slug: z.string(),
    status: z.enum(SUBMISSION_STATUSES),
    source: z.string(),
    template_id: z.string(),
    template: z.object({ id: z.string(), name: z.string() }),
    submitters_order: z.enum(['sequential', 'parallel']),
    send_email: z.boolean(),
    auto_sign: z.boolean(),
    expire_at: dateTime.nullable(),
    metadata,
    preferences: z.record(z.string(), z.unknown()),
    signature_level: z.enum(SIGNATURE_LEVELS).openapi({
      description:
        'The level its signers sign at, fixed at creation: `preferences.signature_level`, else the template’s, else the account’s.',
    }),
    reminder_schedule: z
      .array(z.number().int())
      .nullable()
      .openapi({
        description:
          'Hours after each signer’s invitation at which signers who have not finished are reminded, fixed at creation: ' +
          '`preferences.reminder_schedule`, else the template’s, else the account’s; null sends none.',
      }),
    legal_hold: z
      .boolean()
      .openapi({ description: 'true while a legal hold keeps it from being erased (POST /api/submissions/{id}/legal_hold).' }),
    legal_hold_at: dateTime.nullable().openapi({ description: 'Since when the legal hold is set.' }),
    retained_until: dateTime.nullable().openapi({
      description:
        'When retention erases its documents and values (completion plus the template’s `retention_days`, else the account’s ' +
        '`documents_days`); null while it is kept or held.',
    }),
    submitters: z.array(submitterSchema),
    documents: z.array(submissionDocumentSchema).openapi({ description: 'Signed documents, once completed.' }),
    created_at: dateTime,
    updated_at: dateTime,
    sent_at: dateTime.nullable(),
    completed_at: dateTime.nullable(),
    expired_at: dateTime.nullable(),
    archived_at: dateTime.nullable(),
  })
  .openapi('Submission');

export const submissionListSchema = z
  .object({ data: z.array(submissionSchema), pagination: cursorPaginationSchema })
  .openapi('SubmissionList');
export const submitterListSchema = z
  .object({ data: z.array(submitterSchema), pagination: cursorPaginationSchema })
  .openapi('SubmitterList');

const optionalDate = z
  .string()
  .refine((v) => parseDateTime(v) !== null, DATE_TIME_PHRASE)
  .optional()
  .openapi({ format: 'date-time' });

export const submissionListQuery = cursorQuerySchema.extend({
  template_id: z.string().optional(),
  status: z.enum(SUBMISSION_STATUSES).optional(),
  q: z.string().optional().openapi({ description: 'Matches submitter name, email or phone.' }),
  external_id: z.string().optional().openapi({ description: 'A submitter’s external_id.' }),
  slug: z.string().optional(),
  template_folder: z.string().optional(),
  archived: z.enum(['true', 'false']).optional(),
  created_after: optionalDate,
  created_before: optionalDate,
});

export const submitterListQuery = cursorQuerySchema.extend({
  submission_id: z.coerce
    .number({ error: 'must be an integer id' })
    .int('must be an integer id')
    .positive('must be a positive integer id')
    .optional(),
  external_id: z.string().optional(),
  q: z.string().optional(),
  completed_after: optionalDate,
  completed_before: optionalDate,
});

export const permanentlyQuery = z.object({
  permanently: z
    .enum(['true', 'false'])
    .optional()
    .openapi({
      description:
        'true erases it now (account admins only; 409 while a legal hold is set): its files and documents are deleted, values and ' +
        'contact details replaced by their SHA-256, the audit trail and document hashes kept; GET then answers 410 with `erased_at`.',
    }),
});
