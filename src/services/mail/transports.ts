// Where outbound messages go: Cloudflare's send_email binding and a Twilio-compatible messages API (SMS,
// and WhatsApp through the same API with `whatsapp:` addresses) in production; in development and tests the D1 row itself is the inbox (GET /dev/outbox).
import type { Message } from '../../db/schema/index';
import { isProduction } from '../../lib/environment';

export type Outbound = Pick<Message, 'id' | 'accountId' | 'channel' | 'recipient' | 'subject' | 'text' | 'html'>;

export type Transport = {
  name: 'outbox' | 'cloudflare' | 'twilio';
  send(message: Outbound): Promise<{ providerId: string | null }>;
};

export type MailEnv = {
  ENVIRONMENT: string;
  /** `cloudflare` to send email through the EMAIL binding outside production too. */
  MAIL_TRANSPORT?: string;
  MAIL_FROM?: string;
  SERVICE_NAME: string;
  EMAIL?: SendEmail;
  TWILIO_ACCOUNT_SID?: string;
  TWILIO_AUTH_TOKEN?: string;
  TWILIO_FROM?: string;
  /** The WhatsApp sender number when it is not TWILIO_FROM (without the `whatsapp:` prefix). */
  TWILIO_WHATSAPP_FROM?: string;
  /** Base URL of the Twilio-compatible API; tests point it at a local server. */
  TWILIO_API_BASE?: string;
  /** The service's origin: text messages name their status callback under it (smsStatusCallbackUrl). */
  APP_URL?: string;
};

/**
 * Where the provider reports a text message's fate (Twilio's StatusCallback, issue 31 › 7): the account
 * and message in the path, so the callback finds its row; Twilio signs the URL with the parameters.
 */
export function smsStatusCallbackUrl(appUrl: string, message: Pick<Message, 'id' | 'accountId'>): string {
  return `${appUrl.replace(/\/+$/, '')}/api/sms/status/${message.accountId}/${message.id}`;
}

/** A failure that retrying cannot fix (no transport configured, recipient rejected). */
export class PermanentDeliveryError extends Error {}

export const outboxTransport: Transport = {
  name: 'outbox',
  async send(message) {
    return { providerId: `outbox-${message.id}` };
  },
};

export function cloudflareEmailTransport(binding: SendEmail, from: string, fromName: string): Transport {
  return {
    name: 'cloudflare',
    async send(message) {
      const result = await binding.send({
        from: { email: from, name: fromName },
        to: message.recipient,
        subject: message.subject ?? '',
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
      });
      return { providerId: result.messageId };
    },
  };
}

type TwilioConfig = { accountSid: string; authToken: string; from: string; apiBase: string; appUrl?: string };

/** Twilio addresses a WhatsApp message as an SMS with both numbers prefixed `whatsapp:`. */
function whatsappAddress(number: string): string {
  return number.startsWith('whatsapp:') ? number : `whatsapp:${number}`;
}

export function twilioTransport(config: TwilioConfig, channel: 'sms' | 'whatsapp' = 'sms'): Transport {
  const address = channel === 'whatsapp' ? whatsappAddress : (number: string) => number;
  return {
    name: 'twilio',
    async send(message) {
      const url = `${config.apiBase.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}/Messages.json`;
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          Authorization: `Basic ${btoa(`${config.accountSid}:${config.authToken}`)}`,
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({
          To: address(message.recipient),
          From: address(config.from),
          Body: message.text,
          ...(config.appUrl ? { StatusCallback: smsStatusCallbackUrl(config.appUrl, message) } : {}),
        }),
        signal: AbortSignal.timeout(10_000),
      });
      const body = (await response.json().catch(() => ({}))) as { sid?: string; message?: string; code?: number };
      if (response.ok) return { providerId: body.sid ?? null };
      const reason = `SMS provider answered ${response.status}${body.message ? `: ${body.message}` : ''}`;
      // 4xx other than throttling means the request itself is wrong (bad number, bad credentials).
      if (response.status >= 400 && response.status < 500 && response.status !== 429) throw new PermanentDeliveryError(reason);
      throw new Error(reason);
    },
  };
}

export function transportFor(env: MailEnv, channel: string): Transport {
  const production = isProduction(env);
  if (channel === 'sms' || channel === 'whatsapp') {
    const from = channel === 'whatsapp' ? env.TWILIO_WHATSAPP_FROM || env.TWILIO_FROM : env.TWILIO_FROM;
    if (env.TWILIO_ACCOUNT_SID && env.TWILIO_AUTH_TOKEN && from) {
      const config = {
        accountSid: env.TWILIO_ACCOUNT_SID,
        authToken: env.TWILIO_AUTH_TOKEN,
        from,
        apiBase: env.TWILIO_API_BASE || 'https://api.twilio.com',
        appUrl: env.APP_URL,
      };
      return twilioTransport(config, channel);
    }
    if (production)
      throw new PermanentDeliveryError(
        `${channel === 'sms' ? 'SMS' : 'WhatsApp'} is not configured: set TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM.`,
      );
    return outboxTransport;
  }
  if (production || env.MAIL_TRANSPORT === 'cloudflare') {
    if (!env.EMAIL || !env.MAIL_FROM)
      throw new PermanentDeliveryError('Email is not configured: bind EMAIL (send_email) and set MAIL_FROM.');
    return cloudflareEmailTransport(env.EMAIL, env.MAIL_FROM, env.SERVICE_NAME);
  }
  return outboxTransport;
}
