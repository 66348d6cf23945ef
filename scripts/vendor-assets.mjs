// Copies third-party browser assets into public/vendor (Swagger UI for /api/docs, pdf.js for the signing
// page) and bundles the signing page's browser script, so everything is served offline by the Worker.
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const root = join(dirname(new URL(import.meta.url).pathname), '..');

function packageDir(name) {
  try {
    return dirname(require.resolve(`${name}/package.json`));
  } catch {
    return null;
  }
}

function copy(name, files, targetName) {
  const dir = packageDir(name);
  if (!dir) return false;
  const target = join(root, 'public', 'vendor', targetName);
  mkdirSync(target, { recursive: true });
  for (const [from, to] of files) if (existsSync(join(dir, from))) cpSync(join(dir, from), join(target, to));
  return true;
}

// swagger-ui-dist is a devDependency; a production-only install skips the docs assets.
copy(
  'swagger-ui-dist',
  [
    ['swagger-ui.css', 'swagger-ui.css'],
    ['swagger-ui-bundle.js', 'swagger-ui-bundle.js'],
    ['favicon-32x32.png', 'favicon-32x32.png'],
  ],
  'swagger-ui',
);
// pdf.js draws the documents on the signing page (src/signing-page/client/documents.ts) and the builder, through src/browser/pdf-pages.ts.
// A runtime dependency: without it the signing page cannot draw documents, so its absence is an error.
if (
  !copy(
    'pdfjs-dist',
    [
      ['build/pdf.min.mjs', 'pdf.min.mjs'],
      ['build/pdf.worker.min.mjs', 'pdf.worker.min.mjs'],
    ],
    'pdfjs',
  )
) {
  throw new Error('pdfjs-dist is not installed; run npm install.');
}

// The signing page's script, bundled with the value rules and formulas it shares with the server.
let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  console.warn('esbuild is not installed; the signing page script was not bundled (install devDependencies).');
  process.exit(0);
}
// The browser bundles: same settings, each its own entry. The embed scripts (<signing-form> and DocuSeal's
// <docuseal-form> at /embed/v1/form.js and /js/form.js, <template-builder> and <docuseal-builder> at
// /embed/v1/builder.js and /js/builder.js) are
// classic scripts (iife), so they can read document.currentScript to find the service they came from;
// the template builder's bundle is loaded only by the builder's pages.
const BUNDLES = [
  { entry: ['signing-page', 'client', 'main.ts'], out: ['signing', 'signing-page.js'], format: 'esm' },
  { entry: ['signing-page', 'client', 'form-embed.ts'], out: ['embed', 'form.js'], format: 'iife' },
  { entry: ['console', 'builder', 'builder-embed.ts'], out: ['embed', 'builder.js'], format: 'iife' },
  { entry: ['console', 'client', 'main.ts'], out: ['console', 'console.js'], format: 'esm' },
  { entry: ['console', 'builder', 'main.ts'], out: ['builder', 'builder.js'], format: 'esm' },
];
for (const bundle of BUNDLES) {
  await esbuild.build({
    entryPoints: [join(root, 'src', ...bundle.entry)],
    outfile: join(root, 'public', 'vendor', ...bundle.out),
    bundle: true,
    format: bundle.format,
    target: ['es2022'],
    minify: true,
    sourcemap: false,
    logLevel: 'warning',
  });
}
