// Queuing messages: a row per message, written in the same D1 batch as the change that causes it,
// then a queue message per row once that batch committed. The cron sweep re-sends any queue message
// that was lost in between, so a message is never dropped.
import type { MessageQueueBody } from '../../env';
import type { Db } from '../../db/client';
import { messageInsert } from '../../db/queries/messages';
import type { NewMessage } from '../../db/schema/index';
import type { PhoneChannel } from '../../shared/link-channel';
import { composeEmail, composeSms, type MessageContext, type MessageKind } from './compose';

type Refs = { accountId: number; submissionId?: number | null; submitterId?: number | null };

export function emailMessage(kind: MessageKind, context: MessageContext, refs: Refs): NewMessage {
  const email = composeEmail(kind, context);
  return {
    ...refs,
    channel: 'email',
    kind,
    recipient: context.submitter.email,
    subject: email.subject,
    text: email.text,
    html: email.html,
  };
}

/** A text message to `phone`: an SMS, or the same text by WhatsApp (transports.ts addresses it `whatsapp:`). */
export function smsMessage(
  kind: MessageKind,
  context: MessageContext,
  phone: string,
  refs: Refs,
  channel: PhoneChannel = 'sms',
): NewMessage {
  return { ...refs, channel, kind, recipient: phone, subject: null, text: composeSms(kind, context), html: null };
}

/** The insert for one message; put it in the caller's `db.batch([...])`. */
export function queueMessageInsert(db: Db, message: NewMessage) {
  return messageInsert(db, message);
}

/** Hands committed message rows to the delivery queue. */
export async function enqueueMessages(queue: Queue<MessageQueueBody>, ids: readonly number[]): Promise<void> {
  if (!ids.length) return;
  // sendBatch takes at most 100 messages per call.
  for (let i = 0; i < ids.length; i += 100) {
    await queue.sendBatch(ids.slice(i, i + 100).map((id) => ({ body: { type: 'message' as const, id } })));
  }
}
