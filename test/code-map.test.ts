/**
 * The code map is enforced: ESLint's import zones (eslint.config.js, generated from CODE_MAP in
 * contracts/code-map.ts) refuse a wrong-way import. Linted as if the text were a file at that
 * path, so nothing is written to the tree.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { CODE_MAP, PUBLIC_ENTRIES, type CodeFolder } from '../contracts/code-map.ts';

const root = new URL('..', import.meta.url).pathname;
const eslint = new ESLint({ cwd: root });

/** The first module (not a test) found under `path`, relative to the root. */
function someModule(path: string): string {
  for (const item of readdirSync(join(root, path), { withFileTypes: true })) {
    const child = `${path}/${item.name}`;
    if (item.isDirectory() && item.name !== 'node_modules' && item.name !== 'dist') {
      const found = someModule(child);
      if (found) return found;
    } else if (/\.tsx?$/.test(item.name) && !/\.test\.tsx?$/.test(item.name)) return child;
  }
  return '';
}

/** A real module of `folder`: its public entry when it has one. */
function moduleOf(folder: CodeFolder): string {
  const entry = PUBLIC_ENTRIES[folder]?.[0];
  return entry ? `${folder}/${entry}` : someModule(folder);
}

async function zoneErrors(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'import-x/no-restricted-paths')
    .map((message) => message.message);
}

describe('the code map', () => {
  it('refuses the ledger importing the API', async () => {
    const errors = await zoneErrors(
      'ledger/wrong-way.ts',
      "import { buildApp } from '../api/app.ts';\nvoid buildApp;\n",
    );
    expect(errors).toEqual([expect.stringContaining('ledger/ may not import api/')]);
  });

  it('refuses reaching into the ledger past its public entry', async () => {
    const errors = await zoneErrors(
      'api/wrong-way.ts',
      "import { appendToStream } from '../ledger/event-store/append.ts';\nvoid appendToStream;\n",
    );
    expect(errors).toEqual([expect.stringContaining('api/ may import ledger/ only through index.ts')]);
  });

  it('refuses one web feature importing another', async () => {
    const errors = await zoneErrors(
      'web/src/features/requests/components/Wrong.tsx',
      "import { DashboardPage } from '../../dashboard/components/DashboardPage.tsx';\nvoid DashboardPage;\n",
    );
    expect(errors).toEqual([expect.stringContaining('web features never import each other')]);
  });

  it('fences in every web feature, whichever folder it is', async () => {
    const features = readdirSync(join(root, 'web/src/features'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    const unfenced = [];
    for (const [index, feature] of features.entries()) {
      const other = features[(index + 1) % features.length]!;
      const errors = await zoneErrors(
        `web/src/features/${feature}/components/Wrong.tsx`,
        `import '../../../../../${someModule(`web/src/features/${other}`)}';\n`,
      );
      if (!errors.some((error) => error.includes('web features never import each other'))) unfenced.push(feature);
    }
    expect(unfenced).toEqual([]);
  });

  it('lets code import what the map allows', async () => {
    expect(
      await zoneErrors('api/right-way.ts', "import { createLedger } from '../ledger/index.ts';\nvoid createLedger;\n"),
    ).toEqual([]);
  });

  it('follows CODE_MAP for every folder: the first folder it may not import is refused, the first it may is not', async () => {
    const folders = Object.keys(CODE_MAP) as CodeFolder[];
    const outcomes: Record<string, { refused?: boolean; allowed?: boolean }> = {};
    for (const folder of folders) {
      const rule = CODE_MAP[folder];
      const refused = folders.find((other) => other !== folder && !rule.mayImport.includes(other));
      const allowed = rule.mayImport[0];
      const importing = async (other: CodeFolder) =>
        zoneErrors(`${folder}/wrong-way.ts`, `import '../${moduleOf(other)}';\n`);
      outcomes[folder] = {
        ...(refused && {
          refused: (await importing(refused)).some((error) => error.includes(`may not import ${refused}/`)),
        }),
        ...(allowed && { allowed: (await importing(allowed)).length === 0 }),
      };
    }
    for (const [folder, outcome] of Object.entries(outcomes)) {
      expect(outcome, folder).toEqual({
        ...(outcome.refused !== undefined && { refused: true }),
        ...(outcome.allowed !== undefined && { allowed: true }),
      });
    }
  });
});
