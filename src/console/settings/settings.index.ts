// The settings console's pages (issue 16 › 4, issue 17 › 5): account, users, API tokens, webhooks, brands and domains. Each route
// carries its own consoleSession() guard, so that other /settings pages (MFA enrolment, apps) mounted
// beside these keep their own.
import { Hono } from 'hono';
import type { AppEnv } from '../../app-env';
import { consoleSession } from '../../middleware/console-session';
import { accountPage } from './account-page';
import { brandingPageCsp } from './branding-editor';
import { brandPage, brandsPage } from './brands-page';
import { domainPage, domainsPage } from './domains-page';
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
  const previews = brandingPageCsp();
  pages.get('/brands', signedIn, previews, brandsPage);
  pages.get('/brands/:id', signedIn, previews, brandPage);
  pages.get('/domains', signedIn, previews, domainsPage);
  pages.get('/domains/:id', signedIn, previews, domainPage);
  return pages;
}
