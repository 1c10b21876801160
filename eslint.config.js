// eslint.config.js — ESLint over the project's JavaScript: the recommended rules and a few more that catch real
// bugs (no formatting rules). scripts/test.sh runs it first; `npx eslint` runs it by hand.
import js from '@eslint/js';
import globals from 'globals';

export default [
  { ignores: ['**/dist/**', 'build/**', 'build-*/**', 'node_modules/**'] },
  js.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    languageOptions: { ecmaVersion: 2024, sourceType: 'module' },
    rules: {
      'array-callback-return': 'error',            // a map() or find() callback that forgets to return
      eqeqeq: ['error', 'smart'],                  // == coerces; == null (null or undefined) stays allowed
      'no-constructor-return': 'error',
      'no-promise-executor-return': 'error',       // new Promise((r) => x) returns x, which nobody reads
      'no-self-compare': 'error',                  // x !== x: Number.isNaN says it
      'no-template-curly-in-string': 'error',      // '${x}' meant as a template
      'no-throw-literal': 'error',                 // a thrown string has no stack
      'no-unmodified-loop-condition': 'error',
      'no-unreachable-loop': 'error',
      // A use in the declaring scope before the declaration is a ReferenceError (the temporal dead zone); uses
      // inside functions that run later are fine.
      'no-use-before-define': ['error', { functions: false, classes: false, variables: false }],
      'prefer-promise-reject-errors': 'error',
    },
  },
  {
    // The page. Its worker is a module worker; `name`, `event`, `status` and the like are window properties a
    // misspelt local would silently read.
    files: ['web/src/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-globals': ['error', 'event', 'name', 'length', 'status', 'close', 'closed', 'origin', 'top',
        'parent', 'opener', 'find', 'print', 'external'],
    },
  },
  { files: ['web/src/worker.js'], languageOptions: { globals: { ...globals.worker } } },
  // The API runs unchanged in Node and in browsers: only what both have.
  { files: ['wasm/**/*.mjs'], languageOptions: { globals: { ...globals['shared-node-browser'] } } },
  { files: ['tests/**/*.mjs', 'bench/*.mjs', 'scripts/*.mjs', 'web/vite.config.js', 'eslint.config.js'],
    languageOptions: { globals: { ...globals.node } } },
  // Browser tests and the page benchmark pass functions to page.evaluate(), which run in the page.
  { files: ['tests/browser/*.mjs', 'bench/page_fps.mjs'], languageOptions: { globals: { ...globals.browser } } },
];
