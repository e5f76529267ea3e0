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
import { installation } from '../runtime/installation.ts';

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

/**
 * The domains' schemas a module's string literals and template texts name: a qualified name
 * (`ledger.events`, `read.checkpoints`), a quoted one in SQL (`'ledger'::regnamespace`) or the
 * whole literal (`'ledger'`). The schemas come from the installation (runtime/installation.ts):
 * the grants and the privilege checks are handed their policies, so platform/ needs no name.
 */
export function namedSchemas(source: string, schemas: readonly string[]): string[] {
  const names = schemas.join('|');
  const qualified = new RegExp(`(?:^|[^\\w.])(${names})\\.[a-z_]`);
  const quoted = new RegExp(`'(${names})'`);
  const whole = new RegExp(`^(${names})$`);
  const file = ts.createSourceFile('module.ts', source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const named: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
      const schema = (qualified.exec(node.text) ?? quoted.exec(node.text) ?? whole.exec(node.text))?.[1];
      if (schema) named.push(schema);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return named;
}

const DOMAIN_SCHEMAS = installation.schemas;

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

  it('names no domain schema in its code (the installation hands it their policies)', () => {
    const offences = platformModules().flatMap((name) =>
      namedSchemas(readFileSync(new URL(name, PLATFORM), 'utf8'), DOMAIN_SCHEMAS).map(
        (schema) => `platform/${name} names schema ${schema}`,
      ),
    );
    expect(offences).toEqual([]);
  });

  it('the schema check sees a qualified, a quoted and a bare name, not a word in a sentence', () => {
    const planted = [
      '// select from ledger.events',
      'const a = sql`select * from ledger.events`;',
      "const b = `where c.relnamespace = 'read'::regnamespace`;",
      "const c = 'identity';",
      "const d = 'the runtime only reads that schema and audits nothing';",
      "const e = 'node.ledger';",
    ].join('\n');
    expect(namedSchemas(planted, DOMAIN_SCHEMAS)).toEqual(['ledger', 'read', 'identity']);
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
