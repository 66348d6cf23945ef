import { beforeAll, describe, expect, it } from 'vitest';
import { api, createAccount, createToken, shardOf, type TestAccount } from '../helpers';
import { completeValues, createTemplate, messagesTo, outboxRows, type TemplateFixture } from '../submission-fixtures';

let owner: TestAccount;
let template: TemplateFixture;

beforeAll(async () => {
  owner = await createAccount({ plan: 'pro' });
  template = await createTemplate(owner.token, ['Client', 'Manager']);
});

const twoSigners = (extra: Record<string, unknown> = {}) => ({
  template_id: template.id,
  submitters: [
    {
      role: 'Client',
      email: 'client@example.com',
      name: 'Cleo Client',
      values: { 'Client Name': 'Cleo Client' },
      metadata: { crm: 'crm-ref-Z9' },
    },
    { role: 'Manager', email: 'manager@example.com', name: 'Max Manager' },
  ],
  ...extra,
});

describe('POST /api/submissions', () => {
  it('creates a pending submission whose submitters have signing urls, inviting only the first in sequential order', async () => {
    const res = await api('POST', '/api/submissions', { token: owner.token, body: twoSigners({ metadata: { order: 42 } }) });
    expect(res.status).toBe(201);
    const s = res.json;
    expect(s).toMatchObject({
      status: 'pending',
      template_id: template.id,
      submitters_order: 'sequential',
      metadata: { order: 42 },
      documents: [],
    });
    expect(s.slug).toMatch(/^[0-9A-Za-z]{14,}$/);
    expect(s.submitters).toHaveLength(2);
    const [client, manager] = s.submitters;
    expect(client).toMatchObject({
      role: 'Client',
      email: 'client@example.com',
      status: 'sent',
      values: { 'Client Name': 'Cleo Client' },
      metadata: { crm: 'crm-ref-Z9' },
    });
    expect(client.signing_url).toBe(`https://api.test/s/${client.slug}`);
    expect(client.sent_at).not.toBeNull();
    expect(manager).toMatchObject({ role: 'Manager', status: 'waiting', sent_at: null });
    expect(client.slug).not.toBe(manager.slug);
    const invitations = await messagesTo('client@example.com');
    expect(invitations.at(-1)).toMatchObject({ kind: 'invitation', channel: 'email' });
    expect(invitations.at(-1)!.text).toContain(client.signing_url);
    expect(await messagesTo('manager@example.com')).toHaveLength(0);
  });

  it('records submission.created, form.created per submitter, submitter.sent and submission.sent with real ids', async () => {
    const res = await api('POST', '/api/submissions', {
      token: owner.token,
      body: twoSigners({ metadata: { flattening_failed: true, keep: 1 } }),
    });
    const s = res.json;
    const rows = await outboxRows("json_extract(data, '$.submission.id') = ?", s.id);
    expect(rows.map((r) => r.event)).toEqual(['submission.created', 'form.created', 'submitter.sent', 'form.created', 'submission.sent']);
    const created = rows[0].data.submission;
    expect(created).toMatchObject({
      id: s.id,
      slug: s.slug,
      status: 'pending',
      template_id: template.id,
      metadata: { keep: 1 },
      documents: [],
    });
    expect(created.metadata).not.toHaveProperty('flattening_failed');
    expect(created.submitters).toEqual([
      {
        id: s.submitters[0].id,
        uuid: s.submitters[0].uuid,
        email: 'client@example.com',
        name: 'Cleo Client',
        role: 'Client',
        status: 'sent',
        external_id: null,
      },
      {
        id: s.submitters[1].id,
        uuid: s.submitters[1].uuid,
        email: 'manager@example.com',
        name: 'Max Manager',
        role: 'Manager',
        status: 'waiting',
        external_id: null,
      },
    ]);
    // Submitter metadata never appears in submission payloads.
    expect(JSON.stringify(created)).not.toContain('crm-ref-Z9');
    expect(rows[1].data.submitter).toMatchObject({ id: s.submitters[0].id, metadata: { crm: 'crm-ref-Z9' } });
    expect(rows[2].data).toMatchObject({
      submitter: { id: s.submitters[0].id, status: 'sent' },
      submission: { id: s.id },
      template: { id: template.id, name: 'Agreement' },
    });
  });

  it('invites every submitter at once in parallel order', async () => {
    const res = await api('POST', '/api/submissions', { token: owner.token, body: twoSigners({ submitters_order: 'parallel' }) });
    expect(res.json.submitters.map((s: { status: string }) => s.status)).toEqual(['sent', 'sent']);
  });

  it('sends nothing when send_email is false; submitters stay waiting', async () => {
    const res = await api('POST', '/api/submissions', {
      token: owner.token,
      body: {
        template_id: template.id,
        send_email: false,
        submitters: [
          { role: 'Client', email: 'quiet@example.com' },
          { role: 'Manager', email: 'quiet2@example.com' },
        ],
      },
    });
    expect(res.status).toBe(201);
    expect(res.json.submitters.map((s: { status: string }) => s.status)).toEqual(['waiting', 'waiting']);
    expect(await messagesTo('quiet@example.com')).toHaveLength(0);
  });

  it('also sends an SMS invitation with send_sms', async () => {
    await api('POST', '/api/submissions', {
      token: owner.token,
      body: {
        template_id: template.id,
        submitters: [
          { role: 'Client', email: 'sms@example.com', phone: '+14155550100', send_sms: true },
          { role: 'Manager', email: 'm-sms@example.com' },
        ],
      },
    });
    const sms = await messagesTo('+14155550100');
    expect(sms).toHaveLength(1);
    expect(sms[0]).toMatchObject({ channel: 'sms', kind: 'invitation' });
  });

  it('keeps drafts unsent: no messages, submitters waiting, status draft', async () => {
    const res = await api('POST', '/api/submissions', {
      token: owner.token,
      body: {
        template_id: template.id,
        draft: true,
        submitters: [
          { role: 'Client', email: 'draft@example.com' },
          { role: 'Manager', email: 'draft2@example.com' },
        ],
      },
    });
    expect(res.status).toBe(201);
    expect(res.json.status).toBe('draft');
    expect(res.json.submitters.map((s: { status: string }) => s.status)).toEqual(['waiting', 'waiting']);
    expect(await messagesTo('draft@example.com')).toHaveLength(0);
    const rows = await outboxRows("json_extract(data, '$.submission.id') = ? AND event = 'submission.sent'", res.json.id);
    expect(rows).toHaveLength(0);
  });

  it('accepts the integer template id and the /init path', async () => {
    const tpl = await api('GET', `/api/templates/${template.id}`, { token: owner.token });
    const res = await api('POST', '/api/submissions/init', { token: owner.token, body: { ...twoSigners(), template_id: tpl.json.id } });
    expect(res.status).toBe(201);
    expect(res.json.template_id).toBe(template.id);
  });

  it('creates through POST /api/templates/{id}/submissions', async () => {
    const { template_id: _t, ...body } = twoSigners();
    const res = await api('POST', `/api/templates/${template.id}/submissions`, { token: owner.token, body });
    expect(res.status).toBe(201);
    expect(res.json.source).toBe('template');
  });

  it('creates several submissions from a submissions array, answering an array', async () => {
    const res = await api('POST', '/api/submissions', {
      token: owner.token,
      body: {
        template_id: template.id,
        send_email: false,
        submissions: [
          {
            submitters: [
              { role: 'Client', email: 'b1@example.com' },
              { role: 'Manager', email: 'bm@example.com' },
            ],
          },
          {
            submitters: [
              { role: 'Client', email: 'b2@example.com' },
              { role: 'Manager', email: 'bm@example.com' },
            ],
            metadata: { n: 2 },
          },
        ],
      },
    });
    expect(res.status).toBe(201);
    expect(res.json).toHaveLength(2);
    expect(res.json.map((s: { submitters: { email: string }[] }) => s.submitters[0].email)).toEqual(['b1@example.com', 'b2@example.com']);
    expect(res.json[1].metadata).toEqual({ n: 2 });
    expect(res.json.every((s: { source: string }) => s.source === 'bulk')).toBe(true);
  });
});

