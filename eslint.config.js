// The import rules of docs/architecture are enforced here, not kept by memory:
// shared ← server, shared ← client; inside the client app → features → entities → components/lib;
// inside the server (decision 0021) a route calls its own module's services, a module reaches another
// only through that module's service, and a repository never calls a service.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const features = readdirSync(new URL('./src/client/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const clientOrServer = [
  // The MCP SDK's client (modules/tools/) is a package's, not ours.
  {
    group: ['@/*', '**/client/**', '!@modelcontextprotocol/sdk/client/**'],
    message: 'Client code stays in src/client.',
  },
  { group: ['**/server/**'], message: 'Server code stays in src/server.' },
];
const upwards = (layer, banned) => ({
  group: banned.map((name) => `@/${name}/*`),
  message: `${layer} must not import from higher layers (${banned.join(', ')}).`,
});
const restrict = (...patterns) => ['error', { patterns }];
// The chat opens without building the contracts' zod schemas (decision 0053): its code takes their types, its values
// from zod-free modules, and a schema by import() where it is used. Tests are exempt.
const contractValues = {
  group: ['@shared/contracts/*'],
  allowTypeImports: true,
  message:
    "The chat opens without the contracts' zod schemas: import their types only, values from zod-free modules (@shared/constants, @shared/chat/…), and a schema with import() where it is used (decision 0053).",
};
const chatTests = ['src/client/**/*.test.{ts,tsx}'];

// Which database engine runs (`db.kind`) is decided under src/server/db/ and in repositories, nowhere else.
const engineChoice = [
  "MemberExpression[property.name='kind'][object.name='db']",
  "MemberExpression[property.name='kind'][object.property.name='db']",
  "VariableDeclarator[init.name='db'] > ObjectPattern > Property[key.name='kind']",
  "VariableDeclarator[init.property.name='db'] > ObjectPattern > Property[key.name='kind']",
  "TSTypeReference[typeName.name='DatabaseKind']",
].map((selector) => ({
  selector,
  message:
    'Only src/server/db/ and repositories choose by database engine; give the repository the Db and let it choose.',
}));

// Server modules: src/server/modules/<module>/. The rules ban values (functions, constants); `import type`
// of a row or domain type from another module's repository or service stays allowed.
const modules = readdirSync(new URL('./src/server/modules', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const role = (roles) => `[^/]+\\.(?:${roles})(?:\\.[jt]s)?$`;
// Another module's file, seen from src/server/modules/<module>/: ../<other>/… or …/modules/<other>/….
const otherModule = (module, roles) => ({
  regex: `^(?:\\.\\./|.*/modules/)(?!${module}/)[^./][^/]*/(?:[^/]+/)*${role(roles)}`,
  allowTypeImports: true,
});
const serverLayer = (module) => ({
  routes: {
    ...otherModule(module, 'service|repository'),
    message: "A route calls only its own module's services; cross-module needs go through its own service.",
  },
  rest: {
    ...otherModule(module, 'repository'),
    message:
      "Cross-module needs go through the other module's service (export a small function there that calls its repository).",
  },
  repositories: {
    regex: `(?:^|/)${role('service')}`,
    allowTypeImports: true,
    message: 'A repository never calls a service; pass what it needs as arguments, or move the logic up.',
  },
});

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
  {
    files: ['src/client/entities/chat/**'],
    ignores: chatTests,
    rules: {
      'no-restricted-imports': restrict(clientOrServer[1], upwards('Entities', ['app', 'features']), contractValues),
    },
  },
  ...features.flatMap((feature) => {
    const patterns = [
      clientOrServer[1],
      upwards('Features', ['app']),
      {
        regex: `^@/features/(?!${feature}/)`,
        message: 'A feature never imports another feature; move what both need to entities/ or components/.',
      },
      { group: ['../../*'], message: 'Leave a feature through @/ imports, never ../../.' },
    ];
    const files = [`src/client/features/${feature}/**`];
    return [
      { files, rules: { 'no-restricted-imports': restrict(...patterns) } },
      ...(feature === 'chat'
        ? [{ files, ignores: chatTests, rules: { 'no-restricted-imports': restrict(...patterns, contractValues) } }]
        : []),
    ];
  }),
  {
    files: ['src/server/**/*.ts'],
    ignores: ['src/server/db/**', 'src/server/**/*.repository.ts', 'src/server/**/*.test.ts'],
    rules: { 'no-restricted-syntax': ['error', ...engineChoice] },
  },
  // Server layering, per module (tests are exempt: they may set up any module's rows directly).
  ...modules.flatMap((module) => {
    const dir = `src/server/modules/${module}`;
    const rules = serverLayer(module);
    const tests = [`${dir}/**/*.test.ts`];
    return [
      {
        files: [`${dir}/**/*.routes.ts`],
        ignores: tests,
        rules: { 'no-restricted-imports': restrict(clientOrServer[0], rules.routes) },
      },
      {
        files: [`${dir}/**/*.repository.ts`],
        ignores: tests,
        rules: { 'no-restricted-imports': restrict(clientOrServer[0], rules.repositories) },
      },
      {
        files: [`${dir}/**/*.ts`],
        ignores: [...tests, `${dir}/**/*.routes.ts`, `${dir}/**/*.repository.ts`],
        rules: { 'no-restricted-imports': restrict(clientOrServer[0], rules.rest) },
      },
    ];
  }),
  {
    files: ['**/*.test.ts', 'tests/**', 'e2e/**', 'bench/**', 'scripts/**'],
    rules: { 'no-console': 'off' },
  },
);
