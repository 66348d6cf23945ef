import { describe, expect, it } from 'vitest';
import { api, createAccount } from '../helpers';
import { deliverPending, deliveryRows, drainFor, insertEvent, pendingUuids, receiverHook } from '../webhook-fixtures';
import { receivedBy } from '../webhook-receiver';

/** An account with one endpoint on the receiver and `events` delivered to it. */
async function withDeliveries(events: string[], receiver: { failFirst?: number } = {}) {
  const a = await createAccount();
  const { hook, receiver: name } = await receiverHook(a.token, { receiver });
  for (const event of events) await insertEvent(a.accountId, event, { event });
  await drainFor(a.accountId);
  await deliverPending(hook.id);
  return { a, hook, receiver: name };
}

describe('GET /api/webhooks/{id}/deliveries', () => {
  it('lists log entries newest first with the spec’s fields', async () => {
    const { a, hook } = await withDeliveries(['form.viewed', 'form.completed']);
    const res = await api('GET', `/api/webhooks/${hook.id}/deliveries`, { token: a.token });
    expect(res.status).toBe(200);
    expect(res.json.data.map((d: { event: string }) => d.event)).toEqual(['form.completed', 'form.viewed']);
    const entry = res.json.data[0];
    expect(entry).toMatchObject({
      webhook_id: hook.id,
      event: 'form.completed',
      status: 'success',
      http_status: 200,
      response_status: 200,
      url: hook.url,
      response_body: 'ok',
      attempt: 1,
      max_attempts: 6,
      error_message: null,
      test: false,
      request_body: { event: 'form.completed', data: { event: 'form.completed' } },
    });
    expect(entry.request_headers['X-Webhook-Secret']).toBe('[redacted]');
    expect(entry.request_headers['X-Webhook-Delivery-Id']).toBe(entry.delivery_uuid);
    expect(entry.response_time_ms).toBeGreaterThanOrEqual(0);
    expect(entry.delivered_at).toBe(entry.attempted_at);
    expect(res.json.pagination).toEqual({ count: 2, next: null, prev: null });
  });

  it('shows a scheduled retry as a pending entry with its due time', async () => {
    const { a, hook } = await withDeliveries(['form.completed'], { failFirst: 1 });
    const res = await api('GET', `/api/webhooks/${hook.id}/deliveries?status=pending`, { token: a.token });
    expect(res.json.data).toHaveLength(1);
    expect(res.json.data[0]).toMatchObject({ status: 'pending', attempt: 2, http_status: null, request_headers: {} });
    expect(Date.parse(res.json.data[0].next_attempt_at)).toBeGreaterThan(Date.now());
  });

  it('filters by status and event', async () => {
    const { a, hook } = await withDeliveries(['form.viewed', 'form.completed', 'form.viewed']);
    const viewed = await api('GET', `/api/webhooks/${hook.id}/deliveries?event=form.viewed&status=success`, { token: a.token });
    expect(viewed.json.data.map((d: { event: string }) => d.event)).toEqual(['form.viewed', 'form.viewed']);
    const failed = await api('GET', `/api/webhooks/${hook.id}/deliveries?status=failed`, { token: a.token });
    expect(failed.json.data).toEqual([]);
  });

  it('pages with limit and after', async () => {
    const { a, hook } = await withDeliveries(['form.viewed', 'form.started', 'form.completed']);
    const first = await api('GET', `/api/webhooks/${hook.id}/deliveries?limit=2`, { token: a.token });
    expect(first.json.data.map((d: { event: string }) => d.event)).toEqual(['form.completed', 'form.started']);
    const second = await api('GET', `/api/webhooks/${hook.id}/deliveries?limit=2&after=${first.json.pagination.next}`, { token: a.token });
    expect(second.json.data.map((d: { event: string }) => d.event)).toEqual(['form.viewed']);
    expect(second.json.pagination.next).toBeNull();
  });

  it('answers 422 for an unknown status', async () => {
    const a = await createAccount();
    const { hook } = await receiverHook(a.token);
    const res = await api('GET', `/api/webhooks/${hook.id}/deliveries?status=lost`, { token: a.token });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('status must be one of: success, failed, pending.');
  });

  it('answers 422 for an unknown event name', async () => {
    const a = await createAccount();
    const { hook } = await receiverHook(a.token);
    const res = await api('GET', `/api/webhooks/${hook.id}/deliveries?event=form.nope`, { token: a.token });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/^event must be one of: form\.created, /);
  });

  it('answers 404 for another account’s endpoint', async () => {
    const { hook } = await withDeliveries(['form.completed']);
    const other = await createAccount();
    expect((await api('GET', `/api/webhooks/${hook.id}/deliveries`, { token: other.token })).status).toBe(404);
  });

  it('answers 403 without webhooks:read', async () => {
    const a = await createAccount({ scopes: ['templates:read'] });
    const res = await api('GET', '/api/webhooks/1/deliveries', { token: a.token });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('Insufficient scope. Required: webhooks:read');
  });

  it('answers 401 without a token', async () => {
    expect((await api('GET', '/api/webhooks/1/deliveries')).status).toBe(401);
  });
});

