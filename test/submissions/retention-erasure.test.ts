// Retention and erasure (issue 33 › 5): the account's retention period and the template override, legal
// holds, the permanent delete that erases, the purge step, and a purge racing a legal hold.
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { shardScope, type ShardScope } from '../../src/db/shards';
import { sealSubmission } from '../../src/services/sealing/seal-submission';
import { purgeExpiredSubmissions } from '../../src/services/submissions/purge-submissions';
import { claimErasure, listDuePurges } from '../../src/db/queries/retention';
import { eraseSubmission } from '../../src/services/submissions/erase-submission';
import { loadScope } from '../../src/services/submissions/submission-scope';
import { findSubmissionById } from '../../src/db/queries/submissions';
import { mint, open, seal, submissionOf } from '../document-link-fixtures';
import { addUser, api, createAccount, shardOf, type TestAccount } from '../helpers';
import { completedInOrder, createTemplate, shardNumberOf, type TemplateFixture } from '../submission-fixtures';

const DAY = 86_400_000;
let owner: TestAccount;
let single: TemplateFixture;
let scope: ShardScope;

beforeAll(async () => {
  owner = await createAccount({ plan: 'pro' });
  single = await createTemplate(owner.token, ['Buyer']);
  scope = shardScope(env, await shardNumberOf(owner.accountId));
});

/** A completed, sealed submission of `template`. */
async function sealedSubmission(account = owner, template = single): Promise<number> {
  const id = await completedInOrder(account.token, template, 'ses', { Buyer: 'Buyer Person' });
  const accountScope = shardScope(env, await shardNumberOf(account.accountId));
  expect(await sealSubmission(accountScope.env, accountScope, id)).toBe('sealed');
  return id;
}

async function sealedFiles(accountId: number, id: number) {
  return (await env.FILES.list({ prefix: `sealed/${accountId}/${id}/` })).objects.length;
}

/** Moves the submission's retention date into the past, as if its period had run out. */
async function pastRetention(id: number) {
  await (await shardOf(owner.accountId))
    .prepare('UPDATE submissions SET purge_at = ? WHERE id = ?')
    .bind(new Date(Date.now() - 1000).toISOString(), id)
    .run();
}

async function row(id: number) {
  return (await shardOf(owner.accountId))
    .prepare('SELECT erased_at, erasure_started_at, legal_hold_at, purge_at FROM submissions WHERE id = ?')
    .bind(id)
    .first<{ erased_at: string | null; erasure_started_at: string | null; legal_hold_at: string | null; purge_at: string | null }>();
}

async function submitterValues(id: number) {
  const r = await (await shardOf(owner.accountId))
    .prepare('SELECT "values" AS v, email FROM submitters WHERE submission_id = ?')
    .bind(id)
    .first<{ v: string; email: string }>();
  return { values: JSON.parse(r!.v) as Record<string, unknown>, email: r!.email };
}

async function trailActions(id: number) {
  const rows = await (await shardOf(owner.accountId))
    .prepare('SELECT action, data FROM submission_events WHERE submission_id = ? ORDER BY id')
    .bind(id)
    .all<{ action: string; data: string }>();
  return rows.results.map((r) => ({ action: r.action, data: JSON.parse(r.data) }));
}

