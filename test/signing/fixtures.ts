// Submissions to sign in route tests. Until POST /api/submissions lands, rows are written straight to D1
// (the same tables the app uses) from a template created through the API.
import { env } from 'cloudflare:test';
import { api, createAccount, type TestAccount } from '../helpers';
import { makePdf, toBase64 } from '../fixtures/pdfs';

export type FieldInput = { name: string; type: string; role?: string; required?: boolean; [key: string]: unknown };

export type Fixture = {
  account: TestAccount;
  templateId: string;
  submissionId: number;
  fields: { uuid: string; name: string; type: string; submitter_uuid: string }[];
  documents: { uuid: string }[];
  submitters: { id: number; slug: string; email: string; role: string }[];
  field(name: string): string;
};

let n = 0;

export async function signingFixture(
  options: {
    roles?: string[];
    fields?: FieldInput[];
    preferences?: Record<string, unknown>;
    order?: 'sequential' | 'parallel';
    submitters?: { email: string | null; name?: string; role?: string; values?: Record<string, unknown> }[];
    submissionPreferences?: Record<string, unknown>;
  } = {},
): Promise<Fixture> {
  const account = await createAccount();
  const roles = options.roles ?? ['First Party'];
  const fields = (options.fields ?? [{ name: 'Full name', type: 'text' }, { name: 'Signature', type: 'signature' }]).map((f, i) => ({
    role: roles[0],
    required: true,
    areas: [{ page: 1, x: 0.1, y: 0.1 + i * 0.08, w: 0.3, h: 0.05 }],
    ...f,
  }));
  const created = await api('POST', '/api/templates/pdf', {
    token: account.token,
    body: { name: 'Signing test', documents: [{ name: 'contract', file: toBase64(await makePdf(2)) }], submitters: roles.map((name) => ({ name })), fields, preferences: options.preferences ?? {} },
  });
  if (created.status !== 201) throw new Error(`template: ${created.status} ${created.text}`);
  const template = created.json;
  const row = await env.DB.prepare('SELECT id FROM templates WHERE public_id = ?').bind(template.id).first<{ id: number }>();
  const docIds = (await env.DB.prepare('SELECT id FROM template_documents WHERE template_id = ? ORDER BY position').bind(row!.id).all<{ id: number }>()).results.map((r) => r.id);
  n += 1;
  const slug = `SubmissionSlug${String(n).padStart(4, '0')}${Math.random().toString(36).slice(2, 8)}`.replace(/[^0-9A-Za-z]/g, '');
  const order = options.order ?? 'sequential';
  const submission = await env.DB.prepare(
    `INSERT INTO submissions (account_id, template_id, slug, status, submitters_order, link_base, template_version, document_ids, preferences, metadata, sent_at)
     VALUES (?, ?, ?, 'pending', ?, 'https://api.test', 1, ?, ?, '{}', strftime('%Y-%m-%dT%H:%M:%fZ','now')) RETURNING id`,
  )
    .bind(account.accountId, row!.id, slug, order, JSON.stringify(docIds), JSON.stringify(options.submissionPreferences ?? {}))
    .first<{ id: number }>();
  const people: { email: string | null; name?: string; role?: string; values?: Record<string, unknown> }[] =
    options.submitters ?? roles.map((role, i) => ({ email: `signer${i + 1}-${n}@example.com`, name: `Signer ${i + 1}`, role }));
  const submitters: Fixture['submitters'] = [];
  for (const [i, person] of people.entries()) {
    const role = template.submitters.find((r: { name: string }) => r.name === (person.role ?? roles[i]));
    const s = `Signer${n}x${i}${Math.random().toString(36).slice(2, 10)}`.replace(/[^0-9A-Za-z]/g, '').padEnd(16, '0');
    const status = order === 'parallel' || i === 0 ? 'sent' : 'waiting';
    const values = person.values ?? {};
    const inserted = await env.DB.prepare(
      `INSERT INTO submitters (account_id, submission_id, uuid, slug, role_uuid, role, position, email, name, status, "values", prefilled, metadata)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '{}') RETURNING id`,
    )
      .bind(account.accountId, submission!.id, crypto.randomUUID(), s, role.uuid, role.name, i, person.email, person.name ?? null, status, JSON.stringify(values), JSON.stringify(Object.keys(values)))
      .first<{ id: number }>();
    submitters.push({ id: inserted!.id, slug: s, email: person.email ?? '', role: role.name });
  }
  return {
    account,
    templateId: template.id,
    submissionId: submission!.id,
    fields: template.schema,
    documents: template.documents,
    submitters,
    field(name: string) {
      const f = template.schema.find((x: { name: string }) => x.name === name);
      if (!f) throw new Error(`no field ${name}`);
      return f.uuid;
    },
  };
}

/** A request from the signing page itself (same origin). */
export function page(method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}) {
  return api(method, path, { ...options, headers: { Origin: 'https://api.test', ...options.headers } });
}

export async function eventsOf(accountId: number, event?: string): Promise<{ event: string; data: any }[]> {
  const rows = await env.DB.prepare(`SELECT event, data FROM events WHERE account_id = ? ${event ? 'AND event = ?' : ''} ORDER BY id`)
    .bind(...(event ? [accountId, event] : [accountId]))
    .all<{ event: string; data: string }>();
  return rows.results.map((r) => ({ event: r.event, data: JSON.parse(r.data) }));
}

export async function submitterRow(id: number): Promise<Record<string, any>> {
  return (await env.DB.prepare('SELECT * FROM submitters WHERE id = ?').bind(id).first())!;
}

export async function messagesTo(recipient: string, kind?: string): Promise<{ kind: string; subject: string; text: string }[]> {
  const rows = await env.DB.prepare(`SELECT kind, subject, text FROM messages WHERE recipient = ? ${kind ? 'AND kind = ?' : ''} ORDER BY id`)
    .bind(...(kind ? [recipient, kind] : [recipient]))
    .all<{ kind: string; subject: string; text: string }>();
  return rows.results;
}