describe('POST /api/submissions/emails', () => {
  it('creates one submission per address from a comma-separated string', async () => {
    const single = await createTemplate(owner.token);
    const res = await api('POST', '/api/submissions/emails', {
      token: owner.token,
      body: { template_id: single.id, emails: 'one@example.com, two@example.com' },
    });
    expect(res.status).toBe(201);
    expect(res.json).toHaveLength(2);
    expect(res.json[0].submitters[0]).toMatchObject({ email: 'one@example.com', role: 'First Party', status: 'sent' });
    expect(res.json[1].submitters[0].email).toBe('two@example.com');
    expect(res.json[0].id).not.toBe(res.json[1].id);
  });

  it('accepts a list and refuses an invalid address with a sentence', async () => {
    const single = await createTemplate(owner.token);
    const bad = await api('POST', '/api/submissions/emails', {
      token: owner.token,
      body: { template_id: single.id, emails: ['ok@example.com', 'nope'] },
    });
    expect(bad.status).toBe(422);
    expect(bad.json.error).toContain('"nope" is not a valid email address.');
  });
});

describe('validation', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    [
      'a role not in the template',
      { submitters: [{ role: 'Stranger', email: 'x@example.com' }] },
      'role "Stranger" must match a template submitter',
    ],
    ['a missing email', { submitters: [{ role: 'Client' }, { role: 'Manager', email: 'm@example.com' }] }, "email can't be blank"],
    [
      'an invalid email',
      {
        submitters: [
          { role: 'Client', email: 'not-an-email' },
          { role: 'Manager', email: 'm@example.com' },
        ],
      },
      'is not a valid email address',
    ],
    [
      'a name over 255 characters',
      {
        submitters: [
          { role: 'Client', email: 'c@example.com', name: 'n'.repeat(256) },
          { role: 'Manager', email: 'm@example.com' },
        ],
      },
      'name is too long (maximum is 255 characters)',
    ],
    [
      'an expire_at in the past',
      {
        expire_at: '2020-01-01T00:00:00Z',
        submitters: [
          { role: 'Client', email: 'c@example.com' },
          { role: 'Manager', email: 'm@example.com' },
        ],
      },
      'expire_at must be in the future',
    ],
    [
      'a prefilled value of the wrong type',
      {
        submitters: [
          { role: 'Client', email: 'c@example.com', values: { 'Client Agree': 'maybe' } },
          { role: 'Manager', email: 'm@example.com' },
        ],
      },
      'Field "Client Agree" takes true or false',
    ],
    [
      'a value for an unknown field',
      {
        submitters: [
          { role: 'Client', email: 'c@example.com', values: { Nope: 1 } },
          { role: 'Manager', email: 'm@example.com' },
        ],
      },
      'values names "Nope", which is not a field of the role "Client"',
    ],
    [
      'a bad date',
      {
        submitters: [
          { role: 'Client', email: 'c@example.com', values: { 'Client Date': '2026-02-30' } },
          { role: 'Manager', email: 'm@example.com' },
        ],
      },
      'Field "Client Date" takes a date',
    ],
    [
      'the same role twice',
      {
        submitters: [
          { role: 'Client', email: 'c@example.com' },
          { role: 'client', email: 'd@example.com' },
        ],
      },
      'already taken',
    ],
  ];
  for (const [what, body, sentence] of cases) {
    it(`refuses ${what} with 422 and a sentence`, async () => {
      const res = await api('POST', '/api/submissions', { token: owner.token, body: { template_id: template.id, ...body } });
      expect(res.status).toBe(422);
      expect([res.json.error].flat().join(' ')).toContain(sentence);
    });
  }

  it('checks pattern, preset and options of prefilled values', async () => {
    const t = await createTemplate(
      owner.token,
      ['First Party'],
      [
        { name: 'SSN', type: 'text', validation: 'ssn', areas: [{ page: 1, x: 0.1, y: 0.8, w: 0.2, h: 0.04 }] },
        { name: 'Code', type: 'text', pattern: '[A-Z]{3}', areas: [{ page: 1, x: 0.4, y: 0.8, w: 0.2, h: 0.04 }] },
        { name: 'Plan', type: 'select', options: ['Basic', 'Pro'], areas: [{ page: 1, x: 0.7, y: 0.8, w: 0.2, h: 0.04 }] },
      ],
    );
    const send = (values: Record<string, unknown>) =>
      api('POST', '/api/submissions', {
        token: owner.token,
        body: { template_id: t.id, submitters: [{ email: 'v@example.com', values }] },
      });
    expect([(await send({ SSN: '12-34' })).json.error].flat().join(' ')).toContain('must be a US Social Security number');
    expect([(await send({ Code: 'abc' })).json.error].flat().join(' ')).toContain('does not match the required format');
    expect([(await send({ Plan: 'Gold' })).json.error].flat().join(' ')).toContain('must be one of its options');
    const ok = await send({ SSN: '123-45-6789', Code: 'ABC', Plan: 'Pro' });
    expect(ok.status).toBe(201);
    expect(ok.json.submitters[0].values).toEqual({ SSN: '123-45-6789', Code: 'ABC', Plan: 'Pro' });
  });

  it('refuses an archived template with 422 and stores nothing', async () => {
    const t = await createTemplate(owner.token);
    await api('DELETE', `/api/templates/${t.id}`, { token: owner.token });
    const before = await api('GET', '/api/submissions?limit=100', { token: owner.token });
    const res = await api('POST', '/api/submissions', {
      token: owner.token,
      body: { template_id: t.id, submitters: [{ email: 'a@example.com' }] },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toContain('is archived');
    const after = await api('GET', '/api/submissions?limit=100', { token: owner.token });
    expect(after.json.data.length).toBe(before.json.data.length);
  });

  it('answers 400 for a missing submitters list and malformed JSON', async () => {
    expect((await api('POST', '/api/submissions', { token: owner.token, body: { template_id: template.id } })).status).toBe(400);
    expect((await api('POST', '/api/submissions', { token: owner.token, body: '{"template_id":' })).status).toBe(400);
  });

  it('answers 404 for another account’s template', async () => {
    const other = await createAccount({ plan: 'pro' });
    const res = await api('POST', '/api/submissions', { token: other.token, body: twoSigners() });
    expect(res.status).toBe(404);
  });
});

