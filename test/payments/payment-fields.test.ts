// Payment field configuration on template create and update (spec › Template field type `payment`).
import { describe, expect, it } from 'vitest';
import { api, createAccount } from '../helpers';
import { makePdf, toBase64 } from '../fixtures/pdfs';

async function create(token: string, fields: unknown[]) {
  const file = toBase64(await makePdf(1));
  return api('POST', '/api/templates/pdf', { token, body: { name: 'Invoice', documents: [{ name: 'doc', file }], fields } });
}

describe('payment fields', () => {
  it('accepts a fixed amount with a currency and a description', async () => {
    const a = await createAccount();
    const res = await create(a.token, [
      { name: 'Deposit', type: 'payment', preferences: { amount: '12.50', currency: 'EUR', description: 'Deposit' } },
    ]);
    expect(res.status).toBe(201);
    expect(res.json.schema[0].preferences).toEqual({ amount: '12.50', currency: 'EUR', description: 'Deposit' });
  });

  it('accepts an amount computed by a formula over number fields', async () => {
    const a = await createAccount();
    const res = await create(a.token, [
      { name: 'Hours', type: 'number' },
      { name: 'Fee', type: 'payment', formula: '{Hours} * 80 + 20', preferences: { currency: 'USD' } },
    ]);
    expect(res.status).toBe(201);
    expect(res.json.schema[1].formula).toBe('{Hours} * 80 + 20');
  });

  it('refuses a payment field without a currency, naming the field', async () => {
    const a = await createAccount();
    const res = await create(a.token, [{ name: 'Deposit', type: 'payment', preferences: { amount: 10 } }]);
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('fields[0] "Deposit": a payment field needs preferences.currency, an ISO 4217 code such as USD or EUR.');
  });

  it('refuses a currency that is not an ISO 4217 code', async () => {
    const a = await createAccount();
    const res = await create(a.token, [{ name: 'Deposit', type: 'payment', preferences: { amount: 10, currency: 'EURO' } }]);
    expect(res.status).toBe(422);
    expect(res.json.error).toContain('preferences.currency "EURO" is not an ISO 4217 currency code');
  });

  it('refuses a payment field with neither an amount nor a formula', async () => {
    const a = await createAccount();
    const res = await create(a.token, [{ name: 'Deposit', type: 'payment', preferences: { currency: 'USD' } }]);
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      'fields[0] "Deposit": a payment field needs preferences.amount (e.g. 12.50) or a formula over number fields.',
    );
  });

  it('refuses both an amount and a formula', async () => {
    const a = await createAccount();
    const res = await create(a.token, [
      { name: 'Hours', type: 'number' },
      { name: 'Fee', type: 'payment', formula: '{Hours} * 80', preferences: { amount: 5, currency: 'USD' } },
    ]);
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('fields[1] "Fee": give a payment field either preferences.amount or a formula, not both.');
  });

  it('refuses more decimals than the currency has', async () => {
    const a = await createAccount();
    const res = await create(a.token, [{ name: 'Fee', type: 'payment', preferences: { amount: 100.5, currency: 'JPY' } }]);
    expect(res.status).toBe(422);
    expect(res.json.error).toContain('preferences.amount 100.5 is not a chargeable JPY amount');
    expect(res.json.error).toContain('with at most 0 decimals');
  });

  it('refuses a zero or negative amount', async () => {
    const a = await createAccount();
    const res = await create(a.token, [{ name: 'Fee', type: 'payment', preferences: { amount: -3, currency: 'USD' } }]);
    expect(res.status).toBe(422);
    expect(res.json.error).toContain('"Fee"');
  });

  it('refuses an amount that is not a number', async () => {
    const a = await createAccount();
    const res = await create(a.token, [{ name: 'Fee', type: 'payment', preferences: { amount: 'ten', currency: 'USD' } }]);
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      'fields[0] "Fee": preferences.amount must be a positive number in the currency’s major unit, such as 12.50.',
    );
  });

  it('refuses a payment formula that uses anything beyond arithmetic', async () => {
    const a = await createAccount();
    const res = await create(a.token, [
      { name: 'Hours', type: 'number' },
      { name: 'Fee', type: 'payment', formula: 'eval({Hours})', preferences: { currency: 'USD' } },
    ]);
    expect(res.status).toBe(422);
    expect(res.json.error).toContain('fields[1] "Fee": formula may only contain numbers');
  });

  it('checks a payment field added by a template update', async () => {
    const a = await createAccount();
    const created = await create(a.token, [{ name: 'Name', type: 'text' }]);
    const res = await api('PUT', `/api/templates/${created.json.id}`, {
      token: a.token,
      body: {
        fields: [
          { name: 'Name', type: 'text' },
          { name: 'Fee', type: 'payment', preferences: { amount: 5 } },
        ],
      },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toContain('"Fee": a payment field needs preferences.currency');
  });
});
