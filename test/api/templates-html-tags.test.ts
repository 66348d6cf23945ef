// Text tags in an HTML template (issue 19 point 4): the HTML is printed to PDF, then the same reading
// as for PDF uploads places the fields and hides the tags.
import { describe, expect, it } from 'vitest';
import { api, createAccount } from '../helpers';
import { checkPdf } from '../pdf-tools';
import { downloadDocument } from '../rendering-fixtures';

describe('text tags in an HTML template', { timeout: 120_000 }, () => {
  it('become fields on the printed pages at their places and are hidden in the stored PDF', async () => {
    const a = await createAccount();
    const html = `<html><body style="font: 14px sans-serif">
      <h1>Lease</h1>
      <p>Tenant name: {{Tenant;role=Tenant;required=true}}</p>
      <div style="break-before: page"></div>
      <p style="margin-left: 200px">{{Tenant signature;type=signature;role=Tenant}}</p>
    </body></html>`;
    const res = await api('POST', '/api/templates/html', { token: a.token, body: { name: 'Lease', html, size: 'A4' } });
    expect(res.status).toBe(201);
    expect(res.json.submitters.map((r: { name: string }) => r.name)).toEqual(['Tenant']);
    const [tenant, signature] = res.json.schema;
    expect(tenant).toMatchObject({ name: 'Tenant', type: 'text', required: true });
    expect(tenant.areas[0].page).toBe(1);
    expect(signature).toMatchObject({ name: 'Tenant signature', type: 'signature' });
    expect(signature.areas[0].page).toBe(2);
    // 200 px of margin is 150 pt, plus the page margin; the A4 page is 595 pt wide.
    expect(signature.areas[0].x).toBeGreaterThan(150 / 595);
    expect(signature.areas[0].x).toBeLessThan(260 / 595);
    expect(tenant.areas[0].y).toBeLessThan(signature.areas[0].y + 0.5);
    // Chromium prints with two-byte fonts: the tags are blanked through the fonts' ToUnicode maps.
    const pdf = await downloadDocument(a.token, res.json.id, res.json.documents[0].uuid);
    const { text, qpdf } = await checkPdf(pdf);
    expect(qpdf.code).toBe(0);
    expect(text.output).toContain('Tenant name:');
    expect(text.output).not.toContain('{{');
  });
});
