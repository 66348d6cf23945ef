// Mounts text message status callbacks.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Hono } from 'hono';
import type { AppEnv } from '../../app-env';
import * as handlers from './sms-status.handlers';
import * as routes from './sms-status.routes';

/** Only documented here; mountSmsStatusCallback serves it ahead of the tenant API's token check. */
export function documentSmsStatusCallback(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerPath(routes.smsStatusCallback);
}

/** POST /api/sms/status/{account_id}/{message_id}: the provider authenticates by signature, not by API token. */
export function mountSmsStatusCallback(app: Hono<AppEnv>) {
  app.post('/api/sms/status/:account_id/:message_id', handlers.smsStatusCallback);
}
