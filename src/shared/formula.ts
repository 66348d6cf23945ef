// Formula fields (spec › Template field › formula): numbers, {Field Name} references, + - * / and
// parentheses, nothing else. `checkFormula` validates a template's formula; `evaluateFormula` computes it
// at signing time. The module imports nothing, so the signing page's browser script bundles it unchanged
// and the page and the server compute the same numbers (never with eval).

export type FormulaCheck = { ok: true; references: string[] } | { ok: false; problem: string };

type Token = { kind: 'number' | 'ref' | 'op' | 'open' | 'close'; text: string };

function tokenize(formula: string): Token[] | string {
  const tokens: Token[] = [];
  let i = 0;
  while (i < formula.length) {
    const ch = formula[i];
    if (/\s/.test(ch)) {
      i += 1;
    } else if (/[0-9.]/.test(ch)) {
      const match = /^(?:\d+(?:\.\d*)?|\.\d+)/.exec(formula.slice(i));
      if (!match) return `has a malformed number at position ${i + 1}`;
      tokens.push({ kind: 'number', text: match[0] });
      i += match[0].length;
    } else if (ch === '{') {
      const end = formula.indexOf('}', i + 1);
      if (end === -1) return `has an unclosed "{" at position ${i + 1}`;
      const name = formula.slice(i + 1, end).trim();
      if (!name) return `has an empty field reference "{}" at position ${i + 1}`;
      tokens.push({ kind: 'ref', text: name });
      i = end + 1;
    } else if ('+-*/'.includes(ch)) {
      tokens.push({ kind: 'op', text: ch });
      i += 1;
    } else if (ch === '(' || ch === ')') {
      tokens.push({ kind: ch === '(' ? 'open' : 'close', text: ch });
      i += 1;
    } else {
      return `may only contain numbers, {Field Name} references, + - * / and parentheses; "${ch}" at position ${i + 1} is not allowed`;
    }
  }
  return tokens;
}

/**
 * Recursive descent over   expr := term (("+"|"-") term)*   term := factor (("*"|"/") factor)*
 * factor := ("+"|"-") factor | number | {ref} | "(" expr ")".
 */
export function checkFormula(formula: string): FormulaCheck {
  const tokens = tokenize(formula);
  if (typeof tokens === 'string') return { ok: false, problem: tokens };
  if (tokens.length === 0) return { ok: false, problem: 'is empty' };
  let pos = 0;
  let depth = 0;
  const references: string[] = [];
  const fail = (what: string): never => {
    throw new SyntaxError(what);
  };
  const factor = (): void => {
    const token = tokens[pos];
    if (!token) fail('ends where a number, field reference or "(" was expected');
    if (token.kind === 'op' && (token.text === '+' || token.text === '-')) {
      pos += 1;
      return factor();
    }
    if (token.kind === 'number') {
      pos += 1;
      return;
    }
    if (token.kind === 'ref') {
      references.push(token.text);
      pos += 1;
      return;
    }
    if (token.kind === 'open') {
      pos += 1;
      // Deep nesting is refused rather than risking the stack.
      if ((depth += 1) > 64) fail('nests parentheses more than 64 deep');
      expr();
      depth -= 1;
      if (tokens[pos]?.kind !== 'close') fail('has a "(" without a matching ")"');
      pos += 1;
      return;
    }
    fail(`has "${token.text}" where a number, field reference or "(" was expected`);
  };
  const term = (): void => {
    factor();
    while (tokens[pos]?.kind === 'op' && (tokens[pos].text === '*' || tokens[pos].text === '/')) {
      pos += 1;
      factor();
    }
  };
  const expr = (): void => {
    term();
    while (tokens[pos]?.kind === 'op' && (tokens[pos].text === '+' || tokens[pos].text === '-')) {
      pos += 1;
      term();
    }
  };
  try {
    expr();
    if (pos < tokens.length)
      fail(tokens[pos].kind === 'close' ? 'has a ")" without a matching "("' : `has "${tokens[pos].text}" where an operator was expected`);
  } catch (error) {
    if (error instanceof SyntaxError) return { ok: false, problem: error.message };
    throw error;
  }
  return { ok: true, references: [...new Set(references)] };
}

/** A referenced field's number, or null when it has none (blank or not a number). */
export type FormulaLookup = (name: string) => number | null;

/**
 * Computes `formula` with the same grammar `checkFormula` accepts. Returns null when the formula is
 * malformed, a referenced field has no number, or it divides by zero; otherwise the result rounded to
 * 10 decimal places (so 0.1 + 0.2 reads 0.3 on the page and in the sealed document).
 */
export function evaluateFormula(formula: string, lookup: FormulaLookup): number | null {
  const tokens = tokenize(formula);
  if (typeof tokens === 'string' || tokens.length === 0) return null;
  let pos = 0;
  let depth = 0;
  const stop = (): never => {
    throw new SyntaxError('unusable');
  };
  const factor = (): number => {
    const token = tokens[pos];
    if (!token) return stop();
    pos += 1;
    if (token.kind === 'op' && (token.text === '+' || token.text === '-')) return token.text === '-' ? -factor() : factor();
    if (token.kind === 'number') return Number(token.text);
    if (token.kind === 'ref') {
      const value = lookup(token.text);
      return value === null || !Number.isFinite(value) ? stop() : value;
    }
    if (token.kind === 'open') {
      if ((depth += 1) > 64) stop();
      const value = expr();
      depth -= 1;
      if (tokens[pos]?.kind !== 'close') stop();
      pos += 1;
      return value;
    }
    return stop();
  };
  const term = (): number => {
    let value = factor();
    while (tokens[pos]?.kind === 'op' && (tokens[pos].text === '*' || tokens[pos].text === '/')) {
      const op = tokens[pos].text;
      pos += 1;
      const right = factor();
      if (op === '/' && right === 0) stop();
      value = op === '*' ? value * right : value / right;
    }
    return value;
  };
  const expr = (): number => {
    let value = term();
    while (tokens[pos]?.kind === 'op' && (tokens[pos].text === '+' || tokens[pos].text === '-')) {
      const op = tokens[pos].text;
      pos += 1;
      const right = term();
      value = op === '+' ? value + right : value - right;
    }
    return value;
  };
  try {
    const value = expr();
    if (pos < tokens.length || !Number.isFinite(value)) return null;
    return Math.round(value * 1e10) / 1e10;
  } catch (error) {
    if (error instanceof SyntaxError) return null;
    throw error;
  }
}
