import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import worker from '../../src/index';
import { shardScope } from '../../src/db/shards';
import { api, createAccount, createToken, shardOf, type TestAccount } from '../helpers';
import { completeValues, createTemplate, messagesTo, outboxRows, shardNumberOf, type TemplateFixture } from '../submission-fixtures';

let owner: TestAccount;
let three: TemplateFixture;

beforeAll(async () => {
  owner = await createAccount({ plan: 'pro' });
  three = await createTemplate(owner.token, ['Buyer', 'Seller', 'Agent']);
});

async function createThree(extra: Record<string, unknown> = {}) {
  const res = await api('POST', '/api/submissions', {
    token: owner.token,
    body: {
      template_id: three.id,
      submitters: ['Buyer', 'Seller', 'Agent'].map((role) => ({
        role,
        email: `${role.toLowerCase()}-${crypto.randomUUID().slice(0, 8)}@example.com`,
        name: `${role} Person`,
      })),
      ...extra,
    },
  });
  expect(res.status).toBe(201);
  return res.json;
}

const complete = (id: number, role: string, token = owner.token) =>
  api('PUT', `/api/submitters/${id}`, { token, body: { values: completeValues(role), completed: true } });

describe('sequential signing completed through PUT /api/submitters/{id}', () => {
  it('invites each submitter only after the previous completes, then completes the submission with its events', async () => {
    const s = await createThree();
    const [buyer, seller, agent] = s.submitters;
    expect(s.submitters.map((x: { status: string }) => x.status)).toEqual(['sent', 'waiting', 'waiting']);

    // Out of turn: refused.
    const early = await complete(seller.id, 'Seller');
    expect(early.status).toBe(422);
    expect(early.json.error).toContain('Buyer signs first');

    const first = await complete(buyer.id, 'Buyer');
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ status: 'completed', values: completeValues('Buyer') });
    expect(first.json.completed_at).not.toBeNull();
    let current = (await api('GET', `/api/submissions/${s.id}`, { token: owner.token })).json;
    expect(current.submitters.map((x: { status: string }) => x.status)).toEqual(['completed', 'sent', 'waiting']);
    expect(current.status).toBe('pending');
    expect(await messagesTo(seller.email)).toHaveLength(1);
    expect(await messagesTo(agent.email)).toHaveLength(0);

    expect((await complete(seller.id, 'Seller')).status).toBe(200);
    current = (await api('GET', `/api/submissions/${s.id}`, { token: owner.token })).json;
    expect(current.submitters.map((x: { status: string }) => x.status)).toEqual(['completed', 'completed', 'sent']);
    expect((await messagesTo(agent.email)).map((m) => m.kind)).toEqual(['invitation']);

    expect((await complete(agent.id, 'Agent')).status).toBe(200);
    current = (await api('GET', `/api/submissions/${s.id}`, { token: owner.token })).json;
    expect(current.status).toBe('completed');
    expect(current.completed_at).not.toBeNull();
    expect(current.documents).toHaveLength(1);
    expect(current.documents[0]).toMatchObject({
      document_type: 'signed_pdf',
      download_url: expect.stringContaining(`/api/submissions/${s.id}/documents/`),
    });

    const events = (await outboxRows("json_extract(data, '$.submission.id') = ?", s.id)).map((r) => r.event);
    expect(events.filter((e) => e === 'form.completed')).toHaveLength(3);
    expect(events.filter((e) => e === 'submitter.completed')).toHaveLength(3);
    expect(events.filter((e) => e === 'submitter.sent')).toHaveLength(3);
    expect(events.at(-1)).toBe('submission.completed');
    const completed = (await outboxRows("event = 'submission.completed' AND json_extract(data, '$.submission.id') = ?", s.id))[0].data;
    expect(completed.submission).toMatchObject({ status: 'completed', completed_at: current.completed_at, documents: current.documents });
    expect(completed.submission.submitters.every((x: { status: string }) => x.status === 'completed')).toBe(true);
    const lastForm = (await outboxRows("event = 'form.completed' AND json_extract(data, '$.submitter.id') = ?", agent.id))[0].data;
    expect(lastForm.submitter).toMatchObject({ id: agent.id, status: 'completed', declined_at: null });
    expect(lastForm.documents).toHaveLength(1);
    // Every submitter gets a completion copy.
    expect((await messagesTo(buyer.email)).map((m) => m.kind)).toEqual(['invitation', 'completion']);
  });

  it('refuses to complete with required fields missing, naming them', async () => {
    const s = await createThree();
    const res = await api('PUT', `/api/submitters/${s.submitters[0].id}`, { token: owner.token, body: { completed: true } });
    expect(res.status).toBe(422);
    expect(res.json.error).toEqual([
      'Field "Buyer Name" is required.',
      'Field "Buyer Date" is required.',
      'Field "Buyer Signature" is required.',
    ]);
  });

  it('stores none of the request’s other changes when the completion is refused', async () => {
    const s = await createThree();
    const res = await api('PUT', `/api/submitters/${s.submitters[0].id}`, {
      token: owner.token,
      body: { email: 'changed@example.com', values: { 'Buyer Name': 'Half' }, completed: true },
    });
    expect(res.status).toBe(422);
    const after = await api('GET', `/api/submitters/${s.submitters[0].id}`, { token: owner.token });
    expect(after.json).toMatchObject({ email: s.submitters[0].email, status: 'sent', values: {} });
  });

  it('completes with prefilled values alone', async () => {
    const res = await api('POST', '/api/submissions', {
      token: owner.token,
      body: {
        template_id: three.id,
        submitters: ['Buyer', 'Seller', 'Agent'].map((role) => ({ role, email: `${role}@pre.example.com`, values: completeValues(role) })),
      },
    });
    const done = await api('PUT', `/api/submitters/${res.json.submitters[0].id}`, { token: owner.token, body: { completed: true } });
    expect(done.status).toBe(200);
    expect(done.json.status).toBe('completed');
  });

  it('refuses completing a completed submitter again', async () => {
    const s = await createThree();
    await complete(s.submitters[0].id, 'Buyer');
    const again = await complete(s.submitters[0].id, 'Buyer');
    expect(again.status).toBe(422);
    expect(again.json.error).toContain('already completed');
  });

  it('lets only one of two concurrent completions through', async () => {
    const s = await createThree({ submitters_order: 'parallel' });
    const results = await Promise.all([complete(s.submitters[0].id, 'Buyer'), complete(s.submitters[0].id, 'Buyer')]);
    expect(results.map((r) => r.status).sort()).toEqual([200, expect.any(Number)]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    const events = await outboxRows("event = 'submitter.completed' AND json_extract(data, '$.submitter.id') = ?", s.submitters[0].id);
    expect(events).toHaveLength(1);
  });
});

