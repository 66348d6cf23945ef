// A submission's scope (its submitters, members, template version, template id and documents) is read in
// one D1 call, and so are the scopes of a list page whatever their number: every API read of a
// submission or submitter, every signing page and every seal loads one. Each extra call is a round trip
// to the database, and five of them went out at once before.
import { beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db/client';
import { observeD1, withD1Observers } from '../../src/db/observed-d1';
import { findSubmission, submissionIdOf, submissionIdOfSubmitter } from '../../src/db/queries/submissions';
import { submissionIdOfSlug } from '../../src/db/queries/submitter-members';
import type { Submission } from '../../src/db/schema/index';
import { findScope, loadScope, loadScopes } from '../../src/services/submissions/submission-scope';
import { api, createAccount, shardOf, type TestAccount } from '../helpers';
import { createTemplate, type TemplateFixture } from '../submission-fixtures';

let owner: TestAccount;
let template: TemplateFixture;
let db: Db;

beforeAll(async () => {
  owner = await createAccount();
  template = await createTemplate(owner.token, ['Buyer', 'Seller']);
  db = createDb(await shardOf(owner.accountId));
});

async function send(): Promise<Submission> {
  const res = await api('POST', '/api/submissions', {
    token: owner.token,
    body: {
      template_id: template.id,
      send_email: false,
      submitters: [
        { role: 'Buyer', email: 'buyer@example.com' },
        { role: 'Seller', email: 'seller@example.com' },
      ],
    },
  });
  expect(res.status).toBe(201);
  return (await findSubmission(db, owner.accountId, res.json.id))!;
}

/** What `work` returns and how many D1 calls it made. */
async function counted<T>(work: () => Promise<T>): Promise<[T, number]> {
  let calls = 0;
  const value = await withD1Observers(() => {
    observeD1((_call, run) => {
      calls += 1;
      return run();
    });
    return work();
  });
  return [value, calls];
}

describe('a submission’s scope', () => {
  it('is read in one call: its submitters in order, its template as sent and its documents', async () => {
    const submission = await send();
    const [scope, calls] = await counted(() => loadScope(db, submission));
    expect(calls).toBe(1);
    expect(scope.submitters.map((s) => [s.role, s.email])).toEqual([
      ['Buyer', 'buyer@example.com'],
      ['Seller', 'seller@example.com'],
    ]);
    expect(scope.template.publicId).toBe(template.id);
    expect(scope.template.roles.map((r) => r.name)).toEqual(['Buyer', 'Seller']);
    expect(scope.template.fields.map((f) => f.name)).toEqual(template.fields.map((f: { name: string }) => f.name));
    expect(scope.template.documents.map((d) => d.id)).toEqual(submission.documentIds);
    expect(scope.template.documents).toHaveLength(1);
  });

  it('of a list page are read in one call, each with its own submitters', async () => {
    const list = [await send(), await send(), await send()];
    const [scopes, calls] = await counted(() => loadScopes(db, list));
    expect(calls).toBe(1);
    expect(scopes.map((s) => s.submission.id)).toEqual(list.map((s) => s.id));
    expect(scopes.map((s) => s.submitters.map((x) => x.submissionId))).toEqual(list.map((s) => [s.id, s.id]));
    const [none, noCalls] = await counted(() => loadScopes(db, []));
    expect([none, noCalls]).toEqual([[], 0]);
  });

  it('is found with its submission in the same call, by id, slug, submitter or signing link, within the account', async () => {
    const submission = await send();
    const expected = await loadScope(db, submission);
    const [buyer, seller] = expected.submitters;
    for (const id of [
      submissionIdOf(db, owner.accountId, submission.id),
      submissionIdOf(db, owner.accountId, submission.slug),
      submissionIdOfSubmitter(db, owner.accountId, seller.id),
      submissionIdOfSubmitter(db, owner.accountId, seller.slug),
      submissionIdOfSlug(db, owner.accountId, buyer.slug),
    ]) {
      const [scope, calls] = await counted(() => findScope(db, id));
      expect(calls).toBe(1);
      expect(scope).toEqual(expected);
    }
    // Another account's submission, or no such link, is not found (and nothing else is read after).
    const other = await createAccount();
    for (const id of [
      submissionIdOf(db, other.accountId, submission.id),
      submissionIdOfSubmitter(db, other.accountId, seller.id),
      submissionIdOfSlug(db, other.accountId, buyer.slug),
      submissionIdOfSlug(db, owner.accountId, 'no-such-link'),
    ]) {
      expect(await counted(() => findScope(db, id))).toEqual([undefined, 1]);
    }
  });
});
