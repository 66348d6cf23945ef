// What the signing form shows and reviews, computed from a role's fields and values: document and field
// conditions, formula values and the confirmation carousel (spec › Template preferences; Template field).
// Imports only types and other import-free modules, so the browser script bundles it and the page and
// the server decide the same way.
import { evaluateFormula } from './formula';
import { isBlank } from './field-values';

/** The parts of a template field the rules read (a structural subset of TemplateField). */
export type RuleField = {
  uuid: string;
  name: string;
  type: string;
  formula?: string;
  areas: { attachment_uuid: string }[];
  preferences?: Record<string, unknown>;
};

export type Condition = { field_uuid: string; operator: string; value?: string };
/** The shape of `document_conditions` entries, also used by a field's `preferences.condition`. */
export type ConditionRule = { action: 'show' | 'hide'; match?: 'all' | 'any'; conditions: Condition[] };

function text(value: unknown): string {
  if (isBlank(value)) return '';
  return Array.isArray(value) ? value.map(String).join(', ') : String(value);
}

function conditionHolds(condition: Condition, values: Record<string, unknown>): boolean {
  const value = values[condition.field_uuid];
  const wanted = condition.value ?? '';
  switch (condition.operator) {
    case 'equals':
      return text(value) === wanted;
    case 'not_equals':
      return text(value) !== wanted;
    case 'contains':
      return text(value).toLowerCase().includes(wanted.toLowerCase());
    case 'empty':
      return isBlank(value) || value === false;
    case 'not_empty':
      return !isBlank(value) && value !== false;
    case 'checked':
      return value === true || value === 'true';
    case 'unchecked':
      return !(value === true || value === 'true');
    default:
      return false;
  }
}

/** Whether the thing a rule governs is shown: `show` when its conditions hold, `hide` when they do not. */
export function ruleShows(rule: ConditionRule | undefined | null, values: Record<string, unknown>): boolean {
  if (!rule || !Array.isArray(rule.conditions) || rule.conditions.length === 0) return true;
  const holds =
    rule.match === 'any' ? rule.conditions.some((c) => conditionHolds(c, values)) : rule.conditions.every((c) => conditionHolds(c, values));
  return rule.action === 'hide' ? !holds : holds;
}

/** Documents hidden by `document_conditions` for these values. */
export function hiddenDocuments(preferences: Record<string, unknown>, values: Record<string, unknown>): Set<string> {
  const rules = (preferences.document_conditions ?? {}) as Record<string, ConditionRule>;
  return new Set(
    Object.entries(rules)
      .filter(([, rule]) => !ruleShows(rule, values))
      .map(([uuid]) => uuid),
  );
}

/**
 * Fields hidden for these values: by their own `preferences.condition`, or because every document they
 * have areas on is hidden.
 */
export function hiddenFields(fields: RuleField[], preferences: Record<string, unknown>, values: Record<string, unknown>): Set<string> {
  const documents = hiddenDocuments(preferences, values);
  const hidden = new Set<string>();
  for (const field of fields) {
    const own = field.preferences?.condition as ConditionRule | undefined;
    const onHiddenDocument = field.areas.length > 0 && field.areas.every((a) => documents.has(a.attachment_uuid));
    if (!ruleShows(own, values) || onHiddenDocument) hidden.add(field.uuid);
  }
  return hidden;
}

/** Number of a value for a formula, or null (blank, not numeric). */
function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  if (value === true) return 1;
  return null;
}

/**
 * The values with every formula field computed from the others (referenced by name, ignoring case).
 * Formulas may reference formula fields; they are evaluated in passes until nothing changes (the
 * template validation refuses cycles).
 */
export function withFormulas(fields: RuleField[], values: Record<string, unknown>): Record<string, unknown> {
  const out = { ...values };
  const formulas = fields.filter((f) => typeof f.formula === 'string' && f.formula.trim());
  if (formulas.length === 0) return out;
  const byName = new Map(fields.map((f) => [f.name.trim().toLowerCase(), f.uuid]));
  const lookup = (name: string) => {
    const uuid = byName.get(name.trim().toLowerCase());
    return uuid === undefined ? null : numberOf(out[uuid]);
  };
  for (let pass = 0; pass <= formulas.length; pass += 1) {
    let changed = false;
    for (const field of formulas) {
      const value = evaluateFormula(field.formula!, lookup);
      if (out[field.uuid] !== value) {
        out[field.uuid] = value;
        changed = true;
      }
    }
    if (!changed) break;
  }
  return out;
}

/**
 * The fields the confirmation carousel reviews (spec › Template field › review_in_carousel): a field's
 * own `review_in_carousel` decides when set; otherwise a field is reviewed when one of its areas is on a
 * document listed in `carousel_review_documents`. Hidden fields and stamps never are.
 */
export function reviewedFields<F extends RuleField>(fields: F[], preferences: Record<string, unknown>, hidden: Set<string>): F[] {
  const documents = new Set(
    Array.isArray(preferences.carousel_review_documents) ? (preferences.carousel_review_documents as string[]) : [],
  );
  return fields.filter((field) => {
    if (hidden.has(field.uuid) || field.type === 'stamp') return false;
    const own = field.preferences?.review_in_carousel;
    if (own === true || own === false) return own;
    return field.areas.some((a) => documents.has(a.attachment_uuid));
  });
}
