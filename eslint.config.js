import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const web = 'apps/web/src';

/**
 * The web app's layers, lowest first: api (HTTP client) and state (generic stores), components
 * (generic UI), features (screen areas), pages, then app and worker/ (the app's shell and its
 * engine worker). A layer imports only from the layers below it.
 */
const webBoundaries = [
  {
    target: [`${web}/api`, `${web}/state`, `${web}/components`],
    from: [`${web}/features`, `${web}/pages`, `${web}/app`, `${web}/worker`],
    message: 'api/, state/ and components/ are generic: they import no feature, page or app code.',
  },
  {
    target: `${web}/features`,
    from: [`${web}/pages`, `${web}/app`, `${web}/worker`],
    message: "Features import no page or app code; the worker assembles the features' jobs.",
  },
  {
    target: `${web}/pages`,
    from: [`${web}/app`, `${web}/worker`],
    message: 'Pages import no app code; they start jobs through the features.',
  },
];

/**
 * Which features a feature may import: each feature folder declares it in its feature.json
 * (`mayImport`); importing any other feature is an error. On top of the declarations, rules no
 * declaration may loosen: the exports and the output tables never import the builder (the
 * builder page hands them its workspace through a context); the worker imports no screen; the
 * template tabs take generation's public entries only (index.ts for the page, jobs.ts for worker
 * jobs, testing/ in tests), never its internals.
 */
// Read from the repository's root, wherever eslint runs from.
const featuresDir = join(import.meta.dirname, web, 'features');
const features = readdirSync(featuresDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const featureBoundaries = features.map((feature) => {
  const file = join(featuresDir, feature, 'feature.json');
  const { mayImport } = JSON.parse(readFileSync(file, 'utf8'));
  const unknown = mayImport.filter((name) => !features.includes(name));
  if (unknown.length > 0) throw new Error(`${file} names no feature: ${unknown.join(', ')}`);
  return {
    target: `${featuresDir}/${feature}`,
    from: features
      .filter((other) => other !== feature && !mayImport.includes(other))
      .map((other) => `${featuresDir}/${other}`),
    message: `features/${feature} imports only what its feature.json declares (mayImport).`,
  };
});
const TEMPLATE_TABS = ['campaign-template', 'ad-templates', 'extension-template', 'legacy-ads'];
const fixedBoundaries = [
  {
    target: [`${featuresDir}/exports`, `${featuresDir}/output`],
    from: `${featuresDir}/builder`,
    message:
      'The exports and the output tables never import the builder: read the workspace through KeptOutputsContext.',
  },
  {
    target: `${web}/worker`,
    from: `${featuresDir}/**/*.tsx`,
    message: "The worker imports no feature's screens, only its jobs.",
  },
  {
    target: TEMPLATE_TABS.map((tab) => `${featuresDir}/${tab}`),
    from: `${featuresDir}/generation`,
    except: ['./index.ts', './jobs.ts', './testing'],
    message:
      "Template tabs use generation's index.ts (the page) or jobs.ts (worker jobs), not its internals.",
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      '.tmp/**',
      '**/test-results/**',
      '**/playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // CommonJS: the `adloom` command's launcher and what it loads on every run (an ES module
    // would load Node's ES module loader first).
    files: ['**/*.cjs', 'apps/cli/bin/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The web app's import graph is acyclic and layered (see webBoundaries).
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // Only files with these extensions are parsed for the graph; the imports name theirs.
      'import-x/extensions': ['.ts', '.tsx'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        { zones: [...webBoundaries, ...featureBoundaries, ...fixedBoundaries] },
      ],
    },
  },
  {
    // A feature's test harness (a page built only for the browser tests) may show other features.
    files: ['apps/web/src/features/*/harness/**/*.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [...webBoundaries, ...fixedBoundaries] }],
    },
  },
  {
    // app.ts registers the routes: nothing it imports takes anything from it (their shared
    // types come from deps.ts).
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/main.ts', 'apps/server/src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/app.ts', './app.ts'],
              message: "Take the routes' types from deps.ts: app.ts imports the routes.",
            },
          ],
        },
      ],
    },
  },
  {
    // The engine is pure: no React, no Node built-ins, no other workspace package.
    files: ['packages/engine/src/**/*.ts'],
    ignores: ['packages/engine/src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['react', 'react-*', 'node:*', '@adloom/*', 'fs', 'path', 'os', 'crypto'],
              message: 'The engine is pure TypeScript: no DOM, Node or workspace imports.',
            },
          ],
        },
      ],
    },
  },
);
