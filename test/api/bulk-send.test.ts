// Bulk send with values (issue 33 › 3): POST /api/templates/{id}/bulk_send (CSV or JSON rows, dry run),
// GET /api/bulk_sends/{id} and …/rows; rows created through the messages queue, each once.
import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../src/index';
import { shardScope } from '../../src/db/shards';
import { requeueStalledBulkChunks } from '../../src/scheduled/bulk-send-sweep';
import type { MessageQueueBody } from '../../src/env';
import { api, createAccount, createToken, shardOf } from '../helpers';
import { shardNumberOf } from '../shard-fixtures';
import { createTemplate } from '../submission-fixtures';

function csvForm(csv: string | Uint8Array, extra: Record<string, string> = {}): FormData {
  const form = new FormData();
  form.append('file', new File([csv], 'rows.csv', { type: 'text/csv' }));
  for (const [key, value] of Object.entries(extra)) form.append(key, value);
  return form;
}

async function waitCompleted(token: string, id: number) {
  for (let i = 0; i < 300; i += 1) {
    const res = await api('GET', `/api/bulk_sends/${id}`, { token });
    expect(res.status).toBe(200);
    if (res.json.status === 'completed') return res.json;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`bulk send ${id} did not complete`);
}

async function submissionsOf(accountId: number) {
  const db = await shardOf(accountId);
  const { results } = await db
    .prepare('SELECT id, source, metadata FROM submissions WHERE account_id = ? ORDER BY id')
    .bind(accountId)
    .all<{ id: number; source: string; metadata: string }>();
  return results;
}

async function submittersOf(accountId: number) {
  const db = await shardOf(accountId);
  const { results } = await db
    .prepare(
      'SELECT submission_id, role, email, name, phone, external_id, "values" FROM submitters WHERE account_id = ? ORDER BY submission_id, position',
    )
    .bind(accountId)
    .all<{
      submission_id: number;
      role: string;
      email: string;
      name: string | null;
      phone: string | null;
      external_id: string | null;
      values: string;
    }>();
  return results;
}

