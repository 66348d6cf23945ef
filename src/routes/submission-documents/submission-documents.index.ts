// Mounts the sealed document routes.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../app-env';
import * as handlers from './submission-documents.handlers';
import * as routes from './submission-documents.routes';

export function mountSubmissionDocuments(app: OpenAPIHono<AppEnv>) {
  app.openapi(routes.listSubmissionDocuments, handlers.listSubmissionDocuments);
  app.openapi(routes.downloadSubmissionDocument, handlers.downloadSubmissionDocument);
  app.openapi(routes.resealSubmissionDocuments, handlers.resealSubmissionDocuments);
}
