// A bulk send's columns and rows as submission inputs (issue 33 › 3; docs/decisions.md › Bulk send):
// `<Role> email|name|phone|external_id|order` (the bare names for a one-role template), a field's name
// (its role's value) or a DOCX variable (the submission's value), and `metadata.<key>`.
import type { BulkSendSettings, Template } from '../../db/schema/index';
import type { SubmissionInput, SubmitterInput, SubmitterLabel } from '../submissions/submission-input';

const CONTACT_KEYS = ['email', 'name', 'phone', 'external_id', 'order'] as const;
type ContactKey = (typeof CONTACT_KEYS)[number];

/** What a column fills. */
export type Column =
  | { kind: 'contact'; role: string; key: ContactKey }
  | { kind: 'field'; role: string; field: string }
  | { kind: 'variable'; name: string }
  | { kind: 'metadata'; key: string };

/** The rows of an upload as cells under their header: a CSV's text, or a JSON row's values by key. */
export type BulkTable = { header: string[]; rows: { row: number; cells: unknown[] }[] };

const norm = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

function describe(column: Column): string {
  if (column.kind === 'contact') return `${column.role}'s ${column.key}`;
  if (column.kind === 'field') return `field "${column.field}"`;
  if (column.kind === 'variable') return `DOCX variable "${column.name}"`;
  return `metadata "${column.key}"`;
}

function resolveColumn(template: Template, variables: ReadonlySet<string>, name: string): Column | undefined {
  const key = norm(name);
  if (key.startsWith('metadata.') && name.trim().length > 'metadata.'.length) return { kind: 'metadata', key: name.trim().slice(9) };
  const roles = template.submitters;
  // A field's exact name wins over the contact reading: "Buyer Name" is the field of that name, when
  // there is one, and "Buyer name" the Buyer's name.
  const exact = template.fields.find((f) => f.name === name.trim());
  const exactOwner = exact && roles.find((r) => r.uuid === exact.submitter_uuid);
  if (exact && exactOwner) return { kind: 'field', role: exactOwner.name, field: exact.name };
  // Longest role name first, so "Signer 2 email" is not read as role "Signer" with key "2 email".
  for (const role of [...roles].sort((a, b) => b.name.length - a.name.length)) {
    const prefix = `${norm(role.name)} `;
    if (!key.startsWith(prefix)) continue;
    const rest = key.slice(prefix.length);
    const contact = CONTACT_KEYS.find((k) => k === rest || k === rest.replace(' ', '_'));
    if (contact) return { kind: 'contact', role: role.name, key: contact };
  }
  const bare = CONTACT_KEYS.find((k) => k === key || k === key.replace(' ', '_'));
  if (bare && roles.length === 1) return { kind: 'contact', role: roles[0].name, key: bare };
  const field = template.fields.find((f) => norm(f.name) === key) ?? template.fields.find((f) => f.uuid === key);
  const owner = field && roles.find((r) => r.uuid === field.submitter_uuid);
  if (field && owner) return { kind: 'field', role: owner.name, field: field.name };
  if (variables.has(name.trim())) return { kind: 'variable', name: name.trim() };
  return undefined;
}

