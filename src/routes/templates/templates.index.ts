// Mounts the template routes and documents their upload bodies.
import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../app-env';
import * as handlers from './templates.handlers';
import * as routes from './templates.routes';
import * as detectionHandlers from './field-detection.handlers';
import * as detectionRoutes from './field-detection.routes';
import { createTemplateFromHtml } from './html-templates.handlers';
import * as htmlRoutes from './html-templates.routes';
import * as thumbnailHandlers from './thumbnails.handlers';
import * as thumbnailRoutes from './thumbnails.routes';
import { changeDocumentsBody, createTemplateBody } from './templates.schemas';

const base64File = z.string().openapi({ description: 'The file as base64, or a data URL (data:application/pdf;base64,…).' });
const binaryFile = z.string().openapi({ format: 'binary' });

export function mountTemplates(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.register('TemplateCreateJson', createTemplateBody(base64File));
  app.openAPIRegistry.register('TemplateCreateMultipart', createTemplateBody(binaryFile));
  app.openAPIRegistry.register('TemplateDocumentsChangeJson', changeDocumentsBody(base64File));
  app.openAPIRegistry.register('TemplateDocumentsChangeMultipart', changeDocumentsBody(binaryFile));
  // Static paths first: /templates/merge must not be read as /templates/{id}.
  app.openapi(routes.mergeTemplates, handlers.mergeTemplates);
  app.openapi(routes.createTemplateFromPdf, handlers.createTemplateFromPdf);
  app.openapi(htmlRoutes.createTemplateFromHtml, createTemplateFromHtml);
  app.openapi(routes.createTemplateFromDocx, handlers.createTemplateFromDocx);
  app.openapi(routes.createTemplate, handlers.createTemplate);
  app.openapi(routes.listTemplates, handlers.listTemplates);
  app.openapi(routes.getTemplate, handlers.getTemplate);
  app.openapi(routes.updateTemplate, handlers.updateTemplate);
  app.openapi(routes.deleteTemplate, handlers.deleteTemplate);
  app.openapi(routes.listTemplateVersions, handlers.listTemplateVersions);
  app.openapi(routes.listTemplateDocuments, handlers.listTemplateDocuments);
  app.openapi(routes.changeTemplateDocuments, handlers.changeTemplateDocuments);
  // Before /documents/{document_id}: "thumbnail" is not a document id.
  app.openapi(thumbnailRoutes.getThumbnail, thumbnailHandlers.getThumbnail);
  app.openapi(thumbnailRoutes.generateThumbnails, thumbnailHandlers.generateThumbnails);
  app.openapi(routes.downloadTemplate, handlers.downloadTemplate);
  app.openapi(routes.downloadTemplateDocumentOriginal, handlers.downloadTemplateDocumentOriginal);
  app.openapi(routes.downloadTemplateDocument, handlers.downloadTemplateDocument);
  app.openapi(routes.cloneTemplate, handlers.cloneTemplate);
  app.openapi(detectionRoutes.detectFields, detectionHandlers.detectFields);
  app.openapi(detectionRoutes.detectionStatus, detectionHandlers.detectionStatus);
}
