/**
 * Config of the browser end-to-end suite (`npm run test:e2e`): e2e/global-setup.ts builds
 * the web app if needed and starts the real server on a fresh database; the test files
 * (*.e2e.test.ts) drive Debian's chromium against it. One file at a time: one story, in a
 * fixed order (STORY_ORDER).
 */
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files share one server and database, and journey counts every user on it ('All (4)',
 * 'Verified (4)': both admins and its two customers; one 'Vikram Nair'), so it must come before experience, which makes customers
 * of its own (another Vikram Nair). Vitest's own order is the largest file first on a fresh
 * clone but the last failed, then the slowest, first once it has a cache - experience ahead of
 * journey from the second run on.
 */
const STORY_ORDER = ['journey', 'experience', 'admin', 'statements'];

function rank(spec: TestSpecification): number {
  const index = STORY_ORDER.indexOf(basename(spec.moduleId).replace(/\.e2e\.test\.ts$/, ''));
  return index === -1 ? STORY_ORDER.length : index;
}

class StorySequencer extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return Promise.resolve([...files].sort((a, b) => rank(a) - rank(b) || a.moduleId.localeCompare(b.moduleId)));
  }
}

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    globalSetup: ['e2e/global-setup.ts'],
    include: ['e2e/**/*.e2e.test.ts'],
    fileParallelism: false,
    sequence: { sequencer: StorySequencer },
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
