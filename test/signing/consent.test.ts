// The electronic records disclosure (issue 18 › 5): shown before the form, accepted once per signer,
// required before submitting, and printed on the sealed audit trail.
import { createExecutionContext, createMessageBatch, env, SELF, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../src/index';
import { DISCLOSURE_SHA256, disclosureSha256, englishDisclosure } from '../../src/services/signing/consent-disclosure';
import type { SealingQueueBody } from '../../src/env';
import type { ShardStamp } from '../../src/lib/shard-queues';
import { checkPdf } from '../pdf-tools';
import { api, shardOf } from '../helpers';
import { shardNumberOf } from '../submission-fixtures';
import { acceptDisclosure, page, signingFixture, submitterRow } from './fixtures';

const DISCLOSURE = englishDisclosure();

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) ConsentTest/1.0';

async function seal(accountId: number, submissionId: number) {
  const shard = await shardNumberOf(accountId);
  const batch = createMessageBatch<SealingQueueBody & ShardStamp>('signing-service-sealing', [
    { id: `c${submissionId}`, timestamp: new Date(), attempts: 1, body: { type: 'seal', submissionId, shard } },
  ]);
  const ctx = createExecutionContext();
  await worker.queue(batch, env, ctx);
  await waitOnExecutionContext(ctx);
}

async function consentRows(accountId: number, submitterId: number) {
  const shard = await shardOf(accountId);
  const rows = await shard
    .prepare("SELECT ip, user_agent, data, created_at FROM submission_events WHERE submitter_id = ? AND action = 'disclosure_accepted'")
    .bind(submitterId)
    .all<{ ip: string | null; user_agent: string | null; data: string; created_at: string }>();
  return rows.results;
}

