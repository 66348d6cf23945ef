// Redirect URI rules for OAuth clients (src/services/identity/oauth/redirect-uris.ts).
import { describe, expect, it } from 'vitest';
import { redirectUriProblem } from '../../src/services/identity/oauth/redirect-uris';
import { verifierMatches } from '../../src/services/identity/oauth/pkce';

describe('redirect URIs', () => {
  it('accepts https anywhere', () => {
    expect(redirectUriProblem('https://agent.example/callback?x=1')).toBeNull();
  });

  it('accepts http on localhost, 127.0.0.1 and [::1] with any port', () => {
    expect(redirectUriProblem('http://localhost:3000/cb')).toBeNull();
    expect(redirectUriProblem('http://127.0.0.1:8976/cb')).toBeNull();
    expect(redirectUriProblem('http://[::1]:8976/cb')).toBeNull();
  });

  it('refuses http on a host that only looks like loopback', () => {
    expect(redirectUriProblem('http://localhost.evil.example/cb')).toContain('https');
    expect(redirectUriProblem('http://127.0.0.1.evil.example/cb')).toContain('https');
  });

  it('refuses custom schemes, credentials, fragments and relative URLs', () => {
    expect(redirectUriProblem('javascript:alert(1)')).not.toBeNull();
    expect(redirectUriProblem('https://user:pw@agent.example/cb')).toContain('credentials');
    expect(redirectUriProblem('https://agent.example/cb#')).toContain('fragment');
    expect(redirectUriProblem('/callback')).toContain('absolute');
  });
});

describe('PKCE S256', () => {
  // The challenge computed outside the Worker: node -e "crypto.createHash('sha256').update(v).digest('base64url')".
  it('matches a challenge computed independently', async () => {
    expect(await verifierMatches('dBjftJeZ4CVP-mJ92K27uhbUJU1p1r_wW1gFWFOEjXk', 'ngF5GsXcbwljx6u133FFr3Xht9xooA_DuaX_3QwODtc')).toBe(true);
  });

  it('refuses the challenge of another verifier', async () => {
    expect(await verifierMatches('dBjftJeZ4CVP-mJ92K27uhbUJU1p1r_wW1gFWFOEjXl', 'ngF5GsXcbwljx6u133FFr3Xht9xooA_DuaX_3QwODtc')).toBe(false);
  });

  it('refuses a verifier shorter than 43 characters even if it hashes right', async () => {
    const short = 'abc';
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(short));
    const challenge = btoa(String.fromCharCode(...new Uint8Array(digest)))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
    expect(await verifierMatches(short, challenge)).toBe(false);
  });
});
