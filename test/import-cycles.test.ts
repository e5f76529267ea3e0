/**
 * No import cycles between our modules, type-only imports counted: `npm run lint` runs dpdm
 * with dpdm.config.ts. Here the same command and configuration check a scratch folder with a
 * planted cycle (refused) and the tree as it is (passes).
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DPDM = path.join(ROOT, 'node_modules/dpdm/lib/bin/dpdm.js');
const CONFIG = path.join(ROOT, 'dpdm.config.ts');
// A bound for a stuck check, not a speed target: the tree takes ~10 s alone, several times that on a busy machine.
const CHECK_TIMEOUT_MS = 240_000;

async function checkCycles(cwd: string): Promise<{ exitCode: number; output: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [DPDM, '--config', CONFIG, '--cwd', cwd], {
      timeout: CHECK_TIMEOUT_MS,
    });
    return { exitCode: 0, output: stdout };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { exitCode: failed.code, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

let scratch: string | undefined;

async function scratchTree(files: Record<string, string>): Promise<string> {
  scratch = await mkdtemp(path.join(tmpdir(), 'import-cycles-'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(scratch, name)), { recursive: true });
    await writeFile(path.join(scratch, name), text);
  }
  return scratch;
}

afterEach(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
  scratch = undefined;
});

describe('import cycles', () => {
  it('lint runs the cycle check', async () => {
    const manifest = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(manifest.scripts['lint']).toMatch(/&& dpdm$/);
  });

  it('refuses a cycle made of type-only imports', { timeout: CHECK_TIMEOUT_MS }, async () => {
    const tree = await scratchTree({
      'contracts/money.ts':
        "import type { Transfer } from './transactions.ts';\nexport type Money = { last?: Transfer };\n",
      'contracts/transactions.ts':
        "import type { Money } from './money.ts';\nexport type Transfer = { amount: Money };\n",
    });
    const { exitCode, output } = await checkCycles(tree);
    expect(exitCode).toBe(1);
    expect(output).toMatch(/contracts\/(money|transactions)\.ts -> contracts\/(transactions|money)\.ts/);
  });

  it('refuses a cycle through a type re-export', { timeout: CHECK_TIMEOUT_MS }, async () => {
    const tree = await scratchTree({
      'api/a.ts': "export type { B } from './b.ts';\nexport type A = string;\n",
      'api/b.ts': "import type { A } from './a.ts';\nexport type B = A[];\n",
    });
    expect((await checkCycles(tree)).exitCode).toBe(1);
  });

  it('lets the same files pass without the way back', { timeout: CHECK_TIMEOUT_MS }, async () => {
    const tree = await scratchTree({
      'contracts/money.ts': 'export type Money = bigint;\n',
      'contracts/transactions.ts':
        "import type { Money } from './money.ts';\nexport type Transfer = { amount: Money };\n",
    });
    expect(await checkCycles(tree)).toEqual({ exitCode: 0, output: expect.stringContaining('no circular') });
  });

  it('finds none in the tree as it is', { timeout: CHECK_TIMEOUT_MS }, async () => {
    expect(await checkCycles(ROOT)).toEqual({ exitCode: 0, output: expect.stringContaining('no circular') });
  });
});
