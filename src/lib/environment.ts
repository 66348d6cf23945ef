// Which environment a Worker runs in (decisions.md › Production safety): production unless a local run
// opts out. `wrangler.toml` ships `production`; `npm run dev` (.dev.vars), tests and benchmarks set
// `development` or `test`. Anything else — missing, misspelt, another case — is production, so a
// forgotten or mistyped variable can never expose the development routes.
export type Environment = 'development' | 'test' | 'production';

export function environmentOf(env: { ENVIRONMENT?: string }): Environment {
  const value = env.ENVIRONMENT;
  return value === 'development' || value === 'test' ? value : 'production';
}

/** `/dev/*` routes, error `detail`s and the benchmark switches: development only. */
export function isDevelopment(env: { ENVIRONMENT?: string }): boolean {
  return environmentOf(env) === 'development';
}

/** Production rules (https-only webhooks, real email transport, no allow-listed hosts). */
export function isProduction(env: { ENVIRONMENT?: string }): boolean {
  return environmentOf(env) === 'production';
}
