// Route declaration for text message status callbacks (issue 31 › 7): documented with the API, served
// ahead of its token check since the provider signs its requests instead.
import { createRoute, z } from '@hono/zod-openapi';
import { errorResponses } from '../openapi-helpers';

export const smsStatusParams = z.object({
  account_id: z.coerce
    .number()
    .int()
    .positive()
    .openapi({ param: { name: 'account_id', in: 'path' }, example: 42 }),
  message_id: z.coerce
    .number()
    .int()
    .positive()
    .openapi({ param: { name: 'message_id', in: 'path' }, example: 1001 }),
});

const callbackBody = z
  .object({
    MessageSid: z.string().openapi({ example: 'SM00000000000000000000000000000001' }),
    MessageStatus: z
      .string()
      .openapi({ example: 'delivered', description: 'queued, sending, sent, delivered, undelivered, failed or read' }),
    ErrorCode: z.string().optional().openapi({ example: '30003' }),
  })
  .passthrough()
  .openapi('SmsStatusCallback');

export const smsStatusCallback = createRoute({
  method: 'post',
  path: '/sms/status/{account_id}/{message_id}',
  tags: ['Submissions'],
  summary: 'Status callback of a text message (SMS or WhatsApp), called by the Twilio-compatible provider',
  description:
    'Called by the SMS provider, not by API clients: every SMS and WhatsApp message is sent with this URL as its `StatusCallback`. ' +
    'No API token: `X-Twilio-Signature` must be the Base64 HMAC-SHA1, keyed with the SMS account’s auth token (`TWILIO_AUTH_TOKEN`), ' +
    'of this full URL followed by every POST parameter’s name and value sorted by name, as Twilio signs; otherwise 403 and nothing ' +
    'is recorded. `delivered` records `message_delivered`, `undelivered` and `failed` record `message_failed` with `error_code` on ' +
    'the submitter’s audit trail, once per message and status; other statuses are acknowledged and ignored.',
  security: [],
  request: {
    params: smsStatusParams,
    headers: z.object({
      'x-twilio-signature': z
        .string()
        .openapi({ param: { name: 'x-twilio-signature', in: 'header' }, example: 'dGhpcyBpcyBub3QgcmVhbA==' }),
    }),
    body: { required: true, content: { 'application/x-www-form-urlencoded': { schema: callbackBody } } },
  },
  responses: {
    200: {
      description:
        '`recorded` wrote a trail row, `duplicate` found it written already, `ignored` is a status or message that records nothing.',
      content: {
        'application/json': {
          schema: z
            .object({ received: z.literal(true), outcome: z.enum(['recorded', 'duplicate', 'ignored']) })
            .openapi('SmsStatusReceipt'),
        },
      },
    },
    ...errorResponses([403, 404]),
  },
});
