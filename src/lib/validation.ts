// Turns zod issues into sentences a person can act on, and decides 400 versus 422 (spec › Errors).
import { z } from '@hono/zod-openapi';
import { ApiError } from './errors';

type RawIssue = z.core.$ZodRawIssue;

const FORMAT_PHRASES: Record<string, string> = {
  email: 'must be a valid email address',
  url: 'must be a valid URL',
  datetime: 'must be an ISO 8601 date-time with a time zone, e.g. 2026-01-31T12:00:00Z',
  date: 'must be a date in the form YYYY-MM-DD',
  uuid: 'must be a UUID',
  regex: 'has an invalid format',
};

function plural(n: number | bigint, word: string): string {
  return `${n} ${word}${n === 1 || n === 1n ? '' : 's'}`;
}

function boundUnit(origin: string, n: number | bigint): string {
  if (origin === 'string') return plural(n, 'character');
  if (origin === 'array' || origin === 'set') return plural(n, 'item');
  if (origin === 'file') return plural(n, 'byte');
  return String(n);
}

/** A lower-case phrase completing "<field> …"; used by the global zod error map below. */
function phraseFor(issue: RawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      if (issue.input === null) return `must be ${article(issue.expected)}, not null`;
      return `must be ${article(issue.expected)}`;
    case 'too_big':
      return `must be at most ${boundUnit(issue.origin, issue.maximum)}`;
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return "can't be blank";
      if ((issue.origin === 'array' || issue.origin === 'set') && Number(issue.minimum) === 1) return 'must not be empty';
      return `must be at least ${boundUnit(issue.origin, issue.minimum)}`;
    case 'invalid_format':
      return FORMAT_PHRASES[issue.format] ?? `must be a valid ${issue.format}`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])}`
        : `must be one of: ${issue.values.map((v) => String(v)).join(', ')}`;
    case 'unrecognized_keys':
      return `has unknown ${issue.keys.length === 1 ? 'key' : 'keys'}: ${issue.keys.join(', ')}`;
    case 'invalid_union':
      return 'has an unsupported type or shape';
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    default:
      return undefined;
  }
}

function article(expected: string): string {
  const noun = expected === 'int' ? 'integer' : expected === 'record' ? 'object' : expected;
  return /^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`;
}

// Every schema in the app gets these phrases unless it states its own message.
z.config({ customError: (issue) => phraseFor(issue as RawIssue) });

function fieldLabel(path: readonly PropertyKey[]): string {
  let label = '';
  for (const part of path) {
    if (typeof part === 'number') label += `[${part}]`;
    else label += label ? `.${String(part)}` : String(part);
  }
  return label;
}

const MAX_NAME_IN_LABEL = 100;

/**
 * How far along `path` the last list element with a `name` sits in `input`, and that name: a field's
 * problem then names the field as template-fields' own sentences do (`fields[2] "Signature 1": …`).
 */
function namedElement(path: readonly PropertyKey[], input: unknown): { at: number; name: string } | undefined {
  let found: { at: number; name: string } | undefined;
  let node = input;
  for (const [i, part] of path.entries()) {
    if (!node || typeof node !== 'object') break;
    node = (node as Record<PropertyKey, unknown>)[part];
    const name = typeof part === 'number' && node && typeof node === 'object' ? (node as { name?: unknown }).name : undefined;
    if (typeof name === 'string' && name.trim() && name.length <= MAX_NAME_IN_LABEL) found = { at: i + 1, name: name.trim() };
  }
  return found;
}

/**
 * "name must be at most 255 characters." — or the message alone, capitalised, for the root. With the
 * request's input, an issue inside a named list element names it: `fields[0] "Sig": type …`.
 */
export function issueSentence(issue: z.core.$ZodIssue, input?: unknown): string {
  const text = issue.message.replace(/\.$/, '');
  const named = input === undefined ? undefined : namedElement(issue.path, input);
  if (named) {
    const element = `${fieldLabel(issue.path.slice(0, named.at))} ${JSON.stringify(named.name)}`;
    const rest = fieldLabel(issue.path.slice(named.at));
    return rest ? `${element}: ${rest} ${text}.` : `${element} ${text}.`;
  }
  const label = fieldLabel(issue.path);
  if (!label) return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
  return `${label} ${text}.`;
}

/**
 * Missing parameters and wrong types are 400, every other rule is 422 (spec › Errors table). The body
 * is a single string for one problem and an array for several. `input`, when given, lets sentences
 * name list elements by their `name`.
 */
export function validationError(error: z.ZodError, input?: unknown): ApiError {
  const sentences = [...new Set(error.issues.map((issue) => issueSentence(issue, input)))];
  const status = error.issues.some((issue) => issue.code === 'invalid_type') ? 400 : 422;
  return new ApiError(status, sentences.length === 1 ? sentences[0] : sentences);
}
