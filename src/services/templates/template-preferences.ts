// Template preferences (spec › Template preferences): branding keys, signing options, and the
// document-level rules whose references must point at this template's documents and fields.
import type { TemplateField } from '../../db/schema/index';
import { unprocessable } from '../../lib/errors';
import type { SignatureLevel } from '../signature-levels/levels';
import { isDarkColor } from '../branding/branding-rules';
import { CONDITION_OPERATORS } from '../../shared/template-schema';

export const SIGNING_NAV_STYLES = ['standard', 'branded_bar'] as const;

export type DocumentCondition = {
  action: 'show' | 'hide';
  match?: 'all' | 'any';
  conditions: { field_uuid: string; operator: (typeof CONDITION_OPERATORS)[number]; value?: string }[];
};

export type PreferencesInput = {
  display_title?: string | null;
  logo_url?: string | null;
  company_name?: string | null;
  favicon_url?: string | null;
  primary_button_color?: string | null;
  header_color?: string | null;
  show_branding?: boolean | null;
  brand_id?: number | null;
  custom_domain?: string | null;
  signing_nav_style?: (typeof SIGNING_NAV_STYLES)[number] | null;
  require_email_2fa?: boolean | null;
  require_phone_2fa?: boolean | null;
  optional_variables?: string[] | null;
  carousel_review_documents?: string[] | null;
  document_conditions?: Record<string, DocumentCondition> | null;
  signature_level?: SignatureLevel | null;
};

/**
 * Merges `changes` into `current`: a key set to null (or a branding string set to "") is removed.
 * Returns the merged preferences after checking references against the template.
 */
export function mergePreferences(
  current: Record<string, unknown>,
  changes: PreferencesInput | undefined,
  template: { documentUuids: string[]; fields: TemplateField[] },
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(changes ?? {})) {
    if (value === null || value === undefined || value === '') delete merged[key];
    else merged[key] = value;
  }
  const problems = preferenceProblems(merged, template);
  if (problems.length) throw unprocessable(problems.length === 1 ? problems[0] : problems);
  return merged;
}

export function preferenceProblems(
  preferences: Record<string, unknown>,
  template: { documentUuids: string[]; fields: TemplateField[] },
): string[] {
  const problems: string[] = [];
  const documents = new Set(template.documentUuids);
  const fields = new Set(template.fields.map((f) => f.uuid));
  const header = preferences.header_color;
  if (typeof header === 'string' && !isDarkColor(header)) {
    problems.push(
      `preferences.header_color ${header} is too light; choose a colour with luminance at most 50% so white header text stays readable.`,
    );
  }
  const carousel = preferences.carousel_review_documents;
  if (Array.isArray(carousel)) {
    for (const uuid of carousel as string[]) {
      if (!documents.has(uuid.toLowerCase()))
        problems.push(`preferences.carousel_review_documents: ${uuid} is not a document of this template.`);
    }
  }
  const conditions = preferences.document_conditions as Record<string, DocumentCondition> | undefined;
  for (const [documentUuid, rule] of Object.entries(conditions ?? {})) {
    if (!documents.has(documentUuid.toLowerCase())) {
      problems.push(`preferences.document_conditions: ${documentUuid} is not a document of this template.`);
    }
    rule.conditions.forEach((condition, i) => {
      if (!fields.has(condition.field_uuid.toLowerCase())) {
        problems.push(
          `preferences.document_conditions.${documentUuid}.conditions[${i}].field_uuid ${condition.field_uuid} is not a field of this template.`,
        );
      }
      const needsValue = ['equals', 'not_equals', 'contains'].includes(condition.operator);
      if (needsValue && condition.value === undefined) {
        problems.push(
          `preferences.document_conditions.${documentUuid}.conditions[${i}] needs a value for the ${condition.operator} operator.`,
        );
      }
    });
  }
  return problems;
}

/** After documents are removed, rules about them go too. */
export function withoutDocuments(preferences: Record<string, unknown>, removed: Set<string>): Record<string, unknown> {
  const out = { ...preferences };
  if (Array.isArray(out.carousel_review_documents)) {
    out.carousel_review_documents = (out.carousel_review_documents as string[]).filter((u) => !removed.has(u));
  }
  if (out.document_conditions && typeof out.document_conditions === 'object') {
    out.document_conditions = Object.fromEntries(
      Object.entries(out.document_conditions as Record<string, unknown>).filter(([uuid]) => !removed.has(uuid)),
    );
  }
  return out;
}
