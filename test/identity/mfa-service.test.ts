import { describe, expect, it } from 'vitest';
import { Secret } from 'otpauth';
import { generateBackupCodes, matchTotpStep, totpUri } from '../../src/services/identity/mfa';

// RFC 6238 Appendix B: the SHA-1 seed, whose 8-digit code at T = 59 s is 94287082 (6 digits: 287082).
const RFC_SECRET = Secret.fromLatin1('12345678901234567890');

describe('TOTP (src/services/identity/mfa.ts)', () => {
  it('matches the RFC 6238 test vector and names its time step', () => {
    expect(matchTotpStep(RFC_SECRET, '287082', 59_000)).toBe(1);
  });

  it('accepts the code of the next step and of the previous one (one step of drift)', () => {
    expect(matchTotpStep(RFC_SECRET, '287082', 29_000)).toBe(1);
    expect(matchTotpStep(RFC_SECRET, '287082', 89_000)).toBe(1);
  });

  it('refuses the code two steps later', () => {
    expect(matchTotpStep(RFC_SECRET, '287082', 59_000 + 60_000)).toBeNull();
  });

  it('builds the otpauth URI with the service as issuer and the email as label', () => {
    const uri = totpUri({ SERVICE_NAME: 'Signing Service' }, 'ada@example.com', RFC_SECRET);
    expect(uri).toBe(
      `otpauth://totp/Signing%20Service:ada%40example.com?issuer=Signing%20Service&secret=${RFC_SECRET.base32}&algorithm=SHA1&digits=6&period=30`,
    );
  });
});

describe('backup codes', () => {
  it('are 8 codes of 10 unambiguous characters, grouped by five', () => {
    const codes = generateBackupCodes();
    expect(codes).toHaveLength(8);
    for (const code of codes) expect(code).toMatch(/^[2-9A-HJ-NP-Z]{5}-[2-9A-HJ-NP-Z]{5}$/);
  });
});
