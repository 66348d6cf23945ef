// A brand, a template using it and a submission to sign, made through the real API.
import { api, createAccount, type TestAccount } from '../helpers';
import { makePdf, toBase64 } from '../fixtures/pdfs';

let n = 0;

export async function createBrand(token: string, name: string, branding: Record<string, unknown>): Promise<number> {
  const res = await api('POST', '/api/brands', { token, body: { name, branding } });
  if (res.status !== 201) throw new Error(`brand: ${res.status} ${res.text}`);
  return res.json.brand.id;
}

export async function createTemplate(token: string, preferences: Record<string, unknown> = {}, name = 'Lease') {
  return api('POST', '/api/templates/pdf', {
    token,
    body: {
      name,
      documents: [{ name: 'contract', file: toBase64(await makePdf(1)) }],
      submitters: [{ name: 'Signer' }],
      fields: [{ name: 'Full name', type: 'text', role: 'Signer', areas: [{ page: 1, x: 0.1, y: 0.1, w: 0.3, h: 0.05 }] }],
      preferences,
    },
  });
}

/** An account with a brand, a template (its preferences as given, `brand_id` filled in) and a pending submission. */
export async function brandedSubmission(
  options: {
    branding?: Record<string, unknown>;
    templatePreferences?: Record<string, unknown>;
    submissionPreferences?: Record<string, unknown>;
    account?: TestAccount;
  } = {},
) {
  const account = options.account ?? (await createAccount({ name: 'Account Co' }));
  n += 1;
  const brandId = await createBrand(
    account.token,
    `Brand ${n}`,
    options.branding ?? { company_name: 'Brand Co', primary_button_color: '#0f766e', header_color: '#112233' },
  );
  const template = await createTemplate(account.token, { brand_id: brandId, ...options.templatePreferences });
  if (template.status !== 201) throw new Error(`template: ${template.status} ${template.text}`);
  const email = `branded${n}-${Date.now()}@example.com`;
  const res = await api('POST', '/api/submissions', {
    token: account.token,
    body: {
      template_id: template.json.id,
      submitters: [{ role: 'Signer', email }],
      ...(options.submissionPreferences ? { preferences: options.submissionPreferences } : {}),
    },
  });
  if (res.status !== 201) throw new Error(`submission: ${res.status} ${res.text}`);
  return {
    account,
    brandId,
    templateId: template.json.id as string,
    email,
    submitter: res.json.submitters[0] as { id: number; slug: string },
  };
}
