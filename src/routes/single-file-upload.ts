// Reads a body carrying one file plus a few text fields, as JSON (`{"file": "<base64 or data URL>", …}`)
// or multipart/form-data (a `file` part and text parts). Used by the certificate upload and the
// verification tool; template uploads, with their many documents, have their own reader.
import { z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../app-env';
import { ApiError, unprocessable } from '../lib/errors';
import { readBodyCapped } from '../lib/request';
import { decodeUtf8, parseJsonText } from '../lib/json-text';

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;
const MULTIPART_TYPE = /^multipart\/form-data$/i;
const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+)?(?:;[\w-]+=[^;,]*)*;base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export type SingleFileUpload = { file: Uint8Array; fields: Record<string, unknown> };

/**
 * The request body of a route taking `file` plus text fields, declared by reference: the handler reads
 * it (size cap first), so no validator parses it before the cap. Register the components with
 * `registerSingleFileBodies`.
 */
export function singleFileBody(component: string) {
  return {
    required: true,
    content: {
      'application/json': { schema: { $ref: `#/components/schemas/${component}Json` } },
      'multipart/form-data': { schema: { $ref: `#/components/schemas/${component}Multipart` } },
    },
  };
}

export function registerSingleFileBodies(
  app: OpenAPIHono<AppEnv>,
  component: string,
  fileDescription: string,
  fields: Record<string, z.ZodType> = {},
) {
  app.openAPIRegistry.register(
    `${component}Json`,
    z.object({ file: z.string().openapi({ description: `${fileDescription}: base64 or a data URL` }), ...fields }),
  );
  app.openAPIRegistry.register(
    `${component}Multipart`,
    z.object({ file: z.string().openapi({ format: 'binary', description: fileDescription }), ...fields }),
  );
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError(413, `The request body is larger than ${(maxBytes / 1024 / 1024).toFixed(0)} MB.`);
}

function decodeBase64File(value: string): Uint8Array {
  const dataUrl = DATA_URL.exec(value);
  const encoded = (dataUrl ? value.slice(dataUrl[0].length) : value).replace(/\s+/g, '');
  if (encoded.length === 0 || encoded.length % 4 === 1 || !BASE64.test(encoded)) {
    throw unprocessable('file must be base64-encoded file content or a data URL.');
  }
  const binary = atob(encoded);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export async function readSingleFileUpload(c: Context<AppEnv>, maxBytes: number): Promise<SingleFileUpload> {
  const type = (c.req.header('Content-Type') ?? '').split(';')[0].trim();
  const isJson = JSON_TYPE.test(type);
  if (!isJson && !MULTIPART_TYPE.test(type)) {
    throw new ApiError(400, `Send the body as application/json or multipart/form-data${type ? ` (got ${type})` : ''}.`);
  }
  if (Number(c.req.header('Content-Length') ?? NaN) > maxBytes) throw tooLarge(maxBytes);
  const bytes = c.req.raw.bodyUsed
    ? new Uint8Array(await c.req.arrayBuffer())
    : await readBodyCapped(c.req.raw, maxBytes, () => tooLarge(maxBytes));
  if (bytes.byteLength > maxBytes) throw tooLarge(maxBytes);

  let fields: Record<string, unknown>;
  if (isJson) {
    const value = parseJsonText(decodeUtf8(bytes));
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new ApiError(400, 'The request body must be a JSON object.');
    fields = value as Record<string, unknown>;
  } else {
    let form: FormData;
    try {
      form = await new Response(bytes, { headers: { 'Content-Type': c.req.header('Content-Type')! } }).formData();
    } catch {
      throw new ApiError(400, 'The multipart/form-data body could not be read; check its boundary and parts.');
    }
    fields = {};
    for (const [key, value] of form.entries()) fields[key] = value;
  }

  const { file, ...rest } = fields;
  if (file === undefined || file === null || file === '') throw new ApiError(400, 'file is required.');
  if (file instanceof File) return { file: new Uint8Array(await file.arrayBuffer()), fields: rest };
  if (typeof file !== 'string') throw new ApiError(400, 'file must be a file part or a base64 string.');
  return { file: decodeBase64File(file), fields: rest };
}
