/**
 * An ESLint rule that refuses import cycles between our own modules, type-only imports
 * included. import-x's no-cycle skips `import type` on purpose (types vanish at run time), but
 * a cycle through types still ties two modules into one: neither can be read, moved or tested
 * without the other, and a type that both sides need has no owner. So every relative import
 * counts here: `import`, `import type`, `export ... from`, `import()` and `typeof import()`.
 *
 * The file being linted is read from its syntax tree (so an editor's unsaved text, or text
 * linted with `lintText`, is what is checked); every other file from disk, through
 * TypeScript's import scanner. An import of this file closes a cycle when this file can be
 * reached again from the imported one.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const SCANNED_EXTENSIONS = new Set(['.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs']);
const TRIED_EXTENSIONS = ['.ts', '.tsx', '.js'];

/**
 * Files read from disk (and how specifiers resolve) are kept this long, so one lint run reads each file once while an
 * editor's long-lived ESLint still sees files change.
 */
const GRAPH_LIFETIME_MS = 10_000;

let graph = new Map();
let resolved = new Map();
let graphBuiltAt = 0;

function refreshIfOld() {
  if (Date.now() - graphBuiltAt > GRAPH_LIFETIME_MS) {
    graph = new Map();
    resolved = new Map();
    graphBuiltAt = Date.now();
  }
}

function isRelative(specifier) {
  return specifier.startsWith('./') || specifier.startsWith('../');
}

function isFile(candidate) {
  return existsSync(candidate) && statSync(candidate).isFile();
}

/** The file a relative specifier names (Vite's `?raw`-style suffixes dropped), or undefined. */
function resolveImport(fromFile, specifier) {
  if (!isRelative(specifier)) return undefined;
  const key = `${path.dirname(fromFile)}\0${specifier}`;
  if (!resolved.has(key)) resolved.set(key, resolveOnDisk(fromFile, specifier));
  return resolved.get(key);
}

function resolveOnDisk(fromFile, specifier) {
  const base = path.resolve(path.dirname(fromFile), specifier.split('?')[0]);
  if (isFile(base)) return base;
  for (const extension of TRIED_EXTENSIONS) {
    if (isFile(base + extension)) return base + extension;
  }
  for (const extension of TRIED_EXTENSIONS) {
    const index = path.join(base, `index${extension}`);
    if (isFile(index)) return index;
  }
  return undefined;
}

/** The files a file on disk imports (relative imports only; external packages are no cycle). */
function importsOnDisk(file) {
  const known = graph.get(file);
  if (known) return known;
  let targets = [];
  if (SCANNED_EXTENSIONS.has(path.extname(file))) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    targets = [
      ...new Set(importedFiles.map((reference) => resolveImport(file, reference.fileName)).filter((target) => target)),
    ];
  }
  graph.set(file, targets);
  return targets;
}

/** The chain of files from `start` back to `file` (both included), or undefined if there is none. */
function pathBack(start, file) {
  const cameFrom = new Map([[start, undefined]]);
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const current = queue[head];
    if (current === file) {
      const chain = [];
      for (let step = current; step !== undefined; step = cameFrom.get(step)) chain.unshift(step);
      return chain;
    }
    for (const next of importsOnDisk(current)) {
      if (!cameFrom.has(next)) {
        cameFrom.set(next, current);
        queue.push(next);
      }
    }
  }
  return undefined;
}

/** The string literal a node of the syntax tree imports from, if any. */
function importedSpecifier(node) {
  const source = node.type === 'TSImportType' ? node.argument?.literal : node.source;
  return source?.type === 'Literal' && typeof source.value === 'string' ? source : undefined;
}

export const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid import cycles between our own modules, type-only imports included.' },
    schema: [],
    messages: {
      cycle: 'Import cycle (type imports count too): {{chain}}. Move what both sides need to the module that owns it.',
    },
  },
  create(context) {
    const file = context.physicalFilename;
    if (file === '<text>' || !path.isAbsolute(file)) return {};
    const cwd = context.cwd;
    const reported = new Set();
    refreshIfOld();
    function check(node) {
      const specifier = importedSpecifier(node);
      if (!specifier) return;
      const target = resolveImport(file, specifier.value);
      if (!target || target === file || reported.has(target)) return;
      const chain = pathBack(target, file);
      if (!chain) return;
      reported.add(target);
      context.report({
        node: specifier,
        messageId: 'cycle',
        data: { chain: [file, ...chain].map((step) => path.relative(cwd, step)).join(' -> ') },
      });
    }
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
      TSImportType: check,
    };
  },
};

export default { rules: { 'no-import-cycle': noImportCycle } };