describe('POST /api/templates/{id}/bulk_send', () => {
  it('creates one submission per CSV row with its contacts, values, external_id and metadata, and counts them', async () => {
    const a = await createAccount();
    const template = await createTemplate(a.token, ['Buyer', 'Seller']);
    const csv =
      'Buyer email,Buyer name,Buyer external_id,Seller email,Seller phone,Buyer Name,Seller Date,metadata.deal\r\n' +
      'ann@example.com,Ann,crm-1,sam@example.com,+14155550123,Ann Buyer,2026-12-01,D-1\r\n' +
      'bob@example.com,Bob,crm-2,sue@example.com,,Bob Buyer,,D-2\r\n';
    const res = await api('POST', `/api/templates/${template.id}/bulk_send`, { token: a.token, body: csvForm(csv) });
    expect(res.status).toBe(202);
    expect(res.json).toMatchObject({ template_id: template.id, total: 2, created: 0, failed: 0 });
    const done = await waitCompleted(a.token, res.json.id);
    expect(done).toMatchObject({ status: 'completed', total: 2, created: 2, failed: 0 });
    expect(done.completed_at).toEqual(expect.any(String));

    const submissions = await submissionsOf(a.accountId);
    expect(submissions.map((s) => [s.source, JSON.parse(s.metadata)])).toEqual([
      ['bulk', { deal: 'D-1' }],
      ['bulk', { deal: 'D-2' }],
    ]);
    const submitters = await submittersOf(a.accountId);
    const nameField = template.fields.find((f) => f.name === 'Buyer Name')!;
    const dateField = template.fields.find((f) => f.name === 'Seller Date')!;
    expect(submitters.map((s) => [s.role, s.email, s.name, s.phone, s.external_id, JSON.parse(s.values)])).toEqual([
      ['Buyer', 'ann@example.com', 'Ann', null, 'crm-1', { [nameField.uuid]: 'Ann Buyer' }],
      ['Seller', 'sam@example.com', null, '+14155550123', null, { [dateField.uuid]: '2026-12-01' }],
      ['Buyer', 'bob@example.com', 'Bob', null, 'crm-2', { [nameField.uuid]: 'Bob Buyer' }],
      ['Seller', 'sue@example.com', null, null, null, {}],
    ]);
    const rows = await api('GET', `/api/bulk_sends/${res.json.id}/rows?status=created`, { token: a.token });
    expect(rows.status).toBe(200);
    expect(rows.json.data.map((r: { row: number; submission_id: number }) => [r.row, r.submission_id])).toEqual([
      [2, submissions[1].id],
      [1, submissions[0].id],
    ]);
  });

  it('takes JSON rows with the bare column names of a one-role template', async () => {
    const a = await createAccount();
    const template = await createTemplate(a.token);
    const res = await api('POST', `/api/templates/${template.id}/bulk_send`, {
      token: a.token,
      body: {
        rows: [{ email: 'one@example.com', name: 'One', 'First Party Agree': true }, { email: 'two@example.com' }],
        send_email: false,
      },
    });
    expect(res.status).toBe(202);
    expect(await waitCompleted(a.token, res.json.id)).toMatchObject({ created: 2, failed: 0 });
    const agree = template.fields.find((f) => f.name === 'First Party Agree')!;
    const submitters = await submittersOf(a.accountId);
    expect(submitters.map((s) => [s.email, JSON.parse(s.values)])).toEqual([
      ['one@example.com', { [agree.uuid]: true }],
      ['two@example.com', {}],
    ]);
  });

  it('dry_run checks every row and answers with row-numbered sentences, creating nothing', async () => {
    const a = await createAccount();
    const template = await createTemplate(a.token, ['Buyer', 'Seller']);
    const csv =
      'Buyer email,Seller email,Buyer Date,Seller Agree\n' +
      'ann@example.com,sam@example.com,2026-12-01,true\n' +
      'not-an-email,sam@example.com,someday,maybe\n' +
      ',,,\n' +
      'bob@example.com,,,\n';
    const res = await api('POST', `/api/templates/${template.id}/bulk_send`, { token: a.token, body: csvForm(csv, { dry_run: 'true' }) });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      dry_run: true,
      total: 4,
      valid: 2,
      invalid: 2,
      errors: [
        'Row 2, Buyer: email "not-an-email" is not a valid email address.',
        'Row 2, Buyer: Field "Buyer Date" takes a date such as 2026-05-31 or 05/31/2026.',
        'Row 2, Seller: Field "Seller Agree" takes true or false.',
        "Row 3 names nobody; give at least one role's email.",
      ],
    });
    expect(await submissionsOf(a.accountId)).toEqual([]);
    const db = await shardOf(a.accountId);
    expect(await db.prepare('SELECT count(*) AS n FROM bulk_sends WHERE account_id = ?').bind(a.accountId).first('n')).toBe(0);
  });

  it('refuses an upload with any invalid row with 422 and the sentences, creating nothing', async () => {
    const a = await createAccount();
    const template = await createTemplate(a.token);
    const res = await api('POST', `/api/templates/${template.id}/bulk_send`, {
      token: a.token,
      body: { rows: [{ email: 'ok@example.com' }, { email: 'ok2@example.com', 'First Party Agree': 'perhaps' }] },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toEqual([
      '1 of 2 rows cannot be sent; nothing was created.',
      'Row 2, First Party: Field "First Party Agree" takes true or false.',
    ]);
    expect(await submissionsOf(a.accountId)).toEqual([]);
  });

  it('refuses columns that fill nothing or fill the same thing twice, naming them', async () => {
    const a = await createAccount();
    const template = await createTemplate(a.token, ['Buyer', 'Seller']);
    const unknown = await api('POST', `/api/templates/${template.id}/bulk_send`, {
      token: a.token,
      body: csvForm('Buyer email,Colour\nann@example.com,red\n'),
    });
    expect(unknown.status).toBe(422);
    expect(unknown.json.error).toMatch(/^Column "Colour" is not "<Role> email"/);
    const twice = await api('POST', `/api/templates/${template.id}/bulk_send`, {
      token: a.token,
      body: csvForm('Buyer email,buyer  EMAIL\nann@example.com,ann@example.com\n'),
    });
    expect(twice.status).toBe(422);
    expect(twice.json.error).toBe('Columns "Buyer email" and "buyer  EMAIL" both give the Buyer\'s email; keep one of them.');
    const bare = await api('POST', `/api/templates/${template.id}/bulk_send`, {
      token: a.token,
      body: { rows: [{ email: 'a@example.com' }] },
    });
    expect(bare.status).toBe(422);
    expect(bare.json.error).toMatch(/^Column "email" is not/);
  });

  it('applies the plan limit per row: the rows past the month’s remaining submissions fail with its sentence', async () => {
    const a = await createAccount({ plan: 'free' });
    const template = await createTemplate(a.token);
    const rows = Array.from({ length: 12 }, (_, i) => ({ email: `p${i}@example.com` }));
    const dry = await api('POST', `/api/templates/${template.id}/bulk_send`, { token: a.token, body: { rows, dry_run: true } });
    expect(dry.status).toBe(200);
    expect(dry.json).toMatchObject({ valid: 10, invalid: 2 });
    expect(dry.json.errors[0]).toMatch(/^Row 11: Your free plan allows 10 submissions a month/);
    const res = await api('POST', `/api/templates/${template.id}/bulk_send`, { token: a.token, body: { rows, send_email: false } });
    expect(res.status).toBe(202);
    expect(await waitCompleted(a.token, res.json.id)).toMatchObject({ total: 12, created: 10, failed: 2 });
    const failed = await api('GET', `/api/bulk_sends/${res.json.id}/rows?status=failed&limit=1`, { token: a.token });
    expect(failed.status).toBe(200);
    expect(failed.json.data).toEqual([
      expect.objectContaining({
        row: 12,
        status: 'failed',
        submission_id: null,
        errors: [expect.stringMatching(/^Row 12: Your free plan allows 10/)],
      }),
    ]);
    const next = await api('GET', `/api/bulk_sends/${res.json.id}/rows?status=failed&limit=1&after=${failed.json.pagination.next}`, {
      token: a.token,
    });
    expect(next.json.data.map((r: { row: number }) => r.row)).toEqual([11]);
    expect(next.json.pagination.next).toBeNull();
    expect(await submissionsOf(a.accountId)).toHaveLength(10);
  });
});

