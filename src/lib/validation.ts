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

/** "name must be at most 255 characters." — or the message alone, capitalised, for the root. */
export function issueSentence(issue: z.core.$ZodIssue): string {
  const label = fieldLabel(issue.path);
  const text = issue.message.replace(/\.$/, '');
  if (!label) return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
  return `${label} ${text}.`;
}

/**
 * Missing parameters and wrong types are 400, every other rule is 422 (spec › Errors table). The body
 * is a single string for one problem and an array for several.
 */
export function validationError(error: z.ZodError): ApiError {
  const sentences = [...new Set(error.issues.map(issueSentence))];
  const status = error.issues.some((issue) => issue.code === 'invalid_type') ? 400 : 422;
  return new ApiError(status, sentences.length === 1 ? sentences[0] : sentences);
}
