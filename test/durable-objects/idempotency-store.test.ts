import { env, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_LIFETIME_MS, type IdempotencyStore } from '../../durable-objects/idempotency-store';

let n = 0;
function store() {
  n += 1;
  return env.IDEMPOTENCY.get(env.IDEMPOTENCY.idFromName(`test:${n}`));
}

const response = {
  status: 201,
  headers: [['content-type', 'application/json']] as [string, string][],
  body: new TextEncoder().encode('{"id":1}').buffer as ArrayBuffer,
  note: null,
};

/** Moves every stored key `ms` into the past, as if that much time had gone by. */
async function age(stub: DurableObjectStub<IdempotencyStore>, ms: number) {
  await runInDurableObject(stub, (_instance, state) => {
    state.storage.sql.exec('UPDATE idempotency_keys SET expires_at = expires_at - ?, lease_until = lease_until - ?', ms, ms);
  });
}

describe('IdempotencyStore', () => {
  it('lets the first request with a key proceed', async () => {
    expect(await store().begin('k', 'f1', 60_000)).toEqual({ outcome: 'proceed' });
  });

  it('answers in_flight to a second request while the first is running', async () => {
    const stub = store();
    await stub.begin('k', 'f1', 60_000);
    expect(await stub.begin('k', 'f1', 60_000)).toEqual({ outcome: 'in_flight' });
  });

  it('answers mismatch to the same key with another fingerprint', async () => {
    const stub = store();
    await stub.begin('k', 'f1', 60_000);
    await stub.complete('k', 'f1', response);
    expect(await stub.begin('k', 'f2', 60_000)).toEqual({ outcome: 'mismatch' });
  });

  it('replays the stored status, headers and body once completed', async () => {
    const stub = store();
    await stub.begin('k', 'f1', 60_000);
    await stub.complete('k', 'f1', response);
    const replay = await stub.begin('k', 'f1', 60_000);
    expect(replay).toMatchObject({ outcome: 'replay', status: 201, headers: [['content-type', 'application/json']] });
    expect(new TextDecoder().decode((replay as { body: ArrayBuffer }).body)).toBe('{"id":1}');
  });

  it('lets exactly one of many concurrent claims proceed', async () => {
    const stub = store();
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => stub.begin('k', 'f1', 60_000)));
    expect(outcomes.filter((o) => o.outcome === 'proceed')).toHaveLength(1);
    expect(outcomes.filter((o) => o.outcome === 'in_flight')).toHaveLength(19);
  });

  it('frees a released key for the next attempt', async () => {
    const stub = store();
    await stub.begin('k', 'f1', 60_000);
    await stub.release('k', 'f1');
    expect(await stub.begin('k', 'f1', 60_000)).toEqual({ outcome: 'proceed' });
  });

  it('frees a key whose request never reported back once its lease has passed', async () => {
    const stub = store();
    await stub.begin('k', 'f1', 60_000);
    await age(stub, 60_001);
    expect(await stub.begin('k', 'f1', 60_000)).toEqual({ outcome: 'proceed' });
  });

  it('schedules an alarm for when the key expires, 24 hours after first use', async () => {
    const stub = store();
    const before = Date.now();
    await stub.begin('k', 'f1', 60_000);
    const alarm = await runInDurableObject(stub, (_instance, state) => state.storage.getAlarm());
    expect(alarm).toBeGreaterThanOrEqual(before + IDEMPOTENCY_KEY_LIFETIME_MS);
    expect(alarm).toBeLessThanOrEqual(Date.now() + IDEMPOTENCY_KEY_LIFETIME_MS);
  });

  it('forgets keys when their 24 hours are up and the alarm runs', async () => {
    const stub = store();
    await stub.begin('k', 'f1', 60_000);
    await stub.complete('k', 'f1', response);
    await age(stub, IDEMPOTENCY_KEY_LIFETIME_MS);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const left = await runInDurableObject(
      stub,
      (_instance, state) => state.storage.sql.exec<{ n: number }>('SELECT count(*) AS n FROM idempotency_keys').one().n,
    );
    expect(left).toBe(0);
  });

  it('keeps younger keys and re-arms the alarm for them', async () => {
    const stub = store();
    await stub.begin('old', 'f1', 60_000);
    await age(stub, IDEMPOTENCY_KEY_LIFETIME_MS);
    await stub.begin('young', 'f2', 60_000);
    await runDurableObjectAlarm(stub);
    const { keys, alarm } = await runInDurableObject(stub, async (_instance, state) => ({
      keys: state.storage.sql
        .exec<{ key: string }>('SELECT key FROM idempotency_keys')
        .toArray()
        .map((r) => r.key),
      alarm: await state.storage.getAlarm(),
    }));
    expect(keys).toEqual(['young']);
    expect(alarm).toBeGreaterThan(Date.now());
  });

  it('treats an expired key as new even before the alarm has run', async () => {
    const stub = store();
    await stub.begin('k', 'f1', 60_000);
    await stub.complete('k', 'f1', response);
    await age(stub, IDEMPOTENCY_KEY_LIFETIME_MS);
    expect(await stub.begin('k', 'f2', 60_000)).toEqual({ outcome: 'proceed' });
  });
});
