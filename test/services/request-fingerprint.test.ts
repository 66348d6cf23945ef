import { describe, expect, it } from 'vitest';
import { requestFingerprint, type FingerprintInput } from '../../src/services/idempotency/request-fingerprint';

const encode = (text: string) => new TextEncoder().encode(text).buffer as ArrayBuffer;

function json(body: string, extra: Partial<FingerprintInput> = {}) {
  return requestFingerprint({
    method: 'POST',
    path: '/api/templates',
    search: '',
    contentType: 'application/json',
    body: encode(body),
    ...extra,
  });
}

async function multipart(parts: [string, string | File][]) {
  const form = new FormData();
  for (const [name, value] of parts) form.append(name, value);
  const request = new Request('https://x.test', { method: 'POST', body: form });
  return requestFingerprint({
    method: 'POST',
    path: '/api/templates/pdf',
    search: '',
    contentType: request.headers.get('Content-Type'),
    body: await request.arrayBuffer(),
  });
}

describe('requestFingerprint', () => {
  it('ignores JSON key order and whitespace', async () => {
    expect(await json('{"a":1,"b":{"c":2,"d":3}}')).toBe(await json('{ "b": { "d": 3, "c": 2 }, "a": 1 }'));
  });

  it('keeps array order significant', async () => {
    expect(await json('{"a":[1,2]}')).not.toBe(await json('{"a":[2,1]}'));
  });

  it('tells different values apart', async () => {
    expect(await json('{"a":1}')).not.toBe(await json('{"a":"1"}'));
  });

  it('tells different paths and methods apart', async () => {
    expect(await json('{}')).not.toBe(await json('{}', { path: '/api/submissions' }));
    expect(await json('{}')).not.toBe(await json('{}', { method: 'PUT' }));
  });

  it('treats /api/v1 as /api', async () => {
    expect(await json('{}', { path: '/api/v1/templates' })).toBe(await json('{}'));
  });

  it('tells different query strings apart', async () => {
    expect(await json('{}', { search: '?draft=true' })).not.toBe(await json('{}'));
  });

  it('compares multipart bodies by their parts, not their random boundaries', async () => {
    const file = () => new File(['%PDF-1.7 test'], 'contract.pdf', { type: 'application/pdf' });
    expect(
      await multipart([
        ['name', 'NDA'],
        ['file', file()],
      ]),
    ).toBe(
      await multipart([
        ['name', 'NDA'],
        ['file', file()],
      ]),
    );
  });

  it('tells multipart uploads of different files apart', async () => {
    const a = await multipart([['file', new File(['one'], 'a.pdf', { type: 'application/pdf' })]]);
    const b = await multipart([['file', new File(['two'], 'a.pdf', { type: 'application/pdf' })]]);
    expect(a).not.toBe(b);
  });

  it('falls back to the bytes for malformed JSON', async () => {
    expect(await json('{"a":')).not.toBe(await json('{"a":}'));
  });
});
