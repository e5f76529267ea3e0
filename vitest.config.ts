import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    include: [
      '{ledger,projections,identity,audit,api,cli,platform,providers,payments,notifications,contracts,runtime,test}/**/*.test.ts',
    ],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
