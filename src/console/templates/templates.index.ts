// The console's template and submission pages (issue 15 › 4–5): the builder, the templates list, sending
// a template and the submissions list. Each route carries its own consoleSession() guard.
import { Hono } from 'hono';
import type { AppEnv } from '../../app-env';
import { consoleSession } from '../../middleware/console-session';
import { builderPage, builderPageCsp, newTemplatePage } from './builder-page';
import { sendTemplatePage } from './send-page';
import { submissionsPage } from './submissions-page';
import { templatesPage } from './templates-page';

export function createTemplatesConsole(): Hono<AppEnv> {
  const pages = new Hono<AppEnv>();
  const signedIn = consoleSession();
  const builderCsp = builderPageCsp();
  pages.get('/', signedIn, templatesPage);
  pages.get('/new', signedIn, newTemplatePage);
  pages.get('/:id/send', signedIn, sendTemplatePage);
  pages.get('/:id/edit', signedIn, builderCsp, builderPage);
  return pages;
}

export function createSubmissionsConsole(): Hono<AppEnv> {
  const pages = new Hono<AppEnv>();
  pages.get('/', consoleSession(), submissionsPage);
  return pages;
}
