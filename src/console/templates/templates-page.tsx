// /templates: the account's templates (GET /api/templates' query): search by name, a folder, archived
// ones; each opens in the builder or is sent. Page pagination like the API (`page`, 25 a page).
import type { Context } from 'hono';
import type { AppEnv } from '../../app-env';
import { listTemplateFolders, listTemplates } from '../../db/queries/templates';
import { renderPage, rightsOf, DataTable, Time } from '../settings/page-parts';

const PER_PAGE = 25;

function pageNumber(value: string | undefined): number {
  return value && /^[1-9]\d{0,5}$/.test(value) ? Number(value) : 1;
}

export async function templatesPage(c: Context<AppEnv>) {
  const { account } = c.var.signedIn;
  const { canEdit } = rightsOf(c);
  const q = (c.req.query('q') ?? '').trim().slice(0, 255);
  const folder = (c.req.query('folder') ?? '').trim().slice(0, 255);
  const archived = c.req.query('archived') === 'true';
  const page = pageNumber(c.req.query('page'));
  const [{ rows, total }, folders] = await Promise.all([
    listTemplates(c.var.scope.db, account.id, { q: q || undefined, folder: folder || undefined, archived }, { page, per_page: PER_PAGE }),
    listTemplateFolders(c.var.scope.db, account.id),
  ]);
  const link = (changes: Record<string, string | undefined>) => {
    const params = new URLSearchParams();
    const merged = { q: q || undefined, folder: folder || undefined, archived: archived ? 'true' : undefined, ...changes };
    for (const [key, value] of Object.entries(merged)) if (value) params.set(key, value);
    const query = params.toString();
    return query ? `/templates?${query}` : '/templates';
  };
  const pages = Math.max(1, Math.ceil(total / PER_PAGE));
  return renderPage(c, {
    title: 'Templates',
    section: 'templates',
    children: (
      <>
        <section class="card" aria-labelledby="find-heading">
          <h2 id="find-heading">Find templates</h2>
          <form method="get" action="/templates">
            <label for="template-search">Name contains</label>
            <input id="template-search" name="q" value={q} maxlength={255} />
            <label for="template-folder">Folder</label>
            <select id="template-folder" name="folder">
              <option value="">Every folder</option>
              {folders.map((name) => (
                <option value={name} selected={name === folder}>
                  {name}
                </option>
              ))}
            </select>
            <div class="check" style="display:flex;gap:8px;align-items:center;margin-top:8px">
              <input id="template-archived" type="checkbox" name="archived" value="true" checked={archived} />
              <label for="template-archived" style="margin:0">
                Archived templates instead
              </label>
            </div>
            <div class="actions">
              <button type="submit">Search</button>
              {canEdit ? (
                <a class="button" href="/templates/new">
                  New template from a PDF
                </a>
              ) : null}
            </div>
          </form>
        </section>
        <section class="card" aria-labelledby="templates-heading">
          <h2 id="templates-heading">{archived ? 'Archived templates' : 'Templates'}</h2>
          {rows.length === 0 ? (
            <p>No templates match.</p>
          ) : (
            <DataTable label="Templates" columns={['Name', 'Folder', 'Version', 'Updated', 'Actions']}>
              {rows.map((t) => (
                <tr>
                  <th scope="row">{canEdit ? <a href={`/templates/${t.publicId}/edit`}>{t.name}</a> : t.name}</th>
                  <td>
                    <a href={link({ folder: t.folderName, page: undefined })}>{t.folderName}</a>
                  </td>
                  <td>{t.version}</td>
                  <td>
                    <Time at={t.updatedAt} />
                  </td>
                  <td>
                    {canEdit && !t.archivedAt ? (
                      <a href={`/templates/${t.publicId}/send`} aria-label={`Send ${t.name}`}>
                        Send
                      </a>
                    ) : null}
                  </td>
                </tr>
              ))}
            </DataTable>
          )}
          {pages > 1 ? (
            <nav aria-label="Pages" class="actions">
              {page > 1 ? <a href={link({ page: String(page - 1) })}>Previous page</a> : null}
              <span class="muted">
                Page {page} of {pages}
              </span>
              {page < pages ? <a href={link({ page: String(page + 1) })}>Next page</a> : null}
            </nav>
          ) : null}
        </section>
      </>
    ),
  });
}
