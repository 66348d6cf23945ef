// The Worker's entry builds its app in parts on first use (src/app-parts.ts, decisions.md › Cold start).
// A part must serve its paths exactly as the whole app does: the same routes and middleware, in the same
// order, for every route pattern that can match a path of the part; and the entry must reach no route.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import { createApiApp } from '../src/app-api';
import { createSigningApp } from '../src/app-signing';
import { fetchPart, partOf } from '../src/app-parts';
import { SIGNING_PREFIX } from '../src/routes/signing/signing.routes';
import { PUBLIC_LINK_PREFIX } from '../src/services/document-links/links';

type Route = { method: string; path: string };
const line = (r: Route) => `${r.method} ${r.path}`;

/** The part a route pattern serves: its literal start decides (every pattern starts with a literal segment). */
function partOfPattern(pattern: string): 'every' | ReturnType<typeof partOf> {
  if (pattern === '*' || pattern === '/*') return 'every';
  const literal = pattern.split(/[:*]/)[0];
  return partOf(`${literal}${literal.endsWith('/') ? 'x' : ''}`);
}

const whole = createApp().routes as Route[];

describe('app parts', () => {
  it('routes every pattern of the whole app from a literal first segment', () => {
    const open = whole.filter((r) => r.path !== '*' && r.path !== '/*' && /^\/?[:*]/.test(r.path));
    expect(open.map(line)).toEqual([]);
    expect([SIGNING_PREFIX, PUBLIC_LINK_PREFIX]).toEqual(['/s', '/l']);
  });

  for (const [part, build] of [
    ['api', createApiApp],
    ['signing', createSigningApp],
  ] as const) {
    it(`the ${part} part has the whole app's routes for its paths, in order`, () => {
      // Routes a part has for other parts' paths (the docs' /vendor/*) are never reached through it.
      const serves = (r: Route) => ['every', part].includes(partOfPattern(r.path));
      const expected = whole.filter(serves).map(line);
      expect(expected.length).toBeGreaterThan(10);
      expect((build().routes as Route[]).filter(serves).map(line)).toEqual(expected);
    });
  }

  it('sends each path to its part', () => {
    expect(['/api', '/api/templates', '/api/v1/submissions/1', '/api/partner/v1/accounts'].map(partOf)).toEqual([
      'api',
      'api',
      'api',
      'api',
    ]);
    expect(['/s/AbC123', '/l/xyz/download'].map(partOf)).toEqual(['signing', 'signing']);
    expect(['/', '/apix', '/login', '/settings', '/mcp', '/oauth/token', '/s', '/dev/outbox'].map(partOf)).toEqual(Array(8).fill('all'));
  });

  it('answers through the entry as the whole app does, including its 404', async () => {
    const expected: [string, number][] = [
      ['/api/templates', 401],
      ['/api/v2/templates', 404],
      ['/s/NoSuchSlug000000', 404],
      ['/no-such-page', 404],
    ];
    for (const [path, status] of expected) {
      const ctx = createExecutionContext();
      const viaEntry = await fetchPart(new Request(`https://api.test${path}`), env, ctx);
      await waitOnExecutionContext(ctx);
      const direct = await createApp().request(path, {}, env, createExecutionContext());
      expect([path, viaEntry.status, await viaEntry.text()]).toEqual([path, status, await direct.text()]);
    }
  });
});
