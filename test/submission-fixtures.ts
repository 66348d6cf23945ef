// Templates and submissions for tests, made through the real API.
import { allShards, api } from './helpers';
import { makePdf, toBase64 } from './fixtures/pdfs';

export type TemplateFixture = {
  id: string;
  roles: { name: string; uuid: string }[];
  fields: { uuid: string; name: string; type: string; submitter_uuid: string }[];
};

/** A one-page template with roles and a text, date, checkbox and signature field per role. */
export async function createTemplate(
  token: string,
  roles: string[] = ['First Party'],
  extraFields: Record<string, unknown>[] = [],
): Promise<TemplateFixture> {
  const pdf = await makePdf(1);
  const fields = roles.flatMap((role, i) => [
    { name: `${role} Name`, type: 'text', role, required: true, areas: [{ page: 1, x: 0.1, y: 0.1 + i * 0.2, w: 0.3, h: 0.04 }] },
    { name: `${role} Date`, type: 'date', role, areas: [{ page: 1, x: 0.5, y: 0.1 + i * 0.2, w: 0.2, h: 0.04 }] },
    { name: `${role} Agree`, type: 'checkbox', role, areas: [{ page: 1, x: 0.75, y: 0.1 + i * 0.2, w: 0.04, h: 0.04 }] },
    {
      name: `${role} Signature`,
      type: 'signature',
      role,
      required: true,
      areas: [{ page: 1, x: 0.1, y: 0.16 + i * 0.2, w: 0.3, h: 0.06 }],
    },
  ]);
  const res = await api('POST', '/api/templates/pdf', {
    token,
    body: {
      name: 'Agreement',
      submitters: roles.map((name) => ({ name })),
      documents: [{ name: 'agreement.pdf', file: toBase64(pdf) }],
      fields: [...fields, ...extraFields],
    },
  });
  if (res.status !== 201) throw new Error(`template fixture: ${res.status} ${res.text}`);
  return { id: res.json.id, roles: res.json.submitters, fields: res.json.schema };
}

/** Values that complete a role of `createTemplate`. */
export function completeValues(role: string) {
  return {
    [`${role} Name`]: `${role} Person`,
    [`${role} Date`]: '2026-11-23',
    [`${role} Agree`]: true,
    [`${role} Signature`]: `${role} Person`,
  };
}

/**
 * A submission of `template` at signature `level` whose signers (`names`: role → signer name, in
 * order) are completed one after another through the API, each with `completeValues` of their role.
 */
export async function completedInOrder(
  token: string,
  template: TemplateFixture,
  level: 'ses' | 'aes',
  names: Record<string, string>,
): Promise<number> {
  const tag = crypto.randomUUID().slice(0, 8);
  const res = await api('POST', '/api/submissions', {
    token,
    body: {
      template_id: template.id,
      preferences: { signature_level: level },
      submitters: Object.entries(names).map(([role, name]) => ({
        role,
        name,
        email: `${role.toLowerCase()}-${tag}@example.com`,
        values: completeValues(role),
      })),
    },
  });
  if (res.status !== 201) throw new Error(`submission fixture: ${res.status} ${res.text}`);
  for (const submitter of res.json.submitters as { id: number }[]) {
    const done = await api('PUT', `/api/submitters/${submitter.id}`, { token, body: { completed: true } });
    if (done.status !== 200) throw new Error(`completion fixture: ${done.status} ${done.text}`);
  }
  return res.json.id;
}

/** The number of the shard an account lives on, for messages and scopes built by hand. */
export { shardNumberOf } from './shard-fixtures';

/**
 * The rows a query finds on every shard, for a check that does not know the account (ids are unique
 * across shards: each shard hands them out from its own block, src/db/id-ranges.ts). Ordered by id when
 * the rows have one, as `ORDER BY id` on one database would.
 */
export async function rowsOnAllShards<Row extends Record<string, unknown>>(sql: string, ...binds: unknown[]): Promise<Row[]> {
  const parts = await Promise.all(
    allShards().map((shard) =>
      shard
        .prepare(sql)
        .bind(...binds)
        .all<Row>(),
    ),
  );
  const rows = parts.flatMap((part) => part.results);
  return rows.every((row) => typeof row.id === 'number') ? rows.sort((a, b) => (a.id as number) - (b.id as number)) : rows;
}

export async function outboxRows(where: string, ...binds: unknown[]) {
  const results = await rowsOnAllShards<{ id: number; event: string; data: string }>(
    `SELECT * FROM events WHERE ${where} ORDER BY id`,
    ...binds,
  );
  return results.map((r) => ({ ...r, data: JSON.parse(r.data) }));
}

export async function messagesTo(recipient: string) {
  return rowsOnAllShards<{ id: number; kind: string; channel: string; subject: string; text: string; html: string }>(
    'SELECT * FROM messages WHERE recipient = ? ORDER BY id',
    recipient,
  );
}
