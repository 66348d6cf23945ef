// The Worker entry: HTTP through the Hono app.
import { createApp } from './app';
import type { Bindings } from './env';

const app = createApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Bindings>;
