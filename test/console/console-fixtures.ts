// Console pages for tests: a GET through the Worker that keeps redirects as they are, and the accounts
// with one user per role that the page tests compare.
import { SELF } from 'cloudflare:test';
import { addUser, createAccount, type TestAccount, clientAddress } from '../helpers';
import { sessionFor, type TestSession } from '../session-fixtures';

export async function page(path: string, headers: Record<string, string> = {}) {
  const response = await SELF.fetch(`https://api.test${path}`, {
    headers: { 'CF-Connecting-IP': clientAddress(), ...headers },
    redirect: 'manual',
  });
  return { status: response.status, headers: response.headers, html: await response.text() };
}

export type RoleSessions = {
  admin: TestAccount & { session: TestSession };
  editor: TestAccount & { session: TestSession };
  viewer: TestAccount & { session: TestSession };
};

/** An account with an admin, an editor and a viewer, each signed in to the console. */
export async function accountWithRoles(options: { plan?: string; name?: string } = {}): Promise<RoleSessions> {
  const admin = await createAccount(options);
  const editor = await addUser(admin.accountId, 'editor');
  const viewer = await addUser(admin.accountId, 'viewer');
  return {
    admin: { ...admin, session: await sessionFor(admin) },
    editor: { ...editor, session: await sessionFor(editor) },
    viewer: { ...viewer, session: await sessionFor(viewer) },
  };
}

/** The `data-api` targets of a page's forms with their methods, e.g. `POST /api/users`. */
export function apiForms(html: string): string[] {
  return [...html.matchAll(/<form[^>]*data-api="([^"]+)"[^>]*data-method="([^"]+)"/g)].map((m) => `${m[2]} ${m[1]}`);
}