describe('the electronic records disclosure', () => {
  it('keeps its SHA-256 equal to the hash of its text, so a changed text needs a new version', async () => {
    expect(await disclosureSha256(DISCLOSURE)).toBe(DISCLOSURE_SHA256);
  });

  it('covers paper copies, withdrawal, hardware and software, and contact details', () => {
    const headings = DISCLOSURE.sections.map((s) => s.heading);
    expect(headings).toEqual([
      'Electronic records and signatures',
      'Your right to a paper copy',
      'Withdrawing your consent',
      'Hardware and software you need',
      'Keeping your contact information up to date',
    ]);
  });

  it('is shown before the form with a labelled checkbox until the signer accepts it', async () => {
    const f = await signingFixture();
    const slug = f.submitters[0].slug;
    const before = await (await SELF.fetch(`https://api.test/s/${slug}`)).text();
    expect(before).toContain('id="disclosure-accept"');
    expect(before).toContain('<label for="disclosure-accept">');
    expect(before).toContain('Your right to a paper copy');
    await acceptDisclosure(slug);
    const after = await (await SELF.fetch(`https://api.test/s/${slug}`)).text();
    expect(after).not.toContain('id="disclosure-accept"');
  });

  it('refuses to complete a signer who has not accepted it, with a sentence', async () => {
    const f = await signingFixture();
    const res = await page('POST', `/s/${f.submitters[0].slug}/submit`, {
      body: { values: { [f.field('Full name')]: 'Ann', [f.field('Signature')]: 'Ann' } },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      'Accept the electronic records disclosure on the signing page before signing: tick "I agree" and continue.',
    );
    expect((await submitterRow(f.submitters[0].id)).status).not.toBe('completed');
  });

  it('records the acceptance once, with version, hash, time, address and user agent', async () => {
    const f = await signingFixture();
    const slug = f.submitters[0].slug;
    const first = await acceptDisclosure(slug, { 'User-Agent': BROWSER, 'CF-Connecting-IP': '203.0.113.7' });
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ version: DISCLOSURE.version, language: 'en', accepted_at: expect.any(String) });
    const again = await acceptDisclosure(slug, { 'User-Agent': BROWSER });
    expect(again.json.accepted_at).toBe(first.json.accepted_at);
    const rows = await consentRows(f.account.accountId, f.submitters[0].id);
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0].data)).toEqual({ version: DISCLOSURE.version, sha256: DISCLOSURE_SHA256, language: 'en' });
    expect(rows[0]).toMatchObject({ ip: '203.0.113.7', user_agent: BROWSER, created_at: first.json.accepted_at });
    expect(await submitterRow(f.submitters[0].id)).toMatchObject({
      disclosure_version: DISCLOSURE.version,
      disclosure_accepted_at: first.json.accepted_at,
    });
  });

  it('is an account audit event at GET /api/audit_events with the version and hash, once, without the signing link', async () => {
    const f = await signingFixture();
    const slug = f.submitters[0].slug;
    const first = await acceptDisclosure(slug, { 'User-Agent': BROWSER, 'CF-Connecting-IP': '203.0.113.8' });
    expect(first.status).toBe(200);
    await acceptDisclosure(slug, { 'User-Agent': BROWSER });
    const res = await api('GET', '/api/audit_events?action=submitter.disclosure_accepted', { token: f.account.token });
    expect(res.status).toBe(200);
    expect(res.json.data).toHaveLength(1);
    expect(res.json.data[0]).toMatchObject({
      action: 'submitter.disclosure_accepted',
      resource_type: 'submitter',
      resource_id: String(f.submitters[0].id),
      actor: `signer:${f.submitters[0].email}`,
      method: 'POST',
      path: '/s/{slug}/consent',
      status: 200,
      ip: '203.0.113.8',
      user_agent: BROWSER,
      created_at: first.json.accepted_at,
      details: {
        submission_id: f.submissionId,
        disclosure_version: DISCLOSURE.version,
        disclosure_sha256: DISCLOSURE_SHA256,
        disclosure_language: 'en',
        accepted_at: first.json.accepted_at,
      },
    });
    expect(JSON.stringify(res.json.data[0])).not.toContain(slug);
  });

  it('records one acceptance when two arrive at the same moment', async () => {
    const f = await signingFixture();
    const slug = f.submitters[0].slug;
    const answers = await Promise.all([acceptDisclosure(slug), acceptDisclosure(slug), acceptDisclosure(slug)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(await consentRows(f.account.accountId, f.submitters[0].id)).toHaveLength(1);
  });

  it('refuses a version other than the current one with a sentence', async () => {
    const f = await signingFixture();
    const res = await page('POST', `/s/${f.submitters[0].slug}/consent`, { body: { version: '2001-01-01' } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      `Disclosure version 2001-01-01 is not the current one (${DISCLOSURE.version}); reload the page and read the current disclosure.`,
    );
  });

  it('answers 404 for an unknown link', async () => {
    const res = await page('POST', '/s/NoSuchSlug000000/consent', { body: { version: DISCLOSURE.version } });
    expect(res.status).toBe(404);
  });

  it('asks a delegate to accept it afresh', async () => {
    const f = await signingFixture();
    const slug = f.submitters[0].slug;
    await acceptDisclosure(slug);
    const delegated = await page('POST', `/s/${slug}/delegate`, { body: { email: 'deputy@example.com', name: 'Dep' } });
    expect(delegated.status).toBe(200);
    expect(await submitterRow(f.submitters[0].id)).toMatchObject({ disclosure_version: null, disclosure_accepted_at: null });
  });

  it('appears on the audit trail page of the sealed PDF', async () => {
    const f = await signingFixture();
    const slug = f.submitters[0].slug;
    await acceptDisclosure(slug, { 'User-Agent': BROWSER });
    const done = await page('POST', `/s/${slug}/submit`, {
      body: { values: { [f.field('Full name')]: 'Con Sent', [f.field('Signature')]: 'Con' } },
    });
    expect(done.status).toBe(200);
    await seal(f.account.accountId, f.submissionId);
    const pdf = await SELF.fetch(`https://api.test/s/${slug}/download`);
    expect(pdf.status).toBe(200);
    const { pdfsig, text } = await checkPdf(new Uint8Array(await pdf.arrayBuffer()));
    expect(pdfsig.output).toContain('Signature is Valid.');
    const flat = text.output.replace(/\s+/g, ' ');
    expect(flat).toContain(`Accepted the electronic records disclosure version ${DISCLOSURE.version} (SHA-256 ${DISCLOSURE_SHA256})`);
    expect(flat).toContain('ConsentTest/1.0');
  });
});
