// Development-only routes (404 unless ENVIRONMENT=development): tools for local work and benchmarks.
import { Hono } from 'hono';
import { mountDevEvents } from './dev-events';
import type { AppEnv } from '../../app-env';
import { getAccount } from '../../db/queries/accounts';
import { shardBindings, shardScope } from '../../db/shards';
import { findPrincipalByTokenHash } from '../../db/queries/access-tokens';
import { listOutbox } from '../../db/queries/messages';
import { serializeUser } from '../users/users.handlers';
import { serializeAccount } from '../settings/settings.handlers';
import type { SigningIdentity } from '../../services/pdf/certificate';
import type { SignerStep } from '../../services/pdf/seal';
import type { FieldStamp } from '../../services/pdf/stamp';
import { isDevelopment } from '../../lib/environment';

export function createDevRoutes() {
  const dev = new Hono<AppEnv>();
  dev.use('*', async function developmentOnly(c, next) {
    if (!isDevelopment(c.env)) return c.json({ error: `No route for ${c.req.method} ${c.req.path}.` }, 404);
    await next();
  });

  /**
   * The floor of bench/api: the same D1 read GET /api/user costs (token → user → account), with no
   * authentication, validation or audit middleware around it.
   */
  dev.get('/bench/user', async (c) => {
    const found = await findPrincipalByTokenHash(c.var.control, c.req.query('token_hash') ?? '');
    if (!found) return c.json({ error: 'No token with that hash.' }, 404);
    return c.json({ ...serializeUser(found.user), account: serializeAccount(found.account) });
  });
  /**
   * bench/seal: seals the posted PDF with `fields` text fields spread over its `pages` pages and
   * `signers` signers in the audit trail; the floor route only loads and saves the same bytes. With
   * `tsa=<url>` it seals at B-LTA through that TSA and reports the time spent waiting on the TSA and
   * OCSP responder (`network_ms`). With `level=aes` each signer stamps their share of the fields and
   * signs with a certificate issued for the seal (issue 18 › 2), before the seal.
   */
  let benchIdentity: Promise<SigningIdentity> | undefined;
  let benchAuthority: Promise<SigningIdentity> | undefined;
  dev.post('/bench/seal', async (c) => {
    // The PDF and signature engines load on first use (decisions.md › Cold start).
    const [{ generateCertificateAuthority, generateSigningIdentity }, { sealDocument }, { issueSignerCertificate }, { timestamperFor }] =
      await Promise.all([
        import('../../services/pdf/certificate'),
        import('../../services/pdf/seal'),
        import('../../services/certificates/signer-certificate'),
        import('../../services/pdf/timestamp'),
      ]);
    const original = new Uint8Array(await c.req.arrayBuffer());
    const fields = Number(c.req.query('fields') ?? 30);
    const signers = Number(c.req.query('signers') ?? 3);
    // The caller says how many pages the document has: counting them here would parse it a second time
    // inside the measured work.
    const pages = Number(c.req.query('pages') ?? 1);
    benchIdentity ??= generateSigningIdentity({ commonName: 'Bench Seal', organization: 'Bench' });
    let networkMs = 0;
    const timedFetch: typeof fetch = async (input, init) => {
      const start = performance.now();
      try {
        return await fetch(input, init);
      } finally {
        networkMs += performance.now() - start;
      }
    };
    const tsa = c.req.query('tsa');
    const stamps: FieldStamp[] = Array.from({ length: fields }, (_, i) => ({
      area: { page: (i % pages) + 1, x: 0.1, y: 0.05 + ((i * 0.03) % 0.85), w: 0.4, h: 0.03 },
      value: { kind: 'text', text: `Field ${i + 1}: Zoë Ørsted-Łukasiewicz` },
    }));
    let signerSteps: SignerStep[] | undefined;
    if (c.req.query('level') === 'aes') {
      benchAuthority ??= generateCertificateAuthority({ commonName: 'Bench Signer CA', organization: 'Bench' });
      const ca = await benchAuthority;
      signerSteps = await Promise.all(
        Array.from({ length: signers }, async (_, n) => ({
          stamps: stamps.filter((_, i) => i % signers === n),
          signer: (await issueSignerCertificate(ca, { name: `Signer ${n + 1}`, email: `signer${n + 1}@example.com` }, new Date())).signer,
          signature: { name: `Signer ${n + 1}` },
        })),
      );
    }
    const sealed = await sealDocument({
      original,
      stamps: signerSteps ? [] : stamps,
      signerSteps,
      trail: {
        serviceName: 'Bench',
        documentName: 'bench.pdf',
        templateName: 'Bench',
        submissionRef: 'bench',
        completedAt: new Date().toISOString(),
        signers: Array.from({ length: signers }, (_, i) => ({
          name: `Signer ${i + 1}`,
          email: `signer${i + 1}@example.com`,
          role: `Role ${i + 1}`,
          status: 'completed',
          ip: '203.0.113.1',
          userAgent: 'bench',
          verification: 'Email link',
          sentAt: null,
          openedAt: null,
          completedAt: new Date().toISOString(),
        })),
        events: [],
      },
      signer: await benchIdentity,
      signature: { name: 'Bench' },
      ...(tsa ? { timestamper: timestamperFor([tsa], timedFetch), fetcher: timedFetch } : {}),
    });
    return c.json({ bytes: sealed.bytes.length, sha256: sealed.sha256, network_ms: networkMs });
  });

  dev.post('/bench/pdf-roundtrip', async (c) => {
    const { PDFDocument } = await import('pdf-lib');
    const pdf = await PDFDocument.load(new Uint8Array(await c.req.arrayBuffer()), { updateMetadata: false });
    const bytes = await pdf.save({ useObjectStreams: false });
    return c.json({ bytes: bytes.length });
  });

  mountDevEvents(dev);

  /**
   * The development inbox: every email and SMS the service sent, newest first (decisions.md › Email
   * and SMS). Filters: `to`, `kind`, `account_id`; `limit` up to 200.
   */
  dev.get('/outbox', async (c) => {
    const limit = Math.min(Math.max(Number(c.req.query('limit')) || 50, 1), 200);
    const accountId = Number(c.req.query('account_id')) || undefined;
    const filter = { recipient: c.req.query('to'), kind: c.req.query('kind'), accountId };
    // A development tool may look at every shard; an account filter reads only the account's.
    const account = accountId === undefined ? undefined : await getAccount(c.var.control, accountId);
    const shards = accountId === undefined ? shardBindings(c.env).map((_, shard) => shard) : account ? [account.shard] : [];
    const rows = (await Promise.all(shards.map((shard) => listOutbox(shardScope(c.env, shard).db, filter, limit))))
      .flat()
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id)
      .slice(0, limit);
    return c.json({
      data: rows.map((m) => ({
        id: m.id,
        account_id: m.accountId,
        channel: m.channel,
        kind: m.kind,
        to: m.recipient,
        subject: m.subject,
        text: m.text,
        html: m.html,
        status: m.status,
        attempts: m.attempts,
        transport: m.transport,
        error: m.error,
        submission_id: m.submissionId,
        submitter_id: m.submitterId,
        created_at: m.createdAt,
        sent_at: m.sentAt,
      })),
    });
  });
  return dev;
}