describe('authorization', () => {
  it('answers 401 without a token', async () => {
    expect((await api('POST', '/api/submissions', { body: twoSigners() })).status).toBe(401);
  });

  it('lets a submissions:draft token create drafts but not send', async () => {
    const token = await createToken(owner.accountId, owner.userId, ['submissions:draft']);
    const sent = await api('POST', '/api/submissions', { token, body: twoSigners() });
    expect(sent.status).toBe(403);
    expect(sent.json.error).toBe('Insufficient scope. Required: submissions:send');
    const draft = await api('POST', '/api/submissions', { token, body: twoSigners({ draft: true }) });
    expect(draft.status).toBe(201);
    const send = await api('POST', `/api/submissions/${draft.json.id}/send`, { token });
    expect(send.status).toBe(403);
  });

  it('refuses a token without submissions scopes', async () => {
    const token = await createToken(owner.accountId, owner.userId, ['templates:read']);
    const res = await api('POST', '/api/submissions', { token, body: twoSigners() });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: submissions:send');
  });

  it('replays an idempotent create instead of creating twice', async () => {
    const headers = { 'Idempotency-Key': 'create-sub-1' };
    const [a, b] = [
      await api('POST', '/api/submissions', { token: owner.token, body: twoSigners(), headers }),
      await api('POST', '/api/submissions', { token: owner.token, body: twoSigners(), headers }),
    ];
    expect(a.status).toBe(201);
    expect(b.headers.get('Idempotency-Replayed')).toBe('true');
    expect(b.json.id).toBe(a.json.id);
  });

  it('stops at the free plan’s monthly submissions with 403 and upgrade_url', async () => {
    const free = await createAccount({ plan: 'free' });
    const t = await createTemplate(free.token);
    const body = {
      template_id: t.id,
      send_email: false,
      submissions: Array.from({ length: 10 }, (_, i) => ({ submitters: [{ email: `f${i}@example.com` }] })),
    };
    expect((await api('POST', '/api/submissions', { token: free.token, body })).status).toBe(201);
    const over = await api('POST', '/api/submissions', {
      token: free.token,
      body: { template_id: t.id, submitters: [{ email: 'x@example.com' }] },
    });
    expect(over.status).toBe(403);
    expect(over.json.upgrade_url).toBeTruthy();
  });

  it('holds the monthly limit exactly when requests arrive together', async () => {
    const free = await createAccount({ plan: 'free' });
    const t = await createTemplate(free.token);
    const results = await Promise.all(
      Array.from({ length: 14 }, (_, i) =>
        api('POST', '/api/submissions', {
          token: free.token,
          body: { template_id: t.id, send_email: false, submitters: [{ email: `race${i}@example.com` }] },
        }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    expect(results.filter((r) => r.status === 403).every((r) => r.json.upgrade_url)).toBe(true);
    const { results: rows } = await (await shardOf(free.accountId))
      .prepare('SELECT count(*) AS n FROM submissions WHERE account_id = ?')
      .bind(free.accountId)
      .all<{ n: number }>();
    expect(rows[0].n).toBe(10);
  });
});

describe('DocuSeal-compatible submitter matching (issue 21 › 12)', () => {
  const roleOf = (res: { json: { submitters: { role: string; email: string }[] } }, email: string) =>
    res.json.submitters.find((x) => x.email === email)?.role;

  it('takes a subset of the roles; the roles left out are not part of the submission', async () => {
    const res = await api('POST', '/api/submissions', {
      token: owner.token,
      body: { template_id: template.id, submitters: [{ role: 'Manager', email: 'only-manager@example.com' }] },
    });
    expect(res.status).toBe(201);
    expect(res.json.submitters.map((x: { role: string }) => x.role)).toEqual(['Manager']);
  });

  it('completes a subset submission without the left-out role’s required fields', async () => {
    const res = await api('POST', '/api/submissions', {
      token: owner.token,
      body: { template_id: template.id, submitters: [{ role: 'Client', email: 'only-client@example.com' }] },
    });
    expect(res.status).toBe(201);
    const done = await api('PUT', `/api/submitters/${res.json.submitters[0].id}`, {
      token: owner.token,
      body: { values: completeValues('Client'), completed: true },
    });
    expect(done.status).toBe(200);
    const submission = await api('GET', `/api/submissions/${res.json.id}`, { token: owner.token });
    expect(submission.json.status).toBe('completed');
  });

  it('matches by role before uuid', async () => {
    const client = template.roles.find((r) => r.name === 'Client')!;
    const res = await api('POST', '/api/submissions', {
      token: owner.token,
      body: { template_id: template.id, submitters: [{ role: 'Manager', uuid: client.uuid, email: 'role-first@example.com' }] },
    });
    expect(res.status).toBe(201);
    expect(roleOf(res, 'role-first@example.com')).toBe('Manager');
  });

  it('matches by uuid when the role is omitted or names no role', async () => {
    const manager = template.roles.find((r) => r.name === 'Manager')!;
    const res = await api('POST', '/api/submissions', {
      token: owner.token,
      body: {
        template_id: template.id,
        submitters: [
          { uuid: manager.uuid, email: 'by-uuid@example.com' },
          { role: 'Signer', uuid: template.roles.find((r) => r.name === 'Client')!.uuid, email: 'by-uuid-2@example.com' },
        ],
      },
    });
    expect(res.status).toBe(201);
    expect(roleOf(res, 'by-uuid@example.com')).toBe('Manager');
    expect(roleOf(res, 'by-uuid-2@example.com')).toBe('Client');
  });

  it('matches by position when neither role nor uuid is given', async () => {
    const res = await api('POST', '/api/submissions', {
      token: owner.token,
      body: { template_id: template.id, submitters: [{ role: 'Manager', email: 'named@example.com' }, { email: 'second@example.com' }] },
    });
    expect(res.status).toBe(201);
    // Index 1 is Manager, already taken: the next free role.
    expect(roleOf(res, 'second@example.com')).toBe('Client');
    const plain = await api('POST', '/api/submissions', {
      token: owner.token,
      body: { template_id: template.id, submitters: [{ email: 'p1@example.com' }, { email: 'p2@example.com' }] },
    });
    expect([roleOf(plain, 'p1@example.com'), roleOf(plain, 'p2@example.com')]).toEqual(['Client', 'Manager']);
  });
});
