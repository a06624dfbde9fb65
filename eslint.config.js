// The import rules of docs/architecture are enforced here, not kept by memory:
// shared ← server, shared ← client; inside the client app → features → entities → components/lib.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const features = readdirSync(new URL('./src/client/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const clientOrServer = [
  { group: ['@/*', '**/client/**'], message: 'Client code stays in src/client.' },
  { group: ['**/server/**'], message: 'Server code stays in src/server.' },
];
const upwards = (layer, banned) => ({
  group: banned.map((name) => `@/${name}/*`),
  message: `${layer} must not import from higher layers (${banned.join(', ')}).`,
});
const restrict = (...patterns) => ['error', { patterns }];

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  // Layer boundaries.
  { files: ['src/shared/**'], rules: { 'no-restricted-imports': restrict(...clientOrServer) } },
  {
    files: ['src/server/**'],
    rules: { 'no-restricted-imports': restrict(clientOrServer[0]) },
  },
  {
    files: ['src/client/**'],
    rules: { 'no-restricted-imports': restrict(clientOrServer[1]) },
  },
  // The embeddable widget runs on other sites: browser code like the client's, and it may reuse the client's plain helpers.
  { files: ['src/embed/**'], rules: { 'no-restricted-imports': restrict(clientOrServer[1]) } },
  {
    files: ['src/client/components/**', 'src/client/lib/**'],
    rules: {
      'no-restricted-imports': restrict(
        clientOrServer[1],
        upwards('Shared building blocks', ['app', 'features', 'entities']),
      ),
    },
  },
  {
    files: ['src/client/entities/**'],
    rules: { 'no-restricted-imports': restrict(clientOrServer[1], upwards('Entities', ['app', 'features'])) },
  },
  ...features.map((feature) => ({
    files: [`src/client/features/${feature}/**`],
    rules: {
      'no-restricted-imports': restrict(
        clientOrServer[1],
        upwards('Features', ['app']),
        {
          regex: `^@/features/(?!${feature}/)`,
          message: 'A feature never imports another feature; move what both need to entities/ or components/.',
        },
        { group: ['../../*'], message: 'Leave a feature through @/ imports, never ../../.' },
      ),
    },
  })),
  {
    files: ['**/*.test.ts', 'tests/**', 'e2e/**', 'bench/**', 'scripts/**'],
    rules: { 'no-console': 'off' },
  },
);
