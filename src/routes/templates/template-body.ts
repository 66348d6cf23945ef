// Reads template upload bodies: JSON (base64 or data-URL files, as DocuSeal clients send them, chunked
// or not) and multipart/form-data (file parts, Rails-style `documents[0][file]` keys, JSON-valued parts).
import type { Context } from 'hono';
import type { AppEnv } from '../../app-env';
import { ApiError, unprocessable } from '../../lib/errors';
import { readBodyCapped } from '../../lib/request';
import { decodeUtf8, parseJsonText } from '../../lib/json-text';
import { UPLOAD_LIMITS, type Upload } from '../../services/documents/ingest';

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;
const MULTIPART_TYPE = /^multipart\/form-data$/i;
const MB = 1024 * 1024;

function tooLarge(): ApiError {
  return new ApiError(
    413,
    `The request body is larger than ${UPLOAD_LIMITS.requestBytes / MB} MB; send fewer documents per request and add the rest with PUT /api/templates/{id}/documents.`,
  );
}

/** Runs the runtime's multipart parser; a malformed body is the client's 400, not a 500. */
async function parseForm(read: () => Promise<FormData>): Promise<Tree> {
  let form: FormData;
  try {
    form = await read();
  } catch {
    throw new ApiError(400, 'The multipart/form-data body could not be read; check its boundary and parts.');
  }
  return formToTree(form);
}

type Tree = Record<string, unknown>;

/** Keys whose multipart text is JSON when it looks like JSON. */
const JSON_KEYS = new Set(['submitters', 'fields', 'preferences', 'documents', 'roles', 'template_ids']);
const NUMBER_KEYS = new Set(['page', 'x', 'y', 'w', 'h', 'position', 'brand_id']);
const BOOLEAN_KEYS = new Set([
  'required',
  'readonly',
  'shared',
  'remove',
  'replace',
  'show_branding',
  'require_email_2fa',
  'require_phone_2fa',
  'review_in_carousel',
]);

/** `documents[0][file]` → ["documents", "0", "file"]; `files[]` → ["files", ""]. */
function keyPath(key: string): string[] {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match) return [key];
  return [match[1], ...[...match[2].matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1])];
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function assign(tree: Tree, path: string[], value: unknown): void {
  let node: Tree | unknown[] = tree;
  for (let i = 0; i < path.length; i += 1) {
    const part = path[i];
    if (FORBIDDEN_KEYS.has(part)) throw new ApiError(400, `The form key ${path.join('.')} is not allowed.`);
    // A key like documents[0][file] after a plain documents=… part: the two cannot both hold.
    if (node === null || typeof node !== 'object' || node instanceof File) {
      throw new ApiError(400, `The form keys for ${path[0]} conflict: one gives a value where another expects a list or object.`);
    }
    const last = i === path.length - 1;
    const nextIsIndex = !last && (path[i + 1] === '' || /^\d+$/.test(path[i + 1]));
    if (Array.isArray(node)) {
      // `[]` appends, except that `a[][x]` then `a[][y]` fill the same element (Rails' rule).
      let index = part === '' ? node.length : Number(part);
      if (part === '' && !last) {
        const tail = node[node.length - 1] as Tree | undefined;
        if (tail && typeof tail === 'object' && !(path[i + 1] in tail)) index = node.length - 1;
      }
      if (index > 1000) throw unprocessable(`The form key for ${path[0]} uses an index above 1000.`);
      if (last) node[index] = value;
      else node = (node[index] ??= nextIsIndex ? [] : {}) as Tree | unknown[];
    } else {
      if (last) node[part] = value;
      else node = (node[part] ??= nextIsIndex ? [] : {}) as Tree | unknown[];
    }
  }
}

