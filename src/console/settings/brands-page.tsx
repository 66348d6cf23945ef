// /settings/brands and /settings/brands/{id}: the account's brands (read with the API's queries), and
// for admins the create, edit and delete forms (POST/PUT/DELETE /api/brands, admin-only) with a live
// preview of the signing page header.
import type { Context } from 'hono';
import type { AppEnv } from '../../app-env';
import { findBrand, listBrands } from '../../db/queries/brands';
import { paginateByCursor } from '../../lib/pagination';
import { BrandingFields, BrandingPreview, BrandingSummary } from './branding-editor';
import { notFoundPage, Pager, pageQuery, rightsOf, renderPage, Status, DataTable, Time } from './page-parts';

export async function brandsPage(c: Context<AppEnv>) {
  const { account } = c.var.signedIn;
  const { isAdmin } = rightsOf(c);
  const page = await paginateByCursor(pageQuery(c, 50), (window) => listBrands(c.var.scope.db, account.id, window));
  return renderPage(c, {
    title: 'Brands',
    section: 'brands',
    children: (
      <>
        <section class="card" aria-labelledby="brands-heading">
          <h2 id="brands-heading">Brands</h2>
          <p class="muted">
            A template or submission uses a brand through its brand_id preference; edits reach signers who have not finished.
          </p>
          {page.data.length === 0 ? (
            <p>No brands yet.</p>
          ) : (
            <DataTable label="Brands" columns={['Name', 'ID', 'Updated']}>
              {page.data.map((brand) => (
                <tr>
                  <th scope="row">
                    <a href={`/settings/brands/${brand.id}`}>{brand.name}</a>
                  </th>
                  <td>{brand.id}</td>
                  <td>
                    <Time at={brand.updatedAt} />
                  </td>
                </tr>
              ))}
            </DataTable>
          )}
          <Pager path="/settings/brands" pagination={page.pagination} />
          {isAdmin ? null : <p class="muted">Only account admins create and change brands.</p>}
        </section>
        {isAdmin ? (
          <section class="card" aria-labelledby="create-brand-heading">
            <h2 id="create-brand-heading">Create a brand</h2>
            <form data-api="/api/brands" data-method="POST" data-reload>
              <label for="new-brand-name">Name</label>
              <input id="new-brand-name" name="name" required maxlength={120} />
              <BrandingFields prefix="new-brand" previewId="new-brand-preview" />
              <BrandingPreview id="new-brand-preview" accountName={account.name} serviceName={c.env.SERVICE_NAME} />
              <div class="actions">
                <button type="submit">Create brand</button>
              </div>
              <Status />
            </form>
          </section>
        ) : null}
      </>
    ),
  });
}

export async function brandPage(c: Context<AppEnv>) {
  const id = c.req.param('id') ?? '';
  const { account } = c.var.signedIn;
  const brand = /^[1-9]\d{0,15}$/.test(id) ? await findBrand(c.var.scope.db, account.id, Number(id)) : undefined;
  if (!brand) return notFoundPage(c, 'brands', 'Brand');
  const { isAdmin } = rightsOf(c);
  return renderPage(c, {
    title: `Brand ${brand.name}`,
    section: 'brands',
    children: (
      <>
        <p>
          <a href="/settings/brands">All brands</a>
        </p>
        <section class="card" aria-labelledby="brand-heading">
          <h2 id="brand-heading">Settings</h2>
          {isAdmin ? (
            <form data-api={`/api/brands/${brand.id}`} data-method="PUT" data-reload>
              <label for="brand-name">Name</label>
              <input id="brand-name" name="name" required maxlength={120} value={brand.name} />
              <BrandingFields prefix="brand" branding={brand.branding} previewId="brand-preview" />
              <BrandingPreview id="brand-preview" branding={brand.branding} accountName={account.name} serviceName={c.env.SERVICE_NAME} />
              <div class="actions">
                <button type="submit">Save</button>
              </div>
              <Status />
            </form>
          ) : (
            <>
              <p>ID {brand.id}</p>
              <BrandingSummary branding={brand.branding} />
              <BrandingPreview id="brand-preview" branding={brand.branding} accountName={account.name} serviceName={c.env.SERVICE_NAME} />
            </>
          )}
        </section>
        {isAdmin ? (
          <section class="card" aria-labelledby="delete-brand-heading">
            <h2 id="delete-brand-heading">Delete</h2>
            <form
              data-api={`/api/brands/${brand.id}`}
              data-method="DELETE"
              data-confirm="Delete this brand? Templates using it fall back to their own branding."
              data-redirect="/settings/brands"
            >
              <p class="muted">Templates and submissions that use it keep working and fall back to the levels below.</p>
              <div class="actions">
                <button type="submit" class="danger">
                  Delete brand
                </button>
              </div>
              <Status />
            </form>
          </section>
        ) : null}
      </>
    ),
  });
}
