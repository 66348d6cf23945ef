// Handlers of field detection: find the template, run or read the detection, answer its result.
import type { AppRouteHandler } from '../app-route-handler';
import {
  DEFAULT_MIN_CONFIDENCE,
  detectFields as detect,
  detectionStatus as readStatus,
} from '../../services/field-detection/detect-fields';
import { contextOf, loadTemplate } from './templates.handlers';
import type * as routes from './field-detection.routes';

export const detectFields: AppRouteHandler<typeof routes.detectFields> = async (c) => {
  // A request with no body at all skips zod's defaults.
  const body: Partial<{ apply: boolean; min_confidence: number }> = c.req.valid('json') ?? {};
  const template = await loadTemplate(c, c.var.scope.db, c.req.valid('param').id);
  const detection = await detect(contextOf(c, c.var.scope.db), template, {
    apply: body.apply ?? false,
    minConfidence: body.min_confidence ?? DEFAULT_MIN_CONFIDENCE,
  });
  if (detection.applied_version !== undefined)
    c.set('audit', { action: 'template.update', resourceType: 'template', resourceId: template.publicId });
  return c.json(detection, 200);
};

export const detectionStatus: AppRouteHandler<typeof routes.detectionStatus> = async (c) => {
  const template = await loadTemplate(c, c.var.scope.db, c.req.valid('param').id);
  return c.json(await readStatus(c.env.FILES, c.var.scope.db, template), 200);
};
