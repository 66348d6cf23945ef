// The one way PDFs are loaded: pdf-lib's full parse with a ceiling on the structure streams it decodes
// while loading. pdf-lib inflates every object stream and cross-reference stream it meets (ISO 32000-1
// § 7.5.7, § 7.5.8) with no limit, and makes an entry for every row an xref stream's /Index or /Size
// declares, whether or not the data holds it: a 400-byte upload declaring two billion rows took seconds
// of CPU and gigabytes of memory, and a 200 KB object stream of deflated zeros expands to 200 MB. Uploads,
// sealing, bundles and the verify tool all read files someone else wrote, so the ceiling is set here, on
// the parsers pdf-lib itself calls, rather than before each load.
import { PDFDocument, PDFName, PDFObjectStreamParser, PDFRawStream, PDFXRefStreamParser, type PDFContext } from 'pdf-lib';
import { decodeStreamWithin, STRUCTURE_STREAMS_BUDGET } from './bounded-decode';

export type LoadPdfOptions = Parameters<typeof PDFDocument.load>[1];

const NAME = { Filter: PDFName.of('Filter'), DecodeParms: PDFName.of('DecodeParms') } as const;

/** Bytes decoded so far for each document being loaded (a context belongs to one document). */
const decodedBytes = new WeakMap<PDFContext, number>();

/** The stream decoded within the document's budget, handed to pdf-lib without filters to undo again. */
function decodedWithinBudget(stream: PDFRawStream): PDFRawStream {
  const { context } = stream.dict;
  const spent = decodedBytes.get(context) ?? 0;
  const data = decodeStreamWithin(stream, STRUCTURE_STREAMS_BUDGET - spent);
  decodedBytes.set(context, spent + data.length);
  const dict = stream.dict.clone(context);
  dict.delete(NAME.Filter);
  dict.delete(NAME.DecodeParms);
  return PDFRawStream.of(dict, data);
}

/** pdf-lib's private fields of PDFXRefStreamParser that the row bound below adjusts (pdf-lib 1.17). */
type XrefStreamParserFields = { subsections: { firstObjectNumber: number; length: number }[]; byteWidths: number[] };

/** No more rows than the data holds: each row is W[0] + W[1] + W[2] bytes (§ 7.5.8.2). */
function boundRows(parser: PDFXRefStreamParser, dataLength: number): void {
  const fields = parser as unknown as XrefStreamParserFields;
  const rowWidth = fields.byteWidths.reduce((sum, width) => sum + Math.max(0, width), 0);
  let rows = rowWidth > 0 ? Math.floor(dataLength / rowWidth) : 0;
  fields.subsections = fields.subsections.map(({ firstObjectNumber, length }) => {
    const kept = Math.max(0, Math.min(length, rows));
    rows -= kept;
    return { firstObjectNumber, length: kept };
  });
}

const installed = Symbol.for('signing-service.pdf-lib-bounds');

function installBounds(): void {
  const registry = PDFObjectStreamParser as unknown as Record<symbol, boolean>;
  if (registry[installed]) return;
  registry[installed] = true;
  const objectStreamParser = PDFObjectStreamParser.forStream;
  PDFObjectStreamParser.forStream = (stream, shouldWaitForTick) => objectStreamParser(decodedWithinBudget(stream), shouldWaitForTick);
  const xrefStreamParser = PDFXRefStreamParser.forStream;
  PDFXRefStreamParser.forStream = (stream) => {
    const decoded = decodedWithinBudget(stream);
    const parser = xrefStreamParser(decoded);
    boundRows(parser, decoded.contents.length);
    return parser;
  };
}

installBounds();

export function loadPdf(bytes: Uint8Array, options?: LoadPdfOptions): Promise<PDFDocument> {
  return PDFDocument.load(bytes, options);
}
