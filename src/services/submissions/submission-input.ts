// Checking a create request's submissions against the template (spec › Creating a submission): roles,
// contacts, values, signature level, expiry and preferences, every problem gathered before anything is stored.
import { reminderScheduleProblem } from './reminder-schedule';
import type { BrandingValues, SubmissionPreferences, Submitter, Template, TemplateField } from '../../db/schema/index';
import { parseDateTime } from '../../lib/time';
import { effectiveSignatureLevel, levelAboveAccountProblem, type SignatureLevel } from '../signature-levels/levels';
import { checkFieldValue, EMAIL, isBlank, PHONE } from '../../shared/field-values';
import { canonicalLanguageTag } from '../../shared/i18n/locales';

export type SubmitterInput = {
  role?: string;
  uuid?: string;
  email?: string | null;
  name?: string | null;
  phone?: string | null;
  external_id?: string | null;
  /** BCP 47; the signer's pages and messages are in it (issue 31 › 2). */
  language?: string | null;
  values?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  send_email?: boolean;
  send_sms?: boolean;
  send_whatsapp?: boolean;
  require_phone_2fa?: boolean;
  /** The signing group (issue 33 › 1): the same number signs in parallel, groups in ascending order. */
  order?: number | null;
  /** Any one of these people signs (issue 33 › 2); `email` may also list them comma-separated. */
  emails?: (string | AnyOfPerson)[] | null;
};

/** One of the people an any-one-of submitter names. */
export type AnyOfPerson = { email: string; name?: string | null; phone?: string | null };

export type SubmissionInput = {
  submitters: SubmitterInput[];
  submitters_order?: 'sequential' | 'parallel';
  send_email?: boolean;
  send_sms?: boolean;
  send_whatsapp?: boolean;
  expire_at?: string | null;
  auto_sign?: boolean;
  draft?: boolean;
  metadata?: Record<string, unknown>;
  /** A DOCX template's variables (decisions.md › Documents in). */
  values?: Record<string, unknown>;
  preferences?: SubmissionPreferences;
  message?: { subject?: string; body?: string };
};

/** Why a `language` is refused (not a BCP 47 tag), or null when it is absent or well formed. */
export function languageProblem(language: string | null | undefined): string | null {
  if (language === undefined || language === null || canonicalLanguageTag(language)) return null;
  return `language "${language.slice(0, 40)}" is not a BCP 47 language tag such as de, pt-BR or zh-Hans.`;
}

/** At most this many submitters per submission and submissions per request (docs/decisions.md › Submissions). */
export const MAX_SUBMITTERS = 50;
export const MAX_BULK = 100;
/** At most this many people in one any-one-of submitter (issue 33 › 2). */
export const MAX_ANY_OF = 10;
/** The highest signing group a submitter may name. */
const MAX_ORDER = 1_000_000;

