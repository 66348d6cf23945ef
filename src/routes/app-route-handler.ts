// The one handler type every route file uses: a zod-openapi handler bound to this Worker's env.
import type { RouteConfig, RouteHandler } from '@hono/zod-openapi';
import type { AppEnv } from '../app-env';

export type AppRouteHandler<R extends RouteConfig> = RouteHandler<R, AppEnv>;
