// resolveBranding: each level (template keys, brand, custom domain, account, service) overrides the next.
import { describe, expect, it } from 'vitest';
import { resolveBranding, type BrandingSources } from '../../src/services/branding/resolve-branding';

const base: BrandingSources = { template: {}, templateName: 'Lease', account: { name: 'Account Co' }, serviceName: 'Signing Service' };

describe('resolveBranding', () => {
  it('titles the tab with the template name and the account name when nothing is branded', () => {
    const b = resolveBranding(base);
    expect(b.title).toBe('Lease - Account Co');
    expect(b.companyName).toBe('Account Co');
    expect(b.showBranding).toBe(true);
    expect(b.navStyle).toBe('standard');
  });

  it('falls back to the service name when the account has no name', () => {
    expect(resolveBranding({ ...base, account: { name: '' } }).companyName).toBe('Signing Service');
  });

  it('prefers the account white-label name to the account name', () => {
    expect(resolveBranding({ ...base, account: { name: 'Account Co', whiteLabelName: 'White Label' } }).companyName).toBe('White Label');
  });

  it('prefers the custom domain branding to the account', () => {
    const b = resolveBranding({
      ...base,
      account: { name: 'Account Co', whiteLabelName: 'White Label' },
      domainBranding: { company_name: 'Domain Co', display_title: 'Domain title' },
    });
    expect(b.title).toBe('Domain title - Domain Co');
  });

  it('prefers the brand to the custom domain', () => {
    const b = resolveBranding({
      ...base,
      brand: { company_name: 'Brand Co', primary_button_color: '#0000aa' },
      domainBranding: { company_name: 'Domain Co', primary_button_color: '#00aa00' },
    });
    expect(b.companyName).toBe('Brand Co');
    expect(b.primaryColor).toBe('#0000aa');
  });

  it('prefers the template’s own keys to the brand', () => {
    const b = resolveBranding({
      ...base,
      template: { company_name: 'Template Co', logo_url: 'https://t.test/logo.png', show_branding: true },
      brand: { company_name: 'Brand Co', logo_url: 'https://b.test/logo.png', show_branding: false },
    });
    expect(b.companyName).toBe('Template Co');
    expect(b.logoUrl).toBe('https://t.test/logo.png');
    expect(b.showBranding).toBe(true);
  });

  it('takes each key from the first level that sets it', () => {
    const b = resolveBranding({
      ...base,
      template: { display_title: 'T' },
      brand: { company_name: 'Brand Co' },
      domainBranding: { logo_url: 'https://d.test/l.png' },
    });
    expect(b).toMatchObject({ title: 'T - Brand Co', companyName: 'Brand Co', logoUrl: 'https://d.test/l.png' });
  });

  it('uses header_color verbatim', () => {
    expect(resolveBranding({ ...base, brand: { header_color: '#123456', primary_button_color: '#ff0000' } }).headerColor).toBe('#123456');
  });

  it('darkens primary_button_color by 20% for the header when no header_color is set', () => {
    // 0xff·0.8 = 204 = 0xcc; 0x64·0.8 = 80 = 0x50; 0x32·0.8 = 40 = 0x28.
    expect(resolveBranding({ ...base, brand: { primary_button_color: '#ff6432' } }).headerColor).toBe('#cc5028');
  });

  it('falls back to the logo for the favicon', () => {
    const b = resolveBranding({ ...base, brand: { logo_url: 'https://b.test/logo.png' } });
    expect(b.faviconUrl).toBe('https://b.test/logo.png');
    expect(
      resolveBranding({ ...base, brand: { logo_url: 'https://b.test/logo.png', favicon_url: 'https://b.test/fav.ico' } }).faviconUrl,
    ).toBe('https://b.test/fav.ico');
  });

  it('hides the powered-by line when the brand says show_branding false', () => {
    expect(resolveBranding({ ...base, brand: { show_branding: false } }).showBranding).toBe(false);
  });

  it('takes the navigation style from the template', () => {
    expect(resolveBranding({ ...base, template: { signing_nav_style: 'branded_bar' } }).navStyle).toBe('branded_bar');
  });

  it('skips a stored value that is not usable and reads the next level', () => {
    const b = resolveBranding({ ...base, template: { logo_url: 'javascript:alert(1)' }, brand: { logo_url: 'https://b.test/logo.png' } });
    expect(b.logoUrl).toBe('https://b.test/logo.png');
  });
});
