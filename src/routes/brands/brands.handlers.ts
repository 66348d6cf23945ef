// Handlers for brands: parse, call the brand rules, shape the response.
import type { AppRouteHandler } from '../app-route-handler';
import * as brandsDb from '../../db/queries/brands';
import type { Brand } from '../../db/schema/index';
import { notFound } from '../../lib/errors';
import { paginateByCursor } from '../../lib/pagination';
import * as brands from '../../services/branding/brands';
import type * as routes from './brands.routes';

export function serializeBrand(row: Brand) {
  return { id: row.id, name: row.name, branding: row.branding, created_at: row.createdAt, updated_at: row.updatedAt };
}

export const listBrands: AppRouteHandler<typeof routes.listBrands> = async (c) => {
  const db = c.var.scope.db;
  const page = await paginateByCursor(c.req.valid('query'), (window) => brandsDb.listBrands(db, c.var.principal.account.id, window));
  return c.json({ data: page.data.map(serializeBrand), pagination: page.pagination }, 200);
};

export const createBrand: AppRouteHandler<typeof routes.createBrand> = async (c) => {
  const row = await brands.createBrand(c.var.scope.db, c.var.principal.account.id, c.req.valid('json'));
  c.set('audit', { action: 'brand.create', resourceType: 'brand', resourceId: row.id });
  return c.json({ brand: serializeBrand(row) }, 201);
};

export const getBrand: AppRouteHandler<typeof routes.getBrand> = async (c) => {
  const row = await brandsDb.findBrand(c.var.scope.db, c.var.principal.account.id, c.req.valid('param').id);
  if (!row) throw notFound('Brand');
  return c.json({ brand: serializeBrand(row) }, 200);
};

export const updateBrand: AppRouteHandler<typeof routes.updateBrand> = async (c) => {
  const { id } = c.req.valid('param');
  const row = await brands.updateBrand(c.var.scope.db, c.var.principal.account.id, id, c.req.valid('json'));
  c.set('audit', { action: 'brand.update', resourceType: 'brand', resourceId: id });
  return c.json({ brand: serializeBrand(row) }, 200);
};

export const deleteBrand: AppRouteHandler<typeof routes.deleteBrand> = async (c) => {
  const { id } = c.req.valid('param');
  if (!(await brandsDb.deleteBrand(c.var.scope.db, c.var.principal.account.id, id))) throw notFound('Brand');
  c.set('audit', { action: 'brand.delete', resourceType: 'brand', resourceId: id });
  return c.body(null, 204);
};
