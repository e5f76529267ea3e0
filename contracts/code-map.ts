/**
 * The code map, stated once: for each top-level folder, what it owns and which of our folders
 * its code may import. ESLint's import zones are generated from it (eslint.config.js), the
 * code-map table of ARCHITECTURE.md is rendered from it (scripts/architecture-map.ts, held by
 * test/architecture-map.test.ts) and the web app's architecture page lists it. It lives in
 * contracts/ because the web app may import nothing else; it is plain data with no imports, so
 * Node loads it into the ESLint config by type stripping.
 */

export type CodeFolder =
  | 'ledger'
  | 'platform'
  | 'migrations'
  | 'scripts'
  | 'contracts'
  | 'projections'
  | 'notifications'
  | 'identity'
  | 'providers'
  | 'payments'
  | 'user-statements'
  | 'audit'
  | 'operations'
  | 'admin-actions'
  | 'api'
  | 'cli'
  | 'runtime'
  | 'bin'
  | 'web'
  | 'test'
  | 'e2e'
  | 'reliability'
  | 'bench';

export interface FolderRule {
  /** What the folder owns, in one line. */
  owns: string;
  /** Our folders its code may import besides itself (libraries are always allowed). */
  mayImport: readonly CodeFolder[];
}

/** In the order a newcomer reads them: the core first, then what is built on it, then the tests. */
export const CODE_MAP: Readonly<Record<CodeFolder, FolderRule>> = {
  ledger: {
    owns: 'the write model, the only code that appends events: events, postings, account heads, commands and their pure deciders, group commit, rejections, money, limits, its SQL functions',
    mayImport: [],
  },
  platform: {
    owns: 'config parsed once, production mode, database pools, the database server (embedded Postgres or `DATABASE_URL`), the runtime role, secret files, pg-boss, the migration runner (it applies the SQL definitions and queues it is handed), the schema dump, metrics registry, logger',
    mayImport: [],
  },
  migrations: {
    owns: 'forward-only versioned schema changes (Kysely migrator) and `schema.sql`, the schema they give',
    mayImport: [],
  },
  scripts: {
    owns: 'build and repository helpers: `ensure-web-build.ts`, `test-prerequisites.ts`, `architecture-map.ts` (the generated parts of ARCHITECTURE.md), `node24.sh`',
    mayImport: ['contracts', 'platform', 'runtime'],
  },
  contracts: {
    owns: 'what the server and the web app share: zod schemas of the wire format (the OpenAPI document is generated from them), the spec’s messages, this code map',
    mayImport: ['ledger'],
  },
  projections: {
    owns: 'the read model, the only writer of read tables: one folder per projection (definition, SQL rules, row types, queries) and `engine/` (xmin gate, projector, checkpoints, replay, waits, wake-ups, workers)',
    mayImport: ['ledger', 'platform', 'contracts'],
  },
  notifications: {
    owns: 'mail: mailer, templates, the e-mail job and its worker',
    mayImport: ['platform', 'contracts'],
  },
  identity: {
    owns: 'users, credentials, one-time codes, the PIN verifier and lockout, roles: plain tables, not event-sourced',
    mayImport: ['ledger', 'platform', 'contracts', 'notifications'],
  },
  providers: {
    owns: '`card/`: the card provider port, the Stripe and sandbox adapters, webhook signature checks',
    mayImport: ['ledger', 'platform', 'contracts'],
  },
  payments: {
    owns: 'card deposits: charge through the card port, record in the ledger, settle each webhook event once',
    mayImport: ['ledger', 'providers', 'platform', 'contracts'],
  },
  'user-statements': {
    owns: 'what users download of their own wallet: the statement as CSV and PDF and a payment’s receipt as PDF, worded alike, and the CSV cell rules the admins’ exports follow too; no HTTP',
    mayImport: ['ledger', 'projections', 'platform', 'contracts'],
  },
  audit: {
    owns: 'checking the books, for the CLI and the admin API: verify and its recorded runs, trial balance, explorer, an account’s statement and balance, pending deposits; and the audit trail; no HTTP',
    mayImport: ['user-statements', 'ledger', 'projections', 'platform', 'contracts'],
  },
  operations: {
    owns: 'what operators watch of a running system: readiness checks, the Prometheus gauges read at scrape time, projection status and lag, replays requested from the admin pages; no HTTP',
    mayImport: ['audit', 'projections', 'platform', 'contracts'],
  },
  'admin-actions': {
    owns: 'admins’ money actions (settle, fail, reverse) with four eyes, approvals and their refusals; no HTTP',
    mayImport: ['audit', 'ledger', 'platform', 'contracts'],
  },
  api: {
    owns: '`buildApp`, routes, auth, rate limits, security headers, the one error table, read-after-reply, the live updates hub and streams',
    mayImport: [
      'ledger',
      'projections',
      'identity',
      'notifications',
      'providers',
      'payments',
      'user-statements',
      'audit',
      'operations',
      'admin-actions',
      'contracts',
      'platform',
    ],
  },
  cli: {
    owns: 'operator commands (`npm run ledger`) as plain, testable functions: parse and print',
    mayImport: ['audit', 'operations', 'ledger', 'projections', 'platform', 'contracts'],
  },
  runtime: {
    owns: 'the composition root: the API and worker processes, the operator commands, their shared system, graceful stop, what the migration run installs (each domain’s SQL definition files and queues)',
    mayImport: [
      'api',
      'audit',
      'cli',
      'contracts',
      'identity',
      'ledger',
      'notifications',
      'operations',
      'payments',
      'platform',
      'projections',
      'providers',
    ],
  },
  bin: {
    owns: 'entry points, a few lines each: the only files that read the environment',
    mayImport: ['runtime', 'platform', 'cli'],
  },
  web: {
    owns: 'the React app: `src/app` (router, routes, session) composes `src/features/*`; `src/components/ui`, `src/lib`',
    mayImport: ['contracts'],
  },
  test: {
    owns: 'shared test support: the Postgres harness (a database per file), the app harness, real processes, read-model waits, a hot standby, PgBouncer, a fake Stripe',
    mayImport: [
      'api',
      'audit',
      'cli',
      'contracts',
      'identity',
      'ledger',
      'notifications',
      'payments',
      'platform',
      'projections',
      'providers',
      'runtime',
    ],
  },
  e2e: {
    owns: 'browser end-to-end tests against the real server',
    mayImport: ['test', 'platform', 'contracts'],
  },
  reliability: {
    owns: 'crash (`kill -9`), load, hostile input, Postgres restart and the durability drills, against real processes',
    mayImport: ['test', 'platform', 'contracts', 'runtime', 'audit', 'ledger'],
  },
  bench: {
    owns: 'benchmarks with same-run baselines; their results in `RESULTS.md`',
    mayImport: [
      'runtime',
      'ledger',
      'platform',
      'projections',
      'identity',
      'reliability',
      'test',
      'audit',
      'operations',
    ],
  },
};

/** Only these files of a folder may be imported from outside it: its public entry. */
export const PUBLIC_ENTRIES: Readonly<Partial<Record<CodeFolder, readonly string[]>>> = {
  ledger: ['index.ts', 'limits.ts', 'event-types.ts'],
};

/** Folders without code of ours, so without import rules. */
export const OTHER_FOLDERS: Readonly<Record<string, string>> = {
  docs: 'each area in depth, and the decision records',
  deploy: 'Prometheus and its alerts, Grafana, the nginx balancer, PgBouncer, Patroni, HAProxy',
};
