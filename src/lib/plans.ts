// The plan table: every plan limit and Pro-only feature lives here and nowhere else.

export const PLAN_NAMES = ['free', 'pro', 'enterprise'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export type PlanFeature = 'webhooks' | 'audit_events' | 'extra_access_tokens';

export type Plan = {
  name: PlanName;
  features: ReadonlySet<PlanFeature>;
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
    limits: { submissionsPerMonth: 10, templates: 5, accessTokens: 1, teamMembers: 1, storageBytes: 1 * GB },
  },
  pro: {
    name: 'pro',
    features: new Set(['webhooks', 'audit_events', 'extra_access_tokens']),
    limits: { submissionsPerMonth: 5_000, templates: 1_000, accessTokens: 50, teamMembers: 25, storageBytes: 100 * GB },
  },
  enterprise: {
    name: 'enterprise',
    features: new Set(['webhooks', 'audit_events', 'extra_access_tokens']),
    limits: {
      submissionsPerMonth: Number.POSITIVE_INFINITY,
      templates: Number.POSITIVE_INFINITY,
      accessTokens: Number.POSITIVE_INFINITY,
      teamMembers: Number.POSITIVE_INFINITY,
      storageBytes: Number.POSITIVE_INFINITY,
    },
  },
};

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
