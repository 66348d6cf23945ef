// Copies third-party browser assets (Swagger UI) into public/vendor so /api/docs works offline.
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const root = join(dirname(new URL(import.meta.url).pathname), '..');

let swaggerDir;
try {
  swaggerDir = dirname(require.resolve('swagger-ui-dist/package.json'));
} catch {
  // swagger-ui-dist is a devDependency; a production-only install skips the docs assets.
  process.exit(0);
}
const target = join(root, 'public', 'vendor', 'swagger-ui');
mkdirSync(target, { recursive: true });
for (const file of ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png']) {
  const from = join(swaggerDir, file);
  if (existsSync(from)) cpSync(from, join(target, file));
}
