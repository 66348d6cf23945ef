// Saved fields: a field's own settings, checked by the same rules as template fields.
import { unprocessable } from '../../lib/errors';
import { checkFormula } from '../../shared/formula';
import { checkFieldConfig, type FieldInput } from './template-fields';

export type SavedFieldInput = Omit<FieldInput, 'uuid' | 'role' | 'submitter_uuid' | 'areas'>;

/** Returns the configuration to store; a formula is checked for syntax only (its fields come with the template). */
export function checkSavedField(input: SavedFieldInput): Record<string, unknown> {
  const problems: string[] = [];
  const { pattern, validation, options } = checkFieldConfig('field', input, problems);
  if (input.formula !== undefined) {
    const check = checkFormula(input.formula);
    if (!check.ok) problems.push(`field: formula ${check.problem}.`);
  }
  if (problems.length) throw unprocessable(problems.length === 1 ? problems[0] : problems);
  const { validation: _raw, pattern: _pattern, options: _options, ...rest } = input;
  return {
    ...rest,
    ...(pattern !== undefined ? { pattern } : {}),
    ...(validation !== undefined ? { validation } : {}),
    ...(options !== undefined ? { options } : {}),
  };
}