async function sha256(text: string) {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return `sha256:${[...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

describe('PUT/GET /api/settings/retention', () => {
  it('stores documents_days and reads it back; null keeps documents', async () => {
    const a = await createAccount();
    expect((await api('GET', '/api/settings/retention', { token: a.token })).json).toEqual({ documents_days: null });
    const put = await api('PUT', '/api/settings/retention', { token: a.token, body: { documents_days: 30 } });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({ documents_days: 30 });
    expect((await api('GET', '/api/settings/retention', { token: a.token })).json).toEqual({ documents_days: 30 });
  });

  it('refuses a period that is not a whole number of days from 1, with a sentence', async () => {
    const a = await createAccount();
    // A value of the wrong type is a 400 (api-spec › Errors), as everywhere.
    expect((await api('PUT', '/api/settings/retention', { token: a.token, body: { documents_days: '30' } })).status).toBe(400);
    for (const body of [{ documents_days: 0 }, { documents_days: 1.5 }, { documents_days: 40_000 }]) {
      const res = await api('PUT', '/api/settings/retention', { token: a.token, body });
      expect(res.status, JSON.stringify({ body, answer: res.json })).toBe(422);
      expect(JSON.stringify(res.json.error)).toContain('documents_days');
    }
    expect((await api('GET', '/api/settings/retention', { token: a.token })).json).toEqual({ documents_days: null });
  });

  it('answers 401 without a token, 403 without account scopes and 403 for a non-admin', async () => {
    expect((await api('PUT', '/api/settings/retention', { body: { documents_days: 5 } })).status).toBe(401);
    const reader = await addUser(owner.accountId, 'admin', ['account:read']);
    const res = await api('PUT', '/api/settings/retention', { token: reader.token, body: { documents_days: 5 } });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: account:write');
    const editor = await addUser(owner.accountId, 'editor');
    expect((await api('PUT', '/api/settings/retention', { token: editor.token, body: { documents_days: 5 } })).status).toBe(403);
  });

  it('dates erasure from completion: the template’s retention_days, else the account’s, and reschedules earlier ones', async () => {
    const a = await createAccount({ plan: 'pro' });
    const template = await createTemplate(a.token, ['Buyer']);
    const kept = await completedInOrder(a.token, template, 'ses', { Buyer: 'B' });
    const read = async (id: number) => (await api('GET', `/api/submissions/${id}`, { token: a.token })).json;
    expect((await read(kept)).retained_until).toBeNull();

    await api('PUT', '/api/settings/retention', { token: a.token, body: { documents_days: 10 } });
    const earlier = await read(kept);
    expect(Date.parse(earlier.retained_until) - Date.parse(earlier.completed_at)).toBe(10 * DAY);
    const later = await read(await completedInOrder(a.token, template, 'ses', { Buyer: 'B' }));
    expect(Date.parse(later.retained_until) - Date.parse(later.completed_at)).toBe(10 * DAY);

    expect(
      (await api('PUT', `/api/templates/${template.id}`, { token: a.token, body: { preferences: { retention_days: 2 } } })).status,
    ).toBe(200);
    const overridden = await read(await completedInOrder(a.token, template, 'ses', { Buyer: 'B' }));
    expect(Date.parse(overridden.retained_until) - Date.parse(overridden.completed_at)).toBe(2 * DAY);

    await api('PUT', '/api/settings/retention', { token: a.token, body: { documents_days: null } });
    expect((await read(kept)).retained_until).toBeNull();
    expect((await read(overridden.id)).retained_until).not.toBeNull();
  });
});

describe('the purge step', () => {
  it('erases a submission past its retention: files and values gone, hashes, trail and a receipt kept, GET says when', async () => {
    const id = await sealedSubmission();
    const before = await submitterValues(id);
    const sealed = (await api('GET', `/api/submissions/${id}/documents`, { token: owner.token })).json;
    expect(await sealedFiles(owner.accountId, id)).toBeGreaterThan(0);
    await pastRetention(id);

    const counts = await purgeExpiredSubmissions(scope, Date.now(), 100);
    expect(counts.erased).toBeGreaterThanOrEqual(1);
    expect(await sealedFiles(owner.accountId, id)).toBe(0);

    const after = await submitterValues(id);
    for (const [key, value] of Object.entries(before.values)) expect(after.values[key]).toBe(await sha256(JSON.stringify(value)));
    expect(after.email).toBe(await sha256(JSON.stringify(before.email)));

    const gone = await api('GET', `/api/submissions/${id}`, { token: owner.token });
    expect(gone.status).toBe(410);
    expect(gone.json.error).toContain('was erased on');
    expect(gone.json.erased_at).toBe((await row(id))!.erased_at);
    expect((await api('GET', `/api/submissions/${id}/documents`, { token: owner.token })).status).toBe(410);
    const listed = (await api('GET', '/api/submissions?limit=100', { token: owner.token })).json.data.map((s: { id: number }) => s.id);
    expect(listed).not.toContain(id);

    const trail = await trailActions(id);
    expect(trail.map((t) => t.action)).toEqual(expect.arrayContaining(['created', 'completed', 'submission_completed']));
    const receipt = trail.at(-1)!;
    expect(receipt.action).toBe('erased');
    expect(receipt.data.reason).toBe('retention');
    expect(receipt.data.documents.map((d: { sha256: string }) => d.sha256)).toEqual(
      sealed.documents.map((d: { sha256: string }) => d.sha256),
    );
    const audit = await (await shardOf(owner.accountId))
      .prepare("SELECT actor FROM audit_events WHERE action = 'submission.erase' AND resource_id = ?")
      .bind(String(id))
      .first<{ actor: string }>();
    expect(audit?.actor).toBe('retention');
  });

  it('leaves submissions not yet due, and does nothing more on a second run', async () => {
    const id = await sealedSubmission();
    await (await shardOf(owner.accountId))
      .prepare('UPDATE submissions SET purge_at = ? WHERE id = ?')
      .bind(new Date(Date.now() + DAY).toISOString(), id)
      .run();
    await purgeExpiredSubmissions(scope, Date.now(), 100);
    expect((await api('GET', `/api/submissions/${id}`, { token: owner.token })).status).toBe(200);
    await pastRetention(id);
    await purgeExpiredSubmissions(scope, Date.now(), 100);
    const erasedAt = (await row(id))!.erased_at;
    await purgeExpiredSubmissions(scope, Date.now(), 100);
    expect((await row(id))!.erased_at).toBe(erasedAt);
    expect((await trailActions(id)).filter((t) => t.action === 'erased')).toHaveLength(1);
  });
});

describe('legal holds', () => {
  it('keeps a held submission from retention and from a permanent delete, until released', async () => {
    const id = await sealedSubmission();
    const held = await api('POST', `/api/submissions/${id}/legal_hold`, { token: owner.token, body: { reason: 'Case 2026-17' } });
    expect(held.status).toBe(200);
    expect(held.json).toMatchObject({ id, legal_hold: true, retained_until: null });
    expect(held.json.legal_hold_at).not.toBeNull();
    await pastRetention(id);
    await purgeExpiredSubmissions(scope, Date.now(), 100);
    expect((await row(id))!.erased_at).toBeNull();
    expect(await sealedFiles(owner.accountId, id)).toBeGreaterThan(0);

    const refused = await api('DELETE', `/api/submissions/${id}?permanently=true`, { token: owner.token });
    expect(refused.status).toBe(409);
    expect(refused.json.error).toContain('under a legal hold');
    expect(await sealedFiles(owner.accountId, id)).toBeGreaterThan(0);

    const released = await api('DELETE', `/api/submissions/${id}/legal_hold`, { token: owner.token });
    expect(released.status).toBe(200);
    expect(released.json.legal_hold).toBe(false);
    await purgeExpiredSubmissions(scope, Date.now(), 100);
    expect((await row(id))!.erased_at).not.toBeNull();
    expect((await trailActions(id)).map((t) => t.action)).toEqual(
      expect.arrayContaining(['legal_hold_set', 'legal_hold_released', 'erased']),
    );
  });

  it('answers 401, 403 without submissions:write, 403 for a non-admin, 404 for another account’s, 422 for a bad body', async () => {
    const id = await completedInOrder(owner.token, single, 'ses', { Buyer: 'B' });
    const path = `/api/submissions/${id}/legal_hold`;
    expect((await api('POST', path)).status).toBe(401);
    const reader = await addUser(owner.accountId, 'admin', ['submissions:read']);
    const scoped = await api('POST', path, { token: reader.token });
    expect(scoped.status).toBe(403);
    expect(scoped.json.error).toBe('Insufficient scope. Required: submissions:write');
    const editor = await addUser(owner.accountId, 'editor');
    expect((await api('POST', path, { token: editor.token })).status).toBe(403);
    const other = await createAccount();
    expect((await api('POST', path, { token: other.token })).status).toBe(404);
    expect((await api('DELETE', path, { token: other.token })).status).toBe(404);
    const bad = await api('POST', path, { token: owner.token, body: { reason: 'x'.repeat(501) } });
    expect(bad.status).toBe(422);
    expect((await row(id))!.legal_hold_at).toBeNull();
  });
});

describe('DELETE /api/submissions/{id}?permanently=true', () => {
  it('erases at once for an admin, and answers 410 afterwards', async () => {
    const id = await sealedSubmission();
    const res = await api('DELETE', `/api/submissions/${id}?permanently=true`, { token: owner.token });
    expect(res.status).toBe(204);
    expect(await sealedFiles(owner.accountId, id)).toBe(0);
    expect((await trailActions(id)).at(-1)).toMatchObject({ action: 'erased', data: { reason: 'request', user_id: owner.userId } });
    expect((await api('GET', `/api/submissions/${id}`, { token: owner.token })).status).toBe(410);
    expect((await api('POST', `/api/submissions/${id}/legal_hold`, { token: owner.token })).status).toBe(410);
  });

  it('ends the public links to its documents: they and new mints answer 410', async () => {
    const s = await submissionOf(owner);
    await seal(owner, s.id);
    const link = await mint(owner, s);
    expect(link.status).toBe(201);
    expect((await open(link.json.url)).status).toBe(200);
    expect((await api('DELETE', `/api/submissions/${s.id}?permanently=true`, { token: owner.token })).status).toBe(204);
    const refused = await open(link.json.url);
    expect(refused.status).toBe(410);
    expect(refused.text).toContain('erased');
    expect((await mint(owner, s)).status).toBe(410);
  });

  it('is refused to a non-admin writer and to another account, changing nothing', async () => {
    const id = await sealedSubmission();
    const editor = await addUser(owner.accountId, 'editor');
    const refused = await api('DELETE', `/api/submissions/${id}?permanently=true`, { token: editor.token });
    expect(refused.status).toBe(403);
    expect(refused.json.error).toBe('Only account admins can erase a submission permanently.');
    const other = await createAccount();
    expect((await api('DELETE', `/api/submissions/${id}?permanently=true`, { token: other.token })).status).toBe(404);
    expect((await row(id))!.erasure_started_at).toBeNull();
    expect(await sealedFiles(owner.accountId, id)).toBeGreaterThan(0);
  });

  it('erases a pending submission too: archived, its signing link no longer signs', async () => {
    const res = await api('POST', '/api/submissions', {
      token: owner.token,
      body: { template_id: single.id, submitters: [{ role: 'Buyer', email: 'pending@example.com' }] },
    });
    expect((await api('DELETE', `/api/submissions/${res.json.id}?permanently=true`, { token: owner.token })).status).toBe(204);
    const status = await (await shardOf(owner.accountId))
      .prepare('SELECT status FROM submissions WHERE id = ?')
      .bind(res.json.id)
      .first<{ status: string }>();
    expect(status!.status).toBe('archived');
    expect((await api('GET', `/s/${res.json.submitters[0].slug}`)).status).toBe(404);
    expect((await api('GET', `/api/submitters/${res.json.submitters[0].id}`, { token: owner.token })).status).toBe(410);
  });
});

describe('a purge racing a legal hold', () => {
  it('lets a hold set after the purge read the row win: the erasure touches nothing', async () => {
    const id = await sealedSubmission();
    await pastRetention(id);
    const now = new Date().toISOString();
    const listed = (await listDuePurges(scope.db, now, now, 1000)).find((s) => s.id === id);
    expect(listed).toBeDefined();
    const stale = await loadScope(scope.db, listed!);
    expect((await api('POST', `/api/submissions/${id}/legal_hold`, { token: owner.token })).status).toBe(200);
    expect(await eraseSubmission(scope.db, env.FILES, stale, { reason: 'retention' })).toBe('held');
    const state = (await row(id))!;
    expect(state.erasure_started_at).toBeNull();
    expect(state.erased_at).toBeNull();
    expect(await sealedFiles(owner.accountId, id)).toBeGreaterThan(0);
    expect(Object.values((await submitterValues(id)).values).some((v) => String(v).startsWith('sha256:'))).toBe(false);
  });

  it('refuses a hold once an erasure has claimed the submission, and finishes an erasure a crash cut short', async () => {
    const id = await sealedSubmission();
    // An erasure that claimed the row 10 minutes ago and died before deleting anything.
    expect(await claimErasure(scope.db, id, new Date(Date.now() - 10 * 60_000).toISOString())).toBe(true);
    const hold = await api('POST', `/api/submissions/${id}/legal_hold`, { token: owner.token });
    expect(hold.status).toBe(410);
    expect(hold.json.error).toContain('being erased');
    expect((await row(id))!.legal_hold_at).toBeNull();
    await purgeExpiredSubmissions(scope, Date.now(), 100);
    expect((await row(id))!.erased_at).not.toBeNull();
    expect(await sealedFiles(owner.accountId, id)).toBe(0);
  });

  it('ends with the hold or the erasure, never half of either', async () => {
    const ids = await Promise.all([0, 1, 2, 3, 4, 5].map(() => sealedSubmission()));
    // The purge takes them oldest first; the holds come newest first, so the two meet in the middle.
    const db = await shardOf(owner.accountId);
    for (const [i, id] of ids.entries()) {
      await db
        .prepare('UPDATE submissions SET purge_at = ? WHERE id = ?')
        .bind(new Date(Date.now() - (ids.length - i) * 1000).toISOString(), id)
        .run();
    }
    const holding = [...ids].reverse().map((id) => api('POST', `/api/submissions/${id}/legal_hold`, { token: owner.token }));
    const [, ...answers] = await Promise.all([purgeExpiredSubmissions(scope, Date.now(), 100), ...holding]);
    const holds = [...answers].reverse();
    for (const [i, id] of ids.entries()) {
      const state = (await row(id))!;
      const { values } = await submitterValues(id);
      const files = await sealedFiles(owner.accountId, id);
      const hashed = Object.values(values).every((v) => typeof v === 'string' && v.startsWith('sha256:'));
      if (state.legal_hold_at) {
        // The hold won: nothing of it was touched.
        expect(holds[i].status).toBe(200);
        expect(state.erasure_started_at).toBeNull();
        expect(files).toBeGreaterThan(0);
        expect(hashed).toBe(false);
      } else {
        // The purge won: the hold was refused and the erasure is whole.
        expect([409, 410]).toContain(holds[i].status);
        expect(state.erased_at).not.toBeNull();
        expect(files).toBe(0);
        expect(hashed).toBe(true);
      }
    }
  });
});

describe('an erasure claiming a submission while it is sealed', () => {
  it('records no sealed document and leaves no sealed file when the claim lands between the file and its row', async () => {
    const id = await completedInOrder(owner.token, single, 'ses', { Buyer: 'Buyer Person' });
    const db = await shardOf(owner.accountId);
    // The sealing job stores the sealed file; the erasure claims the submission before the job records it.
    const files = new Proxy(env.FILES, {
      get: (target, prop) =>
        prop === 'put'
          ? async (...args: Parameters<R2Bucket['put']>) => {
              const stored = await target.put(...args);
              expect(await claimErasure(scope.db, id, new Date().toISOString())).toBe(true);
              return stored;
            }
          : Reflect.get(target, prop).bind(target),
    });
    const jobScope = shardScope(env, await shardNumberOf(owner.accountId));

    expect(await sealSubmission({ ...jobScope.env, FILES: files }, jobScope, id)).toBe('missing');

    expect(await sealedFiles(owner.accountId, id)).toBe(0);
    expect(await db.prepare('SELECT count(*) AS n FROM submission_documents WHERE submission_id = ?').bind(id).first('n')).toBe(0);
    expect((await row(id))!.erasure_started_at).not.toBeNull();
    // The erasure then goes on and finishes, with nothing of the seal left behind.
    const submission = await findSubmissionById(scope.db, id);
    expect(await eraseSubmission(scope.db, env.FILES, await loadScope(scope.db, submission!), { reason: 'retention' })).toBe('erased');
    expect((await row(id))!.erased_at).not.toBeNull();
    expect(await sealedFiles(owner.accountId, id)).toBe(0);
  });
});
