// The few PDF tokens the xref reader reads by hand (ISO 32000-1 § 7.2–7.3): integers and keywords in xref
// sections and object headers, and a skim over a dictionary that finds the spans of a few keys without
// building the rest — a page dictionary made by some writers carries hundreds of resource names.
// Full objects are parsed by pdf-lib; this only finds where to point it.

/** The bytes are not what this reader expects; the caller falls back to a full parse. */
export class UnexpectedSyntax extends Error {}

/** Character classes (§ 7.2.2): white space (table 1) and delimiters (table 2); the rest are regular. */
const WHITE_SPACE = 1;
const DELIMITER = 2;
const CLASS = new Uint8Array(256);
for (const byte of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) CLASS[byte] = WHITE_SPACE;
for (const char of '()<>[]{}/%') CLASS[char.charCodeAt(0)] = DELIMITER;

function isWhiteSpace(byte: number): boolean {
  return CLASS[byte] === WHITE_SPACE;
}

/** Neither white space nor a delimiter; `undefined` (past the end) is not regular either. */
function isRegular(byte: number | undefined): boolean {
  return byte !== undefined && CLASS[byte] === 0;
}

function isDigit(byte: number): boolean {
  return byte >= 0x30 && byte <= 0x39;
}

/** Where a value lies in the bytes: `data.subarray(start, end)` is what pdf-lib should parse. */
export type Span = { start: number; end: number };

export class Cursor {
  constructor(
    readonly data: Uint8Array,
    public at: number,
  ) {}

  /** Skips white space and comments (a comment runs from % to the end of the line, § 7.2.3). */
  skipWhiteSpace(): void {
    const { data } = this;
    while (this.at < data.length) {
      const byte = data[this.at];
      if (isWhiteSpace(byte)) this.at += 1;
      else if (byte === 0x25) {
        while (this.at < data.length && data[this.at] !== 0x0a && data[this.at] !== 0x0d) this.at += 1;
      } else break;
    }
  }

  peekDigit(): boolean {
    return isDigit(this.data[this.at]);
  }

  /** A non-negative integer of at most ten digits, after any white space. */
  integer(): number {
    this.skipWhiteSpace();
    const start = this.at;
    let value = 0;
    while (this.peekDigit()) {
      value = value * 10 + (this.data[this.at] - 0x30);
      this.at += 1;
    }
    if (this.at === start || this.at - start > 10) throw new UnexpectedSyntax();
    return value;
  }

  /** Consumes `word` if it comes next (after white space) and ends at a delimiter or white space. */
  keyword(word: string): boolean {
    this.skipWhiteSpace();
    for (let i = 0; i < word.length; i += 1) {
      if (this.data[this.at + i] !== word.charCodeAt(i)) return false;
    }
    if (isRegular(this.data[this.at + word.length])) return false;
    this.at += word.length;
    return true;
  }

  /** The next byte that is not white space. */
  byte(): number {
    this.skipWhiteSpace();
    const byte = this.data[this.at];
    this.at += 1;
    return byte;
  }

  private regularRun(): void {
    const start = this.at;
    while (isRegular(this.data[this.at])) this.at += 1;
    if (this.at === start) throw new UnexpectedSyntax();
  }

  /** A literal string: balanced parentheses, backslash escapes (§ 7.3.4.2). */
  private literalString(): void {
    let depth = 0;
    for (; this.at < this.data.length; this.at += 1) {
      const byte = this.data[this.at];
      if (byte === 0x5c) this.at += 1;
      else if (byte === 0x28) depth += 1;
      else if (byte === 0x29 && --depth === 0) {
        this.at += 1;
        return;
      }
    }
    throw new UnexpectedSyntax();
  }

  /** After a number: ` G R` makes it an indirect reference (§ 7.3.10). */
  private maybeReference(): void {
    const back = this.at;
    this.skipWhiteSpace();
    if (this.peekDigit()) {
      this.regularRun();
      if (this.keyword('R')) return;
    }
    this.at = back;
  }

  /** Whether a dictionary (`<<`) comes next, after any white space. */
  startsDict(): boolean {
    this.skipWhiteSpace();
    return this.data[this.at] === 0x3c && this.data[this.at + 1] === 0x3c;
  }

