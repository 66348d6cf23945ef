// The /api/embed/* routes (issue 15 › 2; spec › Embedded template, Submitter states rule 3).
import { describe, expect, it } from 'vitest';
import { api, createAccount, shardOf } from '../helpers';
import { page, signingFixture } from '../signing/fixtures';
import { createTemplate } from '../submission-fixtures';
import { embedApi, mintToken } from './embed-fixtures';

async function builder(permissions?: string[]) {
  const owner = await createAccount();
  const template = await createTemplate(owner.token, ['Client', 'Director']);
  const jwt = await mintToken(owner.token, {
    resource_type: 'template',
    resource_id: template.id,
    ...(permissions ? { permissions } : {}),
  });
  return { owner, template, jwt };
}

async function form(permissions?: string[]) {
  const f = await signingFixture();
  const jwt = await mintToken(f.account.token, {
    resource_type: 'submission',
    resource_id: f.submissionId,
    ...(permissions ? { permissions } : {}),
  });
  return { f, jwt };
}

describe('GET /api/embed/template/{id}', () => {
  it('answers the template as GET /api/templates/{id} does, with the builder options', async () => {
    const { owner, template, jwt } = await builder(['view']);
    const res = await embedApi('GET', `/api/embed/template/${template.id}`, jwt);
    expect(res.status).toBe(200);
    expect(res.json.template).toEqual((await api('GET', `/api/templates/${template.id}`, { token: owner.token })).json);
    expect(res.json.options).toMatchObject({
      permissions: ['view'],
      roles: ['Client', 'Director'],
      preferences: {},
      locale: 'en-US',
      endpoints: { template: `/api/templates/${template.id}`, documents: `/api/templates/${template.id}/documents` },
    });
    expect(res.json.options.field_types).toContain('signature');
    expect(res.json.options.validation_presets.length).toBeGreaterThan(0);
    expect(Date.parse(res.json.options.expires_at)).toBeGreaterThan(Date.now());
  });

  it('answers 401 without a token', async () => {
    const { template } = await builder();
    expect((await embedApi('GET', `/api/embed/template/${template.id}`, null)).status).toBe(401);
  });

  it('answers 401 to a form token', async () => {
    const { f, jwt } = await form();
    expect((await embedApi('GET', `/api/embed/template/${f.templateId}`, jwt)).status).toBe(401);
  });

  it('answers 404 for another account’s template', async () => {
    const { jwt } = await builder();
    const other = await createAccount();
    const foreign = await createTemplate(other.token);
    const res = await embedApi('GET', `/api/embed/template/${foreign.id}`, jwt);
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('Template not found.');
  });
});

describe('PUT /api/embed/template/{id}', () => {
  it('answers 422 with code update_via_templates_api and a sentence saying where to save', async () => {
    const { template, jwt } = await builder();
    const res = await embedApi('PUT', `/api/embed/template/${template.id}`, jwt, { body: { name: 'x' } });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({
      error:
        'Templates are saved through PUT /api/templates/{id} (with this token and the edit permission), which keeps their version history.',
      code: 'update_via_templates_api',
    });
  });

  it('answers 401 without a token', async () => {
    const { template } = await builder();
    expect((await embedApi('PUT', `/api/embed/template/${template.id}`, null)).status).toBe(401);
  });

  it('answers 404 for another account’s template', async () => {
    const { jwt } = await builder();
    const other = await createAccount();
    const foreign = await createTemplate(other.token);
    expect((await embedApi('PUT', `/api/embed/template/${foreign.id}`, jwt)).status).toBe(404);
  });

  it('answers 404 for a template the token is not for', async () => {
    const { owner, jwt } = await builder();
    const another = await createTemplate(owner.token);
    expect((await embedApi('PUT', `/api/embed/template/${another.id}`, jwt)).status).toBe(404);
  });
});

describe('GET /api/embed/submission/{id}', () => {
  it('answers the submission as GET /api/submissions/{id} does, with the form options', async () => {
    const { f, jwt } = await form(['sign', 'view']);
    const res = await embedApi('GET', `/api/embed/submission/${f.submissionId}`, jwt);
    expect(res.status).toBe(200);
    // The one signer is the token's own: a signing token sees its signing link (test/embed/embed-signer.test.ts for the rest).
    expect(res.json.submission).toEqual((await api('GET', `/api/submissions/${f.submissionId}`, { token: f.account.token })).json);
    expect(res.json.submission.submitters[0]).toMatchObject({ status: expect.any(String), embed_src: expect.stringContaining('/s/') });
    expect(res.json.options).toMatchObject({ permissions: ['sign', 'view'], submitter_id: f.submitters[0].id, locale: 'en-US' });
  });

  it('answers 401 without a token', async () => {
    expect((await embedApi('GET', '/api/embed/submission/1', null)).status).toBe(401);
  });

  it('answers 404 for another account’s submission', async () => {
    const { jwt } = await form();
    const other = await signingFixture();
    expect((await embedApi('GET', `/api/embed/submission/${other.submissionId}`, jwt)).status).toBe(404);
  });

  it('answers 400 with a sentence for an id that is not one', async () => {
    const { jwt } = await form();
    const res = await embedApi('GET', '/api/embed/submission/abc', jwt);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.json.error)).toContain('must be an integer id');
  });
});

