// The rows a new submission is stored as: each submitter with a freshly minted slug (the signing link
// they are sent, links.ts › newSlug) and the submission with its own slug and the base of its links.
import type { Account, BrandingValues, Submission, Submitter, SubmitterMember, Template, TemplateDocument } from '../../db/schema/index';
import { parseDateTime } from '../../lib/time';
import { newSlug } from './links';
import { effectiveReminderSchedule } from './reminder-schedule';
import type { CheckedSubmission, SubmissionInput } from './submission-input';
import { canonicalLanguageTag } from '../../shared/i18n/locales';

/** A submission ready to store: rows and what goes out with them. */
export type Planned = {
  /** `id` only when reserved ahead (a DOCX that prints `submission_id`); otherwise the insert assigns it. */
  submission: Omit<Submission, 'id' | 'createdAt' | 'updatedAt'> & { id?: number; createdAt: string; updatedAt: string };
  submitters: Omit<Submitter, 'id' | 'submissionId'>[];
  /** The people of any-one-of submitters (issue 33 › 2), each with their own slug; member 0 has the submitter's. */
  members: PlannedMember[];
  message?: SubmissionInput['message'];
  /** The branding of the brand its emails use now (the submission's `brand_id`, else the template's). */
  brand: BrandingValues | null;
};

/** A member row to insert, with the slug of the submitter it belongs to. */
export type PlannedMember = Omit<SubmitterMember, 'id' | 'submitterId' | 'submissionId'> & { submitterSlug: string };

/** Where the planned submission comes from: the request, who sent it and the template's current documents. */
export type PlanSource = {
  account: Pick<Account, 'id' | 'reminderSchedule'>;
  userId: number | null;
  template: Template;
  documents: TemplateDocument[];
  origin: Submission['source'];
  /** The origin signing links are stored with (the request's, or APP_URL). */
  linkBase: string;
};

/** The rows of one checked submission of a create request, all dated `at`. */
export function planSubmission(
  from: PlanSource,
  input: SubmissionInput,
  checked: CheckedSubmission,
  brand: BrandingValues | null,
  at: string,
): Planned {
  const { account, template } = from;
  const slugs = checked.submitters.map(() => newSlug(template.accountId));
  const members = checked.submitters.flatMap((r, i) =>
    (r.members ?? []).map(
      (m, position): PlannedMember => ({
        submitterSlug: slugs[i],
        accountId: account.id,
        position,
        slug: position === 0 ? slugs[i] : newSlug(template.accountId),
        email: m.email.trim().toLowerCase(),
        name: m.name?.trim() || null,
        phone: m.phone?.trim() || null,
        disclosureVersion: null,
        disclosureAcceptedAt: null,
        completedAt: null,
        createdAt: at,
      }),
    ),
  );
  return {
    message: checked.message,
    brand,
    members,
    submitters: checked.submitters.map((r, position) => ({
      accountId: account.id,
      uuid: crypto.randomUUID(),
      slug: slugs[position],
      roleUuid: r.roleUuid,
      role: r.role,
      position,
      order: r.order,
      // An any-of group shows its first person until one of them signs (decisions.md › Order groups and any-of signers).
      email: r.email ? r.email.toLowerCase() : null,
      name: r.input.name?.trim() || r.single?.name?.trim() || r.members?.[0].name?.trim() || null,
      nameFromSigner: false,
      phone: r.input.phone?.trim() || r.single?.phone?.trim() || r.members?.[0].phone?.trim() || null,
      externalId: r.input.external_id ?? null,
      language: canonicalLanguageTag(r.input.language),
      status: 'waiting' as const,
      values: r.values,
      prefilled: Object.keys(r.values),
      metadata: r.input.metadata ?? {},
      sendEmail: r.input.send_email ?? true,
      sendSms: r.input.send_sms ?? input.send_sms ?? false,
      sendWhatsapp: r.input.send_whatsapp ?? input.send_whatsapp ?? false,
      requirePhone2fa: r.input.require_phone_2fa ?? false,
      sentAt: null,
      openedAt: null,
      startedAt: null,
      completedAt: null,
      declinedAt: null,
      declineReason: null,
      expiredAt: null,
      remindedAt: null,
      scheduledReminders: 0,
      completedIp: null,
      completedUserAgent: null,
      verificationMethod: null,
      disclosureVersion: null,
      disclosureAcceptedAt: null,
      createdAt: at,
      updatedAt: at,
    })),
    submission: {
      accountId: account.id,
      templateId: template.id,
      slug: newSlug(account.id),
      status: input.draft ? 'draft' : 'pending',
      submittersOrder: input.submitters_order ?? 'sequential',
      sendEmail: input.send_email ?? true,
      autoSign: input.auto_sign ?? false,
      source: from.origin,
      linkBase: from.linkBase,
      templateVersion: template.version,
      documentIds: from.documents.map((d) => d.id),
      preferences: input.preferences ?? {},
      metadata: input.metadata ?? {},
      signatureLevel: checked.signatureLevel,
      createdById: from.userId,
      // An expire_at that is not a date-time is among the caller's problems, refused before anything is stored.
      expireAt: (input.expire_at && parseDateTime(input.expire_at)) || null,
      sentAt: input.draft ? null : at,
      completedAt: null,
      expiredAt: null,
      archivedAt: null,
      archivedFrom: null,
      sealedAt: null,
      sealSweeps: 0,
      sealSweptAt: null,
      sealFailedAt: null,
      sealFailure: null,
      reminderSchedule: effectiveReminderSchedule(
        input.preferences?.reminder_schedule,
        template.preferences.reminder_schedule,
        account.reminderSchedule,
      ),
      legalHoldAt: null,
      purgeAt: null,
      erasureStartedAt: null,
      erasedAt: null,
      createdAt: at,
      updatedAt: at,
    },
  };
}
