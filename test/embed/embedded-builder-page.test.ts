// GET /embed/builder/{id}?token=…: the template builder framed with a builder embed token (issue 15 › 4),
// and its embed script at /embed/v1/builder.js and /js/builder.js.
import { describe, expect, it } from 'vitest';
import { AUTH_FAILURE_LIMIT } from '../../src/lib/limits';
import { api, createAccount } from '../helpers';
import { signingFixture } from '../signing/fixtures';
import { createTemplate } from '../submission-fixtures';
import { mintToken, signToken, storedKey } from './embed-fixtures';

async function builder(options: { permissions?: string[]; origins?: string[] } = {}) {
  const owner = await createAccount();
  if (options.origins) {
    const set = await api('PUT', '/api/settings/account', { token: owner.token, body: { embed_origins: options.origins } });
    expect(set.status).toBe(200);
  }
  const template = await createTemplate(owner.token, ['Client']);
  const jwt = await mintToken(owner.token, {
    resource_type: 'template',
    resource_id: template.id,
    ...(options.permissions ? { permissions: options.permissions } : {}),
  });
  return { owner, template, jwt };
}

const page = (id: string, token?: string) =>
  api('GET', `/embed/builder/${id}${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}`, { token: null });

function expectRefusal(res: Awaited<ReturnType<typeof api>>, status: number, sentence: RegExp) {
  expect(res.status).toBe(status);
  expect(res.headers.get('Content-Type')).toContain('text/html');
  expect(res.text).toMatch(sentence);
  expect(res.text).not.toContain('id="template-builder"');
  expect(res.headers.get('Cache-Control')).toBe('no-store');
}

describe('GET /embed/builder/{id}', () => {
  it('renders the builder for its template, framed only by the account’s embed_origins', async () => {
    const { template, jwt } = await builder({ origins: ['https://app.example.com', 'https://admin.example.com'] });
    const res = await page(template.id, jwt);
    expect(res.status).toBe(200);
    expect(res.text).toContain('id="template-builder"');
    expect(res.text).toContain(`data-template-id="${template.id}"`);
    expect(res.text).toContain('data-embedded="true"');
    expect(res.text).toContain('/vendor/builder/builder.js');
    expect(res.text).not.toContain('data-read-only');
    expect(res.text).not.toContain('Sign out'); // no console chrome
    expect(res.headers.get('Content-Security-Policy')).toContain('frame-ancestors https://app.example.com https://admin.example.com');
    expect(res.headers.get('X-Frame-Options')).toBeNull();
  });

  it('is neither cached nor sends its address (with the token) as a referrer', async () => {
    const { template, jwt } = await builder({ origins: ['https://app.example.com'] });
    const res = await page(template.id, jwt);
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    expect(res.headers.get('Referrer-Policy')).toBe('no-referrer');
    expect(res.text).not.toContain(jwt);
  });

  it('may be framed by nobody when the account allows no embedding origin', async () => {
    const { template, jwt } = await builder();
    const res = await page(template.id, jwt);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Security-Policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('X-Frame-Options')).toBe('DENY');
  });

  it('opens read-only for a token without the edit permission', async () => {
    const { template, jwt } = await builder({ permissions: ['view'] });
    const res = await page(template.id, jwt);
    expect(res.status).toBe(200);
    expect(res.text).toContain('data-read-only="true"');
  });

  it('answers 401 with a sentence and no builder without a token', async () => {
    const { template } = await builder();
    expectRefusal(await page(template.id), 401, /needs a builder embed token/);
  });

  it('answers 401 to a tampered token', async () => {
    const { template, jwt } = await builder();
    const [header, payload, signature] = jwt.split('.');
    const tampered = `${header}.${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    expectRefusal(await page(template.id, tampered), 401, /The embed token is not valid\./);
  });

  it('answers 401 to an expired token', async () => {
    const { owner, template } = await builder();
    const iat = Math.floor(Date.now() / 1000) - 5 * 3600;
    const expired = await signToken(await storedKey(owner.accountId), {
      aud: String(owner.accountId),
      uid: owner.userId,
      sub: `template:${template.id}`,
      scope: 'edit view',
      iat,
      exp: iat + 3600,
    });
    expectRefusal(await page(template.id, expired), 401, /has expired/);
  });

  it('answers 401 to a signing form token', async () => {
    const f = await signingFixture();
    const formJwt = await mintToken(f.account.token, { resource_type: 'submission', resource_id: f.submissionId });
    const template = await createTemplate(f.account.token, ['Client']);
    expectRefusal(await page(template.id, formJwt), 401, /signing form embed token/);
  });

  it('answers 404 for another template than the token’s', async () => {
    const { owner, jwt } = await builder({ origins: ['https://app.example.com'] });
    const other = await createTemplate(owner.token, ['Client']);
    const res = await page(other.id, jwt);
    expectRefusal(res, 404, /Template not found\./);
  });
});

describe('failed tokens on the builder page', () => {
  // An address of its own (RFC 2544 range, a block no other test uses): refusals outlive one test.
  const ip = '198.19.28.1';
  const tampered = (jwt: string) => {
    const [header, payload, signature] = jwt.split('.');
    return `${header}.${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
  };
  const pageFrom = (address: string, id: string, token: string) =>
    api('GET', `/embed/builder/${id}?token=${encodeURIComponent(token)}`, { token: null, ip: address });

  it(`count like the API's: ${AUTH_FAILURE_LIMIT} a minute from one address, then 429 with Retry-After, even for a good token`, async () => {
    const { template, jwt } = await builder();
    const statuses: number[] = [];
    for (let i = 0; i < AUTH_FAILURE_LIMIT; i += 1) statuses.push((await pageFrom(ip, template.id, tampered(jwt))).status);
    expect(statuses).toEqual(Array(AUTH_FAILURE_LIMIT).fill(401));
    const refused = await pageFrom(ip, template.id, tampered(jwt));
    expectRefusal(refused, 429, /Too many failed authentications from this address \(30 per 60 seconds\); retry in \d+ seconds?\./);
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
    expectRefusal(await pageFrom(ip, template.id, jwt), 429, /Too many failed authentications/);
    // Another address is left alone.
    expect((await pageFrom('198.19.28.2', template.id, jwt)).status).toBe(200);
  });
});

describe('the builder embed script', () => {
  for (const path of ['/embed/v1/builder.js', '/js/builder.js']) {
    it(`is served at ${path} as JavaScript defining <template-builder>, DocuSeal’s <docuseal-builder> and both globals`, async () => {
      const res = await api('GET', path, { token: null });
      expect(res.status).toBe(200);
      expect(res.headers.get('Content-Type')).toContain('javascript');
      expect(res.text).toContain('template-builder');
      expect(res.text).toContain('docuseal-builder');
      expect(res.text).toContain('SigningService');
      expect(res.text).toContain('SignService');
    });
  }
});
