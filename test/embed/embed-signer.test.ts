// A form embed token opens one signer's form and shows only what its holder may do (issue 28 › 2;
// docs/embedding.md › Which signer): no signing link of anyone to a view token, only its own signer's to
// a signing token, bound by `submitter_id` or to the next signer in order, and no saving into another form.
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { api } from '../helpers';
import { signingFixture } from '../signing/fixtures';
import { embedApi, mintToken, signToken, storedKey } from './embed-fixtures';

const CREDENTIALS = ['slug', 'signing_url', 'embed_src'] as const;

/** Two signers, Client then Director, each with a text field of their own. */
function twoSigners(order: 'sequential' | 'parallel' = 'sequential') {
  return signingFixture({
    roles: ['Client', 'Director'],
    order,
    fields: [
      { name: 'Client name', type: 'text', role: 'Client' },
      { name: 'Director name', type: 'text', role: 'Director' },
    ],
  });
}

async function read(submissionId: number, jwt: string) {
  const res = await embedApi('GET', `/api/embed/submission/${submissionId}`, jwt);
  expect(res.status).toBe(200);
  return res.json as {
    submission: { submitters: Record<string, unknown>[] };
    options: { submitter_id: number | null; permissions: string[] };
  };
}

/** Every credential the answer shows, as `<submitter id>.<key>`. */
function credentialsShown(submitters: Record<string, unknown>[]): string[] {
  return submitters.flatMap((s) => CREDENTIALS.filter((key) => key in s).map((key) => `${s.id}.${key}`));
}

describe('GET /api/embed/submission/{id}: signing links', () => {
  it('shows a view-only token no slug, signing_url or embed_src of anyone', async () => {
    const f = await twoSigners();
    const jwt = await mintToken(f.account.token, { resource_type: 'submission', resource_id: f.submissionId, permissions: ['view'] });
    const body = await read(f.submissionId, jwt);
    expect(body.submission.submitters).toHaveLength(2);
    expect(credentialsShown(body.submission.submitters)).toEqual([]);
    expect(JSON.stringify(body)).not.toContain(f.submitters[0].slug);
    expect(JSON.stringify(body)).not.toContain(f.submitters[1].slug);
  });

  it('shows a signing token its own signer’s slug, signing_url and embed_src and nobody else’s', async () => {
    const f = await twoSigners();
    const jwt = await mintToken(f.account.token, { resource_type: 'submission', resource_id: f.submissionId, permissions: ['sign'] });
    const body = await read(f.submissionId, jwt);
    const [client] = f.submitters;
    expect(credentialsShown(body.submission.submitters)).toEqual([
      `${client.id}.slug`,
      `${client.id}.signing_url`,
      `${client.id}.embed_src`,
    ]);
    expect(body.submission.submitters[0]).toMatchObject({ slug: client.slug, embed_src: expect.stringContaining(`/s/${client.slug}`) });
    expect(JSON.stringify(body)).not.toContain(f.submitters[1].slug);
    expect(body.options.submitter_id).toBe(client.id);
  });

  it('shows nothing else differently from GET /api/submissions/{id}', async () => {
    const f = await twoSigners();
    const jwt = await mintToken(f.account.token, { resource_type: 'submission', resource_id: f.submissionId, permissions: ['view'] });
    const embedded = (await read(f.submissionId, jwt)).submission;
    const full = (await api('GET', `/api/submissions/${f.submissionId}`, { token: f.account.token })).json;
    const strip = (s: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(s).filter(([key]) => !(CREDENTIALS as readonly string[]).includes(key)));
    expect(embedded).toEqual({ ...full, submitters: full.submitters.map(strip) });
  });
});

