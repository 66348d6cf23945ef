// Records every authenticated mutating request in the account's audit trail (issue: Audit trail).
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv, AuditNote } from '../../app-env';
import type { Db } from '../../db/client';
import { getAccount } from '../../db/queries/accounts';
import { accountScope, type ShardScope } from '../../db/shards';
import {
  insertAuditEvent,
  insertAuditEventStatement,
  insertAuditEventWithResourceStatement,
  type ComputedResourceId,
  type NewAuditEvent,
} from '../../db/queries/audit-events';
import { clientIp } from '../../lib/request';
import { isAccountMoving } from '../../db/errors';
import { mcpCallOf } from '../auth/mcp-calls';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Whose trail a request is written to and who acted. */
export type AuditSubject = {
  accountId: number;
  userId: number | null;
  accessTokenId: number | null;
  /** Who acted, as shown in the trail: a token's or partner key's prefix, or `stripe`. */
  actor: string;
};

export type AuditOptions = {
  /** Methods that count as mutating. */
  methods?: ReadonlySet<string>;
  /** Whose trail the request goes to; undefined records nothing. Default: the calling API token's account. */
  subject?: (c: Context<AppEnv>) => AuditSubject | undefined;
};

/** The tenant API's subject: the account, user and token that authenticated the request. */
export function principalSubject(c: Context<AppEnv>): AuditSubject | undefined {
  const principal = c.get('principal');
  if (!principal) return undefined;
  return {
    accountId: principal.account.id,
    userId: principal.user.id,
    accessTokenId: principal.credential.accessTokenId,
    actor: principal.credential.actor,
  };
}

/** The audit row for this request as it ends with `status`. */
export function auditRow(
  c: Context<AppEnv>,
  subject: AuditSubject,
  status: number,
  note: AuditNote | undefined = c.get('audit'),
): NewAuditEvent {
  return {
    ...subject,
    action: note?.action ?? `${c.req.method.toLowerCase()} ${c.req.path}`,
    resourceType: note?.resourceType ?? null,
    resourceId: note?.resourceId === undefined ? null : String(note.resourceId),
    method: c.req.method,
    path: c.req.path,
    status,
    ip: clientIp(c.req.raw),
    userAgent: c.req.header('User-Agent')?.slice(0, 512) ?? null,
    requestId: c.var.requestId,
  };
}

/**
 * For a handler that writes its change in one `db.batch`: the tenant audit row (`note`, answered with
 * `status`) as a statement for that batch, so the change and its record commit together and the
 * request saves a round trip. After the batch succeeds, set `c.set('audit', note)` and
 * `c.set('auditRecorded', status)`, so the middleware does not write the row again; if the request
 * ends any other way (the batch failed), the middleware records it as usual.
 */
export function auditStatementFor(c: Context<AppEnv>, db: Db, status: number, note: AuditNote) {
  const subject = principalSubject(c);
  if (!subject) throw new Error('auditStatementFor needs an authenticated tenant request');
  return insertAuditEventStatement(db, auditRow(c, subject, status, note));
}

/**
 * auditStatementFor for a create whose rows' ids only its batch assigns: `resourceId` is SQL evaluated in
 * that batch, after the inserts (for example the new rows' ids, comma-separated). After the batch, set
 * the note with the ids and `auditRecorded` as auditStatementFor says.
 */
export function auditStatementWithResource(
  c: Context<AppEnv>,
  db: Db,
  status: number,
  note: Omit<AuditNote, 'resourceId'>,
  resourceId: ComputedResourceId,
) {
  const subject = principalSubject(c);
  if (!subject) throw new Error('auditStatementWithResource needs an authenticated tenant request');
  return insertAuditEventWithResourceStatement(db, auditRow(c, subject, status, note), resourceId);
}

/**
 * The trail lives with the account's other rows, on its shard: the request's own shard when it acts for
 * the calling account, else (the partner plane) the shard the control database names; none for an
 * account that does not exist.
 */
async function trailScope(c: Context<AppEnv>, accountId: number): Promise<ShardScope | undefined> {
  if (c.var.principal?.account.id === accountId) return c.var.scope;
  const account = await getAccount(c.var.control, accountId);
  return account && accountScope(c.env, account);
}

/**
 * The request's own change committed but its trail row could not be written: the answer stands (failing
 * it now would make the client repeat a change that committed), and the row goes to the messages queue,
 * whose consumer writes it once (src/queues/messages.ts), stamped with the time the request ended. Only
 * if the queue refuses it too is the row left in the log.
 */
async function deferAuditRow(c: Context<AppEnv>, scope: ShardScope, row: NewAuditEvent, err: unknown): Promise<void> {
  console.error(`[${c.var.requestId}] audit row not written, queued:`, err);
  try {
    await scope.queues.messages.send({ type: 'audit_event', row: { ...row, createdAt: new Date().toISOString() } });
  } catch (sendErr) {
    console.error(`[${c.var.requestId}] audit row not recorded:`, sendErr, JSON.stringify(row));
  }
}

export function auditTrail(options: AuditOptions = {}): MiddlewareHandler<AppEnv> {
  const methods = options.methods ?? MUTATING;
  const subjectOf = options.subject ?? principalSubject;
  return async function auditTrailMiddleware(c, next) {
    await next();
    // Every MCP tool call is recorded, reads included (issue 32 › 1).
    if (!methods.has(c.req.method) && !mcpCallOf(c.req.raw)) return;
    // Written in the handler's own batch already (auditStatementFor), with the status it answered.
    if (c.get('auditRecorded') === c.res.status) return;
    const subject = subjectOf(c);
    if (!subject) return;
    // Refused attempts are recorded too (status ≥ 400): they matter as much as the changes.
    const scope = await trailScope(c, subject.accountId);
    if (!scope) return;
    const row = auditRow(c, subject, c.res.status);
    try {
      await insertAuditEvent(scope.db, row);
    } catch (err) {
      // The account started moving to another shard after the request's own write (docs/decisions.md ›
      // Scale (issue 14): moving an account): the queued row would land on the shard it is leaving, so
      // it goes to the log instead of the fenced shard.
      if (isAccountMoving(err)) {
        console.error(`[${c.var.requestId}] audit row not recorded, account ${subject.accountId} is moving:`, JSON.stringify(row));
        return;
      }
      await deferAuditRow(c, scope, row, err);
    }
  };
}
