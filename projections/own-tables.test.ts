/**
 * Each projection's queries read only its own tables (issue 44): a file of a projection's folder
 * (its rules' definition and its tables aside) names or imports another projection's tables
 * only where CROSS_READS says so, and then its parameter's type names them too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const FOLDERS = ['accounts', 'history', 'money-requests', 'statement-days'] as const;
/** One statement each, kept whole on a hot read: the file and the other projection it reads. */
const CROSS_READS: Record<string, (typeof FOLDERS)[number]> = {
  'accounts/queries.ts': 'history',
  'history/entry.ts': 'accounts',
};

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
const tablesOf = (folder: string) =>
  [...read(`./${folder}/tables.ts`).matchAll(/^ {2}'(read\.\w+)':/gm)].map((m) => m[1] ?? '');
const queryFiles = (folder: string) =>
  readdirSync(new URL(`./${folder}/`, import.meta.url)).filter(
    (name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && name !== 'tables.ts' && name !== 'projection.ts',
  );

describe.each(FOLDERS)('projection folder %s', (folder) => {
  it('has its own tables, and its queries name and import no other projection’s but as CROSS_READS says', () => {
    expect(tablesOf(folder).length).toBeGreaterThan(0);
    for (const file of queryFiles(folder)) {
      const text = read(`./${folder}/${file}`);
      const allowed = CROSS_READS[`${folder}/${file}`];
      for (const other of FOLDERS.filter((name) => name !== folder && name !== allowed)) {
        const named = tablesOf(other).filter((table) =>
          new RegExp(`\\b${table.replace('.', '\\.')}\\b(?!\\()`).test(text),
        );
        expect({ file, named, imports: text.includes(`'../${other}/tables.ts'`) }).toEqual({
          file,
          named: [],
          imports: false,
        });
      }
    }
  });
});
