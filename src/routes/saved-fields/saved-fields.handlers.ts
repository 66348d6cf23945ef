// Handlers for saved fields.
import type { AppRouteHandler } from '../app-route-handler';
import * as savedFieldsDb from '../../db/queries/saved-fields';
import type { SavedField } from '../../db/schema/index';
import { notFound, unprocessable } from '../../lib/errors';
import { paginateByCursor } from '../../lib/pagination';
import { checkSavedField } from '../../services/templates/saved-fields';
import type * as routes from './saved-fields.routes';

export function serializeSavedField(row: SavedField) {
  return { id: row.id, name: row.name, field: row.field, author_id: row.authorId, created_at: row.createdAt, updated_at: row.updatedAt };
}

export const listSavedFields: AppRouteHandler<typeof routes.listSavedFields> = async (c) => {
  const db = c.var.scope.db;
  const page = await paginateByCursor(c.req.valid('query'), (window) =>
    savedFieldsDb.listSavedFields(db, c.var.principal.account.id, window),
  );
  return c.json({ data: page.data.map(serializeSavedField), pagination: page.pagination }, 200);
};

export const createSavedField: AppRouteHandler<typeof routes.createSavedField> = async (c) => {
  const body = c.req.valid('json');
  const { account, user } = c.var.principal;
  const field = checkSavedField(body.field);
  const row = await savedFieldsDb.insertSavedField(c.var.scope.db, { accountId: account.id, authorId: user.id, name: body.name, field });
  if (!row) throw unprocessable(`name "${body.name}" is already used by another saved field.`);
  c.set('audit', { action: 'saved_field.create', resourceType: 'saved_field', resourceId: row.id });
  return c.json(serializeSavedField(row), 201);
};

export const deleteSavedField: AppRouteHandler<typeof routes.deleteSavedField> = async (c) => {
  const { id } = c.req.valid('param');
  if (!(await savedFieldsDb.deleteSavedField(c.var.scope.db, c.var.principal.account.id, id))) throw notFound('Saved field');
  c.set('audit', { action: 'saved_field.delete', resourceType: 'saved_field', resourceId: id });
  return c.body(null, 204);
};
