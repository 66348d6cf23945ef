// Lint for src/, durable-objects/, test/, bench/ and scripts/ (`npm run lint`, run by .ci/run before the
// tests): ESLint's and typescript-eslint's recommended rules, without type information (fast).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'public/', '.wrangler/', 'dist/', 'coverage/', 'migrations/', 'worker-configuration.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node, ...globals.serviceworker } },
    rules: {
      // Unused arguments are often part of a signature (Hono handlers, DO methods); `_` marks them.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // One account scope (docs/architecture.md): queues are reached through a scope's `queues`, which
    // stamp the shard on every message; the raw producers are read only where scopes are built. Nothing
    // swaps a request's bindings.
    files: ['src/**'],
    ignores: ['src/db/shards.ts', 'src/env.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'MemberExpression[property.name=/^(MESSAGES|WEBHOOK|SEALING)_QUEUE$/]',
          message: "Enqueue through a scope's queues (c.var.scope.queues, ShardScope.queues): they stamp the shard (src/db/shards.ts).",
        },
        {
          selector: "AssignmentExpression[left.type='MemberExpression'][left.property.name='env']",
          message: 'Never reassign c.env: build a scope or observe D1 (src/db/observed-d1.ts).',
        },
      ],
    },
  },
  {
    // db/queries is the only code that talks to D1 (docs/architecture.md): statements are written there
    // and services call them, or take the unexecuted statement for their batch (db/client.ts › BatchStatement).
    files: ['src/**'],
    ignores: ['src/db/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['drizzle-orm', 'drizzle-orm/*'],
              message: 'Only src/db talks to D1: write the statement in src/db/queries/<area>.ts and call it.',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests read response JSON field by field.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Browser code (the kit and every bundle's entry and parts: signing page, embed scripts, console,
    // builder) runs in the signer's or the user's browser: it never reaches server code. What it shares
    // with the server lives in src/shared (docs/architecture.md › Browser kit and shared rules).
    files: ['src/browser/**', 'src/signing-page/client/**', 'src/console/client/**', 'src/console/builder/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/services', '**/services/**', '**/routes', '**/routes/**', '**/db', '**/db/**', '**/middleware/**', '**/lib/**'],
              message: 'Browser code imports only src/browser and src/shared; move a rule both sides need to src/shared.',
            },
            {
              group: ['drizzle-orm', 'drizzle-orm/*', 'hono', 'hono/*', '@hono/*', 'cloudflare:*'],
              message: 'Browser code never imports server libraries.',
            },
          ],
        },
      ],
    },
  },
  {
    // Rules and types the server and the browser both run: pure code, nothing from either side.
    files: ['src/shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/services/**',
                '**/routes/**',
                '**/db/**',
                '**/middleware/**',
                '**/lib/**',
                '**/browser/**',
                '**/signing-page/**',
                '**/console/**',
              ],
              message: 'src/shared imports only src/shared and pure packages (zod, re2js).',
            },
            {
              group: ['drizzle-orm', 'drizzle-orm/*', 'hono', 'hono/*', '@hono/*', 'cloudflare:*', 'pdf-lib', 'pdfjs-dist', 'pdfjs-dist/*'],
              message: 'src/shared imports only src/shared and pure packages (zod, re2js).',
            },
          ],
        },
      ],
    },
  },
);
