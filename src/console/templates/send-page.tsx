// /templates/{id}/send: a submission of the template, one row per role in the template's order (email,
// name, phone), the signing order and the invitation message; sent by the console script as
// POST /api/submissions, which checks and stores everything (the page decides nothing).
import type { Context } from 'hono';
import type { AppEnv } from '../../app-env';
import { findTemplate } from '../../db/queries/templates';
import { notFoundPage, renderPage, rightsOf, Status } from '../settings/page-parts';

export async function sendTemplatePage(c: Context<AppEnv>) {
  const template = await findTemplate(c.var.scope.db, c.var.signedIn.account.id, c.req.param('id') ?? '');
  if (!template) return notFoundPage(c, 'templates', 'Template');
  if (!rightsOf(c).canEdit || template.archivedAt) {
    return renderPage(c, {
      title: `Send: ${template.name}`,
      section: 'templates',
      children: (
        <div class="card">
          <p>
            {template.archivedAt
              ? 'This template is archived; restore it to send it.'
              : 'Viewers can read templates; editors and admins send them.'}
          </p>
        </div>
      ),
    });
  }
  return renderPage(c, {
    title: `Send: ${template.name}`,
    section: 'templates',
    children: (
      <form data-api="/api/submissions" data-method="POST" data-indexed data-redirect="/submissions" class="card">
        <input type="hidden" name="template_id" value={template.publicId} />
        {template.submitters.map((role, i) => (
          <fieldset>
            <legend>{`${i + 1}. ${role.name}`}</legend>
            <input type="hidden" name={`submitters[${i}][role]`} value={role.name} />
            <label for={`send-${i}-email`}>Email</label>
            <input id={`send-${i}-email`} name={`submitters[${i}][email]`} type="email" maxlength={255} autocomplete="off" />
            <label for={`send-${i}-name`}>Name</label>
            <input id={`send-${i}-name`} name={`submitters[${i}][name]`} maxlength={255} autocomplete="off" />
            <label for={`send-${i}-phone`}>Phone (for SMS)</label>
            <input id={`send-${i}-phone`} name={`submitters[${i}][phone]`} type="tel" maxlength={32} autocomplete="off" />
          </fieldset>
        ))}
        <label for="send-order">Signing order</label>
        <select id="send-order" name="submitters_order">
          <option value="sequential">One after another, in the order above</option>
          <option value="parallel">All at once</option>
        </select>
        <label for="send-subject">Email subject</label>
        <input id="send-subject" name="message.subject" data-omit-empty maxlength={255} />
        <label for="send-body">Email message</label>
        <textarea id="send-body" name="message.body" data-omit-empty rows={4} maxlength={10000}></textarea>
        <div class="actions">
          <button type="submit">Send</button>
          <a href="/templates">Cancel</a>
        </div>
        <Status />
      </form>
    ),
  });
}
