// The formula grammar: arithmetic over {Field Name} references and nothing else.
import { describe, expect, it } from 'vitest';
import { checkFormula, evaluateFormula } from '../../src/shared/formula';

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

describe('evaluateFormula', () => {
  const values: Record<string, number | null> = { price: 2.5, qty: 4, blank: null, zero: 0 };
  const lookup = (name: string) => values[name.toLowerCase()] ?? null;

  it('computes arithmetic over field references with the usual precedence', () => {
    expect(evaluateFormula('{Price} * {Qty} + 1', lookup)).toBe(11);
    expect(evaluateFormula('{Price} * ({Qty} + 1)', lookup)).toBe(12.5);
  });

  it('applies unary minus and rounds away floating-point noise', () => {
    expect(evaluateFormula('-(0.1 + 0.2)', lookup)).toBe(-0.3);
  });

  it('gives null when a referenced field has no number', () => {
    expect(evaluateFormula('{Price} + {Blank}', lookup)).toBeNull();
    expect(evaluateFormula('{Missing} * 2', lookup)).toBeNull();
  });

  it('gives null on division by zero', () => {
    expect(evaluateFormula('{Qty} / {Zero}', lookup)).toBeNull();
  });

  it('gives null for input the grammar refuses instead of running it', () => {
    expect(evaluateFormula('alert(1)', lookup)).toBeNull();
    expect(evaluateFormula('1 +', lookup)).toBeNull();
    expect(evaluateFormula('(1 + 2', lookup)).toBeNull();
  });
});