describe('POST /api/embed/token: which signer a form token opens', () => {
  it('binds the token to the signer submitter_id names', async () => {
    const f = await twoSigners('parallel');
    const director = f.submitters[1];
    const jwt = await mintToken(f.account.token, { resource_type: 'submission', resource_id: f.submissionId, submitter_id: director.id });
    expect(decodeJwt(jwt).sid).toBe(director.id);
    const body = await read(f.submissionId, jwt);
    expect(body.options.submitter_id).toBe(director.id);
    expect(credentialsShown(body.submission.submitters)).toEqual([
      `${director.id}.slug`,
      `${director.id}.signing_url`,
      `${director.id}.embed_src`,
    ]);
    // Values without submitter_id go into that signer's form.
    const saved = await embedApi('PUT', `/api/embed/submission/${f.submissionId}/values`, jwt, {
      body: { values: { [f.field('Director name')]: 'Dana Director' } },
    });
    expect(saved.status).toBe(200);
    expect(saved.json.submitter_id).toBe(director.id);
  });

  it('binds to the next signer in the submission’s order by default: whose turn it is once the first has signed', async () => {
    const f = await twoSigners('sequential');
    const [client, director] = f.submitters;
    const done = await api('PUT', `/api/submitters/${client.id}`, {
      token: f.account.token,
      body: { values: { 'Client name': 'Carl Client' }, completed: true },
    });
    expect(done.status).toBe(200);
    const jwt = await mintToken(f.account.token, { resource_type: 'submission', resource_id: f.submissionId });
    expect(decodeJwt(jwt).sid).toBe(director.id);
    expect(credentialsShown((await read(f.submissionId, jwt)).submission.submitters)).toEqual([
      `${director.id}.slug`,
      `${director.id}.signing_url`,
      `${director.id}.embed_src`,
    ]);
  });

  it('binds to the first signer by position while nobody has signed', async () => {
    const f = await twoSigners('parallel');
    const jwt = await mintToken(f.account.token, { resource_type: 'submission', resource_id: f.submissionId });
    expect(decodeJwt(jwt).sid).toBe(f.submitters[0].id);
  });

  it('answers 422 with a sentence for a submitter_id of another submission, minting nothing', async () => {
    const f = await twoSigners();
    const other = await signingFixture();
    const res = await api('POST', '/api/embed/token', {
      token: f.account.token,
      body: { resource_type: 'submission', resource_id: f.submissionId, submitter_id: other.submitters[0].id },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(`submitter_id ${other.submitters[0].id} is not a submitter of submission ${f.submissionId}.`);
    expect(res.json.token).toBeUndefined();
  });

  it('answers 422 for a submitter_id on a builder token', async () => {
    const f = await twoSigners();
    const res = await api('POST', '/api/embed/token', {
      token: f.account.token,
      body: { resource_type: 'template', resource_id: f.templateId, submitter_id: f.submitters[0].id },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('submitter_id names a signer of a submission; a template (builder) token has none.');
  });

  it('answers 422 to a signing token when nobody is left to sign, but still mints a view token', async () => {
    const f = await signingFixture();
    const completed = await api('PUT', `/api/submitters/${f.submitters[0].id}`, {
      token: f.account.token,
      body: { values: { 'Full name': 'Done', Signature: 'Done' }, completed: true },
    });
    expect(completed.status).toBe(200);
    const res = await api('POST', '/api/embed/token', {
      token: f.account.token,
      body: { resource_type: 'submission', resource_id: f.submissionId },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/^Nobody is left to sign submission \d+ .*name a signer with submitter_id/);
    expect(await mintToken(f.account.token, { resource_type: 'submission', resource_id: f.submissionId, permissions: ['view'] })).toMatch(
      /^eyJ/,
    );
  });
});

describe('PUT /api/embed/submission/{id}/values: another signer’s form', () => {
  it('answers 403 with a sentence to a token bound to one signer saving into another’s, saving nothing', async () => {
    const f = await twoSigners('parallel');
    const [client, director] = f.submitters;
    const jwt = await mintToken(f.account.token, { resource_type: 'submission', resource_id: f.submissionId, submitter_id: client.id });
    const res = await embedApi('PUT', `/api/embed/submission/${f.submissionId}/values`, jwt, {
      body: { submitter_id: director.id, values: { [f.field('Director name')]: 'Forged' } },
    });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe(`This embed token opens the form of submitter ${client.id} only; it cannot save another signer’s fields.`);
    const read = await api('GET', `/api/submitters/${director.id}`, { token: f.account.token });
    expect(JSON.stringify(read.json.values)).not.toContain('Forged');
  });

  it('answers 403 to a token bound to no signer (one minted before tokens named one)', async () => {
    const f = await twoSigners();
    const jwt = await mintToken(f.account.token, { resource_type: 'submission', resource_id: f.submissionId });
    // The same claims without `sid`, signed with the account's key, as tokens were minted before.
    const claims = decodeJwt(jwt);
    const legacy = await signToken(await storedKey(f.account.accountId), {
      aud: String(claims.aud),
      uid: Number(claims.uid),
      sub: String(claims.sub),
    });
    const res = await embedApi('PUT', `/api/embed/submission/${f.submissionId}/values`, legacy, {
      body: { submitter_id: f.submitters[0].id, values: {} },
    });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('This embed token opens no signer’s form; mint one for a signer (submitter_id) to save values.');
    expect(credentialsShown((await read(f.submissionId, legacy)).submission.submitters)).toEqual([]);
  });
});
