// The plan table: every plan limit and Pro-only feature lives here and nowhere else.

export const PLAN_NAMES = ['free', 'pro', 'enterprise'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export type PlanFeature = 'webhooks' | 'audit_events' | 'extra_access_tokens';

export const BILLING_INTERVALS = ['monthly', 'yearly'] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];

export type Plan = {
  name: PlanName;
  features: ReadonlySet<PlanFeature>;
  /** What checkout charges, in US cents per interval; null for plans that are not sold. */
  priceCents: Record<BillingInterval, number> | null;
  limits: {
    submissionsPerMonth: number;
    templates: number;
    accessTokens: number;
    teamMembers: number;
    storageBytes: number;
  };
};

const GB = 1024 ** 3;

export const PLANS: Record<PlanName, Plan> = {
  free: {
    name: 'free',
    features: new Set(),
    priceCents: null,
    limits: { submissionsPerMonth: 10, templates: 5, accessTokens: 1, teamMembers: 1, storageBytes: 1 * GB },
  },
  pro: {
    name: 'pro',
    features: new Set(['webhooks', 'audit_events', 'extra_access_tokens']),
    priceCents: { monthly: 2_000, yearly: 20_000 },
    limits: { submissionsPerMonth: 5_000, templates: 1_000, accessTokens: 50, teamMembers: 25, storageBytes: 100 * GB },
  },
  enterprise: {
    name: 'enterprise',
    features: new Set(['webhooks', 'audit_events', 'extra_access_tokens']),
    priceCents: { monthly: 10_000, yearly: 100_000 },
    limits: {
      submissionsPerMonth: Number.POSITIVE_INFINITY,
      templates: Number.POSITIVE_INFINITY,
      accessTokens: Number.POSITIVE_INFINITY,
      teamMembers: Number.POSITIVE_INFINITY,
      storageBytes: Number.POSITIVE_INFINITY,
    },
  },
};

/** `plan_id` of POST /api/subscription/checkout: the plans that can be bought (docs/decisions.md › issue 3). */
export const CHECKOUT_PLAN_IDS: Readonly<Record<number, PlanName>> = { 1: 'pro', 2: 'enterprise' };

export function planOf(name: string): Plan {
  return PLANS[name as PlanName] ?? PLANS.free;
}

const FEATURE_NAMES: Record<PlanFeature, string> = {
  webhooks: 'Webhooks',
  audit_events: 'The audit trail API',
  extra_access_tokens: 'More than one API token',
};

export function featureName(feature: PlanFeature): string {
  return FEATURE_NAMES[feature];
}
