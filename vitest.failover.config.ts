import { defineConfig } from 'vitest/config';

/**
 * `npm run test:failover`: the failover test alone (test/failover/), on a pg_auto_failover formation
 * it starts and removes itself (scripts/failover-formation.sh; root and Debian's pg_autoctl), with
 * Redis when REDIS_URL answers. No globalSetup: it builds the server and needs no templates.
 */
export default defineConfig({
  test: {
    include: ['test/failover/**/*.test.ts'],
    testTimeout: 900_000,
    hookTimeout: 360_000,
    maxWorkers: 1,
    env: { NODE_ENV: 'test' },
  },
});
