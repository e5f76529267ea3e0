/**
 * Config of the browser smoke (e2e/web-smoke.test.ts): the root harness's embedded Postgres
 * template, one file, generous timeouts. Kept out of the root config's include.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    include: ['e2e/web-smoke.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
