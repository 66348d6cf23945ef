// Values that cannot be stamped never reach sealing (issue 21, point 3): image values are real PNG or
// JPEG within the size limits, file values name an upload of their own submitter — through the API and
// the signing page alike.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { api } from '../helpers';
import { makePdf } from '../fixtures/pdfs';
import { page, signingFixture, submitterRow, acceptDisclosure } from '../signing/fixtures';

/** A PNG whose header states `width`×`height`; its pixel data is a token (never decoded by the checks). */
function pngBytes(width: number, height: number): Uint8Array {
  const chunk = (type: string, data: number[]) => {
    const length = [24, 16, 8, 0].map((s) => (data.length >>> s) & 0xff);
    return [...length, ...[...type].map((c) => c.charCodeAt(0)), ...data, 0, 0, 0, 0];
  };
  const be32 = (n: number) => [24, 16, 8, 0].map((s) => (n >>> s) & 0xff);
  return Uint8Array.from([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    ...chunk('IHDR', [...be32(width), ...be32(height), 8, 2, 0, 0, 0]),
    ...chunk('IDAT', [0x78, 0x9c, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]),
    ...chunk('IEND', []),
  ]);
}

function base64Of(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

const png = (width: number, height: number) => `data:image/png;base64,${base64Of(pngBytes(width, height))}`;
/** A real 2×2 PNG and a 1×1 JPEG. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGMQUGgAIgYIBQARjgLBr5IL3wAAAABJRU5ErkJggg==';
const JPEG_BASE64 =
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=';

const fields = [
  { name: 'Signature', type: 'signature', required: false },
  { name: 'Photo', type: 'image', required: false },
  { name: 'Seal', type: 'stamp', required: false },
  { name: 'Proof', type: 'file', required: false },
];

async function upload(slug: string, fieldUuid: string, bytes: Uint8Array) {
  const form = new FormData();
  form.append('field_uuid', fieldUuid);
  form.append('file', new File([bytes], 'upload.bin'));
  return api('POST', `/s/${slug}/attachments`, { body: form, headers: { Origin: 'https://api.test' } });
}

describe('image values through the API', () => {
  it('refuses data:image/png;base64,AAAA as a signature when a submission is created, naming the field', async () => {
    const f = await signingFixture({ fields });
    const res = await api('POST', '/api/submissions', {
      token: f.account.token,
      body: {
        template_id: f.templateId,
        submitters: [{ role: 'First Party', email: 'a@example.com', values: { Signature: 'data:image/png;base64,AAAA' } }],
      },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      'submitters[0]: Field "Signature" is not a readable PNG or JPEG image (its data is damaged, truncated or of another format).',
    );
  });

  it('refuses data:image/png;base64,AAAA as a signature through PUT /api/submitters/{id}', async () => {
    const f = await signingFixture({ fields });
    const res = await api('PUT', `/api/submitters/${f.submitters[0].id}`, {
      token: f.account.token,
      body: { values: { Signature: 'data:image/png;base64,AAAA' } },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/^submitter: Field "Signature" is not a readable PNG or JPEG image/);
  });

  it('refuses a completion through PUT /api/submitters/{id} whose signature is not an image, completing nothing', async () => {
    const f = await signingFixture({ fields });
    const res = await api('PUT', `/api/submitters/${f.submitters[0].id}`, {
      token: f.account.token,
      body: { values: { Signature: 'data:image/png;base64,AAAA' }, completed: true },
    });
    expect(res.status).toBe(422);
    expect((await submitterRow(f.submitters[0].id)).status).not.toBe('completed');
  });

  it('refuses a PNG wider than 4096 pixels', async () => {
    const f = await signingFixture({ fields });
    const res = await api('PUT', `/api/submitters/${f.submitters[0].id}`, {
      token: f.account.token,
      body: { values: { Photo: png(4097, 10) } },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      'submitter: Field "Photo" is 4097×10 pixels; images may be at most 4096 pixels on a side and 4,194,304 pixels in all (2048×2048).',
    );
  });

  it('refuses an image over the pixel budget even when each side is within 4096 pixels', async () => {
    const f = await signingFixture({ fields });
    const res = await api('PUT', `/api/submitters/${f.submitters[0].id}`, {
      token: f.account.token,
      body: { values: { Seal: png(2049, 2048) } },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/Field "Seal" is 2049×2048 pixels/);
  });

  it('accepts an image of exactly the pixel budget', async () => {
    const f = await signingFixture({ fields });
    const res = await api('PUT', `/api/submitters/${f.submitters[0].id}`, {
      token: f.account.token,
      body: { values: { Seal: png(2048, 2048) } },
    });
    expect(res.status).toBe(200);
  });

  it('refuses JPEG bytes in a data URL that says image/png', async () => {
    const f = await signingFixture({ fields });
    const res = await api('PUT', `/api/submitters/${f.submitters[0].id}`, {
      token: f.account.token,
      body: { values: { Photo: `data:image/png;base64,${JPEG_BASE64}` } },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('submitter: Field "Photo" is a JPEG image, but its data URL says image/png.');
  });

  it('accepts a JPEG data URL', async () => {
    const f = await signingFixture({ fields });
    const res = await api('PUT', `/api/submitters/${f.submitters[0].id}`, {
      token: f.account.token,
      body: { values: { Photo: `data:image/jpeg;base64,${JPEG_BASE64}` } },
    });
    expect(res.status).toBe(200);
  });

  it('stores a bare base64 PNG signature as an image data URL, not as typed text', async () => {
    const f = await signingFixture({ fields });
    const res = await api('PUT', `/api/submitters/${f.submitters[0].id}`, {
      token: f.account.token,
      body: { values: { Signature: PNG_BASE64 } },
    });
    expect(res.status).toBe(200);
    expect(JSON.parse((await submitterRow(f.submitters[0].id)).values)[f.field('Signature')]).toBe(`data:image/png;base64,${PNG_BASE64}`);
  });

  it('refuses a bare base64 PNG that is truncated', async () => {
    const f = await signingFixture({ fields });
    const res = await api('PUT', `/api/submitters/${f.submitters[0].id}`, {
      token: f.account.token,
      body: { values: { Photo: PNG_BASE64.slice(0, 40) } },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/Field "Photo" is not a readable PNG or JPEG image/);
  });
});

describe('image values through the signing page', () => {
  it('refuses data:image/png;base64,AAAA in an autosave (PUT /s/:slug/values), naming the field', async () => {
    const f = await signingFixture({ fields });
    const res = await page('PUT', `/s/${f.submitters[0].slug}/values`, {
      body: { values: { [f.field('Signature')]: 'data:image/png;base64,AAAA' } },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('The image for “Signature” cannot be read; use another PNG or JPEG image.');
  });

  it('refuses a submit (POST /s/:slug/submit) with an unreadable signature, completing nothing', async () => {
    const f = await signingFixture({ fields });
    await acceptDisclosure(f.submitters[0].slug);
    const res = await page('POST', `/s/${f.submitters[0].slug}/submit`, {
      body: { values: { [f.field('Signature')]: 'data:image/png;base64,AAAA' } },
    });
    expect(res.status).toBe(422);
    expect((await submitterRow(f.submitters[0].id)).status).not.toBe('completed');
  });

  it('refuses an uploaded image over the pixel budget', async () => {
    const f = await signingFixture({ fields });
    const res = await upload(f.submitters[0].slug, f.field('Photo'), pngBytes(3000, 3000));
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('The image for field "Photo" is too large; use a smaller PNG or JPEG image.');
  });
});

describe('file values', () => {
  it('refuses a file value when a submission is created: nothing can have been uploaded yet', async () => {
    const f = await signingFixture({ fields });
    const res = await api('POST', '/api/submissions', {
      token: f.account.token,
      body: {
        template_id: f.templateId,
        submitters: [{ role: 'First Party', email: 'a@example.com', values: { Proof: `attachment:${crypto.randomUUID()}` } }],
      },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(
      'submitters[0]: Field "Proof" takes a file the signer uploads on the signing page; it cannot be prefilled.',
    );
  });

  it('refuses a file value that names no upload, through PUT /api/submitters/{id}', async () => {
    const f = await signingFixture({ fields });
    const uuid = crypto.randomUUID();
    const res = await api('PUT', `/api/submitters/${f.submitters[0].id}`, {
      token: f.account.token,
      body: { values: { Proof: `attachment:${uuid}` } },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe(`submitter: Field "Proof" names attachment:${uuid}, which is not a file this submitter uploaded.`);
  });

  it('refuses a file value that is not an attachment reference', async () => {
    const f = await signingFixture({ fields });
    const res = await api('PUT', `/api/submitters/${f.submitters[0].id}`, {
      token: f.account.token,
      body: { values: { Proof: 'https://example.com/a.pdf' } },
    });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('submitter: Field "Proof" takes a file the signer uploads on the signing page (attachment:<uuid>).');
  });

  it("accepts a file value naming the submitter's own upload", async () => {
    const f = await signingFixture({ fields });
    const uploaded = await upload(f.submitters[0].slug, f.field('Proof'), await makePdf(1));
    expect(uploaded.status).toBe(201);
    const res = await page('PUT', `/s/${f.submitters[0].slug}/values`, { body: { values: { [f.field('Proof')]: uploaded.json.value } } });
    expect(res.status).toBe(200);
    expect(res.json.values[f.field('Proof')]).toBe(uploaded.json.value);
  });

  it("refuses, on the signing page, a file value naming another signer's upload", async () => {
    const f = await signingFixture({
      roles: ['First Party', 'Second Party'],
      order: 'parallel',
      fields: [...fields, { name: 'Other proof', type: 'file', role: 'Second Party', required: false }],
    });
    const theirs = await upload(f.submitters[1].slug, f.field('Other proof'), await makePdf(1));
    expect(theirs.status).toBe(201);
    expect((await env.FILES.list({ prefix: `attachments/${f.account.accountId}/` })).objects).toHaveLength(1);
    const res = await page('PUT', `/s/${f.submitters[0].slug}/values`, { body: { values: { [f.field('Proof')]: theirs.json.value } } });
    expect(res.status).toBe(422);
    // The signer's sentence (src/shared/i18n/catalogs), not the API's naming the value.
    expect(res.json.error).toBe('The file given for field "Proof" is not one you uploaded here; upload it again.');
  });
});
