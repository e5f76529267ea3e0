/**
 * Lint: typescript-eslint's recommended rules, and the code map as import zones - `CODE_MAP`
 * (contracts/code-map.ts) is the one statement of which folder may import which; the zones are
 * generated from it, as is ARCHITECTURE.md's table, so the map, the check and the words cannot drift.
 * No regular expression may backtrack super-linearly (eslint-plugin-regexp), and request
 * strings get their rules only after their bound (`boundedText`, contracts/fields.ts).
 * Formatting is Prettier's (`npm run format:check`), so no style rule lives here. Import cycles,
 * type-only imports included, are dpdm's to refuse (dpdm.config.ts, run by `npm run lint`).
 */
import { readdirSync } from 'node:fs';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import prettier from 'eslint-config-prettier';
import regexp from 'eslint-plugin-regexp';
import tseslint from 'typescript-eslint';
// Plain data in TypeScript, loaded by Node's type stripping: the web app's page reads it too.
import { CODE_MAP, PUBLIC_ENTRIES } from './contracts/code-map.ts';

/** dpdm does not see `import('./x').T` in a type: a type comes in through `import type`. */
const NO_IMPORT_TYPE_EXPRESSION = {
  selector: 'TSImportType',
  message: "Import the type with `import type` (the cycle check, dpdm, does not follow `import('...')` in a type).",
};

const FOLDERS = Object.keys(CODE_MAP);

function codeMapZones() {
  const zones = [];
  for (const [folder, { mayImport: allowed }] of Object.entries(CODE_MAP)) {
    for (const other of FOLDERS) {
      if (other === folder) continue;
      if (!allowed.includes(other)) {
        zones.push({
          target: `./${folder}`,
          from: `./${other}`,
          message: `${folder}/ may not import ${other}/ (code map: contracts/code-map.ts)`,
        });
      } else if (PUBLIC_ENTRIES[other]) {
        zones.push({
          target: `./${folder}`,
          from: `./${other}`,
          except: PUBLIC_ENTRIES[other].map((file) => `./${file}`),
          message: `${folder}/ may import ${other}/ only through ${PUBLIC_ENTRIES[other].join(' or ')}`,
        });
      }
    }
  }
  return zones;
}

/**
 * Web features never import each other; shared components and the api client import no feature.
 * The features are read from the folder, so a new one is fenced in without an edit here (a
 * hand-kept list had missed one).
 */
function webZones() {
  const features = readdirSync(new URL('./web/src/features/', import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  return [
    ...features.map((feature) => ({
      target: `./web/src/features/${feature}`,
      from: './web/src/features',
      except: [`./${feature}`],
      message: 'web features never import each other: compose them in web/src/app',
    })),
    { target: './web/src/components', from: './web/src/features', message: 'shared components import no feature' },
    { target: './web/src/components', from: './web/src/app', message: 'shared components import nothing of app/' },
    { target: './web/src/lib', from: './web/src/features', message: 'lib/ imports no feature' },
    { target: './web/src/lib', from: './web/src/app', message: 'lib/ imports nothing of app/' },
  ];
}

export default tseslint.config(
  { ignores: ['node_modules/', 'web/dist/', 'var/', 'test-output/', 'bench/results/', 'scratch/', '**/*.tmp.ts'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.js'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })] },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [...codeMapZones(), ...webZones()] }],
      'no-restricted-syntax': ['error', NO_IMPORT_TYPE_EXPRESSION],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    // Tests wire real parts together (a ledger test starts projection workers, an api test the
    // whole app), so the code map binds the code, not its tests; tests still never cross
    // between the web app and the server.
    files: ['**/*.test.ts', '**/*.test.tsx', '**/testing/**'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './web',
              from: FOLDERS.filter((folder) => folder !== 'web' && folder !== 'contracts').map(
                (folder) => `./${folder}`,
              ),
              message: 'web tests import the web app and contracts/ only',
            },
            ...FOLDERS.filter((folder) => folder !== 'web').map((folder) => ({
              target: `./${folder}`,
              from: './web',
              message: 'server tests do not import the web app',
            })),
          ],
        },
      ],
    },
  },
  {
    // One request with a pattern that backtracks quadratically froze the whole API (a 64 KB
    // e-mail held the event loop for 8.7 s): no pattern anywhere may take more than linear time
    // on its input. The style rules of the plugin's recommended set are not turned on.
    files: ['**/*.ts', '**/*.tsx', '**/*.js'],
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
    },
  },
  {
    // A string a client sends is bounded before any rule reads it: the rules chain after
    // boundedText() (contracts/fields.ts), whose length check aborts. A plain z.string() may
    // only describe (replies, documentation); contracts/bounded-text.test.ts checks the same
    // on the built schemas.
    files: ['contracts/**/*.ts', 'api/routes/**/*.ts'],
    ignores: ['contracts/fields.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        NO_IMPORT_TYPE_EXPRESSION,
        {
          selector:
            "CallExpression[callee.property.name!=/^(meta|describe|optional|nullable|nullish)$/] > MemberExpression.callee > CallExpression.object[callee.object.name='z'][callee.property.name='string']",
          message:
            'Request strings are bounded before any rule runs: start from boundedText() (contracts/fields.ts), not z.string().',
        },
        {
          // A string format is checked before anything chained after it, a bound included.
          selector:
            "CallExpression[callee.object.name='z'][callee.property.name=/^(stringFormat|email|url|httpUrl|hostname|uuid|guid|cuid|cuid2|ulid|nanoid|jwt|base64|base64url|hex|e164|emoji|ipv4|ipv6|cidrv4|cidrv6|mac)$/]",
          message:
            'A string format reads the whole value before any bound: use boundedText().regex() (contracts/fields.ts).',
        },
      ],
    },
  },
  {
    // Functions of one job (issue 44): a function longer than a screen mixes concerns (a route
    // registration hiding a route's logic, a hub that also schedules and re-checks sessions, a
    // form hook holding state, validation, calls and toasts). Blank lines and comments count.
    // Tests are exempt: a scenario reads top to bottom.
    files: ['{api,projections,ledger,runtime}/**/*.{ts,tsx}', 'web/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: false, skipComments: false }] },
  },
  prettier,
);
