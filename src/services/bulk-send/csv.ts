// Reads a bulk send's CSV (RFC 4180, as spreadsheets export it): a UTF-8 byte-order mark, CRLF, LF or CR
// line ends, quoted cells with "" inside and line breaks. Cells are text and stay text: nothing in a
// cell is evaluated, so a spreadsheet formula (`=HYPERLINK(…)`) is stored as the characters it is.
import { unprocessable } from '../../lib/errors';

/** At most this many characters in one cell (a long text field's value fits; a runaway quote does not). */
export const MAX_CELL_CHARS = 10_000;

export type CsvTable = { header: string[]; rows: { row: number; cells: string[] }[] };

/**
 * The header and the data rows, numbered from 1 (the first row after the header), blank lines skipped.
 * A malformed file is one 422 sentence naming where it went wrong; `maxRows` stops reading early.
 */
export function parseCsv(text: string, maxRows: number): CsvTable {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines: string[][] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let i = 0;
  // Lines so far include the header, so the line being read is data row `lines.length`.
  const where = () => (lines.length === 0 ? 'The header' : `Row ${lines.length}`);
  const endCell = () => {
    if (cell.length > MAX_CELL_CHARS)
      throw unprocessable(
        `${where()}: a cell has ${cell.length.toLocaleString('en-US')} characters; a cell may hold at most ${MAX_CELL_CHARS.toLocaleString('en-US')}.`,
      );
    cells.push(cell);
    cell = '';
  };
  const endLine = () => {
    endCell();
    if (cells.length > 1 || cells[0] !== '') lines.push(cells);
    cells = [];
    // The header is not a row: one more line than the rows allowed is enough to refuse the file.
    if (lines.length > maxRows + 1)
      throw unprocessable(`The file has more than ${maxRows.toLocaleString('en-US')} rows; split it into several bulk sends.`);
  };
  while (i < source.length) {
    const ch = source[i];
    if (quoted) {
      if (ch === '"') {
        if (source[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else {
        cell += ch;
        if (cell.length > MAX_CELL_CHARS) endCell();
      }
      i += 1;
      continue;
    }
    if (ch === '"' && cell === '') quoted = true;
    else if (ch === ',') endCell();
    else if (ch === '\r' || ch === '\n') {
      endLine();
      if (ch === '\r' && source[i + 1] === '\n') i += 1;
    } else cell += ch;
    i += 1;
  }
  if (quoted) throw unprocessable(`${where()}: a quoted cell is never closed; end it with a double quote (").`);
  if (cell !== '' || cells.length) endLine();
  if (lines.length === 0) throw unprocessable('The file is empty; its first line names the columns, the next ones are the rows.');
  const [header, ...rest] = lines;
  return { header: header.map((h) => h.trim()), rows: rest.map((cells, index) => ({ row: index + 1, cells })) };
}