  /** Moves past one value of any type without building it. */
  skipValue(): void {
    this.skipWhiteSpace();
    const byte = this.data[this.at];
    if (byte === 0x3c && this.data[this.at + 1] === 0x3c) {
      this.skimDict();
    } else if (byte === 0x3c) {
      const end = this.data.indexOf(0x3e, this.at);
      if (end === -1) throw new UnexpectedSyntax();
      this.at = end + 1;
    } else if (byte === 0x5b) {
      this.at += 1;
      while (this.byte() !== 0x5d) {
        this.at -= 1;
        this.skipValue();
      }
    } else if (byte === 0x28) {
      this.literalString();
    } else if (byte === 0x2f) {
      this.at += 1;
      while (isRegular(this.data[this.at])) this.at += 1;
    } else if (isDigit(byte) || byte === 0x2b || byte === 0x2d || byte === 0x2e) {
      this.regularRun();
      if (isDigit(byte)) this.maybeReference();
    } else {
      // true, false, null; anything else (a stray delimiter, the end of the data) is not a value.
      this.regularRun();
    }
  }

  /**
   * Skims the dictionary starting here and returns the spans of the values of `wanted` keys (named with
   * their slash, as written: '/MediaBox'); a key written twice keeps its last value, as pdf-lib's parser
   * does. The cursor ends after the closing `>>`.
   */
  skimDict(wanted?: ReadonlySet<string>): Map<string, Span> {
    const found = new Map<string, Span>();
    // A key is read as text only when its length is one asked for.
    const lengths = wanted && keyLengths(wanted);
    this.walkDict((keyStart, keyEnd, value) => {
      if (!wanted || !lengths?.has(keyEnd - keyStart)) return;
      const key = shortLatin1(this.data, keyStart, keyEnd);
      if (wanted.has(key)) found.set(key, value);
    });
    return found;
  }

  /** The spans of the values of the dictionary starting here, in order, their keys not read. */
  dictValues(): Span[] {
    const values: Span[] = [];
    this.walkDict((_keyStart, _keyEnd, value) => void values.push(value));
    return values;
  }

  /** Calls `visit` with each entry's key bytes and value span; the cursor ends after the closing `>>`. */
  private walkDict(visit: (keyStart: number, keyEnd: number, value: Span) => void): void {
    this.skipWhiteSpace();
    if (this.data[this.at] !== 0x3c || this.data[this.at + 1] !== 0x3c) throw new UnexpectedSyntax();
    this.at += 2;
    for (;;) {
      this.skipWhiteSpace();
      if (this.data[this.at] === 0x3e && this.data[this.at + 1] === 0x3e) {
        this.at += 2;
        return;
      }
      if (this.data[this.at] !== 0x2f) throw new UnexpectedSyntax();
      const keyStart = this.at;
      this.at += 1;
      while (isRegular(this.data[this.at])) this.at += 1;
      const keyEnd = this.at;
      this.skipWhiteSpace();
      const start = this.at;
      this.skipValue();
      visit(keyStart, keyEnd, { start, end: this.at });
    }
  }
}

const lengthsOfKeys = new WeakMap<ReadonlySet<string>, ReadonlySet<number>>();

/** The byte lengths of a set of keys (ASCII names, so characters are bytes). */
function keyLengths(keys: ReadonlySet<string>): ReadonlySet<number> {
  let lengths = lengthsOfKeys.get(keys);
  if (!lengths) {
    lengths = new Set([...keys].map((key) => key.length));
    lengthsOfKeys.set(keys, lengths);
  }
  return lengths;
}

/** Byte-per-character text, enough for PDF's ASCII syntax (windows-1252 differs only above 0x7f). */
const LATIN1 = new TextDecoder('latin1');

export function latin1(bytes: Uint8Array): string {
  return LATIN1.decode(bytes);
}

/**
 * `latin1(data.subarray(start, end))` for the few bytes of a key or a reference: a TextDecoder call per
 * dictionary key cost more than skimming the dictionary.
 */
export function shortLatin1(data: Uint8Array, start: number, end: number): string {
  if (end - start > 64) return latin1(data.subarray(start, end));
  let text = '';
  for (let i = start; i < end; i += 1) text += String.fromCharCode(data[i]);
  return text;
}

/**
 * The offset the file's last `startxref` names (§ 7.5.5): the one right before a final `%%EOF`, else
 * the last one in the tail; `undefined` when there is none.
 */
export function lastStartxref(bytes: Uint8Array): number | undefined {
  const tail = latin1(bytes.subarray(Math.max(0, bytes.length - 2048)));
  const match = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail) ?? /startxref\s+(\d+)(?![\s\S]*startxref)/.exec(tail);
  return match ? Number(match[1]) : undefined;
}
