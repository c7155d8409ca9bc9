import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file opens its own embedded database (about 0.5 s from a snapshot); two at a time suits 2 cores.
    maxWorkers: 2,
    env: { NODE_ENV: 'test' },
  },
});
