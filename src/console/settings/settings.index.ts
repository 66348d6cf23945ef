// The settings console's pages (issue 16 › 4): account, users, API tokens and webhooks. Each route
// carries its own consoleSession() guard, so that other /settings pages (MFA enrolment, apps) mounted
// beside these keep their own.
import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { consoleSession } from '../../middleware/console-session';
import { accountPage } from './account-page';
import { tokensPage } from './tokens-page';
import { usersPage } from './users-page';
import { webhookPage } from './webhook-page';
import { webhooksPage } from './webhooks-page';

export function createSettingsConsole(): Hono<AppEnv> {
  const pages = new Hono<AppEnv>();
  const signedIn = consoleSession();
  pages.get('/', (c) => c.redirect('/settings/account', 303));
  pages.get('/account', signedIn, accountPage);
  pages.get('/users', signedIn, usersPage);
  pages.get('/tokens', signedIn, tokensPage);
  pages.get('/webhooks', signedIn, webhooksPage);
  pages.get('/webhooks/:id', signedIn, webhookPage);
  return pages;
}
