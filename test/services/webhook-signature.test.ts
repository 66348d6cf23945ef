import { describe, expect, it } from 'vitest';
import { signDelivery, signWebhookBody, verifyWebhookSignature } from '../../src/services/webhooks/signature';

// The body and signature docs/webhooks.md shows; the same value Node's crypto, Python's hmac and
// `openssl dgst -sha256 -hmac` give for these bytes.
const BODY = '{"event":"form.completed","timestamp":"2026-01-01T00:00:00.000Z","data":{"a":"é"}}';
const SIGNATURE = 'sha256=03dee3c382d0098fe82226717e10e3f571d73accf410f6516bbc935ac11349b8';

describe('signWebhookBody', () => {
  it('gives the hex HMAC-SHA256 of the UTF-8 body, prefixed sha256=', async () => {
    expect(await signWebhookBody('whsec_test', BODY)).toBe(SIGNATURE);
  });

  it('signs bytes and the string they encode alike', async () => {
    expect(await signWebhookBody('whsec_test', new TextEncoder().encode(BODY))).toBe(SIGNATURE);
  });
});

describe('verifyWebhookSignature', () => {
  it('accepts the signature of the exact bytes', async () => {
    expect(await verifyWebhookSignature('whsec_test', BODY, SIGNATURE)).toBe(true);
  });

  it('rejects the same JSON re-serialised with escapes', async () => {
    expect(await verifyWebhookSignature('whsec_test', BODY.replace('é', '\\u00e9'), SIGNATURE)).toBe(false);
  });

  it('rejects another secret’s signature', async () => {
    expect(await verifyWebhookSignature('whsec_other', BODY, SIGNATURE)).toBe(false);
  });

  it('rejects a missing header', async () => {
    expect(await verifyWebhookSignature('whsec_test', BODY, null)).toBe(false);
  });
});

describe('signDelivery', () => {
  it('signs "id.timestamp.body" as Standard Webhooks v1, beside the spec’s body signature', async () => {
    // Node: createHmac('sha256', 'whsec_test').update(`msg_2f6c1a9e.1767225600.${BODY}`).digest('base64')
    expect(await signDelivery('whsec_test', 'msg_2f6c1a9e', 1767225600, BODY)).toEqual({
      'X-Webhook-Signature': SIGNATURE,
      'webhook-id': 'msg_2f6c1a9e',
      'webhook-timestamp': '1767225600',
      'webhook-signature': 'v1,mUx78Zx0MBxTpKOkIff+JkmTRYhXfSv5B5/nhpLjLvw=',
    });
  });
});
