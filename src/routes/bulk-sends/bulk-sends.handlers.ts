// Handlers for bulk sends: read the upload (CSV part or JSON rows), call the bulk-send services, shape the answer.
import type { Context } from 'hono';
import type { AppEnv } from '../../app-env';
import type { AppRouteHandler } from '../app-route-handler';
import * as bulkDb from '../../db/queries/bulk-sends';
import { findTemplate } from '../../db/queries/templates';
import type { BulkSend, BulkSendRow, BulkSendSettings } from '../../db/schema/index';
import { ApiError, forbidden, notFound, unprocessable } from '../../lib/errors';
import { decodeUtf8, parseJsonText } from '../../lib/json-text';
import { paginateByCursor } from '../../lib/pagination';
import { baseUrl } from '../../lib/request';
import { grants } from '../../lib/scopes';
import { upgradeUrl } from '../../middleware/authorize';
import { tableOfJsonRows, type BulkTable } from '../../services/bulk-send/bulk-rows';
import { parseCsv } from '../../services/bulk-send/csv';
import { acceptBulkSend, BULK_LIMITS, checkBulkRows, rowsRefused } from '../../services/bulk-send/start-bulk-send';
import { templateForSubmissions } from '../../services/submissions/create-submissions';
import type * as routes from './bulk-sends.routes';

function serializeBulkSend(send: BulkSend, templatePublicId: string) {
  return {
    id: send.id,
    template_id: templatePublicId,
    status: send.status,
    total: send.total,
    created: send.created,
    failed: send.failed,
    created_at: send.createdAt,
    updated_at: send.updatedAt,
    completed_at: send.completedAt,
  };
}

function serializeRow(row: BulkSendRow) {
  return { id: row.id, row: row.row, status: row.status, submission_id: row.submissionId, errors: row.errors, created_at: row.createdAt };
}

type Upload = { table: BulkTable; options: Record<string, unknown> };

const BOOLEAN_OPTIONS = ['dry_run', 'send_email', 'send_sms'] as const;

/** The settings every row shares, and whether this is a dry run; a wrong type is a 422 naming the key. */
function optionsOf(options: Record<string, unknown>): { dryRun: boolean; settings: BulkSendSettings } {
  const problems: string[] = [];
  const flags: Record<string, boolean | undefined> = {};
  for (const key of BOOLEAN_OPTIONS) {
    const value = options[key];
    if (value === undefined || value === null || value === '') continue;
    if (typeof value === 'boolean' || value === 'true' || value === 'false') flags[key] = value === true || value === 'true';
    else problems.push(`${key} must be true or false.`);
  }
  const order = options.submitters_order;
  if (order !== undefined && order !== '' && order !== 'sequential' && order !== 'parallel')
    problems.push('submitters_order must be "sequential" or "parallel".');
  const expireAt = options.expire_at;
  if (expireAt !== undefined && expireAt !== null && typeof expireAt !== 'string')
    problems.push('expire_at must be a date-time such as 2026-01-31T12:00:00Z.');
  if (problems.length) throw unprocessable(problems.length === 1 ? problems[0] : problems);
  const settings: BulkSendSettings = {};
  if (flags.send_email !== undefined) settings.send_email = flags.send_email;
  if (flags.send_sms !== undefined) settings.send_sms = flags.send_sms;
  if (order === 'sequential' || order === 'parallel') settings.submitters_order = order;
  if (typeof expireAt === 'string' && expireAt) settings.expire_at = expireAt;
  return { dryRun: flags.dry_run === true, settings };
}

