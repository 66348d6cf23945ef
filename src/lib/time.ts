// Timestamps are ISO 8601 strings in UTC with milliseconds, the same form SQLite writes by default.

export function nowIso(): string {
  return new Date().toISOString();
}

/** Normalises any accepted date-time input to the stored ISO form. */
export function toIso(value: string | Date): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/**
 * The calendar date (YYYY-MM-DD) an instant falls on in an IANA time zone, as a signer there would
 * write it; a zone Intl does not know reads as UTC.
 */
export function localDate(at: string | Date, timeZone: string | undefined): string {
  const instant = at instanceof Date ? at : new Date(at);
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', { timeZone: timeZone || 'UTC', year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(instant);
  } catch {
    return instant.toISOString().slice(0, 10);
  }
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}
