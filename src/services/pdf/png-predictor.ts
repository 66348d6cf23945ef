// The PNG predictors (ISO 32000-1 § 7.4.4.4, RFC 2083 § 6) that xref streams are usually written with,
// undone for one byte per pixel (/Colors 1, /BitsPerComponent 8), the form xref streams are written in.
import { UnexpectedSyntax } from './pdf-syntax';

/** Rows of `columns` bytes, each preceded by its filter type: None, Sub, Up, Average or Paeth. */
export function undoPngPredictor(data: Uint8Array, columns: number): Uint8Array {
  const rows = Math.floor(data.length / (columns + 1));
  const out = new Uint8Array(rows * columns);
  for (let row = 0; row < rows; row += 1) {
    const filter = data[row * (columns + 1)];
    const input = row * (columns + 1) + 1;
    const line = row * columns;
    for (let i = 0; i < columns; i += 1) {
      const left = i > 0 ? out[line + i - 1] : 0;
      const up = row > 0 ? out[line - columns + i] : 0;
      const upLeft = i > 0 && row > 0 ? out[line - columns + i - 1] : 0;
      let predicted: number;
      if (filter === 0) predicted = 0;
      else if (filter === 1) predicted = left;
      else if (filter === 2) predicted = up;
      else if (filter === 3) predicted = (left + up) >> 1;
      else if (filter === 4) {
        const p = left + up - upLeft;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        predicted = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      } else throw new UnexpectedSyntax();
      out[line + i] = (data[input + i] + predicted) & 0xff;
    }
  }
  return out;
}
