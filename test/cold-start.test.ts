// What a new isolate evaluates before its first request (decisions.md › Cold start): the modules src/index.ts
// reaches through static imports. The app is built in parts on first use (src/app-parts.ts), so the entry
// reaches no route, schema or library; each part, in turn, reaches no PDF, DOCX, font, certificate or browser
// engine: they load through `import()` inside the functions that use them, so an API read or a signing-page
// GET never pays for them. Read from the sources (esbuild drops `import type` and type-only specifiers the
// same way, and splits the build at every `import()`: scripts/build-worker.mjs).
import { describe, expect, it } from 'vitest';

const sources = import.meta.glob<string>(['../src/**/*.{ts,tsx}', '../durable-objects/**/*.ts'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** Packages whose evaluation costs milliseconds at isolate start (issue 30 › 1 measured them). */
const ENGINES = [
  '@pdf-lib/fontkit',
  'pdf-lib',
  'pdfjs-dist',
  'pkijs',
  'asn1js',
  'mammoth',
  'docxtemplater',
  'pizzip',
  '@cloudflare/puppeteer',
];

/** What the entry itself must not evaluate: route schemas, the database layer, messages, and the rest. */
const LIBRARIES = [
  ...ENGINES,
  'zod',
  '@hono/zod-openapi',
  'drizzle-orm',
  'intl-messageformat',
  '@modelcontextprotocol/sdk',
  're2js',
  'ipaddr.js',
  'otpauth',
  'jose',
  '@noble/hashes',
  'fflate',
];

/** The app's parts (src/app-parts.ts): what a request under /api, under /s or /l, or anywhere else builds. */
const PARTS = ['src/app-api.ts', 'src/app-signing.ts', 'src/app.ts'];

const files = new Map(Object.entries(sources).map(([key, text]) => [key.replace(/^\.\.\//, ''), text]));

/** The specifiers a module imports or re-exports for their values; `import type` and all-`type` lists are erased. */
function staticImports(text: string): string[] {
  const found: string[] = [];
  for (const [, clause, specifier] of text.matchAll(/^(?:import|export)\s+([^'";]*?)\s*from\s+'([^']+)'/gm)) {
    if (/^type\s/.test(clause)) continue;
    const named = /^\{([\s\S]*)\}$/.exec(clause.trim());
    if (named && named[1].split(',').every((part) => part.trim() === '' || /^type\s/.test(part.trim()))) continue;
    found.push(specifier);
  }
  for (const [, specifier] of text.matchAll(/^import\s+'([^']+)'/gm)) found.push(specifier);
  return found;
}

function resolve(from: string, specifier: string): string | undefined {
  const parts = from.split('/').slice(0, -1);
  for (const segment of specifier.split('/')) {
    if (segment === '..') parts.pop();
    else if (segment !== '.') parts.push(segment);
  }
  const base = parts.join('/');
  return [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].find((candidate) => files.has(candidate));
}

/** Every engine the Worker's entry reaches statically, each with the import chain that reaches it. */
function enginesReachedFrom(entry: string, packages: string[] = ENGINES): string[] {
  const via = new Map<string, string | null>([[entry, null]]);
  const queue = [entry];
  const reached: string[] = [];
  const chain = (file: string) => {
    const steps = [];
    for (let at: string | null | undefined = file; at; at = via.get(at)) steps.unshift(at);
    return steps.join(' → ');
  };
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const specifier of staticImports(files.get(file)!)) {
      if (!specifier.startsWith('.')) {
        const engine = packages.find((name) => specifier === name || specifier.startsWith(`${name}/`));
        if (engine) reached.push(`${engine}: ${chain(file)}`);
        continue;
      }
      const target = resolve(file, specifier);
      if (target && !via.has(target)) {
        via.set(target, file);
        queue.push(target);
      }
    }
  }
  return reached;
}

describe('Worker startup', () => {
  it('reads the Worker’s sources and follows their imports', () => {
    expect(files.has('src/index.ts')).toBe(true);
    // The walk itself works: the engines are there, reached from the modules that use them.
    expect(enginesReachedFrom('src/services/pdf/seal.ts').map((line) => line.split(':')[0])).toEqual(
      expect.arrayContaining(['pdf-lib', 'pkijs']),
    );
  });

  it('evaluates no route, schema or library before the first request', () => {
    expect(enginesReachedFrom('src/index.ts', LIBRARIES)).toEqual([]);
    // The walk sees the parts' libraries when asked from a part.
    expect(enginesReachedFrom('src/app-api.ts', LIBRARIES).map((line) => line.split(':')[0])).toContain('@hono/zod-openapi');
  });

  it.each(PARTS)('%s, built for a first request, evaluates no PDF, DOCX, font, certificate or browser engine', (part) => {
    expect(files.has(part)).toBe(true);
    expect(enginesReachedFrom(part)).toEqual([]);
  });
});
