import { describe, expect, it } from 'vitest';
import { CURRENT_PARAMS, describePasswordProblem, hashPassword, verifyPassword } from '../../src/services/identity/passwords';

describe('password hashing', { timeout: 30_000 }, () => {
  it('writes a self-describing scrypt string with the current parameters and a fresh salt', async () => {
    const first = await hashPassword('correct horse battery');
    const second = await hashPassword('correct horse battery');
    expect(first).toMatch(
      new RegExp(
        `^\\$scrypt\\$ln=${CURRENT_PARAMS.logN},r=${CURRENT_PARAMS.r},p=${CURRENT_PARAMS.p}\\$[A-Za-z0-9+/]{22}\\$[A-Za-z0-9+/]{43}$`,
      ),
    );
    expect(second).not.toBe(first);
  });

  it('verifies the password the hash was made from and refuses another', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(await verifyPassword('correct horse battery', stored)).toEqual({ ok: true, needsRehash: false });
    expect(await verifyPassword('correct horse batterY', stored)).toEqual({ ok: false, needsRehash: false });
  });

  it('asks for a rehash when the stored parameters are below the current ones', async () => {
    const weak = await hashPassword('correct horse battery', { logN: 10, r: 8, p: 1 });
    expect(await verifyPassword('correct horse battery', weak)).toEqual({ ok: true, needsRehash: true });
  });

  it('refuses a user without a password, and a stored string it cannot read', async () => {
    expect((await verifyPassword('correct horse battery', null)).ok).toBe(false);
    expect(
      (
        await verifyPassword(
          'correct horse battery',
          '$scrypt$ln=40,r=8,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
        )
      ).ok,
    ).toBe(false);
  });

  it('treats composed and decomposed accents as the same password', async () => {
    const stored = await hashPassword('caf\u00e9 au lait please');
    expect((await verifyPassword('cafe\u0301 au lait please', stored)).ok).toBe(true);
  });

  it('names the length rules: at least 12 characters, at most 256 bytes', () => {
    expect(describePasswordProblem('short')).toContain('at least 12 characters');
    expect(describePasswordProblem('é'.repeat(12))).toBeNull();
    expect(describePasswordProblem('é'.repeat(129))).toContain('at most 256 bytes');
    expect(describePasswordProblem('a'.repeat(256))).toBeNull();
  });
});
