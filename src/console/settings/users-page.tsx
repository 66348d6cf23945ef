// /settings/users: the account's users; admins invite (POST /api/users), change roles (PUT) and remove
// (DELETE) them through the API, everyone else reads the list.
import type { Context } from 'hono';
import type { AppEnv } from '../../app-env';
import { listUsers } from '../../db/queries/users';
import type { User } from '../../db/schema/index';
import { paginateByCursor } from '../../lib/pagination';
import { ROLES } from '../../lib/scopes';
import { Pager, pageQuery, rightsOf, renderPage, Status, TableFrame } from './page-parts';

function statusOf(user: User): string {
  if (user.archivedAt) return 'Removed';
  return user.passwordHash ? 'Active' : 'Invited';
}

function RoleOptions(props: { selected: string }) {
  return (
    <>
      {ROLES.map((role) => (
        <option value={role} selected={role === props.selected}>
          {role}
        </option>
      ))}
    </>
  );
}

function UserActions(props: { user: User; self: boolean }) {
  const { user } = props;
  if (user.archivedAt || props.self) return <span class="muted">{props.self ? 'You' : '—'}</span>;
  const who = user.name || user.email;
  return (
    <div>
      <form data-api={`/api/users/${user.id}`} data-method="PUT" data-reload class="actions" style="margin-top:0">
        <select name="role" aria-label={`Role of ${who}`} style="width:auto">
          <RoleOptions selected={user.role} />
        </select>
        <button type="submit" class="secondary">
          Change role
        </button>
        <Status />
      </form>
      <form data-api={`/api/users/${user.id}`} data-method="DELETE" data-reload data-confirm={`Remove ${who} from the account?`}>
        <button type="submit" class="danger" aria-label={`Remove ${who}`}>
          Remove
        </button>
        <Status />
      </form>
    </div>
  );
}

export async function usersPage(c: Context<AppEnv>) {
  const { account, user: me } = c.var.signedIn;
  const { isAdmin } = rightsOf(c);
  const page = await paginateByCursor(pageQuery(c, 50), (window) => listUsers(c.var.control, account.id, window));
  return renderPage(c, {
    title: 'Users',
    section: 'users',
    children: (
      <>
        <section class="card" aria-labelledby="users-heading">
          <h2 id="users-heading">People in this account</h2>
          <TableFrame label="Users">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">Status</th>
                  {isAdmin ? <th scope="col">Actions</th> : null}
                </tr>
              </thead>
              <tbody>
                {page.data.map((user) => (
                  <tr>
                    <th scope="row">{user.name || '—'}</th>
                    <td>
                      {user.email}
                      {user.pendingEmail ? <div class="muted">Changing to {user.pendingEmail} once confirmed from that address</div> : null}
                    </td>
                    <td>{user.role}</td>
                    <td>{statusOf(user)}</td>
                    {isAdmin ? (
                      <td>
                        <UserActions user={user} self={user.id === me.id} />
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableFrame>
          <Pager path="/settings/users" pagination={page.pagination} />
          {isAdmin ? null : <p class="muted">Only account admins can invite, change or remove users.</p>}
        </section>
        {isAdmin ? (
          <section class="card" aria-labelledby="invite-heading">
            <h2 id="invite-heading">Invite a user</h2>
            <form data-api="/api/users" data-method="POST" data-reload>
              <label for="invite-email">Email</label>
              <input id="invite-email" name="email" type="email" required autocomplete="off" />
              <label for="invite-name">Name</label>
              <input id="invite-name" name="name" autocomplete="off" />
              <label for="invite-role">Role</label>
              <select id="invite-role" name="role">
                <RoleOptions selected="editor" />
              </select>
              <p class="muted">They join with the role chosen here; an admin can change it later.</p>
              <div class="actions">
                <button type="submit">Send invitation</button>
              </div>
              <Status />
            </form>
          </section>
        ) : null}
      </>
    ),
  });
}