/** The bindings with a messages queue that keeps what it is given instead of delivering it. */
function heldQueue() {
  const held: MessageQueueBody[] = [];
  const queue = {
    send: async (body: MessageQueueBody) => void held.push(body),
    sendBatch: async (messages: Iterable<{ body: MessageQueueBody }>) => void held.push(...[...messages].map((m) => m.body)),
  } as unknown as Queue<MessageQueueBody>;
  return { held, bindings: { ...env, MESSAGES_QUEUE: queue } };
}

async function deliver(bindings: typeof env, bodies: MessageQueueBody[], attempts = 1) {
  const batch = createMessageBatch<MessageQueueBody>(
    'signing-service-messages',
    bodies.map((body, i) => ({ id: `bulk-${Math.random()}-${i}`, timestamp: new Date(), attempts, body })),
  );
  const ctx = createExecutionContext();
  await worker.queue(batch, bindings, ctx);
  return getQueueResult(batch, ctx);
}

/** POST …/bulk_send with the held queue: the chunk messages stay in `held` for the test to deliver. */
async function postHeld(bindings: typeof env, token: string, templateId: string, rows: object[]): Promise<{ id: number }> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`https://api.test/api/templates/${templateId}/bulk_send`, {
      method: 'POST',
      headers: { 'X-Auth-Token': token, 'Content-Type': 'application/json', 'CF-Connecting-IP': '198.51.100.7' },
      body: JSON.stringify({ rows }),
    }),
    bindings,
    ctx,
  );
  expect(res.status).toBe(202);
  return (await res.json()) as { id: number };
}

