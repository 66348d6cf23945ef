// Where an embed token is accepted (docs/embedding.md › Where a token works): its own embed routes and,
// for a builder token, the template routes the builder needs. Anywhere else under /api it is refused
// (401) before any route runs, whatever that route's scopes would have allowed.
import type { EmbedGrant } from './embed-tokens';

type Allowed = { method: 'GET' | 'PUT' | 'POST'; path: RegExp };

const ID = '[^/]+';
const path = (pattern: string) => new RegExp(`^${pattern.replaceAll('{id}', ID)}/?$`);

/** The builder's routes: the template and its documents (read), saving it and its documents (edit). */
export const BUILDER_ROUTES: readonly Allowed[] = [
  { method: 'GET', path: path('/embed/template/{id}') },
  { method: 'PUT', path: path('/embed/template/{id}') },
  { method: 'GET', path: path('/templates/{id}') },
  { method: 'PUT', path: path('/templates/{id}') },
  { method: 'GET', path: path('/templates/{id}/versions') },
  { method: 'GET', path: path('/templates/{id}/documents') },
  { method: 'PUT', path: path('/templates/{id}/documents') },
  { method: 'GET', path: path('/templates/{id}/documents/{id}') },
  { method: 'GET', path: path('/templates/{id}/download') },
];

/** The signing form's routes: the submission, saving the signer's values, and the completion refusal. */
export const FORM_ROUTES: readonly Allowed[] = [
  { method: 'GET', path: path('/embed/submission/{id}') },
  { method: 'PUT', path: path('/embed/submission/{id}/values') },
  { method: 'POST', path: path('/embed/submission/{id}/complete') },
];

/** The path below /api (or /api/v1): `/templates/tpl_…`. */
export function apiPath(pathname: string): string {
  return pathname.replace(/^\/api(\/v1)?(?=\/|$)/, '');
}

/** Whether a token with `grant` may call `method` `pathname` at all; which resource it names is the route's check (404). */
export function embedRouteAllowed(grant: Pick<EmbedGrant, 'resourceType'>, method: string, pathname: string): boolean {
  const routes = grant.resourceType === 'template' ? BUILDER_ROUTES : FORM_ROUTES;
  const asked = method === 'HEAD' ? 'GET' : method;
  const below = apiPath(pathname);
  return routes.some((route) => route.method === asked && route.path.test(below));
}

/**
 * The scopes an embed principal carries, so that every scope check downstream sees only what the token
 * grants: a builder token reads templates and, with `edit`, writes them; a form token holds no API scope
 * at all (its routes check the grant itself). Never empty: an empty list means every scope.
 */
export function embedScopes(grant: Pick<EmbedGrant, 'resourceType' | 'permissions'>): string[] {
  if (grant.resourceType === 'submission') return ['embed:submission'];
  return grant.permissions.includes('edit') ? ['templates:read', 'templates:write'] : ['templates:read'];
}
