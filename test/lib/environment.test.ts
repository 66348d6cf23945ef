import { describe, expect, it } from 'vitest';
import { environmentOf, isDevelopment, isProduction } from '../../src/lib/environment';

describe('environmentOf', () => {
  it('takes development and test as they are spelt', () => {
    expect(environmentOf({ ENVIRONMENT: 'development' })).toBe('development');
    expect(environmentOf({ ENVIRONMENT: 'test' })).toBe('test');
  });

  it('treats a missing, empty, misspelt or unknown value as production', () => {
    for (const value of [undefined, '', 'production', 'Development', 'dev', 'staging', ' development']) {
      expect(environmentOf({ ENVIRONMENT: value })).toBe('production');
      expect(isProduction({ ENVIRONMENT: value })).toBe(true);
      expect(isDevelopment({ ENVIRONMENT: value })).toBe(false);
    }
  });
});
