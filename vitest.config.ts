import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One PostgreSQL server for the run (embedded, or TEST_DATABASE_URL's) and the templates each file clones.
    globalSetup: ['test/support/globalSetup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two test files at a time suits 2 cores (the database server is a third set of processes).
    maxWorkers: 2,
    env: { NODE_ENV: 'test' },
  },
});
