// The formula grammar: arithmetic over {Field Name} references and nothing else.
import { describe, expect, it } from 'vitest';
import { checkFormula } from '../../src/services/templates/formula';

describe('checkFormula', () => {
  it('returns the referenced field names once each', () => {
    expect(checkFormula('{Price} * {Qty} + {Price}')).toEqual({ ok: true, references: ['Price', 'Qty'] });
  });

  it('accepts unary signs, decimals and nested parentheses', () => {
    expect(checkFormula('-(.5 + (2.25 * -{A})) / 3')).toMatchObject({ ok: true });
  });

  it('refuses two operators in a row', () => {
    expect(checkFormula('1 * / 2')).toEqual({ ok: false, problem: 'has "/" where a number, field reference or "(" was expected' });
  });

  it('refuses two values with no operator between them', () => {
    expect(checkFormula('{A} {B}')).toEqual({ ok: false, problem: 'has "B" where an operator was expected' });
  });

  it('refuses a closing parenthesis without an opening one', () => {
    expect(checkFormula('1 + 2)')).toEqual({ ok: false, problem: 'has a ")" without a matching "("' });
  });

  it('refuses an unclosed field reference', () => {
    expect(checkFormula('{Price * 2')).toEqual({ ok: false, problem: 'has an unclosed "{" at position 1' });
  });

  it('refuses function calls and identifiers', () => {
    expect(checkFormula('Math.max(1, 2)')).toMatchObject({ ok: false });
  });

  it('refuses an empty formula', () => {
    expect(checkFormula('   ')).toEqual({ ok: false, problem: 'is empty' });
  });

  it('refuses nesting deeper than 64 parentheses instead of exhausting the stack', () => {
    expect(checkFormula(`${'('.repeat(1000)}1${')'.repeat(1000)}`)).toEqual({ ok: false, problem: 'nests parentheses more than 64 deep' });
  });
});