describe('POST /api/embed/submission/{id}/complete', () => {
  it('answers 422 with code complete_on_signing_page', async () => {
    const { f, jwt } = await form();
    const res = await embedApi('POST', `/api/embed/submission/${f.submissionId}/complete`, jwt);
    expect(res.status).toBe(422);
    expect(res.json).toEqual({
      error: 'Signers complete their form on the signing page (the embedded form), not through the API.',
      code: 'complete_on_signing_page',
    });
  });

  it('answers 401 without a token', async () => {
    expect((await embedApi('POST', '/api/embed/submission/1/complete', null)).status).toBe(401);
  });

  it('answers 404 for a submission the token is not for', async () => {
    const { jwt } = await form();
    const other = await signingFixture();
    expect((await embedApi('POST', `/api/embed/submission/${other.submissionId}/complete`, jwt)).status).toBe(404);
  });
});

describe('PUT /api/embed/submission/{id}/values', () => {
  it('saves a value into the signer’s form, as the page’s autosave does', async () => {
    const { f, jwt } = await form();
    const name = f.field('Full name');
    const res = await embedApi('PUT', `/api/embed/submission/${f.submissionId}/values`, jwt, { body: { values: { [name]: 'Jane Host' } } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ submitter_id: f.submitters[0].id, values: expect.objectContaining({ [name]: 'Jane Host' }) });
    const read = await api('GET', `/api/submitters/${f.submitters[0].id}`, { token: f.account.token });
    expect(JSON.stringify(read.json)).toContain('Jane Host');
  });

  it('answers 403 to a view-only form token', async () => {
    const { f, jwt } = await form(['view']);
    const res = await embedApi('PUT', `/api/embed/submission/${f.submissionId}/values`, jwt, { body: { values: {} } });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('This embed token does not grant "sign"; mint one with that permission.');
  });

  it('answers 422 with the field’s sentence for a value its field refuses', async () => {
    const { f, jwt } = await form();
    const res = await embedApi('PUT', `/api/embed/submission/${f.submissionId}/values`, jwt, {
      body: { values: { 'no-such-field': 'x' } },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('no-such-field is not one of your fields.');
  });

  it('answers 400 with a sentence when values is not an object', async () => {
    const { f, jwt } = await form();
    const res = await embedApi('PUT', `/api/embed/submission/${f.submissionId}/values`, jwt, { body: { values: 'x' } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.json.error)).toContain('must be an object of field uuid → value');
  });

  it('refuses with 422 once the signer has completed', async () => {
    const { f, jwt } = await form();
    await api('PUT', `/api/submitters/${f.submitters[0].id}`, {
      token: f.account.token,
      body: { values: { 'Full name': 'Done', Signature: 'Done' }, completed: true },
    });
    const res = await embedApi('PUT', `/api/embed/submission/${f.submissionId}/values`, jwt, {
      body: { values: { [f.field('Full name')]: 'Late' } },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(`Submitter ${f.submitters[0].id} has completed the form: an embed token can no longer save its fields.`);
  });

  it('refuses with 422 once the signer has declined', async () => {
    const { f, jwt } = await form();
    expect((await page('POST', `/s/${f.submitters[0].slug}/decline`, { body: { reason: 'No' } })).status).toBe(200);
    const res = await embedApi('PUT', `/api/embed/submission/${f.submissionId}/values`, jwt, {
      body: { values: { [f.field('Full name')]: 'Late' } },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(`Submitter ${f.submitters[0].id} has declined the form: an embed token can no longer save its fields.`);
  });

  it('refuses with 422 once the link has expired', async () => {
    const { f, jwt } = await form();
    await (await shardOf(f.account.accountId))
      .prepare('UPDATE submissions SET expire_at = ? WHERE id = ?')
      .bind(new Date(Date.now() - 1000).toISOString(), f.submissionId)
      .run();
    const res = await embedApi('PUT', `/api/embed/submission/${f.submissionId}/values`, jwt, {
      body: { values: { [f.field('Full name')]: 'Late' } },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      `Submitter ${f.submitters[0].id} has a signing link that has expired: an embed token can no longer save its fields.`,
    );
  });

  it('saves into the token’s own signer’s form when the submission has several submitters', async () => {
    const f = await signingFixture({ roles: ['Client', 'Director'] });
    const jwt = await mintToken(f.account.token, { resource_type: 'submission', resource_id: f.submissionId });
    const res = await embedApi('PUT', `/api/embed/submission/${f.submissionId}/values`, jwt, {
      body: { values: { [f.field('Full name')]: 'Jane Host' } },
    });
    expect(res.status).toBe(200);
    expect(res.json.submitter_id).toBe(f.submitters[0].id);
  });

  it('answers 404 for another account’s submission', async () => {
    const { jwt } = await form();
    const other = await signingFixture();
    const res = await embedApi('PUT', `/api/embed/submission/${other.submissionId}/values`, jwt, { body: { values: {} } });
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('Submission not found.');
  });

  it('answers 401 without a token', async () => {
    expect((await embedApi('PUT', '/api/embed/submission/1/values', null, { body: { values: {} } })).status).toBe(401);
  });

  it('answers 404 for a submitter of another submission', async () => {
    const { jwt, f } = await form();
    const other = await signingFixture();
    const res = await embedApi('PUT', `/api/embed/submission/${f.submissionId}/values`, jwt, {
      body: { submitter_id: other.submitters[0].id, values: {} },
    });
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('Submitter not found.');
  });
});
