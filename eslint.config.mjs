/**
 * ESLint: typescript-eslint's type-aware recommended rules, React's hooks rules on the client,
 * no import cycles; formatting is Prettier's alone (eslint-config-prettier turns ESLint's off).
 * `npm run lint` runs it with Prettier's check; `npm test` runs `npm run lint`.
 */
import fs from 'node:fs';
import path from 'node:path';

import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The server's layers, one way (docs/architecture.md): main -> app -> routes/<area>/<feature> ->
 * services -> plugins -> lib (with config.ts) -> db -> contract. Each zone forbids its target to
 * import from a higher layer; a feature folder imports no other feature; migrations import nothing
 * that can change. A wrong import fails `npm run lint`.
 */
const server = (part) => `./src/server/${part}`;
const entries = ['main.ts', 'audit-integrity.ts'].map(server);
const appLayer = [...entries, server('app.ts'), server('decorations.ts')];
const routesLayer = [...appLayer, server('routes')];
const servicesLayer = [...routesLayer, server('services')];
const pluginsLayer = [...servicesLayer, server('plugins')];
const libLayer = [...pluginsLayer, server('lib'), server('config.ts')];
/** routes/<area>/<feature>, and routes/ops (an area of one feature). */
const features = fs
  .readdirSync('src/server/routes', { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((area) => {
    const inside = fs.readdirSync(path.join('src/server/routes', area.name), { withFileTypes: true }).filter((entry) => entry.isDirectory());
    return inside.length === 0 ? [area.name] : inside.map((feature) => `${area.name}/${feature.name}`);
  });
const serverZones = [
  { target: './src/contract', from: ['./src/server', './src/client'], message: 'The contract imports only itself: both halves import it.' },
  { target: './src/server', from: './src/client', message: 'The server never imports the client.' },
  { target: server('db'), from: libLayer, message: 'db/ is storage: it imports only db/ and the contract.' },
  {
    target: server('db/migrations/[0-9]*.ts'),
    from: server('db'),
    except: ['./dialect.ts'],
    message: 'A migration is frozen: it carries its own copy of any helper, takes types only from db/dialect.ts and imports no other migration.',
  },
  {
    target: [server('*.ts'), server('db/*.ts'), server('lib'), server('plugins'), server('services'), server('routes')],
    from: server('db/migrations'),
    except: ['./index.ts'],
    message: 'No running code imports a migration; only the migration index does.',
  },
  { target: [server('lib'), server('config.ts')], from: pluginsLayer, message: 'lib/ (and config.ts) import only lib/, db/ and the contract.' },
  { target: server('plugins'), from: servicesLayer, message: 'Plugins never import services or routes.' },
  { target: server('plugins/external'), from: server('plugins/app'), message: 'External plugins (framework and integrations) know no app plugin.' },
  { target: server('services'), from: routesLayer, message: 'Services are imported by routes and never import them.' },
  { target: server('routes'), from: appLayer, message: 'Routes never import app.ts or an entry point.' },
  ...features.map((feature) => ({
    target: server(`routes/${feature}`),
    from: server('routes'),
    except: [`./${feature}`],
    message: 'A feature imports no other feature: what several share lives in services/.',
  })),
  { target: [server('app.ts'), server('decorations.ts')], from: entries, message: 'Nothing imports an entry point.' },
];

/**
 * The client's layers (docs/client.md opens with the picture): app -> features/<area>/<feature> ->
 * features/session -> components, hooks -> lib, config -> contract. Each feature folder gets a zone
 * of its own, so a new feature is covered without touching this file.
 */
const client = 'src/client';
const clientFeatures = `${client}/features`;
const featureFolders = fs
  .readdirSync(clientFeatures, { withFileTypes: true })
  .filter((area) => area.isDirectory() && area.name !== 'session')
  .flatMap((area) =>
    fs
      .readdirSync(path.join(clientFeatures, area.name), { withFileTypes: true })
      .filter((feature) => feature.isDirectory())
      .map((feature) => `${area.name}/${feature.name}`),
  );
const clientZones = [
  {
    target: [`${client}/components`, `${client}/hooks`, `${client}/lib`, `${client}/config`],
    from: [clientFeatures, `${client}/app`],
    message: 'Shared code (components, hooks, lib, config) never imports a feature or the app (docs/client.md, Layers).',
  },
  {
    target: [`${client}/lib`, `${client}/config`],
    from: [`${client}/components`, `${client}/hooks`],
    message: 'lib and config are the ground floor: they import no component or hook (docs/client.md, Layers).',
  },
  { target: `${client}/hooks`, from: `${client}/components`, message: 'Hooks sit under components: components use hooks, not the other way (docs/client.md, Layers).' },
  { target: clientFeatures, from: `${client}/app`, message: 'Only the entry imports app/ (docs/client.md, Layers).' },
  { target: `${clientFeatures}/session`, from: clientFeatures, except: ['./session'], message: 'The session module imports no other feature (docs/client.md, Layers).' },
  ...featureFolders.map((feature) => ({
    target: `${clientFeatures}/${feature}`,
    from: clientFeatures,
    except: [`./${feature}`, './session/index.ts'],
    message: 'A feature imports no other feature, except the session module through features/session/index.ts (docs/client.md, Layers).',
  })),
  {
    target: client,
    from: 'src/contract',
    except: ['./index.ts', './constants.ts', './envelope.ts', './time.ts'],
    message:
      'The client takes types from src/contract/index.ts and values from constants.ts, envelope.ts and time.ts only, so no schema code reaches the browser (docs/client.md, Layers).',
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', 'test-reports/**', 'test/e2e/screenshots/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node, ...globals.browser },
    },
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })] },
    rules: {
      'import-x/no-cycle': 'error',
      // `interface FastifyInstance extends AppDecorations {}` is how Fastify's types are extended.
      // React event props take async handlers (their promise settles on its own; errors surface as toasts).
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
      // Unused names are the compiler's job (noUnusedLocals / noUnusedParameters); a leading _
      // marks a parameter kept for its position.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['src/server/**', 'src/contract/**'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: serverZones }] },
  },
  {
    // Routes and services reach plugins through their decorations (app.audit, app.sessions, …) and
    // import only their types.
    files: ['src/server/routes/**', 'src/server/services/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)plugins/', allowTypeImports: true, message: 'Reach a plugin through its decoration (app.<name>); import only its types.' }] },
      ],
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}', 'test/client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // The client's one-way layers (see clientZones above).
    files: ['src/client/**'],
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: clientZones }],
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)contract(/index)?$',
              allowTypeImports: true,
              message: 'Only types come from src/contract/index.ts: its schemas must not reach the browser (docs/client.md, Layers).',
            },
          ],
        },
      ],
    },
  },
  {
    // Jest's asymmetric matchers (expect.any, objectContaining) and parsed JSON answers are typed
    // `any`; a test asserts on exactly those values, so the any-flow rules would flag every check.
    files: ['test/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Plain JavaScript (scripts, a jest config) is outside the TypeScript project: no type-aware rules.
    files: ['**/*.{js,mjs,cjs}'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, sourceType: 'commonjs', globals: globals.node },
    rules: { ...tseslint.configs.disableTypeChecked.rules, '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier,
);
