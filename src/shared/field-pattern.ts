// Custom field patterns (spec › Template field › pattern) run on RE2's linear-time engine (re2js), in
// the API and on the signing page alike. JavaScript's backtracking engine takes exponential time on
// patterns such as `([A-Za-z]+ ?)*` against a value that almost matches: 28 characters typed by a
// signer held a CPU for 0.9 s, and each more character doubles it. RE2 answers in time linear in the
// value, and refuses what only backtracking can do (lookarounds, backreferences).
import { RE2JS } from 're2js';

export type FieldPattern = { matches(text: string): boolean };

/** Compiled patterns by source; a template's few patterns are checked on every autosave. */
const compiled = new Map<string, FieldPattern | string>();
const CACHE_SIZE = 256;

function compile(pattern: string): FieldPattern | string {
  try {
    return RE2JS.compile(pattern);
  } catch (error) {
    // re2js's messages read "error parsing regexp: missing closing ): `(abc`".
    const detail = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : 'it cannot be parsed';
    return `pattern is not a valid regular expression: ${detail}. Patterns run on a linear-time engine, without lookarounds or backreferences.`;
  }
}

/**
 * The pattern, matched against a whole value (as `^(?:pattern)$` would be), or the sentence saying why
 * it cannot be used, starting with "pattern …".
 */
export function fieldPattern(pattern: string): FieldPattern | string {
  let entry = compiled.get(pattern);
  if (entry === undefined) {
    if (compiled.size >= CACHE_SIZE) compiled.clear();
    entry = compile(pattern);
    compiled.set(pattern, entry);
  }
  return entry;
}
