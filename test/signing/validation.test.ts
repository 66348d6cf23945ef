// The signing page's JSON bodies are validated by their route declarations (signing.routes.ts). A body
// that is not even a JSON object is the signer's sentence (in their language: signer-errors.test.ts); a
// member's problem names the member.
import { describe, expect, it } from 'vitest';
import { page, signingFixture, submitterRow, acceptDisclosure } from './fixtures';

const MALFORMED = 'The page sent something that could not be read. Reload the page and try again.';

describe('signing page request bodies', () => {
  it('answers a body that is not a JSON object with a sentence', async () => {
    const f = await signingFixture();
    const res = await page('POST', `/s/${f.submitters[0].slug}/decline`, { body: [] });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe(MALFORMED);
  });

  it('answers text that is not JSON with a sentence', async () => {
    const f = await signingFixture();
    await acceptDisclosure(f.submitters[0].slug);
    const res = await page('POST', `/s/${f.submitters[0].slug}/submit`, {
      body: '{"values":',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe(MALFORMED);
  });

  it('asks for a JSON route body sent as application/json', async () => {
    const f = await signingFixture();
    const res = await page('POST', `/s/${f.submitters[0].slug}/decline`, {
      body: '{"reason":"Wrong amount"}',
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe(MALFORMED);
    expect((await submitterRow(f.submitters[0].id)).status).not.toBe('declined');
  });

  it('refuses values that are not an object of field uuid to value', async () => {
    const f = await signingFixture();
    const res = await page('PUT', `/s/${f.submitters[0].slug}/values`, { body: { values: ['Ann'] } });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('values must be an object of field uuid to value.');
  });

  it('takes a missing or null values as none', async () => {
    const f = await signingFixture();
    expect((await page('PUT', `/s/${f.submitters[0].slug}/values`, { body: {} })).status).toBe(200);
    expect((await page('PUT', `/s/${f.submitters[0].slug}/values`, { body: { values: null } })).status).toBe(200);
  });

  it('says a null required member is required, and a member of another type must be a string', async () => {
    const f = await signingFixture();
    const missing = await page('POST', `/s/${f.submitters[0].slug}/delegate`, { body: { email: null } });
    expect(missing.status).toBe(400);
    expect(missing.json.error).toBe('email is required.');
    const number = await page('POST', `/s/${f.submitters[0].slug}/decline`, { body: { reason: 5 } });
    expect(number.status).toBe(400);
    expect(number.json.error).toBe('reason must be a string.');
  });

  it('takes a null optional member as none', async () => {
    const f = await signingFixture();
    const declined = await page('POST', `/s/${f.submitters[0].slug}/decline`, { body: { reason: null } });
    expect(declined.status).toBe(422);
    expect(declined.json.error).toBe('Give a reason for declining.');
    const delegated = await page('POST', `/s/${f.submitters[0].slug}/delegate`, { body: { email: 'deputy@example.com', name: null } });
    expect(delegated.status).toBe(200);
    expect(delegated.json.delegated_to).toEqual({ email: 'deputy@example.com', name: '' });
    expect((await submitterRow(f.submitters[0].id)).status).not.toBe('declined');
  });
});
