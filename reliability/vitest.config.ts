/**
 * `npm run test:reliability`: bad input, crashes and load against the real app and real
 * processes. Reuses the root global setup (one Postgres server + migrated template), so
 * every file gets its own database. Files run one at a time: the crash test starts
 * processes and kills them, and shares the machine badly with anything else.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    include: ['reliability/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 180_000,
  },
});
