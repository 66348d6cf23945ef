// The one encoder for text written into a PDF object (a signer's /Name, /Reason, a field's /T):
// pdf-lib's PDFString.of writes its argument between parentheses as it is, so "Acme (EU" or
// "Mallory\" would end the string early or swallow its closing parenthesis (ISO 32000-1 § 7.3.4.2).
import { PDFHexString, PDFString } from 'pdf-lib';

/** Printable ASCII plus CR, LF and TAB: what a literal string carries as itself once \ ( ) are escaped. */
const LITERAL = /^[\x20-\x7e\t\r\n]*$/;

/**
 * `text` as a PDF text string (§ 7.9.2.2): printable ASCII as a literal with `\`, `(`, `)`, CR and LF
 * escaped (§ 7.3.4.2, Table 3); anything else as UTF-16BE with its byte order mark, written in hex, so
 * Cyrillic, Arabic, emoji and lone combining marks read back exactly and the file stays 7-bit.
 */
export function pdfString(text: string): PDFString | PDFHexString {
  if (!LITERAL.test(text)) return PDFHexString.fromText(text);
  return PDFString.of(text.replace(/[\\()\r\n]/g, (c) => ESCAPES[c]));
}

const ESCAPES: Record<string, string> = { '\\': '\\\\', '(': '\\(', ')': '\\)', '\r': '\\r', '\n': '\\n' };