function sameName(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** How a submitter is named in problems: `submissions[2].submitters[0]` by default; a bulk send names its row and role. */
export type SubmitterLabel = (index: number, where: string, submitter: SubmitterInput) => string;

const listedSubmitter: SubmitterLabel = (index, where) => `${where}submitters[${index}]`;

function checkSubmitters(template: Template, input: SubmissionInput, where: string, problems: string[], labelOf: SubmitterLabel) {
  const roles = template.submitters;
  const used = new Set<string>();
  const resolved: {
    roleUuid: string;
    role: string;
    input: SubmitterInput;
    label: string;
    /** The submitter's email as stored: its only person's, or an any-of group's first until someone signs. */
    email: string;
    /** Several people, any one of whom signs (issue 33 › 2); null for one. */
    members: AnyOfPerson[] | null;
    order: number | null;
    /** The one person an `emails` list of one names (their name and phone apply). */
    single: AnyOfPerson | null;
  }[] = [];
  if (!Array.isArray(input.submitters) || input.submitters.length === 0) {
    problems.push(`${where}submitters must list at least one submitter.`);
    return resolved;
  }
  if (input.submitters.length > MAX_SUBMITTERS) problems.push(`${where}submitters may list at most ${MAX_SUBMITTERS} submitters.`);
  input.submitters.forEach((s, i) => {
    const label = labelOf(i, where, s);
    const role = matchRole(roles, s, i, used);
    if (!role) {
      if (s.role || s.uuid) {
        problems.push(
          `${label}: role "${s.role ?? s.uuid}" must match a template submitter (${roles.map((r) => `"${r.name}"`).join(', ')}).`,
        );
      } else {
        problems.push(
          `${label}: the template has ${roles.length} ${roles.length === 1 ? 'role' : 'roles'} and all are taken; name a role.`,
        );
      }
      return;
    }
    if (used.has(role.uuid)) {
      problems.push(`${label}: role "${role.name}" is already taken by another submitter; each role is signed by one submitter.`);
      return;
    }
    used.add(role.uuid);
    const people = peopleOf(s, label, problems);
    const members = people.length > 1 ? people : null;
    const email = members ? members[0].email : (people[0]?.email ?? '');
    if (!members) {
      if (!email) problems.push(`${label}: email can't be blank.`);
      else if (!EMAIL.test(email) || email.length > 254) problems.push(`${label}: email "${email}" is not a valid email address.`);
    }
    if (s.name && s.name.length > 255) problems.push(`${label}: name is too long (maximum is 255 characters).`);
    if (s.phone && !PHONE.test(s.phone.trim()))
      problems.push(`${label}: phone "${s.phone}" is not a phone number; use international format such as +14155550123.`);
    const phoneNeeds = phoneProblems(template, {
      phone: s.phone ?? people.find((p) => p.phone)?.phone ?? null,
      sendSms: s.send_sms ?? input.send_sms ?? false,
      sendWhatsapp: s.send_whatsapp ?? input.send_whatsapp ?? false,
      requirePhone2fa: s.require_phone_2fa ?? false,
    });
    problems.push(...phoneNeeds.map((p) => `${label}: ${p}`));
    if (s.external_id && s.external_id.length > 255) problems.push(`${label}: external_id is too long (maximum is 255 characters).`);
    const order = s.order ?? null;
    if (order !== null && (!Number.isSafeInteger(order) || order < 0 || order > MAX_ORDER))
      problems.push(`${label}: order must be a whole number from 0 to ${MAX_ORDER.toLocaleString('en-US')}.`);
    const language = languageProblem(s.language);
    if (language) problems.push(`${label}: ${language}`);
    const single = people.length === 1 ? people[0] : null;
    resolved.push({ roleUuid: role.uuid, role: role.name, input: s, label, email, members, order, single });
  });
  // Groups and submitters_order do not mix within a submission: either every submitter names its group or none.
  const grouped = resolved.filter((r) => r.order !== null);
  if (grouped.length > 0 && grouped.length < resolved.length) {
    const missing = resolved.find((r) => r.order === null)!;
    problems.push(`${missing.label}: order is missing; give every submitter an order, or none to follow submitters_order.`);
  }
  // Roles nobody was named for are simply not part of this submission (DocuSeal's rule): their fields
  // are neither required nor stamped.
  return resolved;
}

/**
 * What a submitter's phone settings lack: texting them (send_sms, send_whatsapp) and a phone code (the
 * submitter's or the template's require_phone_2fa) all need a phone number.
 */
export function phoneProblems(
  template: Pick<Template, 'preferences'>,
  s: Pick<Submitter, 'phone' | 'sendSms' | 'sendWhatsapp' | 'requirePhone2fa'>,
): string[] {
  if (s.phone) return [];
  const problems: string[] = [];
  if (s.sendSms) problems.push('send_sms needs a phone number.');
  if (s.sendWhatsapp) problems.push('send_whatsapp needs a phone number.');
  if (s.requirePhone2fa || template.preferences.require_phone_2fa === true)
    problems.push('the signer must confirm a code sent to their phone before the form opens (require_phone_2fa); add phone.');
  return problems;
}

/**
 * The people a submitter names (issue 33 › 2): `emails` as strings or {email, name, phone}, else `email`
 * split at commas (as DocuSeal integrators send several); each checked, problems pushed.
 */
function peopleOf(s: SubmitterInput, label: string, problems: string[]): AnyOfPerson[] {
  const email = typeof s.email === 'string' ? s.email.trim() : '';
  if (s.emails !== undefined && s.emails !== null) {
    if (email) problems.push(`${label}: give either email or emails, not both.`);
    if (!Array.isArray(s.emails) || s.emails.length === 0) {
      problems.push(`${label}: emails must list at least one person.`);
      return [];
    }
  }
  const listed = s.emails ?? (email.includes(',') ? email.split(',').filter((e) => e.trim()) : [email]);
  const people = listed.map((p) => (typeof p === 'string' ? { email: p } : p)).map((p) => ({ ...p, email: String(p.email ?? '').trim() }));
  if (people.length <= 1) return people.filter((p) => p.email);
  if (people.length > MAX_ANY_OF) problems.push(`${label}: emails may name at most ${MAX_ANY_OF} people.`);
  const seen = new Set<string>();
  people.forEach((p, i) => {
    const where = `${label}.emails[${i}]`;
    if (!p.email) problems.push(`${where}: email can't be blank.`);
    else if (!EMAIL.test(p.email) || p.email.length > 254) problems.push(`${where}: email "${p.email}" is not a valid email address.`);
    else if (seen.has(p.email.toLowerCase())) problems.push(`${where}: "${p.email}" is named twice; name each person once.`);
    seen.add(p.email.toLowerCase());
    if (p.name && p.name.length > 255) problems.push(`${where}: name is too long (maximum is 255 characters).`);
    if (p.phone && !PHONE.test(p.phone.trim()))
      problems.push(`${where}: phone "${p.phone}" is not a phone number; use international format such as +14155550123.`);
  });
  return people;
}

/**
 * The template role a listed submitter signs, as DocuSeal matches them (issue 21 › 12): by `role` name,
 * else by `uuid`, else by position — the role at the same index, or the first one still free when that
 * one is taken. Undefined when a named role or uuid matches nothing.
 */
function matchRole(
  roles: Template['submitters'],
  s: SubmitterInput,
  index: number,
  used: ReadonlySet<string>,
): Template['submitters'][number] | undefined {
  const byRole = s.role ? roles.find((r) => sameName(r.name, s.role!)) : undefined;
  if (byRole) return byRole;
  const byUuid = s.uuid ? roles.find((r) => r.uuid === s.uuid!.toLowerCase()) : undefined;
  if (byUuid) return byUuid;
  if (s.role || s.uuid) return undefined;
  const atIndex = roles[index];
  return atIndex && !used.has(atIndex.uuid) ? atIndex : roles.find((r) => !used.has(r.uuid));
}

/**
 * Values by field name (or uuid) → values by field uuid, each checked against its field. A `file` value
 * names a signer's upload, so only an existing submitter can have one (`uploads: true`; the caller then
 * checks the uploads exist, src/services/signing/attachments.ts); a submission being created or a
 * draft cannot.
 */
export function checkValues(
  fields: TemplateField[],
  roleName: string,
  values: Record<string, unknown> | undefined,
  label: string,
  problems: string[],
  options: { uploads?: boolean; variables?: ReadonlySet<string> } = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values ?? {})) {
    const field =
      fields.find((f) => f.uuid === key.toLowerCase()) ?? fields.find((f) => f.name === key) ?? fields.find((f) => sameName(f.name, key));
    // A variable of the template's DOCX documents fills them (decisions.md › Documents in: submitter
    // values first); it is no field value, so nothing is stored for it.
    if (!field && options.variables?.has(key)) continue;
    if (!field) {
      problems.push(`${label}: values names "${key}", which is not a field of the role "${roleName}".`);
      continue;
    }
    if (field.type === 'file' && !options.uploads && !isBlank(value)) {
      problems.push(`${label}: Field "${field.name}" takes a file the signer uploads on the signing page; it cannot be prefilled.`);
      continue;
    }
    // Its value is the reference of what the signer paid (src/services/signing/field-payments.ts).
    if (field.type === 'payment' && !isBlank(value)) {
      problems.push(`${label}: Field "${field.name}" is paid by the signer on the signing page; it cannot be prefilled.`);
      continue;
    }
    const checked = checkFieldValue({ ...field, required: false }, value);
    if (!checked.ok) problems.push(`${label}: ${checked.problem}`);
    else if (checked.value !== null) out[field.uuid] = checked.value;
  }
  return out;
}

