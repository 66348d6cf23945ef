// Payment fields (spec › Template field type `payment`): what a field charges. Configured in its
// `preferences` — `currency` (ISO 4217), `amount` (a decimal in the currency's major unit, e.g. 12.50) or
// the field's `formula` over number fields, and an optional `description` — and checked on template
// create and update. Amounts are charged in Stripe's minor units (cents; none for JPY).

export type PaymentFieldConfig = { currency: string; amount?: number; formula?: string; description?: string };

/** Stripe refuses a charge above 99,999,999 minor units (stripe.com/docs/currencies › Maximum amounts). */
const MAX_MINOR_UNITS = 99_999_999;

let currencies: Set<string> | undefined;

/** ISO 4217 codes the runtime's ICU knows (Intl.supportedValuesOf), upper case. */
export function isCurrencyCode(code: string): boolean {
  currencies ??= new Set(Intl.supportedValuesOf('currency'));
  return /^[A-Z]{3}$/.test(code) && currencies.has(code);
}

/** Digits after the decimal point in the currency's minor unit (ISO 4217 exponent): 2 for EUR, 0 for JPY, 3 for KWD. */
export function currencyExponent(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** Major-unit amount → minor units, or null when it has more decimals than the currency has, or is not positive. */
export function toMinorUnits(amount: number, currency: string): number | null {
  const minor = amount * 10 ** currencyExponent(currency);
  const rounded = Math.round(minor);
  if (!Number.isFinite(minor) || Math.abs(minor - rounded) > 1e-6 || rounded <= 0 || rounded > MAX_MINOR_UNITS) return null;
  return rounded;
}

/** "12.50 EUR" style text for the signing page, the stamp and the audit trail. */
export function formatAmount(minor: number, currency: string): string {
  const exponent = currencyExponent(currency);
  return `${(minor / 10 ** exponent).toFixed(exponent)} ${currency}`;
}

/**
 * Checks a payment field's configuration, pushing sentences naming the field (`label`) onto `problems`.
 * Returns the configuration when it is usable.
 */
export function checkPaymentField(
  label: string,
  field: { formula?: string; preferences?: Record<string, unknown> },
  problems: string[],
): PaymentFieldConfig | null {
  const before = problems.length;
  const prefs = field.preferences ?? {};
  const { currency, amount, description } = prefs;
  if (currency === undefined) problems.push(`${label}: a payment field needs preferences.currency, an ISO 4217 code such as USD or EUR.`);
  else if (typeof currency !== 'string' || !isCurrencyCode(currency)) {
    problems.push(
      `${label}: preferences.currency ${JSON.stringify(currency)} is not an ISO 4217 currency code; use one such as USD or EUR (upper case).`,
    );
  }
  const hasFormula = typeof field.formula === 'string' && field.formula.trim() !== '';
  if (amount === undefined && !hasFormula) {
    problems.push(`${label}: a payment field needs preferences.amount (e.g. 12.50) or a formula over number fields.`);
  } else if (amount !== undefined && hasFormula) {
    problems.push(`${label}: give a payment field either preferences.amount or a formula, not both.`);
  } else if (amount !== undefined) {
    const value =
      typeof amount === 'number' ? amount : typeof amount === 'string' && /^\d+(\.\d+)?$/.test(amount.trim()) ? Number(amount) : NaN;
    if (!Number.isFinite(value))
      problems.push(`${label}: preferences.amount must be a positive number in the currency’s major unit, such as 12.50.`);
    else if (typeof currency === 'string' && isCurrencyCode(currency) && toMinorUnits(value, currency) === null) {
      const exponent = currencyExponent(currency);
      problems.push(
        `${label}: preferences.amount ${value} is not a chargeable ${currency} amount: it must be above 0, at most ${formatAmount(MAX_MINOR_UNITS, currency)}, with at most ${exponent} decimal${exponent === 1 ? '' : 's'}.`,
      );
    }
  }
  if (description !== undefined && (typeof description !== 'string' || description.length > 500)) {
    problems.push(`${label}: preferences.description must be text of at most 500 characters.`);
  }
  if (problems.length > before) return null;
  return {
    currency: currency as string,
    ...(amount !== undefined ? { amount: Number(amount) } : { formula: field.formula }),
    ...(typeof description === 'string' ? { description } : {}),
  };
}
