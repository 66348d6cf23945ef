// The wrong-code budget of a user is taken before a code is checked (src/services/identity/mfa-throttle.ts):
// however many guesses arrive at once, at most MFA_FAILURE_LIMIT of them are ever checked.
import { env } from 'cloudflare:test';
import { controlDb } from '../../src/db/shards';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/lib/errors';
import { MFA_FAILURE_LIMIT, throttledCodeCheck } from '../../src/services/identity/mfa-throttle';
import { createAccount } from '../helpers';

describe('throttledCodeCheck', { timeout: 60_000 }, () => {
  it('checks at most the allowed number of 300 concurrent wrong guesses and refuses the rest with 429', async () => {
    const { userId } = await createAccount();
    let checked = 0;
    const wrongGuess = async () => {
      checked += 1;
      throw new ApiError(422, 'That code is not right.');
    };
    const results = await Promise.all(Array.from({ length: 300 }, () => throttledCodeCheck(controlDb(env), env, userId, wrongGuess)));
    expect(checked).toBeLessThanOrEqual(MFA_FAILURE_LIMIT);
    expect(results.filter((r) => 'error' in r && r.status === 422)).toHaveLength(checked);
    expect(results.filter((r) => 'error' in r && r.status === 429)).toHaveLength(300 - checked);
  });

  it('gives a right code its attempt back, so right codes never use up the budget', async () => {
    const { userId } = await createAccount();
    for (let i = 0; i < MFA_FAILURE_LIMIT * 3; i++)
      expect(await throttledCodeCheck(controlDb(env), env, userId, async () => 'right')).toEqual({ ok: 'right' });
    const wrong = await throttledCodeCheck(controlDb(env), env, userId, async () => {
      throw new ApiError(422, 'That code is not right.');
    });
    expect(wrong).toEqual({ error: 'That code is not right.', status: 422 });
  });
});
