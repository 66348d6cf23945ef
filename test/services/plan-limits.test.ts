import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/lib/errors';
import { assertStorageAvailable, assertWithinPlanLimit, monthStartIso } from '../../src/services/plan-limits';

const UPGRADE = 'https://app.test/settings/billing';
const GB = 1024 ** 3;

function thrown(fn: () => void): ApiError {
  try {
    fn();
  } catch (err) {
    return err as ApiError;
  }
  throw new Error('expected a plan-limit error');
}

describe('assertWithinPlanLimit', () => {
  it('allows a create that stays within the plan', () => {
    expect(() => assertWithinPlanLimit({ plan: 'free' }, 'templates', 4, UPGRADE)).not.toThrow();
  });

  it('refuses the create past the limit with 403, upgrade_url and a sentence', () => {
    const err = thrown(() => assertWithinPlanLimit({ plan: 'free' }, 'templates', 5, UPGRADE));
    expect(err.status).toBe(403);
    expect(err.error).toBe('Your free plan allows 5 active templates; archive one or upgrade.');
    expect(err.extra).toEqual({ upgrade_url: UPGRADE, code: 'plan_limit_reached' });
  });

  it('counts several items created at once', () => {
    expect(() => assertWithinPlanLimit({ plan: 'free' }, 'submissionsPerMonth', 8, UPGRADE, 3)).toThrow(ApiError);
  });

  it('uses the singular for a limit of one', () => {
    expect(thrown(() => assertWithinPlanLimit({ plan: 'free' }, 'teamMembers', 1, UPGRADE)).error).toBe(
      'Your free plan allows 1 team member; remove one or upgrade.',
    );
  });

  it('never limits enterprise', () => {
    expect(() => assertWithinPlanLimit({ plan: 'enterprise' }, 'templates', 1_000_000, UPGRADE)).not.toThrow();
  });
});

describe('assertStorageAvailable', () => {
  it('allows an upload that fits', () => {
    expect(() => assertStorageAvailable({ plan: 'free' }, GB - 100, 100, UPGRADE)).not.toThrow();
  });

  it('refuses an upload past the plan’s storage, naming sizes', () => {
    const err = thrown(() => assertStorageAvailable({ plan: 'free' }, GB - 100, 20 * 1024 * 1024, UPGRADE));
    expect(err.status).toBe(403);
    expect(err.error).toBe(
      'Your free plan includes 1 GB of storage and 1024.0 MB is in use; this upload needs 20 MB. Delete documents or upgrade.',
    );
    expect(err.extra.upgrade_url).toBe(UPGRADE);
  });
});

describe('monthStartIso', () => {
  it('is midnight UTC on the first of the month', () => {
    expect(monthStartIso(new Date('2026-03-17T08:30:00+05:00'))).toBe('2026-03-01T00:00:00.000Z');
  });
});