function coerceScalars(value: unknown, key?: string): unknown {
  if (Array.isArray(value)) return value.map((v) => coerceScalars(v));
  if (value && typeof value === 'object' && !(value instanceof File)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, coerceScalars(v, k)]));
  }
  if (typeof value !== 'string' || key === undefined) return value;
  if (NUMBER_KEYS.has(key) && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  if (BOOLEAN_KEYS.has(key) && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

function formToTree(form: FormData): Tree {
  const tree: Tree = {};
  const looseFiles: File[] = [];
  for (const [key, value] of form.entries()) {
    if ((key === 'file' || key === 'files' || key === 'file[]' || key === 'files[]') && value instanceof File) {
      looseFiles.push(value);
      continue;
    }
    const path = keyPath(key);
    let parsed: unknown = value;
    if (typeof value === 'string' && path.length === 1 && JSON_KEYS.has(path[0]) && /^\s*[[{]/.test(value)) {
      parsed = parseJsonText(value, `The ${path[0]} part`);
    } else if (typeof value === 'string' && path[path.length - 1] === 'fields' && /^\s*\[/.test(value)) {
      parsed = parseJsonText(value, `The ${key} part`);
    }
    assign(tree, path, parsed);
  }
  if (looseFiles.length) {
    const documents = Array.isArray(tree.documents) ? tree.documents : [];
    tree.documents = [...documents, ...looseFiles.map((file) => ({ file }))];
  }
  return coerceScalars(tree) as Tree;
}

/** The body as a plain object, files as `File`s (multipart) or strings (JSON). */
export async function readTemplateBody(c: Context<AppEnv>): Promise<Tree> {
  const type = (c.req.header('Content-Type') ?? '').split(';')[0].trim();
  const isJson = JSON_TYPE.test(type);
  if (!isJson && !MULTIPART_TYPE.test(type)) {
    throw new ApiError(400, `Send the body as application/json or multipart/form-data${type ? ` (got ${type})` : ''}.`);
  }
  const declared = Number(c.req.header('Content-Length') ?? NaN);
  if (declared > UPLOAD_LIMITS.requestBytes) throw tooLarge();
  if (!isJson && Number.isFinite(declared) && !c.req.raw.bodyUsed) {
    // A declared length bounds the body (HTTP framing), so the runtime parses the stream itself,
    // without the counted read and its copy.
    return parseForm(() => c.req.raw.formData());
  }
  // An earlier middleware (idempotency) may have read the body through Hono's cache; reuse it then.
  const bytes = c.req.raw.bodyUsed
    ? new Uint8Array(await c.req.arrayBuffer())
    : await readBodyCapped(c.req.raw, UPLOAD_LIMITS.requestBytes, tooLarge);
  if (bytes.byteLength > UPLOAD_LIMITS.requestBytes) throw tooLarge();
  if (isJson) {
    const value = parseJsonText(decodeUtf8(bytes));
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new ApiError(400, 'The request body must be a JSON object.');
    return value as Tree;
  }
  return parseForm(() => new Response(bytes, { headers: { 'Content-Type': c.req.header('Content-Type')! } }).formData());
}

const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+)?(?:;[\w-]+=[^;,]*)*;base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

type Base64Decoder = { fromBase64?: (text: string) => Uint8Array };

function decodeBase64(encoded: string): Uint8Array {
  // Uint8Array.fromBase64 (TC39 proposal, in recent V8) avoids a 20 MB binary string; atob is the fallback.
  const native = (Uint8Array as unknown as Base64Decoder).fromBase64;
  if (native) return native(encoded);
  const binary = atob(encoded);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * A file value as bytes: a multipart part, a data URL or bare base64. The size is checked from the
 * encoded length before decoding, so an oversized file is refused without being decoded.
 */
export async function fileBytes(
  label: string,
  display: string,
  value: string | File,
): Promise<{ bytes: Uint8Array; filename?: string; contentType?: string }> {
  const limit = UPLOAD_LIMITS.fileBytes;
  const over = (size: number) => unprocessable(`${display} is ${(size / MB).toFixed(1)} MB; files can be at most ${limit / MB} MB.`);
  if (value instanceof File) {
    if (value.size > limit) throw over(value.size);
    return { bytes: new Uint8Array(await value.arrayBuffer()), filename: value.name || undefined, contentType: value.type || undefined };
  }
  if (/^https?:\/\//i.test(value.trim())) {
    throw unprocessable(`${label}.file is a URL; files are not fetched from URLs, so send the file itself as base64 or a data URL.`);
  }
  const dataUrl = DATA_URL.exec(value);
  const encoded = (dataUrl ? value.slice(dataUrl[0].length) : value).replace(/\s+/g, '');
  const size = Math.floor((encoded.length * 3) / 4) - (encoded.endsWith('==') ? 2 : encoded.endsWith('=') ? 1 : 0);
  if (size > limit) throw over(size);
  if (encoded.length === 0 || encoded.length % 4 === 1 || !BASE64.test(encoded)) {
    throw unprocessable(`${label}.file must be base64-encoded file content or a data URL (data:application/pdf;base64,…).`);
  }
  return { bytes: decodeBase64(encoded), contentType: dataUrl?.[1] };
}

/** Turns a validated document entry into an Upload with a name for messages and storage. */
export async function toUpload(label: string, entry: { name?: string; file: string | File }, index: number): Promise<Upload> {
  const display = entry.name ? `${label} "${entry.name}"` : label;
  const { bytes, filename, contentType } = await fileBytes(label, display, entry.file);
  const name = entry.name?.trim() || filename?.replace(/\.pdf$/i, '') || `Document ${index + 1}`;
  return { label: display, name, bytes, contentType };
}
