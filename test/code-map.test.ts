/**
 * The code map is enforced: ESLint's import zones (eslint.config.js, generated from CODE_MAP)
 * refuse a wrong-way import. Linted as if the text were a file at that path, so nothing is
 * written to the tree.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });

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

  it('lets code import what the map allows', async () => {
    expect(
      await zoneErrors('api/right-way.ts', "import { createLedger } from '../ledger/index.ts';\nvoid createLedger;\n"),
    ).toEqual([]);
  });
});
