import { defineConfig } from 'vitest/config';

/**
 * The suite in tiers, one folder each, each a vitest project; `npm test` runs them all and
 * `npm run test:<tier>` one (docs/contributing.md says which to run when).
 * - unit (test/unit): pure code (domain rules, money, the HTTP layer's own units): no database, no server; seconds.
 * - contract (test/contract): the real app in-process on a real database: the API's behaviour, the store's SQL, the bank's files.
 * - reliability (test/reliability): crashes, races, fuzzing, scale and the authorisation matrix against a real server.
 * - process (test/process): whole processes, builds and packages (npm start, the worker, the mock, npm pack, the guides).
 * - browser (test/browser): the console and the reference docs in Chromium.
 * The fleet (test/fleet) is in no tier: it runs only with a config of its own
 * (`npm run test:fleet`), never under `npm test`.
 */
const TIERS = ['unit', 'contract', 'reliability', 'process', 'browser'] as const;

// One PostgreSQL server for the run (embedded, or TEST_DATABASE_URL's), the templates each file
// clones and the server's build: what every tier but unit needs, prepared once for all of them.
const withDatabase = { globalSetup: ['test/support/globalSetup.ts'] };

export default defineConfig({
  test: {
    // Hang bounds, not speed checks: a test that needs a server, a build or a tool of its own takes
    // several times longer on a loaded 2-core host than on a quiet one, and must still pass there.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Two test files at a time suits 2 cores (the database server is a third set of processes).
    maxWorkers: 2,
    // Each worker runs its files one after another in one module graph instead of a fresh one per
    // file: the server's modules are loaded, and the contract validator compiled (it is shared by
    // every app of a process, src/http/pipeline/contractValidator.ts), once per worker rather than once per
    // file. It asks of the code what production asks of it anyway: no state in a module but caches
    // keyed by what they cache (the database, the spec), and of each test file that it closes what it opens.
    isolate: false,
    env: { NODE_ENV: 'test' },
    projects: TIERS.map((tier) => ({
      extends: true,
      test: { name: tier, include: [`test/${tier}/**/*.test.ts`], ...(tier === 'unit' ? { testTimeout: 30_000 } : withDatabase) },
    })),
  },
});
