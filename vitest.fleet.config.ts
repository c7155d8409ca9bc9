import { defineConfig } from 'vitest/config';

/**
 * `npm run test:fleet`: the scale-out test alone (test/fleet/), against the machine's PostgreSQL
 * (TEST_DATABASE_URL's server) and Redis (REDIS_URL). No globalSetup: it builds the server and makes
 * its own database, and it needs no templates.
 */
export default defineConfig({
  test: {
    include: ['test/fleet/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    maxWorkers: 1,
    env: { NODE_ENV: 'test' },
  },
});
