// Small pieces every settings page uses: who is looking, a status region, a list's table, the not-found
// page, timestamps and the pager. Pages stay readable without the console script.
// Console pages still share runs of plain markup (renderPage's call with a card section, a form's submit
// row with its Status, a table row's cells): JSX that reads as the page it draws is kept inline on
// purpose; anything with logic or a rule of accessibility (labels, scope, regions) lives here once.
import type { Context } from 'hono';
import { raw } from 'hono/html';
import type { Child } from 'hono/jsx';
import type { AppEnv } from '../../app-env';
import type { CursorPage } from '../../lib/pagination';
import { ConsoleLayout, type ConsoleSection, type ConsoleViewer } from '../layout';

/** The signed-in user as the layout shows them (set by consoleSession()). */
export function viewerOf(c: Context<AppEnv>): ConsoleViewer {
  const { user, account, session } = c.var.signedIn;
  return { user, account, csrfToken: session.csrfToken };
}

/** What the signed-in user's role lets them do here; the API enforces the same (middleware/authorize). */
export function rightsOf(c: Context<AppEnv>) {
  const role = c.var.signedIn.user.role;
  return { isAdmin: role === 'admin', canEdit: role === 'admin' || role === 'editor' };
}

/** Where the console script writes a form's outcome; screen readers announce it. */
export function Status() {
  return <p role="status" aria-live="polite"></p>;
}

/** Wide tables scroll sideways inside their own keyboard-reachable region on narrow screens (360 px). */
export function TableFrame(props: { label: string; children: Child }) {
  return (
    <div role="region" aria-label={props.label} tabindex={0} style="overflow-x:auto">
      {props.children}
    </div>
  );
}

/** A list page's table: scrollable, labelled, its column headings and then the rows given. */
export function DataTable(props: { label: string; columns: string[]; children: Child }) {
  return (
    <TableFrame label={props.label}>
      <table>
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th scope="col">{column}</th>
            ))}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </TableFrame>
  );
}

export function Time(props: { at: string | null; empty?: string }) {
  if (!props.at) return <span class="muted">{props.empty ?? '—'}</span>;
  return <time datetime={props.at}>{props.at.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')}</time>;
}

/** Page links for a cursor page: the same `after`/`before` ids as the API's lists. */
export function Pager(props: { path: string; pagination: CursorPage<unknown>['pagination'] }) {
  const { next, prev } = props.pagination;
  if (next === null && prev === null) return null;
  return (
    <nav aria-label="Pages" class="actions">
      {prev !== null ? <a href={`${props.path}?before=${prev}`}>Newer</a> : null}
      {next !== null ? <a href={`${props.path}?after=${next}`}>Older</a> : null}
    </nav>
  );
}

/** `?after=`/`?before=` from the page's query string; anything else starts at the newest. */
export function pageQuery(c: Context<AppEnv>, limit: number) {
  const id = (name: string) => {
    const value = c.req.query(name);
    return value && /^[1-9]\d{0,15}$/.test(value) ? Number(value) : undefined;
  };
  const after = id('after');
  const before = after === undefined ? id('before') : undefined;
  return { limit, after, before };
}

export function renderPage(
  c: Context<AppEnv>,
  props: { title: string; section: ConsoleSection; script?: string; wide?: boolean; children: Child },
  status: 200 | 404 = 200,
) {
  // The doctype keeps browsers out of quirks mode (the layout renders from <html> on).
  return c.html(
    <>
      {raw('<!DOCTYPE html>')}
      <ConsoleLayout title={props.title} viewer={viewerOf(c)} section={props.section} script={props.script} wide={props.wide}>
        {props.children}
      </ConsoleLayout>
    </>,
    status,
  );
}

export function notFoundPage(c: Context<AppEnv>, section: ConsoleSection, what: string) {
  return renderPage(
    c,
    {
      title: `${what} not found`,
      section,
      children: (
        <div class="card">
          <p>There is no such {what.toLowerCase()} in this account.</p>
        </div>
      ),
    },
    404,
  );
}
