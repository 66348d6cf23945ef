import { describe, expect, it } from 'vitest';
import { localDate } from '../../src/lib/time';

describe('localDate', () => {
  it('gives the calendar day an instant falls on in a time zone', () => {
    expect(localDate('2026-11-25T23:30:00.000Z', 'UTC')).toBe('2026-11-25');
    expect(localDate('2026-11-25T23:30:00.000Z', 'Europe/Berlin')).toBe('2026-11-26');
    expect(localDate('2026-11-25T03:30:00.000Z', 'America/Los_Angeles')).toBe('2026-11-24');
  });

  it('follows daylight saving time', () => {
    // New York is UTC-4 in July and UTC-5 in January.
    expect(localDate('2026-07-01T03:30:00.000Z', 'America/New_York')).toBe('2026-06-30');
    expect(localDate('2026-01-01T04:30:00.000Z', 'America/New_York')).toBe('2025-12-31');
    expect(localDate('2026-01-01T05:30:00.000Z', 'America/New_York')).toBe('2026-01-01');
  });

  it('reads a zone Intl does not know, or none, as UTC', () => {
    expect(localDate('2026-11-25T23:30:00.000Z', 'Mars/Olympus_Mons')).toBe('2026-11-25');
    expect(localDate('2026-11-25T23:30:00.000Z', undefined)).toBe('2026-11-25');
  });
});
