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

// The characters the scan stops at; everything else (long base64 strings included) is skipped by the regex engine.
const STRUCTURAL = /["\\[\]{}]/g;
const HEX4 = /^[0-9a-fA-F]{4}$/;

function escapedCodeUnit(text: string, at: number): number | null {
  // `at` is the index of the `u` in `\uXXXX`.
  const hex = text.slice(at + 1, at + 5);
  return HEX4.test(hex) ? parseInt(hex, 16) : null;
}

/**
 * Refuses JSON text nested deeper than `MAX_JSON_DEPTH`, or whose strings escape a lone UTF-16
 * surrogate (`"\ud800"`), which no UTF-8 text can carry. One linear pass; syntax errors are left
 * to JSON.parse.
 */
export function checkJsonText(text: string, what = 'The request body'): void {
  let depth = 0;
  let inString = false;
  STRUCTURAL.lastIndex = 0;
  for (let match = STRUCTURAL.exec(text); match; match = STRUCTURAL.exec(text)) {
    const at = match.index;
    const char = match[0];
    if (inString) {
      if (char === '"') inString = false;
      else if (char === '\\') {
        STRUCTURAL.lastIndex = at + 2;
        if (text[at + 1] !== 'u') continue;
        const unit = escapedCodeUnit(text, at + 1);
        if (unit === null || unit < 0xd800 || unit > 0xdfff) continue;
        const low = unit <= 0xdbff && text.startsWith('\\u', at + 6) ? escapedCodeUnit(text, at + 7) : null;
        if (low === null || low < 0xdc00 || low > 0xdfff) {
          throw new ApiError(400, `${what} has a string with an unpaired surrogate (\\u${text.slice(at + 2, at + 6)}), which is not valid Unicode.`);
        }
        STRUCTURAL.lastIndex = at + 12;
      }
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') {
      depth += 1;
      if (depth > MAX_JSON_DEPTH) {
        throw new ApiError(400, `${what} nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep; send a flatter structure.`);
      }
    } else if (char === '}' || char === ']') depth -= 1;
  }
}

/** JSON.parse after `checkJsonText`; text that is not JSON is a 400 naming `what`. */
export function parseJsonText(text: string, what = 'The request body'): unknown {
  checkJsonText(text, what);
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, `${what} is not valid JSON.`);
  }
}
