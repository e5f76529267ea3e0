/**
 * ARCHITECTURE.md stays a short map whose facts are checked: its code-map table and SQL list
 * are what scripts/architecture-map.ts renders from CODE_MAP and the installation's SQL list (else run
 * `node scripts/architecture-map.ts --write` and review the diff), every file it names exists,
 * and it stays within its word budget.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ARCHITECTURE_FILE,
  definedFunctions,
  MAX_WORDS,
  withGeneratedSections,
  wordCount,
} from '../scripts/architecture-map.ts';

const root = new URL('..', import.meta.url);
const text = readFileSync(ARCHITECTURE_FILE, 'utf8');

/** The lines around the first difference, as a hint where to look. */
function firstDifference(expected: string, actual: string): string {
  const want = expected.split('\n');
  const got = actual.split('\n');
  const line = want.findIndex((entry, index) => entry !== got[index]);
  return `first difference at line ${line + 1}:\n  file:      ${got[line] ?? '(end)'}\n  generated: ${want[line] ?? '(end)'}`;
}

describe('ARCHITECTURE.md', () => {
  it('holds the code map and the SQL list as generated from their sources', () => {
    const generated = withGeneratedSections(text);
    expect(
      generated === text,
      `ARCHITECTURE.md is stale: run \`node scripts/architecture-map.ts --write\`\n${firstDifference(generated, text)}`,
    ).toBe(true);
  });

  it(`is at most ${MAX_WORDS} words`, () => {
    expect(wordCount(text)).toBeLessThanOrEqual(MAX_WORDS);
  });

  it('names only files that exist, in links and in code spans', () => {
    const links = [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((match) => match[1]!);
    // A code span that looks like a repository path with an extension (not a pattern like <name>).
    const spans = [...text.matchAll(/`([a-z0-9-]+\/[\w./-]+\.(?:ts|tsx|sql|md|js|yml|sh))`/g)].map(
      (match) => match[1]!,
    );
    const missing = [...links.filter((link) => !/^[a-z]+:/.test(link)), ...spans].filter(
      (path) => !path.startsWith('../') && !existsSync(new URL(path, root)),
    );
    expect(missing).toEqual([]);
  });
});

describe('definedFunctions', () => {
  it('lists created functions and the apply rule define_rule makes, not names built at run time', () => {
    const sql = [
      'create or replace function ledger.append(p jsonb) returns jsonb',
      "execute format('create or replace function projector.%I(schema text)', name);",
      "select pg_temp.define_rule('money_requests', $rule$ ... $rule$);",
    ].join('\n');
    expect(definedFunctions(sql)).toEqual(['ledger.append', 'projector.apply_money_requests']);
  });
});
