// Handlers for signature levels and signature usage.
import type { AppRouteHandler } from '../app-route-handler';
import type { SignatureUsage } from '../../db/schema';
import { listSignatureUsage as listUsageRows, signatureUsageTotals } from '../../db/queries/signature-usage';
import { paginateByCursor } from '../../lib/pagination';
import { saveSignatureLevel, signatureLevelSettingsOf } from '../../services/signature-levels/account-signature-level';
import { centsToDollars, LEVEL_CATALOG, SIGNATURE_LEVELS } from '../../services/signature-levels/levels';
import type * as routes from './signature-levels.routes';

const availableLevels = LEVEL_CATALOG.map((l) => ({
  key: l.key,
  name: l.name,
  description: l.description,
  cost_per_signature: centsToDollars(l.costCents),
}));

export const getSignatureLevel: AppRouteHandler<typeof routes.getSignatureLevel> = (c) =>
  c.json({ ...signatureLevelSettingsOf(c.var.principal.account), available_levels: availableLevels }, 200);

export const updateSignatureLevel: AppRouteHandler<typeof routes.updateSignatureLevel> = async (c) => {
  const account = await saveSignatureLevel(c.env, c.var.control, c.var.principal.account, c.req.valid('json'));
  c.set('audit', { action: 'signature_level.update', resourceType: 'account', resourceId: account.id });
  const settings = signatureLevelSettingsOf(account);
  return c.json({ success: true as const, level: settings.level, provider: settings.provider }, 200);
};

function serializeUsage(row: SignatureUsage) {
  return {
    id: row.id,
    submission_id: row.submissionId,
    submitter_id: row.submitterId,
    level: row.level,
    cost: centsToDollars(row.costCents),
    currency: 'USD' as const,
    signed_at: row.signedAt,
  };
}

export const listSignatureUsage: AppRouteHandler<typeof routes.listSignatureUsage> = async (c) => {
  const query = c.req.valid('query');
  const accountId = c.var.principal.account.id;
  const [page, totals] = await Promise.all([
    paginateByCursor(query, (window) => listUsageRows(c.var.scope.db, accountId, query.month, window)),
    signatureUsageTotals(c.var.scope.db, accountId, query.month),
  ]);
  const byLevel = Object.fromEntries(
    SIGNATURE_LEVELS.map((level) => {
      const total = totals.find((t) => t.level === level);
      return [level, { count: total?.count ?? 0, cost: centsToDollars(total?.costCents ?? 0) }];
    }),
  ) as Record<(typeof SIGNATURE_LEVELS)[number], { count: number; cost: number }>;
  const count = totals.reduce((sum, t) => sum + t.count, 0);
  const cost = centsToDollars(totals.reduce((sum, t) => sum + t.costCents, 0));
  return c.json(
    {
      data: page.data.map(serializeUsage),
      pagination: page.pagination,
      totals: { count, cost, currency: 'USD' as const, by_level: byLevel },
    },
    200,
  );
};
