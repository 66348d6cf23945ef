// Branding resolved when the signing page or an email is rendered: the brand picked by preferences.brand_id,
// overridden by the template's own keys, and brand edits reaching signers who have not finished.
import { describe, expect, it } from 'vitest';
import { api } from '../helpers';
import { messagesTo } from '../submission-fixtures';
import { brandedSubmission, createBrand } from './fixtures';
import { brandPalette } from '../../src/lib/design-tokens';
import { contrastRatio, darken } from '../../src/shared/colors';

const brandBranding = {
  company_name: 'Brand Co',
  display_title: 'Brand title',
  primary_button_color: '#0f766e',
  header_color: '#112233',
  logo_url: 'https://brand.test/logo.png',
};

describe('the signing page', () => {
  it('shows the brand’s title, header colour and logo', async () => {
    const f = await brandedSubmission({ branding: brandBranding });
    const res = await api('GET', `/s/${f.submitter.slug}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<title>Brand title - Brand Co</title>');
    expect(res.text).toContain('--header:#112233');
    expect(res.text).toContain('<img src="https://brand.test/logo.png" alt="Brand Co" class="logo"/>');
    expect(res.text).toContain('<link rel="icon" href="https://brand.test/logo.png"/>');
  });

  it('lets the template’s own keys override the brand', async () => {
    const f = await brandedSubmission({
      branding: brandBranding,
      templatePreferences: { header_color: '#330000', company_name: 'Template Co' },
    });
    const res = await api('GET', `/s/${f.submitter.slug}`);
    expect(res.text).toContain('<title>Brand title - Template Co</title>');
    expect(res.text).toContain('--header:#330000');
  });

  it('darkens the brand’s button colour for the header when the brand has no header colour, until its text reads', async () => {
    const f = await brandedSubmission({ branding: { primary_button_color: '#ff6432' } });
    // 20% darker is #cc5028, which neither white (4.4:1) nor ink (4.1:1) reads on: darkened on to 4.5:1.
    const header = brandPalette('#ff6432', darken('#ff6432', 0.2)).header;
    expect(contrastRatio(header, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect((await api('GET', `/s/${f.submitter.slug}`)).text).toContain(`--header:${header};--on-header:#ffffff`);
  });

  it('falls back to the template name and the account name without a brand title or company name', async () => {
    const f = await brandedSubmission({ branding: { primary_button_color: '#0f766e' } });
    expect((await api('GET', `/s/${f.submitter.slug}`)).text).toContain('<title>Lease - Account Co</title>');
  });

  it('hides the powered-by line when the brand says show_branding false', async () => {
    const shown = await brandedSubmission({ branding: { company_name: 'Shown' } });
    expect((await api('GET', `/s/${shown.submitter.slug}`)).text).toContain('class="powered"');
    const hidden = await brandedSubmission({ branding: { company_name: 'Hidden', show_branding: false } });
    expect((await api('GET', `/s/${hidden.submitter.slug}`)).text).not.toContain('class="powered"');
  });

  it('shows a brand edit made after the submission was created', async () => {
    const f = await brandedSubmission({ branding: brandBranding });
    const edit = await api('PUT', `/api/brands/${f.brandId}`, { token: f.account.token, body: { branding: { header_color: '#220044' } } });
    expect(edit.status).toBe(200);
    const res = await api('GET', `/s/${f.submitter.slug}`);
    expect(res.text).toContain('--header:#220044');
    expect(res.text).not.toContain('--header:#112233');
  });

  it('uses the submission’s brand over the template’s', async () => {
    const f = await brandedSubmission({ branding: brandBranding });
    const other = await createBrand(f.account.token, 'Other', { company_name: 'Other Co', header_color: '#004400' });
    const g = await brandedSubmission({ account: f.account, branding: brandBranding, submissionPreferences: { brand_id: other } });
    const res = await api('GET', `/s/${g.submitter.slug}`);
    // The submission's brand replaces the template's whole: brands are one level, not stacked.
    expect(res.text).toContain('<title>Lease - Other Co</title>');
    expect(res.text).toContain('--header:#004400');
  });

  it('falls back to the template and account once the brand is deleted', async () => {
    const f = await brandedSubmission({ branding: brandBranding });
    expect((await api('DELETE', `/api/brands/${f.brandId}`, { token: f.account.token })).status).toBe(204);
    const res = await api('GET', `/s/${f.submitter.slug}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<title>Lease - Account Co</title>');
  });
});

describe('emails', () => {
  it('carry the brand’s title, wordmark and button colour, and no powered-by line when show_branding is false', async () => {
    const f = await brandedSubmission({
      branding: { company_name: 'Brand Co', display_title: 'Brand title', primary_button_color: '#0f766e', show_branding: false },
    });
    const invitation = (await messagesTo(f.email)).at(-1)!;
    expect(invitation.kind).toBe('invitation');
    expect(invitation.html).toContain('<strong style="font-size:18px">Brand Co</strong>');
    expect(invitation.html).toMatch(/<h1 style="font-size:22px;[^"]*">Brand title<\/h1>/);
    expect(invitation.html).toContain('background:#0f766e');
    expect(invitation.html).not.toContain('Sent with');
  });

  it('show the brand’s logo with the company name as its alt text', async () => {
    const f = await brandedSubmission({ branding: brandBranding });
    expect((await messagesTo(f.email)).at(-1)!.html).toContain('<img src="https://brand.test/logo.png" alt="Brand Co"');
  });

  it('let the template’s own keys override the brand', async () => {
    const f = await brandedSubmission({
      branding: brandBranding,
      templatePreferences: { company_name: 'Template Co', primary_button_color: '#7c2d12', display_title: 'Template title' },
    });
    const html = (await messagesTo(f.email)).at(-1)!.html;
    expect(html).toContain('alt="Template Co"');
    expect(html).toContain('background:#7c2d12');
    expect(html).toContain('>Template title</h1>');
  });

  it('fall back to the template name and account name without a brand', async () => {
    const f = await brandedSubmission({ branding: { primary_button_color: '#0f766e' } });
    const html = (await messagesTo(f.email)).at(-1)!.html;
    expect(html).toContain('<strong style="font-size:18px">Account Co</strong>');
    expect(html).toContain('>Lease</h1>');
    expect(html).toContain('Sent with');
  });

  it('sent after a brand edit (a reminder) show the edited brand', async () => {
    const f = await brandedSubmission({ branding: brandBranding });
    await api('PUT', `/api/brands/${f.brandId}`, {
      token: f.account.token,
      body: { branding: { company_name: 'Renamed Co', logo_url: null, primary_button_color: '#1e3a8a' } },
    });
    expect((await api('POST', `/api/submitters/${f.submitter.id}/remind`, { token: f.account.token })).status).toBe(200);
    const reminder = (await messagesTo(f.email)).at(-1)!;
    expect(reminder.kind).toBe('reminder');
    expect(reminder.html).toContain('<strong style="font-size:18px">Renamed Co</strong>');
    expect(reminder.html).toContain('background:#1e3a8a');
  });
});
