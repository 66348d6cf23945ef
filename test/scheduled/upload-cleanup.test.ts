// The cron deletes signing-page uploads no form keeps once they are 24 hours old, from R2 and D1; it keeps
// uploads a form names and fresh ones, and works in batches far under D1's 100 bound parameters.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { handleScheduled } from '../../src/scheduled';
import { makePdf } from '../fixtures/pdfs';
import { allShards, shardOf } from '../helpers';
import { page, signingFixture, type Fixture, acceptDisclosure } from '../signing/fixtures';

const HOUR = 60 * 60 * 1000;

async function upload(f: Fixture, submitter = 0): Promise<string> {
  const form = new FormData();
  form.append('field_uuid', f.field('Proof'));
  form.append('file', new File([await makePdf(1)], 'proof.pdf'));
  const res = await page('POST', `/s/${f.submitters[submitter].slug}/attachments`, { body: form });
  expect(res.status).toBe(201);
  return res.json.attachment_uuid;
}

/** Moves an upload's creation back in time, as if it had been stored `hours` ago. */
async function age(uuid: string, hours: number, now: number): Promise<void> {
  // The upload is on its account's shard; the uuid is found on exactly one.
  for (const shard of allShards()) {
    await shard
      .prepare('UPDATE signing_uploads SET created_at = ? WHERE uuid = ?')
      .bind(new Date(now - hours * HOUR).toISOString(), uuid)
      .run();
  }
}

async function stored(uuid: string): Promise<{ row: boolean; file: boolean; keptAt: string | null }> {
  const rows = await Promise.all(
    allShards().map((shard) =>
      shard
        .prepare('SELECT r2_key, kept_at FROM signing_uploads WHERE uuid = ?')
        .bind(uuid)
        .first<{ r2_key: string; kept_at: string | null }>(),
    ),
  );
  const row = rows.find((r) => r !== null) ?? null;
  const listed = await env.FILES.list({ prefix: 'attachments/' });
  return { row: row !== null, file: listed.objects.some((o) => o.key.includes(uuid)), keptAt: row?.kept_at ?? null };
}

function fixture() {
  return signingFixture({ fields: [{ name: 'Proof', type: 'file' }] });
}

describe('signing-page upload cleanup', () => {
  it('deletes an upload no value names once it is 25 hours old, from R2 and D1', async () => {
    const now = Date.now();
    const f = await fixture();
    const abandoned = await upload(f);
    await age(abandoned, 25, now);
    await handleScheduled(env, now);
    expect(await stored(abandoned)).toEqual({ row: false, file: false, keptAt: null });
  });

  it('keeps a 25-hour-old upload the form being filled names', async () => {
    const now = Date.now();
    const f = await fixture();
    const named = await upload(f);
    const saved = await page('PUT', `/s/${f.submitters[0].slug}/values`, {
      body: { values: { [f.field('Proof')]: `attachment:${named}` } },
    });
    expect(saved.status).toBe(200);
    await age(named, 25, now);
    await handleScheduled(env, now);
    expect(await stored(named)).toMatchObject({ row: true, file: true });
  });

  it('keeps an unreferenced upload younger than 24 hours', async () => {
    const now = Date.now();
    const f = await fixture();
    const fresh = await upload(f);
    await age(fresh, 23, now);
    await handleScheduled(env, now);
    expect(await stored(fresh)).toMatchObject({ row: true, file: true });
  });

  it('deletes an upload the signer replaced, keeping the one the completed form names, marked kept for good', async () => {
    const now = Date.now();
    const f = await fixture();
    const replaced = await upload(f);
    const submitted = await upload(f);
    await acceptDisclosure(f.submitters[0].slug);
    const res = await page('POST', `/s/${f.submitters[0].slug}/submit`, {
      body: { values: { [f.field('Proof')]: `attachment:${submitted}` } },
    });
    expect(res.status).toBe(200);
    await age(replaced, 25, now);
    await age(submitted, 25, now);
    await handleScheduled(env, now);
    expect(await stored(replaced)).toEqual({ row: false, file: false, keptAt: null });
    expect(await stored(submitted)).toEqual({ row: true, file: true, keptAt: new Date(now).toISOString() });
  });

  it('deletes a declined signer’s upload after 24 hours even though the form names it', async () => {
    const now = Date.now();
    const f = await fixture();
    const named = await upload(f);
    expect(
      (await page('PUT', `/s/${f.submitters[0].slug}/values`, { body: { values: { [f.field('Proof')]: `attachment:${named}` } } })).status,
    ).toBe(200);
    expect((await page('POST', `/s/${f.submitters[0].slug}/decline`, { body: { reason: 'Not mine to sign.' } })).status).toBe(200);
    await age(named, 25, now);
    await handleScheduled(env, now);
    expect(await stored(named)).toEqual({ row: false, file: false, keptAt: null });
  });

  it('deletes a backlog of more than 100 abandoned uploads in one run', async () => {
    const now = Date.now();
    const f = await fixture();
    const submitterId = f.submitters[0].id;
    const keys = Array.from(
      { length: 130 },
      (_, i) => `attachments/${f.account.accountId}/${f.submissionId}/${submitterId}/backlog-${i}.pdf`,
    );
    await Promise.all(keys.map((key) => env.FILES.put(key, 'x')));
    const created = new Date(now - 30 * HOUR).toISOString();
    const shard = await shardOf(f.account.accountId);
    await shard.batch(
      keys.map((key) =>
        shard
          .prepare(
            'INSERT INTO signing_uploads (account_id, submission_id, submitter_id, uuid, r2_key, byte_size, created_at) VALUES (?, ?, ?, ?, ?, 1, ?)',
          )
          .bind(f.account.accountId, f.submissionId, submitterId, crypto.randomUUID(), key, created),
      ),
    );
    await handleScheduled(env, now);
    const left = await shard
      .prepare('SELECT count(*) AS n FROM signing_uploads WHERE submission_id = ?')
      .bind(f.submissionId)
      .first<{ n: number }>();
    expect(left!.n).toBe(0);
    expect((await env.FILES.list({ prefix: `attachments/${f.account.accountId}/${f.submissionId}/` })).objects).toHaveLength(0);
  });
});
