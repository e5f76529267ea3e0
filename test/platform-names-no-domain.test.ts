/**
 * platform/ runs what it is handed and knows no domain by its files (issue 44): a string or an
 * import in its code that names a domain's folder (`ledger/sql/append.sql`,
 * `../projections/index.ts`) is a dependency up the map that import zones cannot see, since
 * a file read by path is not an import. Comments may point a reader elsewhere; code may not.
 */
import { readdirSync, readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { CODE_MAP } from '../contracts/code-map.ts';

const PLATFORM = new URL('../platform/', import.meta.url);

/**
 * The code map's folders of the application, above platform/. Not its own input, the
 * versioned migrations it runs (migrations/), nor the tooling that names platform's files in
 * messages (bin/, scripts/, the test folders).
 */
const NOT_DOMAINS = new Set(['platform', 'migrations', 'scripts', 'bin', 'test', 'e2e', 'reliability', 'bench']);
const DOMAIN_FOLDERS = Object.keys(CODE_MAP).filter((folder) => !NOT_DOMAINS.has(folder));
const FOLDER_PATH = new RegExp(`(?:^|[^\\w-])(${DOMAIN_FOLDERS.join('|')})/`);

/** The domain folders a module's string literals and template texts name, in order. */
export function namedFolders(source: string): string[] {
  const file = ts.createSourceFile('module.ts', source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const named: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
      const folder = FOLDER_PATH.exec(node.text)?.[1];
      if (folder) named.push(folder);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return named;
}

function platformModules(): string[] {
  return readdirSync(PLATFORM).filter((name) => /\.ts$/.test(name) && !/\.test\.ts$/.test(name));
}

describe('platform/', () => {
  it('names no domain folder in its code', () => {
    const offences = platformModules().flatMap((name) =>
      namedFolders(readFileSync(new URL(name, PLATFORM), 'utf8')).map((folder) => `platform/${name} names ${folder}/`),
    );
    expect(offences).toEqual([]);
  });

  it('the check sees a path in a string, an import and a template, not in a comment or another word', () => {
    const planted = [
      '// ledger/sql/append.sql is applied later',
      "import { x } from '../projections/index.ts';",
      "const file = 'ledger/sql/append.sql';",
      'const dir = `${root}/identity/`;',
      "const output = 'test-output/';",
    ].join('\n');
    expect(namedFolders(planted)).toEqual(['projections', 'ledger', 'identity']);
  });
});
