// Builds the Worker into dist/worker as ES modules split at every dynamic `import()` (esbuild `splitting`),
// so a new isolate compiles only the modules its entry reaches statically; the PDF, DOCX, font, certificate
// and browser engines are chunks compiled on first use (decisions.md › Cold start: the measured reason).
// wrangler.toml runs it as its custom build before `wrangler dev`, `wrangler deploy` and `wrangler check
// startup`, and uploads the output as it is (`no_bundle`, module rules). The options are wrangler's own
// bundler's (target, conditions, loaders, names kept, NODE_ENV), so the code runs as it did in one file.
//
//   node scripts/build-worker.mjs [--outdir dist/worker]
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import path from 'node:path';
import * as esbuild from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const argv = process.argv.slice(2);
const outdir = path.resolve(root, argv.includes('--outdir') ? argv[argv.indexOf('--outdir') + 1] : 'dist/worker');
const require = createRequire(path.join(root, 'package.json'));

const nodeBuiltin = new RegExp(`^(?:node:)?(?:${builtinModules.filter((m) => !m.startsWith('_')).join('|')})(?:/.*)?$`);

/**
 * Node built-ins stay imports of workerd's own (`nodejs_compat`). A CommonJS `require()` of one becomes a
 * small ES module that imports it, as wrangler's bundler does, since an ES module has no `require`.
 */
const nodeBuiltins = {
  name: 'node-builtins',
  setup(build) {
    build.onResolve({ filter: nodeBuiltin }, (args) => {
      const specifier = args.path.startsWith('node:') ? args.path : `node:${args.path}`;
      if (args.kind === 'require-call') return { path: specifier, namespace: 'node-require' };
      return { path: specifier, external: true };
    });
    build.onLoad({ filter: /.*/, namespace: 'node-require' }, (args) => ({
      contents: `import lib from ${JSON.stringify(args.path)};\nmodule.exports = lib;`,
      loader: 'js',
    }));
  },
};

/** Fonts stay binary Data modules beside the entry (wrangler.toml's `Data` rule), copied, not inlined. */
const dataFiles = new Map();
const dataModules = {
  name: 'data-modules',
  setup(build) {
    build.onResolve({ filter: /\.ttf$/ }, (args) => {
      const file = require.resolve(args.path, { paths: [args.resolveDir] });
      dataFiles.set(path.basename(file), file);
      return { path: `./${path.basename(file)}`, external: true };
    });
  },
};

const nodeEnv = JSON.stringify(process.env.NODE_ENV || 'production');
const result = await esbuild.build({
  absWorkingDir: root,
  entryPoints: { index: 'src/index.ts' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  // One flat directory, so an external import (the fonts) resolves the same from every chunk; the prefix is
  // what wrangler.toml's ESModule rule matches.
  chunkNames: 'service-chunk-[hash]',
  // ES modules by wrangler's default rules (a `.js` file without a rule would be taken for CommonJS).
  outExtension: { '.js': '.mjs' },
  target: 'es2024',
  supported: { 'import-source': true, using: true },
  conditions: ['workerd', 'worker', 'browser'],
  loader: { '.js': 'jsx', '.mjs': 'jsx', '.cjs': 'jsx' },
  keepNames: true,
  sourcemap: 'linked',
  define: {
    'process.env.NODE_ENV': nodeEnv,
    'global.process.env.NODE_ENV': nodeEnv,
    'globalThis.process.env.NODE_ENV': nodeEnv,
  },
  // workerd's own modules (cloudflare:workers, cloudflare:sockets …).
  external: ['cloudflare:*'],
  plugins: [nodeBuiltins, dataModules],
  logLevel: 'warning',
  write: false,
});

/**
 * Several `wrangler dev`s may build at once (the e2e files' servers): a file is replaced only when its
 * bytes change, by rename, and files the build no longer makes are removed, so a reader never sees a
 * half-written or missing module of an unchanged build.
 */
const outputs = new Map(result.outputFiles.map((file) => [file.path, file.contents]));
for (const [name, file] of dataFiles) outputs.set(path.join(outdir, name), readFileSync(file));
for (const [file, contents] of outputs) {
  if (existsSync(file) && Buffer.compare(readFileSync(file), contents) === 0) continue;
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, file);
}
for (const entry of readdirSync(outdir, { recursive: true, withFileTypes: true })) {
  const file = path.join(entry.parentPath, entry.name);
  if (entry.isFile() && !outputs.has(file) && !file.endsWith('.tmp')) rmSync(file);
}