/** Every column resolved, or the sentences naming each column that fills nothing or what another fills. */
export function resolveColumns(
  template: Template,
  variables: ReadonlySet<string>,
  header: string[],
): { columns: Column[]; problems: string[] } {
  const problems: string[] = [];
  const columns: Column[] = [];
  const seen = new Map<string, string>();
  const roles = template.submitters;
  const contactHint =
    roles.length === 1
      ? `"email", "name", "phone", "external_id" or "order"`
      : `"<Role> email", "<Role> name", "<Role> phone", "<Role> external_id" or "<Role> order" for a role (${roles.map((r) => `"${r.name}"`).join(', ')})`;
  header.forEach((name, index) => {
    const column = resolveColumn(template, variables, name);
    if (!column) {
      problems.push(
        name.trim()
          ? `Column "${name}" is not ${contactHint}, a field of the template, a DOCX variable, or metadata.<key>.`
          : `Column ${index + 1} has no name; every column needs one in the first line.`,
      );
      return;
    }
    const id = JSON.stringify(column);
    const earlier = seen.get(id);
    if (earlier !== undefined) problems.push(`Columns "${earlier}" and "${name}" both give the ${describe(column)}; keep one of them.`);
    seen.set(id, name);
    columns.push(column);
  });
  if (!problems.length && !columns.some((c) => c.kind === 'contact' && c.key === 'email')) {
    problems.push(`No column gives an email address; add ${roles.length === 1 ? '"email"' : `"${roles[0]?.name} email"`}.`);
  }
  return { columns, problems };
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/**
 * One row as a submission input (the settings every row shares applied), with the sentences for what
 * cannot be read; the template's own rules (emails, field values) are checked afterwards on the input.
 */
export function rowInput(
  columns: Column[],
  header: string[],
  row: { row: number; cells: unknown[] },
  roleOrder: string[],
  settings: BulkSendSettings,
): { input: SubmissionInput; problems: string[] } {
  const problems: string[] = [];
  const submitters = new Map<string, SubmitterInput & { order?: number }>();
  const values: Record<string, unknown> = {};
  const metadata: Record<string, unknown> = {};
  const where = `Row ${row.row}`;
  if (row.cells.length > columns.length && row.cells.slice(columns.length).some((c) => !isEmpty(c)))
    problems.push(`${where} has ${row.cells.length} cells but the header names ${columns.length} columns.`);
  columns.forEach((column, i) => {
    const cell = row.cells[i];
    if (isEmpty(cell)) return;
    if (typeof cell === 'object') {
      problems.push(`${where}, "${header[i]}": give text, a number or true/false, not a list or an object.`);
      return;
    }
    const text = String(cell).trim();
    if (column.kind === 'metadata') metadata[column.key] = text;
    else if (column.kind === 'variable') values[column.name] = typeof cell === 'string' ? text : cell;
    else {
      const submitter = submitters.get(column.role) ?? { role: column.role, values: {} };
      submitters.set(column.role, submitter);
      if (column.kind === 'field') submitter.values![column.field] = cell;
      else if (column.key === 'order') {
        const order = Number(text);
        if (!Number.isSafeInteger(order) || order < 0 || !/^\d+$/.test(text))
          problems.push(`${where}, "${header[i]}": order is a whole number 0 or more, not "${text.slice(0, 40)}".`);
        else submitter.order = order;
      } else submitter[column.key] = text;
    }
  });
  if (submitters.size === 0) problems.push(`${where} names nobody; give at least one role's email.`);
  const input: SubmissionInput = {
    submitters: roleOrder.flatMap((role) => submitters.get(role) ?? []),
    ...(settings.send_email !== undefined ? { send_email: settings.send_email } : {}),
    ...(settings.send_sms !== undefined ? { send_sms: settings.send_sms } : {}),
    ...(settings.submitters_order ? { submitters_order: settings.submitters_order } : {}),
    ...(settings.expire_at ? { expire_at: settings.expire_at } : {}),
    ...(settings.message ? { message: settings.message } : {}),
    ...(Object.keys(values).length ? { values } : {}),
    ...(Object.keys(metadata).length ? { metadata } : {}),
  };
  return { input, problems };
}

/** A bulk row's submitter in problems: `Row 3, Signer: email can't be blank.` */
export const bulkSubmitterLabel: SubmitterLabel = (_index, where, submitter) => `${where}${submitter.role ?? 'a role'}`;

/** JSON `rows` as a table: the keys in the order first seen, each row's values under them. */
export function tableOfJsonRows(rows: Record<string, unknown>[]): BulkTable {
  const header: string[] = [];
  const known = new Set<string>();
  for (const row of rows)
    for (const key of Object.keys(row))
      if (!known.has(key)) {
        known.add(key);
        header.push(key);
      }
  return { header, rows: rows.map((row, index) => ({ row: index + 1, cells: header.map((key) => row[key]) })) };
}
