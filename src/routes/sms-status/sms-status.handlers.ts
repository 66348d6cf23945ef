// Handler for text message status callbacks (issue 31 › 7): the signature first, then the account's shard.
import type { Handler } from 'hono';
import type { AppEnv } from '../../app-env';
import { getAccount } from '../../db/queries/accounts';
import { ApiError } from '../../lib/errors';
import { useAccountScope } from '../../middleware/databases';
import { applyDeliveryStatus, verifyTwilioSignature } from '../../services/mail/delivery-status';
import { smsStatusParams } from './sms-status.routes';

const NOT_HERE = 'No text message reports its status at this address.';

export const smsStatusCallback: Handler<AppEnv> = async (c) => {
  const token = c.env.TWILIO_AUTH_TOKEN;
  if (!token) throw new ApiError(404, NOT_HERE);
  const params = Object.fromEntries(new URLSearchParams(await c.req.text()));
  // Twilio signs the URL it called, query included, with the POST parameters: nothing is read before it verifies.
  if (!(await verifyTwilioSignature(token, c.req.url, params, c.req.header('X-Twilio-Signature')))) {
    throw new ApiError(403, 'The X-Twilio-Signature header does not match this request and the SMS auth token; nothing was recorded.');
  }
  const path = smsStatusParams.safeParse({ account_id: c.req.param('account_id'), message_id: c.req.param('message_id') });
  const account = path.success ? await getAccount(c.var.control, path.data.account_id) : undefined;
  if (!path.success || !account) throw new ApiError(404, NOT_HERE);
  useAccountScope(c, account);
  const outcome = await applyDeliveryStatus(c.var.scope.db, account.id, path.data.message_id, params);
  return c.json({ received: true as const, outcome }, 200);
};
