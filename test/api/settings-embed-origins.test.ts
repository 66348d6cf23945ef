// embed_origins on the account settings (decisions.md › Embedding): normalised, https only outside
// development, at most 20, a sentence for every entry that is not an origin.
import { describe, expect, it } from 'vitest';
import { addUser, api, createAccount } from '../helpers';
import { normalizeEmbedOrigins } from '../../src/services/embed/embed-origins';

describe('embed_origins on /api/settings/account', () => {
  it('is an empty list until set', async () => {
    const a = await createAccount();
    const res = await api('GET', '/api/settings/account', { token: a.token });
    expect(res.json.account.embed_origins).toEqual([]);
  });

  it('stores origins normalised: lower-case host, default port and root slash dropped, duplicates removed', async () => {
    const a = await createAccount();
    const res = await api('PUT', '/api/settings/account', {
      token: a.token,
      body: { embed_origins: ['https://App.Example.com:443/', ' https://app.example.com ', 'https://portal.example.org:8443'] },
    });
    expect(res.status).toBe(200);
    expect(res.json.account.embed_origins).toEqual(['https://app.example.com', 'https://portal.example.org:8443']);
    expect((await api('GET', '/api/settings/account', { token: a.token })).json.account.embed_origins).toEqual([
      'https://app.example.com',
      'https://portal.example.org:8443',
    ]);
  });

  it('is emptied with an empty list and left alone when not sent', async () => {
    const a = await createAccount();
    await api('PUT', '/api/settings/account', { token: a.token, body: { embed_origins: ['https://app.example.com'] } });
    expect((await api('PUT', '/api/settings/account', { token: a.token, body: { name: 'Renamed' } })).json.account.embed_origins).toEqual([
      'https://app.example.com',
    ]);
    expect((await api('PUT', '/api/settings/account', { token: a.token, body: { embed_origins: [] } })).json.account.embed_origins).toEqual(
      [],
    );
  });

  it('refuses an http origin outside development with a sentence', async () => {
    const a = await createAccount();
    const res = await api('PUT', '/api/settings/account', { token: a.token, body: { embed_origins: ['http://app.example.com'] } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('embed_origins[0] "http://app.example.com" must use https (http origins are allowed only in development).');
  });

  it('refuses a page address, a wildcard and a non-URL, one sentence each, and keeps the old list', async () => {
    const a = await createAccount();
    await api('PUT', '/api/settings/account', { token: a.token, body: { embed_origins: ['https://keep.example.com'] } });
    const res = await api('PUT', '/api/settings/account', {
      token: a.token,
      body: { embed_origins: ['https://app.example.com/embed', 'https://*.example.com', 'app.example.com', 'https://ok.example.com'] },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toEqual([
      'embed_origins[0] "https://app.example.com/embed" must be an origin only (scheme, host and port), such as https://app.example.com, with no path, query or fragment.',
      'embed_origins[1] "https://*.example.com" must name one host; wildcards are not accepted.',
      'embed_origins[2] "app.example.com" is not an origin; give an https origin such as https://app.example.com.',
    ]);
    expect((await api('GET', '/api/settings/account', { token: a.token })).json.account.embed_origins).toEqual([
      'https://keep.example.com',
    ]);
  });

  it('refuses more than 20 origins', async () => {
    const a = await createAccount();
    const many = Array.from({ length: 21 }, (_, i) => `https://site${i}.example.com`);
    const res = await api('PUT', '/api/settings/account', { token: a.token, body: { embed_origins: many } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('embed_origins may list at most 20 origins; it lists 21.');
  });

  it('answers 400 when embed_origins is not a list of strings', async () => {
    const a = await createAccount();
    const res = await api('PUT', '/api/settings/account', { token: a.token, body: { embed_origins: 'https://app.example.com' } });
    expect(res.status).toBe(400);
    expect(typeof res.json.error).toBe('string');
  });

  it('refuses non-admins with 403 and leaves the list unchanged', async () => {
    const a = await createAccount();
    const editor = await addUser(a.accountId, 'editor');
    const res = await api('PUT', '/api/settings/account', { token: editor.token, body: { embed_origins: ['https://app.example.com'] } });
    expect(res.status).toBe(403);
    expect((await api('GET', '/api/settings/account', { token: a.token })).json.account.embed_origins).toEqual([]);
  });
});

describe('normalizeEmbedOrigins', () => {
  it('accepts http origins, localhost with a port included, when development allows them', () => {
    expect(normalizeEmbedOrigins(['http://localhost:3000', 'http://127.0.0.1:8080/'], { allowHttp: true })).toEqual([
      'http://localhost:3000',
      'http://127.0.0.1:8080',
    ]);
  });

  it('refuses schemes other than http and https even in development', () => {
    expect(() => normalizeEmbedOrigins(['ftp://files.example.com'], { allowHttp: true })).toThrow('must be an https or http origin');
  });
});