describe('a bulk send chunk delivered more than once', () => {
  it('creates each row once: twice at the same time, and again after it was stored', async () => {
    const a = await createAccount();
    const template = await createTemplate(a.token);
    const { held, bindings } = heldQueue();
    const { id } = await postHeld(
      bindings,
      a.token,
      template.id,
      Array.from({ length: 5 }, (_, i) => ({ email: `twice${i}@example.com` })),
    );
    const chunk = held.filter((b) => b.type === 'bulk_send');
    expect(chunk).toEqual([expect.objectContaining({ type: 'bulk_send', bulkSendId: id, chunk: 0 })]);

    // Two deliveries racing, then a third once both are done: every one is acknowledged.
    const results = await Promise.all([deliver(bindings, chunk), deliver(bindings, chunk)]);
    const late = await deliver(bindings, chunk);
    for (const r of [...results, late]) expect(r, JSON.stringify(r)).toMatchObject({ explicitAcks: [expect.any(String)] });

    expect(await submissionsOf(a.accountId)).toHaveLength(5);
    const send = await api('GET', `/api/bulk_sends/${id}`, { token: a.token });
    expect(send.json).toMatchObject({ status: 'completed', total: 5, created: 5, failed: 0 });
    const rows = await api('GET', `/api/bulk_sends/${id}/rows?limit=100`, { token: a.token });
    expect(rows.json.data).toHaveLength(5);
  });
});

describe('a bulk send chunk checked again when it is stored', () => {
  it('fails every row with the sentence when the template was archived after the upload', async () => {
    const a = await createAccount();
    const template = await createTemplate(a.token);
    const { held, bindings } = heldQueue();
    const { id } = await postHeld(bindings, a.token, template.id, [{ email: 'late1@example.com' }, { email: 'late2@example.com' }]);
    expect((await api('DELETE', `/api/templates/${template.id}`, { token: a.token })).status).toBe(200);
    const result = await deliver(bindings, held);
    expect(result.explicitAcks).toHaveLength(1);
    expect((await api('GET', `/api/bulk_sends/${id}`, { token: a.token })).json).toMatchObject({
      status: 'completed',
      created: 0,
      failed: 2,
    });
    const failed = await api('GET', `/api/bulk_sends/${id}/rows?status=failed`, { token: a.token });
    expect(failed.json.data.map((r: { errors: string[] }) => r.errors)).toEqual([
      [`Row 2: Template ${template.id} is archived; restore it before sending it for signing.`],
      [`Row 1: Template ${template.id} is archived; restore it before sending it for signing.`],
    ]);
  });
});

