// Mounts the account settings routes.
import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../app-env';
import { registerSingleFileBodies } from '../single-file-upload';
import * as certificateHandlers from './certificate.handlers';
import * as certificateRoutes from './certificate.routes';
import * as handlers from './settings.handlers';
import * as routes from './settings.routes';
import * as workflowHandlers from './workflow-settings.handlers';
import * as workflowRoutes from './workflow-settings.routes';

export function mountSettings(app: OpenAPIHono<AppEnv>) {
  app.openapi(routes.getAccountSettings, handlers.getAccountSettings);
  app.openapi(routes.updateAccountSettings, handlers.updateAccountSettings);
  app.openapi(workflowRoutes.getReminderSettings, workflowHandlers.getReminderSettings);
  app.openapi(workflowRoutes.updateReminderSettings, workflowHandlers.updateReminderSettings);
  app.openapi(workflowRoutes.getRetentionSettings, workflowHandlers.getRetentionSettings);
  app.openapi(workflowRoutes.updateRetentionSettings, workflowHandlers.updateRetentionSettings);

  registerSingleFileBodies(app, 'CertificateUpload', 'The PKCS#12 (.p12/.pfx) file', {
    password: z.string().openapi({ description: 'The file’s password (an empty string if it has none).' }),
  });
  app.openapi(certificateRoutes.getCertificate, certificateHandlers.getCertificate);
  app.openapi(certificateRoutes.uploadCertificate, certificateHandlers.uploadCertificate);
  app.openapi(certificateRoutes.deleteCertificate, certificateHandlers.deleteCertificate);
}
