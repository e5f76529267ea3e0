/**
 * The generated parts of ARCHITECTURE.md: the code-map table, rendered from CODE_MAP
 * (contracts/code-map.ts, which ESLint's import zones come from too), and the list of SQL
 * definition files, rendered from the list the migration run applies (runtime/installation.ts,
 * each domain's own files put together) and the functions each file defines. Each sits
 * between marker comments; `node scripts/architecture-map.ts --write` rewrites them, and
 * test/architecture-map.test.ts fails while the file differs from what this renders.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { CODE_MAP, OTHER_FOLDERS, PUBLIC_ENTRIES, type CodeFolder } from '../contracts/code-map.ts';
import { definitionName, readSqlDefinition } from '../platform/sql-definitions.ts';
import { installation } from '../runtime/installation.ts';

export const ARCHITECTURE_FILE = new URL('../ARCHITECTURE.md', import.meta.url);

/** The issue that asked for one short map set this bound; the detail lives in docs/. */
export const MAX_WORDS = 3_000;

/** Words as `wc -w` counts them. */
export function wordCount(text: string): number {
  return text.split(/\s+/).filter((word) => word !== '').length;
}

function importTarget(folder: CodeFolder): string {
  return PUBLIC_ENTRIES[folder] ? `\`${folder}/\` entry` : `\`${folder}/\``;
}

export function renderCodeMap(): string {
  const rows = Object.entries(CODE_MAP).map(([folder, rule]) => {
    const allowed = rule.mayImport.length === 0 ? 'nothing of ours' : rule.mayImport.map(importTarget).join(', ');
    return `| \`${folder}/\` | ${rule.owns} | ${allowed} |`;
  });
  const others = Object.entries(OTHER_FOLDERS).map(([folder, owns]) => `| \`${folder}/\` | ${owns} | (no code) |`);
  const entries = Object.entries(PUBLIC_ENTRIES).map(
    ([folder, files]) =>
      `Outside \`${folder}/\`, it is imported only through its entry: ${files.map((file) => `\`${folder}/${file}\``).join(', ')}.`,
  );
  return ['| folder | owns | may import |', '|---|---|---|', ...rows, ...others, '', ...entries].join('\n');
}

/**
 * The functions a definition file creates: its `create or replace function` statements, and
 * the `projector.apply_<name>` rule that `pg_temp.define_rule` makes of a projection's rule.
 * A name built at run time by format() is not a literal, so it is not listed.
 */
export function definedFunctions(sqlText: string): string[] {
  const names = new Set<string>();
  for (const match of sqlText.matchAll(/create or replace function ([a-z_]+\.[a-z_]+)\s*\(/gi)) {
    names.add(match[1]!.toLowerCase());
  }
  for (const match of sqlText.matchAll(/pg_temp\.define_rule\('([a-z_]+)'/gi)) {
    names.add(`projector.apply_${match[1]!.toLowerCase()}`);
  }
  return [...names];
}

export function renderSqlList(): string {
  const rows = installation.sqlDefinitions.map((file, index) => {
    const functions = definedFunctions(readSqlDefinition(file));
    return `| ${index + 1} | \`${definitionName(file)}\` | ${functions.map((name) => `\`${name}\``).join(', ') || '-'} |`;
  });
  return ['| order | file | functions it defines |', '|---|---|---|', ...rows].join('\n');
}

const SECTIONS: Record<string, () => string> = { 'code-map': renderCodeMap, 'sql-list': renderSqlList };

/** `text` with every generated section replaced by what this script renders now. */
export function withGeneratedSections(text: string): string {
  let result = text;
  for (const [name, render] of Object.entries(SECTIONS)) {
    const begin = `<!-- generated:${name} by scripts/architecture-map.ts -->`;
    const end = `<!-- end generated:${name} -->`;
    const from = result.indexOf(begin);
    const to = result.indexOf(end);
    if (from === -1 || to < from) throw new Error(`ARCHITECTURE.md lacks the markers of section ${name}: ${begin}`);
    result = `${result.slice(0, from + begin.length)}\n${render()}\n${result.slice(to)}`;
  }
  return result;
}

function main(): void {
  const current = readFileSync(ARCHITECTURE_FILE, 'utf8');
  const generated = withGeneratedSections(current);
  if (process.argv.includes('--write')) {
    if (generated !== current) writeFileSync(ARCHITECTURE_FILE, generated);
    console.log(generated === current ? 'ARCHITECTURE.md is up to date' : 'ARCHITECTURE.md rewritten');
  } else if (generated !== current) {
    console.error('ARCHITECTURE.md is stale: run `node scripts/architecture-map.ts --write`');
    process.exitCode = 1;
  }
}

if (import.meta.main) main();
