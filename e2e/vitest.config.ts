/**
 * Config of the browser end-to-end suite (`npm run test:e2e`): e2e/global-setup.ts builds
 * the web app if needed and starts the real server on a fresh database; the test files
 * (*.e2e.test.ts) drive Debian's chromium against it. One file at a time: one story.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    globalSetup: ['e2e/global-setup.ts'],
    include: ['e2e/**/*.e2e.test.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