/** The upload as a table: a multipart `file` part (CSV) or a JSON body's `rows`. */
async function readUpload(c: Context<AppEnv>): Promise<Upload> {
  const type = (c.req.header('Content-Type') ?? '').split(';')[0].trim().toLowerCase();
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  if (bytes.byteLength > BULK_LIMITS.bytes)
    throw new ApiError(
      413,
      `The request body is larger than ${BULK_LIMITS.bytes / 1024 / 1024} MB, the limit for a bulk send; split the rows into several.`,
    );
  if (type === 'application/json') {
    const body = parseJsonText(decodeUtf8(bytes));
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ApiError(400, 'The request body must be a JSON object.');
    const { rows, ...options } = body as Record<string, unknown>;
    if (!Array.isArray(rows))
      throw unprocessable('rows must be a list with one object per submission, keyed by column, such as [{"email": "ann@example.com"}].');
    if (rows.length > BULK_LIMITS.rows)
      throw unprocessable(
        `rows lists ${rows.length.toLocaleString('en-US')} rows; a bulk send takes at most ${BULK_LIMITS.rows.toLocaleString('en-US')}.`,
      );
    const bad = rows.findIndex((r) => !r || typeof r !== 'object' || Array.isArray(r));
    if (bad >= 0) throw unprocessable(`rows[${bad}] must be an object keyed by column, such as {"email": "ann@example.com"}.`);
    return { table: tableOfJsonRows(rows as Record<string, unknown>[]), options };
  }
  if (type !== 'multipart/form-data')
    throw new ApiError(400, `Send the CSV as a multipart/form-data "file" part, or JSON with "rows"${type ? ` (got ${type})` : ''}.`);
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { 'Content-Type': c.req.header('Content-Type')! } }).formData();
  } catch {
    throw new ApiError(400, 'The multipart/form-data body could not be read; check its boundary and parts.');
  }
  const file = form.get('file');
  if (!(file instanceof File)) throw unprocessable('Attach the CSV as a file part named "file".');
  const text = decodeUtf8(await file.arrayBuffer(), 'The CSV file');
  const options = Object.fromEntries([...form.entries()].filter(([key, value]) => key !== 'file' && typeof value === 'string'));
  const csv = parseCsv(text, BULK_LIMITS.rows);
  return { table: { header: csv.header, rows: csv.rows }, options };
}

export const createBulkSend: AppRouteHandler<typeof routes.createBulkSend> = async (c) => {
  const { account, user, credential } = c.var.principal;
  const db = c.var.scope.db;
  // The template first: another account's template is a 404 whatever the body holds.
  const source = await templateForSubmissions(db, account.id, c.req.valid('param').id);
  const { table, options } = await readUpload(c);
  const { dryRun, settings } = optionsOf(options);
  if (!dryRun && !grants(credential.scopes, ['submissions:send'])) throw forbidden('Insufficient scope. Required: submissions:send');
  const base = baseUrl(c.req.raw, c.env.APP_URL);
  const checked = await checkBulkRows(
    { db, account, files: c.env.FILES, upgradeUrl: upgradeUrl(c.req.raw, c.env.APP_URL) },
    source,
    table,
    settings,
    dryRun,
  );
  if (dryRun) {
    const total = checked.rows.length;
    return c.json(
      { dry_run: true as const, total, valid: total - checked.invalidRows, invalid: checked.invalidRows, errors: checked.problems },
      200,
    );
  }
  if (checked.problems.length) throw rowsRefused(checked);
  const send = await acceptBulkSend(
    c.var.scope,
    { account, userId: user.id, templateId: source.template.id, linkBase: base },
    checked.rows,
    settings,
  );
  c.set('audit', { action: 'bulk_send.create', resourceType: 'bulk_send', resourceId: send.id });
  return c.json(serializeBulkSend(send, source.template.publicId), 202);
};

async function loadBulkSend(c: Context<AppEnv>, id: number): Promise<BulkSend> {
  const send = await bulkDb.findBulkSend(c.var.scope.db, c.var.principal.account.id, id);
  if (!send) throw notFound('Bulk send');
  return send;
}

export const getBulkSend: AppRouteHandler<typeof routes.getBulkSend> = async (c) => {
  const send = await loadBulkSend(c, c.req.valid('param').id);
  const template = await findTemplate(c.var.scope.db, send.accountId, send.templateId);
  return c.json(serializeBulkSend(send, template?.publicId ?? String(send.templateId)), 200);
};

export const listBulkSendRows: AppRouteHandler<typeof routes.listBulkSendRows> = async (c) => {
  const send = await loadBulkSend(c, c.req.valid('param').id);
  const query = c.req.valid('query');
  const page = await paginateByCursor(query, (window) =>
    bulkDb.listBulkRows(c.var.scope.db, send.accountId, send.id, query.status, window),
  );
  return c.json({ data: page.data.map(serializeRow), pagination: page.pagination }, 200);
};
