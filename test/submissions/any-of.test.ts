// Issue 33 › 2: any one of several people signs. Each person gets their own link; the first to complete
// becomes the submitter (name and email), the trail names them and the group they were chosen from, the
// others' links then say who signed; two completing at once → exactly one.
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import worker from '../../src/index';
import { auditTrailFor } from '../../src/services/sealing/audit-trail';
import { api, createAccount, shardOf, type TestAccount } from '../helpers';
import { acceptDisclosure, page } from '../signing/fixtures';
import { completeValues, createTemplate, messagesTo, outboxRows, type TemplateFixture } from '../submission-fixtures';

let owner: TestAccount;
let template: TemplateFixture;

beforeAll(async () => {
  owner = await createAccount({ plan: 'pro' });
  template = await createTemplate(owner.token, ['Approver']);
});

type Person = { email: string; name: string | null; signing_url: string; completed_at: string | null };
type Created = {
  id: number;
  submitters: { id: number; slug: string; email: string; name: string | null; status: string; emails?: Person[] }[];
};

const people = () => {
  const tag = crypto.randomUUID().slice(0, 8);
  return ['ann', 'ben', 'cat'].map((n) => ({ email: `${n}-${tag}@example.com`, name: `${n[0].toUpperCase()}${n.slice(1)} ${tag}` }));
};

async function createAnyOf(submitter: Record<string, unknown>): Promise<Created> {
  const res = await api('POST', '/api/submissions', {
    token: owner.token,
    body: { template_id: template.id, submitters: [{ role: 'Approver', ...submitter }] },
  });
  if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
  return res.json;
}

/** The role's values keyed by field uuid, as the signing page sends them. */
function pageValues(): Record<string, unknown> {
  const byName = completeValues('Approver');
  return Object.fromEntries(template.fields.filter((f) => f.name in byName).map((f) => [f.uuid, byName[f.name as keyof typeof byName]]));
}

const slugOf = (url: string) => url.split('/s/')[1];

async function sign(slug: string) {
  expect((await acceptDisclosure(slug)).status).toBe(200);
  return page('POST', `/s/${slug}/submit`, { body: { values: pageValues() } });
}

