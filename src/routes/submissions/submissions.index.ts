// Mounts the submission and submitter routes.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../app-env';
import * as handlers from './submissions.handlers';
import * as holdHandlers from './legal-hold.handlers';
import * as holdRoutes from './legal-hold.routes';
import * as routes from './submissions.routes';

export function mountSubmissions(app: OpenAPIHono<AppEnv>) {
  // Literal paths before `{id}` ones.
  app.openapi(routes.initSubmission, handlers.initSubmission);
  app.openapi(routes.createSubmissionsFromEmails, handlers.createSubmissionsFromEmails);
  app.openapi(routes.createSubmission, handlers.createSubmission);
  app.openapi(routes.listSubmissions, handlers.listSubmissions);
  app.openapi(routes.getSubmission, handlers.getSubmission);
  app.openapi(routes.updateSubmission, handlers.updateSubmission);
  app.openapi(routes.sendSubmission, handlers.sendSubmission);
  app.openapi(routes.archiveSubmission, handlers.archiveSubmission);
  app.openapi(routes.archiveSubmissionPost, handlers.archiveSubmissionPost);
  app.openapi(holdRoutes.setLegalHold, holdHandlers.setLegalHold);
  app.openapi(holdRoutes.releaseLegalHold, holdHandlers.releaseLegalHold);
  app.openapi(routes.createTemplateSubmissions, handlers.createTemplateSubmissions);
  app.openapi(routes.listSubmitters, handlers.listSubmitters);
  app.openapi(routes.getSubmitter, handlers.getSubmitter);
  app.openapi(routes.updateSubmitter, handlers.updateSubmitter);
  app.openapi(routes.remindSubmitter, handlers.remindSubmitter);
}
