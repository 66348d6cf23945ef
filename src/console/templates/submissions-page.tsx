// /submissions: the account's submissions, newest first (the API's cursor list), with each submitter's
// status and, once sealed, links to the signed documents (GET /api/submissions/{id}/documents/combined,
// one PDF, or ?separate=true for a zip); a failed sealing says why. `?status=` filters like the API.
import type { Context } from 'hono';
import type { AppEnv } from '../../app-env';
import { SUBMISSION_STATUSES } from '../../db/schema/index';
import { listSubmissionsPage, listSubmittersOf } from '../../db/queries/submissions';
import { findTemplates } from '../../db/queries/templates';
import { paginateByCursor } from '../../lib/pagination';
import { pageQuery, renderPage, DataTable, Time } from '../settings/page-parts';

export async function submissionsPage(c: Context<AppEnv>) {
  const { account } = c.var.signedIn;
  const requested = c.req.query('status');
  const status = SUBMISSION_STATUSES.find((s) => s === requested);
  const archived = status === 'archived';
  const page = await paginateByCursor(pageQuery(c, 50), (window) =>
    listSubmissionsPage(c.var.scope.db, account.id, { status: archived ? undefined : status, archived }, window),
  );
  const ids = page.data.map((s) => s.id);
  const [submitters, templates] = await Promise.all([
    listSubmittersOf(c.var.scope.db, ids),
    findTemplates(c.var.scope.db, account.id, [...new Set(page.data.map((s) => s.templateId))]),
  ]);
  const templateName = new Map(templates.map((t) => [t.id, t.name]));
  return renderPage(c, {
    title: 'Submissions',
    section: 'submissions',
    children: (
      <section class="card" aria-labelledby="submissions-heading">
        <h2 id="submissions-heading">{status ? `Submissions: ${status}` : 'Submissions'}</h2>
        <nav aria-label="Filter by status" class="actions">
          <a href="/submissions" aria-current={status ? undefined : 'page'}>
            All
          </a>
          {SUBMISSION_STATUSES.map((s) => (
            <a href={`/submissions?status=${s}`} aria-current={s === status ? 'page' : undefined}>
              {s}
            </a>
          ))}
        </nav>
        {page.data.length === 0 ? (
          <p>No submissions yet.</p>
        ) : (
          <DataTable label="Submissions" columns={['Submission', 'Template', 'Status', 'Submitters', 'Created', 'Signed documents']}>
            {page.data.map((s) => (
              <tr data-submission={String(s.id)}>
                <th scope="row">{s.id}</th>
                <td>{templateName.get(s.templateId) ?? '—'}</td>
                <td>{s.status}</td>
                <td>
                  <ul style="margin:0;padding-left:18px">
                    {submitters
                      .filter((r) => r.submissionId === s.id)
                      .map((r) => (
                        <li>
                          {r.role}: {r.email ?? r.phone ?? r.name ?? '—'} ({r.status})
                        </li>
                      ))}
                  </ul>
                </td>
                <td>
                  <Time at={s.createdAt} />
                </td>
                <td>
                  {s.sealedAt ? (
                    <>
                      <a href={`/api/submissions/${s.id}/documents/combined`} aria-label={`Download the signed PDF of submission ${s.id}`}>
                        PDF
                      </a>{' '}
                      <a
                        href={`/api/submissions/${s.id}/documents/combined?separate=true`}
                        aria-label={`Download the signed documents of submission ${s.id} as a zip`}
                      >
                        Zip
                      </a>
                    </>
                  ) : s.sealFailedAt ? (
                    <span class="error">Sealing failed: {s.sealFailure}</span>
                  ) : s.status === 'completed' ? (
                    <span class="muted">Being sealed</span>
                  ) : (
                    <span class="muted">—</span>
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
        <nav aria-label="Pages" class="actions">
          {page.pagination.prev !== null ? (
            <a href={`/submissions?${status ? `status=${status}&` : ''}before=${page.pagination.prev}`}>Newer</a>
          ) : null}
          {page.pagination.next !== null ? (
            <a href={`/submissions?${status ? `status=${status}&` : ''}after=${page.pagination.next}`}>Older</a>
          ) : null}
        </nav>
      </section>
    ),
  });
}
