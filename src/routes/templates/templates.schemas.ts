// Zod schemas of templates: the JSON a template is returned as, and the bodies its routes take.
import { reminderScheduleSchema, retentionDaysSchema } from '../workflow-preferences.schemas';
import { z } from '@hono/zod-openapi';
import { pageQuerySchema } from '../../lib/pagination';
import { FIELD_TYPES } from '../../services/templates/template-fields';
import { SIGNATURE_LEVELS } from '../../services/signature-levels/levels';
import { SIGNING_NAV_STYLES } from '../../services/templates/template-preferences';
import { CONDITION_OPERATORS } from '../../shared/template-schema';
import { canonicalLanguageTag } from '../../shared/i18n/locales';

const MAX_FIELDS = 1000;
const MAX_ROLES = 50;
const name = z.string().trim().max(255);

export const areaSchema = z
  .object({
    page: z.number().int().openapi({ description: 'Page number, from 1.', example: 1 }),
    x: z.number().openapi({ description: 'Left edge: a fraction of the page width (0–1) or PDF points.', example: 0.1 }),
    y: z.number().openapi({ description: 'Top edge: a fraction of the page height (0–1) or PDF points.', example: 0.8 }),
    w: z.number().openapi({ example: 0.3 }),
    h: z.number().openapi({ example: 0.05 }),
    attachment_uuid: z.uuid().openapi({ description: 'The document the area is on.' }),
  })
  .openapi('Area');

const areaInputSchema = areaSchema.extend({
  attachment_uuid: z
    .uuid()
    .optional()
    .openapi({ description: 'The document; optional when the template has one document or the field is listed under a document.' }),
});

const fieldPreferencesSchema = z
  .object({
    review_in_carousel: z
      .boolean()
      .optional()
      .openapi({ description: 'true always reviews, false opts out, absent follows the document setting.' }),
    format: z.string().max(64).optional().openapi({
      description:
        'date and datenow fields: how the sealed document writes the date, with the tokens DD, D, MM, M, MMM, MMMM, YY, YYYY (e.g. DD/MM/YYYY). Without it, the account’s locale decides.',
      example: 'DD/MM/YYYY',
    }),
  })
  .catchall(z.unknown());

export const fieldSchema = z
  .object({
    uuid: z.uuid(),
    name: z.string(),
    type: z.enum(FIELD_TYPES),
    submitter_uuid: z.uuid(),
    required: z.boolean(),
    readonly: z.boolean(),
    key: z.string().optional(),
    default_value: z.string().optional(),
    placeholder: z.string().optional(),
    pattern: z.string().optional(),
    validation: z.string().optional(),
    options: z.array(z.string()).optional(),
    formula: z.string().optional(),
    areas: z.array(areaSchema),
    preferences: fieldPreferencesSchema,
  })
  .openapi('TemplateField');

/** A field's type; an unknown one is named with the types there are (the sentence names the field too). */
const fieldType = z.enum(FIELD_TYPES, {
  error: (issue) =>
    issue.input === undefined ? 'is required' : `${JSON.stringify(issue.input)} is not a field type; use one of: ${FIELD_TYPES.join(', ')}`,
});

export const fieldInputSchema = z
  .object({
    uuid: z.uuid().optional(),
    name: name.optional().openapi({ description: 'Defaults to "<Type> Field <n>".' }),
    type: fieldType,
    role: name.optional().openapi({ description: 'The role by name; or use submitter_uuid. Defaults to the first role.' }),
    submitter_uuid: z.uuid().optional(),
    required: z.boolean().optional().openapi({ description: 'Defaults to true, except for checkboxes.' }),
    readonly: z.boolean().optional(),
    key: z.string().max(255).optional(),
    default_value: z.union([z.string().max(10_000), z.number(), z.boolean()]).optional(),
    placeholder: z.string().max(1000).optional(),
    pattern: z.string().max(1000).optional().openapi({
      description:
        'A regular expression the whole value must match, in RE2 syntax (linear time): no lookarounds or backreferences, repeat counts up to 1000.',
    }),
    validation: z
      .union([z.string().max(64), z.object({ pattern: z.string().max(1000), message: z.string().max(1000).optional() })])
      .optional()
      .openapi({
        description:
          'A preset: ssn, ein, zip, us_phone, mm_dd_yyyy, email, url, numbers_only, letters_only; or DocuSeal’s {pattern, message}.',
      }),
    options: z.array(z.string().max(1000)).max(500).optional().openapi({ description: 'Choices; required for select and radio.' }),
    formula: z
      .string()
      .max(2000)
      .optional()
      .openapi({ description: 'Arithmetic over {Field Name} references: numbers, + - * / and parentheses.' }),
    areas: z.array(areaInputSchema).max(100).optional(),
    preferences: fieldPreferencesSchema.optional(),
  })
  .openapi('TemplateFieldInput');

export const roleSchema = z.object({ name: z.string(), uuid: z.uuid() }).openapi('TemplateRole');
const roleInputSchema = z.object({ name: name.min(1), uuid: z.uuid().optional() });

function isHttpUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** Branding strings may be sent empty to clear them (spec › Create brand: null or "" is dropped). */
const httpUrl = z
  .string()
  .max(2048)
  .refine((v) => v === '' || isHttpUrl(v), 'must be an http(s) URL')
  .nullable()
  .optional();
const text = z.string().max(255).nullable().optional();

export const preferencesInputSchema = z
  .strictObject({
    display_title: text,
    logo_url: httpUrl,
    company_name: text,
    favicon_url: httpUrl,
    primary_button_color: z
      .string()
      .regex(/^(#[0-9a-fA-F]{6})?$/, 'must be a colour like #1a2b3c')
      .nullable()
      .optional(),
    header_color: z
      .string()
      .regex(/^(#[0-9a-fA-F]{6})?$/, 'must be a colour like #1a2b3c')
      .nullable()
      .optional(),
    show_branding: z.boolean().nullable().optional(),
    brand_id: z.number().int().positive().nullable().optional(),
    custom_domain: z
      .string()
      .max(253)
      .regex(/^$|^[a-z0-9.-]+$/i, 'must be a host name such as sign.example.com')
      .nullable()
      .optional(),
    signing_nav_style: z.enum(SIGNING_NAV_STYLES).nullable().optional(),
    require_email_2fa: z.boolean().nullable().optional(),
    require_phone_2fa: z.boolean().nullable().optional().openapi({
      description:
        'Signers enter a 6-digit code sent to their phone (SMS, or WhatsApp for submitters with send_whatsapp) before the form opens; every submitter then needs a phone.',
    }),
    language: z
      .string()
      .refine((v) => canonicalLanguageTag(v) !== null, 'must be a BCP 47 language tag such as de, pt-BR or zh-Hans')
      .nullable()
      .optional()
      .openapi({
        description:
          'The signers’ language (BCP 47) when neither the submitter nor the submission names one; before the embed option, the account’s locale and the browser’s.',
      }),
    optional_variables: z
      .array(z.string().max(255))
      .max(500)
      .nullable()
      .optional()
      .openapi({ description: 'DOCX variables a submission may leave without a value (they print empty); others are required.' }),
    signature_level: z.enum(SIGNATURE_LEVELS).nullable().optional().openapi({
      description:
        'The level this template’s submissions sign at (ses, aes, qes), at most the account’s; default the account’s level. null removes it.',
    }),
    reminder_schedule: reminderScheduleSchema
      .nullable()
      .optional()
      .openapi({
        description:
          'Hours after each signer’s invitation at which signers who have not finished are reminded (at most 5, ascending, 1 to 720), ' +
          'for submissions created from now on unless they name their own; null falls back to the account’s.',
        example: [24, 72, 168],
      }),
    retention_days: retentionDaysSchema
      .nullable()
      .optional()
      .openapi({
        description:
          'Days after completion that this template’s submissions keep their documents and values before they are erased; overrides the ' +
          'account’s `documents_days` for submissions completed from now on. null falls back to the account’s.',
        example: 365,
      }),
    carousel_review_documents: z.array(z.uuid()).max(10).nullable().optional(),
    document_conditions: z
      .record(
        z.uuid(),
        z.object({
          action: z.enum(['show', 'hide']),
          match: z.enum(['all', 'any']).optional(),
          conditions: z
            .array(z.object({ field_uuid: z.uuid(), operator: z.enum(CONDITION_OPERATORS), value: z.string().max(1000).optional() }))
            .min(1)
            .max(50),
        }),
      )
      .nullable()
      .optional()
      .openapi({ description: 'Per document uuid: show or hide it when its conditions on field values hold.' }),
  })
  .openapi('TemplatePreferences');

export const documentSchema = z
  .object({
    id: z.number().int(),
    uuid: z.uuid(),
    filename: z.string(),
    content_type: z.string(),
    byte_size: z.number().int(),
    sha256: z.string(),
    page_count: z.number().int(),
    page_dimensions: z.array(z.object({ width: z.number(), height: z.number() })),
    url: z.string().openapi({ description: 'Streams the PDF; needs an API token with templates:read.' }),
    thumbnail_url: z.string().openapi({ description: 'PNG of the first page (add `page`, `width`); needs templates:read.' }),
  })
  .openapi('TemplateDocument');

export const templateSchema = z
  .object({
    id: z.string().openapi({ example: 'tpl_3fK9x2LmQ7pR1sT5vW8y' }),
    name: z.string(),
    slug: z.string(),
    external_id: z.string().nullable(),
    folder_name: z.string(),
    source: z.string().openapi({ description: 'api, clone or merge.' }),
    shared: z.boolean(),
    version: z.number().int().openapi({ description: 'The latest version number; see /versions.' }),
    archived_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    download_url: z.string().openapi({ description: 'All documents as one PDF; needs an API token with templates:read.' }),
    thumbnail_url: z.string().openapi({ description: 'PNG of the first document’s first page; needs templates:read.' }),
    schema: z.array(fieldSchema),
    submitters: z.array(roleSchema),
    preferences: z.record(z.string(), z.unknown()),
    documents: z.array(documentSchema),
  })
  .openapi('Template');

/** The create body, with `file` as given: documentation types it, validation checks the real value. */
export function createTemplateBody<F extends z.ZodType>(file: F) {
  return z.object({
    name: name.optional().openapi({ description: 'Defaults to the first document’s name.' }),
    external_id: z.string().max(255).nullable().optional(),
    folder_name: name.optional(),
    shared: z.boolean().optional(),
    submitters: z
      .array(roleInputSchema)
      .max(MAX_ROLES)
      .optional()
      .openapi({ description: 'The roles; derived from the fields’ role names when omitted.' }),
    fields: z.array(fieldInputSchema).max(MAX_FIELDS).optional(),
    preferences: preferencesInputSchema.optional(),
    documents: z
      .array(
        z.object({
          name: name.optional(),
          file,
          fields: z
            .array(fieldInputSchema)
            .max(MAX_FIELDS)
            .optional()
            .openapi({ description: 'Fields whose areas default to this document.' }),
        }),
      )
      .max(10)
      .optional(),
  });
}

export const updateTemplateBody = z
  .object({
    name: name.min(1).optional(),
    folder_name: name.optional(),
    external_id: z.string().max(255).nullable().optional(),
    shared: z.boolean().optional(),
    submitters: z.array(roleInputSchema).min(1).max(MAX_ROLES).optional(),
    roles: z.array(name.min(1)).min(1).max(MAX_ROLES).optional().openapi({ description: 'DocuSeal form: role names by position.' }),
    fields: z.array(fieldInputSchema).max(MAX_FIELDS).optional(),
    schema: z
      .array(fieldInputSchema)
      .max(MAX_FIELDS)
      .optional()
      .openapi({ description: 'Same as fields, so a fetched template can be sent back.' }),
    preferences: preferencesInputSchema.optional(),
    archived: z.boolean().optional().openapi({ description: 'true archives, false restores.' }),
  })
  .openapi('TemplateUpdate');

export function changeDocumentsBody<F extends z.ZodType>(file: F) {
  return z.object({
    documents: z
      .array(
        z.object({
          uuid: z.uuid().optional().openapi({ description: 'The document to replace, rename or remove.' }),
          position: z
            .number()
            .int()
            .min(0)
            .optional()
            .openapi({ description: '0-based: where to add, or (with replace/remove) which document.' }),
          name: name.optional(),
          file: file.optional(),
          replace: z.boolean().optional(),
          remove: z.boolean().optional(),
        }),
      )
      .min(1)
      .max(20),
  });
}

export const copyTemplateBody = z.object({
  name: name.min(1).optional(),
  folder_name: name.optional(),
  external_id: z.string().max(255).nullable().optional(),
});

export const mergeTemplatesBody = copyTemplateBody
  .extend({
    template_ids: z
      .array(z.union([z.string().max(64), z.number().int().positive()]))
      .min(2)
      .max(10)
      .openapi({ description: 'Public ids or integer ids, in document order.' }),
  })
  .openapi('TemplateMerge');

export const templateListQuery = pageQuerySchema.extend({
  q: z.string().max(255).optional().openapi({ description: 'Part of the template name.' }),
  external_id: z.string().max(255).optional(),
  folder: z.string().max(255).optional(),
  slug: z.string().max(64).optional(),
  archived: z.enum(['true', 'false']).optional().openapi({ description: 'true lists archived templates instead of active ones.' }),
});

export const templateParams = z.object({
  id: z
    .string()
    .max(64)
    .openapi({ param: { name: 'id', in: 'path' }, description: 'tpl_… id or integer id.', example: 'tpl_3fK9x2LmQ7pR1sT5vW8y' }),
});

export const templateDocumentParams = templateParams.extend({
  document_id: z
    .string()
    .max(64)
    .openapi({ param: { name: 'document_id', in: 'path' }, description: 'Document uuid or integer id.' }),
});

export const permanentlyQuery = z.object({
  permanently: z.enum(['true', 'false']).optional().openapi({ description: 'true deletes the template and its files for good.' }),
});

export const versionSchema = z
  .object({
    version: z.number().int(),
    author_id: z.number().int().nullable(),
    changes: z.array(z.string()),
    created_at: z.string(),
    template: z.object({
      name: z.string(),
      folder_name: z.string(),
      external_id: z.string().nullable(),
      shared: z.boolean(),
      archived: z.boolean(),
      submitters: z.array(roleSchema),
      schema: z.array(fieldSchema),
      preferences: z.record(z.string(), z.unknown()),
      documents: z.array(
        z.object({ id: z.number().int(), uuid: z.string(), filename: z.string(), page_count: z.number().int(), sha256: z.string() }),
      ),
    }),
  })
  .openapi('TemplateVersion');
