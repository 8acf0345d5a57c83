// @ts-check
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Layers in dependency order (DESIGN §1): a layer may import only the layers before it. Layers in one
 * group (bus and cdp, the two platforms) may not import each other.
 */
const LAYERS = [
  ['shared'],
  ['protocol'],
  ['bus', 'cdp'],
  ['dom'],
  ['browser'],
  ['tools'],
  ['agent'],
  ['platform/extension', 'platform/node'],
  ['ui'],
  ['entries'],
];

function layerZones() {
  const zones = [];
  LAYERS.forEach((group, index) => {
    const later = LAYERS.slice(index + 1).flat();
    for (const layer of group) {
      const siblings = group.filter((other) => other !== layer);
      for (const forbidden of [...later, ...siblings]) {
        zones.push({
          target: `./src/${layer}`,
          from: `./src/${forbidden}`,
          message: `src/${layer} may not import src/${forbidden} (DESIGN §1 layer order)`,
        });
      }
    }
  });
  // The panel talks to the worker through its port only: shared and protocol, nothing of the core.
  for (const core of ['bus', 'cdp', 'dom', 'browser', 'tools', 'agent', 'platform']) {
    zones.push({ target: './src/ui', from: `./src/${core}`, message: 'src/ui imports only shared and protocol' });
  }
  return zones;
}

const CORE = ['shared', 'protocol', 'bus', 'cdp', 'dom', 'browser', 'tools', 'agent'].map(
  (layer) => `src/${layer}/**/*.ts`,
);
const PLATFORM_GLOBALS = [
  'chrome',
  'browser',
  'process',
  'Buffer',
  'require',
  'window',
  'document',
  'navigator',
  'self',
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'bench/out/**',
      'bench/pages/**',
      '.scratch/**',
      'src/shared/platform-globals.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.mjs', '.json'] })],
      // The files import-x reads to follow imports. Without .ts here it reads none of ours, and no-cycle
      // passes every cycle in silence (it did: in-page/guard.ts and pointer.ts imported each other's values).
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
    },
    rules: {
      curly: ['error', 'all'],
      eqeqeq: ['error', 'always'],
      'no-console': 'error',
      'max-lines': ['warn', { max: 400, skipBlankLines: true, skipComments: true }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/prefer-promise-reject-errors': 'error',
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': ['error', { zones: layerZones() }],
    },
  },
  {
    // Core layers run in a service worker and in Node alike: no platform globals, no node:* or ws.
    files: CORE,
    ignores: ['**/*.test.ts', 'src/browser/actions/in-page/**'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...PLATFORM_GLOBALS.map((name) => ({ name, message: `core code may not use ${name} (DESIGN §1)` })),
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*', 'ws', 'webextension-polyfill'], message: 'core code is platform-free (DESIGN §1)' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/platform/extension/**/*.ts', 'src/ui/**/*.{ts,tsx}', 'src/entries/extension/**/*.ts'],
    languageOptions: { globals: { ...globals.browser, ...globals.serviceworker, chrome: 'readonly' } },
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'no Node globals in extension code' },
        { name: 'Buffer', message: 'no Node globals in extension code' },
      ],
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['node:*', 'ws'], message: 'extension code cannot use Node modules' }] },
      ],
    },
  },
  {
    // In-page perception code runs in the page's isolated world: DOM globals are its world; it may import
    // only the shared payload types and wire format.
    files: ['src/dom/in-page/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-globals': ['error', { name: 'chrome', message: 'in-page code runs in the web page' }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../../*', '../*', '!../payload', '!../wire'],
              message: 'in-page code imports only ../payload and ../wire',
            },
          ],
        },
      ],
    },
  },
  {
    // The action routines' in-page half runs in tabpilot's isolated worlds: DOM globals are its world; it
    // may import only its own folder, the contract with the core, the perception half's cross-frame
    // DOM checks and its ids of indexed elements (one bundle holds both halves).
    files: ['src/browser/actions/in-page/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-globals': ['error', { name: 'chrome', message: 'in-page code runs in the web page' }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./(?!in-page-api$|\\.\\./\\.\\./dom/in-page/(realm|slotted|world-state)$)',
              message: 'in-page code imports only ../in-page-api and the DOM checks and element ids of src/dom/in-page',
            },
          ],
        },
      ],
    },
  },
  {
    // The logger is the one place that writes to the console.
    files: ['src/shared/logger.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['test/**/*.ts', '**/*.test.ts', 'bench/**/*.ts', 'scripts/**/*.mjs', '*.config.ts', '*.config.js'],
    rules: {
      'no-console': 'off',
      'max-lines': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  prettier,
);
