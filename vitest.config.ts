import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The suite in tiers, each a vitest project; `npm test` runs them all, `npx vitest run --project unit`
 * one (docs/contributing.md says which to run when).
 * - unit: pure code (domain rules, money, the HTTP layer's own units): no database, no server; seconds.
 * - process: whole processes, builds and packages (npm start, the worker, the mock, npm pack, the docs in a browser).
 * - reliability: crashes, races, fuzzing and the authorisation matrix against a real server.
 * - contract: everything else, the real app in-process on a real database; a new test file lands here
 *   unless it is listed in another tier.
 * A suite in NOT_IN_NPM_TEST is in no tier: it runs only with a config of its own
 * (`vitest run --config vitest.<suite>.config.ts`), never under `npm test`.
 */
const UNIT = [
  'test/unit/**/*.test.ts',
  'test/domain/**/*.test.ts',
  'test/http/{accessLog,envelope,routeRegexpCache,serverStubs,validatorRouting}.test.ts',
  'test/worldSettlement.test.ts',
  'test/spec/demoIds.test.ts',
  'test/spec/eventSchemas.test.ts',
  'test/usecases/cursor.test.ts',
  'test/store/itemGroups.test.ts',
];
const PROCESS = [
  'test/process/**/*.test.ts',
  'test/client/{mock,mockRelease,pack,readme-example}.test.ts',
  'test/docs/**/*.test.ts',
  'test/console/**/*.test.ts',
  'test/spec/specGate.test.ts',
  'test/spec/release.test.ts',
  'test/spec/examplesReplay.test.ts',
];
const RELIABILITY = ['test/reliability/**/*.test.ts'];
/**
 * Process tests that never touch the suite's database: they read files, drive a browser over the
 * built docs, or start `npm start` on its embedded default (DATABASE_URL emptied). Run with
 * TEST_DATABASE_URL they would do the very same thing a second time, so that run leaves them out
 * (.ci/run says so); the run on the embedded server has them. The console's OpenID Connect sign-in
 * is with them: it reads one user from the database, and what it proves (the provider, the
 * redirect, the token check against the provider's keys) is the same on either server.
 */
const EMBEDDED_BY_CONSTRUCTION = [
  'test/docs/**/*.test.ts',
  'test/process/{guides,webhookGuide,main,restart,workerImports}.test.ts',
  'test/client/{mock,mockRelease,readme-example}.test.ts',
  'test/spec/{specGate,release,examplesReplay}.test.ts',
  'test/console/oidc.test.ts',
];
const notOnSuiteDatabase = process.env.TEST_DATABASE_URL ? EMBEDDED_BY_CONSTRUCTION : [];
const NOT_IN_NPM_TEST = ['test/fleet/**'];

// One PostgreSQL server for the run (embedded, or TEST_DATABASE_URL's), the templates each file
// clones and the server's build: what every tier but unit needs, prepared once for all of them.
const withDatabase = { globalSetup: ['test/support/globalSetup.ts'] };

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two test files at a time suits 2 cores (the database server is a third set of processes).
    maxWorkers: 2,
    // Each worker runs its files one after another in one module graph instead of a fresh one per
    // file: the server's modules are loaded, and the contract validator compiled (it is shared by
    // every app of a process, src/http/contractValidator.ts), once per worker rather than once per
    // file. It asks of the code what production asks of it anyway: no state in a module but caches
    // keyed by what they cache (the database, the spec), and of each test file that it closes what it opens.
    isolate: false,
    env: { NODE_ENV: 'test' },
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT } },
      {
        extends: true,
        test: {
          name: 'contract',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...UNIT, ...PROCESS, ...RELIABILITY, ...NOT_IN_NPM_TEST],
          ...withDatabase,
        },
      },
      { extends: true, test: { name: 'process', include: PROCESS, exclude: [...configDefaults.exclude, ...notOnSuiteDatabase], ...withDatabase } },
      { extends: true, test: { name: 'reliability', include: RELIABILITY, ...withDatabase } },
    ],
  },
});
