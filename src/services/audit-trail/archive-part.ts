// One archived part of an account's audit trail in R2: NDJSON, one event per line in `audit_events`'
// column names (readable without this code for the 7 years it is kept), checksummed with SHA-256.
import type { AuditArchive, AuditEvent } from '../../db/schema';
import { sha256Hex } from '../../lib/crypto';

/** Every part of one account's month lies under this prefix. */
export function archiveMonthPrefix(accountId: number, month: string): string {
  return `audit/${accountId}/${month}/`;
}

/** `audit/<account>/<YYYY-MM>/<first_id>-<last_id>.ndjson`: the same events always get the same key. */
export function archivePartKey(accountId: number, month: string, firstId: number, lastId: number): string {
  return `${archiveMonthPrefix(accountId, month)}${firstId}-${lastId}.ndjson`;
}

/** An audit event as the API shows it (GET /api/audit_events) and archived parts store it, with its account there. */
export function auditEventJson(event: AuditEvent) {
  return {
    id: event.id,
    action: event.action,
    resource_type: event.resourceType,
    resource_id: event.resourceId,
    user_id: event.userId,
    access_token_id: event.accessTokenId,
    actor: event.actor,
    method: event.method,
    path: event.path,
    status: event.status,
    ip: event.ip,
    user_agent: event.userAgent,
    request_id: event.requestId,
    created_at: event.createdAt,
    // Parts written before the column existed have no key; they read as null.
    details: event.details ?? null,
  };
}

function toLine(event: AuditEvent): string {
  return JSON.stringify({ ...auditEventJson(event), account_id: event.accountId });
}

export type EncodedPart = { body: Uint8Array; sha256: string };

export async function encodeArchivePart(events: readonly AuditEvent[]): Promise<EncodedPart> {
  const body = new TextEncoder().encode(events.map((event) => `${toLine(event)}\n`).join(''));
  return { body, sha256: await sha256Hex(body) };
}

/** A part that is missing, altered or not what its index row says: never served, always an error. */
export class ArchivePartError extends Error {
  constructor(part: Pick<AuditArchive, 'r2Key'>, problem: string) {
    super(`Archived audit events ${part.r2Key}: ${problem}`);
    this.name = 'ArchivePartError';
  }
}

type Line = Record<string, unknown>;

const text = (line: Line, name: string) => (typeof line[name] === 'string' ? (line[name] as string) : null);
const integer = (line: Line, name: string) => (Number.isSafeInteger(line[name]) ? (line[name] as number) : null);

function fromLine(part: AuditArchive, raw: string): AuditEvent {
  const line = JSON.parse(raw) as Line;
  const event: AuditEvent = {
    id: integer(line, 'id') ?? 0,
    accountId: integer(line, 'account_id') ?? 0,
    userId: integer(line, 'user_id'),
    accessTokenId: integer(line, 'access_token_id'),
    actor: text(line, 'actor'),
    action: text(line, 'action') ?? '',
    resourceType: text(line, 'resource_type'),
    resourceId: text(line, 'resource_id'),
    method: text(line, 'method') ?? '',
    path: text(line, 'path') ?? '',
    status: integer(line, 'status') ?? 0,
    ip: text(line, 'ip'),
    userAgent: text(line, 'user_agent'),
    requestId: text(line, 'request_id') ?? '',
    createdAt: text(line, 'created_at') ?? '',
    details:
      line.details && typeof line.details === 'object' && !Array.isArray(line.details) ? (line.details as Record<string, unknown>) : null,
  };
  if (event.accountId !== part.accountId || event.id < part.firstId || event.id > part.lastId) {
    throw new ArchivePartError(part, `event ${event.id} does not belong to this part`);
  }
  return event;
}

/**
 * Checks a part's object against its index row before anything of it is used (the bytes' SHA-256, then
 * the count and the account and id range of every event) and returns its events.
 */
export async function readArchivePart(part: AuditArchive, object: R2ObjectBody | null): Promise<AuditEvent[]> {
  if (!object) throw new ArchivePartError(part, 'the object is missing from R2');
  const bytes = new Uint8Array(await object.arrayBuffer());
  if ((await sha256Hex(bytes)) !== part.sha256) throw new ArchivePartError(part, 'the SHA-256 does not match the index');
  const lines = new TextDecoder()
    .decode(bytes)
    .split('\n')
    .filter((line) => line !== '');
  if (lines.length !== part.eventCount) throw new ArchivePartError(part, `holds ${lines.length} events, the index says ${part.eventCount}`);
  return lines.map((line) => fromLine(part, line));
}
