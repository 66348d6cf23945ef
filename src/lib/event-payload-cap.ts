// Bounds what one event stores and sends (docs/webhooks.md › Large values). A signer's drawn signature or
// a pasted text can be megabytes; repeated in every field.updated, every delivery row and every retry it
// would grow D1 without bound and flood receivers. A value too large is replaced by its digest and size,
// which still tells a receiver whether it changed and lets it match the value it reads through the API.
import { createHash } from 'node:crypto';

/** A string longer than this many UTF-8 bytes is replaced by its digest. */
export const MAX_EVENT_VALUE_BYTES = 4096;
/** The whole `data` object, as JSON, is kept under this many bytes. */
export const MAX_EVENT_DATA_BYTES = 64 * 1024;

/** What a replaced value becomes: SHA-256 (hex) of its UTF-8 bytes (a string) or of its JSON text, and that byte count. */
export type OmittedValue = { sha256: string; size: number };

const encoder = new TextEncoder();
/** The JSON size of a replacement with a six-digit size, the most it replaces in practice. */
const OMITTED_BYTES = JSON.stringify({ sha256: '0'.repeat(64), size: 999_999 }).length;

function omitted(text: string): OmittedValue {
  const bytes = encoder.encode(text);
  return { sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.byteLength };
}

/** UTF-8 byte length; a UTF-16 unit is 1–3 bytes, so most strings are judged without encoding them. */
function utf8Bytes(text: string): number {
  return encoder.encode(text).byteLength;
}

function overLimit(text: string, limit: number): boolean {
  if (text.length > limit) return true;
  if (text.length * 3 <= limit) return false;
  return utf8Bytes(text) > limit;
}

function jsonBytes(value: unknown): number {
  return utf8Bytes(JSON.stringify(value) ?? '');
}

type Container = Record<string, unknown> | unknown[];

function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null;
}

function isOmitted(value: unknown): boolean {
  return (
    isContainer(value) &&
    !Array.isArray(value) &&
    Object.keys(value).length === 2 &&
    typeof value.sha256 === 'string' &&
    typeof value.size === 'number'
  );
}

/** Copies the value with every string over the per-value limit replaced. */
function capStrings(value: unknown): unknown {
  if (typeof value === 'string') return overLimit(value, MAX_EVENT_VALUE_BYTES) ? omitted(value) : value;
  if (Array.isArray(value)) return value.map(capStrings);
  if (isContainer(value)) return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, capStrings(v)]));
  return value;
}

type Child = { key: string | number; value: unknown; bytes: number };

/** A container's members not yet replaced, largest first. */
function childrenOf(container: Container): Child[] {
  const entries: [string | number, unknown][] = Array.isArray(container) ? container.map((v, i) => [i, v]) : Object.entries(container);
  return entries
    .filter(([, value]) => !isOmitted(value))
    .map(([key, value]) => ({ key, value, bytes: jsonBytes(value) }))
    .sort((a, b) => b.bytes - a.bytes);
}

function replaceChild(container: Container, child: Child): number {
  const replacement = omitted(typeof child.value === 'string' ? child.value : (JSON.stringify(child.value) ?? 'null'));
  (container as Record<string | number, unknown>)[child.key] = replacement;
  return child.bytes - jsonBytes(replacement);
}

/**
 * Still over the total limit (many values, each under the per-value one): replaces whole subtrees. From
 * the top it follows the largest child while that child is itself an object or array over the per-value
 * limit, and replaces the one it stops in — the object made of many small parts, such as a big
 * `metadata` — so ids and the payload's outline stay. When that is the top level itself, its largest
 * members are replaced one by one until it fits. False when only members smaller than a digest are left.
 */
function shrinkToFit(data: Record<string, unknown>): boolean {
  for (let total = jsonBytes(data); total > MAX_EVENT_DATA_BYTES; total = jsonBytes(data)) {
    const path: { container: Container; child: Child }[] = [];
    let current: Container = data;
    let children = childrenOf(current);
    while (children.length > 0 && isContainer(children[0].value) && children[0].bytes > MAX_EVENT_VALUE_BYTES) {
      path.push({ container: current, child: children[0] });
      current = children[0].value as Container;
      children = childrenOf(current);
    }
    const last = path.at(-1);
    if (last) {
      replaceChild(last.container, last.child);
      continue;
    }
    let excess = total - MAX_EVENT_DATA_BYTES;
    for (const child of children) {
      // A member no larger than its digest would only grow.
      if (excess <= 0 || child.bytes <= OMITTED_BYTES) break;
      excess -= replaceChild(current, child);
    }
    // Only members smaller than a digest are left: replacing more would not shrink it.
    if (excess > 0) return false;
  }
  return true;
}

/** The event's `data` as it is stored and sent: large values replaced, the whole under its limit. */
export function capEventData(data: Record<string, unknown>): Record<string, unknown> {
  const capped = capStrings(data) as Record<string, unknown>;
  if (!overLimit(JSON.stringify(capped), MAX_EVENT_DATA_BYTES) || shrinkToFit(capped)) return capped;
  // Thousands of tiny members at the top (no builder makes such a payload): the whole is replaced.
  return omitted(JSON.stringify(data));
}
