// One ESLint setup for every workspace (flat config). Formatting is Prettier's job; ESLint checks
// correctness: typescript-eslint's recommended rules, the rules of hooks in the two React apps, and
// one import order everywhere. `npm run lint` runs it; `npm test` runs it before the tests.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', '**/dist-server/**', '.ci/**', 'openapi/src/**', '**/coverage/**', '**/test-output/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    languageOptions: { ecmaVersion: 2024, sourceType: 'module', globals: { ...globals.node } },
    rules: {
      'import-x/order': [
        'error',
        {
          groups: ['builtin', 'external', 'internal', 'parent', 'sibling', 'index', 'type'],
          alphabetize: { order: 'asc', caseInsensitive: true },
        },
      ],
      'import-x/first': 'error',
      'import-x/no-duplicates': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'no-console': 'off',
    },
  },
  {
    // Tests read JSON answers the way supertest types them (any); the code under test may not.
    files: ['backend/test/**/*.ts', '**/*.spec.ts', '**/*.test.ts', '**/*.test.tsx'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.cjs', 'backend/jest.config.js', 'backend/test/**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['frontend/**/*.{ts,tsx}', 'admin-ui/**/*.{ts,tsx}', 'packages/shared/src/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The rules of hooks and complete effect dependencies. The React Compiler's own rules (refs,
    // purity, set-state-in-effect) are left out: we do not compile with it, and they misread the
    // dialogs' `{ contentRef, onInteractOutside }` guard objects as refs read during render.
    files: ['frontend/**/*.{ts,tsx}', 'admin-ui/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  prettier,
);