describe('any one of several people', () => {
  it('invites each person with their own link, and the second person signing becomes the submitter', async () => {
    const [ann, ben, cat] = people();
    const s = await createAnyOf({ emails: [ann, ben, cat] });
    const [approver] = s.submitters;
    expect(approver.emails!.map((p) => p.email)).toEqual([ann.email, ben.email, cat.email]);
    expect(approver.email).toBe(ann.email);
    const links = approver.emails!.map((p) => p.signing_url);
    expect(new Set(links).size).toBe(3);
    for (const [i, person] of [ann, ben, cat].entries()) {
      const mail = await messagesTo(person.email);
      expect(mail.map((m) => m.kind)).toEqual(['invitation']);
      expect(mail[0].text).toContain(links[i]);
      expect(mail[0].text).not.toContain(links[(i + 1) % 3]);
    }

    const done = await sign(slugOf(links[1]));
    expect(done.status).toBe(200);
    const after = (await api('GET', `/api/submissions/${s.id}`, { token: owner.token })).json as Created;
    expect(after.submitters[0]).toMatchObject({ status: 'completed', email: ben.email, name: ben.name });
    expect(after.submitters[0].emails!.map((p) => p.completed_at !== null)).toEqual([false, true, false]);

    // The trail names who signed and the group they were chosen from.
    const trail = await (await shardOf(owner.accountId))
      .prepare("SELECT data FROM submission_events WHERE submission_id = ? AND action = 'completed'")
      .bind(s.id)
      .first<{ data: string }>();
    expect(JSON.parse(trail!.data)).toMatchObject({ signed_by: ben.email, chosen_from: [ann.email, ben.email, cat.email] });
    // The sealed audit page's entry for the completion says so too.
    const entry = auditTrailFor(
      { submission: { id: s.id, slug: 's', completedAt: null }, submitters: [], template: { name: 'T', fields: [] } } as never,
      [{ action: 'completed', submitterId: approver.id, data: JSON.parse(trail!.data), createdAt: '', ip: null } as never],
      'doc',
      'svc',
    ).events[0];
    expect(entry.detail).toBe(`Signed by ${ben.email}, one of ${ann.email}, ${ben.email}, ${cat.email}`);
    const [completed] = await outboxRows("event = 'form.completed' AND json_extract(data, '$.submission.id') = ?", s.id);
    expect(completed.data.submitter).toMatchObject({ email: ben.email, name: ben.name });

    // The others' links say who signed and no longer take a signature.
    const other = await api('GET', `/s/${slugOf(links[0])}`);
    expect(other.text).toContain('id="signed-by-other"');
    expect(other.text).toContain(`already signed by ${ben.name}`);
    const late = await page('POST', `/s/${slugOf(links[2])}/submit`, { body: { values: pageValues() } });
    expect(late.status).toBe(422);
    expect((await api('GET', `/s/${slugOf(links[1])}`)).text).toContain('id="completed"');
    // Their invitations stop: a reminder is refused.
    expect((await api('POST', `/api/submitters/${approver.id}/remind`, { token: owner.token })).status).toBe(422);
  });

  it('completes exactly one of two people who submit at the same moment', async () => {
    for (let round = 0; round < 5; round += 1) {
      const [ann, ben] = people();
      const s = await createAnyOf({ email: `${ann.email}, ${ben.email}` });
      const links = s.submitters[0].emails!.map((p) => slugOf(p.signing_url));
      for (const slug of links) expect((await acceptDisclosure(slug)).status).toBe(200);
      const answers = await Promise.all(links.map((slug) => page('POST', `/s/${slug}/submit`, { body: { values: pageValues() } })));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 422]);
      const winner = answers.findIndex((a) => a.status === 200);
      const after = (await api('GET', `/api/submissions/${s.id}`, { token: owner.token })).json as Created;
      expect(after.submitters[0].email).toBe([ann, ben][winner].email);
      expect(after.submitters[0].emails!.filter((p) => p.completed_at !== null)).toHaveLength(1);
      expect(await outboxRows("event = 'form.completed' AND json_extract(data, '$.submission.id') = ?", s.id)).toHaveLength(1);
      expect(await outboxRows("event = 'submission.completed' AND json_extract(data, '$.submission.id') = ?", s.id)).toHaveLength(1);
    }
  }, 60_000);

  it('keeps what one person types off the other people’s pages', async () => {
    const [ann, ben] = people();
    const s = await createAnyOf({ emails: [ann.email, ben.email] });
    const [annSlug, benSlug] = s.submitters[0].emails!.map((p) => slugOf(p.signing_url));
    const name = template.fields.find((f) => f.name === 'Approver Name')!.uuid;
    expect((await page('PUT', `/s/${annSlug}/values`, { body: { values: { [name]: 'Ann private draft' } } })).status).toBe(200);
    expect((await api('GET', `/s/${benSlug}`)).text).not.toContain('Ann private draft');
  });

  it('asks each person for the disclosure themselves', async () => {
    const [ann, ben] = people();
    const s = await createAnyOf({ emails: [ann.email, ben.email] });
    const [annSlug, benSlug] = s.submitters[0].emails!.map((p) => slugOf(p.signing_url));
    expect((await acceptDisclosure(annSlug)).status).toBe(200);
    const res = await page('POST', `/s/${benSlug}/submit`, { body: { values: pageValues() } });
    expect(res.status).toBe(422);
    expect(res.json.error).toContain('disclosure');
  });

  it('reminds each person with their own link', async () => {
    const [ann, ben] = people();
    const s = await createAnyOf({ emails: [ann, ben] });
    const links = s.submitters[0].emails!.map((p) => p.signing_url);
    expect((await api('POST', `/api/submitters/${s.submitters[0].id}/remind`, { token: owner.token })).status).toBe(200);
    for (const [i, person] of [ann, ben].entries()) {
      const reminders = (await messagesTo(person.email)).filter((m) => m.kind === 'reminder');
      expect(reminders).toHaveLength(1);
      expect(reminders[0].text).toContain(links[i]);
    }
  });

  it('tells each invited person when the submission expires', async () => {
    const [ann, ben] = people();
    const s = await createAnyOf({ emails: [ann, ben] });
    await (await shardOf(owner.accountId))
      .prepare('UPDATE submissions SET expire_at = ? WHERE id = ?')
      .bind(new Date(Date.now() - 1000).toISOString(), s.id)
      .run();
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: '* * * * *' }), env, ctx);
    await waitOnExecutionContext(ctx);
    for (const person of [ann, ben]) expect((await messagesTo(person.email)).map((m) => m.kind)).toEqual(['invitation', 'expiry']);
  });

  it('keeps a single email as before: no emails list, one invitation', async () => {
    const [ann] = people();
    const s = await createAnyOf({ email: ann.email, name: ann.name });
    expect(s.submitters[0]).toMatchObject({ email: ann.email, name: ann.name });
    expect('emails' in s.submitters[0]).toBe(false);
    expect(await messagesTo(ann.email)).toHaveLength(1);
  });

  it('refuses more than ten people, a repeated person and a bad address with sentences', async () => {
    const many = Array.from({ length: 11 }, (_, i) => `p${i}@example.com`).join(', ');
    const tooMany = await api('POST', '/api/submissions', {
      token: owner.token,
      body: { template_id: template.id, submitters: [{ role: 'Approver', email: many }] },
    });
    expect(tooMany.status).toBe(422);
    expect(JSON.stringify(tooMany.json)).toContain('at most 10 people');
    const twice = await api('POST', '/api/submissions', {
      token: owner.token,
      body: { template_id: template.id, submitters: [{ role: 'Approver', emails: ['a@example.com', 'A@example.com', 'nope'] }] },
    });
    expect(twice.status).toBe(422);
    expect(twice.json.error).toEqual([
      'submitters[0].emails[1]: "A@example.com" is named twice; name each person once.',
      'submitters[0].emails[2]: email "nope" is not a valid email address.',
    ]);
  });
});
