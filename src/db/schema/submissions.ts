// Submissions (a template sent for signing), their submitters, and each submission's own event trail,
// which the audit page of the sealed document prints.
import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { now } from './columns';
import type { SignatureLevel } from './accounts';
import { templates, type PageDimensions, type TemplateField, type TemplateRole } from './templates';

/** Submission states (spec › States and transitions › Submission states; decisions.md › Lifecycles). */
export const SUBMISSION_STATUSES = ['draft', 'pending', 'completed', 'expired', 'archived'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

/** Submitter states with their numeric values (spec › Submitter states). */
export const SUBMITTER_STATUSES = ['waiting', 'sent', 'opened', 'completed', 'declined', 'expired'] as const;
export type SubmitterStatus = (typeof SUBMITTER_STATUSES)[number];

/** A template document as the submission froze it: later template edits never change what is signed. */
export type SubmissionDocumentSource = {
  id: number;
  uuid: string;
  filename: string;
  page_count: number;
  page_dimensions: PageDimensions[];
  sha256: string;
  r2_key: string;
};

/** The template as it was when the submission was created, resolved from its version and document rows. */
export type SubmissionTemplate = {
  name: string;
  version: number;
  submitters: TemplateRole[];
  schema: TemplateField[];
  preferences: Record<string, unknown>;
  documents: SubmissionDocumentSource[];
};

/** Submission preferences from the create body (spec › Submission › create-time inputs). */
export type SubmissionPreferences = {
  brand_id?: number;
  signature_level?: SignatureLevel;
  reminder_subject?: string;
  reminder_body?: string;
  /** Hours after the invitation at which automatic reminders go out (issue 33 › 4). */
  reminder_schedule?: number[];
  completed_redirect_url?: string;
  /** The signers' language (BCP 47), after each submitter's own (issue 31 › 2). */
  language?: string;
};

export const submissions = sqliteTable(
  'submissions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    accountId: integer('account_id').notNull(),
    templateId: integer('template_id')
      .notNull()
      .references(() => templates.id),
    /** Random base62, ≥ 14 characters (decisions.md › Identity and ids). */
    slug: text('slug').notNull(),
    status: text('status').$type<SubmissionStatus>().notNull(),
    /** sequential | parallel */
    submittersOrder: text('submitters_order').notNull().default('sequential'),
    sendEmail: integer('send_email', { mode: 'boolean' }).notNull().default(true),
    autoSign: integer('auto_sign', { mode: 'boolean' }).notNull().default(false),
    /** api | bulk | emails | template: which endpoint created it. */
    source: text('source').notNull().default('api'),
    /**
     * Origin signing links use (`{base_url}/s/<slug>`): the template's custom domain, APP_URL, or the
     * origin the submission was created through. Stored so links sent later (next signer, reminders
     * from the cron) match the first ones.
     */
    linkBase: text('link_base').notNull(),
    /**
     * The template as it was at creation: its stored version (roles, fields, preferences) and the
     * document rows then current. Template edits afterwards never change what this submission signs.
     */
    templateVersion: integer('template_version').notNull(),
    documentIds: text('document_ids', { mode: 'json' }).$type<number[]>().notNull(),
    preferences: text('preferences', { mode: 'json' }).$type<SubmissionPreferences>().notNull(),
    metadata: text('metadata', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    /**
     * The level its signers sign at, fixed at creation (src/services/signature-levels/levels.ts ›
     * effectiveSignatureLevel): the submission's preference, else the template's, else the account's.
     */
    signatureLevel: text('signature_level').$type<SignatureLevel>().notNull().default('ses'),
    createdById: integer('created_by_id'),
    expireAt: text('expire_at'),
    sentAt: text('sent_at'),
    completedAt: text('completed_at'),
    expiredAt: text('expired_at'),
    /** Set with status `archived`; `archivedFrom` keeps the state it was archived in. */
    archivedAt: text('archived_at'),
    archivedFrom: text('archived_from').$type<SubmissionStatus>(),
    /** When the signed documents were produced (the sealing job sets it). */
    sealedAt: text('sealed_at'),
    /**
     * The sealing sweep's bookkeeping: how often it re-queued this submission and when it last did, so
     * a submission that can never be sealed backs off and is given up on instead of being retried
     * every minute forever (src/scheduled/sealing-sweep.ts).
     */
    sealSweeps: integer('seal_sweeps').notNull().default(0),
    sealSweptAt: text('seal_swept_at'),
    /**
     * Set when the sealing job failed its last retry (src/queues/sealing.ts): when, and a sentence saying
     * why. GET /api/submissions/{id}/documents shows it; sealing afterwards, or POST …/documents/reseal,
     * clears it.
     */
    sealFailedAt: text('seal_failed_at'),
    sealFailure: text('seal_failure'),
    /**
     * The reminder schedule in force (hours after each signer's invitation), resolved at creation from the
     * submission's preferences, else the template's, else the account default; null sends none
     * (src/services/submissions/reminder-schedule.ts).
     */
    reminderSchedule: text('reminder_schedule', { mode: 'json' }).$type<number[]>(),
    /** Set while a legal hold keeps the submission from being erased (POST /api/submissions/{id}/legal_hold). */
    legalHoldAt: text('legal_hold_at'),
    /**
     * When retention erases it: completion plus the template's `retention_days`, else the account's
     * `documents_days`; null keeps it. Also set to the moment an erasure was claimed, so the cron finishes
     * one a crash interrupted (src/services/submissions/erase-submission.ts).
     */
    purgeAt: text('purge_at'),
    /** An erasure claimed the submission: from then on no legal hold can be set, and the erasure completes. */
    erasureStartedAt: text('erasure_started_at'),
    /** Erased: documents and their files gone, values replaced by their hashes, the trail kept. */
    erasedAt: text('erased_at'),
    createdAt: text('created_at').notNull().default(now),
    updatedAt: text('updated_at').notNull().default(now),
  },
  (t) => [
    uniqueIndex('submissions_slug').on(t.slug),
    // The purge step reads only rows due for erasure, oldest first (src/services/submissions/purge-submissions.ts).
    index('submissions_purge')
      .on(t.purgeAt)
      .where(sql`${t.purgeAt} IS NOT NULL AND ${t.erasedAt} IS NULL`),
    // Lists of submitters leave out those of erased submissions: few rows, found without a scan.
    index('submissions_erased')
      .on(t.accountId)
      .where(sql`${t.erasedAt} IS NOT NULL`),
    // The reminder step reads only pending rows that have a schedule.
    index('submissions_reminding')
      .on(t.id)
      .where(sql`${t.status} = 'pending' AND ${t.reminderSchedule} IS NOT NULL`),
    index('submissions_account').on(t.accountId, t.id),
    index('submissions_account_template').on(t.accountId, t.templateId, t.id),
    // The monthly plan limit counts an account's submissions since the first of the month.
    index('submissions_account_created').on(t.accountId, t.createdAt),
    // The expiry sweep reads only pending rows that have a deadline, oldest deadline first.
    index('submissions_expiry')
      .on(t.expireAt)
      .where(sql`${t.status} = 'pending' AND ${t.expireAt} IS NOT NULL`),
    // The completion sweep (src/scheduled/completion-sweep.ts) reads pending rows only, oldest first.
    index('submissions_pending')
      .on(t.id)
      .where(sql`${t.status} = 'pending'`),
  ],
);

export const submitters = sqliteTable(
  'submitters',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    accountId: integer('account_id').notNull(),
    submissionId: integer('submission_id')
      .notNull()
      .references(() => submissions.id),
    uuid: text('uuid').notNull(),
    slug: text('slug').notNull(),
    /** The template role this submitter fills: its uuid and name at creation. */
    roleUuid: text('role_uuid').notNull(),
    role: text('role').notNull(),
    /** Order within the submission (0-based); sequential signing follows it. */
    position: integer('position').notNull(),
    /**
     * The signing group (issue 33 › 1, create input `order`): the same number signs in parallel, groups
     * go in ascending order. Null: the submission's `submitters_order` rules (signing-order.ts › groupOf).
     */
    order: integer('signing_order'),
    email: text('email'),
    name: text('name'),
    /**
     * The name was typed by another signer (a delegate's or a witness's): kept for the record, never
     * written into an email to this person (issue 21 › 5: a signer's free text is not a sender's voice).
     */
    nameFromSigner: integer('name_from_signer', { mode: 'boolean' }).notNull().default(false),
    phone: text('phone'),
    externalId: text('external_id'),
    /** The signer's language as the API gave it (BCP 47, canonical); it wins the choice of language (issue 31 › 2). */
    language: text('language'),
    status: text('status').$type<SubmitterStatus>().notNull().default('waiting'),
    /**
     * Field uuid → value: prefilled by the API, then filled by the signer. Keyed by uuid because names
     * may repeat; the API shows names.
     */
    values: text('values', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    /** Uuids of the fields whose value came from the API (for `field.updated.was_prefilled`). */
    prefilled: text('prefilled', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    metadata: text('metadata', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    sendEmail: integer('send_email', { mode: 'boolean' }).notNull().default(true),
    sendSms: integer('send_sms', { mode: 'boolean' }).notNull().default(false),
    /** Invitations, reminders and phone codes go by WhatsApp to `phone` (Twilio's `whatsapp:` addresses). */
    sendWhatsapp: integer('send_whatsapp', { mode: 'boolean' }).notNull().default(false),
    /** The signer proves control of `phone` with a 6-digit code before the form opens (as the template's require_phone_2fa). */
    requirePhone2fa: integer('require_phone_2fa', { mode: 'boolean' }).notNull().default(false),
    sentAt: text('sent_at'),
    openedAt: text('opened_at'),
    startedAt: text('started_at'),
    completedAt: text('completed_at'),
    declinedAt: text('declined_at'),
    declineReason: text('decline_reason'),
    expiredAt: text('expired_at'),
    remindedAt: text('reminded_at'),
    /** How many of the submission's scheduled reminders this submitter is past (sent or skipped as overdue). */
    scheduledReminders: integer('scheduled_reminders').notNull().default(0),
    /** Where and how the signer completed: shown on the audit page. */
    completedIp: text('completed_ip'),
    completedUserAgent: text('completed_user_agent'),
    /** email_2fa | sms_2fa | whatsapp_2fa | link | api: how the signer's identity was established. */
    verificationMethod: text('verification_method'),
    /**
     * The electronic-records disclosure the signer accepted before signing (ESIGN §101(c), UETA §5;
     * src/services/signing/consent-disclosure.ts): its version and when. Set once; the signing page's
     * completion is refused while it is null.
     */
    disclosureVersion: text('disclosure_version'),
    disclosureAcceptedAt: text('disclosure_accepted_at'),
    createdAt: text('created_at').notNull().default(now),
    updatedAt: text('updated_at').notNull().default(now),
  },
  (t) => [
    uniqueIndex('submitters_slug').on(t.slug),
    uniqueIndex('submitters_uuid').on(t.uuid),
    index('submitters_submission').on(t.submissionId, t.position),
    index('submitters_account').on(t.accountId, t.id),
    index('submitters_account_external_id').on(t.accountId, t.externalId),
  ],
);

/**
 * The people of an any-one-of submitter (issue 33 › 2; decisions.md › Order groups and any-of signers):
 * each has their own signing link (`slug`), the first to complete becomes the submitter's signer.
 * Member 0's slug is the submitter's own. A submitter with one person has no member rows.
 */
export const submitterMembers = sqliteTable(
  'submitter_members',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    accountId: integer('account_id').notNull(),
    submissionId: integer('submission_id')
      .notNull()
      .references(() => submissions.id),
    submitterId: integer('submitter_id')
      .notNull()
      .references(() => submitters.id),
    position: integer('position').notNull(),
    slug: text('slug').notNull(),
    email: text('email').notNull(),
    name: text('name'),
    phone: text('phone'),
    /** This member's own acceptance of the electronic-records disclosure (ESIGN §101(c)). */
    disclosureVersion: text('disclosure_version'),
    disclosureAcceptedAt: text('disclosure_accepted_at'),
    /** Set on the one member whose completion completed the submitter. */
    completedAt: text('completed_at'),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [uniqueIndex('submitter_members_slug').on(t.slug), index('submitter_members_submission').on(t.submissionId, t.submitterId)],
);

/**
 * Every `action` a submission's trail row can have (the writers are typed by it); the audit page names
 * each in the page's language (src/services/sealing/audit-trail.ts › EVENT_NAMES).
 */
export const SUBMISSION_EVENT_ACTIONS = [
  'created',
  'sent',
  'resent',
  'reminded',
  'message_accepted',
  'message_delivered',
  'message_failed',
  'link_clicked',
  'opened',
  'started',
  'verification_code_sent',
  'email_verified',
  'phone_verified',
  'disclosure_accepted',
  'delegated',
  'witness_invited',
  'declined',
  'completed',
  'submission_completed',
  'expired',
  'archived',
  'legal_hold_set',
  'legal_hold_released',
  'signer_certificate_issued',
  'value_not_drawn',
  'erased',
] as const;

export type SubmissionEventAction = (typeof SUBMISSION_EVENT_ACTIONS)[number];

/** What happened to a submission, in order: the audit trail printed on the sealed document's last page. */
export const submissionEvents = sqliteTable(
  'submission_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    accountId: integer('account_id').notNull(),
    submissionId: integer('submission_id')
      .notNull()
      .references(() => submissions.id),
    submitterId: integer('submitter_id').references(() => submitters.id),
    action: text('action').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    data: text('data', { mode: 'json' }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [index('submission_events_submission').on(t.submissionId, t.id)],
);

export type Submission = typeof submissions.$inferSelect;
export type NewSubmission = typeof submissions.$inferInsert;
export type Submitter = typeof submitters.$inferSelect;
export type NewSubmitter = typeof submitters.$inferInsert;
export type SubmitterMember = typeof submitterMembers.$inferSelect;
export type NewSubmitterMember = typeof submitterMembers.$inferInsert;
export type SubmissionEvent = typeof submissionEvents.$inferSelect;
