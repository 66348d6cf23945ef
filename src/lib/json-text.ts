// Reads JSON the API is sent: UTF-8 only (RFC 8259 §8.1), well-formed Unicode, bounded nesting.
import { ApiError } from './errors';

/**
 * How deeply objects and arrays may nest in a JSON body (`{}` at the top is level 1). Real bodies
 * need fewer than ten levels; the bound keeps deep values out of code that recurses over them and
 * far below SQLite's JSON depth limit of 1000, past which json_extract() fails at commit time.
 */
export const MAX_JSON_DEPTH = 64;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** The body's bytes as text; bytes that are not UTF-8 are refused, never replaced by U+FFFD. */
export function decodeUtf8(bytes: Uint8Array | ArrayBuffer, what = 'The request body'): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new ApiError(400, `${what} is not valid UTF-8; send JSON encoded as UTF-8.`);
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

// String.prototype.isWellFormed (ES2024) is native and O(1) on one-byte strings such as base64 files;
// the regex is the fallback where the runtime lacks it.
function wellFormed(text: string): boolean {
  const native = (text as { isWellFormed?: () => boolean }).isWellFormed;
  return native ? native.call(text) : !LONE_SURROGATE.test(text);
}

/**
 * Refuses a parsed JSON value nested deeper than `MAX_JSON_DEPTH`, or holding a string (value or
 * key) with a lone UTF-16 surrogate (`"\ud800"` escaped in the text), which no UTF-8 text can carry.
 * Iterative, and it stops at the first problem, so a hostile depth never reaches the call stack.
 */
export function checkJsonValue(value: unknown, what = 'The request body'): void {
  const containers: object[] = [];
  const depths: number[] = [];
  const visit = (item: unknown, depth: number) => {
    if (typeof item === 'string') {
      if (!wellFormed(item))
        throw new ApiError(
          400,
          `${what} has a string with an unpaired UTF-16 surrogate (a \\uD800–\\uDFFF escape), which is not valid Unicode.`,
        );
    } else if (item !== null && typeof item === 'object') {
      if (depth > MAX_JSON_DEPTH)
        throw new ApiError(400, `${what} nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep; send a flatter structure.`);
      containers.push(item);
      depths.push(depth);
    }
  };
  visit(value, 1);
  while (containers.length) {
    const node = containers.pop()!;
    const inner = depths.pop()! + 1;
    if (Array.isArray(node)) {
      for (const item of node) visit(item, inner);
      continue;
    }
    for (const key of Object.keys(node)) {
      visit(key, inner);
      visit((node as Record<string, unknown>)[key], inner);
    }
  }
}

/** JSON.parse, then `checkJsonValue`; text that is not JSON is a 400 naming `what`. */
export function parseJsonText(text: string, what = 'The request body'): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError(400, `${what} is not valid JSON.`);
  }
  checkJsonValue(value, what);
  return value;
}
