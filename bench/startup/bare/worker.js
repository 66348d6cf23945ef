// The floor for bench/startup: a Hono Worker with one route and nothing else, built by the same wrangler
// with the same compatibility date and flags as the project, so the difference is what our global scope costs.
import { Hono } from 'hono';

const app = new Hono();
app.get('/', (c) => c.text('ok'));

export default app;
