/**
 * `npm start` serves web/dist. Build it when it is missing or older than its sources, so
 * `npm install && npm start` works on a fresh clone and a restart does not rebuild for nothing.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = join(root, 'web/dist/index.html');
const sources = [join(root, 'web'), join(root, 'contracts')];

function newestSourceMs(path: string): number {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) {
    if (entry === 'dist' || entry === 'node_modules') continue;
    newest = Math.max(newest, newestSourceMs(join(path, entry)));
  }
  return newest;
}

/** A build made with NODE_ENV other than production (before this script forced it) carries React's dev runtime. */
function isDevelopmentBuild(): boolean {
  const assets = join(root, 'web/dist/assets');
  return existsSync(assets) && readdirSync(assets).some((file) => file.includes('jsx-dev-runtime'));
}

const stale =
  !existsSync(built) ||
  isDevelopmentBuild() ||
  sources.some((source) => newestSourceMs(source) > statSync(built).mtimeMs);
if (stale) {
  console.log('Building the web app (web/dist)...');
  // Always the production build: under a test runner NODE_ENV is 'test', and Vite would keep it,
  // bundling React's development runtime (+65 KB gzip on the landing route) into the web/dist
  // that a later `npm start` serves as fresh.
  execFileSync('npm', ['run', '--silent', 'build:web'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
}
