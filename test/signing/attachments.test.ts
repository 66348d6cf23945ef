// POST /s/:slug/attachments: image and file uploads, type- and size-checked; files stored in R2.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { api } from '../helpers';
import { makePdf } from '../fixtures/pdfs';
import { signingFixture } from './fixtures';

const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='), (c) =>
  c.charCodeAt(0),
);

async function upload(slug: string, fieldUuid: string, bytes: Uint8Array, name = 'upload.bin') {
  const form = new FormData();
  form.append('field_uuid', fieldUuid);
  form.append('file', new File([bytes], name));
  return api('POST', `/s/${slug}/attachments`, { body: form, headers: { Origin: 'https://api.test' } });
}

describe('POST /s/:slug/attachments', () => {
  const fields = [
    { name: 'Photo', type: 'image' },
    { name: 'Proof', type: 'file' },
    { name: 'Name', type: 'text' },
  ];

  it("returns an image as the field's data URL value without keeping a copy in R2", async () => {
    const f = await signingFixture({ fields });
    const res = await upload(f.submitters[0].slug, f.field('Photo'), PNG, 'photo.png');
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ content_type: 'image/png', byte_size: PNG.length });
    expect(res.json.value).toMatch(/^data:image\/png;base64,/);
    // The value carries the picture; a stored copy would be read by nothing and only hold storage.
    const listed = await env.FILES.list({ prefix: `attachments/${f.account.accountId}/` });
    expect(listed.objects).toHaveLength(0);
  });

  it('stores a PDF for a file field and returns an attachment reference', async () => {
    const f = await signingFixture({ fields });
    const res = await upload(f.submitters[0].slug, f.field('Proof'), await makePdf(1), 'proof.pdf');
    expect(res.status).toBe(201);
    expect(res.json.value).toBe(`attachment:${res.json.attachment_uuid}`);
  });

  it('refuses a file whose bytes are not an accepted type, whatever its name', async () => {
    const f = await signingFixture({ fields });
    const res = await upload(f.submitters[0].slug, f.field('Photo'), new TextEncoder().encode('<svg></svg>'), 'photo.png');
    expect(res.status).toBe(415);
    expect(res.json.error).toBe('“Photo” takes a PNG or JPEG image.');
  });

  it('refuses an image over the 512 KB limit', async () => {
    const f = await signingFixture({ fields });
    const big = new Uint8Array(600 * 1024);
    big.set(PNG);
    const res = await upload(f.submitters[0].slug, f.field('Photo'), big);
    expect(res.status).toBe(413);
  });

  it('refuses a field that takes no upload', async () => {
    const f = await signingFixture({ fields });
    const res = await upload(f.submitters[0].slug, f.field('Name'), PNG);
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('Field "Name" does not take an uploaded file.');
  });

  it('answers 400 without a file part', async () => {
    const f = await signingFixture({ fields });
    const form = new FormData();
    form.append('field_uuid', f.field('Photo'));
    const res = await api('POST', `/s/${f.submitters[0].slug}/attachments`, { body: form, headers: { Origin: 'https://api.test' } });
    expect(res.status).toBe(400);
  });
});