describe('GET /api/webhooks/{id}/deliveries/{delivery_id}', () => {
  it('returns one log entry', async () => {
    const { a, hook } = await withDeliveries(['form.completed']);
    const [row] = await deliveryRows(hook.id);
    const res = await api('GET', `/api/webhooks/${hook.id}/deliveries/${row.id}`, { token: a.token });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: row.id, delivery_uuid: row.delivery_uuid, status: 'success' });
  });

  it('answers 404 for an entry of another of the account’s endpoints', async () => {
    const { a, hook } = await withDeliveries(['form.completed']);
    const { hook: second } = await receiverHook(a.token);
    const [row] = await deliveryRows(hook.id);
    expect((await api('GET', `/api/webhooks/${second.id}/deliveries/${row.id}`, { token: a.token })).status).toBe(404);
  });
});

describe('POST /api/webhooks/{id}/deliveries/{delivery_id}/redeliver', () => {
  it('queues the original body under a fresh delivery id, and the receiver gets the same bytes', async () => {
    const { a, hook, receiver } = await withDeliveries(['form.completed']);
    const [original] = await deliveryRows(hook.id);
    const res = await api('POST', `/api/webhooks/${hook.id}/deliveries/${original.id}/redeliver`, { token: a.token });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      status: 'pending',
      attempt: 1,
      max_attempts: 6,
      redelivery_of: original.id,
      event: 'form.completed',
      test: false,
    });
    expect(res.json.delivery_uuid).not.toBe(original.delivery_uuid);

    await deliverPending(hook.id);
    const got = await receivedBy(receiver);
    expect(got).toHaveLength(2);
    expect(got[1].body).toBe(got[0].body);
    expect(got[1].headers['x-webhook-delivery-id']).toBe(res.json.delivery_uuid);
    expect(got[1].signatureValid).toBe(true);
  });

  it('answers 422 for a test send', async () => {
    const a = await createAccount();
    const { hook } = await receiverHook(a.token);
    const sent = await api('POST', `/api/webhooks/${hook.id}/test`, { token: a.token });
    const res = await api('POST', `/api/webhooks/${hook.id}/deliveries/${sent.json.delivery_id}/redeliver`, { token: a.token });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/^Test sends are not redelivered/);
  });

  it('answers 422 while the endpoint is disabled and queues nothing', async () => {
    const { a, hook } = await withDeliveries(['form.completed']);
    const [original] = await deliveryRows(hook.id);
    await api('PUT', `/api/webhooks/${hook.id}`, { token: a.token, body: { enabled: false } });
    const res = await api('POST', `/api/webhooks/${hook.id}/deliveries/${original.id}/redeliver`, { token: a.token });
    expect(res.status).toBe(422);
    expect(await pendingUuids(hook.id)).toEqual([]);
  });

  it('answers 404 for another account’s delivery', async () => {
    const { hook } = await withDeliveries(['form.completed']);
    const [original] = await deliveryRows(hook.id);
    const other = await createAccount();
    expect((await api('POST', `/api/webhooks/${hook.id}/deliveries/${original.id}/redeliver`, { token: other.token })).status).toBe(404);
  });

  it('answers 403 without webhooks:write', async () => {
    const a = await createAccount({ scopes: ['webhooks:read'] });
    expect((await api('POST', '/api/webhooks/1/deliveries/1/redeliver', { token: a.token })).status).toBe(403);
  });

  it('answers 400 for a delivery id that is not a number', async () => {
    const a = await createAccount();
    const res = await api('POST', '/api/webhooks/1/deliveries/x/redeliver', { token: a.token });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('delivery_id must be an integer id.');
  });
});

