import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import tseslint from 'typescript-eslint';
import importCycle from './eslint-rules/import-cycle.js';

// Import boundaries (ARCHITECTURE.md): web → shared, server → shared, never web ↔ server; no cycles.
const webFeatures = readdirSync(new URL('./apps/web/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory()).map((entry) => entry.name);
// Server domains (decision 044): every folder of apps/server/src/modules is a domain (the "not yet a domain" list
// emptied and went with issue 29). Another module, the CLI, MCP, jobs and the composition root enter a domain only
// through its index.ts; inside a domain only its repositories touch Kysely and the database.
const serverSrc = 'apps/server/src';
const serverModules = readdirSync(new URL(`./${serverSrc}/modules`, import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory()).map((entry) => entry.name);
const serverDomains = serverModules;
const serverOutsideModules = readdirSync(new URL(`./${serverSrc}`, import.meta.url)).filter((name) => name !== 'modules');
const serverTestFiles = ['**/*.test.ts', '**/*.test-*.ts', '**/test-support.ts', '**/test-fixtures.ts', 'apps/server/test/**'];
const webOnlyServer = { group: ['**/web/src/**', '@cellport/web'], message: 'The server never imports web code.' };
const noSchemasInRoutes = 'Route files define no schemas: add it to packages/shared/src/schemas and import it from there.';
const domainKeepsQueriesInRepository = [
  { group: ['kysely', 'kysely/*'], message: 'In a domain only <domain>.repository.ts uses Kysely: add a repository method.' },
  {
    // connection-errors.js only tells a thrown error "the database is away" (MCP answers it as the HTTP handler does).
    group: ['**/db/*', '!**/db/database.js', '!**/db/connection-errors.js'],
    message: 'In a domain only <domain>.repository.ts uses the database: add a repository method.',
  },
  {
    group: ['**/db/database.js'], allowImportNames: ['Tx'],
    message: 'Outside its repository a domain holds only a Tx its repository opened, to pass on: add a repository method.',
  },
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'test-results/**'] },
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX, cellport: { rules: { 'import-cycle': importCycle } } },
    languageOptions: { globals: { ...globals.node } },
    rules: {
      'import-x/no-cycle': ['error', { maxDepth: 8, ignoreExternal: true }],
      // import-x/no-cycle skips `import type`; this one counts type-only imports too (eslint-rules/import-cycle.js).
      'cellport/import-cycle': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'warn',
    },
    settings: { 'import-x/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } } },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      // React 18 (decision 046) keeps a `ref` from a function component's props: declared as a prop it type-checks
      // and never arrives. A component takes its element's ref under a name of its own (textareaRef).
      'no-restricted-syntax': ['error', {
        selector: "TSPropertySignature[key.name='ref']",
        message: 'React 18 does not pass `ref` to a function component: name the prop for what it reaches (textareaRef).',
      }],
      'no-restricted-imports': ['error', {
        paths: [{ name: '@cellport/shared', message: 'Import a subpath (@cellport/shared/constants, …/schemas/auth) to keep bundles small.' }],
        patterns: [{ group: ['**/server/**', '@cellport/server', '@cellport/server/*'], message: 'The web app never imports server code.' }],
      }],
      // Inside the web app: app → features → components/lib/store. A feature uses another only through its
      // index.ts (features/payments/index.ts is the example); shared folders import no feature and not the app.
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: [
        ...webFeatures.map((feature) => ({
          target: `apps/web/src/features/${feature}`,
          from: 'apps/web/src/features',
          except: [`./${feature}`, ...webFeatures.map((other) => `./${other}/index.ts`)],
          message: 'Import another feature through its index.ts, or move what both need to components/, lib/ or store/.',
        })),
        { target: 'apps/web/src/features', from: 'apps/web/src/app', message: 'Features do not import the app shell.' },
        {
          target: ['apps/web/src/components', 'apps/web/src/lib', 'apps/web/src/store'],
          from: ['apps/web/src/features', 'apps/web/src/app'],
          message: 'Shared folders import no feature and not the app.',
        },
      ] }],
    },
  },
  {
    files: ['apps/server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/web/src/**', '@cellport/web'], message: 'The server never imports web code.' }] }],
    },
  },
  {
    // Node-side code the server, the agent and the gateway share (refused addresses, metrics auth, env parsing).
    files: ['packages/node-common/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/apps/**', '@cellport/*'], message: 'node-common depends on Node and zod only.' }] }],
    },
  },
  {
    files: ['packages/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/apps/**', '@cellport/server', '@cellport/web'], message: 'shared depends on zod only.' }] }],
    },
  },
  {
    // Contracts live in packages/shared only (issue 12 item 3): a route file takes every params, querystring, body,
    // response and event schema from there, so it has no use for zod. This block replaces the server block's
    // no-restricted-imports options for route files, hence the repeated web rule.
    files: ['apps/server/src/**/*.routes.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'zod', message: 'Route files define no schemas: add it to packages/shared/src/schemas and import it from there.' }],
        patterns: [
          { group: ['zod/*'], message: 'Route files define no schemas: add it to packages/shared/src/schemas and import it from there.' },
          { group: ['**/web/src/**', '@cellport/web'], message: 'The server never imports web code.' },
        ],
      }],
    },
  },
  ...(serverDomains.length === 0 ? [] : [{
    // A domain is entered through its index.ts (the web's feature zones, generated the same way). Tests may reach
    // inside to test the parts; production code may not.
    files: [`${serverSrc}/**/*.ts`],
    ignores: serverTestFiles,
    // The server writes ESM specifiers ('./x.js' for x.ts), which the node resolver above cannot follow.
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js'], extensionAlias: { '.js': ['.ts', '.js'] } })] },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: [
        ...serverModules.map((module) => ({
          target: `${serverSrc}/modules/${module}`,
          from: serverDomains.filter((domain) => domain !== module).map((domain) => `${serverSrc}/modules/${domain}`),
          except: ['./index.ts'],
          message: 'Import another domain through its index.ts (export what you need there).',
        })).filter((zone) => zone.from.length > 0),
        {
          target: serverOutsideModules.map((name) => `${serverSrc}/${name}`),
          from: serverDomains.map((domain) => `${serverSrc}/modules/${domain}`),
          except: ['./index.ts'],
          message: 'The CLI, jobs, lib and the composition root import a domain through its index.ts.',
        },
      ] }],
    },
  }, {
    files: serverDomains.map((domain) => `${serverSrc}/modules/${domain}/**/*.ts`),
    ignores: [...serverTestFiles, '**/*.repository.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [webOnlyServer, ...domainKeepsQueriesInRepository] }] },
  }, {
    files: serverDomains.map((domain) => `${serverSrc}/modules/${domain}/**/*.routes.ts`),
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'zod', message: noSchemasInRoutes }],
        patterns: [{ group: ['zod/*'], message: noSchemasInRoutes }, webOnlyServer, ...domainKeepsQueriesInRepository],
      }],
    },
  }]),
);
