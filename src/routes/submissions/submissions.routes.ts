// Route declarations for submissions and submitters (spec › Creating a submission, Other endpoints named;
// decisions.md › Scopes, Lifecycles, Lists).
import { z } from '@hono/zod-openapi';
import { idParamsSchema, tenantRoute } from '../openapi-helpers';
import { templateParams } from '../templates/templates.schemas';
import {
  createSubmissionBody,
  permanentlyQuery,
  submissionEmailsBody,
  submissionListQuery,
  submissionListSchema,
  submissionSchema,
  submitterListQuery,
  submitterListSchema,
  submitterSchema,
  templateSubmissionsBody,
  updateSubmissionBody,
  updateSubmitterBody,
} from './submissions.schemas';

const tags = ['Submissions'];
const submitterTags = ['Submitters'];
/** Creating: sending needs submissions:send (or write); drafts only need submissions:draft (checked in the handler). */
const create = { scopes: ['submissions:send', 'submissions:write', 'submissions:draft'], idempotent: true } as const;
const read = { scopes: ['submissions:read'] } as const;
const write = { scopes: ['submissions:write'] } as const;
/** Routes that read one submission: an erased one answers 410 (issue 33 › 5). */
const gone = [410] as const;

const jsonBody = <T extends z.ZodType>(schema: T) => ({ required: true, content: { 'application/json': { schema } } });
const created = (description: string) => ({
  201: {
    description,
    content: { 'application/json': { schema: z.union([submissionSchema, z.array(submissionSchema)]) } },
  },
});

const createDescription =
  'Creates a submission from a template and invites its submitters (sequentially by default). Send `submissions: [...]` ' +
  'to create several at once (at most 100): the answer is then an array. With `"draft": true` nothing is sent until ' +
  '`POST /api/submissions/{id}/send`.';

export const createSubmission = tenantRoute(create, {
  method: 'post',
  path: '/submissions',
  tags,
  summary: 'Create a submission (or several)',
  description: createDescription,
  request: { body: jsonBody(createSubmissionBody) },
  responses: created('The submission with each submitter’s signing_url; an array for `submissions: [...]`.'),
});

export const initSubmission = tenantRoute(create, {
  method: 'post',
  path: '/submissions/init',
  tags,
  summary: 'Create a submission (the path DocuSeal’s clients use)',
  description: createDescription,
  request: { body: jsonBody(createSubmissionBody) },
  responses: created('As POST /api/submissions.'),
});

export const createTemplateSubmissions = tenantRoute(create, {
  method: 'post',
  path: '/templates/{id}/submissions',
  tags,
  summary: 'Create submissions of this template',
  description: createDescription,
  request: { params: templateParams, body: jsonBody(templateSubmissionsBody) },
  responses: created('As POST /api/submissions.'),
});

export const createSubmissionsFromEmails = tenantRoute(
  { scopes: ['submissions:send', 'submissions:write'], idempotent: true },
  {
    method: 'post',
    path: '/submissions/emails',
    tags,
    summary: 'Create one submission per email address',
    request: { body: jsonBody(submissionEmailsBody) },
    responses: {
      201: {
        description: 'One submission per address, in the order given.',
        content: { 'application/json': { schema: z.array(submissionSchema) } },
      },
    },
  },
);

export const listSubmissions = tenantRoute(read, {
  method: 'get',
  path: '/submissions',
  tags,
  summary: 'List submissions, newest first',
  request: { query: submissionListQuery },
  responses: { 200: { description: 'A page of submissions.', content: { 'application/json': { schema: submissionListSchema } } } },
});

export const getSubmission = tenantRoute(
  { ...read, errors: gone },
  {
    method: 'get',
    path: '/submissions/{id}',
    tags,
    summary: 'Get a submission',
    request: { params: idParamsSchema },
    responses: { 200: { description: 'The submission.', content: { 'application/json': { schema: submissionSchema } } } },
  },
);

export const updateSubmission = tenantRoute(
  { scopes: ['submissions:write', 'submissions:draft'], errors: gone },
  {
    method: 'put',
    path: '/submissions/{id}',
    tags,
    summary: 'Edit a submission (drafts fully; pending ones: expire_at and metadata)',
    request: { params: idParamsSchema, body: jsonBody(updateSubmissionBody) },
    responses: { 200: { description: 'The submission.', content: { 'application/json': { schema: submissionSchema } } } },
  },
);

export const sendSubmission = tenantRoute(
  { scopes: ['submissions:send', 'submissions:write'], idempotent: true, errors: gone },
  {
    method: 'post',
    path: '/submissions/{id}/send',
    tags,
    summary: 'Send a draft',
    request: { params: idParamsSchema },
    responses: { 200: { description: 'The submission, now pending.', content: { 'application/json': { schema: submissionSchema } } } },
  },
);

export const archiveSubmission = tenantRoute(
  { ...write, errors: [409, 410] },
  {
    method: 'delete',
    path: '/submissions/{id}',
    tags,
    summary: 'Archive a submission, or erase it for good with permanently=true',
    description:
      'With `permanently=true` (account admins only, 403 otherwise; 409 while a legal hold is set) the submission is erased: its files ' +
      'and documents are deleted, values and contact details replaced by their SHA-256, and its audit trail, each document’s SHA-256 ' +
      'and an `erased` receipt event are kept. Afterwards it is left out of lists and GET answers 410 with `erased_at`.',
    request: { params: idParamsSchema, query: permanentlyQuery },
    responses: {
      200: { description: 'The archived submission.', content: { 'application/json': { schema: submissionSchema } } },
      204: { description: 'Erased.' },
    },
  },
);

export const archiveSubmissionPost = tenantRoute(
  { ...write, errors: gone },
  {
    method: 'post',
    path: '/submissions/{id}/archive',
    tags,
    summary: 'Archive a submission',
    request: { params: idParamsSchema },
    responses: { 200: { description: 'The archived submission.', content: { 'application/json': { schema: submissionSchema } } } },
  },
);

export const listSubmitters = tenantRoute(read, {
  method: 'get',
  path: '/submitters',
  tags: submitterTags,
  summary: 'List submitters, newest first',
  request: { query: submitterListQuery },
  responses: { 200: { description: 'A page of submitters.', content: { 'application/json': { schema: submitterListSchema } } } },
});

export const getSubmitter = tenantRoute(
  { ...read, errors: gone },
  {
    method: 'get',
    path: '/submitters/{id}',
    tags: submitterTags,
    summary: 'Get a submitter',
    request: { params: idParamsSchema },
    responses: { 200: { description: 'The submitter.', content: { 'application/json': { schema: submitterSchema } } } },
  },
);

export const updateSubmitter = tenantRoute(
  { scopes: ['submitters:write', 'submissions:write'], errors: gone },
  {
    method: 'put',
    path: '/submitters/{id}',
    tags: submitterTags,
    summary: 'Update a submitter, re-send the invitation, or complete it with `completed: true`',
    request: { params: idParamsSchema, body: jsonBody(updateSubmitterBody) },
    responses: { 200: { description: 'The submitter.', content: { 'application/json': { schema: submitterSchema } } } },
  },
);

export const remindSubmitter = tenantRoute(
  { scopes: ['submissions:remind'], idempotent: true, errors: gone },
  {
    method: 'post',
    path: '/submitters/{id}/remind',
    tags: submitterTags,
    summary: 'Send a reminder (email, and SMS when the submitter has send_sms)',
    request: { params: idParamsSchema },
    responses: { 200: { description: 'The submitter.', content: { 'application/json': { schema: submitterSchema } } } },
  },
);
