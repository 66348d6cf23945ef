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
    // Tests read response JSON field by field.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
