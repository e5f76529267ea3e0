/**
 * Vite config of the web app (web/): React, dev proxy to the API on :3000, and a build
 * report of the landing route's JavaScript size (gzip), which has a 200 KB budget.
 */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { landingBudget } from './build/landing-budget.ts';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const apiTarget = process.env.API_URL ?? 'http://localhost:3000';

export default defineConfig({
  root: webRoot,
  plugins: [react(), landingBudget({ budgetKiB: 200 })],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, target: 'es2022' },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/auth': { target: apiTarget, changeOrigin: false },
    },
  },
});
