// Small DOCX files built in tests (paragraphs, tables, headers) with fflate, so a test states its own document.
import { strToU8, zipSync } from 'fflate';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A paragraph with one run of text. */
export function paragraph(text: string): string {
  return `<w:p><w:r><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r></w:p>`;
}

/** A table of text cells. */
export function table(rows: string[][]): string {
  const tr = rows.map((cells) => `<w:tr>${cells.map((c) => `<w:tc>${paragraph(c)}</w:tc>`).join('')}</w:tr>`).join('');
  return `<w:tbl><w:tblPr><w:tblBorders><w:top w:val="single" w:sz="4"/><w:bottom w:val="single" w:sz="4"/><w:insideH w:val="single" w:sz="4"/></w:tblBorders></w:tblPr>${tr}</w:tbl>`;
}

export const pageBreak = '<w:p><w:r><w:br w:type="page"/></w:r></w:p>';

const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PART = 'application/vnd.openxmlformats-officedocument.wordprocessingml';

/** A DOCX whose body is `bodyXml` (paragraph/table XML), with a header and footer paragraph when given. */
export function buildDocx(bodyXml: string, options: { header?: string; footer?: string } = {}): Uint8Array {
  const parts: Record<string, Uint8Array> = {};
  const overrides: string[] = [`<Override PartName="/word/document.xml" ContentType="${PART}.document.main+xml"/>`];
  const rels: string[] = [];
  const refs: string[] = [];
  for (const kind of ['header', 'footer'] as const) {
    const text = options[kind];
    if (text === undefined) continue;
    const tag = kind === 'header' ? 'hdr' : 'ftr';
    parts[`word/${kind}1.xml`] = strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:${tag} xmlns:w="${W}">${paragraph(text)}</w:${tag}>`,
    );
    overrides.push(`<Override PartName="/word/${kind}1.xml" ContentType="${PART}.${kind}+xml"/>`);
    rels.push(`<Relationship Id="r${kind}" Type="${R}/${kind}" Target="${kind}1.xml"/>`);
    refs.push(`<w:${kind}Reference w:type="default" r:id="r${kind}"/>`);
  }
  return zipSync({
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
        `${overrides.join('')}</Types>`,
    ),
    '_rels/.rels': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        `<Relationship Id="rId1" Type="${R}/officeDocument" Target="word/document.xml"/></Relationships>`,
    ),
    'word/_rels/document.xml.rels': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels.join('')}</Relationships>`,
    ),
    'word/document.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W}" xmlns:r="${R}"><w:body>${bodyXml}<w:sectPr>${refs.join('')}</w:sectPr></w:body></w:document>`,
    ),
    ...parts,
  });
}

/** Variables, a nested condition with an else, a table and a page break. */
export const agreementDocx = buildDocx(
  paragraph('Agreement with [[client_name]], signed by [[signer_name]].') +
    paragraph('[[if:discount]]') +
    paragraph('A discount of [[discount]] applies.') +
    paragraph('[[if:vip]]') +
    paragraph('VIP-TERMS apply.') +
    paragraph('[[else]]') +
    paragraph('STANDARD-TERMS apply.') +
    paragraph('[[end]]') +
    paragraph('[[end]]') +
    table([
      ['Item', 'Price'],
      ['[[item]]', '[[price]]'],
    ]) +
    pageBreak +
    paragraph('SECOND-PAGE'),
);
