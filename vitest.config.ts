import { defineConfig } from 'vitest/config';
import { limit } from './test/fixtures/until.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // Safety nets for a hung test, scaled with the machine's load or TEST_TIME_SCALE (test/fixtures/until.ts).
    testTimeout: limit(30_000),
    hookTimeout: limit(60_000),
    pool: 'forks',
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});