describe('PUT /api/submitters/{id}', () => {
  it('changes contact details and values, and re-sends the invitation with send_email', async () => {
    const s = await createThree();
    const buyer = s.submitters[0];
    const res = await api('PUT', `/api/submitters/${buyer.id}`, {
      token: owner.token,
      body: {
        email: 'new-buyer@example.com',
        name: 'New Buyer',
        external_id: 'ext-9',
        metadata: { a: 1 },
        values: { 'Buyer Name': 'Nora' },
        send_email: true,
      },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      email: 'new-buyer@example.com',
      name: 'New Buyer',
      external_id: 'ext-9',
      metadata: { a: 1 },
      values: { 'Buyer Name': 'Nora' },
    });
    expect((await messagesTo('new-buyer@example.com')).map((m) => m.kind)).toEqual(['invitation']);
  });

  it('refuses an invalid email and a bad value with 422 sentences', async () => {
    const s = await createThree();
    const res = await api('PUT', `/api/submitters/${s.submitters[0].id}`, {
      token: owner.token,
      body: { email: 'nope', values: { 'Buyer Agree': 'x' } },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toEqual([
      'submitter: email "nope" is not a valid email address.',
      'submitter: Field "Buyer Agree" takes true or false.',
    ]);
  });

  it('needs submitters:write (or submissions:write)', async () => {
    const s = await createThree();
    const reader = await createToken(owner.accountId, owner.userId, ['submissions:read']);
    const res = await api('PUT', `/api/submitters/${s.submitters[0].id}`, { token: reader, body: { name: 'x' } });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: submitters:write');
    const writer = await createToken(owner.accountId, owner.userId, ['submitters:write']);
    expect((await api('PUT', `/api/submitters/${s.submitters[0].id}`, { token: writer, body: { name: 'x' } })).status).toBe(200);
  });
});

describe('POST /api/submitters/{id}/remind', () => {
  it('sends a reminder with the submission’s reminder text, tokens filled and HTML-escaped', async () => {
    const s = await createThree({
      expire_at: '2099-01-01T00:00:00.000Z',
      preferences: {
        reminder_subject: 'Still waiting, {{submitter.name}}',
        reminder_body: 'Hi {{submitter.name}}, sign {{template.name}} at {{submitter.link}} before {{submission.expire_at}}.',
      },
      submitters: [
        { role: 'Buyer', email: 'remind@example.com', name: '<b>Bo</b>' },
        { role: 'Seller', email: 'remind-s@example.com' },
        { role: 'Agent', email: 'remind-a@example.com' },
      ],
    });
    const res = await api('POST', `/api/submitters/${s.submitters[0].id}/remind`, { token: owner.token });
    expect(res.status).toBe(200);
    const reminder = (await messagesTo('remind@example.com')).at(-1)!;
    expect(reminder.kind).toBe('reminder');
    expect(reminder.subject).toBe('Still waiting, <b>Bo</b>');
    expect(reminder.text).toContain(`Hi <b>Bo</b>, sign Agreement at ${s.submitters[0].signing_url} before 2099-01-01T00:00:00.000Z.`);
    expect(reminder.html).toContain('&lt;b&gt;Bo&lt;/b&gt;');
    expect(reminder.html).not.toContain('<b>Bo</b>');
  });

  it('refuses reminding someone whose turn has not come, or who completed', async () => {
    const s = await createThree();
    expect((await api('POST', `/api/submitters/${s.submitters[1].id}/remind`, { token: owner.token })).status).toBe(422);
    await complete(s.submitters[0].id, 'Buyer');
    const done = await api('POST', `/api/submitters/${s.submitters[0].id}/remind`, { token: owner.token });
    expect(done.status).toBe(422);
    expect(done.json.error).toContain('only submitters who have not finished can be reminded');
  });

  it('needs submissions:remind', async () => {
    const s = await createThree();
    const writer = await createToken(owner.accountId, owner.userId, ['submissions:write']);
    const res = await api('POST', `/api/submitters/${s.submitters[0].id}/remind`, { token: writer });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: submissions:remind');
  });
});

describe('drafts', () => {
  it('are edited, then sent with POST /send: submission.sent and the first invitation', async () => {
    const s = await createThree({ draft: true });
    const edit = await api('PUT', `/api/submissions/${s.id}`, {
      token: owner.token,
      body: {
        submitters_order: 'parallel',
        metadata: { v: 2 },
        submitters: [{ role: 'Buyer', email: 'draft-buyer@example.com', values: { 'Buyer Name': 'D' } }],
      },
    });
    expect(edit.status).toBe(200);
    expect(edit.json).toMatchObject({ status: 'draft', submitters_order: 'parallel', metadata: { v: 2 } });
    expect(edit.json.submitters[0]).toMatchObject({ email: 'draft-buyer@example.com', values: { 'Buyer Name': 'D' } });
    expect(await messagesTo('draft-buyer@example.com')).toHaveLength(0);

    const sent = await api('POST', `/api/submissions/${s.id}/send`, { token: owner.token });
    expect(sent.status).toBe(200);
    expect(sent.json.status).toBe('pending');
    expect(sent.json.submitters.map((x: { status: string }) => x.status)).toEqual(['sent', 'sent', 'sent']);
    expect(await messagesTo('draft-buyer@example.com')).toHaveLength(1);
    const events = (await outboxRows("json_extract(data, '$.submission.id') = ?", s.id)).map((r) => r.event);
    expect(events).toContain('submission.sent');

    const again = await api('POST', `/api/submissions/${s.id}/send`, { token: owner.token });
    expect(again.status).toBe(422);
    expect(again.json.error).toContain('Only drafts can be sent');
  });

  it('refuses draft-only edits on a pending submission but takes a new expire_at', async () => {
    const s = await createThree();
    const bad = await api('PUT', `/api/submissions/${s.id}`, { token: owner.token, body: { submitters_order: 'parallel' } });
    expect(bad.status).toBe(422);
    expect(bad.json.error).toBe('submitters_order can only be changed while the submission is a draft.');
    const ok = await api('PUT', `/api/submissions/${s.id}`, { token: owner.token, body: { expire_at: '2099-05-01T00:00:00Z' } });
    expect(ok.status).toBe(200);
    expect(ok.json.expire_at).toBe('2099-05-01T00:00:00.000Z');
    const past = await api('PUT', `/api/submissions/${s.id}`, { token: owner.token, body: { expire_at: '2001-05-01T00:00:00Z' } });
    expect(past.status).toBe(422);
  });
});

describe('archive', () => {
  it('archives with DELETE and POST /archive, fires submission.archived, and hides it from the default list', async () => {
    const a = await createThree();
    const b = await createThree();
    const del = await api('DELETE', `/api/submissions/${a.id}`, { token: owner.token });
    expect(del.status).toBe(200);
    expect(del.json.status).toBe('archived');
    expect(del.json.archived_at).not.toBeNull();
    expect((await api('POST', `/api/submissions/${b.id}/archive`, { token: owner.token })).json.status).toBe('archived');
    const events = await outboxRows("event = 'submission.archived' AND json_extract(data, '$.submission.id') IN (?, ?)", a.id, b.id);
    expect(events).toHaveLength(2);
    const list = await api('GET', '/api/submissions?limit=100', { token: owner.token });
    expect(list.json.data.map((x: { id: number }) => x.id)).not.toContain(a.id);
    const archived = await api('GET', '/api/submissions?archived=true&limit=100', { token: owner.token });
    expect(archived.json.data.map((x: { id: number }) => x.id)).toEqual(expect.arrayContaining([a.id, b.id]));
    // Archived submissions cannot be signed any more.
    expect((await complete(a.submitters[0].id, 'Buyer')).status).toBe(422);
  });

  it('erases permanently with ?permanently=true: reads answer 410 Gone with when (issue 33 › 5)', async () => {
    const s = await createThree();
    const res = await api('DELETE', `/api/submissions/${s.id}?permanently=true`, { token: owner.token });
    expect(res.status).toBe(204);
    const gone = await api('GET', `/api/submissions/${s.id}`, { token: owner.token });
    expect(gone.status).toBe(410);
    expect(gone.json.erased_at).toEqual(expect.any(String));
    expect((await api('GET', `/api/submitters/${s.submitters[0].id}`, { token: owner.token })).status).toBe(410);
  });
});

describe('expiry', () => {
  async function runCron(at: Date) {
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: at.getTime(), cron: '* * * * *' }), env, ctx);
    await waitOnExecutionContext(ctx);
  }

  it('expires pending submissions past expire_at: unfinished submitters expired and emailed, completed ones kept', async () => {
    const s = await createThree({ submitters_order: 'parallel', expire_at: new Date(Date.now() + 60_000).toISOString() });
    await complete(s.submitters[0].id, 'Buyer');
    await (await shardOf(owner.accountId))
      .prepare('UPDATE submissions SET expire_at = ? WHERE id = ?')
      .bind(new Date(Date.now() - 1000).toISOString(), s.id)
      .run();
    await runCron(new Date());
    const current = (await api('GET', `/api/submissions/${s.id}`, { token: owner.token })).json;
    expect(current.status).toBe('expired');
    expect(current.expired_at).not.toBeNull();
    expect(current.submitters.map((x: { status: string }) => x.status)).toEqual(['completed', 'expired', 'expired']);
    expect((await messagesTo(s.submitters[1].email)).map((m) => m.kind)).toEqual(['invitation', 'expiry']);
    expect((await messagesTo(s.submitters[0].email)).map((m) => m.kind)).toEqual(['invitation']);
    const events = (
      await outboxRows("json_extract(data, '$.submission.id') = ? AND event IN ('form.expired', 'submission.expired')", s.id)
    ).map((r) => r.event);
    expect(events).toEqual(['form.expired', 'form.expired', 'submission.expired']);
    const formExpired = (await outboxRows("event = 'form.expired' AND json_extract(data, '$.submitter.id') = ?", s.submitters[1].id))[0]
      .data;
    expect(formExpired.submitter).toMatchObject({ status: 'expired', completed_at: null, declined_at: null });

    // Running again changes nothing more.
    await runCron(new Date());
    expect(await outboxRows("event = 'submission.expired' AND json_extract(data, '$.submission.id') = ?", s.id)).toHaveLength(1);
    // An expired submission can be archived but not signed.
    expect((await complete(s.submitters[1].id, 'Seller')).status).toBe(422);
    expect((await api('DELETE', `/api/submissions/${s.id}`, { token: owner.token })).json.status).toBe('archived');
  });

  it('leaves submissions whose expire_at is still ahead', async () => {
    const s = await createThree({ expire_at: new Date(Date.now() + 3_600_000).toISOString() });
    await runCron(new Date());
    expect((await api('GET', `/api/submissions/${s.id}`, { token: owner.token })).json.status).toBe('pending');
  });

  it('works through many due submissions in bounded batches chained through the queue', async () => {
    const { expireDueSubmissions } = await import('../../src/services/submissions/expire-submissions');
    const created = await api('POST', '/api/submissions', {
      token: owner.token,
      body: {
        template_id: three.id,
        send_email: false,
        expire_at: new Date(Date.now() + 60_000).toISOString(),
        submissions: Array.from({ length: 5 }, () => ({
          submitters: ['Buyer', 'Seller', 'Agent'].map((role) => ({ role, email: `${role}@bulk-exp.example.com` })),
        })),
      },
    });
    const ids = created.json.map((x: { id: number }) => x.id);
    await (await shardOf(owner.accountId))
      .prepare(`UPDATE submissions SET expire_at = ? WHERE id IN (${ids.join(',')})`)
      .bind(new Date(Date.now() - 1000).toISOString())
      .run();
    const sent: unknown[] = [];
    const queue = { send: async (body: unknown) => void sent.push(body) } as unknown as Queue;
    const shard = await shardNumberOf(owner.accountId);
    // The owner's shard as the cron sees it, its messages queue captured (the scope stamps the shard on it).
    const scope = shardScope({ ...env, MESSAGES_QUEUE: queue } as never, shard);
    const first = await expireDueSubmissions(scope, new Date(), 2);
    expect(first).toEqual({ expired: 2, more: true });
    expect(sent).toEqual([{ type: 'expire', shard }]);
    await expireDueSubmissions(scope, new Date(), 2);
    const last = await expireDueSubmissions(scope, new Date(), 2);
    expect(last.more).toBe(false);
    const { results } = await (await shardOf(owner.accountId))
      .prepare(`SELECT status FROM submissions WHERE id IN (${ids.join(',')})`)
      .all<{ status: string }>();
    expect(results.every((r) => r.status === 'expired')).toBe(true);
  });
});

