// How a date field's value is written on the sealed page. Values are stored as ISO dates (or MM/DD/YYYY,
// which the API also accepts); a signed contract shows them as people write dates: in the field's own
// `preferences.format` when the template sets one (DocuSeal's tokens DD, D, MM, M, MMM, MMMM, YY, YYYY),
// else in the account's locale ("November 25, 2026" for en-US, "25. November 2026" for de-DE).

type CalendarDate = { year: number; month: number; day: number };

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/;
const US_DATE = /^(\d{2})\/(\d{2})\/(\d{4})$/;
const FORMAT_TOKENS = /YYYY|YY|MMMM|MMM|MM|M|DD|D/g;

function calendarDate(text: string): CalendarDate | null {
  const iso = ISO_DATE.exec(text);
  if (iso) return { year: Number(iso[1]), month: Number(iso[2]), day: Number(iso[3]) };
  const us = US_DATE.exec(text);
  if (us) return { year: Number(us[3]), month: Number(us[1]), day: Number(us[2]) };
  return null;
}

/** The locale as Intl takes it; an account's locale is checked when stored, this only guards old rows. */
function usableLocale(locale: string): string {
  try {
    return Intl.getCanonicalLocales(locale)[0] ?? 'en-US';
  } catch {
    return 'en-US';
  }
}

function monthName(date: Date, locale: string, month: 'long' | 'short'): string {
  return new Intl.DateTimeFormat(locale, { month, timeZone: 'UTC' }).format(date);
}

/** The value as it is drawn; text that is not a date is drawn as it is. */
export function formatDateStamp(text: string, options: { format?: unknown; locale: string }): string {
  const date = calendarDate(text);
  if (!date) return text;
  const locale = usableLocale(options.locale);
  const at = new Date(Date.UTC(date.year, date.month - 1, date.day));
  if (typeof options.format === 'string' && options.format.trim()) {
    const pad = (n: number) => String(n).padStart(2, '0');
    return options.format.replace(FORMAT_TOKENS, (token) => {
      switch (token) {
        case 'YYYY':
          return String(date.year);
        case 'YY':
          return pad(date.year % 100);
        case 'MMMM':
          return monthName(at, locale, 'long');
        case 'MMM':
          return monthName(at, locale, 'short');
        case 'MM':
          return pad(date.month);
        case 'M':
          return String(date.month);
        case 'DD':
          return pad(date.day);
        default:
          return String(date.day);
      }
    });
  }
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(at);
}