describe('a bulk send chunk that cannot be stored', () => {
  it('is retried, and after the last delivery its rows are recorded as failed so the send completes', async () => {
    const a = await createAccount();
    const template = await createTemplate(a.token);
    const { held, bindings } = heldQueue();
    const res = await postHeld(bindings, a.token, template.id, [{ email: 'r1@example.com' }, { email: 'r2@example.com' }]);
    const chunk = held.filter((b) => b.type === 'bulk_send');
    // D1 refuses this account's bulk submissions, as a failing database would.
    const db = await shardOf(a.accountId);
    await db
      .prepare(
        `CREATE TRIGGER refuse_bulk_${a.accountId} BEFORE INSERT ON submissions WHEN NEW.account_id = ${a.accountId} BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
      )
      .run();
    try {
      const first = await deliver(bindings, chunk, 1);
      expect(first.retryMessages).toHaveLength(1);
      expect((await api('GET', `/api/bulk_sends/${res.id}`, { token: a.token })).json).toMatchObject({
        status: 'queued',
        created: 0,
        failed: 0,
      });
      const last = await deliver(bindings, chunk, 11);
      expect(last.explicitAcks).toHaveLength(1);
    } finally {
      await db.prepare(`DROP TRIGGER refuse_bulk_${a.accountId}`).run();
    }
    expect((await api('GET', `/api/bulk_sends/${res.id}`, { token: a.token })).json).toMatchObject({
      status: 'completed',
      created: 0,
      failed: 2,
    });
    const failed = await api('GET', `/api/bulk_sends/${res.id}/rows?status=failed`, { token: a.token });
    expect(failed.json.data.map((r: { errors: string[] }) => r.errors)).toEqual([
      ['Row 2: the submission could not be created (the service could not store it); send this row again.'],
      ['Row 1: the submission could not be created (the service could not store it); send this row again.'],
    ]);
    expect(await submissionsOf(a.accountId)).toEqual([]);
  });
});

describe('a bulk send whose queue message was lost', () => {
  it('is re-queued by the cron once it made no progress for 15 minutes, and then stored', async () => {
    const a = await createAccount();
    const template = await createTemplate(a.token);
    const lost = heldQueue();
    const { id } = await postHeld(lost.bindings, a.token, template.id, [{ email: 'lost@example.com' }]);
    const again = heldQueue();
    const scope = shardScope(again.bindings, await shardNumberOf(a.accountId));
    expect(await requeueStalledBulkChunks(scope)).toBe(0);
    expect(await requeueStalledBulkChunks(scope, Date.now() + 16 * 60_000)).toBe(1);
    // Touched: the next run waits another 15 minutes.
    expect(await requeueStalledBulkChunks(scope, Date.now() + 17 * 60_000)).toBe(0);
    expect(again.held).toEqual([expect.objectContaining({ type: 'bulk_send', bulkSendId: id, chunk: 0 })]);
    await deliver(again.bindings, again.held);
    expect((await api('GET', `/api/bulk_sends/${id}`, { token: a.token })).json).toMatchObject({ status: 'completed', created: 1 });
  });
});

describe('bulk send access', () => {
  it('answers 401 without a token', async () => {
    expect((await api('POST', '/api/templates/1/bulk_send', { body: { rows: [] } })).status).toBe(401);
    expect((await api('GET', '/api/bulk_sends/1')).status).toBe(401);
    expect((await api('GET', '/api/bulk_sends/1/rows')).status).toBe(401);
  });

  it('needs submissions:write, and submissions:send as well to send', async () => {
    const a = await createAccount();
    const template = await createTemplate(a.token);
    const body = { rows: [{ email: 'scoped@example.com' }] };
    const readOnly = await createToken(a.accountId, a.userId, ['submissions:read']);
    const res = await api('POST', `/api/templates/${template.id}/bulk_send`, { token: readOnly, body });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: submissions:write');
    const sendOnly = await createToken(a.accountId, a.userId, ['submissions:send']);
    expect((await api('POST', `/api/templates/${template.id}/bulk_send`, { token: sendOnly, body })).status).toBe(403);

    const write = await createToken(a.accountId, a.userId, ['submissions:write']);
    expect((await api('POST', `/api/templates/${template.id}/bulk_send`, { token: write, body: { ...body, dry_run: true } })).status).toBe(
      200,
    );
    const refused = await api('POST', `/api/templates/${template.id}/bulk_send`, { token: write, body });
    expect(refused.status).toBe(403);
    expect(refused.json.error).toBe('Insufficient scope. Required: submissions:send');
    expect(await submissionsOf(a.accountId)).toEqual([]);

    const both = await createToken(a.accountId, a.userId, ['submissions:write', 'submissions:send']);
    const sent = await api('POST', `/api/templates/${template.id}/bulk_send`, { token: both, body: { ...body, send_email: false } });
    expect(sent.status).toBe(202);
    expect((await api('GET', `/api/bulk_sends/${sent.json.id}`, { token: readOnly })).status).toBe(200);
  });

  it('answers 404 for another account’s template and bulk send', async () => {
    const a = await createAccount();
    const b = await createAccount();
    const template = await createTemplate(a.token);
    const sent = await api('POST', `/api/templates/${template.id}/bulk_send`, {
      token: a.token,
      body: { rows: [{ email: 'mine@example.com' }], send_email: false },
    });
    expect(sent.status).toBe(202);
    const other = await api('POST', `/api/templates/${template.id}/bulk_send`, {
      token: b.token,
      body: { rows: [{ email: 'x@example.com' }] },
    });
    expect(other.status).toBe(404);
    expect(other.json.error).toBe('Template not found.');
    expect((await api('GET', `/api/bulk_sends/${sent.json.id}`, { token: b.token })).status).toBe(404);
    const rows = await api('GET', `/api/bulk_sends/${sent.json.id}/rows`, { token: b.token });
    expect(rows.status).toBe(404);
    expect(rows.json.error).toBe('Bulk send not found.');
  });
});

describe('hostile CSV', () => {
  it('reads a byte-order mark, CRLF and quoted cells with commas, quotes and line breaks, and keeps formulas as inert text', async () => {
    const a = await createAccount();
    const template = await createTemplate(a.token);
    const csv =
      '\uFEFFemail,name,First Party Name,metadata.note\r\n' +
      'q@example.com,"Doe, ""Jo""","=HYPERLINK(""http://evil.example"",""click"")","line one\r\nline two"\r\n' +
      'r@example.com,+SUM(A1:A2),@cmd,-1+1\r\n';
    const res = await api('POST', `/api/templates/${template.id}/bulk_send`, {
      token: a.token,
      body: csvForm(csv, { send_email: 'false' }),
    });
    expect(res.status, res.text).toBe(202);
    expect(await waitCompleted(a.token, res.json.id)).toMatchObject({ created: 2, failed: 0 });
    const nameField = template.fields.find((f) => f.name === 'First Party Name')!;
    const submitters = await submittersOf(a.accountId);
    expect(submitters.map((s) => [s.email, s.name, JSON.parse(s.values)[nameField.uuid]])).toEqual([
      ['q@example.com', 'Doe, "Jo"', '=HYPERLINK("http://evil.example","click")'],
      ['r@example.com', '+SUM(A1:A2)', '@cmd'],
    ]);
    expect((await submissionsOf(a.accountId)).map((s) => JSON.parse(s.metadata).note)).toEqual(['line one\r\nline two', '-1+1']);
  });

  it('answers every malformed file with a 4xx sentence, never a 500', async () => {
    const a = await createAccount();
    const template = await createTemplate(a.token);
    const post = (body: FormData | object) => api('POST', `/api/templates/${template.id}/bulk_send`, { token: a.token, body });
    const cases: [FormData | object, number, string | RegExp][] = [
      [csvForm('email\n"never closed\n'), 422, 'Row 1: a quoted cell is never closed; end it with a double quote (").'],
      [
        csvForm(`email,name\nx@example.com,${'a'.repeat(10_001)}\n`),
        422,
        /^Row 1: a cell has 10,001 characters; a cell may hold at most 10,000\.$/,
      ],
      [csvForm(`email\n${'r@example.com\n'.repeat(10_001)}`), 422, 'The file has more than 10,000 rows; split it into several bulk sends.'],
      [csvForm(''), 422, 'The file is empty; its first line names the columns, the next ones are the rows.'],
      [csvForm('email\r\n\r\n'), 422, /^There are no rows/],
      [csvForm(new Uint8Array([0x65, 0x6d, 0xff, 0xfe, 0x0a])), 400, /^The CSV file is not valid UTF-8/],
      [csvForm('email,,\nx@example.com,,\n'), 422, 'Column 2 has no name; every column needs one in the first line.'],
      [csvForm('email\nx@example.com,extra\n', { dry_run: 'true' }), 200, ''],
      [
        (() => {
          const f = new FormData();
          f.append('rows', 'email');
          return f;
        })(),
        422,
        'Attach the CSV as a file part named "file".',
      ],
      [{ rows: 'email,name' }, 422, /^rows must be a list/],
      [{ rows: [['x@example.com']] }, 422, /^rows\[0\] must be an object/],
      [{ rows: [{ email: { $ne: '' } }], dry_run: true }, 200, ''],
      [{ rows: [{ email: 'x@example.com' }], dry_run: 'yes' }, 422, 'dry_run must be true or false.'],
    ];
    for (const [body, status, error] of cases) {
      const res = await post(body);
      expect(res.status, JSON.stringify(res.json)).toBe(status);
      if (error) expect(String(res.json.error)).toMatch(error);
    }
    const extra = await post(csvForm('email\nx@example.com,extra\n', { dry_run: 'true' }));
    expect(extra.json.errors).toEqual(['Row 1 has 2 cells but the header names 1 columns.']);
    const object = await post({ rows: [{ email: { $ne: '' } }], dry_run: true });
    expect(object.json.errors).toEqual([
      'Row 1, "email": give text, a number or true/false, not a list or an object.',
      "Row 1 names nobody; give at least one role's email.",
    ]);
    const big = await post(csvForm(`email,name\n${`x@example.com,${'n'.repeat(9_000)}\n`.repeat(600)}`));
    expect(big.status).toBe(413);
    expect(big.json.error).toMatch(/larger than 5 MB/);
    expect(await submissionsOf(a.accountId)).toEqual([]);
  });
});