/** A create request's submission checked against the template: its submitters by role with their values. */
export type CheckedSubmission = ReturnType<typeof checkSubmission>;

/**
 * Every problem of one submission of a create request, pushed to `problems` with `where` in front (the
 * caller refuses them all at once); what it resolved to otherwise.
 */
export function checkSubmission(
  template: Template,
  input: SubmissionInput,
  where: string,
  problems: string[],
  at: string,
  brands: ReadonlyMap<number, BrandingValues>,
  accountLevel: SignatureLevel,
  variables: ReadonlySet<string>,
  labelOf: SubmitterLabel = listedSubmitter,
) {
  const resolved = checkSubmitters(template, input, where, problems, labelOf);
  // The level is fixed now (decisions.md › Signature levels): never above the account's, whichever
  // preference chose it; a template asking for more than an account later lowered to is refused here.
  const signatureLevel = effectiveSignatureLevel(input.preferences?.signature_level, template.preferences.signature_level, accountLevel);
  const levelProblem = input.preferences?.signature_level
    ? levelAboveAccountProblem(`${where}preferences.`, signatureLevel, accountLevel)
    : levelAboveAccountProblem(`Template ${template.publicId} preferences.`, signatureLevel, accountLevel);
  if (levelProblem) problems.push(levelProblem);
  // A qes signature is bound to one person's identity at the provider, so a group cannot share it.
  const anyOf = resolved.find((r) => r.members);
  if (anyOf && signatureLevel === 'qes')
    problems.push(`${anyOf.label}: several people for one submitter cannot sign at signature level qes; name one person.`);
  if (input.expire_at) {
    const when = parseDateTime(input.expire_at);
    if (when === null) problems.push(`${where}expire_at "${input.expire_at}" is not a date-time such as 2026-01-31T12:00:00Z.`);
    else if (when <= at) problems.push(`${where}expire_at must be in the future.`);
  }
  // Unknown, deleted and other accounts' brands read alike: an id reveals nothing (spec › Create brand).
  if (input.preferences?.brand_id !== undefined && !brands.has(input.preferences.brand_id)) {
    problems.push(`${where}preferences.brand_id ${input.preferences.brand_id} is not a brand of this account.`);
  }
  for (const key of ['reminder_subject', 'reminder_body'] as const) {
    const value = input.preferences?.[key];
    if (value !== undefined && (typeof value !== 'string' || value.length > 10_000))
      problems.push(`${where}preferences.${key} must be text up to 10,000 characters.`);
  }
  const scheduleProblem = reminderScheduleProblem(input.preferences?.reminder_schedule, `${where}preferences.reminder_schedule`);
  if (scheduleProblem) problems.push(scheduleProblem);
  const language = languageProblem(input.preferences?.language);
  if (language) problems.push(`${where}preferences.${language}`);
  const url = input.preferences?.completed_redirect_url;
  if (url !== undefined && !/^https?:\/\/\S+$/i.test(url))
    problems.push(`${where}preferences.completed_redirect_url must be an http(s) URL.`);
  const submitters = resolved.map((r) => {
    const fields = template.fields.filter((f) => f.submitter_uuid === r.roleUuid);
    return { ...r, values: checkValues(fields, r.role, r.input.values, r.label, problems, { variables }) };
  });
  return { submitters, message: input.message, signatureLevel };
}

/** The brand ids a create request names: each submission's, and the template's own. */
export function brandIdsOf(template: Template, inputs: SubmissionInput[]): number[] {
  const ids = [template.preferences.brand_id, ...inputs.map((input) => input.preferences?.brand_id)];
  return ids.filter((id): id is number => typeof id === 'number' && Number.isSafeInteger(id));
}
