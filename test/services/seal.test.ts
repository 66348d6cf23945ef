import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateSigningIdentity, type SigningIdentity } from '../../src/services/pdf/certificate';
import { sealDocument, type SealInput } from '../../src/services/pdf/seal';
import { fromLatin1, latin1 } from '../fixtures/pdfs';
import { checkPdf } from '../pdf-tools';

// A 2×2 red PNG (a drawn signature stands in as any PNG).
const PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR4nGP4z8DAwMDAxMDAAAAmCgID2nHJIQAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
);

async function original(pages: number, options: { useObjectStreams?: boolean } = {}): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  for (let i = 0; i < pages; i += 1) pdf.addPage([612, 792]);
  return pdf.save(options);
}

function input(bytes: Uint8Array, signer: SigningIdentity, overrides: Partial<SealInput> = {}): SealInput {
  return {
    original: bytes,
    stamps: [
      { area: { page: 1, x: 0.1, y: 0.1, w: 0.4, h: 0.04 }, value: { kind: 'text', text: 'Zoë Łukasiewicz-Ørsted 東' } },
      { area: { page: 1, x: 0.1, y: 0.2, w: 0.03, h: 0.03 }, value: { kind: 'check', checked: true } },
      { area: { page: 2, x: 72, y: 600, w: 200, h: 60 }, value: { kind: 'image', bytes: PNG, format: 'png' } },
      { area: { page: 2, x: 72, y: 680, w: 120, h: 20 }, value: { kind: 'cells', text: '12345' } },
    ],
    trail: {
      serviceName: 'Signing Service',
      documentName: 'Lease.pdf',
      templateName: 'Lease',
      submissionRef: 'sub_test',
      completedAt: '2026-11-23T10:00:00.000Z',
      signers: [
        {
          name: 'Zoë Ørsted',
          email: 'zoe@example.com',
          role: 'Tenant',
          status: 'completed',
          ip: '203.0.113.5',
          userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15',
          verification: 'Email link',
          sentAt: '2026-11-23T09:00:00.000Z',
          openedAt: '2026-11-23T09:10:00.000Z',
          completedAt: '2026-11-23T10:00:00.000Z',
          signature: { bytes: PNG, format: 'png' },
        },
      ],
      events: Array.from({ length: 80 }, (_, i) => ({
        at: `2026-11-23T09:${String(i % 60).padStart(2, '0')}:00Z`,
        event: 'field.updated',
        actor: 'zoe@example.com',
        ip: '203.0.113.5',
      })),
    },
    signer,
    signature: { name: 'Acme Inc.', reason: 'Completed submission' },
    ...overrides,
  };
}

describe('sealDocument', () => {
  let signer: SigningIdentity;
  beforeAll(async () => {
    signer = await generateSigningIdentity({ commonName: 'Acme Seal', organization: 'Acme Inc.' });
  });

  it('stamps values, appends the audit trail and signs the whole file', async () => {
    const bytes = await original(2);
    const sealed = await sealDocument(input(bytes, signer));
    const { pdfsig, qpdf } = await checkPdf(sealed.bytes);
    expect(pdfsig.output).toContain('Signature is Valid.');
    expect(pdfsig.output).toContain('Total document signed');
    expect(qpdf.code).toBe(0);
    const reloaded = await PDFDocument.load(sealed.bytes);
    // 2 original pages + 80 events push the trail onto a second page.
    expect(reloaded.getPageCount()).toBeGreaterThanOrEqual(4);
    expect(sealed.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(sealed.originalSha256).not.toBe(sealed.sha256);
  });

  it('renders non-Latin-1 names as text and replaces glyphs the font lacks', async () => {
    const sealed = await sealDocument(input(await original(2), signer));
    const { text } = await checkPdf(sealed.bytes);
    expect(text.output).toContain('Zoë Łukasiewicz-Ørsted ?');
    expect(text.output).toContain('Audit trail');
    expect(text.output).toContain('zoe@example.com');
    expect(text.output).toContain('203.0.113.5');
  });

  it('appends to the original bytes, which stay an unchanged prefix of the sealed file', async () => {
    const bytes = await original(2);
    const sealed = await sealDocument(input(bytes.slice(), signer));
    expect(sealed.bytes.length).toBeGreaterThan(bytes.length);
    expect(sealed.bytes.subarray(0, bytes.length)).toEqual(bytes);
  });

  it('seals a document whose cross-reference section is a classic table', async () => {
    const sealed = await sealDocument(input(await original(2, { useObjectStreams: false }), signer));
    const { pdfsig, qpdf, text } = await checkPdf(sealed.bytes);
    expect(pdfsig.output).toContain('Signature is Valid.');
    expect(pdfsig.output).toContain('Total document signed');
    expect(qpdf.code).toBe(0);
    expect(text.output).toContain('Audit trail');
  });

  it('seals a document that was already updated incrementally, and can seal its own output again', async () => {
    const first = await sealDocument(input(await original(2), signer));
    const second = await sealDocument(input(first.bytes, signer));
    const { pdfsig, qpdf } = await checkPdf(second.bytes);
    expect(qpdf.code).toBe(0);
    expect(pdfsig.output).toContain('Signature #2');
    // The earlier seal still covers its own revision; the new one covers the whole file.
    expect(pdfsig.output.match(/Signature is Valid\./g)).toHaveLength(2);
    expect(pdfsig.output).toContain('Total document signed');
  });

  it('re-saves a file whose startxref points nowhere instead of chaining an update to it', async () => {
    const bytes = await original(2, { useObjectStreams: false });
    const text = latin1(bytes);
    const at = text.lastIndexOf('startxref') + 'startxref\n'.length;
    const broken = fromLatin1(text.slice(0, at) + text.slice(at).replace(/^\d+/, (n) => String(Number(n) - 7).padStart(n.length, '0')));
    const sealed = await sealDocument(input(broken, signer));
    const { pdfsig, qpdf } = await checkPdf(sealed.bytes);
    expect(qpdf.output).not.toMatch(/WARNING/);
    expect(pdfsig.output).toContain('Signature is Valid.');
    expect(pdfsig.output).toContain('Total document signed');
  });

  it('refuses a stamp on a page the document does not have', async () => {
    const bytes = await original(1);
    await expect(sealDocument(input(bytes, signer))).rejects.toThrow();
  });
});
