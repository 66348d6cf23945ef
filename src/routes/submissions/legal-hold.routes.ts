// Route declarations for legal holds (issue 33 › 5): a held submission is never erased.
import { z } from '@hono/zod-openapi';
import { idParamsSchema, tenantRoute } from '../openapi-helpers';
import { submissionSchema } from './submissions.schemas';

const options = { scopes: ['submissions:write'], admin: true, errors: [409, 410] } as const;
const answer = {
  200: { description: 'The submission, with `legal_hold`.', content: { 'application/json': { schema: submissionSchema } } },
};

export const legalHoldBody = z
  .object({
    reason: z
      .string()
      .trim()
      .max(500)
      .optional()
      .openapi({ description: 'Why it is held (a matter or case reference); kept in its audit trail.' }),
  })
  .strict()
  .openapi('LegalHoldInput');

export const setLegalHold = tenantRoute(options, {
  method: 'post',
  path: '/submissions/{id}/legal_hold',
  tags: ['Submissions'],
  summary: 'Put a submission under a legal hold',
  description:
    'While held, neither retention nor `DELETE …?permanently=true` erases it (409). Setting a hold that is set changes nothing; a ' +
    'submission whose erasure has begun cannot be held (409).',
  request: { params: idParamsSchema, body: { required: false, content: { 'application/json': { schema: legalHoldBody } } } },
  responses: answer,
});

export const releaseLegalHold = tenantRoute(options, {
  method: 'delete',
  path: '/submissions/{id}/legal_hold',
  tags: ['Submissions'],
  summary: 'Release a submission’s legal hold',
  description: 'Retention applies again from now: a submission past its period is erased by the next run of the retention step.',
  request: { params: idParamsSchema },
  responses: answer,
});
