// Submissions to sign in route tests, made through the real API (templates, then POST /api/submissions).
import { api, createAccount, shardOf, type TestAccount } from '../helpers';
import { rowsOnAllShards } from '../submission-fixtures';
import { makePdf, toBase64 } from '../fixtures/pdfs';
import { englishDisclosure } from '../../src/services/signing/consent-disclosure';

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
    /** Other keys (phone, send_sms, require_phone_2fa…) go to the create body as they are. */
    submitters?: { email: string | null; name?: string; role?: string; values?: Record<string, unknown>; [key: string]: unknown }[];
    submissionPreferences?: Record<string, unknown>;
  } = {},
): Promise<Fixture> {
  const account = await createAccount();
  const roles = options.roles ?? ['First Party'];
  const fields = (
    options.fields ?? [
      { name: 'Full name', type: 'text' },
      { name: 'Signature', type: 'signature' },
    ]
  ).map((f, i) => ({
    role: roles[0],
    required: true,
    areas: [{ page: 1, x: 0.1, y: 0.1 + i * 0.08, w: 0.3, h: 0.05 }],
    ...f,
  }));
  const created = await api('POST', '/api/templates/pdf', {
    token: account.token,
    body: {
      name: 'Signing test',
      documents: [{ name: 'contract', file: toBase64(await makePdf(2)) }],
      submitters: roles.map((name) => ({ name })),
      fields,
      preferences: options.preferences ?? {},
    },
  });
  if (created.status !== 201) throw new Error(`template: ${created.status} ${created.text}`);
  const template = created.json;
  const order = options.order ?? 'sequential';
  n += 1;
  const people: { email: string | null; name?: string; role?: string; values?: Record<string, unknown>; [key: string]: unknown }[] =
    options.submitters ?? roles.map((role, i) => ({ email: `signer${i + 1}-${n}@example.com`, name: `Signer ${i + 1}`, role }));
  const res = await api('POST', '/api/submissions', {
    token: account.token,
    body: {
      template_id: template.id,
      submitters_order: order,
      submitters: people.map((p, i) => ({ ...p, role: p.role ?? roles[i], email: p.email ?? undefined })),
      ...(options.submissionPreferences ? { preferences: options.submissionPreferences } : {}),
    },
  });
  if (res.status !== 201) throw new Error(`submission: ${res.status} ${res.text}`);
  const submitters: Fixture['submitters'] = res.json.submitters.map((s: { id: number; slug: string; email: string; role: string }) => ({
    id: s.id,
    slug: s.slug,
    email: s.email,
    role: s.role,
  }));
  const submission = { id: res.json.id as number };
  return {
    account,
    templateId: template.id,
    submissionId: submission.id,
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

/**
 * The signer accepts the electronic records disclosure, as the page does before its first signature
 * (POST /s/:slug/consent); the page's submit is refused until then. Not checked here: a test that
 * submits where the form cannot be filled (completed, not its turn) gets its 422 from the submit.
 */
export async function acceptDisclosure(slug: string, headers: Record<string, string> = {}) {
  const res = await page('POST', `/s/${slug}/consent`, { body: { version: englishDisclosure().version }, headers });
  return res;
}

export async function eventsOf(accountId: number, event?: string): Promise<{ event: string; data: any }[]> {
  const rows = await (await shardOf(accountId))
    .prepare(`SELECT event, data FROM events WHERE account_id = ? ${event ? 'AND event = ?' : ''} ORDER BY id`)
    .bind(...(event ? [accountId, event] : [accountId]))
    .all<{ event: string; data: string }>();
  return rows.results.map((r) => ({ event: r.event, data: JSON.parse(r.data) }));
}

export async function submitterRow(id: number): Promise<Record<string, any>> {
  const [row] = await rowsOnAllShards<Record<string, any>>('SELECT * FROM submitters WHERE id = ?', id);
  return row;
}

export async function messagesTo(recipient: string, kind?: string): Promise<{ kind: string; subject: string; text: string }[]> {
  // The id is selected for the order across shards only: callers compare what the signer was sent.
  const rows = await rowsOnAllShards<{ id: number; kind: string; subject: string; text: string }>(
    `SELECT id, kind, subject, text FROM messages WHERE recipient = ? ${kind ? 'AND kind = ?' : ''} ORDER BY id`,
    ...(kind ? [recipient, kind] : [recipient]),
  );
  return rows.map(({ kind, subject, text }) => ({ kind, subject, text }));
}
