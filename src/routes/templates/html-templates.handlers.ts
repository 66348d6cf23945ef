// Handler of POST /api/templates/html: parse, render and create through the template service, shape.
import type { AppRouteHandler } from '../app-route-handler';
import { unprocessable } from '../../lib/errors';
import { baseUrl } from '../../lib/request';
import { browserLauncher } from '../../services/rendering/browser-launches';
import { createHtmlTemplate } from '../../services/templates/create-html-template';
import { creatingContext, recordedCreate } from './templates.handlers';
import { serializeTemplate } from './templates.serialize';
import type { createTemplateFromHtml as route } from './html-templates.routes';

export const createTemplateFromHtml: AppRouteHandler<typeof route> = async (c) => {
  const { html, html_header: header, html_footer: footer, size, documents, ...rest } = c.req.valid('json');
  if (html !== undefined && documents !== undefined) throw unprocessable('Send either html or documents, not both.');
  const list = documents ?? (html !== undefined ? [{ html }] : []);
  if (list.length === 0) throw unprocessable('html must be given: the HTML of the document (or documents, a list of {name, html}).');
  const db = c.var.scope.db;
  const created = await createHtmlTemplate(creatingContext(c, db, 'template.create'), browserLauncher(c.env, c.var.principal.account.id), {
    ...rest,
    header: header || undefined,
    footer: footer || undefined,
    size: size ?? 'Letter',
    documents: list,
  });
  recordedCreate(c, 'template.create', created.template);
  return c.json(serializeTemplate(created.template, created.documents, baseUrl(c.req.raw, c.env.APP_URL)), 201);
};
