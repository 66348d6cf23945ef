// Timestamps are ISO 8601 strings in UTC with milliseconds, the same form SQLite writes by default.

export function nowIso(): string {
  return new Date().toISOString();
}

/** Whole seconds until `at` (Unix ms), at least 1: a `Retry-After` value. */
export function secondsUntil(at: number, now = Date.now()): number {
  return Math.max(1, Math.ceil((at - now) / 1000));
}

/**
 * The calendar date (YYYY-MM-DD) an instant falls on in an IANA time zone, as a signer there would
 * write it; a zone Intl does not know reads as UTC.
 */
export function localDate(at: string | Date, timeZone: string | undefined): string {
  const instant = at instanceof Date ? at : new Date(at);
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', {
      timeZone: timeZone || 'UTC',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).formatToParts(instant);
  } catch {
    return instant.toISOString().slice(0, 10);
  }
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})(?=$|[T ])/;

/**
 * A date-time a caller sent, in the stored ISO form; null when it is not one. It must start with a
 * real calendar date, YYYY-MM-DD (so `2026-02-30`, `tomorrow` and the extended years `+275760-…`
 * are refused: the last would not sort as text against stored timestamps); what follows is read as
 * Date.parse does (`2026-01-31T12:00:00Z`, `2026-01-31T12:00:00+02:00`, DocuSeal's
 * `2026-01-31 12:00:00 UTC`; a bare date is midnight UTC).
 */
export function parseDateTime(value: string): string | null {
  const date = CALENDAR_DATE.exec(value);
  if (!date) return null;
  const [year, month, day] = [Number(date[1]), Number(date[2]), Number(date[3])];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) return null;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return null;
  const iso = new Date(at).toISOString();
  // An offset can move year 0000 or 9999 out of the four-digit range.
  return /^\d{4}-/.test(iso) ? iso : null;
}
