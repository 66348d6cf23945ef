// Timestamps are ISO 8601 strings in UTC with milliseconds, the same form SQLite writes by default.

export function nowIso(): string {
  return new Date().toISOString();
}

/** Normalises any accepted date-time input to the stored ISO form. */
export function toIso(value: string | Date): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
