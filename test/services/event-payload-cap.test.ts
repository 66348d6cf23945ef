// Event payloads are bounded: a value over 4 KB is replaced by its SHA-256 and size, the whole `data` stays
// under 64 KB, and what is stored is what every delivery sends.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { capEventData, MAX_EVENT_DATA_BYTES } from '../../src/lib/event-payload-cap';
import { api, createAccount } from '../helpers';
import { eventsOf, page, signingFixture } from '../signing/fixtures';
import { outboxRows, createTemplate } from '../submission-fixtures';

const sha256 = (text: string) => createHash('sha256').update(new TextEncoder().encode(text)).digest('hex');
const jsonBytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).byteLength;

describe('event payload limits', () => {
  it('field.updated carries a value over 4 KB as its SHA-256 and byte size, and smaller values as they are', async () => {
    const f = await signingFixture({
      fields: [
        { name: 'Essay', type: 'text' },
        { name: 'Note', type: 'text' },
      ],
    });
    const essay = 'é'.repeat(3000); // 3,000 characters, 6,000 UTF-8 bytes
    const note = 'n'.repeat(4096);
    const res = await page('PUT', `/s/${f.submitters[0].slug}/values`, {
      body: { values: { [f.field('Essay')]: essay, [f.field('Note')]: note } },
    });
    expect(res.status).toBe(200);

    const updates = (await eventsOf(f.account.accountId, 'field.updated')).map((e) => e.data.field);
    expect(updates.find((u) => u.name === 'Essay').new_value).toEqual({ sha256: sha256(essay), size: 6000 });
    expect(updates.find((u) => u.name === 'Note').new_value).toBe(note);
  });

  it('replaces submission metadata too large for a payload as a whole, keeping the ids around it', async () => {
    const owner = await createAccount();
    const template = await createTemplate(owner.token, ['Buyer']);
    // 40 values of 2,000 bytes: each under the per-value limit, 80 KB together.
    const metadata = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, 'm'.repeat(2000)]));
    const created = await api('POST', '/api/submissions', {
      token: owner.token,
      body: { template_id: template.id, send_email: false, metadata, submitters: [{ role: 'Buyer', email: 'buyer@example.com' }] },
    });
    expect(created.status).toBe(201);

    const [event] = await outboxRows("event = 'submission.created' AND json_extract(data, '$.submission.id') = ?", created.json.id);
    expect(jsonBytes(event.data)).toBeLessThanOrEqual(MAX_EVENT_DATA_BYTES);
    expect(event.data.submission.metadata).toEqual({ sha256: sha256(JSON.stringify(metadata)), size: jsonBytes(metadata) });
    expect(event.data.submission).toMatchObject({ id: created.json.id, status: 'pending', template_id: template.id });
  });

  it('keeps a payload of many small members under 64 KB', () => {
    const data = { items: Array.from({ length: 200 }, (_, i) => ({ id: i, text: 't'.repeat(1000) })), id: 7 };
    const capped = capEventData(data);
    expect(jsonBytes(capped)).toBeLessThanOrEqual(MAX_EVENT_DATA_BYTES);
    expect(capped.id).toBe(7);
  });
});