describe('POST /api/webhooks/{id}/test', () => {
  it('sends sample data of the event asked for, marked as a test, and answers with the delivery', async () => {
    const a = await createAccount();
    const { hook, receiver } = await receiverHook(a.token);
    const res = await api('POST', `/api/webhooks/${hook.id}/test`, { token: a.token, body: { event: 'submission.completed' } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      success: true,
      delivery: { id: res.json.delivery_id, test: true, status: 'success', max_attempts: 1 },
    });
    const [got] = await receivedBy(receiver);
    expect(got.headers['x-webhook-test']).toBe('true');
    expect(got.signatureValid).toBe(true);
    const body = JSON.parse(got.body);
    expect(body).toMatchObject({ event: 'submission.completed', test: true });
    expect(Object.keys(body.data.submission).sort()).toEqual(
      ['completed_at', 'created_at', 'documents', 'id', 'metadata', 'slug', 'status', 'submitters', 'template_id'].sort(),
    );
    expect(body.data.submission.submitters[0].email).toBe('sample.signer@example.com');
  });

  it('uses the first subscribed event when none is asked for', async () => {
    const a = await createAccount();
    const { hook, receiver } = await receiverHook(a.token, { events: ['template.updated', 'form.viewed'] });
    const res = await api('POST', `/api/webhooks/${hook.id}/test`, { token: a.token });
    expect(res.status).toBe(200);
    expect(JSON.parse((await receivedBy(receiver))[0].body).event).toBe('template.updated');
  });

  it('uses form.completed for an endpoint subscribed to everything', async () => {
    const a = await createAccount();
    const { hook, receiver } = await receiverHook(a.token);
    await api('POST', `/api/webhooks/${hook.id}/test`, { token: a.token, body: {} });
    expect(JSON.parse((await receivedBy(receiver))[0].body).event).toBe('form.completed');
  });

  it('answers 422 with the delivery id when the endpoint fails, and does not retry', async () => {
    const a = await createAccount();
    const { hook, receiver } = await receiverHook(a.token, { receiver: { failFirst: 5 } });
    const res = await api('POST', `/api/webhooks/${hook.id}/test`, { token: a.token });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('The test delivery failed: The endpoint answered 500; only 2xx counts as delivered.');
    const rows = await deliveryRows(hook.id);
    expect(rows.map((r) => [r.id, r.status, r.test])).toEqual([[res.json.delivery_id, 'failed', 1]]);
    expect(await pendingUuids(hook.id)).toEqual([]);
    expect(await receivedBy(receiver)).toHaveLength(1);
  });

  it('logs the test send with test: true', async () => {
    const a = await createAccount();
    const { hook } = await receiverHook(a.token);
    await api('POST', `/api/webhooks/${hook.id}/test`, { token: a.token });
    const log = await api('GET', `/api/webhooks/${hook.id}/deliveries`, { token: a.token });
    expect(log.json.data.map((d: { test: boolean }) => d.test)).toEqual([true]);
  });

  it('answers 422 for an unknown event and sends and logs nothing', async () => {
    const a = await createAccount();
    const { hook, receiver } = await receiverHook(a.token);
    const res = await api('POST', `/api/webhooks/${hook.id}/test`, { token: a.token, body: { event: 'form.exploded' } });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/^event "form\.exploded" is not a webhook event; valid names are /);
    expect(await receivedBy(receiver)).toEqual([]);
    expect(await deliveryRows(hook.id)).toEqual([]);
  });

  it('answers 400 when event is not a string', async () => {
    const a = await createAccount();
    const { hook } = await receiverHook(a.token);
    const res = await api('POST', `/api/webhooks/${hook.id}/test`, { token: a.token, body: { event: 5 } });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('event must be a string.');
  });

  it('answers 404 for another account’s endpoint', async () => {
    const other = await createAccount();
    const { hook, receiver } = await receiverHook(other.token);
    const a = await createAccount();
    expect((await api('POST', `/api/webhooks/${hook.id}/test`, { token: a.token })).status).toBe(404);
    expect(await receivedBy(receiver)).toEqual([]);
  });

  it('answers 403 without webhooks:write', async () => {
    const a = await createAccount({ scopes: ['webhooks:read'] });
    expect((await api('POST', '/api/webhooks/1/test', { token: a.token })).status).toBe(403);
  });

  it('answers 401 without a token', async () => {
    expect((await api('POST', '/api/webhooks/1/test')).status).toBe(401);
  });
});