describe('templates with submissions', () => {
  it('cannot be deleted permanently while submissions use their documents (409), but can be archived', async () => {
    const t = await createTemplate(owner.token);
    const s = await api('POST', '/api/submissions', {
      token: owner.token,
      body: { template_id: t.id, submitters: [{ email: 'keep@example.com' }] },
    });
    const res = await api('DELETE', `/api/templates/${t.id}?permanently=true`, { token: owner.token });
    expect(res.status).toBe(409);
    expect(res.json.error).toContain('This template has submissions');
    expect((await api('DELETE', `/api/templates/${t.id}`, { token: owner.token })).status).toBe(200);
    // The submission still reads its template as it was.
    const read = await api('GET', `/api/submissions/${s.json.id}`, { token: owner.token });
    expect(read.json.template).toEqual({ id: t.id, name: 'Agreement' });
    // An erased submission keeps its audit trail, which names the template (issue 33 › 5): still refused.
    await api('DELETE', `/api/submissions/${s.json.id}?permanently=true`, { token: owner.token });
    expect((await api('DELETE', `/api/templates/${t.id}?permanently=true`, { token: owner.token })).status).toBe(409);
  });
});

describe('auto_sign', () => {
  it('signs, in order, the submitters whose forms the API filled, with generated signatures', async () => {
    const res = await api('POST', '/api/submissions', {
      token: owner.token,
      body: {
        template_id: three.id,
        auto_sign: true,
        submitters: [
          {
            role: 'Buyer',
            email: 'auto-b@example.com',
            name: 'Ann Auto',
            values: { 'Buyer Name': 'Ann Auto', 'Buyer Date': '2026-11-23' },
          },
          {
            role: 'Seller',
            email: 'auto-s@example.com',
            name: 'Sam Auto',
            values: { 'Seller Name': 'Sam Auto', 'Seller Date': '2026-11-23', 'Seller Signature': 'S. Auto' },
          },
          // The agent's form is missing a required value: they sign on the page.
          { role: 'Agent', email: 'auto-a@example.com', name: 'Al Agent' },
        ],
      },
    });
    expect(res.status).toBe(201);
    expect(res.json.submitters.map((s: { status: string }) => s.status)).toEqual(['completed', 'completed', 'sent']);
    expect(res.json.submitters[0].values['Buyer Signature']).toBe('Ann Auto');
    expect(res.json.submitters[1].values['Seller Signature']).toBe('S. Auto');
    expect(res.json.status).toBe('pending');
    expect((await messagesTo('auto-a@example.com')).map((m) => m.kind)).toEqual(['invitation']);
  });

  it('leaves everyone to sign when auto_sign is off', async () => {
    const res = await api('POST', '/api/submissions', {
      token: owner.token,
      body: {
        template_id: three.id,
        submitters: ['Buyer', 'Seller', 'Agent'].map((role) => ({
          role,
          email: `${role}@noauto.example.com`,
          values: { [`${role} Name`]: 'X', [`${role} Date`]: '2026-11-23' },
        })),
      },
    });
    expect(res.json.submitters.map((s: { status: string }) => s.status)).toEqual(['sent', 'waiting', 'waiting']);
  });
});
